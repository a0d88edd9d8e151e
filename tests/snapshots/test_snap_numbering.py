"""Snapshots of the numbering providers screen at 80x24: Acme Dental Group's (1110 of the
seed: Twilio configured), and the add form with a credential typed (masked)."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

from tests.helpers import MakeApp, SnapCompare, settle
from tests.snapshots.sizes import Size, size_id, sizes
from vagent_tui.ui.screens.numbering import NumberingScreen


async def listed(pilot: Pilot[None]) -> None:
    await settle(pilot)


async def adding(pilot: Pilot[None]) -> None:
    await settle(pilot)
    await pilot.press("j", "a")
    await settle(pilot)
    await pilot.press("tab", "tab", *"k-1234")
    await settle(pilot)


@pytest.mark.parametrize("size", sizes(NumberingScreen), ids=size_id)
def test_numbering(snap_compare: SnapCompare, make_app: MakeApp, size: Size) -> None:
    app = make_app("numbering", account=1110)
    assert snap_compare(app, terminal_size=size, run_before=listed)


def test_numbering_add_form_80x24(snap_compare: SnapCompare, make_app: MakeApp) -> None:
    app = make_app("numbering", account=1110)
    assert snap_compare(app, terminal_size=(80, 24), run_before=adding)
