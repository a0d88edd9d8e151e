"""The one sender: a request as `vagent_tui.api.outgoing` built it, on the wire.

`Sender.send` sends an `Outgoing` once and reads its reply whole, within the size cap
(`ReplyTooLarge` past it) and the big-reply gate (`vagent_tui.api.big_replies`), or
says why there is none (`RequestTimeout`, `TransportError`, their texts redacted). The
retry policy, decoding and observers are the caller's (`vagent_tui.api.transport`).

Two pools may lie under it, chosen once per client, and the request is the same bytes
on either: httpx's client, the one the project names (over httpx's own pool, a
transport the caller gave, such as the in-process simulator's, or aiohttp's pool), and,
when the client chose aiohttp's pool itself, that pool straight (`vagent_tui.api.direct`):
httpx's client layer over it doubled a request's CPU, and the Fleet and Rollout
figures are CPU-bound there (bench/fleet.py, bench/rollout.py).
"""

from __future__ import annotations

import os
from asyncio import timeout as _deadline
from typing import TYPE_CHECKING

import httpx

from vagent_tui.api.big_replies import BigReplies
from vagent_tui.api.errors import (
    PlatformError,
    ReplyTooLarge,
    RequestTimeout,
    TransportError,
    redact_text,
)
from vagent_tui.api.outgoing import Outgoing
from vagent_tui.api.replies import Reply

if TYPE_CHECKING:
    from vagent_tui.api.direct import DirectSender

MIB = 1024 * 1024
DEFAULT_MAX_REPLY_MB = 16


def env_megabytes(name: str, default: float) -> int:
    """Bytes from the environment variable ``name`` in MiB; ``default`` MiB when it is
    unset or not a positive number."""
    raw = os.environ.get(name, "")
    try:
        megabytes = float(raw) if raw else default
    except ValueError:
        megabytes = default
    return int((megabytes if megabytes > 0 else default) * MIB)


def default_max_reply_bytes() -> int:
    """16 MiB, or ``VAGENT_MAX_REPLY_MB`` (a positive number) when it is set."""
    return env_megabytes("VAGENT_MAX_REPLY_MB", DEFAULT_MAX_REPLY_MB)


PROXY_VARIABLES = ("HTTPS_PROXY", "HTTP_PROXY", "ALL_PROXY", "https_proxy", "http_proxy",
                   "all_proxy")  # fmt: skip


def default_transport() -> httpx.AsyncBaseTransport | None:
    """aiohttp's connection pool under httpx, or None for httpx's own.

    Measured on 1,000 agent accounts at 50 ms (bench/rollout.py): httpcore's pool spends
    several milliseconds of CPU per request at 30+ requests in flight (its bookkeeping
    scans every pooled connection), which made a plan take 3-4x as long as with aiohttp's.
    httpx's own stays in use where aiohttp would behave otherwise: a proxy set in the
    environment (aiohttp ignores it), ``VAGENT_TRANSPORT=httpx``, or httpx-aiohttp missing.
    """
    if os.environ.get("VAGENT_TRANSPORT", "").lower() == "httpx":
        return None
    if any(os.environ.get(name) for name in PROXY_VARIABLES):
        return None
    try:
        from httpx_aiohttp import AiohttpTransport
    except ImportError:
        return None
    # aiohttp keeps every idle connection (no separate keep-alive cap): 200 at most, the
    # fleet's highest limit of requests in flight (services/fleet.MAX_CAP).
    return AiohttpTransport(limits=httpx.Limits(max_connections=200, keepalive_expiry=30.0))


