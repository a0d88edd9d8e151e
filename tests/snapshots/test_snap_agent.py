"""Snapshots of the Agent screen at 80x24 and 120x40 (agent 1111 of the simulator's seed)."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

from tests.helpers import MakeApp, SnapCompare, settle
from tests.snapshots.sizes import Size, size_id, sizes
from vagent_tui.ui.screens.agent import AgentScreen


async def _settled(pilot: Pilot[None]) -> None:
    await settle(pilot)


@pytest.mark.parametrize("size", sizes(AgentScreen), ids=size_id)
def test_agent(snap_compare: SnapCompare, make_app: MakeApp, size: Size) -> None:
    app = make_app("agent", account=1111)
    assert snap_compare(app, terminal_size=size, run_before=_settled)


def test_agent_functions_staging_empty_120x40(snap_compare: SnapCompare, make_app: MakeApp) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        await pilot.press("s")
        pilot.app.screen.query_one("#agent-view").scroll_to(y=60, animate=False)
        await settle(pilot)

    app = make_app("agent", account=1113)
    assert snap_compare(app, terminal_size=(120, 40), run_before=run_before)


def test_agent_json_80x24(snap_compare: SnapCompare, make_app: MakeApp) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        await pilot.press("J")
        await settle(pilot)

    app = make_app("agent", account=1111)
    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


def test_agent_versions_120x40(snap_compare: SnapCompare, make_app: MakeApp) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        await pilot.press("v")
        await settle(pilot)

    app = make_app("agent", account=1111)
    assert snap_compare(app, terminal_size=(120, 40), run_before=run_before)


def test_agent_hint_80x24(snap_compare: SnapCompare, make_app: MakeApp) -> None:
    assert snap_compare(make_app("agent"), terminal_size=(80, 24), run_before=_settled)
