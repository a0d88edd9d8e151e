"""Pilot flows of the Usage screen and of Fleet's "Usage this period".

The simulator's clock is the suite's fixed time, 2025-11-20T12:00Z: the current period
is 2025-11-01..20. Its usage reply has three shapes (CONTRACT choice 37): the screen is
run against each, since the platform publishes none.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input, Static

from tests.helpers import MakeApp, settle, shown, sim_of
from vagent_tui.api.errors import ApiError
from vagent_tui.services.usage import UsageRow
from vagent_tui.sim import huge
from vagent_tui.ui.screens.base import BaseScreen
from vagent_tui.ui.screens.usage import UsageScreen
from vagent_tui.ui.screens.usage_parts import bars
from vagent_tui.ui.widgets.form import FormField

NOW = 1_763_640_000.0  # 2025-11-20T12:00:00Z
AGENT = 1111
USAGE = "/api/v2/stats/usage"


def _app(make_app: MakeApp, shape: str = "totals") -> Any:
    app = make_app("usage", account=AGENT, clock=lambda: NOW)
    sim_of(app).usage_shape = shape
    return app


def _asked(app: Any) -> list[dict[str, str]]:
    return [r.query for r in sim_of(app).requests if r.path == USAGE]


def _keys(app: Any) -> list[str]:
    return [row.key for row in shown(app, UsageScreen).table.records]


def _text(app: Any, selector: str) -> str:
    return str(shown(app, UsageScreen).query_one(selector, Static).render())


def _status(app: Any) -> str:
    return str(shown(app, BaseScreen).status.content)


async def test_rows_plan_today_and_chart(make_app: MakeApp) -> None:
    app = _app(make_app)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert _keys(app) == ["calls", "minutes", "texts", "tasks", "cost:minutes", "cost:texts"]
        asked = _asked(app)[-1]
        assert asked["billingPeriod"] == "current" and asked["targetAccountId"] == str(AGENT)
        side = _text(app, "#usage-side")
        plan = sim_of(app).accounts[AGENT].plan
        assert f"id: {plan}" in side and "calls: " in side and " of 100" in side
        assert "USD " in side
        assert "In the catalog" in side and "overage.minutes: 0.05" in side
        assert [r.path for r in sim_of(app).requests].count(
            f"/api/v2/product/productPlan/{plan}"
        ) == 1
        chart = _text(app, "#usage-chart")
        assert "calls by day · 20 points" in chart and "2025-11-01 … 2025-11-20" in chart
        await pilot.press("down")
        await settle(pilot)
        assert "minutes by day" in _text(app, "#usage-chart")
        assert "usage keys" in _status(app)


async def test_period_frequency_and_costs_keys(make_app: MakeApp) -> None:
    app = _app(make_app)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("b")
        await settle(pilot)
        assert _asked(app)[-1]["billingPeriod"] == "previous"
        assert "previous period" in _text(app, "#usage-asked")
        assert "2025-10-01 … 2025-10-31" in _text(app, "#usage-chart")
        await pilot.press("f")
        await settle(pilot)
        assert _asked(app)[-1]["frequency"] == "month"
        await pilot.press("c")
        await settle(pilot)
        assert _asked(app)[-1]["giveCosts"] == "false"
        assert not [k for k in _keys(app) if k.startswith("cost:")]


async def test_a_bad_range_is_refused_at_its_field_and_nothing_is_sent(
    make_app: MakeApp,
) -> None:
    app = _app(make_app)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        before = len(_asked(app))
        screen = shown(app, UsageScreen)
        await pilot.press("t")
        await pilot.press(*"2025-13-01", "enter")
        await settle(pilot)
        fields = {f.name: f for f in screen.query(FormField).results(FormField)}
        assert fields["start_date"].has_class("-invalid")
        assert "nothing was sent" in _status(app) and len(_asked(app)) == before
        screen.query_one("#usage-from", Input).value = "2025-06-10"
        screen.query_one("#usage-to", Input).value = "2025-06-01"
        screen.query_one("#usage-to", Input).focus()
        await pilot.press("enter")
        await settle(pilot)
        assert fields["end_date"].has_class("-invalid") and len(_asked(app)) == before
        assert screen.query_one("#usage-to", Input).value == "2025-06-01"  # kept as typed
        screen.query_one("#usage-to", Input).value = "2025-06-12"
        await pilot.press("enter")
        await settle(pilot)
        asked = _asked(app)[-1]
        assert asked["startDate"] == "2025-06-10T00:00:00.000Z" and "billingPeriod" not in asked
        assert not fields["end_date"].has_class("-invalid")
        assert "3 points" in _text(app, "#usage-chart")
        screen.table.focus()
        await pilot.press("x")
        await settle(pilot)
        assert _asked(app)[-1]["billingPeriod"] == "current"


async def test_a_second_shape_rows_of_key_and_value(make_app: MakeApp) -> None:
    app = _app(make_app, "rows")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, UsageScreen)
        keys = _keys(app)
        assert set(keys) == {"calls", "minutes", "texts", "tasks", "cost:minutes", "cost:texts"}
        minutes = screen.table.record("minutes")
        assert isinstance(minutes, UsageRow) and minutes.summed and len(minutes.series) == 20
        assert "Σ" in _text(app, "#usage-notes")
        assert "no currency stated" in _text(app, "#usage-side")


async def test_a_reply_with_no_usable_key(make_app: MakeApp) -> None:
    app = _app(make_app, "empty")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert _keys(app) == []
        assert "No number in the usage reply" in _status(app)
        assert "holds no number" in _text(app, "#usage-notes")
        assert "No series" in _text(app, "#usage-chart")
        await pilot.press("w")
        await settle(pilot)
        assert "Nothing to export" in _status(app)


async def test_a_failed_read_shows_its_message_and_no_old_numbers(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = _app(make_app)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert _keys(app)

        async def refused(*args: Any, **kwargs: Any) -> Any:
            raise ApiError(403, "Usage is not available for this account")

        monkeypatch.setattr(app.connection.api, "get_usage", refused)
        await pilot.press("b")
        await settle(pilot)
        assert _keys(app) == [] and "Usage is not available" in _status(app)


async def test_a_failed_plan_read_leaves_the_usage(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = _app(make_app)

    async def refused(*args: Any, **kwargs: Any) -> Any:
        raise ApiError(403, "No plan for you")

    monkeypatch.setattr(app.connection.api, "get_current_plan", refused)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert _keys(app) and "not read: No plan for you" in _text(app, "#usage-side")


async def test_export_is_exact(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    app = _app(make_app)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("w")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        files = list(tmp_path.glob("usage-*.csv"))
        assert len(files) == 1
        rows = list(csv.reader(io.StringIO(files[0].read_text(encoding="utf-8"))))
        totals = {r[0]: r for r in rows[1:] if r[5] == ""}
        report = shown(app, UsageScreen).state.shown
        assert report is not None
        cost = report.report.row("cost:minutes")
        assert cost is not None and totals["cost:minutes"][2] == format(cost.value, "f")
        assert "," not in totals["minutes"][2] and totals["minutes"][3] == "min"


async def test_fleet_usage_this_period(make_app: MakeApp) -> None:
    app = make_app("fleet", clock=lambda: NOW)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen: Any = app.screen
        while screen.question.name != "usage":
            await pilot.press("v")
            await settle(pilot)
        await pilot.press("s")
        await settle(pilot, rounds=200)
        matrix = screen.matrix
        plan = sim_of(app).accounts[AGENT].plan
        assert matrix.cell(str(AGENT), "plan").plain.lower() == plan
        assert matrix.cell(str(AGENT), "costs").plain.startswith("USD ")
        assert "minutes " in matrix.cell(str(AGENT), "usage").plain
        asked = [r.query for r in sim_of(app).requests if r.path == USAGE]
        assert len(asked) == len(matrix.row_keys)


def test_bars() -> None:
    from decimal import Decimal

    assert bars([], 10) == []
    assert bars([Decimal(0), Decimal(8)], 4, 1) == ["▁ █"]
    many = bars([Decimal(i) for i in range(100)], 10, 2)
    assert len(many) == 2 and all(len(line) <= 10 for line in many)


async def test_a_huge_reply_shows_its_first_keys_and_says_what_it_left_out(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    # `sim --huge`, smaller: still past every bound (2,000 entries, 2,000 characters)
    monkeypatch.setattr(huge, "KEYS", 3_000)
    monkeypatch.setattr(huge, "TEXT_BYTES", 50_000)
    app = make_app("usage", account=AGENT, clock=lambda: NOW, huge=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        keys = _keys(app)
        assert keys[:4] == ["calls", "minutes", "texts", "tasks"] and len(keys) == 2_000
        # 4 keys, 2 costs and 3,000 more sent; an object keeps its first 2,000
        said = "1,006 more keys of the reply not read"
        assert said in _text(app, "#usage-notes") and said in _status(app)
        side = _text(app, "#usage-side")
        assert f"(+{50_000 - 200 + 40:,} characters)" not in side  # the mark counts the
        assert "(+49," in side  # characters the platform sent, not those kept
        # the plan: its first 100 fields shown, the first 2,000 of `includes` read
        assert "more fields not shown; 1,002 more keys of the reply not read" in side
        assert "the sum of the costs read: the reply holds more" in side
        await pilot.press("p")
        await settle(pilot)
        plans = _text(app, "#usage-plans-text")
        # "Available plans": 3 plans and 3,000 more sent, a list's first 2,000 read
        assert "more fields not shown; 1,003 more items of the reply not read" in plans
