"""The request policy under `PlatformClient`: errors, retries, observers, reading replies.

A request goes one way: `vagent_tui.api.outgoing` builds it once (URL, query with the
token, body), `vagent_tui.api.sender` sends it as built on each attempt, and this module
decides what its reply means, whether to ask again and whom to tell (the observers and
the pressure hook: `vagent_tui.api.listeners`). The credential travels in the
``token`` query parameter of every request (never a header, per the spec). A target
account becomes ``targetAccountId`` in the query (or the parameter of its level, for a
resource scoped at a level: `vagent_tui.api.targets`), except on the Computer Agent
routes whose path already holds the account id.

Every failure surfaces as a `PlatformError` subclass whose text and repr never hold the
token: `ApiError` (an error envelope or a non-2xx status, with the server's
``message``), `TransportError` / `RequestTimeout` (no reply), `MalformedResponse`
(a reply that is not the JSON the API promises); nor do they, or a reply's message,
hold a secret of the request's body (`vagent_tui.api.echoes`).

GET requests are retried a bounded number of times (``get_retries``) with exponential
backoff and jitter, honouring ``Retry-After``, on every transient fault (`errors.transient`):
no reply (refused, reset, dropped mid-body, timed out), 5xx and 429, and a reply that
cannot be read: not JSON, cut short, or JSON the endpoint's model refuses (a GET's reply
is read whole, parsed and validated inside the retry loop: `ApiTransport.get`). Each
attempt has an overall deadline besides httpx's per-phase timeouts. Not retried: 4xx,
an error envelope, a reply past the size limit. POST, PUT and DELETE are never retried
automatically: a token, a migration or a deletion must not happen twice; when their
reply is lost or garbled the outcome is unknown and the caller reads back
(`vagent_tui.api.errors.outcome_unknown`).
"""

from __future__ import annotations

import asyncio
import hmac
import random
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple, Self, TypeVar
from urllib.parse import urlsplit

import httpx
from pydantic import ValidationError
from pydantic_core import from_json

from vagent_tui.api import models as m
from vagent_tui.api.as_sent import as_sent
from vagent_tui.api.base import empty_count, set_empty_count, skipped_empty, without_nulls
from vagent_tui.api.echoes import Echoes
from vagent_tui.api.errors import (
    MalformedResponse,
    PlatformError,
    ReadOnlyRefused,
    redact_url,
    retry_status,
    strip_userinfo,
    transient,
)
from vagent_tui.api.listeners import Exchange as Exchange  # the observers' import
from vagent_tui.api.listeners import Observer, hear_pressure
from vagent_tui.api.listeners import listen_for_pressure as listen_for_pressure  # fleet's
from vagent_tui.api.listeners import retry_after_seconds as retry_after_seconds  # a test's
from vagent_tui.api.outgoing import API_PREFIX as API_PREFIX  # the journal's import
from vagent_tui.api.outgoing import RequestBuilder, normalise_base_url
from vagent_tui.api.replies import (
    CACHED_STRINGS,
    Json,
    ModelT,
    Reply,
    decode_reply,
    list_envelope,
    no_list,
    parse_list,
    parse_model,
)
from vagent_tui.api.sender import Sender, default_max_reply_bytes
from vagent_tui.api.sender import env_megabytes as env_megabytes  # the journal's import
from vagent_tui.api.targets import Target, target_param

R = TypeVar("R")

TARGET_PARAMS = frozenset(
    {"targetAccountId", "targetOrganizationId", "targetResellerId", "targetPartnerId"}
)
"""The query parameters that select the account a request acts on (spec rules 7 and 9)."""
DEFAULT_TIMEOUT = 15.0


SHARED_LISTS_KEPT = 64
"""Distinct list replies a transport keeps for ``_get_list(shared=True)``."""
SHARED_BODY_BYTES = 256 * 1024
"""A reply longer than this is not kept (a fleet's like answers are a few KB)."""


class SharedList(NamedTuple):
    """A list reply read once: its items, message and the ``null`` items it skipped."""

    items: tuple[Any, ...]
    message: str | None
    skipped: int


