"""The messaging inboxes: junk and priority rooms, paged, and a room's messages."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import quote

from vagent_tui.api import models as m
from vagent_tui.api.replies import Json, no_list
from vagent_tui.api.streaming import StreamingTransport


def _with_rooms(payload: Json, url: str) -> Json:
    """An inbox page's reply, which must hold its ``rooms`` list (absent or null is no
    list, not an empty one)."""
    if payload.get("rooms") is None:
        raise no_list("rooms", url)
    return payload


def _as_asked(page: m.InboxPage, params: Mapping[str, Any]) -> m.InboxPage:
    """A page whose ``pageSize`` or ``pageNumber`` came null (or not at all): what was asked."""
    if page.page_size is None:
        page.page_size = params["pageSize"]
    if page.page_number is None:
        page.page_number = params["page"]
    return page


class InboxApi(StreamingTransport):
    """``/junkConversations``, ``/conversations`` and ``/messages/{roomId}``."""

    async def list_junk_rooms(
        self,
        *,
        page: int = 0,
        page_size: int = 20,
        unread: bool = False,
        target: int | None = None,
    ) -> m.JunkRoomPage:
        params: dict[str, Any] = {"pagination": True, "page": page, "pageSize": page_size}
        if unread:  # an optional flag: sent only when set
            params["unread"] = True
        return await self.get(
            "/junkConversations",
            lambda payload: _as_asked(
                self._parse(
                    m.JunkRoomPage,
                    _with_rooms(payload, "/junkConversations"),
                    url="/junkConversations",
                ),
                params,
            ),
            target=target,
            params=params,
        )

    async def list_priority_rooms(
        self,
        *,
        page: int = 0,
        page_size: int = 20,
        unread: bool = False,
        target: int | None = None,
    ) -> m.InboxPage:
        """``GET /conversations``: the priority inbox, paged like the junk inbox.

        ``unread`` is sent only when set: an unset flag is the platform's default.
        """
        params = {"pagination": True, "page": page, "pageSize": page_size}
        if unread:
            params["unread"] = True
        return await self.get(
            "/conversations",
            lambda payload: _as_asked(
                self._parse(
                    m.InboxPage, _with_rooms(payload, "/conversations"), url="/conversations"
                ),
                params,
            ),
            target=target,
            params=params,
        )

    async def list_room_messages(
        self, room_id: str, *, target: int | None = None
    ) -> list[m.RoomMessage]:
        """``GET /messages/{roomId}``: every message of a room (the platform pages none).

        The published reply is a bare JSON array; an object holding the list under
        ``messages`` is read too. ``null`` items are skipped.
        """
        path = f"/messages/{quote(room_id, safe=':')}"
        return await self._get_bare_list(m.RoomMessage, path, "messages", target=target)
