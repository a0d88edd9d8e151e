"""Snapshots of the webhooks screen at 80x24 and 120x40: destinations, relays, outcomes."""

from __future__ import annotations

from textual.pilot import Pilot

from tests.helpers import MakeApp, SnapCompare, settle


async def _settled(pilot: Pilot[None]) -> None:
    await settle(pilot)


async def _relays(pilot: Pilot[None]) -> None:
    await settle(pilot)
    await pilot.press("t")
    await settle(pilot)


def test_webhooks_80x24(snap_compare: SnapCompare, make_app: MakeApp) -> None:
    assert snap_compare(make_app("webhooks"), terminal_size=(80, 24), run_before=_settled)


def test_webhooks_120x40(snap_compare: SnapCompare, make_app: MakeApp) -> None:
    assert snap_compare(make_app("webhooks"), terminal_size=(120, 40), run_before=_settled)


def test_webhooks_relays_80x24(snap_compare: SnapCompare, make_app: MakeApp) -> None:
    assert snap_compare(make_app("webhooks"), terminal_size=(80, 24), run_before=_relays)


def test_webhooks_relays_120x40(snap_compare: SnapCompare, make_app: MakeApp) -> None:
    assert snap_compare(make_app("webhooks"), terminal_size=(120, 40), run_before=_relays)


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
