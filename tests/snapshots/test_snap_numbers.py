"""Snapshots of the Numbers screen (agent 1111 of the seed): searched, and a buy asked."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

from tests.helpers import MakeApp, SnapCompare, settle
from tests.snapshots.sizes import Size, size_id, sizes
from vagent_tui.ui.screens.numbers import NumbersScreen


async def _searched(pilot: Pilot[None]) -> None:
    await settle(pilot)
    await pilot.press("s")
    await settle(pilot)
    await pilot.press(*"Austin, TX", "enter")
    await settle(pilot)


@pytest.mark.parametrize("size", sizes(NumbersScreen), ids=size_id)
def test_numbers_searched(snap_compare: SnapCompare, make_app: MakeApp, size: Size) -> None:
    app = make_app("numbers", account=1111)
    assert snap_compare(app, terminal_size=size, run_before=_searched)


def test_numbers_buy_asked_80x24(snap_compare: SnapCompare, make_app: MakeApp) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        await _searched(pilot)
        await pilot.press("b")
        await settle(pilot)

    app = make_app("numbers", account=1111)
    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)
