"""The endpoint wrapper every route goes through.

For each request, in this order: the artificial latency (``state.latency_ms`` plus the
latency and jitter of ``state.faults``), a fault that replaces the reply if one is drawn
(see `vagent_tui.sim.faults`), settling of finished migration
tasks, authentication (401 ``Unauthorized Request`` for a missing or unknown ``token``),
the scope check of the selected account (`SimState.select`: before the body is read, so
a key never learns more than 403 about an account outside its reach), the handler, then
the request log entry. A :class:`SimError` becomes the error
envelope; any other exception becomes 500 ``Internal error`` (never a traceback). A
drawn fault that alters replies is applied last, to success replies only.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from pydantic_core import to_json
from starlette.datastructures import FormData, QueryParams
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from vagent_tui.sim import faults as sim_faults
from vagent_tui.sim import migrations
from vagent_tui.sim.account import Account
from vagent_tui.sim.common import NEED_AGENT, SimError, bad, decode_json_object, redact
from vagent_tui.sim.state import REQUEST_LOG_LIMIT, LoggedRequest, SimState

log = logging.getLogger("vagent_tui.sim")

Reply = dict[str, Any] | list[Any] | tuple[int, dict[str, Any]] | Response
"""A reply body (an object; a bare array where the platform answers one), with a status;
or a response of its own (a streamed CSV file), sent as it is."""
Handler = Callable[["Ctx"], Awaitable[Reply]]


class Ctx:
    """What a handler sees: the request, the state, the authenticated caller."""

    def __init__(self, request: Request, state: SimState) -> None:
        self.request = request
        self.state = state
        self.query: QueryParams = request.query_params
        self.caller: Account | None = None
        self.body_log: Any = None
        self._target: Account | None = None

    @property
    def me(self) -> Account:
        assert self.caller is not None
        return self.caller

    @property
    def target(self) -> Account:
        """The account the request acts on: ``targetAccountId`` if sent, else the key's own.

        Both checked by the scope rules (`SimState.select`); a restricted member must
        send a permitted ``targetAccountId``.
        """
        if self._target is None:
            self._target = self.state.select(self.me, self.query.get("targetAccountId"))
        return self._target

    def level_target(self, params: Mapping[str, str]) -> Account:
        """The selected account of a resource scoped at a level (spec rule 9).

        ``params`` maps each level parameter the endpoint takes (``targetResellerId``...)
        to the ``accountType`` it must name. One of them, when sent, selects the account:
        checked like ``targetAccountId`` (403 out of reach, 400 not an integer), 400 when
        it names an account of another type, when several are sent, or when a
        ``targetAccountId`` sent beside it names another account. None sent: the account
        of ``targetAccountId`` or the key owner (`target`).
        """
        sent = [(name, kind) for name, kind in params.items() if name in self.query]
        if not sent:
            return self.target
        if len(sent) > 1:
            raise bad(f"send one of {', '.join(params)}, not several")
        name, kind = sent[0]
        acc = self.state.select(self.me, self.query.get(name), name)
        if acc.account_type != kind:
            article = "an" if kind[0] in "aeiou" else "a"
            raise bad(f"{name} must select {article} {kind} account")
        if "targetAccountId" in self.query and self.target.id != acc.id:
            raise bad(f"targetAccountId and {name} select different accounts")
        return acc

    @property
    def described(self) -> Account:
        """The account a read describes: the key owner itself unless a target is sent."""
        return self.state.describe(self.me, self.query.get("targetAccountId"))

    def agent_target(self) -> Account:
        """The selected account, which must be a voice agent account."""
        acc = self.target
        if not acc.is_agent:
            raise bad(NEED_AGENT)
        return acc

    def path(self, name: str) -> str:
        return str(self.request.path_params.get(name, ""))

    async def json(self, *, required: bool = True) -> dict[str, Any]:
        """The body as a JSON object (strictly)."""
        body = decode_json_object(await self.request.body(), required=required)
        self.body_log = redact(body)
        return body

    async def form(self) -> FormData:
        """The body as multipart/urlencoded form; malformed bodies are 400."""
        ctype = self.request.headers.get("content-type", "")
        if not ctype.startswith(("multipart/form-data", "application/x-www-form-urlencoded")):
            raise bad("Request body must be multipart/form-data")
        try:
            form = await self.request.form()
        except Exception:
            raise bad("Malformed multipart body") from None
        self.body_log = sorted(set(form.keys()))
        return form


def _query_log(query: QueryParams) -> dict[str, str]:
    return {k: ("***" if k == "token" else v) for k, v in query.items()}


def record(state: SimState, request: Request, body: Any, status: int) -> None:
    query = _query_log(request.query_params)
    log = state.requests
    log.append(LoggedRequest(request.method, request.url.path, query, body, status))
    if len(log) > REQUEST_LOG_LIMIT:
        del log[: len(log) - REQUEST_LOG_LIMIT // 2]


LEVEL_PARAMS = ("targetPartnerId", "targetResellerId", "targetOrganizationId")
"""Rule 9's parameters: where one is sent alone, `Ctx.level_target` checks it (a
restricted member's upfront check would refuse it for want of ``targetAccountId``)."""


