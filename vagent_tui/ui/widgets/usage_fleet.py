"""The Usage screen's fleet table: one row per agent account, a column per usage key.

Drawn by Fleet's matrix (`FleetMatrix`: each row rendered once into a strip, only the
rows in view drawn), with the answers kept exact in `services.usage_fleet.FleetUsage`.
A sort hands the matrix an order of rows made from keys kept per column (no cell is
measured or rendered again but those in view); the top N is the first N of that order;
the filter (``/``) narrows what the order shows; the totals line, pinned under the
header, sums the rows shown.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from vagent_tui.services.accounts import NamedAccount
from vagent_tui.services.fleet import FleetAnswer, Question
from vagent_tui.services.usage_fleet import ID, NAME, PLAN, TOP_N, FleetUsage
from vagent_tui.ui.colours import FAILED, WARN
from vagent_tui.ui.css import stylesheet
from vagent_tui.ui.format import NO
from vagent_tui.ui.text import safe
from vagent_tui.ui.widgets.fleet_matrix import FleetMatrix
from vagent_tui.ui.widgets.matrix_rows import ANSWERED, BLANK, PENDING, cut_text


class UsageFleetTable(Vertical):
    """The sort line and the matrix of one run's usage."""

    DEFAULT_CSS = stylesheet(__file__)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.usage = FleetUsage([])
        self.sort_column = "cost_total"
        self.reverse = True
        self.top: int | None = None
        self._matrix = FleetMatrix(id="usage-fleet-matrix")
        self._matrix.on_view = self.show_totals  # a filter changes what is summed

    def compose(self) -> ComposeResult:
        yield Static("", id="usage-fleet-sort", markup=False)
        yield self._matrix

    @property
    def matrix(self) -> FleetMatrix:
        return self._matrix

    # ------------------------------------------------------------------ filling

    def setup(self, question: Question, accounts: Sequence[NamedAccount]) -> None:
        """A blank row per account (every account: the sort must see them all)."""
        self.usage = FleetUsage(accounts)
        self.matrix.setup(question, accounts, cap=len(accounts))
        self.matrix.set_columns(self._columns())
        self._show_sort()

    def _columns(self) -> list[tuple[str, str]]:
        return [(self.usage.header(c), c) for c in self.usage.columns if c not in (ID, NAME)]

    def waiting(self, account_ids: Iterable[int]) -> None:
        ids = list(account_ids)
        self.usage.forget(ids)
        for account_id in ids:
            at = self.usage.index.get(account_id)
            if at is not None:
                self.matrix.put_row(str(account_id), self._cells(at, PENDING))

    def take(self, answer: FleetAnswer) -> None:
        """One answer into its line and its row (the columns grow with a new key)."""
        if self.usage.take(answer):
            self.matrix.set_columns(self._columns())
        at = self.usage.index.get(answer.account_id)
        if at is None:
            return
        if answer.error is not None:
            failed = Text(cut_text(f"{NO} {answer.error}"), style=FAILED)
            self.matrix.put_row(str(answer.account_id), self._cells(at, failed))
        else:
            self.matrix.put_row(str(answer.account_id), self._cells(at, ANSWERED))

    def _cells(self, at: int, result: Text) -> list[tuple[str, Text]]:
        usage = self.usage
        cells = [("result", result)]
        for column in usage.columns:
            if column in (ID, NAME):
                continue
            text = usage.text(at, column)
            style = WARN if usage.is_cost(column) and column != "cost_total" else ""
            cells.append((column, safe(text, style) if text else BLANK))
        return cells

    def headers_again(self) -> None:
        """The titles again (a currency stated by every answer shows in the header)."""
        self.matrix.set_columns(self._columns())

    # ------------------------------------------------------------------ order

    def next_sort(self) -> None:
        columns = self.usage.columns
        at = columns.index(self.sort_column) if self.sort_column in columns else -1
        self.sort_column = columns[(at + 1) % len(columns)]
        # numbers read largest first, names A to Z
        self.reverse = self.sort_column not in (ID, NAME, PLAN)
        self.apply_order()

    def flip(self) -> None:
        self.reverse = not self.reverse
        self.apply_order()

    def toggle_top(self) -> None:
        self.top = None if self.top else TOP_N
        self.apply_order()

    def apply_order(self) -> None:
        """Sort by the column chosen (keys made as the answers came), cut to the top N,
        hand the order to the matrix, total what it shows."""
        column = self.sort_column if self.sort_column in self.usage.columns else "cost_total"
        order = self.usage.order(column, reverse=self.reverse)
        if self.top:
            order = order[: self.top]
        self.matrix.set_order(order)
        self.show_totals()
        self._show_sort()

    def show_totals(self) -> None:
        rows = self.matrix.shown_rows
        sums = self.usage.totals(rows)
        cells = {"name": Text(f"Total of {len(rows):,} shown", style="bold")}
        for column, value in sums.items():
            cells[column] = safe(self.usage.total_text(column, value), "bold")
        self.matrix.set_totals(cells)

    def _show_sort(self) -> None:
        usage = self.usage
        column = usage.header(self.sort_column) if self.sort_column in usage.columns else "—"
        way = "largest first" if self.reverse else "smallest first"
        if self.sort_column in (NAME, PLAN):
            way = "Z to A" if self.reverse else "A to Z"
        top = f" · top {self.top}" if self.top else ""
        failed = len(usage.failed)
        said = f" · {failed:,} failed (F asks them again)" if failed else ""
        line = f"Sorted by {column}, {way}{top}{said} · o column · O reverse · n top {TOP_N}"
        self.query_one("#usage-fleet-sort", Static).update(safe(line), layout=False)

    def export_rows(self) -> list[int]:
        return self.matrix.shown_rows
