"""What the Rollout screen holds between keys, without an app: the rows shown (``o``),
the accounts Fleet marked, what waits for the accounts to be listed, and the header's
lines made from the plan and the request.
"""

from __future__ import annotations

from dataclasses import dataclass

from vagent_tui.services.bulk import DONE, RolloutLog
from vagent_tui.services.rollout import AccountPlan, RolloutPlan
from vagent_tui.ui.widgets.rollout_form import RolloutRequest
from vagent_tui.ui.widgets.rollout_table import Results
from vagent_tui.ui.widgets.tables import left_out
from vagent_tui.words import counted

SHOWN = ("all", "change", "refused", "unreadable", "already", "trouble")
SHOWN_LABEL = {
    "all": "all accounts", "change": "will change", "refused": "refused",
    "unreadable": "could not be read", "already": "already so",
    "trouble": "a write or publish that did not go through",
}  # fmt: skip


@dataclass
class RolloutView:
    """The Rollout screen's state besides its run's (the plan and log: `RolloutRuns`).

    Attributes:
        shown: which rows show, one of `SHOWN`.
        marked: the accounts Fleet's ``R`` handed over.
        marked_with: the client of the key they were marked with.
        choose_when_listed: came from Fleet's ``R``: the form opens once the accounts
            are listed.
        plan_when_listed: the change was chosen while the accounts were being listed:
            planned once listed.
        unfinished: kept rollouts of this platform and key not finished.
        fresh: ``r``: the next listing reads the accounts again (not the shared listing).
    """

    shown: str = "all"
    marked: tuple[int, ...] = ()
    marked_with: object = None
    choose_when_listed: bool = False
    plan_when_listed: bool = False
    unfinished: int = 0
    fresh: bool = False

    def marks_for(self, client: object) -> tuple[int, ...]:
        """The accounts Fleet handed over, while the key is still the one they were
        marked with (another profile's ids are of another tree)."""
        return self.marked if self.marked_with is client else ()

    def keeps(self, p: AccountPlan, results: Results) -> bool:
        """Whether ``p``'s row shows, given `shown`."""
        if self.shown == "all":
            return True
        if self.shown == "trouble":
            return any(
                (r := results.get((p.account_id, step))) is not None and r.result not in DONE
                for step in ("write", "publish")
            )
        return p.outcome == self.shown

    def show_next(self) -> str:
        """``o``: the next choice of rows; its words."""
        self.shown = SHOWN[(SHOWN.index(self.shown) + 1) % len(SHOWN)]
        return SHOWN_LABEL[self.shown]

    def take_choose(self) -> bool:
        """Whether the form was waiting for the accounts (it waits no longer)."""
        waiting, self.choose_when_listed = self.choose_when_listed, False
        return waiting

    def take_fresh(self) -> bool:
        """Whether this listing reads the accounts again (the next one shares)."""
        fresh, self.fresh = self.fresh, False
        return fresh


def chosen_text(request: RolloutRequest, under: str, marked: int) -> str:
    """The accounts a request chose, in words: ``below X, matching…``, or ``marked in
    Fleet (3), matching…`` (Fleet's rows are the key's: the target does not narrow them)."""
    parts = [f"below {under}"]
    if request.only_ids is not None:
        parts.append(f"the {counted(len(request.only_ids), 'account')} of the loaded plan")
    elif request.marked_only:
        parts = [f"marked in Fleet ({marked:,})"]
    if str(request.account_filter):
        parts.append(f"matching {request.account_filter}")
    return ", ".join(parts)


def change_line(plan: RolloutPlan | None, request: RolloutRequest, chosen: str) -> str:
    """The header's first line: the change and the accounts, planned or chosen."""
    if plan is not None:
        return f"Change: {plan.describe()} · accounts {plan.chosen or 'loaded'}"
    if request.change.is_empty:
        return "Change: none yet · c chooses one"
    return f"Change: {request.change.describe()} · {chosen}"


def plan_line(plan: RolloutPlan | None, log: RolloutLog | None, shown: str) -> str:
    """The header's second line between runs: the plan, what is written and published
    of it, the rows shown ("" before a plan)."""
    if plan is None:
        return ""
    text = f"Plan: {plan.summary()}"
    if log is not None:
        written, published = len(log.written()), log.count("publish", "published")
        text += f" · {written:,} written, {published:,} published"
    text += f" · showing {SHOWN_LABEL[shown]}"
    return text + left_out(len(plan.accounts), "account")
