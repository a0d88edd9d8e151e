"""The HTTP machinery under `PlatformClient`: token placement, errors, retries, redaction.

The credential travels in the ``token`` query parameter of every request (never a
header, per the spec). A target account becomes ``targetAccountId`` in the query (or the
parameter of its level, for a resource scoped at a level: `vagent_tui.api.targets`),
except on the Computer Agent routes whose path already holds the account id.

Every failure surfaces as a `PlatformError` subclass whose text and repr never hold the
token: `ApiError` (an error envelope or a non-2xx status, with the server's
``message``), `TransportError` / `RequestTimeout` (no reply), `MalformedResponse`
(a reply that is not the JSON the API promises).

GET requests are retried a bounded number of times with exponential backoff and jitter
on transport faults (timeouts included), 5xx and 429 (honouring ``Retry-After``), not on
replies that are not the JSON promised; each attempt has an overall deadline besides
httpx's per-phase timeouts. POST, PUT and DELETE are
never retried automatically: a token, a migration or a deletion must not happen twice.
"""

from __future__ import annotations

import asyncio
import hmac
import os
import random
from asyncio import timeout as _deadline
from collections.abc import Callable, Mapping
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Self
from urllib.parse import urlencode, urlsplit

import httpx
from pydantic import ValidationError

from vagent_tui.api import models as m
from vagent_tui.api.errors import (
    PlatformError,
    ReadOnlyRefused,
    ReplyTooLarge,
    RequestTimeout,
    TransportError,
    redact_text,
    redact_url,
    strip_userinfo,
)
from vagent_tui.api.replies import (
    Json,
    ModelT,
    decode_reply,
    list_envelope,
    parse_list,
    parse_model,
)
from vagent_tui.api.targets import Target, target_param

API_PREFIX = "/api/v2"
TARGET_PARAMS = frozenset(
    {"targetAccountId", "targetOrganizationId", "targetResellerId", "targetPartnerId"}
)
"""The query parameters that select the account a request acts on (spec rules 7 and 9)."""
DEFAULT_TIMEOUT = 15.0
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


@dataclass(frozen=True, slots=True)
class Exchange:
    """What an observer hears of one request: no token, ever."""

    method: str
    path: str
    target: int | None
    body: Any
    status: int | None
    message: str | None
    elapsed: float
    target_param: str = "targetAccountId"
    """The query parameter that carried ``target``."""


Observer = Callable[[Exchange], None]

PressureHook = Callable[[int, float | None], None]
"""Hears ``(status, retry_after)`` of each 429 or 503 reply, retried or not."""
PRESSURE_STATUSES = frozenset({429, 503})
_pressure: ContextVar[PressureHook | None] = ContextVar("vagent_pressure", default=None)


def listen_for_pressure(hook: PressureHook | None) -> None:
    """Have ``hook`` hear every 429/503 reply to requests sent from the current context.

    A context variable, so it covers the task that calls this (and the tasks it starts
    afterwards) only: the fleet's requests report to the fleet's concurrency limit, other
    screens' requests to nobody. Every attempt is heard, including those the GET retry
    policy retries (``retry_after``: the ``Retry-After`` seconds, None if absent).
    """
    _pressure.set(hook)


def retry_after_seconds(response: httpx.Response) -> float | None:
    """The ``Retry-After`` header in seconds (the delta form), or None."""
    value = response.headers.get("Retry-After", "").strip()
    return float(value) if value.isdigit() else None


def normalise_base_url(base_url: str) -> str:
    """The platform's address without a trailing ``/`` or ``/api/v2``.

    Every path is sent with the ``/api/v2`` prefix, so a base URL copied with it (the
    spec writes ``{base_url}`` and then the prefixed paths) would double it. A path
    before the prefix (a gateway's) is kept.
    """
    base = base_url.strip().rstrip("/")
    while base.endswith(API_PREFIX):
        base = base.removesuffix(API_PREFIX).rstrip("/")
    return base


def as_bool(value: bool) -> str:
    return "true" if value else "false"


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


