"""Labelled fields, one per row: what a two-column rich grid draws, for less work.

A rich ``Table.grid`` measures every cell and shares out the width on each render, and
a pane renders twice (its height, then its lines): the first screen's two grids took
4-6 ms of its first frame, and again on each highlight. `FieldGrid` draws the same: the
labels in a column as wide as the widest (or a width given), one space, then each value
wrapped in the rest of the width, long words folded, continuation lines under the value.
"""

from __future__ import annotations

from collections.abc import Iterator

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions
from rich.measure import Measurement
from rich.segment import Segment
from rich.style import Style
from rich.text import Text

from vagent_tui.ui.text import safe

_NO_STYLE = Style.null()


class FieldGrid:
    """Rows of a label and a value; labels in ``label_style`` under their own styles."""

    def __init__(self, *, label_width: int | None = None, label_style: str = "bold") -> None:
        self.rows: list[tuple[Text, Text]] = []
        self._label_width = label_width
        self._label_style = label_style

    def add_row(self, label: str | Text, value: str | Text) -> None:
        """A row; a ``str`` is outside text made inert (`vagent_tui.ui.text.safe`), never
        markup; a `Text` is taken as its maker built it."""
        self.rows.append(
            (
                label if isinstance(label, Text) else safe(label),
                value if isinstance(value, Text) else safe(value),
            )
        )

    def _labels_width(self) -> int:
        if self._label_width is not None:
            return self._label_width
        return max((label.cell_len for label, _ in self.rows), default=0)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        label = self._labels_width()
        widest = max(
            (cell_len(line) for _, v in self.rows for line in v.plain.split("\n")), default=0
        )
        return Measurement(
            min(label + 2, options.max_width), min(label + 1 + widest, options.max_width)
        )

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[Segment]:
        label_width = self._labels_width()
        value_width = max(1, options.max_width - label_width - 1)
        base = console.get_style(self._label_style, default=_NO_STYLE)
        blank = Segment(" " * (label_width + 1))
        gap = Segment(" ")
        for label, value in self.rows:
            head = label.copy()
            head.truncate(label_width, overflow="ellipsis", pad=True)
            # `Text.render` leaves a text's own style to its caller when it has no spans.
            # Unknown style names are no style, as rich's own rendering takes them.
            head_style = base + console.get_style(head.style, default=_NO_STYLE)
            value_style = console.get_style(value.style, default=_NO_STYLE)
            lines = value.wrap(console, value_width, overflow="fold")
            for index, line in enumerate(lines or [Text()]):
                if index == 0:
                    yield from Segment.apply_style(head.render(console), head_style)
                    yield gap
                else:
                    yield blank
                yield from Segment.apply_style(line.render(console), value_style)
                yield Segment.line()
