"""The inboxes and their rooms: server paging of an inbox (only the visible page is ever
fetched), and the messages of one room, paged here (the platform sends them all)."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from typing import Literal

from vagent_tui.api.client import PlatformClient
from vagent_tui.api.models import InboxPage, InboxRoom, RoomMessage
from vagent_tui.services.paging import Ask, Pager, last_page_of, page_range
from vagent_tui.services.reread import read_again

PAGE_SIZES = (20, 50, 100, 200)

Inbox = Literal["junk", "priority"]
JUNK: Inbox = "junk"
PRIORITY: Inbox = "priority"
INBOX_TITLES: dict[Inbox, str] = {JUNK: "Junk inbox", PRIORITY: "Priority inbox"}


def other_inbox(inbox: Inbox) -> Inbox:
    return PRIORITY if inbox == JUNK else JUNK


@dataclass(frozen=True)
class InboxQuery:
    """Which rooms a page of an inbox is asked from: the inbox, and unread only or all."""

    inbox: Inbox = JUNK
    """The junk inbox (``GET /junkConversations``) or the priority one
    (``GET /conversations``); both page alike."""
    unread: bool = False

    @property
    def title(self) -> str:
        return INBOX_TITLES[self.inbox]


def inbox_pager(size: int = PAGE_SIZES[0]) -> Pager[InboxQuery, InboxRoom]:
    """The junk inbox's first page, every room."""
    return Pager.of(InboxQuery(), size)


async def read_inbox_page(
    client: PlatformClient, ask: Ask[InboxQuery], target: int | None
) -> InboxPage:
    """The page ``ask`` wants (read again where the platform may answer the next time)."""
    query = ask.query
    read = client.list_priority_rooms if query.inbox == PRIORITY else client.list_junk_rooms
    return await read_again(
        client,
        partial(read, page=ask.page, page_size=ask.size, unread=query.unread, target=target),
        what=f"page {ask.page + 1} of the inbox",
    )


MESSAGE_PAGE_SIZE = 50
"""Messages per page of a room: the platform sends a room's messages all at once."""


def _newest_first(messages: list[RoomMessage]) -> list[RoomMessage]:
    """Newest first; messages without a time keep their order, after the others."""
    timed = [(m.sent_at, m) for m in messages if m.sent_at is not None]
    # A stable sort: messages of one instant keep the platform's order between them.
    timed.sort(key=lambda pair: pair[0], reverse=True)
    return [m for _, m in timed] + [m for m in messages if m.sent_at is None]


@dataclass
class RoomThread:
    """A room's messages, newest first, and the page of them on show."""

    room_id: str
    messages: list[RoomMessage] = field(default_factory=list)
    page: int = 0
    page_size: int = MESSAGE_PAGE_SIZE

    @classmethod
    def of(cls, room_id: str, messages: list[RoomMessage]) -> RoomThread:
        return cls(room_id, _newest_first(messages))

    @property
    def total(self) -> int:
        return len(self.messages)

    @property
    def last_page(self) -> int:
        return last_page_of(self.total, self.page_size)

    @property
    def label(self) -> str:
        return page_range(self.page, self.page_size, self.total)

    @property
    def shown(self) -> list[RoomMessage]:
        start = self.page * self.page_size
        return self.messages[start : start + self.page_size]

    def goto(self, page: int) -> int:
        """Clamp a wanted page to the pages there are and make it current."""
        self.page = max(0, min(page, self.last_page))
        return self.page


async def read_room(client: PlatformClient, room_id: str, target: int | None) -> RoomThread:
    """Every message of the room, newest first, on its first page."""
    return RoomThread.of(room_id, await client.list_room_messages(room_id, target=target))
