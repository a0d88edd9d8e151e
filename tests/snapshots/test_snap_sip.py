"""Snapshots of the SIP whitelist screen at 80x24 and 120x40 (key owner 1000 of the seed)."""

from __future__ import annotations

from textual.pilot import Pilot

from tests.helpers import MakeApp, SnapCompare, settle


async def _settled(pilot: Pilot[None]) -> None:
    await settle(pilot)


def test_sip_80x24(snap_compare: SnapCompare, make_app: MakeApp) -> None:
    assert snap_compare(make_app("sip"), terminal_size=(80, 24), run_before=_settled)


def test_sip_120x40(snap_compare: SnapCompare, make_app: MakeApp) -> None:
    assert snap_compare(make_app("sip", account=1111), terminal_size=(120, 40), run_before=_settled)


def test_sip_add_form_invalid_80x24(snap_compare: SnapCompare, make_app: MakeApp) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        await pilot.press("a")
        await settle(pilot)
        await pilot.press(*"10.0.0.300", "enter")
        await settle(pilot)

    assert snap_compare(make_app("sip"), terminal_size=(80, 24), run_before=run_before)


def test_sip_remove_confirm_120x40(snap_compare: SnapCompare, make_app: MakeApp) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        await pilot.press("d")
        await settle(pilot)

    assert snap_compare(make_app("sip"), terminal_size=(120, 40), run_before=run_before)
