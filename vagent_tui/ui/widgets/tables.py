"""The row tables of the screens: one way to make them, safe with whatever they hold.

`SafeTable` is the `DataTable` the screens use for rows that are not records of one
kind (a file list, a version list, the inbox's rooms); a table of records (each row one
record, the key acting on the highlighted one) is `RecordTable`
(`vagent_tui.ui.widgets.record_table`), which draws its rows itself and shares the cell
rules here (`safe_cell`, `row_words`, `cut_at_edge`). Every cell a `SafeTable` is given
is shown inert (`vagent_tui.ui.text`): a ``str`` is never read as markup, and control
characters in a ``str`` or a `Text` show instead of reaching the terminal. A row key that
is already in the table (two files of one path) gets a suffix instead of stopping the
table: every row the platform sent is shown."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Self

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.geometry import Region
from textual.strip import Strip
from textual.widgets import DataTable
from textual.widgets.data_table import ColumnKey, RowKey

from vagent_tui.ui.caps import ROW_CAP, left_out
from vagent_tui.ui.text import safe_value

__all__ = [
    "DUPLICATE_MARK", "ROW_CAP", "LineTable", "SafeTable",
    "cut_at_edge", "left_out", "row_table", "row_words", "safe_cell",
]  # fmt: skip

DUPLICATE_MARK = "\x00dup"
"""Joins a repeated row key and its count: no key from outside holds a NUL."""


def safe_cell(value: Any) -> Any:
    """A cell as it may be shown: text made inert, other renderables as they are.

    Text that does not fit its column ends in an ellipsis (a cut shows as a cut); the
    whole value stays in the row's detail.
    """
    cell = safe_value(value)
    if isinstance(cell, Text) and cell.overflow is None:
        cell.overflow = "ellipsis"
        cell.no_wrap = True
    return cell


def row_words(cells: Iterable[Any]) -> str:
    """A row's text as a filter reads it: its cells' plain text, lower case."""
    return " ".join(c.plain if isinstance(c, Text) else str(c) for c in cells).lower()


@dataclass
class _Row:
    """A row as it was given (its cells inert), shown or not."""

    key: str | None
    cells: list[Any]
    height: int | None
    label: Any
    words: str


class SafeTable(DataTable[Any]):
    """A `DataTable` whose cells are always inert and whose rows never clash.

    Home and End go to the first and last row, as g and G do (the key convention,
    `vagent_tui.ui.convention`); `DataTable` itself takes them to the first and last
    column.

    The table keeps every row it is given and shows those that hold every word of its
    filter (`set_filter`; ``/`` on a screen, `vagent_tui.ui.widgets.table_filter`). A
    screen fills it as always (`clear`, `add_row`); while a filter is on, only the rows
    that match are shown. `source_row` is the highlighted row's index among all the rows
    given, for a screen that maps rows to its data by index; row keys stay as given.

    A column sized to its cells is drawn at its new width once the cells are measured
    (`watch_virtual_size`), also when a frame was drawn between the fill and the measuring.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._source: list[_Row] = []
        self._by_key: dict[str, _Row] = {}
        self._shown: list[int] = []
        """Per row shown, its index in ``_source``."""
        self._words: tuple[str, ...] = ()
        self.on_count: Callable[[int, int], None] | None = None
        """Told ``(rows shown, rows in all)`` when they change (the filter row's count)."""
        self._count_due = False
        self._pass_style: Style | None = None
        """`rich_style` for the lines of one `render_lines` pass (None: between passes)."""
        self._measured: tuple[int, ...] = ()
        """The columns' widths when the table last measured its cells."""

    # ------------------------------------------------------------------ drawing

    @property
    def rich_style(self) -> Style:
        """The base style; within one pass of `render_lines`, worked out once.

        `DataTable` asks for it on every line, and Textual works it out each time from
        every ancestor's styles: a once-a-second update of ten cells spent more on that
        than on drawing them. Styles cannot change in the middle of a pass.
        """
        if self._pass_style is None:
            return super().rich_style
        return self._pass_style

    def watch_virtual_size(self) -> None:
        """Drop what was drawn at the columns' old widths when the measuring changed them.

        `DataTable` measures new cells when it is next idle and widens their columns, but
        keeps the cells it drew before: its drawings are kept by an update count that the
        measuring does not move. A frame drawn between the fill and the measuring (the
        screen's first layout, a busy moment) stayed on screen with every column at its
        label's width, every cell cut. The measuring sets the virtual size: a change of a
        column's width drops the drawings (`notify_style_update` is where `DataTable`
        drops them all), and the table is drawn again.
        """
        widths = tuple(column.get_render_width(self) for column in self.ordered_columns)
        if widths != self._measured:
            self._measured = widths
            self.notify_style_update()

    def render_lines(self, crop: Region) -> list[Strip]:
        self._pass_style = super().rich_style
        try:
            return super().render_lines(crop)
        finally:
            self._pass_style = None

    # ------------------------------------------------------------------ filter

    @property
    def filter_words(self) -> tuple[str, ...]:
        return self._words

    @property
    def total_rows(self) -> int:
        """The rows given, shown or not."""
        return len(self._source)

    @property
    def source_row(self) -> int:
        """The highlighted row's index among all the rows given (-1: no row shown)."""
        row = self.cursor_row
        return self._shown[row] if 0 <= row < len(self._shown) else -1

    def source_index(self, row: int) -> int:
        """Index among the shown rows -> index among all the rows given (-1: none)."""
        return self._shown[row] if 0 <= row < len(self._shown) else -1

    def shown_index(self, source: int) -> int | None:
        """Index among all the rows given -> index among the rows shown (None: hidden)."""
        try:
            return self._shown.index(source)
        except ValueError:
            return None

    def move_to_source(self, index: int) -> bool:
        """The cursor on the row given ``index``-th, if it is shown (True then)."""
        at = self.shown_index(index)
        if at is None:
            return False
        self.move_cursor(row=at, animate=False)
        return True

    def _matches(self, row: _Row) -> bool:
        return all(word in row.words for word in self._words)

    def set_filter(self, text: str) -> None:
        """Show only the rows holding every word of ``text`` (any case); "" shows all.

        The cursor stays on the row it was on when that row is still shown."""
        words = tuple(text.lower().split())
        if words == self._words:
            return
        self._words = words
        keep = self.source_row
        self.clear_shown()
        self._shown = []
        for index, row in enumerate(self._source):
            if self._matches(row):
                self._shown.append(index)
                self.show_row(row.cells, height=row.height, key=row.key, label=row.label)
        at = self.shown_index(keep)
        self.move_cursor(row=at if at is not None else 0, animate=False)
        self._count_changed()

    def _count_changed(self) -> None:
        if self.on_count is not None and not self._count_due:
            self._count_due = True
            self.call_later(self._tell_count)

    def _tell_count(self) -> None:
        self._count_due = False
        if self.on_count is not None:
            self.on_count(len(self._shown), len(self._source))

    def show_row(
        self, cells: list[Any], *, height: int | None, key: str | None, label: Any
    ) -> RowKey:
        """Put a row on show (cells already inert); a subclass that draws rows itself
        overrides this and `clear_shown`, never `add_row` and `clear`."""
        return super().add_row(*cells, height=height, key=key, label=label)

    def clear_shown(self, columns: bool = False) -> Self:
        """Take every row off show (the rows given are kept)."""
        return super().clear(columns)

    def clear(self, columns: bool = False) -> Self:
        """No rows at all (the filter stays, for the rows given next)."""
        self._source = []
        self._by_key = {}
        self._shown = []
        self._count_changed()
        return self.clear_shown(columns)

    def action_scroll_home(self) -> None:
        if self.cursor_type == "row":
            self.action_scroll_top()
        else:
            super().action_scroll_home()

    def action_scroll_end(self) -> None:
        if self.cursor_type == "row":
            self.action_scroll_bottom()
        else:
            super().action_scroll_end()

    def render_line(self, y: int) -> Strip:
        """A line of the table; where the view cuts a row that runs on to the right, an
        ellipsis at the edge (a cell's own cut has one already; this is the view's)."""
        strip = super().render_line(y)
        width = self.scrollable_content_region.width
        if width > 1 and self.virtual_size.width > int(self.scroll_x) + width:
            return cut_at_edge(strip, width)
        return strip

    def add_row(
        self,
        *cells: Any,
        height: int | None = 1,
        key: str | None = None,
        label: Any = None,
    ) -> RowKey:
        if key is not None and (key in self._by_key or key in self.rows):
            count = 2
            while f"{key}{DUPLICATE_MARK}{count}" in self._by_key:
                count += 1
            key = f"{key}{DUPLICATE_MARK}{count}"
        safe_cells = [safe_cell(c) for c in cells]
        row = _Row(
            key,
            safe_cells,
            height,
            safe_cell(label) if label is not None else None,
            row_words(safe_cells),
        )
        self._source.append(row)
        self._count_changed()
        if not self._matches(row):
            if key is None:
                key = row.key = f"\x00row{len(self._source)}"
            self._by_key[key] = row
            return RowKey(key)
        self._shown.append(len(self._source) - 1)
        row_key = self.show_row(safe_cells, height=height, key=key, label=row.label)
        row.key = row_key.value
        if row.key is not None:
            self._by_key[row.key] = row
        return row_key

    def update_cell(
        self,
        row_key: RowKey | str,
        column_key: ColumnKey | str,
        value: Any,
        *,
        update_width: bool = False,
    ) -> None:
        cell = safe_cell(value)
        row_name = row_key.value if isinstance(row_key, RowKey) else row_key
        column = column_key if isinstance(column_key, ColumnKey) else ColumnKey(column_key)
        row = self._by_key.get(row_name) if row_name is not None else None
        if row is not None and column in self.columns:
            row.cells[list(self.columns).index(column)] = cell
            row.words = row_words(row.cells)
        if row is None or row_name in self.rows:  # one it does not know: DataTable says so
            super().update_cell(row_key, column_key, cell, update_width=update_width)


