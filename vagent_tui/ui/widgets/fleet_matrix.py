"""The fleet matrix: one keyed row per agent account, one column per answer value.

Not a `DataTable`: a DataTable keys every render cache on one counter that each cell
write bumps, so a single answer makes it render every row in view again. Here each row
is rendered once into a `Strip` and kept; a cell write drops that row's strip and
repaints that one line, and only when it is in view (`FleetMatrix.put`). A column that
must grow re-renders the rows, which happens a few times a run: columns only grow, to
at most `MAX_TEXT` cells. So an answer costs one row's render at most, wherever it
lands, and the screen can write each answer as it arrives.

The header line stays at the top; rows scroll under it (wheel, scroll bars, arrows,
page keys, home/end; left/right scroll sideways). A click moves the cursor. The
``Result`` column holds ``…`` (waiting), ``✓``, ``–`` (not asked: the run was
cancelled) or ``✗ <message>`` for an account whose request failed.

Every cell is made inert (`vagent_tui.ui.text.safe_value`) before it is kept. At most
`ROW_CAP` accounts get a row (`setup` says how many); answers of accounts without a
row are not drawn (the CSV has them).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, ClassVar

from rich.cells import cell_len, set_cell_size
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from vagent_tui.services.accounts import NamedAccount
from vagent_tui.services.fleet import FleetAnswer, Question, cell_text
from vagent_tui.ui.colours import ACCENT, FAILED, OK, WARN
from vagent_tui.ui.css import stylesheet
from vagent_tui.ui.format import NO, YES
from vagent_tui.ui.text import inert, safe, safe_value
from vagent_tui.ui.widgets.tables import ROW_CAP

MAX_TEXT = 48
"""Longer texts (unavailable names, error messages) are cut in the table, not the CSV
nor the detail pane."""

PENDING = Text("…", style="dim")
NOT_ASKED = Text("–", style="dim")
BLANK = Text("")
ANSWERED = Text(YES, style=OK)
MARK = Text("●", style=ACCENT)
PAD = 1
"""Blank cells on each side of a column's text."""
NO_STYLE = Style.null()
MADE_KEPT = 256
"""Answers whose cells `FleetMatrix` keeps to reuse (the distinct answers of a run)."""


def _cut(text: str) -> str:
    """Inert and at most `MAX_TEXT` characters (only the start of a huge text is read)."""
    text = inert(text, limit=MAX_TEXT)
    return text if len(text) <= MAX_TEXT else text[: MAX_TEXT - 1] + "…"


def value_text(key: str, value: Any, values: dict[str, Any]) -> Text:
    """One answer value as a styled cell."""
    if value is None:
        return Text("—", style="dim")
    if key == "allowed":
        return Text(str(value), style=OK if value == values.get("total") else WARN)
    if key == "unread":
        return Text(f"{value:,}", style="bold" if value else "dim")
    return Text(_cut(cell_text(value)))


