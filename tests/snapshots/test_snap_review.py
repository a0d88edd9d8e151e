"""Snapshots of the agent review (the platform's suggestions beside the current text)."""

from __future__ import annotations

from textual.pilot import Pilot

from tests.helpers import MakeApp, SnapCompare, settle


async def reviewed(pilot: Pilot[None]) -> None:
    await settle(pilot)
    await pilot.press("R")
    await settle(pilot)
    await pilot.press("down")
    await settle(pilot)


def test_review_80x24(snap_compare: SnapCompare, make_app: MakeApp) -> None:
    app = make_app("agent", account=1111)
    assert snap_compare(app, terminal_size=(80, 24), run_before=reviewed)


def test_review_120x40(snap_compare: SnapCompare, make_app: MakeApp) -> None:
    app = make_app("agent", account=1111)
    assert snap_compare(app, terminal_size=(120, 40), run_before=reviewed)
