"""Write only the cells that differ from the frame the terminal already shows (issue 40).

Textual writes every region it repaints whole, each styled segment as its full SGR, the
text, then a reset: a cursor move in a tree rewrites the tree and the detail pane,
padding included, and neighbouring segments of one style repeat their colour codes.
Over SSH on a slow link those bytes are what a key costs. `Frame` keeps the cells the
terminal shows (a character and its style's SGR parameters each) and turns a repaint
into the terminal output of only the cells that changed, as ncurses and mosh do: runs
of changed cells, one cursor move per run (a short gap of unchanged cells is written
again instead), an SGR only where the style changes and then only what changes.

What Textual repaints reaches `Frame` as pieces, ``(x, y, strip)``: the strip as Textual
would write it at that place (`ui.textual_compat` takes them from its updates).

A row's changed cells that end it blank, in one pen, are written as an erase to the end
of the line: terminals fill erased cells with the current background colour (``bce``,
as xterm, VTE, tmux and their kin do), so a pane's blank rows cost a few bytes each
rather than a space per column.

The frame can only be trusted while nothing else writes to the terminal's cells: a
resize, or the app resuming after a suspend, calls `Frame.forget`, and the next
repaint then writes what it covers in full.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from rich.cells import split_graphemes
from rich.color import ColorSystem
from rich.style import Style
from textual.strip import Strip

Piece = tuple[int, int, Strip]
"""A strip as Textual would write it: its first column, its row, the strip."""
_Placed = tuple[int, int, Strip]
"""A strip written on a row: its first column, its end column, the strip."""

_UNKNOWN = "\0unknown"
"""A cell of the forgotten frame: equal to nothing Textual writes."""
_CACHED = 1024
"""Entries kept of a cache of styles or texts."""
_STRIPS = 512
"""Strips kept in a generation of the strip cache (two are kept): a frame's pieces
number in the hundreds."""
_GAP = 6
"""Unchanged cells between two runs of a row written again rather than skipped: a
cursor move costs 6-8 bytes, a cell of plain text 1."""
_ERASE = 4
"""Blank cells ending a row written as an erase to the end of the line (``CSI K``, 3
bytes) rather than as spaces, from this many on."""
_HIDDEN_ON_BLANK = frozenset({"1", "2", "3", "5", "6", "8"})
"""SGR attributes a blank cell does not show (bold, dim, italic, blink, concealed): an
erase, which gives the cells the pen's background and no attribute, draws blanks of a
pen with no other attribute as they are."""


@dataclass(frozen=True, slots=True, eq=False)
class _Pen:
    """A style as SGR parameters, split so that a change can name only what changed.

    Compared by identity (fast): one pen per SGR and link while the cache keeps it; two
    equal pens that are not one only cost their cells being written again.
    """

    attributes: frozenset[str]
    foreground: str  # "" is the terminal's default
    background: str
    link: str
    full: str  # the parameters of the whole style, as Textual writes them


_DEFAULT = _Pen(frozenset(), "", "", "", "")


def _split(ansi: str, link: str) -> _Pen:
    """`_Pen` of Textual's SGR parameters for a style (``Strip.render_ansi``)."""
    attributes: set[str] = set()
    foreground = background = ""
    codes = ansi.split(";") if ansi else []
    index = 0
    while index < len(codes):
        code = codes[index]
        if code in ("38", "48"):
            size = 3 if index + 1 < len(codes) and codes[index + 1] == "5" else 5
            colour = ";".join(codes[index : index + size])
            index += size
            if code == "38":
                foreground = colour
            else:
                background = colour
            continue
        number = int(code) if code.isascii() and code.isdecimal() else -1
        if 30 <= number <= 37 or 90 <= number <= 97:
            foreground = code
        elif 40 <= number <= 47 or 100 <= number <= 107:
            background = code
        else:
            attributes.add(code)
        index += 1
    return _Pen(frozenset(attributes), foreground, background, link, ansi)


def _sgr(pen: _Pen, new: _Pen) -> str:
    """Terminal output taking the pen from ``pen`` to ``new``."""
    out = ""
    if pen.link != new.link:
        if pen.link:
            out += "\x1b]8;;\x1b\\"
        if new.link:
            out += f"\x1b]8;id={abs(hash(new.link))};{new.link}\x1b\\"
    if pen.full == new.full:
        return out
    reset = f"\x1b[0;{new.full}m" if new.full else "\x1b[m"
    if pen.attributes - new.attributes:
        return out + reset  # turning an attribute off: only a reset is sure (22 ends two)
    codes = sorted(new.attributes - pen.attributes)
    if new.foreground != pen.foreground:
        codes.append(new.foreground or "39")
    if new.background != pen.background:
        codes.append(new.background or "49")
    if not codes:
        return out  # the same style, its codes in another order
    change = f"\x1b[{';'.join(codes)}m"
    return out + (change if len(change) < len(reset) else reset)


