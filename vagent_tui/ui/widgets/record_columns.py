"""A record table's columns and their widths: pure sizing, no widget (`RecordTable`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.text import Text

PAD = 1
"""Blank cells on each side of a column's text (as a `DataTable`'s cell padding)."""
AUTO_WIDTH_CAP = 40
"""The least a column sized to its cells is cut to when the columns overflow the table."""


@dataclass
class LineColumn:
    """A column: its key, its label (inert), its width (None: its widest cell's)."""

    key: str
    label: Text
    width: int | None = None
    content_width: int = 0
    """The width drawn: ``width``, or the widest of the label and the page's cells."""
    natural_width: int = 0
    """The widest of the label and the page's cells (``content_width`` before a cap)."""

    @property
    def render_width(self) -> int:
        return self.content_width + 2 * PAD


def fit_columns(columns: Sequence[LineColumn], widest: Sequence[int], view: int) -> None:
    """Each column without a width as wide as ``widest`` (its label's and its cells'),
    but for the last one at most half the table's ``view`` width (`AUTO_WIDTH_CAP` at
    least) when the columns are wider than the table: a value thousands of characters
    long (a hostile name) pushed every column after it off the screen. Its cell ends
    in an ellipsis; the detail or Enter shows it whole. ``view`` 0: not laid out yet."""
    for column, natural in zip(columns, widest, strict=True):
        if column.width is None:
            column.natural_width = column.content_width = natural
        else:  # a set width counts as it is drawn in the overflow check
            column.natural_width = column.content_width
    if not view or sum(c.natural_width + 2 * PAD for c in columns) <= view:
        return
    cap = max(AUTO_WIDTH_CAP, view // 2)
    for column in columns[:-1]:
        if column.width is None:
            column.content_width = max(column.label.cell_len, min(column.natural_width, cap))
