"""The inboxes and their rooms: server paging of an inbox (only the visible page is ever
fetched), and the messages of one room, paged here (the platform sends them all)."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from typing import Literal

from vagent_tui.api.client import PlatformClient
from vagent_tui.api.models import InboxPage, InboxRoom, RoomMessage
from vagent_tui.services.reread import read_again

PAGE_SIZES = (20, 50, 100, 200)

Inbox = Literal["junk", "priority"]
JUNK: Inbox = "junk"
PRIORITY: Inbox = "priority"
INBOX_TITLES: dict[Inbox, str] = {JUNK: "Junk inbox", PRIORITY: "Priority inbox"}


def other_inbox(inbox: Inbox) -> Inbox:
    return PRIORITY if inbox == JUNK else JUNK


def page_range(page: int, page_size: int, total: int) -> str:
    """``41–60 of 1,234`` for page 2 of 20 rooms; ``0 of 0`` when empty."""
    if total <= 0:
        return "0 of 0"
    first = page * page_size + 1
    if first > total:
        return f"– of {total:,}"
    last = min(total, (page + 1) * page_size)
    return f"{first:,}–{last:,} of {total:,}"


@dataclass
class InboxPager:
    """Where the user stands in an inbox; the server says how many rooms exist."""

    page: int = 0
    page_size: int = 20
    unread: bool = False
    total: int = 0
    rooms: list[InboxRoom] = field(default_factory=list)
    inbox: Inbox = JUNK
    """Which inbox: the junk one (``GET /junkConversations``) or the priority one
    (``GET /conversations``); both page alike."""

    @property
    def last_page(self) -> int:
        return max(0, (self.total - 1) // self.page_size) if self.total else 0

    @property
    def label(self) -> str:
        return page_range(self.page, self.page_size, self.total)

    @property
    def title(self) -> str:
        return INBOX_TITLES[self.inbox]

    def goto(self, page: int) -> int:
        """Clamp a wanted page to the known range and make it current."""
        self.page = max(0, min(page, self.last_page))
        return self.page

    def set_page_size(self, size: int) -> None:
        """Keep the first visible room in view when the page size changes."""
        first = self.page * self.page_size
        self.page_size = size
        self.page = first // size

    def apply(self, result: InboxPage) -> None:
        self.rooms = list(result.rooms)
        if result.total_rooms is not None:
            self.total = result.total_rooms
        else:  # not said: at least the rooms up to this page's
            self.total = self.page * self.page_size + len(self.rooms)

    async def fetch(self, client: PlatformClient, target: int | None) -> InboxPage:
        read = client.list_priority_rooms if self.inbox == PRIORITY else client.list_junk_rooms
        return await read_again(
            client,
            partial(read, page=self.page, page_size=self.page_size, unread=self.unread,
                    target=target),
            what=f"page {self.page + 1} of the inbox",
        )  # fmt: skip


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
        return max(0, (self.total - 1) // self.page_size)

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
