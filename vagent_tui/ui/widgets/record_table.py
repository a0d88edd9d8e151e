"""The record table: the one table of records the screens use, drawn a line at a time.

Each row is one record, keyed by `record_key`. What a key acts on is
`highlighted_record`, the record under the cursor, never an index into a list the screen
keeps beside the table: a filter, a repeated key or a reload between the key press and
the action cannot make it another one. `show` replaces the records and keeps the cursor
on the same record; `refresh_record` draws one record again after it changed.

Not a `DataTable`, which on a page move adds each new row (keys, cells, the cursor
checked per row), measures its cells when next idle and renders each visible cell
through Rich. `show` hands the records over: a row's cells are made when it is first
drawn, filtered or sized to; a line is drawn from them and kept until the row, the
cursor, the width, the scroll, the focus or the styles change.

It looks and behaves as a row-cursor, zebra-striped `DataTable` (no hover highlight): a
header line that stays, the rows scrolling under it (wheel, scroll bars, arrows, page
keys, home/end, left/right), a click moves the cursor, a click on the highlighted row
selects it (`Highlighted`, `Selected`). A column has a fixed width or its widest cell's.
Every cell is made inert (`safe_cell`); one that does not fit ends in an ellipsis. ``/``
filters the rows (`Filterable`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, ClassVar, Generic, TypeVar

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Region, Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from vagent_tui.ui.css import stylesheet
from vagent_tui.ui.widgets.record_columns import PAD, LineColumn, fit_columns
from vagent_tui.ui.widgets.tables import cut_at_edge, row_words, safe_cell

__all__ = ["LineColumn", "RecordTable", "record_table"]

R = TypeVar("R")


class RecordTable(ScrollView, Generic[R], can_focus=True):
    """Records as one-line rows under a header; the cursor on a row (`highlighted_record`)."""

    DEFAULT_CSS = stylesheet(__file__)
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "record-table--header",
        "record-table--cursor",
        "record-table--even-row",
        "record-table--odd-row",
    }
    BINDINGS: ClassVar[list[BindingType]] = [
        # Enter selects the row, as a DataTable's does (the screen's own Enter stays
        # out of the footer while the table has the focus, as it did).
        Binding("enter", "select_cursor", "Select", show=False, id="record-table.select"),
        Binding("up", "cursor_up", "Up", show=False, id="record-table.up"),
        Binding("down", "cursor_down", "Down", show=False, id="record-table.down"),
        Binding("pageup", "page_up", "Page up", show=False, id="record-table.page-up"),
        Binding("pagedown", "page_down", "Page down", show=False, id="record-table.page-down"),
        Binding("home", "scroll_home", "First", show=False, id="record-table.first"),
        Binding("end", "scroll_end", "Last", show=False, id="record-table.last"),
        Binding("left", "scroll_left", "Left", show=False, id="record-table.left"),
        Binding("right", "scroll_right", "Right", show=False, id="record-table.right"),
    ]

    class _RowMessage(Message):
        def __init__(self, table: RecordTable[Any], record: Any) -> None:
            super().__init__()
            self.table = table
            self.record = record

        @property
        def control(self) -> RecordTable[Any]:
            return self.table

    class Highlighted(_RowMessage):
        """The cursor is on another row (``record`` None: no row shown)."""

    class Selected(_RowMessage):
        """Enter, or a click on the highlighted row."""

    def __init__(self, *, record_key: Callable[[R], str], id: str | None = None) -> None:
        super().__init__(id=id)
        self.record_key = record_key
        self.records: list[R] = []
        self.columns: dict[str, LineColumn] = {}
        self._cells_of: Callable[[R], Iterable[Any]] | None = None
        self._cells: list[list[Text] | None] = []
        """Each record's cells (inert, one line), made when first needed."""
        self._keys: dict[str, int] = {}
        """A record's key -> its index in `records` (the first of a repeated key)."""
        self._shown: list[int] = []
        """Per row shown, its index in `records` (all, unless a filter is on)."""
        self._words: tuple[str, ...] = ()
        self.cursor_row = 0
        self._lines: dict[int, Strip] = {}
        """Row ``i``'s line (not cropped), as drawn for the state in `_lines_for`."""
        self._lines_for: tuple[object, ...] = ()
        self._pass: tuple[int, int, int] | None = None
        self._styles: dict[tuple[int, int, bool], tuple[Style, Style, Style]] | None = None
        self._kinds: dict[tuple[int, bool], tuple[Style, Style, Style]] | None = None
        self.on_count: Callable[[int, int], None] | None = None
        """Told ``(rows shown, rows in all)`` when they change (the filter row's count)."""
        self.lines_drawn = 0
        """Row lines drawn (tests: a page costs the lines in view)."""

    # ------------------------------------------------------------------ columns

    def add_column(self, label: str | Text, *, key: str, width: int | None = None) -> None:
        shown = safe_cell(label)
        text = shown if isinstance(shown, Text) else Text(str(shown))
        self.columns[key] = LineColumn(key, text, width, width or text.cell_len)
        self._changed(layout=True)

    def clear(self, columns: bool = False) -> None:
        """No rows (the filter stays, for the rows given next); ``columns``: none either."""
        if columns:
            self.columns = {}
        self._set([], None)

    # ------------------------------------------------------------------ rows

    def show(
        self,
        records: Sequence[R],
        cells: Callable[[R], Iterable[Any]],
        *,
        keep: str | None = None,
    ) -> None:
        """Rows for ``records`` (each row's cells: ``cells(record)``); the cursor on the
        record keyed ``keep`` (default: the one highlighted now), else as near its old
        row as the rows allow."""
        highlighted = self.highlighted_record
        if keep is None and highlighted is not None:
            keep = self.record_key(highlighted)
        row = self.cursor_row
        self._set(list(records), cells)
        at = self._keys.get(keep) if keep is not None else None
        position = self._position(at) if at is not None else None
        self.move_cursor(row=position if position is not None else row, tell=True)

    def _set(self, records: list[R], cells: Callable[[R], Iterable[Any]] | None) -> None:
        self.records = records
        self._cells_of = cells
        self._cells = [None] * len(records)
        self._keys = {}
        for index, record in enumerate(records):
            self._keys.setdefault(self.record_key(record), index)
        self._filter()
        self._fit_columns()
        self.cursor_row = min(self.cursor_row, max(0, len(self._shown) - 1))
        self._changed(layout=False)
        self._tell_count()

    def refresh_record(self, key: str) -> None:
        """Draw the record keyed ``key`` again (its cells made anew from the record as it
        is now); the columns keep their widths and the filter its rows."""
        index = self._keys.get(key)
        if index is None:
            return
        self._cells[index] = None
        position = self._position(index)
        if position is not None:
            self._lines.pop(position, None)
            self.refresh()

    def _row_cells(self, index: int) -> list[Text]:
        made = self._cells[index]
        if made is None:
            assert self._cells_of is not None
            made = []
            for value in self._cells_of(self.records[index]):
                cell = safe_cell(value)
                made.append(cell if isinstance(cell, Text) else Text(str(cell)))
            made.extend(Text("None") for _ in range(len(self.columns) - len(made)))
            self._cells[index] = made
        return made

    def get_row_at(self, row: int) -> list[Text]:
        """The cells of the row shown ``row``-th."""
        return list(self._row_cells(self._shown[row]))

    @property
    def row_count(self) -> int:
        """The rows shown."""
        return len(self._shown)

    @property
    def total_rows(self) -> int:
        """The rows given, shown or not."""
        return len(self.records)

    @property
    def highlighted_record(self) -> R | None:
        """The record of the highlighted row (None: no row shown)."""
        if not 0 <= self.cursor_row < len(self._shown):
            return None
        return self.records[self._shown[self.cursor_row]]

    def record(self, key: str) -> R | None:
        """The record shown under ``key`` (as `record_key` gives it)."""
        index = self._keys.get(key)
        return self.records[index] if index is not None else None

    def _position(self, index: int) -> int | None:
        try:
            return self._shown.index(index)
        except ValueError:
            return None

    # ------------------------------------------------------------------ filter

    @property
    def filter_words(self) -> tuple[str, ...]:
        return self._words

    def set_filter(self, text: str) -> None:
        """Show only the rows holding every word of ``text`` (any case); "" shows all.

        The cursor stays on the row it was on when that row is still shown."""
        words = tuple(text.lower().split())
        if words == self._words:
            return
        keep = self._shown[self.cursor_row] if 0 <= self.cursor_row < len(self._shown) else -1
        self._words = words
        self._filter()
        position = self._position(keep)
        self.move_cursor(row=position if position is not None else 0, tell=True)
        self._changed(layout=False)
        self._tell_count()

    def _filter(self) -> None:
        if not self._words:
            self._shown = list(range(len(self.records)))
            return
        self._shown = [
            index
            for index in range(len(self.records))
            if all(word in row_words(self._row_cells(index)) for word in self._words)
        ]

    def _tell_count(self) -> None:
        if self.on_count is not None:
            self.on_count(len(self._shown), len(self.records))

    # ------------------------------------------------------------------ sizes

    def _fit_columns(self) -> None:
        """Each column's width for this page and the table's width (`fit_columns`)."""
        widest = [c.label.cell_len for c in self.columns.values()]
        if any(c.width is None for c in self.columns.values()):  # else no cell is made
            for index in range(len(self.records)):
                for number, cell in enumerate(self._row_cells(index)[: len(widest)]):
                    widest[number] = max(widest[number], cell.cell_len)
        fit_columns(list(self.columns.values()), widest, self.size.width)

    def on_resize(self) -> None:
        # The cap follows the width (a wider terminal shows more of a long cell).
        before = [c.content_width for c in self.columns.values()]
        self._fit_columns()
        if [c.content_width for c in self.columns.values()] != before:
            self._changed(layout=False)

    def _changed(self, *, layout: bool) -> None:
        """The rows or columns changed: new lines, and the size to scroll over."""
        self._lines.clear()
        width = sum(c.render_width for c in self.columns.values())
        size = Size(width, len(self._shown) + 1)
        if size != self.virtual_size:
            self.virtual_size = size
        self.refresh(layout=layout)

    # ------------------------------------------------------------------ the cursor

    def move_cursor(self, *, row: int, animate: bool = False, tell: bool = False) -> None:
        """The cursor on the row shown ``row``-th (kept in view); ``tell``: say so even
        when the row's number is the same (other rows: another record under it)."""
        row = max(0, min(row, len(self._shown) - 1))
        old = self.cursor_row
        self.cursor_row = row
        view = max(1, self.scrollable_content_region.height - 1)
        top = int(self.scroll_y)
        # at once: the frame that shows the cursor's row shows it in view
        if row < top:
            self.scroll_to(y=row, animate=animate, immediate=True)
        elif row >= top + view:
            self.scroll_to(y=row - view + 1, animate=animate, immediate=True)
        if old != row or tell:
            self._lines.pop(old, None)
            self._lines.pop(row, None)
            self.refresh()
            self.post_message(self.Highlighted(self, self.highlighted_record))

    def _page(self) -> int:
        return max(1, self.scrollable_content_region.height - 1)

    def action_cursor_up(self) -> None:
        self.move_cursor(row=self.cursor_row - 1)

    def action_cursor_down(self) -> None:
        self.move_cursor(row=self.cursor_row + 1)

    def action_page_up(self) -> None:
        self.move_cursor(row=self.cursor_row - self._page())

    def action_page_down(self) -> None:
        self.move_cursor(row=self.cursor_row + self._page())

    def action_scroll_home(self) -> None:
        self.move_cursor(row=0)

    def action_scroll_end(self) -> None:
        self.move_cursor(row=len(self._shown) - 1)

    def action_select_cursor(self) -> None:
        if 0 <= self.cursor_row < len(self._shown):
            self.post_message(self.Selected(self, self.highlighted_record))

    def on_click(self, event: events.Click) -> None:
        if event.y < 1:
            return
        row = int(self.scroll_y) + event.y - 1
        if not 0 <= row < len(self._shown):
            return
        if row == self.cursor_row:
            self.post_message(self.Selected(self, self.highlighted_record))
        else:
            self.move_cursor(row=row)

    def on_focus(self) -> None:
        self._styles = self._kinds = None

    def on_blur(self) -> None:
        self._styles = self._kinds = None

    # ------------------------------------------------------------------ drawing

    def notify_style_update(self) -> None:
        self._styles = self._kinds = None
        self._lines.clear()
        super().notify_style_update()

    def _kind_styles(self, row: int, cursor: bool) -> tuple[Style, Style, Style]:
        """A row's own style (its stripe, or the header's), the cursor's, and the style
        that goes after a cell's text (the cursor's colours win): read from CSS once per
        state (working a component's style out is slow: not once per cell)."""
        if self._kinds is None:
            self._kinds = {}
        kind = -1 if row < 0 else row % 2
        styles = self._kinds.get((kind, cursor))
        if styles is None:
            if kind < 0:
                base = self.get_component_styles("record-table--header").rich_style
            else:
                stripe = "record-table--odd-row" if kind else "record-table--even-row"
                base = self.get_component_styles(stripe).rich_style
            component = self.get_component_rich_style("record-table--cursor") if cursor else Style()
            post = (
                Style.from_color(color=component.color, bgcolor=component.bgcolor)
                if cursor
                else Style.null()
            )
            styles = self._kinds[(kind, cursor)] = (base, component, post)
        return styles

    def _cell_styles(self, row: int, column: int, cursor: bool) -> tuple[Style, Style, Style]:
        """A cell's style before its text's and after it, as a `DataTable` styles it:
        with the row and column in its meta (a click's). Row -1: the header; column -1:
        the blank right of the last column. The third: the first two together (padding's)."""
        if self._styles is None:
            self._styles = {}
        key = (row, column, cursor)
        styles = self._styles.get(key)
        if styles is None:
            base, component, post = self._kind_styles(row, cursor)
            if column < 0:
                meta = Style.from_meta({"row": row, "column": 0, "out_of_bounds": True})
                extend = base + component + meta
                styles = (extend, Style.null(), extend)
            else:
                pre = base + Style.from_meta({"row": row, "column": column}) + component
                styles = (pre, post, pre + post)
            if len(self._styles) > 8192:
                self._styles.clear()
            self._styles[key] = styles
        return styles

    def _line(self, cells: Sequence[Text], row: int, width: int) -> Strip:
        """Row ``row``'s line (-1: the header): each cell padded to its column's width,
        then blank to ``width``; runs of one style in one segment (as `Strip.simplify`
        would leave them, without making the strip twice)."""
        console = self.app.console
        cursor = row == self.cursor_row and row >= 0
        pad = " " * PAD
        texts: list[str] = []
        styles: list[Style] = []

        def add(text: str, style: Style) -> None:
            if styles and styles[-1] == style:
                texts[-1] += text
            else:
                texts.append(text)
                styles.append(style)

        used = 0
        for number, (column, text) in enumerate(zip(self.columns.values(), cells, strict=False)):
            pre, post, plain = self._cell_styles(row, number, cursor)
            inner = column.content_width
            if text.cell_len > inner:
                text = text.copy()
                text.truncate(inner, overflow="ellipsis")
            # `Text.render` leaves out the text's own style (only its spans'): it goes first.
            own = console.get_style(text.style, default=Style.null()) if text.style else None
            add(pad, plain)
            if not text.spans:
                add(text.plain, plain if own is None else pre + own + post)
            else:
                for segment in text.render(console):
                    style = segment.style if own is None else own + segment.style
                    add(segment.text, pre + style + post if style else plain)
            add(" " * (inner - text.cell_len) + pad, plain)
            used += inner + 2 * PAD
        segments = [Segment(text, style) for text, style in zip(texts, styles, strict=True) if text]
        if width >= used:
            # the blank right of the last column; none when the columns fill the width,
            # where a `DataTable` leaves an empty segment of its style: so does this one
            segments.append(Segment(" " * (width - used), self._cell_styles(row, -1, cursor)[0]))
        return Strip(segments, max(width, used))

    def render_lines(self, crop: Region) -> list[Strip]:
        # the view's width and scroll, worked out once for the lines of one pass
        self._pass = (self.scrollable_content_region.width, int(self.scroll_x), int(self.scroll_y))
        try:
            return super().render_lines(crop)
        finally:
            self._pass = None

    def render_line(self, y: int) -> Strip:
        if self._pass is None:
            width, scroll_x, scroll_y = (
                self.scrollable_content_region.width,
                int(self.scroll_x),
                int(self.scroll_y),
            )
        else:
            width, scroll_x, scroll_y = self._pass
        state = (width, self.has_focus, self.app.theme)
        if state != self._lines_for:
            self._lines.clear()
            self._lines_for = state
        if y == 0:
            line = self._lines.get(-1)
            if line is None:
                labels = [column.label for column in self.columns.values()]
                line = self._lines[-1] = self._line(labels, -1, width)
        else:
            row = scroll_y + y - 1
            if not 0 <= row < len(self._shown):
                return Strip.blank(width, self.rich_style)
            line = self._lines.get(row)
            if line is None:
                self.lines_drawn += 1
                cells = self._row_cells(self._shown[row])
                line = self._lines[row] = self._line(cells, row, width)
        if scroll_x == 0 and line.cell_length == width:
            strip = line
        else:
            strip = line.crop(scroll_x, scroll_x + width).adjust_cell_length(width)
        if width > 1 and self.virtual_size.width > scroll_x + width:
            return cut_at_edge(strip, width)
        return strip


def record_table(
    id: str, columns: Iterable[tuple[str, str]], key: Callable[[R], str]
) -> RecordTable[R]:
    """A record table with ``(label, key)`` columns sized to their cells, its records
    keyed by ``key``."""
    table: RecordTable[R] = RecordTable(record_key=key, id=id)
    for label, name in columns:
        table.add_column(label, key=name)
    return table
