"""The one sender: a request as `vagent_tui.api.outgoing` built it, on the wire.

`Sender.send` sends an `Outgoing` once and reads its reply whole, within the size cap
(`ReplyTooLarge` past it) and the big-reply gate (`vagent_tui.api.big_replies`), or
says why there is none (`RequestTimeout`, `TransportError`, their texts redacted). The
retry policy, decoding and observers are the caller's (`vagent_tui.api.transport`).

One way: the request as built goes to the client's pool (`vagent_tui.api.pool`: aiohttp's
by default, or any httpx transport through httpx's transport API: the in-process
simulator's, httpx's own pool where a proxy is set), and comes back as an
`httpx.Response` read here, the same for every pool. httpx's `AsyncClient` is not in
the way: its per-request layers (the URL parsed again, cookies, auth and redirect hooks,
the default headers merged) doubled a request's CPU, and the Fleet and Rollout figures
are CPU-bound (bench/fleet.py, bench/rollout.py); what it did that the console needs is
done once: the timeouts and the environment's proxy chosen with the pool, no redirect
followed.
"""

from __future__ import annotations

import logging
import os
import urllib.request
from asyncio import timeout as _deadline
from urllib.parse import urlsplit

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
from vagent_tui.api.pool import AiohttpPool, HttpxPool, Pool
from vagent_tui.api.replies import Reply

log = logging.getLogger("vagent_tui.api")
"""One DEBUG line per request (method, URL redacted, status or why none), as httpx's
client wrote before the one sender: a user who turns logging on sees the traffic,
never the key (`redact_text`, and the redacting filter on this logger too)."""

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


SMALL_REPLY = 64 * 1024
"""A reply this long at most is read at once (`api.pool`): far below a big one."""
PROXY_VARIABLES = ("HTTPS_PROXY", "HTTP_PROXY", "ALL_PROXY", "https_proxy", "http_proxy",
                   "all_proxy")  # fmt: skip


def environment_proxy(base_url: str) -> str | None:
    """The proxy the environment names for ``base_url`` (``HTTPS_PROXY``, ``HTTP_PROXY``
    or ``ALL_PROXY`` by its scheme), None when there is none or ``NO_PROXY`` covers its
    host: what httpx's client would take from the environment."""
    proxies = urllib.request.getproxies_environment()
    parts = urlsplit(base_url)
    proxy = proxies.get(parts.scheme) or proxies.get("all")
    if not proxy or urllib.request.proxy_bypass(parts.hostname or ""):
        return None
    return proxy if "://" in proxy else f"http://{proxy}"


def default_pool(base_url: str, timeout: httpx.Timeout, small: int = SMALL_REPLY) -> Pool:
    """aiohttp's connection pool, or httpx's own (`vagent_tui.api.pool`).

    Measured on 1,000 agent accounts at 50 ms (bench/rollout.py): httpcore's pool spends
    several milliseconds of CPU per request at 30+ requests in flight (its bookkeeping
    scans every pooled connection), which made a plan take 3-4x as long as with aiohttp's.
    httpx's own stays in use where aiohttp would behave otherwise: a proxy set in the
    environment (httpx's pool goes through the one `environment_proxy` names for
    ``base_url``), or ``VAGENT_TRANSPORT=httpx``. ``small``: aiohttp's pool reads a
    reply of at most that many bytes (as its ``Content-Length`` says) with its head.
    """
    chosen = os.environ.get("VAGENT_TRANSPORT", "").lower()
    if chosen != "httpx" and not any(os.environ.get(name) for name in PROXY_VARIABLES):
        # aiohttp keeps every idle connection (no separate keep-alive cap): 200 at most,
        # the fleet's highest limit of requests in flight (services/fleet.MAX_CAP).
        return AiohttpPool(max_connections=200, keepalive_expiry=30.0, timeout=timeout, small=small)
    proxy = environment_proxy(base_url) if base_url else None
    transport = httpx.AsyncHTTPTransport(proxy=proxy, limits=httpx.Limits(max_connections=100))
    return HttpxPool(transport, timeout)


class Sender:
    """Sends the requests of one client: its pool, timeouts and reply cap."""

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
        timeouts = httpx.Timeout(timeout, connect=min(timeout, 5.0))
        self.pool: Pool = (
            HttpxPool(transport, timeouts)
            if transport is not None
            else default_pool(base_url, timeouts, min(SMALL_REPLY, max_reply_bytes))
        )
        """Where the requests go (`vagent_tui.api.pool`), closed with the client."""
        self.is_closed = False

    async def aclose(self) -> None:
        if not self.is_closed:
            self.is_closed = True
            await self.pool.aclose()

    async def open(self, outgoing: Outgoing) -> httpx.Response:
        """``outgoing`` through the pool, its reply open at the status line (the caller
        reads the body as it comes, and closes it).

        Raises:
            RuntimeError: the client is closed.
            Exception: the pool's faults (httpx's, aiohttp's, or what an in-process app
                raised): the caller turns them into `PlatformError` (their texts may
                hold the URL).
        """
        if self.is_closed:
            raise RuntimeError("The client is closed: nothing was sent")
        return await self.pool.open(outgoing)

    async def send(self, outgoing: Outgoing, url: str) -> tuple[PlatformError | None, Reply | None]:
        """Send ``outgoing`` once and read its reply (capped): the reply, or the failure.

        ``url``: the request as errors name it (no token).
        """
        method = outgoing.method
        # Errors are built outside the except blocks so that no transport exception
        # (whose text may embed the URL, token included) rides along as __context__.
        failure: PlatformError | None = None
        # The transport times out each phase (connect, write, read); the overall deadline
        # also covers transports without timeouts (the in-process simulator). Uploads are
        # left to the per-phase timeouts: a big file may take long and still progress.
        deadline = None if outgoing.upload else self.total_timeout
        try:
            async with _deadline(deadline):
                streamed = await self.open(outgoing)
                try:
                    read = await self.read_capped(method, url, streamed)
                finally:
                    await streamed.aclose()
            if isinstance(read, PlatformError):
                return read, None
            response = read
        except (httpx.TimeoutException, TimeoutError):
            failure = RequestTimeout(
                f"The platform did not answer in time ({self.host})", method=method, url=url
            )
        except Exception as exc:
            # httpx's faults, aiohttp's (`api.pool`), or the in-process transport
            # re-raising what the app raised: no reply.
            reason = redact_text(str(exc) or type(exc).__name__, self._token)
            failure = TransportError(
                f"Could not reach the platform at {self.host}: {reason}", method=method, url=url
            )
        if log.isEnabledFor(logging.DEBUG):
            outcome = failure.kind if failure is not None else str(response.status_code)
            log.debug("%s %s: %s", method, redact_text(outgoing.url, self._token), outcome)
        if failure is not None:
            return failure, None
        return None, response

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
        if declared.isdecimal() and int(declared) > limit:
            return self.too_large(method, url, response.status_code)
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
                    return self.too_large(method, url, response.status_code)
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
            extensions=response.extensions,
        )