class _Json(JSONResponse):
    """A JSON reply rendered by pydantic-core: the same bytes as Starlette's (compact,
    UTF-8, keys in order) at a fraction of the CPU. The simulator shares the machine
    with the console in the benches, where its encoding of 70-field configurations took
    a tenth of its time."""

    def render(self, content: Any) -> bytes:
        return to_json(content)


def wrap(handler: Handler, *, acts: bool = True) -> Callable[[Request], Awaitable[Response]]:
    async def run(request: Request) -> Response:
        state: SimState = request.app.state.sim
        faults = state.faults
        if faults.max_in_flight is None:
            return await serve(request, state, faults)
        if faults.in_flight >= faults.max_in_flight:  # the rate limit (faults.py)
            faults.throttled += 1
            record(state, request, None, 429)
            body = {"success": False, "message": sim_faults.ERROR_MESSAGES[429]}
            headers = {"Retry-After": str(faults.retry_after)}
            return JSONResponse(body, status_code=429, headers=headers)
        faults.in_flight += 1
        try:
            return await serve(request, state, faults)
        finally:
            faults.in_flight -= 1

    async def serve(request: Request, state: SimState, faults: sim_faults.Faults) -> Response:
        delay = state.latency_ms / 1000 + faults.delay()
        if delay > 0:
            await asyncio.sleep(delay)
        fault = faults.pick(request.method, request.url.path, request.url.query)
        if fault is not None:
            replaced = await sim_faults.before(fault, faults)
            if replaced is not None:
                record(state, request, None, replaced.status_code)
                return replaced
        ctx = Ctx(request, state)
        try:
            migrations.settle(state)
            ctx.caller = state.authenticate(request.query_params.get("token"))
            level_sent = any(name in ctx.query for name in LEVEL_PARAMS)
            if acts and not (level_sent and "targetAccountId" not in ctx.query):
                ctx.target  # noqa: B018 -- the scope check, before anything else
            else:
                ctx.described  # noqa: B018 -- a sent targetAccountId is checked alike
            result = await handler(ctx)
            if isinstance(result, Response):
                record(state, request, ctx.body_log, result.status_code)
                if fault is not None:
                    return sim_faults.after_stream(fault, result)
                return result
            status, body = result if isinstance(result, tuple) else (200, result)
        except SimError as exc:
            status, body = exc.status, {"success": False, "message": exc.message}
        except Exception:
            log.exception("simulator fault on %s %s", request.method, request.url.path)
            status, body = 500, {"success": False, "message": "Internal error"}
        record(state, request, ctx.body_log, status)
        if fault is not None and status < 400:
            return sim_faults.after(fault, status, body)
        return _Json(body, status_code=status)

    run.__name__ = handler.__name__
    return run


def route(path: str, handler: Handler, *methods: str, acts: bool = True) -> Route:
    """A Starlette route under ``/api/v2`` through :func:`wrap`.

    Args:
        path: the path below ``/api/v2``.
        handler: the coroutine that answers.
        methods: the HTTP methods (GET when none).
        acts: the route acts on the selected account (`Ctx.target`), resolved and
            checked before the handler runs. False for routes that describe the key
            owner (the account read, the relay types catalog) or name their account in
            the path (agent configurations, Computer Agents) or in another parameter
            (the child lists): their handler checks it.
    """
    return Route("/api/v2" + path, wrap(handler, acts=acts), methods=list(methods) or ["GET"])
