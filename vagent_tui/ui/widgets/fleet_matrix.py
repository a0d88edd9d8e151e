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

What the matrix holds (rows, columns, widths, order, filter, totals) is a
`vagent_tui.ui.widgets.matrix_rows.MatrixRows`, Textual-free; this widget draws it and
moves the cursor. Every cell is made inert before it is kept. At most `ROW_CAP`
accounts get a row (`setup` says how many); answers of accounts without a row are not
drawn (the CSV has them).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import ClassVar

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
from vagent_tui.services.fleet import FleetAnswer, Question
from vagent_tui.ui.colours import FAILED
from vagent_tui.ui.css import stylesheet
from vagent_tui.ui.format import NO
from vagent_tui.ui.widgets.matrix_rows import BLANK, MARK, NOT_ASKED, PAD, MatrixRows, cut_text
from vagent_tui.ui.widgets.tables import ROW_CAP

NO_STYLE = Style.null()


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
        self.rows = MatrixRows()
        self._strips: dict[int, Strip] = {}
        """Each row's line as drawn, by row index; -1 the header, -2 the totals."""
        self._styles: tuple[Style, Style, Style] | None = None
        self.on_view: Callable[[], None] | None = None
        """Told when the filter changed the rows shown (the usage table's totals)."""
        self.on_count: Callable[[int, int], None] | None = None
        """Told ``(rows shown, rows in all)`` when the filter changes (the filter row)."""
        self.repainted_rows = 0
        """Rows rendered since `setup` (a measure of the work an answer costs)."""
        self._height = 0
        """Lines of the widget (header included), as of its last resize."""

    # ------------------------------------------------------------------ reading

    @property
    def question(self) -> Question | None:
        return self.rows.question

    @property
    def row_keys(self) -> list[str]:
        """The rows' keys (account ids as text), in display order."""
        return self.rows.keys

    @property
    def row_count(self) -> int:
        """The rows shown (all of them unless ``/`` filters)."""
        return self.rows.count

    @property
    def total_rows(self) -> int:
        return self.rows.total

    @property
    def filter_words(self) -> tuple[str, ...]:
        return self.rows.words

    @property
    def shown_rows(self) -> list[int]:
        """The indexes of the rows shown, in order (filter, order)."""
        return self.rows.shown

    def cell(self, row: str, column: str) -> Text:
        """The text shown in a cell (KeyError for a row or column it does not have)."""
        index = self.rows.index_of(row)
        if index is None:
            raise KeyError(row)
        return self.rows.row(index)[column]

    def highlighted_account(self) -> int | None:
        return self.rows.account_at(self.cursor_row)

    def set_filter(self, text: str) -> None:
        """Show only the rows holding every word of ``text`` (any case) in their id, name
        or cells as they are now; "" shows all. The cursor stays on its account if shown."""
        keep = self.highlighted_account()
        if not self.rows.set_filter(text):
            return
        self._follow(keep)
        if self.on_view is not None:
            self.on_view()

    def row_accounts(self) -> list[int | None]:
        """The account of each row, in set-up order (what `set_order` indexes)."""
        return self.rows.accounts()

    def set_order(self, order: Sequence[int] | None) -> None:
        """Show the rows (indexes in set-up order) in ``order``, the filter applied on top;
        None: every row as set up. Only the rows in view are drawn again; the cursor
        stays on its account when it is still shown, else goes to the first row."""
        keep = self.highlighted_account()
        self.rows.set_order(order)
        self._follow(keep)

    def _follow(self, account: int | None) -> None:
        """The rows shown changed: draw them, the cursor on ``account`` if shown."""
        self._relayout()
        self.cursor_row = self.rows.position_of(account)
        self.scroll_to(y=max(0, self.cursor_row - 2), animate=False)
        self.post_message(self.Highlighted(self.highlighted_account()))
        if self.on_count is not None:
            self.on_count(self.row_count, self.total_rows)

    def set_columns(self, columns: Sequence[tuple[str, str]]) -> None:
        """New ``(header, key)`` columns (after the id and name), keeping what was
        written: the usage table's columns are the keys the answers bring."""
        self.rows.set_columns(columns)
        self._relayout()

    def set_totals(self, cells: dict[str, Text] | None) -> None:
        """The line pinned under the header (None: no such line)."""
        grew = self.rows.set_totals(cells)
        self._strips.pop(-2, None)
        if grew:
            self._relayout()
        else:
            self.refresh(Region(0, 1, self.size.width, 1))  # the totals' line only

    # ------------------------------------------------------------------ filling

    def setup(
        self, question: Question, accounts: Sequence[NamedAccount], *, cap: int | None = None
    ) -> int:
        """Columns of ``question`` and one blank row per account (in the given order).

        Returns:
            How many accounts got a row: at most ``cap`` (default `ROW_CAP`; the usage
            table gives every account a row, its sort must see them all).
        """
        count = self.rows.setup(question, accounts, cap=ROW_CAP if cap is None else cap)
        self.repainted_rows = 0
        self._relayout()  # a filter typed stays on for the new rows
        self.cursor_row = 0
        self.scroll_to(0, 0, animate=False)
        self.post_message(self.Highlighted(self.highlighted_account()))
        return count

    def put(self, row: str, column: str, text: Text) -> None:
        """Write one cell; repaint its row if it is in view (nothing if it is unchanged)."""
        self.put_row(row, ((column, text),))

    def put_row(
        self, row: str, cells: Iterable[tuple[str, Text]], *, made_inert: bool = False
    ) -> None:
        """Write cells of one row; repaint the row once if any changed and it is in view.

        ``made_inert``: the texts have been through `safe_value` already (the cells of
        an answer shared by many accounts, made once)."""
        put = self.rows.put(row, cells, made_inert=made_inert)
        if put.index is None or not put.changed:
            return
        position = self.rows.position(put.index)
        if put.grew:
            self._relayout()  # every row again, at the new width
        else:
            self._strips.pop(put.index, None)
            if position is not None:
                self._refresh_row(position)
        if position == self.cursor_row:
            self.post_message(self.Highlighted(self.highlighted_account()))

    def show_marks(self, marked: Iterable[int]) -> None:
        """``●`` in the first column of the marked accounts' rows, nothing in the others."""
        chosen = {str(a) for a in marked}
        for key in self.rows.keys:
            self.put(key, "mark", MARK if key in chosen else BLANK)

    def show_waiting(self, account_ids: Iterable[int]) -> None:
        """``…`` in the rows of ``account_ids``, their answer cells blank: one repaint."""
        self.rows.mark_waiting(account_ids)
        self._relayout()
        self.post_message(self.Highlighted(self.highlighted_account()))

    def show_not_asked(self, account_ids: Iterable[int]) -> None:
        for account_id in account_ids:
            self.put(str(account_id), "result", NOT_ASKED)

    def show_answer(self, answer: FleetAnswer) -> None:
        assert self.question is not None
        keys = self.question.keys
        if answer.error is not None:
            failed = Text(cut_text(f"{NO} {answer.error}"), style=FAILED)
            self.put_row(str(answer.account_id), [("result", failed), *((k, BLANK) for k in keys)])
            return
        cells = self.rows.answer_cells(answer.values)
        self.put_row(str(answer.account_id), cells, made_inert=True)

    # ------------------------------------------------------------------ drawing

    def _relayout(self) -> None:
        """Every row again (new columns, a wider column): drop the strips, repaint."""
        self._strips.clear()
        self._styles = None
        self.virtual_size = Size(self.rows.total_width, self.row_count + self.rows.head)
        self.refresh()

    def _refresh_row(self, position: int) -> None:
        """Repaint the row at ``position`` among the rows shown, if it is in view."""
        y = position - int(self.scroll_y) + self.rows.head  # the header (and totals) above
        # The height as of the last resize: reading the widget's size walks its region
        # up the DOM, a cost paid per answer here, where most rows are out of view.
        if self.rows.head <= y < self._height:
            self.refresh(Region(0, y, self.size.width, 1))

    def _line(self, cells: dict[str, Text], style: Style) -> Strip:
        console = self.app.console
        segments: list[Segment] = []
        blank = " " * PAD
        for _, key in self.rows.columns:
            width = self.rows.widths[key]
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
        return Strip(segments, self.rows.total_width)

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
            strip = self._strips[index] = self._line(self.rows.row(index), style)
        return strip

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        scroll_x = int(self.scroll_x)
        if y == 0 or (y == 1 and self.rows.totals is not None):
            header = self._styles_now()[2]
            strip = self._strips.get(-1 - y)  # the header and totals lines, kept as rows are
            if strip is None:
                if y == 0:
                    cells = {key: Text(label) for label, key in self.rows.columns}
                else:
                    cells = dict(self.rows.blank, **(self.rows.totals or {}))
                strip = self._strips[-1 - y] = self._line(cells, header)
            return _crop_marked(strip, scroll_x, width, header)
        base = self._styles_now()[1]  # the widget's own style (rich_style), worked out once
        position = int(self.scroll_y) + y - self.rows.head
        if not 0 <= position < self.row_count:
            return Strip.blank(width, base)
        strip = self._row_strip(self.rows.at(position), position)
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
        height = max(1, self.scrollable_content_region.height - self.rows.head)
        if row < top:
            self.scroll_to(y=row, animate=False)
        elif row >= top + height:
            self.scroll_to(y=row - height + 1, animate=False)

    def _page(self) -> int:
        return max(1, self.scrollable_content_region.height - self.rows.head - 1)

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
        if event.y >= self.rows.head:  # not the header nor the totals
            self._move(int(self.scroll_y) + event.y - self.rows.head)

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
