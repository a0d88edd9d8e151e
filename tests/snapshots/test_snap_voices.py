"""Snapshots of the Voices browser at 80x24 and 120x40 (a starter-plan agent: some
voices are unavailable, so the glyph and the reason show)."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

from tests.helpers import MakeApp, SnapCompare, settle
from tests.snapshots.sizes import Size, size_id, sizes
from vagent_tui.ui.screens.voices import VoicesScreen


async def run_before(pilot: Pilot[None]) -> None:
    await settle(pilot)


async def run_before_unavailable(pilot: Pilot[None]) -> None:
    await settle(pilot)
    await pilot.press("slash", *"sonic", "enter")  # focus returns to the table
    await settle(pilot)


@pytest.mark.parametrize("size", sizes(VoicesScreen), ids=size_id)
def test_voices(snap_compare: SnapCompare, make_app: MakeApp, size: Size) -> None:
    assert snap_compare(make_app("voices"), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", sizes(VoicesScreen), ids=size_id)
def test_voices_unavailable(snap_compare: SnapCompare, make_app: MakeApp, size: Size) -> None:
    app = make_app("voices", account=1113)
    assert snap_compare(app, terminal_size=size, run_before=run_before_unavailable)
