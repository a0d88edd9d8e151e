"""Snapshots of the SIP screen: the whitelist at 80x24 and 120x40 (key owner 1000 of the
seed), the outbound routes and the registration of agent 1111, the registration form."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

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


def _on_tab(presses: int) -> Callable[[Pilot[None]], Awaitable[None]]:
    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        for _ in range(presses):
            await pilot.press("t")
        await settle(pilot)

    return run_before


def test_sip_routes_80x24(snap_compare: SnapCompare, make_app: MakeApp) -> None:
    app = make_app("sip", account=1111)
    assert snap_compare(app, terminal_size=(80, 24), run_before=_on_tab(1))


def test_sip_registration_80x24(snap_compare: SnapCompare, make_app: MakeApp) -> None:
    app = make_app("sip", account=1111)
    assert snap_compare(app, terminal_size=(80, 24), run_before=_on_tab(2))


def test_sip_registration_form_80x24(snap_compare: SnapCompare, make_app: MakeApp) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        await _on_tab(2)(pilot)
        await pilot.press("a")
        await settle(pilot)

    app = make_app("sip", account=1112)  # no registration yet: the form starts empty
    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)
