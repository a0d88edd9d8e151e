"""Where a built request goes on the wire: one `Pool` per client, one reply type.

The sender (`vagent_tui.api.sender`) hands a pool the request as
`vagent_tui.api.outgoing` built it and gets the reply as an `httpx.Response` open at
its status line, whatever the pool; it reads and caps the body itself. Two pools:

* `HttpxPool`: any httpx transport through httpx's transport API
  (``handle_async_request``): the in-process simulator's, a test's, or httpx's own
  connection pool (where aiohttp's would behave otherwise: a proxy). The built request
  becomes the `httpx.Request` that API takes (its URL parsed once, never rebuilt).
* `AiohttpPool`, the default: aiohttp's connection pool, the request handed over as
  built (the URL as encoded text, which yarl takes ``encoded=True``: not parsed or
  quoted again). httpcore's pool spends milliseconds of CPU per request at 30+ requests
  in flight; and an `httpx.Request` per request (its URL parsed and checked character by
  character, its headers) made a request's CPU in the client 1.5-1.7 times what it is
  here (the same requests, at 32 in flight on loopback, this pool against aiohttp's
  under httpx's transport API). The Fleet and Rollout figures are CPU-bound
  (bench/fleet.py, bench/rollout.py), so this pool builds none. A small
  reply of known length (the usual one) is read with its head and the connection
  goes back to the pool at once; a larger one streams (the size cap, the big-reply
  gate, downloads). aiohttp's faults are its own (its timeouts are `TimeoutError`,
  the others `aiohttp.ClientError`), which the sender takes as it takes httpx's.

Neither follows redirects or decompresses on its own (httpx's reply decodes the body).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from typing import TYPE_CHECKING, Any, Protocol

import httpx

from vagent_tui.api.outgoing import Outgoing

if TYPE_CHECKING:
    import aiohttp

CHUNK = 64 * 1024


class Pool(Protocol):
    """Sends a built request; closed with the client."""

    async def open(self, outgoing: Outgoing) -> httpx.Response:
        """The reply to ``outgoing``, open at its status line (the caller closes it).

        Raises:
            Exception: the pool's faults (no reply): the sender names them.
        """
        ...

    async def aclose(self) -> None: ...


class HttpxPool:
    """A request through an httpx transport (httpx's transport API)."""

    def __init__(self, transport: httpx.AsyncBaseTransport, timeout: httpx.Timeout) -> None:
        self.transport = transport
        self._extensions = {"timeout": timeout.as_dict()}

    async def open(self, outgoing: Outgoing) -> httpx.Response:
        request = httpx.Request(
            outgoing.method,
            outgoing.url,
            content=outgoing.content,
            headers=outgoing.headers,
            extensions=self._extensions,
        )
        response = await self.transport.handle_async_request(request)
        response.request = request  # not every transport sets it (httpx's mock)
        return response

    async def aclose(self) -> None:
        await self.transport.aclose()


def never_resend(session: aiohttp.ClientSession) -> None:
    """Stop aiohttp from sending a PUT or a DELETE a second time by itself.

    aiohttp sends a request whose method it counts as idempotent (GET, HEAD, OPTIONS,
    TRACE, PUT, DELETE) again when the kept-alive connection it went out on breaks
    (RFC 9112's leave): a task's delete that ends a live call, an agent's PUT, sent twice
    without a word. A write here is sent once, its lost reply read back, and the
    transport retries a read by its own rule (`ApiTransport`). aiohttp has no public
    switch; ``_retry_connection`` is the one its own test client turns off
    (``aiohttp.test_utils``); `tests/unit/api/test_pool.py` fails when aiohttp renames
    it or stops reading it.
    """
    session._retry_connection = False


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


class AiohttpPool:
    """One aiohttp session (created on first use, closed with the client)."""

    def __init__(
        self,
        *,
        max_connections: int,
        keepalive_expiry: float,
        timeout: httpx.Timeout,
        small: int = 0,
    ) -> None:
        # aiohttp is imported with the first pool of its kind, not with the client: the
        # demo and the tests never use one (start-up, bench/startup.py).
        import aiohttp
        from yarl import URL

        self._aiohttp, self._url = aiohttp, URL
        self.max_connections = max_connections
        self.keepalive_expiry = keepalive_expiry
        self.small = small
        """A reply of at most this many bytes (declared, not compressed) is read at once."""
        # httpx's connect, read and pool timeouts, as aiohttp names them.
        self.timeout = self._aiohttp.ClientTimeout(
            sock_connect=timeout.connect, sock_read=timeout.read, connect=timeout.pool
        )
        self._session: aiohttp.ClientSession | None = None

    def _open_session(self) -> aiohttp.ClientSession:
        connector = self._aiohttp.TCPConnector(
            limit=self.max_connections,
            keepalive_timeout=self.keepalive_expiry,
            ssl=httpx.create_ssl_context(),  # httpx's certificates, as its own pool
        )
        # The body is decoded by httpx's reply: ask only for what it always decodes
        # (aiohttp would add "br" or "zstd" when a library of its own for them is found).
        session = self._aiohttp.ClientSession(
            connector=connector, auto_decompress=False, headers={"Accept-Encoding": "gzip, deflate"}
        )
        never_resend(session)
        self._session = session
        return session

    async def open(self, outgoing: Outgoing) -> httpx.Response:
        session = self._session or self._open_session()
        response = await session.request(
            outgoing.method,
            self._url(outgoing.url, encoded=True),
            data=outgoing.content,
            headers=outgoing.headers or None,
            allow_redirects=False,
            timeout=self.timeout,
        )
        extensions: Mapping[str, Any] = (
            {"reason_phrase": response.reason.encode()} if response.reason else {}
        )
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
                extensions=extensions,
            )
        return httpx.Response(
            response.status,
            headers=response.raw_headers,
            stream=_Body(response),
            extensions=extensions,
        )

    async def aclose(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None