class ApiTransport:
    """One `httpx.AsyncClient` to the platform's ``/api/v2``; endpoints live in subclasses."""

    def __init__(
        self,
        base_url: str,
        token: str,
        *,
        transport: httpx.AsyncBaseTransport | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        get_retries: int = 2,
        backoff: float = 0.25,
        max_retry_after: float = 10.0,
        total_timeout: float | None = None,
        max_reply_bytes: int | None = None,
    ) -> None:
        self.base_url = normalise_base_url(base_url)
        self.max_reply_bytes = max_reply_bytes or default_max_reply_bytes()
        """A reply body past this is refused before it is read whole (`ReplyTooLarge`)."""
        self.timeout = timeout
        self.total_timeout = total_timeout if total_timeout is not None else 2 * timeout
        self._token = token
        self.get_retries = get_retries
        self.backoff = backoff
        self.max_retry_after = max_retry_after
        self.observers: list[Observer] = []
        self.read_only = False
        """Set by a read-only profile: every request but GET is refused before sending."""
        self._http = httpx.AsyncClient(
            base_url=self.base_url,
            transport=transport if transport is not None else default_transport(),
            timeout=httpx.Timeout(timeout, connect=min(timeout, 5.0)),
            follow_redirects=False,
        )

    # ------------------------------------------------------------------ lifecycle

    def __repr__(self) -> str:
        masked = m.mask_secret(self._token)
        base_url = redact_url(self.base_url)
        return f"{type(self).__name__}(base_url={base_url!r}, token={masked!r})"

    def uses_token(self, token: str) -> bool:
        """Whether ``token`` is this client's own key (the secret itself never leaves)."""
        return hmac.compare_digest(token.encode(), self._token.encode())

    @property
    def host(self) -> str:
        """Host and port of the platform, never a ``user:password@`` it may carry."""
        return strip_userinfo(urlsplit(self.base_url).netloc) or redact_url(self.base_url)

    async def aclose(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    # ------------------------------------------------------------------ transport

    async def request(
        self,
        method: str,
        path: str,
        *,
        target: Target | None = None,
        params: Mapping[str, Any] | None = None,
        json: Any = None,
        data: Mapping[str, str] | None = None,
        files: Mapping[str, Any] | None = None,
        journal_body: Any = None,
        body_optional: bool = False,
        as_given: bool = False,
    ) -> Json:
        """Send one request and return the reply's JSON object, or raise.

        ``path`` is relative to the API prefix unless it already starts with it; with
        ``as_given`` it is sent as it is: a path relative to the base URL, or an absolute
        URL (which the caller has checked is the platform's own origin).
        ``body_optional``: a success status is a success whatever its body (empty, not
        JSON, JSON but not an object: then ``{}``), for endpoints whose spec shows no
        reply fields.
        """
        url = path if as_given or path.startswith(API_PREFIX) else API_PREFIX + path
        if self.read_only and method != "GET":
            raise ReadOnlyRefused(
                "Read-only profile: changes are disabled (nothing was sent)",
                method=method,
                url=url,
            )
        response, started = await self._exchange(
            method, url, target, params, json, data, files, journal_body
        )
        return self._finish(
            method, url, target, journal_body, json, response, started, body_optional
        )

    async def _exchange(
        self,
        method: str,
        url: str,
        target: Target | None,
        params: Mapping[str, Any] | None,
        json: Any,
        data: Mapping[str, str] | None,
        files: Mapping[str, Any] | None,
        journal_body: Any,
    ) -> tuple[httpx.Response, float]:
        """Send with the retry policy; the reply (any status) and when it started, or raise."""
        query: dict[str, Any] = {"token": self._token}
        if target is not None:
            name, account_id = target_param(target)
            query[name] = account_id
        for key, value in (params or {}).items():
            if value is None:
                continue
            query[key] = as_bool(value) if isinstance(value, bool) else value
        attempts = 1 + (self.get_retries if method == "GET" else 0)
        loop = asyncio.get_running_loop()
        started = loop.time()
        for attempt in range(attempts):
            failure, response = await self._send(method, url, query, json, data, files)
            if response is not None and response.status_code in PRESSURE_STATUSES:
                hook = _pressure.get()
                if hook is not None:
                    hook(response.status_code, retry_after_seconds(response))
            delay = self._retry_delay(attempt, attempts, failure, response)
            if delay is None:
                break
            await asyncio.sleep(delay)
        if failure is not None:
            body = journal_body if journal_body is not None else json
            self._notify(method, url, target, body, None, failure.message, loop.time() - started)
            raise failure
        assert response is not None
        return response, started

    def _finish(
        self,
        method: str,
        url: str,
        target: Target | None,
        journal_body: Any,
        json: Any,
        response: httpx.Response,
        started: float,
        body_optional: bool = False,
    ) -> Json:
        """Decode a reply into its JSON object (or raise), and tell the observers."""
        body = journal_body if journal_body is not None else json
        elapsed = asyncio.get_running_loop().time() - started
        result = decode_reply(method, url, response, self._token, body_optional=body_optional)
        if isinstance(result, PlatformError):
            status = getattr(result, "status", response.status_code)
            self._notify(method, url, target, body, status, result.message, elapsed)
            raise result
        message = result.get("message")
        self._notify(
            method,
            url,
            target,
            body,
            response.status_code,
            message if isinstance(message, str) else None,
            elapsed,
        )
        return result

    async def _send(
        self,
        method: str,
        url: str,
        query: Mapping[str, Any],
        json: Any,
        data: Mapping[str, str] | None,
        files: Mapping[str, Any] | None,
    ) -> tuple[PlatformError | None, httpx.Response | None]:
        # Errors are built outside the except blocks so that no httpx exception (whose
        # text embeds the URL, token included) rides along as __context__.
        failure: PlatformError | None = None
        # httpx times out each phase (connect, write, read); the overall deadline also
        # covers transports without timeouts (the in-process simulator). Uploads are
        # left to the per-phase timeouts: a big file may take long and still progress.
        deadline = None if files else self.total_timeout
        try:
            full = self._full_url(url, query)
            async with _deadline(deadline):
                if full is not None:
                    request = self._http.build_request(
                        method, full, json=json, data=data, files=files
                    )
                else:
                    request = self._http.build_request(
                        method, url, params=query, json=json, data=data, files=files
                    )
                streamed = await self._http.send(request, stream=True)
                try:
                    read = await self._read_capped(method, url, streamed)
                finally:
                    await streamed.aclose()
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
            # A transport raising its own errors (the in-process ASGI transport re-raises
            # what the app raised): no reply.
            reason = redact_text(str(exc) or type(exc).__name__, self._token)
            failure = TransportError(
                f"Could not reach the platform at {self.host}: {reason}", method=method, url=url
            )
        if failure is not None:
            return failure, None
        return None, response

    async def _read_capped(
        self, method: str, url: str, response: httpx.Response
    ) -> httpx.Response | PlatformError:
        """The reply with its body read, or `ReplyTooLarge` once it passes the limit.

        The body is counted as it arrives (after any decompression), so a huge or
        endless reply costs at most the limit in memory, whatever its headers say.
        """
        limit = self.max_reply_bytes
        declared = response.headers.get("content-length", "")
        too_large = ReplyTooLarge(
            f"The platform sent a reply of more than {limit / MIB:g} MiB ({method} "
            f"{url}): refused, nothing of it was read",
            status=response.status_code,
            method=method,
            url=url,
        )
        if declared.isdigit():
            if int(declared) > limit:
                return too_large
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

    def _full_url(self, url: str, query: Mapping[str, Any]) -> httpx.URL | None:
        """The request's URL with its query, built in one go; None: let httpx merge them.

        The same URL httpx builds from ``base_url``, ``url`` and ``params=`` (the same
        ``urlencode``), at about a third of the cost (bench/client.py). Only for the plain
        case: a path without a query of its own, values that are ``str`` or ``int``.
        """
        if "?" in url or "#" in url or not url.startswith("/"):
            return None
        for value in query.values():
            if type(value) is not str and type(value) is not int:
                return None
        return httpx.URL(f"{self.base_url}{url}?{urlencode(query)}")

    def _retry_delay(
        self,
        attempt: int,
        attempts: int,
        failure: PlatformError | None,
        response: httpx.Response | None,
    ) -> float | None:
        """Seconds to wait before the next attempt, or None to stop here."""
        if attempt + 1 >= attempts:
            return None
        if failure is not None:
            if not isinstance(failure, TransportError):
                return None
        elif response is None or not (response.status_code >= 500 or response.status_code == 429):
            return None
        delay: float = self.backoff * (2**attempt) * (1 + random.random())
        if response is not None:
            retry_after = retry_after_seconds(response)
            if retry_after is not None:
                delay = max(delay, retry_after)
        return min(delay, self.max_retry_after)

    def _notify(
        self,
        method: str,
        url: str,
        target: Target | None,
        body: Any,
        status: int | None,
        message: str | None,
        elapsed: float,
    ) -> None:
        if not self.observers:
            return
        param, account_id = target_param(target) if target is not None else ("", None)
        exchange = Exchange(
            method, url, account_id, body, status, message, elapsed, param or "targetAccountId"
        )
        for observer in list(self.observers):
            observer(exchange)

    _parse = staticmethod(parse_model)
    _parse_list = staticmethod(parse_list)

    async def _get_list(
        self,
        model: type[ModelT],
        path: str,
        key: str,
        *,
        target: Target | None = None,
        params: Mapping[str, Any] | None = None,
    ) -> list[ModelT]:
        url = path if path.startswith(API_PREFIX) else API_PREFIX + path
        response, started = await self._exchange("GET", url, target, params, None, None, None, None)
        if response.status_code < 400:
            # The usual reply, validated from its bytes in one pass (no dicts built
            # first): about a third of the cost of from_json + validate_python. Anything
            # else (an error envelope, a reply that does not fit) takes the general path
            # below, which raises exactly what it always did.
            try:
                reply = list_envelope(model, key).validate_json(response.content)
            except ValidationError:
                reply = None
            if reply is not None and reply.success is not False:
                message = reply.message if isinstance(reply.message, str) else None
                elapsed = asyncio.get_running_loop().time() - started
                self._notify("GET", url, target, None, response.status_code, message, elapsed)
                return reply.items or []
        payload = self._finish("GET", url, target, None, None, response, started)
        return self._parse_list(model, payload, key, path)

    async def _envelope(self, method: str, path: str, **kwargs: Any) -> m.Envelope:
        payload = await self.request(method, path, **kwargs)
        return self._parse(m.Envelope, payload, method=method, url=path)
