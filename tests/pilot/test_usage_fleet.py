"""Pilot flows of the Usage screen at a level: the fleet's usage, one row per agent account.

The demo key is a partner's: acting as itself, the screen asks every agent account below
it (through Fleet's fan-out) and shows a column per usage key. The simulator's clock is
the suite's fixed time; its reply shape is chosen per test (CONTRACT choice 37).
"""

from __future__ import annotations

import csv
import io
import stat
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input, Static

from tests.helpers import MakeApp, settle, shown, sim_of
from vagent_tui.api.errors import ApiError
from vagent_tui.ui.screens.base import BaseScreen
from vagent_tui.ui.screens.usage import UsageScreen
from vagent_tui.ui.widgets.fleet_matrix import FleetMatrix

NOW = 1_763_640_000.0  # 2025-11-20T12:00:00Z
USAGE = "/api/v2/stats/usage"


def _app(make_app: MakeApp, shape: str = "totals", **options: Any) -> Any:
    app = make_app("usage", clock=lambda: NOW, **options)
    sim_of(app).usage_shape = shape
    return app


def _screen(app: Any) -> UsageScreen:
    return shown(app, UsageScreen)


def _matrix(app: Any) -> FleetMatrix:
    return _screen(app).fleet.matrix


def _cell(app: Any, account: int | str, column: str) -> str:
    return _matrix(app).cell(str(account), column).plain


def _ids(app: Any) -> list[int]:
    screen = _screen(app)
    lines = screen.fleet.usage.lines
    return [lines[at].account_id for at in _matrix(app).shown_rows]


def _status(app: Any) -> str:
    return str(shown(app, BaseScreen).status.content)


async def test_a_row_per_account_a_column_per_key_and_totals(make_app: MakeApp) -> None:
    app = _app(make_app)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, rounds=200)
        screen = _screen(app)
        assert screen.fleet_mode and screen.has_class("-fleet")
        usage = screen.fleet.usage
        agents = [a.account_id for a in usage.lines]
        assert len(agents) == _matrix(app).total_rows > 1
        assert sim_of(app).count("GET", USAGE) == len(agents)
        assert usage.keys == ["calls", "minutes", "texts", "tasks", "cost:minutes", "cost:texts"]
        headers = [h for h, _ in _matrix(app).rows.columns]
        assert "minutes (min)" in headers and "cost:minutes (USD)" in headers
        assert "Total cost (USD)" in headers
        # each cell as the platform sent it, for reading; the totals line sums them
        for line in usage.lines:
            assert _cell(app, line.account_id, "calls") == f"{line.values['calls']:,}"
        calls = sum(line.values["calls"] for line in usage.lines)
        totals = _matrix(app).rows.totals
        assert totals is not None and totals["calls"].plain == f"{calls:,}"
        assert f"Total of {len(agents)} shown" in totals["name"].plain
        # sorted by the cost total, largest first, by default
        by_cost = [line.total for line in sorted(usage.lines, key=lambda x: -(x.total or 0))]
        assert [usage.lines[usage.index[a]].total for a in _ids(app)] == by_cost
        assert "usage keys" in _status(app)


async def test_sort_by_any_column_reverse_and_top_n(make_app: MakeApp) -> None:
    app = _app(make_app, accounts=30)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, rounds=300)
        usage = _screen(app).fleet.usage
        assert len(usage) >= 30
        await pilot.press("o")  # after the cost total: the first column, the id
        await settle(pilot)
        assert _ids(app) == sorted(a.account_id for a in usage.lines)
        await pilot.press("o", "o", "o")  # name, plan, calls: largest first
        await settle(pilot)
        calls = [usage.lines[usage.index[a]].values["calls"] for a in _ids(app)]
        assert calls == sorted(calls, reverse=True)
        await pilot.press("O")
        await settle(pilot)
        calls = [usage.lines[usage.index[a]].values["calls"] for a in _ids(app)]
        assert calls == sorted(calls)
        assert "Sorted by calls, smallest first" in str(
            _screen(app).query_one("#usage-fleet-sort", Static).render()
        )
        await pilot.press("n")
        await settle(pilot)
        assert len(_ids(app)) == 10
        assert calls[:10] == [usage.lines[usage.index[a]].values["calls"] for a in _ids(app)]
        totals = _matrix(app).rows.totals
        assert totals is not None and totals["calls"].plain == f"{sum(calls[:10]):,}"
        await pilot.press("n")
        await settle(pilot)
        assert len(_ids(app)) == len(usage)


