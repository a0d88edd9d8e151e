"""Snapshots of the Scope screen at 80x24 and 120x40 (on the simulator, fixed clock)."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

from tests.helpers import MakeApp, SnapCompare, settle
from tests.snapshots.sizes import Size, size_id, sizes
from vagent_tui.ui.screens.scope import ScopeScreen


async def _expanded(pilot: Pilot[None]) -> None:
    """Expand Bluebird Telecom and Acme Dental Group, highlight the front desk agent."""
    await settle(pilot)
    await pilot.press("down", "space")
    await settle(pilot)
    await pilot.press("down", "space")
    await settle(pilot)
    await pilot.press("down")
    await settle(pilot)


@pytest.mark.parametrize("size", sizes(ScopeScreen), ids=size_id)
def test_scope(snap_compare: SnapCompare, make_app: MakeApp, size: Size) -> None:
    assert snap_compare(make_app("scope"), terminal_size=size, run_before=_expanded)


def test_scope_target_120x40(snap_compare: SnapCompare, make_app: MakeApp) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        await _expanded(pilot)
        await pilot.press("enter")
        await settle(pilot)
        await pilot.pause(0.1)
        pilot.app.clear_notifications()
        await pilot.pause()

    assert snap_compare(make_app("scope"), terminal_size=(120, 40), run_before=run_before)


def test_scope_filter_80x24(snap_compare: SnapCompare, make_app: MakeApp) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        await pilot.press("slash", *"acme")
        await settle(pilot)
        await pilot.press("tab")  # focus the matches (off the input: no cursor); enter would pick
        await settle(pilot)

    assert snap_compare(make_app("scope"), terminal_size=(80, 24), run_before=run_before)


def test_scope_member_80x24(snap_compare: SnapCompare, make_app: MakeApp) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)

    app = make_app("scope", token="demo-member")
    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)
