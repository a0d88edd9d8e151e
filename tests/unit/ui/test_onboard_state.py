"""What the Onboard screen holds between keys and its table's columns, without an app
(ui/screens/onboard_state.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from vagent_tui.services.onboard import OnboardPlan, RowPlan
from vagent_tui.services.onboard_rows import Row
from vagent_tui.ui.screens.onboard_state import (
    MAX_DETAIL,
    RESULT_WIDTH,
    Layout,
    OnboardState,
    column_widths,
    cut_cell,
    longest_values,
)

PLAN = OnboardPlan(
    [
        RowPlan(Row(2, "organization", "ORG-1", "Acme"), "create"),
        RowPlan(Row(3, "account", "AC-1", "Front desk"), "already"),
        RowPlan(Row(14, "account", "AC-2", "x" * 300), "refused", reasons=("no parent",)),
    ],
    source="rows.csv",
)


@pytest.mark.parametrize(
    ("shown", "lines"),
    [("all", [2, 3, 14]), ("writes", [2]), ("trouble", [14]), ("refused", [14])],
)
def test_o_shows_some_rows(shown: str, lines: list[int]) -> None:
    state = OnboardState(plan=PLAN, shown=shown)
    assert [p.row.line for p in PLAN.rows if state.keeps(p)] == lines


def test_o_goes_round_the_choices() -> None:
    state = OnboardState()
    said = [state.show_next() for _ in range(4)]
    assert said[0] == "rows to create or update" and said[-1] == "all rows"
    assert state.shown == "all"


def test_the_header_lines() -> None:
    state = OnboardState()
    assert state.source_line() == "File: none yet · c opens one" and state.plan_line() == ""
    state.path = Path("/tmp/rows.csv")
    assert state.source_line() == "File: rows.csv"
    state.plan = PLAN
    assert state.source_line().startswith("File: rows.csv · 3 rows · create 1 organization")
    assert state.plan_line().endswith(" · showing all rows")
    assert state.result(PLAN.rows[0]) is None  # no run yet


def test_the_longest_values_are_worked_out_once_per_plan() -> None:
    state = OnboardState(plan=PLAN)
    first = state.longest()
    assert state.longest() is first
    assert dict(first)["name"] == MAX_DETAIL and dict(first)["line"] == 2
    state.plan = OnboardPlan(PLAN.rows[:1])
    assert dict(state.longest())["name"] == len("Acme")
    assert longest_values(None) == tuple((c, 0) for c in ("line", "type", "plan", "key", "name"))


@pytest.mark.parametrize("width", [60, 80, 120, 200])
@pytest.mark.parametrize("narrow", [False, True])
def test_the_columns_fill_the_width(width: int, narrow: bool) -> None:
    widths = column_widths(Layout(narrow, width, longest_values(PLAN)))
    assert ("name" in widths) is not narrow
    assert widths["result"] == RESULT_WIDTH and widths["detail"] >= 12
    used = sum(widths.values()) + 2 * len(widths) + 2  # padding, scrollbar
    assert used == width or widths["detail"] == 12  # the details take the rest


def test_a_long_value_is_cut_with_an_ellipsis() -> None:
    assert cut_cell("x" * 500).endswith("…") and len(cut_cell("x" * 500)) == MAX_DETAIL
    assert cut_cell("short") == "short"
