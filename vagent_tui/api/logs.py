"""The conversation logs' endpoints of `PlatformClient` (the vendor's OpenAPI reference):
``GET /logs`` (a page as JSON, or the whole query as a streamed CSV file),
``POST /conversation/batch`` and ``GET /messages/recent``.

A mixin of the transport, so every request keeps its rules (token placement, typed
errors, GET retries, redaction, observers). The models live in `log_models` and are
imported on first use: start-up does not build them.

The ``token`` query parameter: the reference lists one for ``GET /logs`` ("opaque
pagination or access token if supported by upstream systems") under the name the API
key travels in. The client sends exactly one ``token``, the API key; it pages with
``page``/``pageSize`` (documented whole) and never sends a pagination token. A filter
named ``token`` is refused before sending (`LogQuery`), and `StreamingTransport` puts
the key last so no parameter can replace it.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Sequence
from contextlib import aclosing
from typing import TYPE_CHECKING, Any

from vagent_tui.api.streaming import StreamingTransport

if TYPE_CHECKING:
    from vagent_tui.api.log_models import (
        BatchReply,
        ConversationMessage,
        ConversationRef,
        LogPage,
        LogQuery,
    )


def _check_paging(page: int, page_size: int) -> None:
    from vagent_tui.api.log_models import MAX_PAGE_SIZE

    if isinstance(page, bool) or not isinstance(page, int) or page < 1:
        raise ValueError("page must be a whole number from 1")
    if isinstance(page_size, bool) or not isinstance(page_size, int):
        raise ValueError("page size must be a whole number")
    if not 1 <= page_size <= MAX_PAGE_SIZE:
        raise ValueError(f"page size must be between 1 and {MAX_PAGE_SIZE:,}")


class LogsApi(StreamingTransport):
    """``/logs``, ``/conversation/batch``, ``/messages/recent``."""

    async def list_logs(
        self,
        query: LogQuery | None = None,
        *,
        page: int = 1,
        page_size: int = 20,
        include_fields: bool = False,
        target: int | None = None,
    ) -> LogPage:
        """``GET /logs``: one page (``page`` from 1, ``page_size`` 1..10,000) of the
        entries matching ``query``, newest first; ``include_fields`` asks for ``schema``.

        Raises ValueError for paging out of range (nothing sent).
        """
        from vagent_tui.api.log_models import LogPage, LogQuery

        _check_paging(page, page_size)
        params = (query or LogQuery()).params()
        params.update(page=page, pageSize=page_size)
        if include_fields:  # an optional flag: sent only when set
            params["includeFields"] = True
        return await self.get(
            "/logs",
            lambda payload: self._parse(LogPage, payload, url="/logs"),
            target=target,
            params=params,
        )

    async def stream_logs_csv(
        self,
        query: LogQuery | None = None,
        *,
        target: int | None = None,
        chunk_bytes: int = 64 * 1024,
    ) -> AsyncGenerator[bytes, None]:
        """``GET /logs?format=csv``: the whole query as CSV, in chunks as they arrive
        (never held whole). Raises `ApiError` 404 when no entry matches (the reference:
        ``No logs found for CSV export``), and what `StreamingTransport.stream_get` does.
        """
        from vagent_tui.api.log_models import LogQuery

        params = (query or LogQuery()).params()
        params["format"] = "csv"
        stream = self.stream_get("/logs", target=target, params=params, chunk_bytes=chunk_bytes)
        async with aclosing(stream):  # leaving early closes the connection at once
            async for chunk in stream:
                yield chunk

    async def get_conversations(
        self, refs: Sequence[ConversationRef], *, target: int | None = None
    ) -> BatchReply:
        """``POST /conversation/batch`` for these conversations: 200 at most per request
        (a longer list goes in several, one after the other), one reply in their order.

        A read, though a POST (``reads``): retried like a GET, allowed on a read-only
        profile, never journaled as a change; a failure of any request raises (the
        results of earlier ones are dropped).
        """
        from vagent_tui.api.log_models import MAX_BATCH, BatchReply

        results: list[Any] = []
        requested = ok = failed = 0
        message: Any = None
        for start in range(0, len(refs), MAX_BATCH):
            part = refs[start : start + MAX_BATCH]
            body = {"items": [ref.wire() for ref in part]}
            payload = await self.request(
                "POST", "/conversation/batch", target=target, json=body, reads=True
            )
            reply = self._parse(BatchReply, payload, method="POST", url="/conversation/batch")
            results.extend(reply.results)
            stats = reply.stats
            requested += stats.requested if stats and stats.requested is not None else len(part)
            ok += stats.ok if stats and stats.ok is not None else sum(r.ok for r in reply.results)
            failed += (
                stats.failed
                if stats and stats.failed is not None
                else sum(not r.ok for r in reply.results)
            )
            message = reply.message
        return BatchReply.model_validate({
            "message": message,
            "stats": {"requested": requested, "ok": ok, "failed": failed},
            "results": results,
        })  # fmt: skip

    async def recent_messages(self, *, target: int | None = None) -> list[ConversationMessage]:
        """``GET /messages/recent``: recent messages across the inboxes (a bare array by
        the reference; an object holding it under ``messages`` is read too)."""

        from vagent_tui.api.log_models import ConversationMessage

        return await self._get_bare_list(
            ConversationMessage, "/messages/recent", "messages", target=target
        )