def as_bool(value: bool) -> str:
    return "true" if value else "false"


class ApiTransport:
    """The platform's ``/api/v2`` for one key: the retry policy over one builder and one
    sender (its pool); endpoints live in subclasses."""

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
        self._token = token
        self.sender = Sender(
            self.base_url,
            token,
            self.host,
            transport=transport,
            timeout=timeout,
            total_timeout=total_timeout if total_timeout is not None else 2 * timeout,
            max_reply_bytes=max_reply_bytes or default_max_reply_bytes(),
        )
        """The one sender (`api.sender`): the request as built, on the wire."""
        self._builder = RequestBuilder(self.base_url, token)
        """The one place a request's URL, query and body are made (`api.outgoing`)."""
        self.get_retries = get_retries
        self.backoff = backoff
        self.max_retry_after = max_retry_after
        self.observers: list[Observer] = []
        self.read_only = False
        """Set by a read-only profile: every request but GET is refused before sending."""
        self._shared_lists: dict[tuple[type[Any], str, bytes], SharedList] = {}
        """Lists read with ``shared=True``, by model, key and the reply's exact bytes."""

    # ------------------------------------------------------------------ lifecycle

    def __repr__(self) -> str:
        masked = m.mask_secret(self._token)
        base_url = redact_url(self.base_url)
        return f"{type(self).__name__}(base_url={base_url!r}, token={masked!r})"

    def _api_key_text(self) -> str:
        """The credential, for the mixins that build their own requests (`streaming`);
        named apart from ``_token``, which Textual's private API also uses."""
        return self._token

    def uses_token(self, token: str) -> bool:
        """Whether ``token`` is this client's own key (the secret itself never leaves)."""
        return hmac.compare_digest(token.encode(), self._token.encode())

    @property
    def host(self) -> str:
        """Host and port of the platform, never a ``user:password@`` it may carry."""
        return strip_userinfo(urlsplit(self.base_url).netloc) or redact_url(self.base_url)

    @property
    def platform_id(self) -> str:
        """Which platform this is, for what the console keeps per platform on disk (the
        onboarding and rollout logs): host, port and path of the base URL (a gateway's
        path tells two platforms behind one host apart), never its ``user:password@``,
        query or the key. The same in every session, so a log resumes after a dropped one;
        for a base URL without a path it is `host`."""
        return self.host + urlsplit(self.base_url).path

    async def aclose(self) -> None:
        await self.sender.aclose()

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
        reads: bool = False,
        writes: bool = False,
    ) -> Json:
        """Send one request and return the reply's JSON object, or raise.

        ``path`` is relative to the API prefix unless it already starts with it; with
        ``as_given`` it is sent as it is: a path relative to the base URL, or an absolute
        URL (which the caller has checked is the platform's own origin).
        ``body_optional``: a success status is a success whatever its body (empty, not
        JSON, JSON but not an object: then ``{}``), for endpoints whose spec shows no
        reply fields. A GET whose reply is to become a model goes through `get`, so that
        a reply the model refuses is asked again too.
        ``reads``: a request that only reads though its method is not GET (the platform's
        batch reads, ``POST /conversation/batch``): retried like a GET, allowed on a
        read-only profile, not a change for the journal, and its failure is a read's
        (nothing to read back: `errors.outcome_unknown`).
        ``writes``: a GET that changes the platform (``/auth/account/oneTimeAuthToken``
        may add a member): sent once, never retried, refused on a read-only profile, a
        change for the journal, and its unknown outcome is a change's (read back).
        """
        url = self._url(path, as_given)
        if self.read_only and (method != "GET" or writes) and not reads:
            raise ReadOnlyRefused(
                "Read-only profile: changes are disabled (nothing was sent)",
                method=method,
                url=url,
            )

        def take(response: Reply) -> tuple[Json, str | None]:
            return self._decode(method, url, response, body_optional)

        return await self._attempts(
            method, url, target, params, take, json=json, data=data, files=files,
            journal_body=journal_body, reads=reads, writes=writes,
        )  # fmt: skip

    async def get(
        self,
        path: str,
        parse: Callable[[Json], R],
        *,
        target: Target | None = None,
        params: Mapping[str, Any] | None = None,
        as_given: bool = False,
    ) -> R:
        """``GET path``, its JSON object turned into what the caller wants by ``parse``.

        Reading, decoding and ``parse`` run inside the retry policy: a reply that is not
        JSON, is cut short, or that ``parse`` refuses (`MalformedResponse`) is asked
        again like a 503, within the same budget. ``path`` and ``as_given``: as `request`.
        """
        url = self._url(path, as_given)

        def take(response: Reply) -> tuple[R, str | None]:
            payload, message = self._decode("GET", url, response)
            return parse(payload), message

        return await self._attempts("GET", url, target, params, take)

    def _url(self, path: str, as_given: bool = False) -> str:
        return self._builder.url_of(path, as_given)

    async def _attempts(
        self,
        method: str,
        url: str,
        target: Target | None,
        params: Mapping[str, Any] | None,
        take: Callable[[Reply], tuple[R, str | None]],
        *,
        json: Any = None,
        data: Mapping[str, str] | None = None,
        files: Mapping[str, Any] | None = None,
        journal_body: Any = None,
        reads: bool = False,
        writes: bool = False,
    ) -> R:
        """Send with the retry policy and ``take`` the reply: its result, or raise.

        ``take`` reads a reply (any status) into ``(result, the reply's message)`` or
        raises the `PlatformError` it stands for. A GET is sent again (at most
        ``get_retries`` times, after `backoff_delay`) while it ends in a transient fault
        (`transient`): no reply, a 5xx or 429 status (not taken: only the last attempt's
        error is read), or a reply ``take`` found cut or garbled; so is a request that
        ``reads``. Others are sent once, and so is a GET that ``writes``. The observers
        hear the outcome once, when it is final. The secrets of the body (those the
        journal body masks) are masked in the error and the reply's message (`echoes`).
        """
        echoes = Echoes.of(json, journal_body)
        outgoing = self._builder.build(
            method, url, target=target, params=params, json=json, data=data, files=files
        )
        retried = (method == "GET" and not writes) or reads
        attempts = 1 + (self.get_retries if retried else 0)
        loop = asyncio.get_running_loop()
        started = loop.time()
        body = journal_body if journal_body is not None else json
        failure: PlatformError | None = None
        status: int | None = None
        for attempt in range(attempts):
            last = attempt + 1 >= attempts
            failure, response = await self.sender.send(outgoing, url)
            status = None if response is None else response.status_code
            if response is not None:
                hear_pressure(response)
                if last or not retried or not retry_status(response.status_code):
                    try:
                        result, message = take(response)
                    except PlatformError as exc:
                        failure = exc
                    else:
                        message = echoes.reply(result, message)
                        elapsed = loop.time() - started
                        self._notify(
                            method, url, target, body, status, message, elapsed, reads, writes
                        )
                        return result
                    if last or not retried or not transient(failure):
                        break
            elif last or not retried or failure is None or not transient(failure):
                break
            await asyncio.sleep(self.backoff_delay(attempt, response))
        assert failure is not None
        failure = echoes.error(failure)
        if status is not None:
            status = getattr(failure, "status", status) or status
        failure.reads = reads
        failure.writes = writes
        elapsed = loop.time() - started
        self._notify(method, url, target, body, status, failure.message, elapsed, reads, writes)
        raise failure

    def _decode(
        self, method: str, url: str, response: Reply, body_optional: bool = False
    ) -> tuple[Json, str | None]:
        """The reply's JSON object and its ``message``, or raise the error it stands for."""
        result = decode_reply(method, url, response, self._token, body_optional=body_optional)
        if isinstance(result, PlatformError):
            raise result
        message = result.get("message")
        return result, message if isinstance(message, str) else None

    def backoff_delay(self, attempt: int, response: Reply | None = None) -> float:
        """Seconds to wait before asking again after attempt ``attempt`` (0-based) failed.

        ``backoff * 2**attempt``, times a random 1..2 (so that many clients that failed
        together do not come back together), at least the reply's ``Retry-After``, at
        most ``max_retry_after``.
        """
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
        reads: bool = False,
        writes: bool = False,
    ) -> None:
        if not self.observers:
            return
        param, account_id = target_param(target) if target is not None else ("", None)
        exchange = Exchange(
            method, url, account_id, body, status, message, elapsed,
            param or "targetAccountId", reads, writes,
        )  # fmt: skip
        for observer in list(self.observers):
            observer(exchange)

    _parse = staticmethod(parse_model)
    _parse_list = staticmethod(parse_list)
    _as_sent = staticmethod(as_sent)

    async def _get_list(
        self,
        model: type[ModelT],
        path: str,
        key: str,
        *,
        target: Target | None = None,
        params: Mapping[str, Any] | None = None,
        shared: bool = False,
    ) -> list[ModelT]:
        """``GET path``: the reply's ``key`` as a list of ``model``, read inside the retry policy.

        With ``shared`` the items may be the very objects an earlier call returned, to be
        read and never changed: a reply byte for byte like one of the last
        `SHARED_LISTS_KEPT` is not validated again (a fleet's accounts mostly answer
        alike, and validating a reply costs several times reading its bytes).
        """
        url = self._url(path)
        memo = self._shared_lists

        def take(response: Reply) -> tuple[list[ModelT], str | None]:
            if not shared or response.status_code >= 400:
                return read(response)
            body = response.content
            known = memo.get((model, key, body))
            if known is not None:
                skipped_empty(known.skipped)
                return list(known.items), known.message
            counted = empty_count()
            items, message = read(response)
            if len(body) <= SHARED_BODY_BYTES:
                if len(memo) >= SHARED_LISTS_KEPT:
                    memo.clear()  # a fleet of all different replies: start again
                memo[(model, key, body)] = SharedList(
                    tuple(items), message, empty_count() - counted
                )
            return items, message

        def read(response: Reply) -> tuple[list[ModelT], str | None]:
            counted = empty_count()
            if response.status_code < 400:
                # The usual reply, validated from its bytes in one pass (no dicts built
                # first): about a third of the cost of from_json + validate_python.
                # Anything else (an error envelope, a reply that does not fit) takes the
                # general path below, which raises exactly what it always did.
                try:
                    reply = list_envelope(model, key).validate_json(response.content)
                except ValidationError:
                    reply = None
                    set_empty_count(counted)  # read again below: counted once
                if reply is not None and reply.success is not False and reply.items is not None:
                    message = reply.message if isinstance(reply.message, str) else None
                    return reply.items or [], message
            payload, message = self._decode("GET", url, response)
            try:
                return self._parse_list(model, payload, key, path), message
            except Exception:
                set_empty_count(counted)  # asked again: this attempt's entries not counted
                raise

        return await self._attempts("GET", url, target, params, take)

    async def _get_bare_list(
        self, model: type[ModelT], path: str, key: str, *, target: Target | None = None
    ) -> list[ModelT]:
        """``GET path`` whose published reply is a bare JSON array of ``model``.

        An object holding the list under ``key`` is read too (no list there: empty).
        ``null`` items are skipped and counted. Read inside the retry policy like `get`.
        """
        url = self._url(path)

        def take(response: Reply) -> tuple[list[ModelT], str | None]:
            items: Any = None
            message = None
            if response.status_code < 400:
                try:
                    items = from_json(response.content, cache_strings=CACHED_STRINGS)
                except ValueError:
                    items = None  # not JSON: the general path below says so
            if not isinstance(items, list):
                payload, message = self._decode("GET", url, response)
                items = payload.get(key)
                if items is None:
                    raise no_list(key, path)
                if not isinstance(items, list):
                    raise MalformedResponse(
                        f"The platform's reply has '{key}' that is not a list", url=path
                    )
            wrapped = {key: without_nulls(items)}
            return self._parse_list(model, wrapped, key, path), message

        return await self._attempts("GET", url, target, None, take)

    async def _envelope(self, method: str, path: str, **kwargs: Any) -> m.Envelope:
        payload = await self.request(method, path, **kwargs)
        return self._parse(m.Envelope, payload, method=method, url=path)
