"""Snapshots of the junk and priority inboxes at 80x24 and 120x40, and of a room (its
messages, second page, a message with an attachment highlighted) at 80x24, 120x40 and
140x40 (the detail beside the table).

The simulator's rooms have fixed timestamps (the newest at 2025-11-20T00:00:00Z), so the
clock is pinned a few hours after it: the humanized times read "3 h ago", "1 d ago".
"""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

from tests.helpers import MakeApp, SnapCompare, settle
from tests.snapshots.sizes import Size, size_id, sizes
from vagent_tui.ui.screens.inbox import InboxScreen
from vagent_tui.ui.screens.room import RoomScreen

INBOX_NOW = "2025-11-20T03:00:00+00:00"


@pytest.fixture(autouse=True)
def _inbox_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VAGENT_NOW", INBOX_NOW)


async def run_before(pilot: Pilot[None]) -> None:
    await settle(pilot)


async def run_before_paged(pilot: Pilot[None]) -> None:
    await settle(pilot)
    await pilot.press("n", "n")  # 41-60 of 1,234
    await settle(pilot)
    await pilot.press("down", "down")
    await settle(pilot)


@pytest.mark.parametrize("size", sizes(InboxScreen), ids=size_id)
def test_inbox(snap_compare: SnapCompare, make_app: MakeApp, size: Size) -> None:
    app = make_app("inbox", account=1111, rooms=1234)
    assert snap_compare(app, terminal_size=size, run_before=run_before_paged)


def test_inbox_no_agent_80x24(snap_compare: SnapCompare, make_app: MakeApp) -> None:
    assert snap_compare(make_app("inbox"), terminal_size=(80, 24), run_before=run_before)


async def run_before_priority(pilot: Pilot[None]) -> None:
    await settle(pilot)
    await pilot.press("i")  # the priority inbox
    await settle(pilot)
    await pilot.press("down")
    await settle(pilot)


async def run_before_room(pilot: Pilot[None]) -> None:
    await settle(pilot)
    await pilot.press("n", "down", "down", "down", "down")  # 1111:1210, a long thread
    await settle(pilot)
    await pilot.press("enter")
    await settle(pilot)
    await pilot.press("n")  # messages 51-100, paged here
    await settle(pilot)
    await pilot.press(*["down"] * 14)  # a message with attachments
    await settle(pilot)


@pytest.mark.parametrize("size", sizes(InboxScreen), ids=size_id)
def test_priority_inbox(snap_compare: SnapCompare, make_app: MakeApp, size: Size) -> None:
    app = make_app("inbox", account=1111, rooms=1234)
    assert snap_compare(app, terminal_size=size, run_before=run_before_priority)


@pytest.mark.parametrize("size", sizes(RoomScreen, (80, 24), (120, 40), (140, 40)), ids=size_id)
def test_room(snap_compare: SnapCompare, make_app: MakeApp, size: Size) -> None:
    app = make_app("inbox", account=1111, rooms=1234)
    assert snap_compare(app, terminal_size=size, run_before=run_before_room)
