"""Pilot flows of the priority inbox and of a room: ``i`` switches inboxes (one request,
the title and the status say which), Enter opens a room (one request for all its
messages, paged here), esc comes back to the inbox as it was."""

from __future__ import annotations

import io
from typing import Any

import pytest
from rich.console import Console, ConsoleRenderable
from textual import events
from textual.pilot import Pilot
from textual.widgets import DataTable, Static

from tests.helpers import MakeApp, fail_once, known, settle, shown, sim_of
from vagent_tui.api.errors import ApiError
from vagent_tui.sim.inbox import PRIORITY_BASE
from vagent_tui.ui.screens.inbox import InboxScreen
from vagent_tui.ui.screens.room import RoomScreen

AGENT = 1111


def text_of(screen: Any, selector: str) -> str:
    console = Console(width=300, file=io.StringIO(), record=True)
    console.print(screen.query_one(selector, Static).content)
    return console.export_text()


def requests_to(app: Any, path: str) -> list[Any]:
    return [r for r in sim_of(app).requests if r.path == "/api/v2" + path]


def message_requests(app: Any) -> list[Any]:
    return [r for r in sim_of(app).requests if r.path.startswith("/api/v2/messages/")]


def row_keys(screen: Any, selector: str = "#inbox-table") -> list[str]:
    return [str(key.value) for key in screen.query_one(selector, DataTable).rows]


def title(screen: Any) -> str:
    return str(screen.query_one("#context-bar", Static).content)


async def press(pilot: Pilot[None], *keys: str) -> None:
    await pilot.press(*keys)
    await settle(pilot)


async def test_one_key_switches_to_the_priority_inbox_and_back(make_app: MakeApp) -> None:
    app = make_app("inbox", account=AGENT, rooms=1234)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, InboxScreen)
        assert title(screen).startswith("Junk inbox · ")
        assert text_of(screen, "#inbox-header").startswith("Junk · 1–20 of 1,234")
        await press(pilot, "z", "u", "n")  # 50 a page, unread only, page 2
        await press(pilot, "i")
        (request,) = requests_to(app, "/conversations")
        query = request.query
        assert (query["page"], query["pageSize"], query["unread"]) == ("0", "50", "true")
        assert query["pagination"] == "true" and query["targetAccountId"] == str(AGENT)
        assert title(screen).startswith("Priority inbox · ")
        assert "Showing the priority inbox (i: the junk inbox)" in str(screen.status.content)
        header = text_of(screen, "#inbox-header")
        assert header.startswith("Priority · 1–50 of 412") and "unread only" in header
        assert row_keys(screen)[0] == f"1111:{PRIORITY_BASE + 1234}"
        assert "priority" in text_of(screen, "#inbox-detail-text")
        junk_before = len(requests_to(app, "/junkConversations"))
        await press(pilot, "n", "G")  # paging follows the inbox shown
        assert [r.query["page"] for r in requests_to(app, "/conversations")] == ["0", "1", "8"]
        assert len(requests_to(app, "/junkConversations")) == junk_before
        await press(pilot, "i")
        last = requests_to(app, "/junkConversations")[-1].query
        assert (last["page"], last["pageSize"], last["unread"]) == ("0", "50", "true")
        assert title(screen).startswith("Junk inbox · ")
        assert "Showing the junk inbox (i: the priority inbox)" in str(screen.status.content)
        assert row_keys(screen)[0] == "1111:1234"


async def test_the_inbox_shown_is_kept_for_another_target(make_app: MakeApp) -> None:
    app = make_app("inbox", account=AGENT)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = shown(app, InboxScreen)
        await press(pilot, "i")
        app.select_target(1112)
        await settle(pilot)
        assert requests_to(app, "/conversations")[-1].query["targetAccountId"] == "1112"
        assert row_keys(screen)[0] == f"1112:{PRIORITY_BASE + 240}"
        assert title(screen).startswith("Priority inbox · ")


async def test_a_failed_switch_says_so_and_r_retries_it(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app("inbox", account=AGENT)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, InboxScreen)
        api = app.connection.api
        api.get_retries = 0  # no retry of the client's or the service's: the failure shows
        fail_once(monkeypatch, api, "list_priority_rooms", ApiError(503, "busy, try later"))
        await press(pilot, "i")
        assert "busy, try later" in str(screen.status.content)
        assert title(screen).startswith("Junk inbox · ")  # still what is shown
        assert "→ priority inbox" in text_of(screen, "#inbox-header")
        await press(pilot, "r")
        assert title(screen).startswith("Priority inbox · ")
        assert row_keys(screen)[0] == f"1111:{PRIORITY_BASE + 240}"