class Sender:
    """Sends the requests of one client: its pools, timeouts and reply cap."""

    def __init__(
        self,
        base_url: str,
        token: str,
        host: str,
        *,
        transport: httpx.AsyncBaseTransport | None,
        timeout: float,
        total_timeout: float,
        max_reply_bytes: int,
    ) -> None:
        self._token = token
        self.host = host
        """Host and port of the platform, as failures name it."""
        self.total_timeout = total_timeout
        self.max_reply_bytes = max_reply_bytes
        """A reply body past this is refused before it is read whole (`ReplyTooLarge`)."""
        self.big_replies = BigReplies()
        """Big replies read at once (`vagent_tui.api.big_replies`): a fan-out of replies
        of megabytes holds two of them, not one per request in flight."""
        chosen = transport if transport is not None else default_transport()
        timeouts = httpx.Timeout(timeout, connect=min(timeout, 5.0))
        self.http = httpx.AsyncClient(
            base_url=base_url, transport=chosen, timeout=timeouts, follow_redirects=False
        )
        self.direct: DirectSender | None = None
        """Requests straight on aiohttp's pool (`vagent_tui.api.direct`): only on the
        transport this client chose itself, never on one it was given."""
        if transport is None and chosen is not None:
            from vagent_tui.api.direct import direct_sender

            self.direct = direct_sender(chosen, timeouts)

    async def aclose(self) -> None:
        await self.http.aclose()

    async def open(self, outgoing: Outgoing) -> httpx.Response:
        """``outgoing`` through httpx's client, its reply open at the status line (the
        caller reads the body as it comes, and closes it).

        Raises:
            httpx.HTTPError: the transport's faults (and what an in-process app raised):
                the caller turns them into `PlatformError` (their texts hold the URL).
        """
        request = httpx.Request(
            outgoing.method, outgoing.url, content=outgoing.content, headers=outgoing.headers
        )
        return await self.http.send(request, stream=True)

    async def send(self, outgoing: Outgoing, url: str) -> tuple[PlatformError | None, Reply | None]:
        """Send ``outgoing`` once and read its reply (capped): the reply, or the failure.

        ``url``: the request as errors name it (no token).
        """
        method = outgoing.method
        # Errors are built outside the except blocks so that no httpx exception (whose
        # text embeds the URL, token included) rides along as __context__.
        failure: PlatformError | None = None
        # httpx times out each phase (connect, write, read); the overall deadline also
        # covers transports without timeouts (the in-process simulator). Uploads are
        # left to the per-phase timeouts: a big file may take long and still progress.
        deadline = None if outgoing.upload else self.total_timeout
        read: Reply | PlatformError
        try:
            async with _deadline(deadline):
                if self.direct is not None:
                    read = await self._send_direct(outgoing, url)
                else:
                    read = await self._send_httpx(outgoing, url)
            if isinstance(read, PlatformError):
                return read, None
            response = read
        except (httpx.TimeoutException, TimeoutError):
            failure = RequestTimeout(
                f"The platform did not answer in time ({self.host})", method=method, url=url
            )
        except httpx.TransportError as exc:
            reason = redact_text(str(exc) or type(exc).__name__, self._token)
            failure = TransportError(
                f"Could not reach the platform at {self.host}: {reason}", method=method, url=url
            )
        except Exception as exc:
            # A transport raising its own errors (aiohttp's, or the in-process ASGI
            # transport re-raising what the app raised): no reply.
            reason = redact_text(str(exc) or type(exc).__name__, self._token)
            failure = TransportError(
                f"Could not reach the platform at {self.host}: {reason}", method=method, url=url
            )
        if failure is not None:
            return failure, None
        return None, response

    async def _send_httpx(self, outgoing: Outgoing, url: str) -> Reply | PlatformError:
        streamed = await self.open(outgoing)
        try:
            return await self.read_capped(outgoing.method, url, streamed)
        finally:
            await streamed.aclose()

    async def _send_direct(self, outgoing: Outgoing, url: str) -> Reply | PlatformError:
        """The request on aiohttp's pool (`vagent_tui.api.direct`)."""
        from vagent_tui.api.direct import TooLarge

        assert self.direct is not None
        try:
            return await self.direct.send(outgoing, self.max_reply_bytes, self.big_replies)
        except TooLarge as exc:
            return self.too_large(outgoing.method, url, exc.status)

    def too_large(self, method: str, url: str, status: int) -> ReplyTooLarge:
        return ReplyTooLarge(
            f"The platform sent a reply of more than {self.max_reply_bytes / MIB:g} MiB "
            f"({method} {url}): refused, nothing of it was read",
            status=status,
            method=method,
            url=url,
        )

    async def read_capped(
        self, method: str, url: str, response: httpx.Response
    ) -> httpx.Response | PlatformError:
        """The reply with its body read, or `ReplyTooLarge` once it passes the limit.

        The body is counted as it arrives (after any decompression), so a huge or
        endless reply costs at most the limit in memory, whatever its headers say.
        """
        limit = self.max_reply_bytes
        declared = response.headers.get("content-length", "")
        too_large = self.too_large(method, url, response.status_code)
        if declared.isdecimal() and int(declared) > limit:
            return too_large
        async with self.big_replies.reading() as reading:
            if declared.isdecimal():
                await reading.grew(int(declared))
                if "content-encoding" not in response.headers:
                    # The usual reply: its length is known and bounds what is read.
                    await response.aread()
                    return response
            chunks: list[bytes] = []
            size = 0
            async for chunk in response.aiter_bytes():
                size += len(chunk)
                if size > limit:
                    return too_large
                await reading.grew(size)
                chunks.append(chunk)
        # The body as read: decoded already, so the new reply carries no encoding.
        headers = [
            (key, value)
            for key, value in response.headers.multi_items()
            if key.lower() not in ("content-encoding", "content-length", "transfer-encoding")
        ]
        return httpx.Response(
            response.status_code,
            headers=headers,
            content=b"".join(chunks),
            request=response.request,
            extensions=response.extensions,
        )
