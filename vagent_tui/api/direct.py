"""Requests straight on aiohttp's connection pool, without httpx's layers over it.

With the default transport (`vagent_tui.api.transport.default_transport`: aiohttp's pool
under httpx) a request went through httpx's client (the request model, its URL parsed
again, cookies, auth and redirect hooks, a response model with a byte stream) and then
through aiohttp's own. Measured at 32 requests in flight on loopback, that httpx layer
doubled the CPU of a request (about 0.5 ms over aiohttp's own 0.4-0.5 ms), which made a
rollout plan and the Fleet screen CPU-bound before they were network-bound.

`DirectSender` sends a request as `vagent_tui.api.outgoing` built it (its URL already
encoded, its body bytes) on the same aiohttp session as the httpx transport (one pool,
closed with the client), with the same timeouts, no redirects followed, and the same cap
on a reply's size. Streamed replies (`vagent_tui.api.streaming`) go through httpx. Faults
surface as the exceptions `ApiTransport._send` already turns into `PlatformError`:
aiohttp's timeouts are `TimeoutError`, its other faults `aiohttp.ClientError`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import aiohttp
import httpx
from httpx_aiohttp import AiohttpTransport
from yarl import URL

from vagent_tui.api.big_replies import BigReplies
from vagent_tui.api.outgoing import Outgoing

CHUNK = 64 * 1024


@dataclass(frozen=True, slots=True)
class DirectReply:
    """What the transport reads of a reply (the fields of `replies.Reply`)."""

    status_code: int
    reason_phrase: str
    headers: Mapping[str, str]
    """Case-insensitive, as sent (a ``content-encoding`` is already decoded)."""
    content: bytes


class TooLarge(Exception):
    """The reply passed the size limit; nothing more of it is read."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


class DirectSender:
    """Plain requests on the session of an `AiohttpTransport` (created on first use)."""

    def __init__(self, transport: AiohttpTransport, timeout: httpx.Timeout) -> None:
        self.transport = transport
        # The same mapping as the httpx transport: httpx's connect, read and pool timeouts.
        self.timeout = aiohttp.ClientTimeout(
            sock_connect=timeout.connect, sock_read=timeout.read, connect=timeout.pool
        )

    def _session(self) -> aiohttp.ClientSession:
        client = self.transport.client
        if isinstance(client, aiohttp.ClientSession):
            return client
        # Made here as the httpx transport makes it, and kept there: one pool, closed
        # when the httpx client closes its transport.
        session = self.transport.get_client()
        self.transport.client = session
        return session

    async def send(
        self, outgoing: Outgoing, limit: int, big: BigReplies | None = None
    ) -> DirectReply:
        """``outgoing`` as it was built; a big reply waits for its place among ``big``'s
        before its body is read.

        Raises:
            TooLarge: the reply is longer than ``limit`` bytes (decoded).
            TimeoutError: a timeout of the connection or of the read.
            aiohttp.ClientError: any other fault of the connection or the reply.
        """
        async with self._session().request(
            outgoing.method,
            URL(outgoing.url, encoded=True),
            data=outgoing.content,
            headers=outgoing.headers or None,
            allow_redirects=False,
            timeout=self.timeout,
        ) as response:
            declared = response.headers.get("Content-Length", "")
            if declared.isdecimal() and int(declared) > limit:
                raise TooLarge(response.status)
            async with (big or BigReplies()).reading() as reading:
                if declared.isdecimal():
                    await reading.grew(int(declared))
                if declared.isdecimal() and "Content-Encoding" not in response.headers:
                    # The usual reply: its length is known and bounds what is read.
                    content = await response.read()
                else:
                    chunks: list[bytes] = []
                    size = 0
                    async for chunk in response.content.iter_chunked(CHUNK):
                        size += len(chunk)
                        if size > limit:
                            raise TooLarge(response.status)
                        await reading.grew(size)
                        chunks.append(chunk)
                    content = b"".join(chunks)
            return DirectReply(response.status, response.reason or "", response.headers, content)


def direct_sender(
    transport: httpx.AsyncBaseTransport | None, timeout: httpx.Timeout
) -> DirectSender | None:
    """A sender for ``transport`` when it is aiohttp's (without a proxy), else None."""
    if not isinstance(transport, AiohttpTransport) or transport.proxy is not None:
        return None
    return DirectSender(transport, timeout)
