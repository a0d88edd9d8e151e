"""``/`` on any screen with a table: a filter row above the table, the same everywhere.

`filter_binding` is the ``/`` key of a screen (id ``<screen>.filter``, the key
convention's "filter" verb); `BaseScreen.action_focus_filter` opens a `FilterRow` above
the table that has the focus (or the screen's first table on show) and focuses its
field. The words typed narrow the table's rows as they are typed (`SafeTable.set_filter`:
a row shows when it holds every word, any case); the row says "N of M rows". Enter goes
back to the table, the rows staying filtered; Esc clears the filter and hides the row.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar, Protocol, runtime_checkable

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import Input, Static

from vagent_tui.ui.built import when_built
from vagent_tui.ui.css import stylesheet
from vagent_tui.ui.text import inert
from vagent_tui.words import counted

__all__ = ["DEFAULT_PLACEHOLDER", "FilterInput", "FilterRow", "Filterable", "filter_binding"]

DEFAULT_PLACEHOLDER = "/ filter the rows: words in any order, any case"


@runtime_checkable
class Filterable(Protocol):
    """What a filter row filters: `SafeTable`, and Fleet's matrix, which draws its own rows."""

    on_count: Callable[[int, int], None] | None

    @property
    def row_count(self) -> int: ...

    @property
    def total_rows(self) -> int: ...

    @property
    def filter_words(self) -> tuple[str, ...]: ...

    def set_filter(self, text: str) -> None: ...

    def focus(self, scroll_visible: bool = True) -> object: ...


def filter_binding(screen: str) -> Binding:
    """The ``/`` of screen ``screen``: opens the filter row of its table."""
    return Binding(
        "slash",
        "focus_filter",
        "Filter",
        id=f"{screen}.filter",
        tooltip="Show only the rows that hold the words typed",
    )


class FilterInput(Input):
    """The field of a `FilterRow` (screens refuse their one-letter keys while it has the
    focus, so that they are typed)."""


class FilterRow(Horizontal):
    """A field that filters ``table`` and a count of the rows shown."""

    DEFAULT_CSS = stylesheet(__file__)
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "escape",
            "leave_field",
            "Clear filter",
            id="filter.leave",
            tooltip="Clear the filter and go back to the table",
        ),
    ]

    def __init__(self, table: Filterable, placeholder: str = DEFAULT_PLACEHOLDER) -> None:
        super().__init__(classes="table-filter")
        self.table = table
        self.placeholder = placeholder

    def compose(self) -> ComposeResult:
        yield Static("Filter", classes="table-filter-label", markup=False)
        yield FilterInput(placeholder=self.placeholder, compact=True, select_on_focus=False)
        yield Static("", classes="table-filter-count", markup=False)

    @property
    def field(self) -> FilterInput:
        return self.query_one(FilterInput)

    def on_mount(self) -> None:
        self.table.on_count = self._count
        self._count(self.table.row_count, self.table.total_rows)

    def on_unmount(self) -> None:
        self.table.on_count = None

    def open(self) -> None:
        """Show the row, its field focused (once the field is there: ``/`` again while
        the row is being built). `BaseScreen.action_focus_filter` calls it after the
        refresh that follows mounting the row: by then the row may be gone (the console
        quitting: ctrl+q is never held behind ``/``)."""
        self.display = True
        when_built(self, self._focus_field)

    def _focus_field(self) -> None:
        fields = self.query(FilterInput)
        if self.is_attached and fields:
            fields.first().focus()

    @on(Input.Changed)
    def _changed(self, event: Input.Changed) -> None:
        event.stop()
        self.table.set_filter(event.value)

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.table.focus()

    def action_leave_field(self) -> None:
        self.field.value = ""
        self.table.set_filter("")
        self.display = False
        self.table.focus()

    def _count(self, shown: int, total: int) -> None:
        rows = counted(total, "row")
        text = f"{shown:,} of {rows}" if self.table.filter_words else rows
        self.query_one(".table-filter-count", Static).update(Text(inert(text)))
