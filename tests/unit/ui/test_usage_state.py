"""What the Usage screen holds between keys and what it draws from it, without an app
(ui/screens/usage_state.py, ui/screens/usage_parts.py)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from vagent_tui.api.models import UsageQuery
from vagent_tui.services.account_usage import AccountUsage
from vagent_tui.services.plans import PlanPart
from vagent_tui.services.usage import UsageReport, UsageRow
from vagent_tui.ui.screens.usage_parts import notes_text, plans_text, side_lines
from vagent_tui.ui.screens.usage_state import UsageState


def test_the_question_in_words() -> None:
    state = UsageState()
    assert state.asked_line() == "current period · by day · costs on"
    state.ask(**state.other_period(), frequency=state.next_frequency(), give_costs=False)
    assert state.asked_line() == "previous period · by month · costs off"
    state.ask(start_date=dt.date(2026, 1, 2))
    assert state.asked_line() == "2026-01-02 … today · by month · costs off"
    state.ask(**state.other_period())  # a period drops the range
    assert not state.query.ranged and state.query.billing_period == "current"


def test_the_frequency_goes_round() -> None:
    state = UsageState()
    seen = []
    for _ in range(3):
        seen.append(state.next_frequency())
        state.ask(frequency=seen[-1])
    assert seen == ["month", "year", "day"]


def test_a_fleets_question_leaves_out_the_series() -> None:
    state = UsageState(query=UsageQuery(frequency="year"))
    client = object()
    assert state.asking(client, 5) == state.asking(client, 5)
    _, _, asked = state.asking(client, 5)
    assert (asked.timeseries, asked.frequency) == (False, "day")
    state.ask(frequency="month")  # not part of a fleet's question
    assert state.asking(client, 5) == (client, 5, asked)
    assert state.asking(client, 6) != (client, 5, asked)


def test_the_table_kept_shows_again_only_when_esc_came_back_to_the_same_question() -> None:
    state = UsageState(back_to=(None, 1111))
    asked = state.asking(object(), None)
    state.fleet_asked = asked
    assert not state.keeps_table(asked)  # not come back by esc
    assert state.back_to is None
    state.keep_table = True
    assert state.keeps_table(asked) and not state.keep_table
    state.keep_table = True
    assert not state.keeps_table(state.asking(object(), None))  # another client


def test_runs_are_numbered_and_a_failed_switch_forgets_the_way_back() -> None:
    state = UsageState()
    assert (state.start_run(), state.start_run(), state.running) == (1, 2, True)
    state.back_to, state.keep_table = (None, 1111), True
    state.switch_failed()
    assert state.back_to == (None, 1111) and not state.keep_table  # one account: esc still goes
    state.fleet_mode = True
    state.switch_failed()
    assert state.back_to is None


@pytest.mark.parametrize(
    ("fleet", "running", "back_to", "plans", "expected"),
    [
        (True, False, None, False, {"sort": True, "frequency": False, "back": False}),
        (False, False, None, False, {"sort": False, "frequency": True, "back": False}),
        (False, False, (None, 1), False, {"back": True}),
        (True, False, None, True, {"back": True}),
        (True, True, None, False, {"period": None, "costs": None, "range": None}),
    ],
)
def test_which_keys_each_view_answers_to(
    fleet: bool,
    running: bool,
    back_to: tuple[int | None, int] | None,
    plans: bool,
    expected: dict[str, bool | None],
) -> None:
    state = UsageState(fleet_mode=fleet, running=running, back_to=back_to, plans_shown=plans)
    assert {action: state.allows(action) for action in expected} == expected
    assert all(state.rules(action) for action in expected)
    assert not state.rules("export") and (state.rules("period") is running)


def test_a_level_shows_the_fleet() -> None:
    state = UsageState()
    assert state.at_level("reseller") and state.fleet_mode
    assert not state.at_level("account") and not state.fleet_mode


ROW = UsageRow("minutes", Decimal(3), cost=False, summed=True)
COST = UsageRow("cost:minutes", Decimal("1.5"), cost=True)


def test_the_notes_say_what_was_not_read_and_what_was_summed() -> None:
    report = UsageReport(rows=(ROW,), unread=tuple(f"p{n}" for n in range(8)),
                         notes=(("period.start", "x" * 100),))  # fmt: skip
    lines = notes_text(report, shown=True).split("\n")
    assert lines[0] == "Not read: p0, p1, p2, p3, p4, p5 and 2 more"
    assert lines[1].startswith("period.start: xxx") and lines[1].endswith("(+20 characters)")
    assert lines[2].startswith("Σ:")
    assert notes_text(UsageReport(), shown=True).startswith("The usage reply holds no number")
    assert notes_text(UsageReport(), shown=False) == ""


def test_the_side_panel_names_a_plan_not_read_and_the_costs() -> None:
    usage = AccountUsage(UsageReport(rows=(ROW, COST), currency="EUR"), plan_error="refused")
    text = "\n".join(line.plain for line in side_lines(usage, in_org=False))
    assert "Plan\nnot read: refused" in text and "Costs\nEUR 1.50" in text


def test_the_plans_panel_says_a_part_not_read_and_one_without_fields() -> None:
    parts = [PlanPart("Current plan", "/product/currentPlan", error="404"),
             PlanPart("Catalog", "/product/productPlans")]  # fmt: skip
    assert plans_text(parts).plain.split("\n") == [
        "Current plan  GET /product/currentPlan", "  not read: 404", "",
        "Catalog  GET /product/productPlans", "  (the reply has no field)",
    ]  # fmt: skip
