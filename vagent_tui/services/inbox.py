"""Server paging of the junk inbox: only the visible page is ever fetched."""

from __future__ import annotations

from dataclasses import dataclass, field

from vagent_tui.api.client import PlatformClient
from vagent_tui.api.models import JunkRoom, JunkRoomPage

PAGE_SIZES = (20, 50, 100, 200)


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
    """Where the user stands in the inbox; the server says how many rooms exist."""

    page: int = 0
    page_size: int = 20
    unread: bool = False
    total: int = 0
    rooms: list[JunkRoom] = field(default_factory=list)

    @property
    def last_page(self) -> int:
        return max(0, (self.total - 1) // self.page_size) if self.total else 0

    @property
    def label(self) -> str:
        return page_range(self.page, self.page_size, self.total)

    def goto(self, page: int) -> int:
        """Clamp a wanted page to the known range and make it current."""
        self.page = max(0, min(page, self.last_page))
        return self.page

    def set_page_size(self, size: int) -> None:
        """Keep the first visible room in view when the page size changes."""
        first = self.page * self.page_size
        self.page_size = size
        self.page = first // size

    def apply(self, result: JunkRoomPage) -> None:
        self.total = result.total_rooms
        self.rooms = list(result.rooms)

    async def fetch(self, client: PlatformClient, target: int | None) -> JunkRoomPage:
        return await client.list_junk_rooms(
            page=self.page, page_size=self.page_size, unread=self.unread, target=target
        )
