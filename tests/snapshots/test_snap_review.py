"""Snapshots of the agent review (the platform's suggestions beside the current text)."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

from tests.helpers import MakeApp, SnapCompare, settle
from tests.snapshots.sizes import Size, size_id, sizes
from vagent_tui.ui.screens.review import ReviewScreen


async def reviewed(pilot: Pilot[None]) -> None:
    await settle(pilot)
    await pilot.press("R")
    await settle(pilot)
    await pilot.press("down")
    await settle(pilot)


@pytest.mark.parametrize("size", sizes(ReviewScreen), ids=size_id)
def test_review(snap_compare: SnapCompare, make_app: MakeApp, size: Size) -> None:
    app = make_app("agent", account=1111)
    assert snap_compare(app, terminal_size=size, run_before=reviewed)
