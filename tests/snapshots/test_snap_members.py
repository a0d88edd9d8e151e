"""Snapshots of the Members screen at 80x24 and 120x40 (demo-org, organization 1110)."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

from tests.helpers import MakeApp, SnapCompare, settle
from tests.snapshots.sizes import Size, size_id, sizes
from vagent_tui.ui.screens.members import MembersScreen


async def _settled(pilot: Pilot[None]) -> None:
    await settle(pilot)


@pytest.mark.parametrize("size", sizes(MembersScreen), ids=size_id)
def test_members(snap_compare: SnapCompare, make_app: MakeApp, size: Size) -> None:
    app = make_app("members", token="demo-org", account=1110)
    assert snap_compare(app, terminal_size=size, run_before=_settled)


def test_members_invite_form_invalid_80x24(snap_compare: SnapCompare, make_app: MakeApp) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        await pilot.press("a")
        await settle(pilot)
        await pilot.press(*"not-an-email", "enter")
        await settle(pilot)

    app = make_app("members", token="demo-org", account=1110)
    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


def test_members_remove_confirm_120x40(snap_compare: SnapCompare, make_app: MakeApp) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        await pilot.press("down", "d")
        await settle(pilot)

    app = make_app("members", token="demo-org", account=1110)
    assert snap_compare(app, terminal_size=(120, 40), run_before=run_before)


def test_members_accounts_picker_80x24(snap_compare: SnapCompare, make_app: MakeApp) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        await pilot.press("down", "e")  # Dana: limited to 1112 and 1113
        await settle(pilot)
        await pilot.click("#form-pick-accounts")
        await settle(pilot)

    app = make_app("members", token="demo-org", account=1110)
    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


def test_members_login_question_120x40(snap_compare: SnapCompare, make_app: MakeApp) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        await pilot.press("down", "L")
        await settle(pilot)
        await pilot.press("enter")  # in the email field: submits, then the question
        await settle(pilot)

    app = make_app("members", token="demo-reseller", account=1110)
    assert snap_compare(app, terminal_size=(120, 40), run_before=run_before)
