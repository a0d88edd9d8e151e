"""Outside text made inert: the one function every displayed outside string goes through.

Text from outside the process (platform replies, config files, a token command's
errors, the journal on disk) may carry control characters and escape sequences that a
terminal obeys: OSC 52 writes the clipboard, OSC 0 retitles the window, ``ESC[2J``
clears the screen. Bidi overrides and zero-width characters make a name read as
something it is not. `inert` turns such a string into text that only shows:

* C0 controls become their Unicode control pictures (``ESC`` is ``␛``, so
  ``\\x1b[2J`` shows as ``␛[2J``), ``DEL`` is ``␡``;
* C1 controls, bidi controls, zero-width and other invisible format characters, line
  and paragraph separators and lone surrogates show as ``⟨U+202E⟩``;
* a newline is ``⏎`` on one line (table cells, titles), kept in ``multiline`` text;
* a value longer than ``limit`` is cut, with a visible mark saying how much was left out
  (a 50 MB name costs nothing to draw); a value cut before (`cut`: a reply bounded as
  it was read) counts what its own mark says.

It does not escape markup: widgets receive the result as `rich.text.Text` (see
`vagent_tui.ui.text`), which is never parsed as markup. No dependency on Textual, so
the command line can use it for what it prints too.
"""

from __future__ import annotations

import re
import unicodedata

from vagent_tui.words import counted

DISPLAY_LIMIT = 2_000
"""Characters of one displayed value (a name, a label, a message) before it is cut."""

MULTILINE_LIMIT = 200_000
"""Characters of one displayed block of text (instructions, a journal body)."""

NEWLINE_MARK = "⏎"
_C0_PICTURES = {code: chr(0x2400 + code) for code in range(0x20)}
_C0_PICTURES[0x7F] = "\u2421"  # ␡
_cache: dict[str, str] = {}
_CUT_MARK = re.compile(r"…\(\+([\d,]+) characters?\)\Z")
"""The mark `inert` and `cut` end a cut text with."""


def _left_out(text: str, keep: int) -> int:
    """Characters left out when ``text`` keeps ``keep``: a text cut before (its mark at
    the end) counts what its mark says instead of the mark."""
    left = len(text) - keep
    earlier = _CUT_MARK.search(text, max(0, len(text) - 40))
    if earlier is not None and earlier.start() >= keep:
        left += int(earlier.group(1).replace(",", "")) - len(earlier.group(0))
    return left


def _visible(char: str, multiline: bool) -> str:
    """What one character that is not plainly printable shows as."""
    code = ord(char)
    if char == "\n":
        return "\n" if multiline else NEWLINE_MARK
    if char == "\t":
        return "\t" if multiline else _C0_PICTURES[9]
    if code < 0x20 or code == 0x7F:
        return _C0_PICTURES[code]
    if char in _cache:
        return _cache[char]
    # Other spaces, unassigned and private-use characters obey nothing: shown as they are.
    invisible = unicodedata.category(char) in ("Cc", "Cf", "Cs", "Zl", "Zp")
    shown = f"⟨U+{code:04X}⟩" if invisible else char
    _cache[char] = shown
    return shown


def cut(text: str, limit: int) -> str:
    """``text`` in at most ``limit`` characters: its start, then the cut mark `inert`
    writes (how many characters were left out); as it is when it is not longer.

    For text cut before it is shown (a reply bounded as it is read): `inert` with the
    same ``limit`` leaves the result as it is.
    """
    if len(text) <= limit:
        return text
    keep = limit
    while True:
        mark = f"…(+{counted(_left_out(text, keep), 'character')})"
        if keep + len(mark) <= limit or keep == 0:
            return text[:keep] + mark
        keep = max(0, limit - len(mark))


def inert(value: object, *, multiline: bool = False, limit: int | None = None) -> str:
    """``value`` as text that a terminal can only show, never obey.

    Args:
        value: Any value; ``None`` is the empty string, others are ``str(value)``.
        multiline: Keep newlines and tabs (a text block); otherwise one line.
        limit: Characters kept before the cut mark; ``DISPLAY_LIMIT`` (one line) or
            ``MULTILINE_LIMIT`` (a block) by default, ``0`` for no limit.

    Returns:
        The display text. Plain printable text comes back unchanged.
    """
    text = "" if value is None else value if isinstance(value, str) else str(value)
    if limit is None:
        limit = MULTILINE_LIMIT if multiline else DISPLAY_LIMIT
    cut = 0
    if limit and len(text) > limit:
        cut = _left_out(text, limit)
        text = text[:limit]
    if not text.isprintable():  # the fast path: most text is
        text = "".join(c if c.isprintable() else _visible(c, multiline) for c in text)
    if cut:
        text += f"…(+{counted(cut, 'character')})"
    return text


def csv_cell(text: str) -> str:
    """Text a spreadsheet shows as text: a leading ``= + - @`` (a formula) is quoted.

    Every export of platform text goes through it (names, keys, messages): an account
    named ``=HYPERLINK(...)`` must not run when the file is opened."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text
