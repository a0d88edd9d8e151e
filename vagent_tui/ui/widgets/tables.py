"""The row tables of the screens: one way to make them."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from textual.widgets import DataTable


def row_table(id: str, columns: Iterable[tuple[str, str]]) -> DataTable[Any]:
    """A row-cursor, zebra-striped table with keyed ``(label, key)`` columns."""
    table: DataTable[Any] = DataTable(id=id, cursor_type="row", zebra_stripes=True)
    for label, key in columns:
        table.add_column(label, key=key)
    return table


def place_cursor(table: DataTable[Any], keys: list[str], keep: str | None, row: int) -> None:
    """On the row keyed ``keep`` if it is there, else as near the old row as possible."""
    if keep in keys:
        table.move_cursor(row=keys.index(keep), animate=False)
    elif keys:
        table.move_cursor(row=min(row, len(keys) - 1), animate=False)
