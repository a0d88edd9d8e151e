"""Snapshots of the Functions checklist at 80x24 and 120x40 on agent 1113, whose
configured functions have problems (not allowed, over the limit)."""

from __future__ import annotations

from textual.pilot import Pilot

from tests.helpers import MakeApp, SnapCompare, settle


async def run_before(pilot: Pilot[None]) -> None:
    await settle(pilot)


async def run_before_refused(pilot: Pilot[None]) -> None:
    await settle(pilot)
    await pilot.press(*"j" * 15)  # webSearch: not allowed, configured
    await settle(pilot)


def test_functions_80x24(snap_compare: SnapCompare, make_app: MakeApp) -> None:
    app = make_app("functions", account=1113)
    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


def test_functions_120x40(snap_compare: SnapCompare, make_app: MakeApp) -> None:
    app = make_app("functions", account=1113)
    assert snap_compare(app, terminal_size=(120, 40), run_before=run_before_refused)


def test_functions_refused_80x24(snap_compare: SnapCompare, make_app: MakeApp) -> None:
    app = make_app("functions", account=1113)
    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before_refused)


def test_functions_non_agent_80x24(snap_compare: SnapCompare, make_app: MakeApp) -> None:
    assert snap_compare(make_app("functions"), terminal_size=(80, 24), run_before=run_before)
