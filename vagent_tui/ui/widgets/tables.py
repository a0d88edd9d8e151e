"""The row tables of the screens: one way to make them, safe with whatever they hold.

`SafeTable` is the only table the screens use. Every cell it is given is shown inert
(`vagent_tui.ui.text`): a ``str`` is never read as markup, and control characters in a
``str`` or a `Text` show instead of reaching the terminal. A row key that is already
in the table (two SIP entries of one IP, two files of one path) gets a suffix instead of
stopping the table: every row the platform sent is shown.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rich.segment import Segment
from rich.text import Text
from textual.strip import Strip
from textual.widgets import DataTable
from textual.widgets.data_table import ColumnKey, RowKey

from vagent_tui.ui.caps import ROW_CAP, left_out
from vagent_tui.ui.text import safe_value

__all__ = [
    "DUPLICATE_MARK", "ROW_CAP", "SafeTable", "cut_at_edge", "left_out", "original_key",
    "place_cursor", "row_table", "safe_cell",
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


class SafeTable(DataTable[Any]):
    """A `DataTable` whose cells are always inert and whose rows never clash.

    Home and End go to the first and last row, as g and G do (the key convention,
    `vagent_tui.ui.convention`); `DataTable` itself takes them to the first and last
    column.
    """

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
        if key is not None and key in self.rows:
            count = 2
            while f"{key}{DUPLICATE_MARK}{count}" in self.rows:
                count += 1
            key = f"{key}{DUPLICATE_MARK}{count}"
        return super().add_row(
            *(safe_cell(c) for c in cells),
            height=height,
            key=key,
            label=safe_cell(label) if label is not None else None,
        )

    def update_cell(
        self,
        row_key: RowKey | str,
        column_key: ColumnKey | str,
        value: Any,
        *,
        update_width: bool = False,
    ) -> None:
        super().update_cell(row_key, column_key, safe_cell(value), update_width=update_width)


def cut_at_edge(strip: Strip, width: int) -> Strip:
    """``strip`` (``width`` cells, more of its row beyond) with its last cell an ellipsis
    when text reaches the edge; a column's padding at the edge is left as it is."""
    last = list(strip.crop(width - 1, width))
    if not last or last[0].text.strip() == "":
        return strip
    return Strip([*strip.crop(0, width - 1), Segment("…", last[0].style)], width)


def original_key(key: str | None) -> str | None:
    """The key a row was added with, without the suffix of a repeated key."""
    return key.partition(DUPLICATE_MARK)[0] if key is not None else None


def row_table(id: str, columns: Iterable[tuple[str, str]]) -> SafeTable:
    """A row-cursor, zebra-striped table with keyed ``(label, key)`` columns."""
    table = SafeTable(id=id, cursor_type="row", zebra_stripes=True)
    for label, key in columns:
        table.add_column(label, key=key)
    return table


def place_cursor(table: DataTable[Any], keys: list[str], keep: str | None, row: int) -> None:
    """On the row keyed ``keep`` if it is there, else as near the old row as possible."""
    if keep in keys:
        table.move_cursor(row=keys.index(keep), animate=False)
    elif keys:
        table.move_cursor(row=min(row, len(keys) - 1), animate=False)
