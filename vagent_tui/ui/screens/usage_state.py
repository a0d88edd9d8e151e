"""What the Usage screen holds between keys, in a typed object that needs no app.

`UsageState` is the question asked (`UsageQuery`), which view shows (one account, or the
fleet below a level), whether a fleet run is under way, the way back to a level's table
after Enter, and which keys each view answers to. The screen draws it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from vagent_tui.api.models import UsageQuery
from vagent_tui.services.account_usage import AccountUsage

FREQUENCIES: tuple[Literal["day", "month", "year"], ...] = ("day", "month", "year")
LEVELS = ("partner", "reseller", "organization")
"""An account of these types has accounts below it: the screen shows their usage."""
FLEET_ONLY = ("sort", "reverse", "top", "retry_failed", "open")
"""Actions of the fleet's view only."""

Asked = tuple[object, int | None, UsageQuery]
"""What a fleet's table answers: the client, the level's id, the question."""


@dataclass
class UsageState:
    """The Usage screen's state.

    Attributes:
        query: the question asked of the platform.
        shown: the one account's usage on show (None: none, never another account's).
        fleet_mode: the target is a level: the fleet below it shows.
        running: a fleet run is under way.
        run_id: the current run (an answer of an older run is dropped).
        plans_shown: ``p``: the plans panel shows instead of the usage.
        back_to: the level whose table Enter left (its id; None: the key owner) and the
            account Enter acted as; None: none.
        keep_table: the next reload at a level shows the table kept, when it answers the same.
        fleet_asked: what the fleet's table holds answers to.
    """

    query: UsageQuery = field(default_factory=UsageQuery)
    shown: AccountUsage | None = None
    fleet_mode: bool = False
    running: bool = False
    run_id: int = 0
    plans_shown: bool = False
    back_to: tuple[int | None, int] | None = None
    keep_table: bool = False
    fleet_asked: Asked | None = None

    def asked_line(self) -> str:
        """``current period · by day · costs on``: the question, in the screen's top line."""
        q = self.query
        if q.ranged:
            start = q.start_date.isoformat() if q.start_date else "period start"
            end = q.end_date.isoformat() if q.end_date else "today"
            when = f"{start} … {end}"
        else:
            when = f"{q.billing_period} period"
        costs = "costs on" if q.give_costs else "costs off"
        return f"{when} · by {q.frequency} · {costs}"

    def ask(self, **changes: Any) -> None:
        """The question with ``changes`` (fields of `UsageQuery`)."""
        self.query = self.query.model_copy(update=changes)

    def other_period(self) -> dict[str, Any]:
        """The changes that ask for the other billing period (a range typed is dropped)."""
        period = "previous" if self.query.billing_period == "current" else "current"
        return {"billing_period": period, "start_date": None, "end_date": None}

    def next_frequency(self) -> Literal["day", "month", "year"]:
        return FREQUENCIES[(FREQUENCIES.index(self.query.frequency) + 1) % len(FREQUENCIES)]

    def asking(self, client: object, target: int | None) -> Asked:
        """What a fleet's table for ``target`` answers now: the series and its frequency
        are not asked of a fleet, so they are not part of its question."""
        query = self.query.model_copy(update={"timeseries": False, "frequency": "day"})
        return (client, target, query)

    def at_level(self, acting_type: str | None) -> bool:
        """Whether the account acted as is a level (the fleet shows); remembered."""
        self.fleet_mode = acting_type in LEVELS
        return self.fleet_mode

    def keeps_table(self, asked: Asked) -> bool:
        """At a level: whether the table kept is shown as it was (esc came back to it and
        it answers the same question). The way back is used up either way."""
        kept, self.keep_table = self.keep_table, False
        self.back_to = None
        return kept and self.fleet_asked == asked

    def start_run(self) -> int:
        """A fleet run starts: its id."""
        self.run_id += 1
        self.running = True
        return self.run_id

    def switch_failed(self) -> None:
        """A switch of the target did not happen: no table is restored, and at a level
        there is nothing to go back to."""
        self.keep_table = False
        if self.fleet_mode:
            self.back_to = None

    def rules(self, action: str) -> bool:
        """Whether this state says if the key of ``action`` shows (`allows`)."""
        return action in ("back", "frequency", *FLEET_ONLY) or (
            action in ("period", "costs", "range") and self.running
        )

    def allows(self, action: str) -> bool | None:
        """Whether the key of an ``action`` this state `rules` shows (True), is hidden
        (False: another view's), or shows disabled (None: not while a run is under way)."""
        if action == "back":
            return self.plans_shown or (not self.fleet_mode and self.back_to is not None)
        if action in FLEET_ONLY:
            return self.fleet_mode
        if action == "frequency":
            return not self.fleet_mode
        return None