async def test_filter_narrows_the_rows_and_the_totals(make_app: MakeApp) -> None:
    app = _app(make_app)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, rounds=200)
        usage = _screen(app).fleet.usage
        first = usage.lines[0]
        await pilot.press("slash", *str(first.account_id))
        await settle(pilot)
        assert first.account_id in _ids(app) and len(_ids(app)) < len(usage)
        totals = _matrix(app).rows.totals
        shown_calls = sum(usage.lines[usage.index[a]].values["calls"] for a in _ids(app))
        assert totals is not None and totals["calls"].plain == f"{shown_calls:,}"
        assert f"Total of {len(_ids(app))} shown" in totals["name"].plain


async def test_export_is_exact_private_and_in_the_order_shown(
    make_app: MakeApp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    app = _app(make_app)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, rounds=200)
        usage = _screen(app).fleet.usage
        await pilot.press("n", "w")
        await settle(pilot)
        field = app.screen.query_one(Input)
        field.value = str(tmp_path / "fleet.csv")
        await pilot.press("enter")
        await settle(pilot)
        path = tmp_path / "fleet.csv"
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        rows = list(csv.DictReader(io.StringIO(path.read_text())))
        assert [int(r["account_id"]) for r in rows] == _ids(app)
        assert len(rows) == min(10, len(usage))
        for row in rows:
            line = usage.lines[usage.index[int(row["account_id"])]]
            assert Decimal(row["cost:minutes"]) == line.values["cost:minutes"]
            assert "," not in row["calls"] and row["currency"] == "USD" and row["status"] == "ok"
        assert "demo-partner" not in path.read_text()


async def test_a_failed_account_does_not_stop_the_rest_and_is_asked_again(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = _app(make_app)
    real = app.connection.api.get_usage
    broken = {1212}

    async def failing(query: Any, *, target: int | None = None) -> Any:
        if target in broken:
            raise ApiError(500, "boom")
        return await real(query, target=target)

    monkeypatch.setattr(app.connection.api, "get_usage", failing)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, rounds=200)
        usage = _screen(app).fleet.usage
        assert _cell(app, 1212, "result") == "✗ HTTP 500: boom"
        assert _cell(app, 1212, "calls") == ""
        ok = [line for line in usage.lines if line.error is None]
        assert len(ok) == len(usage) - 1 and all(line.answered for line in ok)
        assert _ids(app)[-1] == 1212  # no value: last, whatever the sort
        assert "1 failed: F asks them again" in _status(app)
        broken.clear()
        asked = sim_of(app).count("GET", USAGE)
        await pilot.press("F")
        await settle(pilot, rounds=200)
        assert sim_of(app).count("GET", USAGE) == asked + 1
        assert _cell(app, 1212, "result") == "✓" and _cell(app, 1212, "calls") != ""
        assert usage.failed == []


@pytest.mark.parametrize("shape", ["rows", "empty"])
async def test_other_reply_shapes(make_app: MakeApp, shape: str) -> None:
    app = _app(make_app, shape)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, rounds=200)
        usage = _screen(app).fleet.usage
        assert all(line.answered and line.error is None for line in usage.lines)
        if shape == "rows":
            # a list of {date, key, value}: each key summed from its series
            assert {"calls", "minutes", "cost:minutes"} <= set(usage.keys)
            line = usage.lines[0]
            assert _cell(app, line.account_id, "calls") == f"{line.values['calls']:,}"
            assert "(USD)" not in "".join(h for h, _ in _matrix(app).rows.columns)  # none stated
        else:
            # no number at all: a row per account still, no key column, nothing summed
            assert usage.keys == []
            assert _cell(app, usage.lines[0].account_id, "result") == "✓"
            assert _cell(app, usage.lines[0].account_id, "cost_total") == ""


async def test_an_agent_account_gets_the_single_view(make_app: MakeApp) -> None:
    app = make_app("usage", account=1111, clock=lambda: NOW)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = _screen(app)
        assert not screen.fleet_mode and not screen.has_class("-fleet")
        assert sim_of(app).count("GET", USAGE) == 1


async def test_keys_from_the_platform_are_inert_in_headers_and_cells(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    from vagent_tui.api.usage_models import OpenReply

    app = _app(make_app)
    key = "[red]calls\x1b[2J\u202e"

    async def odd(query: Any, *, target: int | None = None) -> Any:
        return OpenReply.model_validate({"success": True, "usage": {key: 3}, "note": "[b]x"})

    monkeypatch.setattr(app.connection.api, "get_usage", odd)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, rounds=200)
        usage = _screen(app).fleet.usage
        assert usage.keys == [key]  # kept exact for the export
        headers = [h for h, _ in _matrix(app).rows.columns]
        shown = next(h for h in headers if "calls" in h)
        assert "\x1b" not in shown and "\u202e" not in shown
        assert _cell(app, usage.lines[0].account_id, key) == "3"


BELOW = [(1110, [1111, 1112, 1113]), (1100, [1111, 1112, 1113, 1121, 1122])]


