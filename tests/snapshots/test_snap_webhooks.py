"""Snapshots of the webhooks screen at 80x24 and 120x40: destinations, relays, outcomes."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

from tests.helpers import MakeApp, SnapCompare, settle
from tests.snapshots.sizes import Size, size_id, sizes
from vagent_tui.ui.screens.webhooks import WebhooksScreen


async def _settled(pilot: Pilot[None]) -> None:
    await settle(pilot)


async def _relays(pilot: Pilot[None]) -> None:
    await settle(pilot)
    await pilot.press("t")
    await settle(pilot)


@pytest.mark.parametrize("size", sizes(WebhooksScreen), ids=size_id)
def test_webhooks(snap_compare: SnapCompare, make_app: MakeApp, size: Size) -> None:
    assert snap_compare(make_app("webhooks"), terminal_size=size, run_before=_settled)


@pytest.mark.parametrize("size", sizes(WebhooksScreen), ids=size_id)
def test_webhooks_relays(snap_compare: SnapCompare, make_app: MakeApp, size: Size) -> None:
    assert snap_compare(make_app("webhooks"), terminal_size=size, run_before=_relays)


def test_webhooks_relay_delete_500_120x40(snap_compare: SnapCompare, make_app: MakeApp) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        await _relays(pilot)
        await pilot.press("k", "k", "k", "k", "k", "k", "j", "j", "j", "j", "j", "d")
        await settle(pilot)
        await pilot.click("#confirm")
        await settle(pilot)

    assert snap_compare(make_app("webhooks"), terminal_size=(120, 40), run_before=run_before)


def test_webhooks_relays_non_premium_80x24(snap_compare: SnapCompare, make_app: MakeApp) -> None:
    app = make_app("webhooks", account=1200)
    assert snap_compare(app, terminal_size=(80, 24), run_before=_relays)


def test_webhooks_add_form_invalid_80x24(snap_compare: SnapCompare, make_app: MakeApp) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        await pilot.press("a")
        await settle(pilot)
        await pilot.press(*"ftp://x", "enter")
        await settle(pilot)

    assert snap_compare(make_app("webhooks"), terminal_size=(80, 24), run_before=run_before)