async def test_enter_opens_a_room_paged_here_and_esc_comes_back(make_app: MakeApp) -> None:
    app = make_app("inbox", account=AGENT, rooms=1234)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        inbox = shown(app, InboxScreen)
        await press(pilot, "n", "down", "down", "down", "down")  # room 1111:1210, a long thread
        assert row_keys(inbox)[4] == "1111:1210"
        inbox_before = len(requests_to(app, "/junkConversations"))
        await press(pilot, "enter")
        room = shown(app, RoomScreen)
        assert type(room).__name__ == "RoomScreen"
        (request,) = message_requests(app)
        assert request.path == "/api/v2/messages/1111:1210"
        assert request.query["targetAccountId"] == str(AGENT)
        assert title(room).startswith("Junk inbox › room · ")
        total = known(room.thread).total
        assert total >= 120
        header = text_of(room, "#room-header")
        assert "1111:1210" in header and f"1–50 of {total} messages" in header
        assert "newest first" in header
        table = room.query_one("#room-table", DataTable)
        assert table.row_count == 50
        # Newest first: the first row is the room's last message.
        last_message = known(inbox._rooms[4].last_message)
        assert table.get_row_at(0)[-1].plain.rstrip("…") in last_message
        await press(pilot, "n")
        assert "51–100 of" in text_of(room, "#room-header")
        await press(pilot, "G")
        last_page = (total - 1) // 50
        assert f"page {last_page + 1} of {last_page + 1}" in text_of(room, "#room-header")
        assert table.row_count == total - last_page * 50
        await press(pilot, "n")
        assert "Already on the last page" in str(room.status.content)
        await press(pilot, "p", "g")
        assert "1–50 of" in text_of(room, "#room-header")
        assert len(message_requests(app)) == 1, "paging a room sends nothing"
        await press(pilot, "escape")
        assert app.screen is inbox
        assert inbox.pager.page == 1 and inbox.table.cursor_row == 4
        assert len(requests_to(app, "/junkConversations")) == inbox_before
        assert title(inbox).startswith("Junk inbox · ")


async def test_enter_typed_ahead_opens_the_room_the_arrows_reached(make_app: MakeApp) -> None:
    app = make_app("inbox", account=AGENT)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        inbox = shown(app, InboxScreen)
        in_footer = {a.binding.id for a in inbox.active_bindings.values() if a.binding.show}
        assert "inbox.open" in in_footer  # in the footer
        for key, char in (("down", None), ("down", None), ("enter", "\r")):
            app.post_message(events.Key(key, char))  # a burst, as a terminal delivers it
        await settle(pilot)
        assert app.screen is not inbox
        assert message_requests(app)[-1].path == "/api/v2/messages/1111:238"
        assert app.screen.query_one("#room-table", DataTable).cursor_row == 0
        await pilot.click("#room-table")  # a click in the room does not leave it
        await press(pilot, "escape")
        await pilot.click("#inbox-table", offset=(10, 4))  # a click only highlights
        await settle(pilot)
        assert app.screen is inbox and inbox.table.cursor_row == 3
        assert len(message_requests(app)) == 1


async def test_a_message_shows_everything_and_its_links_as_text(make_app: MakeApp) -> None:
    app = make_app("inbox", account=AGENT)
    copied: list[str] = []

    def copy_text(text: str, what: str, secret: bool = False) -> None:
        copied.append(text)

    app.copy_text = copy_text  # type: ignore[method-assign]
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, "enter")  # 1111:240: a long thread with attachments
        room = shown(app, RoomScreen)
        messages = known(room.thread).shown
        assert not messages[0].links
        await press(pilot, "y")
        assert "no attachments" in str(room.status.content) and copied == []
        row = next(i for i, m in enumerate(messages) if m.links)
        await press(pilot, *["down"] * row)
        detail = room.query_one("#room-detail-text", Static).content
        text = text_of(room, "#room-detail-text")
        message = messages[row]
        for link in message.links:
            assert link in text
        for key in ("From", "To", "Sent", "Delivery", "Source", "Attachments", "Message",
                    "fromUser", "roomInitiator", "uuid"):  # fmt: skip
            assert key in text
        # No renderable of the pane carries a link style: nothing on screen opens an address.
        console = Console(width=100, file=io.StringIO(), record=True)
        assert isinstance(detail, ConsoleRenderable)
        segments = list(console.render(detail))
        assert not any(seg.style and seg.style.link for seg in segments)
        await press(pilot, "y")
        assert copied == ["\n".join(message.links)]


async def test_a_room_that_fails_to_load_says_why_and_retries(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app("inbox", account=AGENT)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        api = app.connection.api
        api.get_retries = 0  # no retry of the client's or the service's: the failure shows
        fail_once(monkeypatch, api, "list_room_messages", ApiError(503, "Room not reachable"))
        await press(pilot, "enter")
        room = shown(app, RoomScreen)
        status = str(room.status.content)
        assert "Room not reachable" in status and "press r to retry" in status
        assert "not loaded (r: retry)" in text_of(room, "#room-header")
        await press(pilot, "r")
        assert room.thread is not None and room.thread.total > 0
        assert not room.status.has_class("-error")


async def test_a_priority_room_and_the_target_changing_close_the_room(make_app: MakeApp) -> None:
    app = make_app("inbox", account=AGENT)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        inbox = shown(app, InboxScreen)
        await press(pilot, "i", "down")
        await press(pilot, "enter")
        room = shown(app, RoomScreen)
        assert message_requests(app)[-1].path == f"/api/v2/messages/1111:{PRIORITY_BASE + 239}"
        assert title(room).startswith("Priority inbox › room · ")
        app.select_target(1112)
        await settle(pilot)
        assert app.screen is inbox
        assert row_keys(inbox)[0] == f"1112:{PRIORITY_BASE + 240}"


async def test_the_oldest_room_of_a_million(make_app: MakeApp) -> None:
    app = make_app("inbox", account=AGENT, rooms=1_000_000)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, "G")
        inbox = shown(app, InboxScreen)
        inbox.table.move_cursor(row=inbox.table.row_count - 1)
        await press(pilot, "enter")
        assert message_requests(app)[-1].path == "/api/v2/messages/1111:1"
        header = text_of(app.screen, "#room-header")
        assert "1111:1 · 1–" in header and "messages" in header
