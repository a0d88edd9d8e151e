"""The two inboxes behind one pager, and a room's messages paged here, newest first."""

from __future__ import annotations

from vagent_tui.api.models import RoomMessage
from vagent_tui.services.connect import demo_client
from vagent_tui.services.inbox import (
    INBOX_TITLES,
    JUNK,
    MESSAGE_PAGE_SIZE,
    PRIORITY,
    InboxQuery,
    RoomThread,
    inbox_pager,
    other_inbox,
    read_inbox_page,
    read_room,
)
from vagent_tui.services.paging import Ask


def sim_paths(client: object) -> list[str]:
    sim = client.sim_app.state.sim  # type: ignore[attr-defined]
    return [r.path for r in sim.requests]


async def test_the_pager_reads_the_inbox_it_is_set_to() -> None:
    client = demo_client("demo-agent", rooms=45)
    try:
        junk_query, priority_query = InboxQuery(), InboxQuery(PRIORITY, unread=True)
        junk = await read_inbox_page(client, Ask(junk_query, 1, 20), None)
        priority = await read_inbox_page(client, Ask(priority_query, 0, 20), None)
        assert sim_paths(client) == ["/api/v2/junkConversations", "/api/v2/conversations"]
        assert junk.total_rooms == 45 and priority.total_rooms == 15
        assert {r.destination_inbox_type for r in priority.rooms} == {"priority"}
        assert {r.destination_inbox_type for r in junk.rooms} == {"junk"}
        assert (junk_query.title, priority_query.title) == ("Junk inbox", "Priority inbox")
    finally:
        await client.aclose()


def test_other_inbox_and_titles() -> None:
    assert other_inbox(JUNK) == PRIORITY and other_inbox(PRIORITY) == JUNK
    assert set(INBOX_TITLES) == {JUNK, PRIORITY}
    assert inbox_pager().query.inbox == JUNK


def message(text: str, timestamp: object = None, date: object = None) -> RoomMessage:
    return RoomMessage.model_validate({"message": text, "timestamp": timestamp, "date": date})


def test_a_thread_is_newest_first_and_untimed_messages_keep_their_order_last() -> None:
    messages = [
        message("a", 1_700_000_000_000),
        message("untimed 1"),
        message("b", "1700000100"),  # seconds, as text
        message("c", None, "2023-11-14T22:20:00Z"),
        message("same instant 1", 1_700_000_200_000),
        message("same instant 2", 1_700_000_200),
        message("untimed 2", "never"),
    ]
    thread = RoomThread.of("1:2", messages)
    assert [m.message for m in thread.messages] == [
        "c", "same instant 1", "same instant 2", "b", "a", "untimed 1", "untimed 2",
    ]  # fmt: skip


def test_a_thread_pages_locally() -> None:
    thread = RoomThread.of("1:2", [message(str(i), 1_700_000_000 + i) for i in range(123)])
    assert thread.total == 123 and thread.page_size == MESSAGE_PAGE_SIZE == 50
    assert thread.last_page == 2
    assert thread.label == "1–50 of 123" and thread.shown[0].message == "122"
    assert thread.goto(9) == 2 and thread.label == "101–123 of 123"
    assert [m.message for m in thread.shown] == [str(i) for i in range(22, -1, -1)]
    assert thread.goto(-1) == 0
    empty = RoomThread.of("1:3", [])
    assert (empty.last_page, empty.label, empty.shown) == (0, "0 of 0", [])


async def test_read_room_against_the_simulator() -> None:
    client = demo_client("demo-agent")
    try:
        thread = await read_room(client, "1111:240", None)
        assert thread.room_id == "1111:240" and thread.page == 0
        assert thread.total > 100  # a long thread: several pages
        times = [m.sent_at for m in thread.messages]
        assert times == sorted(times, reverse=True)  # type: ignore[type-var]
        assert sim_paths(client) == ["/api/v2/messages/1111:240"]
    finally:
        await client.aclose()
