"""The fleet matrix: one keyed row per agent account, one column per answer value.

Rows are keyed by account id and never more than the accounts asked; a cell is written
only when its text changes (`FleetMatrix.put`), so a run of 1,000 answers costs one
cell write per value (and `FleetScreen` writes rows out of view only once a second:
every write makes DataTable render all the rows in view again). The ``Result`` column
holds ``…`` (waiting), ``✓``, ``–`` (not asked: the run was cancelled) or
``✗ <message>`` for an account whose request failed.

A `SafeTable`: every cell is inert. It shows at most `ROW_CAP` accounts (`setup` says
how many it took); answers of accounts without a row are not drawn (the CSV has them).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from rich.cells import cell_len
from rich.text import Text
from textual.widgets.data_table import RowDoesNotExist

from vagent_tui.api.models import Account
from vagent_tui.services.fleet import FleetAnswer, Question, cell_text
from vagent_tui.ui.format import NO, YES
from vagent_tui.ui.palette import ACCENT, FAILED, OK, WARN
from vagent_tui.ui.text import inert, safe
from vagent_tui.ui.widgets.tables import ROW_CAP, SafeTable

MAX_TEXT = 48
"""Longer texts (unavailable names, error messages) are cut in the table, not the CSV."""

PENDING = Text("…", style="dim")
NOT_ASKED = Text("–", style="dim")
BLANK = Text("")
ANSWERED = Text(YES, style=OK)
MARK = Text("●", style=ACCENT)


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


class FleetMatrix(SafeTable):
    """Accounts × answers of one question."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, cursor_type="row", zebra_stripes=True)
        self.question: Question | None = None
        self._shown: dict[tuple[str, str], tuple[str, str]] = {}
        self._widths: dict[str, int] = {}

    def setup(self, question: Question, accounts: Sequence[Account]) -> int:
        """Columns of ``question`` and one waiting row per account (in the given order).

        Returns:
            How many accounts got a row: at most `ROW_CAP`.
        """
        self.question = question
        self._shown.clear()
        self._widths.clear()
        self.clear(columns=True)
        self.add_column(" ", key="mark")
        self.add_column("ID", key="id")
        self.add_column("Account", key="name")
        self.add_column("Result", key="result")
        for key, header in question.columns:
            self.add_column(header, key=key)
        blanks = [BLANK] * len(question.columns)
        for account in accounts[:ROW_CAP]:
            row = str(account.id)
            if row in self.rows:
                continue  # one row per account: answers are keyed by account id
            self.add_row(BLANK, Text(row), safe(account.display_name), BLANK, *blanks, key=row)
            self._remember(row, "mark", BLANK)
            self._remember(row, "result", BLANK)
            for key in question.keys:
                self._remember(row, key, BLANK)
        return self.row_count

    def _remember(self, row: str, column: str, text: Text) -> None:
        self._shown[(row, column)] = (text.plain, str(text.style))

    def put(self, row: str, column: str, text: Text) -> None:
        """Write one cell if its text changed.

        Columns only grow: DataTable re-measures a whole column when a cell gets
        narrower (quadratic over a run), so the width is asked for only when needed.
        """
        if self._shown.get((row, column)) == (text.plain, str(text.style)):
            return
        if row not in self.rows:
            return  # an account past the display cap: no row
        self._remember(row, column, text)
        width = cell_len(text.plain)
        grow = width > self._widths.get(column, 0)
        if grow:
            self._widths[column] = width
        self.update_cell(row, column, text, update_width=grow)

    def show_marks(self, marked: Iterable[int]) -> None:
        """``●`` in the first column of the marked accounts' rows, nothing in the others."""
        chosen = {str(a) for a in marked}
        for row in self.rows:
            key = row.value or ""
            self.put(key, "mark", MARK if key in chosen else BLANK)

    def highlighted_account(self) -> int | None:
        if not self.row_count:
            return None
        try:
            key = self.coordinate_to_cell_key(self.cursor_coordinate).row_key.value
        except RowDoesNotExist:
            return None
        return int(key) if key and key.isdigit() else None

    def is_visible(self, account_id: int) -> bool:
        """Whether the row of ``account_id`` is in view (or next to it)."""
        try:
            index = self.get_row_index(str(account_id))
        except RowDoesNotExist:
            return False
        top = int(self.scroll_y)
        return top - 2 <= index <= top + self.size.height + 2

    def show_waiting(self, account_ids: Iterable[int]) -> None:
        assert self.question is not None
        for account_id in account_ids:
            row = str(account_id)
            self.put(row, "result", PENDING)
            for key in self.question.keys:
                self.put(row, key, BLANK)

    def show_not_asked(self, account_ids: Iterable[int]) -> None:
        for account_id in account_ids:
            self.put(str(account_id), "result", NOT_ASKED)

    def show_answer(self, answer: FleetAnswer) -> None:
        assert self.question is not None
        row = str(answer.account_id)
        if answer.error is not None:
            self.put(row, "result", Text(_cut(f"{NO} {answer.error}"), style=FAILED))
            for key in self.question.keys:
                self.put(row, key, BLANK)
            return
        self.put(row, "result", ANSWERED)
        values = answer.values
        for key in self.question.keys:
            self.put(row, key, value_text(key, values.get(key), values))
