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
  (a 50 MB name costs nothing to draw).

It does not escape markup: widgets receive the result as `rich.text.Text` (see
`vagent_tui.ui.text`), which is never parsed as markup. No dependency on Textual, so
the command line can use it for what it prints too.
"""

from __future__ import annotations

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
        cut = len(text) - limit
        text = text[:limit]
    if not text.isprintable():  # the fast path: most text is
        text = "".join(c if c.isprintable() else _visible(c, multiline) for c in text)
    if cut:
        text += f"…(+{counted(cut, 'character')})"
    return text