class FleetMatrix(ScrollView, can_focus=True):
    """Accounts × answers of one question; repaints only the rows that change."""

    DEFAULT_CSS = stylesheet(__file__)
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "fleet-matrix--header",
        "fleet-matrix--cursor",
        "fleet-matrix--even-row",
    }
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "cursor_up", "Up", show=False, id="fleet-matrix.up"),
        Binding("down", "cursor_down", "Down", show=False, id="fleet-matrix.down"),
        Binding("pageup", "page_up", "Page up", show=False, id="fleet-matrix.page-up"),
        Binding("pagedown", "page_down", "Page down", show=False, id="fleet-matrix.page-down"),
        Binding("home", "first", "First", show=False, id="fleet-matrix.first"),
        Binding("end", "last", "Last", show=False, id="fleet-matrix.last"),
        Binding("left", "scroll_left", "Left", show=False, id="fleet-matrix.left"),
        Binding("right", "scroll_right", "Right", show=False, id="fleet-matrix.right"),
    ]

    cursor_row: reactive[int] = reactive(0, always_update=False)

    class Highlighted(Message):
        """The cursor moved to the row of ``account_id`` (None: no rows)."""

        def __init__(self, account_id: int | None) -> None:
            super().__init__()
            self.account_id = account_id

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.question: Question | None = None
        self._columns: list[tuple[str, str]] = []
        self._widths: dict[str, int] = {}
        self._keys: list[str] = []
        self._index: dict[str, int] = {}
        self._names: list[str] = []
        """Each row's account name, as shown (inert, cut): its id and name cells are
        made when the row is drawn, so ten thousand rows hold two strings each."""
        self._cells: list[dict[str, Text] | None] = []
        """Each row's cells written since `setup` (marks, answers); None: all blank."""
        self._blank: dict[str, Text] = {}
        self._strips: dict[int, Strip] = {}
        """Each row's line as drawn, by row index; -1 the header, -2 the totals."""
        self._styles: tuple[Style, Style, Style] | None = None
        self._view: list[int] | None = None
        """The rows shown, in order, while ``/`` filters (None: every row)."""
        self._view_at: dict[int, int] | None = None
        """A shown row's index -> its position in `_view`; made when first needed (an
        answer written while a sort or filter shows), not on every sort."""
        self._words: tuple[str, ...] = ()
        self.on_view: Callable[[], None] | None = None
        """Told when the filter changed the rows shown (the usage table's totals)."""
        self.on_count: Callable[[int, int], None] | None = None
        """Told ``(rows shown, rows in all)`` when the filter changes (the filter row)."""
        self.repainted_rows = 0
        """Rows rendered since `setup` (a measure of the work an answer costs)."""
        self._height = 0
        """Lines of the widget (header included), as of its last resize."""
        self._order: list[int] | None = None
        """The rows in the order shown (a sort, a top N), before the filter; None: all,
        as set up."""
        self._made: dict[int, tuple[dict[str, Any], tuple[tuple[str, Text], ...]]] = {}
        """Cells of answers by their values' identity (`_answer_cells`), for one setup."""
        self._totals: dict[str, Text] | None = None
        """A line pinned under the header (the usage table's totals); None: none."""

    # ------------------------------------------------------------------ reading

    @property
    def row_keys(self) -> list[str]:
        """The rows' keys (account ids as text), in display order."""
        return list(self._keys)

    @property
    def row_count(self) -> int:
        """The rows shown (all of them unless ``/`` filters)."""
        return len(self._keys) if self._view is None else len(self._view)

    @property
    def total_rows(self) -> int:
        return len(self._keys)

    @property
    def filter_words(self) -> tuple[str, ...]:
        return self._words

    def _at(self, position: int) -> int:
        """Position among the rows shown -> the row's index."""
        return position if self._view is None else self._view[position]

    def _position(self, index: int) -> int | None:
        """A row's index -> its position among the rows shown (None: filtered out)."""
        if self._view is None:
            return index
        if self._view_at is None:
            self._view_at = {index: position for position, index in enumerate(self._view)}
        return self._view_at.get(index)

    def _position_of(self, account: int | None) -> int:
        """The position of ``account``'s row among the rows shown; 0 when not shown.

        One look-up: a sort or a filter does not make the index of every row for it."""
        index = self._index.get(str(account)) if account is not None else None
        if index is None:
            return 0
        if self._view is None:
            return index
        if self._view_at is not None:
            return self._view_at.get(index, 0)
        try:
            return self._view.index(index)
        except ValueError:
            return 0

    def set_filter(self, text: str) -> None:
        """Show only the rows holding every word of ``text`` (any case) in their id, name
        or cells as they are now; "" shows all. The cursor stays on its account if shown."""
        words = tuple(text.lower().split())
        if words == self._words:
            return
        keep = self.highlighted_account()
        self._words = words
        self._apply_filter()
        self.cursor_row = self._position_of(keep)
        self.scroll_to(y=max(0, self.cursor_row - 2), animate=False)
        self.post_message(self.Highlighted(self.highlighted_account()))
        if self.on_count is not None:
            self.on_count(self.row_count, self.total_rows)
        if self.on_view is not None:
            self.on_view()

    def _apply_filter(self) -> None:
        rows: Iterable[int] = range(len(self._keys)) if self._order is None else self._order
        if not self._words:
            self._view = None if self._order is None else list(self._order)
        else:
            self._view = [
                index
                for index in rows
                if all(word in self._row_text(index) for word in self._words)
            ]
        self._view_at = None
        self._relayout()

    def _row_text(self, index: int) -> str:
        return " ".join(text.plain for text in self._row(index).values()).lower()

    def cell(self, row: str, column: str) -> Text:
        """The text shown in a cell (KeyError for a row or column it does not have)."""
        return self._row(self._index[row])[column]

    def _row(self, index: int) -> dict[str, Text]:
        """Every cell of a row: blank, its id and name, then what was written to it."""
        key = self._keys[index]
        cells = dict(self._blank, id=Text(key), name=Text(self._names[index]))
        cells.update(self._cells[index] or {})
        return cells

    def _shown(self, index: int, column: str) -> Text | None:
        """One cell of a row as `_row` has it (None: not a column), without the others."""
        written = self._cells[index]
        if written is not None and column in written:
            return written[column]
        if column == "id":
            return Text(inert(self._keys[index]))
        if column == "name":
            return Text(self._names[index])
        return self._blank.get(column)

    def set_order(self, order: Sequence[int] | None) -> None:
        """Show the rows (indexes in set-up order) in ``order``, the filter applied on top;
        None: every row as set up. Only the rows in view are drawn again; the cursor
        stays on its account when it is still shown, else goes to the first row."""
        keep = self.highlighted_account()
        self._order = None if order is None else list(order)
        self._apply_filter()
        self.cursor_row = self._position_of(keep)
        self.scroll_to(y=max(0, self.cursor_row - 2), animate=False)
        self.post_message(self.Highlighted(self.highlighted_account()))
        if self.on_count is not None:
            self.on_count(self.row_count, self.total_rows)

    @property
    def shown_rows(self) -> list[int]:
        """The indexes of the rows shown, in order (filter, order)."""
        return list(range(len(self._keys))) if self._view is None else list(self._view)

    def set_columns(self, columns: Sequence[tuple[str, str]]) -> None:
        """New ``(header, key)`` columns (after the id and name), keeping what was
        written: the usage table's columns are the keys the answers bring."""
        fixed = [c for c in self._columns if c[1] in ("mark", "id", "name", "result")]
        # the usage keys name these columns: outside text, made inert like every cell
        self._columns = [*fixed, *((inert(header, limit=MAX_TEXT), key) for header, key in columns)]
        for header, key in self._columns:
            self._widths[key] = max(self._widths.get(key, 0), cell_len(header))
            self._blank.setdefault(key, BLANK)
        self._relayout()

    def set_totals(self, cells: dict[str, Text] | None) -> None:
        """The line pinned under the header (None: no such line)."""
        grew = (cells is None) != (self._totals is None)
        if cells is not None:
            cells = {key: safe_value(text) for key, text in cells.items()}
            for key, text in cells.items():
                if key in self._widths and cell_len(text.plain) > self._widths[key]:
                    self._widths[key] = cell_len(text.plain)
                    grew = True
        self._totals = cells
        self._strips.pop(-2, None)
        if grew:
            self._relayout()
        else:
            self.refresh(Region(0, 1, self.size.width, 1))  # the totals' line only

    @property
    def _head(self) -> int:
        """Lines above the rows: the header, and the totals when there are any."""
        return 1 if self._totals is None else 2

    def highlighted_account(self) -> int | None:
        if not self.row_count:
            return None
        key = self._keys[self._at(min(self.cursor_row, self.row_count - 1))]
        return int(key) if key.isdecimal() else None

    # ------------------------------------------------------------------ filling

    def setup(
        self, question: Question, accounts: Sequence[NamedAccount], *, cap: int | None = None
    ) -> int:
        """Columns of ``question`` and one blank row per account (in the given order).

        Returns:
            How many accounts got a row: at most ``cap`` (default `ROW_CAP`; the usage
            table gives every account a row, its sort must see them all).
        """
        self.question = question
        self._columns = [(" ", "mark"), ("ID", "id"), ("Account", "name"), ("Result", "result")]
        self._columns += [(header, key) for key, header in question.columns]
        self._widths = {key: cell_len(header) for header, key in self._columns}
        self._keys, self._index, self._cells, self._names = [], {}, [], []
        self._order, self._totals = None, None
        self._made.clear()
        self._blank = {key: BLANK for _, key in self._columns}
        for account in accounts[: ROW_CAP if cap is None else cap]:
            row = str(account.id)
            if row in self._index:
                continue  # one row per account: answers are keyed by account id
            self._index[row] = len(self._keys)
            self._keys.append(row)
            name = safe(account.display_name)
            name.truncate(MAX_TEXT, overflow="ellipsis")
            self._names.append(name.plain)
            self._cells.append(None)
            for key, plain in (("id", row), ("name", name.plain)):
                self._widths[key] = max(self._widths[key], cell_len(plain))
        self.repainted_rows = 0
        self._apply_filter()  # a filter typed stays on for the new rows
        self.cursor_row = 0
        self.scroll_to(0, 0, animate=False)
        self.post_message(self.Highlighted(self.highlighted_account()))
        return len(self._keys)

    def put(self, row: str, column: str, text: Text) -> None:
        """Write one cell; repaint its row if it is in view (nothing if it is unchanged)."""
        self.put_row(row, ((column, text),))

    def put_row(
        self, row: str, cells: Iterable[tuple[str, Text]], *, made_inert: bool = False
    ) -> None:
        """Write cells of one row; repaint the row once if any changed and it is in view.

        ``made_inert``: the texts have been through `safe_value` already (the cells of
        an answer shared by many accounts, made once)."""
        index = self._index.get(row)
        if index is None:
            return  # an account past the display cap: no row
        written = self._cells[index]
        changed = grew = False
        for column, text in cells:
            # Only the cells written are looked at (an answer costs its own cells).
            old = self._shown(index, column)
            if old is None:
                continue  # not a column of this question
            if old is text:
                continue
            plain = text.plain
            if old.plain == plain and old.style == text.style:
                continue
            if not made_inert:
                text = safe_value(text)
                plain = text.plain
            if written is None:
                written = self._cells[index] = {}
            written[column] = text
            changed = True
            width = cell_len(plain)
            if width > self._widths[column]:
                self._widths[column] = width  # columns only grow: rare
                grew = True
        if grew:
            self._relayout()  # every row again, at the new width
        elif changed:
            self._strips.pop(index, None)
            position = self._position(index)
            if position is not None:
                self._refresh_row(position)
        if changed and self._position(index) == self.cursor_row:
            self.post_message(self.Highlighted(self.highlighted_account()))

    def show_marks(self, marked: Iterable[int]) -> None:
        """``●`` in the first column of the marked accounts' rows, nothing in the others."""
        chosen = {str(a) for a in marked}
        for key in self._keys:
            self.put(key, "mark", MARK if key in chosen else BLANK)

    def show_waiting(self, account_ids: Iterable[int]) -> None:
        """``…`` in the rows of ``account_ids``, their answer cells blank: one repaint."""
        assert self.question is not None
        cells = {"result": PENDING, **dict.fromkeys(self.question.keys, BLANK)}
        for account_id in account_ids:
            index = self._index.get(str(account_id))
            if index is None:
                continue  # an account past the display cap: no row
            written = self._cells[index]
            self._cells[index] = dict(cells) if written is None else {**written, **cells}
        self._relayout()
        self.post_message(self.Highlighted(self.highlighted_account()))

    def show_not_asked(self, account_ids: Iterable[int]) -> None:
        for account_id in account_ids:
            self.put(str(account_id), "result", NOT_ASKED)

    def show_answer(self, answer: FleetAnswer) -> None:
        assert self.question is not None
        keys = self.question.keys
        if answer.error is not None:
            failed = Text(_cut(f"{NO} {answer.error}"), style=FAILED)
            self.put_row(str(answer.account_id), [("result", failed), *((k, BLANK) for k in keys)])
            return
        self.put_row(str(answer.account_id), self._answer_cells(answer.values), made_inert=True)

    def _answer_cells(self, values: dict[str, Any]) -> tuple[tuple[str, Text], ...]:
        """An answer's cells, made inert; made once for answers that share their values.

        Most accounts of a fleet answer alike and the service hands them one shared
        value (`services.fleet._functions`): its cells are made for the first and
        reused, so a row costs its look-ups, not three texts made and checked again."""
        assert self.question is not None
        made = self._made.get(id(values))
        if made is not None and made[0] is values:  # the same object, not a reused id
            return made[1]
        cells = (
            ("result", ANSWERED),
            *((k, safe_value(value_text(k, values.get(k), values))) for k in self.question.keys),
        )
        if len(self._made) < MADE_KEPT:  # answers all different: no more are kept
            self._made[id(values)] = (values, cells)
        return cells

    # ------------------------------------------------------------------ drawing

    @property
    def _total_width(self) -> int:
        return sum(w + 2 * PAD for w in self._widths.values())

    def _relayout(self) -> None:
        """Every row again (new columns, a wider column): drop the strips, repaint."""
        self._strips.clear()
        self._styles = None
        self.virtual_size = Size(self._total_width, self.row_count + self._head)
        self.refresh()

    def _refresh_row(self, position: int) -> None:
        """Repaint the row at ``position`` among the rows shown, if it is in view."""
        y = position - int(self.scroll_y) + self._head  # the header (and totals) above
        # The height as of the last resize: reading the widget's size walks its region
        # up the DOM, a cost paid per answer here, where most rows are out of view.
        if self._head <= y < self._height:
            self.refresh(Region(0, y, self.size.width, 1))

    def _line(self, cells: dict[str, Text], style: Style) -> Strip:
        console = self.app.console
        segments: list[Segment] = []
        blank = " " * PAD
        for _, key in self._columns:
            width = self._widths[key]
            cell = cells[key]
            if not cell.spans:
                # What `Text.truncate` then `Text.render` make of a text without spans
                # (one segment), without copying and rendering it: a sort draws every
                # row in view again, each of a dozen cells.
                plain = cell.plain
                length = cell_len(plain)
                if length > width:
                    plain = set_cell_size(plain, width - 1) + "…"
                elif length < width:
                    plain += " " * (width - length)
                # Rich's render drops the base style of a text without spans: the
                # cell's own (a failed account's ✗, a cost's colour) is added here.
                own = (
                    style + console.get_style(cell.style, default=NO_STYLE) if cell.style else style
                )
                segments.append(Segment(blank + plain + blank, own))
                continue
            text = cell.copy()
            text.truncate(width, overflow="ellipsis", pad=True)
            segments.append(Segment(blank, style))
            segments.extend(
                Segment(s.text, style + s.style if s.style else style) for s in text.render(console)
            )
            segments.append(Segment(blank, style))
        return Strip(segments, self._total_width)

    def _styles_now(self) -> tuple[Style, Style, Style]:
        """The even rows', the odd rows' and the header's style, worked out once for
        all the strips (forgotten with them)."""
        if self._styles is None:
            base = self.rich_style
            self._styles = (
                base + self.get_component_rich_style("fleet-matrix--even-row"),
                base + Style(),
                base + self.get_component_rich_style("fleet-matrix--header"),
            )
        return self._styles

    def _row_strip(self, index: int, position: int) -> Strip:
        strip = self._strips.get(index)
        if strip is None:
            self.repainted_rows += 1
            # striped by place, not by row: a sort or a filter drops every strip anyway
            style = self._styles_now()[position % 2]
            strip = self._strips[index] = self._line(self._row(index), style)
        return strip

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        scroll_x = int(self.scroll_x)
        if y == 0 or (y == 1 and self._totals is not None):
            header = self._styles_now()[2]
            strip = self._strips.get(-1 - y)  # the header and totals lines, kept as rows are
            if strip is None:
                if y == 0:
                    cells = {key: Text(label) for label, key in self._columns}
                else:
                    cells = dict(self._blank, **(self._totals or {}))
                strip = self._strips[-1 - y] = self._line(cells, header)
            return _crop_marked(strip, scroll_x, width, header)
        base = self._styles_now()[1]  # the widget's own style (rich_style), worked out once
        position = int(self.scroll_y) + y - self._head
        if not 0 <= position < self.row_count:
            return Strip.blank(width, base)
        strip = self._row_strip(self._at(position), position)
        if position == self.cursor_row and self.has_focus:
            strip = strip.apply_style(self.get_component_rich_style("fleet-matrix--cursor"))
        elif position == self.cursor_row:
            strip = strip.apply_style(Style(reverse=True))
        return _crop_marked(strip, scroll_x, width, base)

    def on_resize(self, event: events.Resize) -> None:
        self._height = event.size.height
        self._strips.clear()
        self._styles = None

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._strips.clear()
        self._styles = None  # a theme switch: the rows' colours come from it

    # ------------------------------------------------------------------ the cursor

    def watch_cursor_row(self, old: int, new: int) -> None:
        self._refresh_row(old)
        self._refresh_row(new)
        self.post_message(self.Highlighted(self.highlighted_account()))

    def _move(self, row: int) -> None:
        if not self.row_count:
            return
        row = max(0, min(row, self.row_count - 1))
        self.cursor_row = row
        top = int(self.scroll_y)
        height = max(1, self.scrollable_content_region.height - self._head)
        if row < top:
            self.scroll_to(y=row, animate=False)
        elif row >= top + height:
            self.scroll_to(y=row - height + 1, animate=False)

    def _page(self) -> int:
        return max(1, self.scrollable_content_region.height - self._head - 1)

    def action_cursor_up(self) -> None:
        self._move(self.cursor_row - 1)

    def action_cursor_down(self) -> None:
        self._move(self.cursor_row + 1)

    def action_page_up(self) -> None:
        self._move(self.cursor_row - self._page())

    def action_page_down(self) -> None:
        self._move(self.cursor_row + self._page())

    def action_first(self) -> None:
        self._move(0)

    def action_last(self) -> None:
        self._move(self.row_count - 1)

    def on_click(self, event: events.Click) -> None:
        if event.y >= self._head:  # not the header nor the totals
            self._move(int(self.scroll_y) + event.y - self._head)

    def on_focus(self) -> None:
        self._refresh_row(self.cursor_row)

    def on_blur(self) -> None:
        self._refresh_row(self.cursor_row)


def _crop_marked(strip: Strip, start: int, width: int, style: Style) -> Strip:
    """The part of a row in view, ending in an ellipsis where the view cuts a word.

    A row wider than the view is cut at its right edge; without a mark "collectPa" reads
    as a whole value. The mark goes only where text runs on past the edge.
    """
    end = start + width
    shown = strip.crop_extend(start, end, style)
    if width < 2 or strip.cell_length <= end:
        return shown
    text = strip.text
    if len(text) == strip.cell_length:  # a cell per character: the edge read in the text
        edge = text[end - 1 : end + 1]
    else:
        edge = "".join(segment.text for segment in strip.crop(end - 1, end + 1))
    if len(edge) < 2 or edge[0] == " " or edge[1] == " ":
        return shown
    last = list(strip.crop(end - 1, end))
    mark_style = last[0].style if last else style
    return Strip([*shown.crop(0, width - 1), Segment("…", mark_style)], width)
