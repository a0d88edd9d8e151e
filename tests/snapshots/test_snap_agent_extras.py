"""Snapshots at 80x24 of the Agent screen's public link (``U``) and test message (``M``)."""

from __future__ import annotations

from textual.pilot import Pilot
from textual.widgets import Input

from tests.helpers import MakeApp, SnapCompare, settle


def test_agent_link_prompt_80x24(snap_compare: SnapCompare, make_app: MakeApp) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        await pilot.press("U")
        await settle(pilot)
        await pilot.press("y")  # asked for: the simulator makes the link now
        await settle(pilot)

    app = make_app("agent", account=1111)
    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


def test_agent_message_in_80x24(snap_compare: SnapCompare, make_app: MakeApp) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        await pilot.press("M")
        await settle(pilot)
        form = pilot.app.screen
        form.query_one("#form-source-address", Input).value = "+15551230001"
        form.query_one("#form-message", Input).value = "Are you open on Saturday?"
        await pilot.press("enter")
        await settle(pilot)

    app = make_app("agent", account=1111)
    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)
