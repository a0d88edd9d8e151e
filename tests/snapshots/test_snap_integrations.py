"""Snapshots of the Integrations screen: an integration's data, secrets masked."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from tests.helpers import MakeApp, SnapCompare, settle
from tests.snapshots.sizes import Size, size_id, sizes
from vagent_tui.ui.screens.integrations import IntegrationsScreen


async def run_before(pilot: Pilot[None]) -> None:
    await settle(pilot)
    await pilot.press("o")
    await settle(pilot)
    pilot.app.screen.query_one(Input).value = "crm"
    await pilot.press("enter")
    await settle(pilot)


@pytest.mark.parametrize("size", sizes(IntegrationsScreen), ids=size_id)
def test_integrations(snap_compare: SnapCompare, make_app: MakeApp, size: Size) -> None:
    app = make_app("integrations", account=1111)
    assert snap_compare(app, terminal_size=size, run_before=run_before)