@pytest.mark.parametrize(("level", "agents"), BELOW)
async def test_at_a_target_level_only_the_accounts_below_it(
    make_app: MakeApp, level: int, agents: list[int]
) -> None:
    app = make_app("usage", account=level, clock=lambda: NOW)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, rounds=200)
        screen = _screen(app)
        assert screen.fleet_mode
        assert sorted(line.account_id for line in screen.fleet.usage.lines) == agents
        asked = {r.query.get("targetAccountId") for r in sim_of(app).requests if r.path == USAGE}
        assert asked == {str(a) for a in agents}


@pytest.mark.parametrize("level", [None, 1100])
async def test_enter_opens_the_accounts_usage_and_esc_comes_back_as_left(
    make_app: MakeApp, level: int | None
) -> None:
    options: dict[str, Any] = {"accounts": 30} if level is None else {"account": level}
    app = _app(make_app, **options)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, rounds=300)
        screen = _screen(app)
        usage = screen.fleet.usage
        await pilot.press("o", "o", "o", "o", "O")  # calls, smallest first
        await settle(pilot)
        words = str(usage.lines[1].account_id)[:3]
        await pilot.press("slash", *words, "enter")
        await settle(pilot)
        shown_ids = _ids(app)
        assert 1 < len(shown_ids) <= len(usage)
        await pilot.press("down", "down")
        await settle(pilot)
        chosen = _matrix(app).highlighted_account()
        assert chosen == shown_ids[min(2, len(shown_ids) - 1)]
        asked = sim_of(app).count("GET", USAGE)
        await pilot.press("enter")
        await settle(pilot, rounds=100)
        # acting as the account: its own usage, in the single view
        assert app.connection.target_id == chosen
        assert not screen.fleet_mode and not screen.has_class("-fleet")
        assert sim_of(app).count("GET", USAGE) == asked + 1
        asked_for = [r.query.get("targetAccountId") for r in sim_of(app).requests
                     if r.path == USAGE][-1]  # fmt: skip
        assert asked_for == str(chosen)
        assert screen.table.row_count > 0
        await pilot.press("escape")
        await settle(pilot, rounds=100)
        # the level again, and its table as it was left: nothing asked again
        assert app.connection.target_id == level
        assert screen.fleet_mode and screen.has_class("-fleet")
        assert sim_of(app).count("GET", USAGE) == asked + 1
        assert screen.fleet.usage is usage
        assert _ids(app) == shown_ids
        assert _matrix(app).filter_words == (words,)
        assert _matrix(app).highlighted_account() == chosen
        assert "Sorted by calls, smallest first" in str(
            screen.query_one("#usage-fleet-sort", Static).render()
        )
        assert _matrix(app).has_focus


async def test_back_asks_again_when_the_question_changed_meanwhile(make_app: MakeApp) -> None:
    app = _app(make_app)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, rounds=200)
        screen = _screen(app)
        old = screen.fleet.usage
        await pilot.press("enter")
        await settle(pilot, rounds=100)
        assert not screen.fleet_mode
        await pilot.press("b")  # the previous period: the table answered the current one
        await settle(pilot, rounds=100)
        await pilot.press("escape")
        await settle(pilot, rounds=200)
        assert screen.fleet_mode and screen.fleet.usage is not old
        assert screen.fleet.usage.answered == len(old)
        periods = [r.query.get("billingPeriod") for r in sim_of(app).requests if r.path == USAGE]
        assert periods[-1] == "previous"


async def test_esc_does_not_undo_an_account_chosen_elsewhere_since(make_app: MakeApp) -> None:
    """Esc goes back to the level only from the account Enter chose: once another screen
    has acted as another account, esc changes nothing."""
    app = _app(make_app)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, rounds=200)
        screen = _screen(app)
        await pilot.press("enter")
        await settle(pilot, rounds=100)
        chosen = app.connection.target_id
        assert chosen is not None and not screen.fleet_mode
        other = next(a for a in (1111, 1112, 1113) if a != chosen)
        await app.select_target(other).wait()  # as Scope's Enter would
        await settle(pilot, rounds=100)
        await pilot.press("escape")
        await settle(pilot, rounds=100)
        assert app.connection.target_id == other
        assert not screen.fleet_mode
        assert screen.check_action("back", ()) is False


async def test_enter_waits_for_the_run_and_esc_is_no_key_at_the_level(make_app: MakeApp) -> None:
    app = _app(make_app)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, rounds=200)
        screen = _screen(app)
        assert screen.check_action("back", ()) is False
        screen.state.running = True
        await pilot.press("enter")
        await settle(pilot)
        assert app.connection.target_id is None and "x stops it" in _status(app)