def _split_text(text: str) -> tuple[str, tuple[str, ...]]:
    """A text's zero-width start (joining the cell before it), and its cells."""
    spans, _ = split_graphemes(text)
    leading = ""
    cells: list[str] = []
    for start, end, width in spans:
        grapheme = text[start:end]
        if width == 0:
            if cells:
                cells[-1] += grapheme
            else:
                leading += grapheme
            continue
        cells.append(grapheme)
        if width == 2:
            cells.append("")  # the right half: written with the left
    return leading, tuple(cells)


class Frame:
    """The cells the terminal shows, and the output that changes them (module docstring)."""

    def __init__(self) -> None:
        self.width = 0
        self.height = 0
        self._chars: list[list[str]] = []
        self._placed: list[dict[int, tuple[int, Strip]]] = []
        """Per row, the strips last written whole, by first column: (end column, strip)."""
        self._pens: list[list[_Pen | None]] = []
        self._pen_of: dict[tuple[str, str], _Pen] = {}
        self._pen_by_style: dict[tuple[Style, ColorSystem], _Pen] = {}
        self._text_cells: dict[str, tuple[str, tuple[str, ...]]] = {}
        self._strips: dict[int, tuple[Strip, ColorSystem, list[str], list[_Pen]]] = {}
        self._old_strips: dict[int, tuple[Strip, ColorSystem, list[str], list[_Pen]]] = {}

    def forget(self, width: int, height: int) -> None:
        """The terminal's cells are unknown (a new size, a resume): write everything next."""
        self.width, self.height = width, height
        self._chars = [[_UNKNOWN] * width for _ in range(height)]
        self._pens = [[None] * width for _ in range(height)]
        self._placed = [{} for _ in range(height)]

    def _pen(self, style: Style | None, colours: ColorSystem) -> _Pen:
        if style is None:
            return _DEFAULT
        pen = self._pen_by_style.get((style, colours))
        if pen is not None:
            return pen
        if len(self._pen_by_style) > _CACHED:
            self._pen_by_style.clear()
        pen = self._pen_by_style[style, colours] = self._pen_of_ansi(style, colours)
        return pen

    def _pen_of_ansi(self, style: Style, colours: ColorSystem) -> _Pen:
        # Styles that differ only in what is not drawn (meta: offsets, actions) share one.
        ansi = Strip.render_ansi(style, colours)
        link = style.link or ""
        key = (ansi, link)
        pen = self._pen_of.get(key)
        if pen is None and key == ("", ""):
            pen = _DEFAULT
        if pen is None:
            if len(self._pen_of) > _CACHED:  # styles are few; bound it all the same
                self._pen_of.clear()
            pen = self._pen_of[key] = _split(ansi, link)
        return pen

    def _cells(self, strip: Strip, colours: ColorSystem) -> tuple[list[str], list[_Pen]]:
        """A strip's cells: its characters (a wide one's right half "") and their pens."""
        # Textual hands the same Strip objects again for what did not change (its line,
        # divide and crop caches): keyed by identity, kept (so alive) for two generations.
        known = self._strips.get(id(strip)) or self._old_strips.get(id(strip))
        if known is not None and known[0] is strip and known[1] == colours:
            self._strips[id(strip)] = known
            return known[2], known[3]
        chars: list[str] = []
        pens: list[_Pen] = []
        for text, style, _ in strip:
            pen = self._pen(style, colours)
            if text.isascii():
                chars += text
                pens += [pen] * len(text)
                continue
            split = self._text_cells.get(text)
            if split is None:
                if len(self._text_cells) > _CACHED:
                    self._text_cells.clear()
                split = self._text_cells[text] = _split_text(text)
            leading, cells = split
            if leading and chars:
                chars[-1] += leading  # joins the character before it on the screen
            elif leading and cells:
                cells = (leading + cells[0], *cells[1:])
            chars += cells
            pens += [pen] * len(cells)
        if len(self._strips) > _STRIPS:
            self._old_strips, self._strips = self._strips, {}
        self._strips[id(strip)] = (strip, colours, chars, pens)
        return chars, pens

    def prepare(
        self, width: int, height: int, pieces: Iterable[Piece], colours: ColorSystem
    ) -> tuple[str, Callable[[], None]]:
        """The output showing ``pieces`` over the frame ("" when they change nothing), and
        the call that keeps the frame as shown then (once the output is written, or at
        once when there is nothing to write)."""
        if (width, height) != (self.width, self.height):
            self.forget(width, height)
        rows: dict[int, tuple[list[str], list[_Pen | None], list[int], list[_Placed]]] = {}
        for x, y, strip in pieces:
            if not 0 <= y < height or not 0 <= x < width:
                continue
            end = min(width, x + strip.cell_length)
            placed = self._placed[y].get(x)
            if placed is not None and placed[1] is strip and placed[0] == end:
                continue  # the very strip the terminal shows there: Textual's caches
            if y not in rows:
                rows[y] = (self._chars[y][:], self._pens[y][:], [width, 0], [])
            chars, pens, span, placing = rows[y]
            new_chars, new_pens = self._cells(strip, colours)
            end = min(width, x + len(new_chars))
            chars[x:end] = new_chars if end - x == len(new_chars) else new_chars[: end - x]
            pens[x:end] = new_pens if end - x == len(new_pens) else new_pens[: end - x]
            placing.append((x, end, strip))
            if x < span[0]:
                span[0] = x
            if end > span[1]:
                span[1] = end
        out: list[str] = []
        # Each frame leaves the pen at the terminal's default, as Textual's own do (and
        # as Textual takes it to be at the start, writing unstyled text as is).
        pen = _DEFAULT
        changed: list[int] = []
        for y in sorted(rows):
            chars, pens, (first, end), _ = rows[y]
            old_chars, old_pens = self._chars[y], self._pens[y]
            if chars[first:end] == old_chars[first:end] and pens[first:end] == old_pens[first:end]:
                continue
            pen = self._write_row(out, y, chars, pens, old_chars, old_pens, first, end, pen)
            changed.append(y)
        if pen is not _DEFAULT:
            out.append(_sgr(pen, _DEFAULT))

        def keep() -> None:
            if (width, height) != (self.width, self.height):
                return  # forgotten meanwhile
            for y in changed:
                self._chars[y], self._pens[y] = rows[y][0], rows[y][1]
            for y, (_, _, _, placing) in rows.items():
                placed = self._placed[y]
                for x, end, _ in placing:
                    for other in [o for o, (o_end, _) in placed.items() if o < end and x < o_end]:
                        del placed[other]  # overwritten, at least in part
                for x, end, strip in placing:
                    placed[x] = (end, strip)

        return "".join(out), keep

    def _write_row(
        self,
        out: list[str],
        y: int,
        chars: list[str],
        pens: list[_Pen | None],
        old_chars: list[str],
        old_pens: list[_Pen | None],
        first: int,
        end: int,
        pen: _Pen,
    ) -> _Pen:
        changed = [
            pens[x] is not old_pens[x] or chars[x] != old_chars[x] for x in range(first, end)
        ]
        x = first
        while x < end:
            if not changed[x - first]:
                x += 1
                continue
            start = x - 1 if chars[x] == "" and x > 0 else x  # a right half: from its left
            stop = x
            while True:  # to the end of the run, and on over short known gaps
                while stop < end and changed[stop - first]:
                    stop += 1
                after = stop
                while after < end and after - stop <= _GAP and not changed[after - first]:
                    after += 1
                if after < end and changed[after - first] and _UNKNOWN not in chars[stop:after]:
                    stop = after
                    continue
                break
            while stop < len(chars) and chars[stop] == "":
                stop += 1  # through a wide character's right half
            out.append(f"\x1b[{y + 1};{start + 1}H")
            column = start
            erase = _blank_tail(chars, pens, start, stop)
            while column < erase:  # by cells of one pen (a right half's "" writes nothing)
                cell_pen = pens[column] or _DEFAULT
                same = column + 1
                while same < stop and pens[same] is cell_pen:
                    same += 1
                if cell_pen is not pen:
                    out.append(_sgr(pen, cell_pen))
                    pen = cell_pen
                out.append("".join(chars[column:same]))
                column = same
            if erase < stop:
                tail_pen = pens[erase] or _DEFAULT
                if tail_pen is not pen:
                    out.append(_sgr(pen, tail_pen))
                    pen = tail_pen
                out.append("\x1b[K")
            x = stop
        return pen


def _blank_tail(chars: list[str], pens: list[_Pen | None], start: int, stop: int) -> int:
    """Where the cells ``chars[start:stop]`` turn blank in one pen to the end of the row,
    for an erase to write them (``stop`` when they do not, or too few)."""
    if stop != len(chars) or chars[stop - 1] != " ":
        return stop
    pen = pens[stop - 1] or _DEFAULT
    if pen.link or not pen.attributes <= _HIDDEN_ON_BLANK:
        return stop
    tail = stop - 1
    while tail > start and chars[tail - 1] == " " and (pens[tail - 1] or _DEFAULT) is pen:
        tail -= 1
    return tail if stop - tail >= _ERASE else stop
