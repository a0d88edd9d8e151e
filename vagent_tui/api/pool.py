"""aiohttp's connection pool as an httpx transport: the request as it was built, on the wire.

`AiohttpPool` is an `httpx.AsyncBaseTransport`, the transport API httpx's own pool and
the in-process simulator's transport implement, and the one the sender speaks
(`vagent_tui.api.sender`). It is the console's default pool because httpcore's (httpx's
own) spends milliseconds of CPU per request at 30+ requests in flight, which made the
Fleet and Rollout figures CPU-bound (bench/fleet.py, bench/rollout.py).

It hands aiohttp the request as `vagent_tui.api.outgoing` built it: the URL as encoded
text (yarl takes it ``encoded=True``, so its query is not parsed and quoted a second
time, as httpx-aiohttp's transport did), the headers and body as they are, no redirect
followed, and the body not decompressed by aiohttp (httpx decodes it, as for any
transport). The reply comes back as an `httpx.Response` whose body streams from the
connection, for the sender's size cap and the streamed downloads; a small one (its
``Content-Length`` at most ``small``, not compressed: the usual reply) is read at once,
and its connection back in the pool before the caller reads it.

Faults are aiohttp's own, as the sender takes them: its timeouts are `TimeoutError`,
its other faults `aiohttp.ClientError` (no reply, or a body that broke off).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from typing import Any

import aiohttp
import httpx
from yarl import URL

CHUNK = 64 * 1024


class _Body(httpx.AsyncByteStream):
    """A reply's body as it arrives on the connection."""

    def __init__(self, response: aiohttp.ClientResponse) -> None:
        self._response = response

    async def __aiter__(self) -> AsyncIterator[bytes]:
        async for chunk in self._response.content.iter_chunked(CHUNK):
            yield chunk

    async def aclose(self) -> None:
        # Back to the pool when the body was read whole, else the connection is closed.
        self._response.release()


class AiohttpPool(httpx.AsyncBaseTransport):
    """One aiohttp session (created on first use, closed with the client)."""

    def __init__(self, *, max_connections: int, keepalive_expiry: float, small: int = 0) -> None:
        self.max_connections = max_connections
        self.keepalive_expiry = keepalive_expiry
        self.small = small
        """A reply of at most this many bytes (declared, not compressed) is read at once."""
        self._session: aiohttp.ClientSession | None = None
        self._timeouts: dict[int, tuple[Mapping[str, Any], aiohttp.ClientTimeout]] = {}
        """aiohttp's timeouts per httpx timeout mapping (one per client, so made once)."""

    def _open_session(self) -> aiohttp.ClientSession:
        connector = aiohttp.TCPConnector(
            limit=self.max_connections,
            keepalive_timeout=self.keepalive_expiry,
            ssl=httpx.create_ssl_context(),  # httpx's certificates, as its own pool
        )
        self._session = aiohttp.ClientSession(connector=connector, auto_decompress=False)
        return self._session

    def _timeout(self, request: httpx.Request) -> aiohttp.ClientTimeout:
        """httpx's connect, read and pool timeouts of ``request`` as aiohttp's."""
        phases: Mapping[str, Any] = request.extensions.get("timeout") or {}
        known = self._timeouts.get(id(phases))
        if known is not None and known[0] is phases:
            return known[1]
        timeout = aiohttp.ClientTimeout(
            sock_connect=phases.get("connect"),
            sock_read=phases.get("read"),
            connect=phases.get("pool"),
        )
        if len(self._timeouts) >= 8:
            self._timeouts.clear()  # mappings made per request: nothing worth keeping
        self._timeouts[id(phases)] = (phases, timeout)
        return timeout

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        session = self._session or self._open_session()
        body: Any
        try:
            body = request.content or None
        except httpx.RequestNotRead:
            body = request.stream  # a streamed body: aiohttp reads it as it goes
        response = await session.request(
            request.method,
            URL(str(request.url), encoded=True),
            data=body,
            headers=request.headers.multi_items(),
            allow_redirects=False,
            timeout=self._timeout(request),
        )
        extensions: dict[str, Any] = {"http_version": b"HTTP/1.1"}
        if response.reason:
            extensions["reason_phrase"] = response.reason.encode()
        length = response.content_length
        if (
            length is not None
            and length <= self.small
            and "Content-Encoding" not in response.headers
        ):
            try:
                content = await response.read()
            finally:
                response.release()
            return httpx.Response(
                response.status,
                headers=response.raw_headers,
                content=content,
                request=request,
                extensions=extensions,
            )
        return httpx.Response(
            response.status,
            headers=response.raw_headers,
            stream=_Body(response),
            request=request,
            extensions=extensions,
        )

    async def aclose(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None