class LineTable(SafeTable):
    """A `SafeTable` that draws its rows' lines itself, from one-line cells.

    A page move replaces every row. `DataTable` would render each new cell through
    Rich (a padded renderable, wrapped, cropped: most of a page move's time at 120x40);
    this table draws a row's line itself from its one-line cells, with the styles
    `DataTable` uses (the row's zebra stripe, the cursor, the cell's own style, the
    mouse's row/column for a click), and keeps each line until the row, the cursor,
    the width, the columns' widths or the focus changes. The header and the lines below
    the rows stay `DataTable`'s. No hover highlight (the row under the mouse is not lit).
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._line_cells: list[list[Text]] = []
        """Row ``i``'s cells as stored (inert), for drawing its line."""
        self._line_lines: dict[tuple[object, ...], Strip] = {}
        self._line_styles: dict[tuple[object, ...], tuple[Style, Style, Style, Style]] = {}
        self._line_cell_styles: dict[tuple[object, ...], tuple[Style, Style]] = {}
        self.lines_drawn = 0
        """Row lines drawn by this class (tests)."""

    def show_row(
        self, cells: list[Any], *, height: int | None, key: str | None, label: Any
    ) -> RowKey:
        row = super().show_row(cells, height=height, key=key, label=label)
        lines = [c if isinstance(c, Text) else Text(str(c)) for c in cells]
        lines.extend(Text("None") for _ in range(len(self.columns) - len(lines)))
        self._line_cells.append(lines)
        return row

    def clear_shown(self, columns: bool = False) -> Self:
        self._line_cells = []
        self._line_lines.clear()
        return super().clear_shown(columns)

    def render_line(self, y: int) -> Strip:
        index = y - self.header_height + self.scroll_offset.y
        if y < self.header_height or not 0 <= index < len(self._line_cells) or self.fixed_rows:
            return super().render_line(y)
        width = self.size.width
        cursor = self.show_cursor and index == self.cursor_row
        # The columns' widths: a column sized to its cells widens when they are measured.
        widths = tuple(column.get_render_width(self) for column in self.ordered_columns)
        key = (index, cursor, self.scroll_offset.x, width, widths, self.has_focus, self.app.theme)
        line = self._line_lines.get(key)
        if line is None:
            line = self._draw_row(index, cursor, width)
            if len(self._line_lines) > 4 * len(self._line_cells) + 64:
                self._line_lines.clear()
            self._line_lines[key] = line
        return line

    def _draw_row(self, index: int, cursor: bool, width: int) -> Strip:
        """Row ``index``'s line, as `DataTable` draws it (no hover)."""
        self.lines_drawn += 1
        _, _, post, base = self._row_styles(index % 2 == 1, cursor)
        console = self.app.console
        pad = " " * self.cell_padding
        segments: list[Segment] = []
        used = 0
        for column_index, (column, text) in enumerate(
            zip(self.ordered_columns, self._line_cells[index], strict=False)
        ):
            pre, plain = self._cell_styles(index, column_index, cursor)
            inner = column.get_render_width(self) - 2 * self.cell_padding
            if text.cell_len > inner:
                text = text.copy()
                text.truncate(inner, overflow="ellipsis")
            segments.append(Segment(pad, plain))
            # `Text.render` leaves out the text's own style (only its spans'): it goes first.
            own = console.get_style(text.style, default=Style.null()) if text.style else None
            for segment in text.render(console):
                style = segment.style if own is None else own + segment.style
                segments.append(Segment(segment.text, pre + style + post if style else plain))
            segments.append(Segment(" " * (inner - text.cell_len) + pad, plain))
            used += inner + 2 * self.cell_padding
        extend, _ = self._cell_styles(index, -1, cursor)
        segments.append(Segment(" " * max(0, width - used), extend))
        x = self.scroll_offset.x
        strip = Strip(segments).crop(x, x + width)
        return strip.adjust_cell_length(width, base).simplify()

    def _cell_styles(self, index: int, column: int, cursor: bool) -> tuple[Style, Style]:
        """A cell's style before its text's, and with the cursor's after it (the same
        for row ``index`` of every page: kept while the styles are). Column -1: the
        space right of the last column."""
        key = (index, column, cursor, self.has_focus, self.app.theme)
        styles = self._line_cell_styles.get(key)
        if styles is None:
            row_style, component, post, _ = self._row_styles(index % 2 == 1, cursor)
            if column < 0:
                meta = {"row": index, "column": 0, "out_of_bounds": True}
                styles = (row_style + component + Style.from_meta(meta), Style.null())
            else:
                pre = row_style + Style.from_meta({"row": index, "column": column}) + component
                styles = (pre, pre + post)
            if len(self._line_cell_styles) > 8192:
                self._line_cell_styles.clear()
            self._line_cell_styles[key] = styles
        return styles

    def _row_styles(self, odd: bool, cursor: bool) -> tuple[Style, Style, Style, Style]:
        """The row's stripe, the cursor's component and post styles, the table's own:
        read from CSS once per state (dropped when the styles change)."""
        key = (odd, cursor, self.has_focus, self.app.theme)
        styles = self._line_styles.get(key)
        if styles is None:
            stripe = "datatable--odd-row" if odd else "datatable--even-row"
            row_style = (
                self.get_component_styles(stripe).rich_style
                if self.zebra_stripes
                else self.rich_style
            )
            component = self.get_component_rich_style("datatable--cursor") if cursor else Style()
            post = (
                Style.from_color(color=component.color)
                if self.cursor_foreground_priority == "css"
                else Style.null()
            )
            if self.cursor_background_priority == "css":
                post += Style.from_color(bgcolor=component.bgcolor)
            styles = self._line_styles[key] = (row_style, component, post, self.rich_style)
        return styles

    def notify_style_update(self) -> None:
        self._line_styles.clear()
        self._line_cell_styles.clear()
        self._line_lines.clear()
        super().notify_style_update()


def cut_at_edge(strip: Strip, width: int) -> Strip:
    """``strip`` (``width`` cells, more of its row beyond) with its last cell an ellipsis
    when text reaches the edge; a column's padding at the edge is left as it is."""
    last = list(strip.crop(width - 1, width))
    if not last or last[0].text.strip() == "":
        return strip
    return Strip([*strip.crop(0, width - 1), Segment("…", last[0].style)], width)


def row_table(id: str, columns: Iterable[tuple[str, str]]) -> SafeTable:
    """A row-cursor, zebra-striped table with keyed ``(label, key)`` columns."""
    table = SafeTable(id=id, cursor_type="row", zebra_stripes=True)
    for label, key in columns:
        table.add_column(label, key=key)
    return table
