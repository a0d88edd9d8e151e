"""The rollout's table: one keyed row per planned account, its plan and what became of it.

Columns: the account, the plan's outcome, what became of it (the publish's result once
there is one, else the staging write's) and the details (what changes, why refused,
the platform's message of a failed write or publish). Every cell is inert (a
`SafeTable`). `show` builds the rows of one outcome filter, at most `ROW_CAP`;
`put_result` writes one account's result into its row when it has one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from rich.text import Text
from textual.widgets.data_table import RowDoesNotExist

from vagent_tui.services.bulk import AccountResult
from vagent_tui.services.rollout import AccountPlan, RolloutPlan
from vagent_tui.ui.colours import ACCENT, FAILED, OK, WARN
from vagent_tui.ui.format import NO, YES
from vagent_tui.ui.text import inert
from vagent_tui.ui.widgets.tables import ROW_CAP, SafeTable

MAX_DETAIL = 160
"""Details past this are cut in the table (enter shows them whole)."""

OUTCOME_TEXT: dict[str, tuple[str, str]] = {
    "change": ("will change", ACCENT),
    "already": ("already so", "dim"),
    "refused": ("refused", WARN),
    "unreadable": ("unreadable", FAILED),
}
RESULT_TEXT: dict[str, tuple[str, str]] = {
    "written": (f"{YES} written", OK),
    "published": (f"{YES} published", OK),
    "changed-meanwhile": ("⚠ changed", WARN),
    "failed": (f"{NO} failed", FAILED),
    "unknown": ("? unknown", WARN),
    "nothing": ("– nothing", "dim"),
}
PENDING = Text("…", style="dim")
BLANK = Text("")

Results = Mapping[tuple[int, str], AccountResult]


def detail_lines(plan: AccountPlan, results: Results) -> list[str]:
    """Everything about one account: the plan's lines, then each step's message."""
    lines = list(plan.changes or plan.reasons) + list(plan.notes)
    for step in ("write", "publish"):
        result = results.get((plan.account_id, step))
        if result is not None and result.message:
            lines.append(f"{step}: {result.result}: {result.message}")
    return lines


def _detail(plan: AccountPlan, results: Results) -> Text:
    for step in ("publish", "write"):  # a step's trouble is what the eye needs first
        result = results.get((plan.account_id, step))
        if result is not None and result.result not in ("written", "published"):
            return Text(_cut(f"{step}: {result.message or result.result}"), style=WARN)
    return Text(_cut("; ".join(plan.changes or plan.reasons)))


def _cut(text: str) -> str:
    text = inert(text, limit=MAX_DETAIL)
    return text if len(text) <= MAX_DETAIL else text[: MAX_DETAIL - 1] + "…"


def result_text(result: AccountResult | None) -> Text:
    if result is None:
        return BLANK
    label, style = RESULT_TEXT.get(result.result, (result.result, ""))
    return Text(inert(label), style=style)


def latest(account_id: int, results: Results) -> Text:
    """The publish's result once there is one, else the write's."""
    publish = results.get((account_id, "publish"))
    return result_text(publish if publish is not None else results.get((account_id, "write")))


class RolloutTable(SafeTable):
    """Planned accounts × (plan, result, details)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, cursor_type="row", zebra_stripes=True)
        self.plans: dict[int, AccountPlan] = {}
        for label, key in (
            ("ID", "id"),
            ("Account", "name"),
            ("Plan", "plan"),
            ("Result", "result"),
            ("Details", "detail"),
        ):
            # The result's column is as wide as its longest word from the start: grown
            # by each result as it came, its width would depend on the order they came.
            width = max(len(text) for text, _ in RESULT_TEXT.values()) if key == "result" else None
            self.add_column(label, key=key, width=width)

    def show(
        self, plan: RolloutPlan, results: Results, keep: Callable[[AccountPlan], bool]
    ) -> tuple[int, int]:
        """Rows for the accounts ``keep`` accepts; ``(rows shown, rows kept)``."""
        self.clear()
        self.plans = {}
        kept = 0
        for p in plan.accounts:
            if not keep(p) or p.account_id in self.plans:
                continue
            kept += 1
            if kept > ROW_CAP:
                continue
            self.plans[p.account_id] = p
            label, style = OUTCOME_TEXT[p.outcome]
            self.add_row(
                Text(inert(p.account_id)), Text(_cut(p.name)), Text(label, style=style),
                latest(p.account_id, results), _detail(p, results), key=str(p.account_id),
            )  # fmt: skip
        return min(kept, ROW_CAP), kept

    def put_result(self, result: AccountResult, results: Results) -> None:
        plan = self.plans.get(result.account_id)
        if plan is None:
            return  # filtered out, or past the cap
        row = str(result.account_id)
        try:
            self.update_cell(row, "result", latest(result.account_id, results))
            self.update_cell(row, "detail", _detail(plan, results))
        except RowDoesNotExist:
            return

    def put_pending(self, account_ids: list[int]) -> None:
        for account_id in account_ids:
            if account_id in self.plans:
                self.update_cell(str(account_id), "result", PENDING)

    def highlighted(self) -> AccountPlan | None:
        if not self.row_count:
            return None
        try:
            key = self.coordinate_to_cell_key(self.cursor_coordinate).row_key.value
        except RowDoesNotExist:
            return None
        return self.plans.get(int(key)) if key and key.isdecimal() else None
