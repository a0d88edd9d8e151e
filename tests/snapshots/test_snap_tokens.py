"""Snapshots of the Tokens screen at 80x24 and 120x40 (values masked; seeded data)."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

from tests.helpers import MakeApp, SnapCompare, settle
from tests.snapshots.sizes import Size, size_id, sizes
from vagent_tui.ui.screens.tokens import TokensScreen


async def run_before(pilot: Pilot[None]) -> None:
    await settle(pilot)


async def run_before_form(pilot: Pilot[None]) -> None:
    await settle(pilot)
    await pilot.press("a")  # the form open: the description is optional
    await settle(pilot)


@pytest.mark.parametrize("size", sizes(TokensScreen), ids=size_id)
def test_tokens(snap_compare: SnapCompare, make_app: MakeApp, size: Size) -> None:
    assert snap_compare(make_app("tokens"), terminal_size=size, run_before=run_before)


def test_tokens_form_80x24(snap_compare: SnapCompare, make_app: MakeApp) -> None:
    assert snap_compare(make_app("tokens"), terminal_size=(80, 24), run_before=run_before_form)
