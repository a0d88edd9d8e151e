"""Snapshots of the Usage screen at 80x24 and 120x40, against the simulator's default
reply shape, a second shape (a list of {date, key, value} rows), a reply with no number,
a refused date, NO_COLOR, and Fleet's "Usage this period" (the simulator's clock pinned
to the suite's time: the current period is 2025-11-01..20)."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

from tests.helpers import MakeApp, SnapCompare, settle, sim_of
from vagent_tui.ui.app import VagentApp

NOW = 1_763_640_000.0  # 2025-11-20T12:00:00Z


def usage_app(make_app: MakeApp, shape: str = "totals") -> VagentApp:
    app = make_app("usage", account=1111, clock=lambda: NOW)
    sim_of(app).usage_shape = shape
    return app


async def _settled(pilot: Pilot[None]) -> None:
    await settle(pilot)


def test_usage_80x24(snap_compare: SnapCompare, make_app: MakeApp) -> None:
    assert snap_compare(usage_app(make_app), terminal_size=(80, 24), run_before=_settled)


def test_usage_120x40(snap_compare: SnapCompare, make_app: MakeApp) -> None:
    assert snap_compare(usage_app(make_app), terminal_size=(120, 40), run_before=_settled)


def test_usage_rows_shape_120x40(snap_compare: SnapCompare, make_app: MakeApp) -> None:
    app = usage_app(make_app, "rows")
    assert snap_compare(app, terminal_size=(120, 40), run_before=_settled)


def test_usage_no_number_80x24(snap_compare: SnapCompare, make_app: MakeApp) -> None:
    app = usage_app(make_app, "empty")
    assert snap_compare(app, terminal_size=(80, 24), run_before=_settled)


def test_usage_bad_date_80x24(snap_compare: SnapCompare, make_app: MakeApp) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        await pilot.press("t", *"2025-02-30", "enter")
        await settle(pilot)

    assert snap_compare(usage_app(make_app), terminal_size=(80, 24), run_before=run_before)


def test_usage_no_color_80x24(
    snap_compare: SnapCompare, make_app: MakeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    assert snap_compare(usage_app(make_app), terminal_size=(80, 24), run_before=_settled)


def test_fleet_usage_120x40(
    snap_compare: SnapCompare, make_app: MakeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("vagent_tui.ui.screens.fleet._clock", lambda: 0.0)  # the run's time

    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        for _ in range(4):  # functions, voice, junk, calls, usage
            await pilot.press("v")
            await settle(pilot)
        await pilot.press("s")
        await settle(pilot, rounds=200)

    app = make_app("fleet", clock=lambda: NOW)
    assert snap_compare(app, terminal_size=(120, 40), run_before=run_before)


def _fleet_app(make_app: MakeApp, shape: str = "totals") -> VagentApp:
    """The Usage screen acting as the key owner (a partner): the fleet's table."""
    app = make_app("usage", clock=lambda: NOW)
    sim_of(app).usage_shape = shape
    return app


async def _fleet_settled(pilot: Pilot[None]) -> None:
    await settle(pilot, rounds=200)


def test_usage_fleet_80x24(snap_compare: SnapCompare, make_app: MakeApp) -> None:
    app = _fleet_app(make_app)
    assert snap_compare(app, terminal_size=(80, 24), run_before=_fleet_settled)


def test_usage_fleet_120x40(snap_compare: SnapCompare, make_app: MakeApp) -> None:
    app = _fleet_app(make_app)
    assert snap_compare(app, terminal_size=(120, 40), run_before=_fleet_settled)


def test_usage_fleet_top_by_minutes_120x40(snap_compare: SnapCompare, make_app: MakeApp) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot, rounds=200)
        await pilot.press("o", "o", "o", "o", "o", "n")  # id, name, plan, calls, minutes
        await settle(pilot)

    app = _fleet_app(make_app, "rows")
    assert snap_compare(app, terminal_size=(120, 40), run_before=run_before)


def _plans_app(make_app: MakeApp, account: int | None) -> VagentApp:
    app = make_app("usage", account=account, clock=lambda: NOW)
    if account is not None:
        sim_of(app).accounts[account].plan = "pro"  # an offer and three add-ons to show
    return app


async def _plans(pilot: Pilot[None]) -> None:
    await settle(pilot, rounds=200)
    await pilot.press("p")
    await settle(pilot)


def test_usage_plans_120x40(snap_compare: SnapCompare, make_app: MakeApp) -> None:
    """An agent account's plans: the catalog refused (a reseller's or partner's read)."""
    app = _plans_app(make_app, 1111)
    assert snap_compare(app, terminal_size=(120, 40), run_before=_plans)


def test_usage_plans_80x24(snap_compare: SnapCompare, make_app: MakeApp) -> None:
    app = _plans_app(make_app, 1111)
    assert snap_compare(app, terminal_size=(80, 24), run_before=_plans)


def test_usage_plans_partner_120x40(snap_compare: SnapCompare, make_app: MakeApp) -> None:
    """The key owner, a partner: the catalog reads; the offer is none (at the top)."""
    app = _plans_app(make_app, None)
    assert snap_compare(app, terminal_size=(120, 40), run_before=_plans)
