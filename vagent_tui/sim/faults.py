"""Fault injection for the simulator: slow, failing and misbehaving replies on purpose.

A :class:`Faults` object lives on the simulator state (``state.faults``); tests change
it at run time (``state.faults.set("503")``, ``state.faults.lift()``), the command line
builds it (``vagent-tui sim --latency-ms M --jitter-ms J --fail-rate F --fault KIND``)
and ``create_app(faults=...)`` takes one. Every request goes through it in the endpoint
wrapper (`vagent_tui.sim.endpoint.wrap`):

1. the added latency, ``latency_ms`` plus a uniformly random ``0..jitter_ms``;
2. with probability ``rate`` (and only on requests matching ``methods``/``path_contains``,
   while ``remaining`` is not used up) one of ``kinds`` is chosen at random.

Kinds that answer *instead of* the handler (nothing changes on the platform):

* ``timeout``: the reply never comes; the request sleeps ``timeout_seconds`` (one hour
  by default, far beyond any client timeout; cancellable, so an in-process client that
  gives up ends it);
* ``500`` / ``503``: an error envelope ``{"success": false, "message": ...}``;
* ``429``: an error envelope with a ``Retry-After: <retry_after>`` header;
* ``refused``: no reply: the connection is dropped (over loopback the status line goes
  out, then the socket closes; in-process the app raises `SimulatedDrop`, which the
  client reports as a transport failure).

Kinds that alter the reply of the handler (the request *was* carried out, as when a
real reply is mangled on its way back):

* ``malformed``: a body that is not JSON (status 200, JSON content type);
* ``truncated``: the real reply cut in half (its Content-Length matches the cut body);
* ``cut``: the connection dropped mid-body: the real reply's status, headers and full
  Content-Length go out, then half its body, then the connection closes (in-process the
  app raises `SimulatedDrop` after the first half, which the client reports as a
  transport failure);
* ``wrong-types``: every top-level field except ``success``/``message`` gets a value of
  another type (strings become numbers, numbers strings, lists strings, objects lists);
* ``extra-fields``: unknown fields added to every object of the reply;
* ``unknown-status``: every ``status``/``state``/``analysisStatus`` value (migration
  tasks, workflow recordings) replaced by a status no client knows.

A streamed reply (the logs' CSV file) hit by one of them starts and is then dropped
after its first chunk (`after_stream`). Error replies of the handler itself (4xx) are
never altered. ``rate`` defaults to 1 when
kinds are given; an empty ``kinds`` with a ``rate`` picks from every kind (`ALL_KINDS`).
Each injected fault is appended to ``injected`` as ``(method, path, kind)``.

With a ``seed``, the draws come one after another from one generator: the same requests
in the same order fail alike. Requests sent concurrently reach the simulator in an order
the event loop decides, so a test that sends many at once sets ``keyed``: then each
request's draw depends only on the seed, the request (method, path, query) and how many
times that same request came before, whatever came between.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass, field
from typing import Any

from starlette.responses import Response, StreamingResponse
from starlette.types import Receive, Scope, Send

BEFORE_KINDS = ("timeout", "500", "503", "429", "refused")
AFTER_KINDS = ("malformed", "truncated", "cut", "wrong-types", "extra-fields", "unknown-status")
ALL_KINDS: tuple[str, ...] = BEFORE_KINDS + AFTER_KINDS
"""Every fault kind, in a stable order."""

ERROR_MESSAGES = {
    500: "Simulated internal server error",
    503: "Service temporarily unavailable (simulated)",
    429: "Too many requests (simulated): slow down",
}
UNKNOWN_STATUS = "sim-unknown-status"
TIMEOUT_SECONDS_SERVED = 120.0
"""How long a ``timeout`` request sleeps over loopback: far beyond the client's 15 s."""
STATUS_KEYS = frozenset({"status", "state", "analysisStatus"})


class SimulatedDrop(ConnectionResetError):
    """Raised by the app to drop a connection without a reply (the ``refused`` fault)."""


def parse_kinds(values: Iterable[str]) -> list[str]:
    """Kinds from command-line values (repeatable, comma-separated); ``all`` = every kind.

    Raises ValueError naming an unknown kind.
    """
    kinds: list[str] = []
    for value in values:
        for raw in value.split(","):
            kind = raw.strip().lower()
            if not kind:
                continue
            if kind == "all":
                kinds.extend(ALL_KINDS)
            elif kind in ALL_KINDS:
                kinds.append(kind)
            else:
                raise ValueError(f"unknown fault kind {kind!r} (one of {', '.join(ALL_KINDS)})")
    return list(dict.fromkeys(kinds))


@dataclass
class Faults:
    """What goes wrong, how often, and where. Mutable: tests change it while running.

    Args:
        kinds: fault kinds to choose from (empty: none, unless ``rate`` is set: all).
        rate: fraction of matching requests that fail (0..1); None = 1 if kinds else 0.
        latency_ms / jitter_ms: delay added to every request (uniform jitter on top).
        seed: seed of the random choices (None: unpredictable).
        methods: only requests with these methods (None: all).
        path_contains: only requests whose path contains this text (None: all).
        remaining: fail at most this many requests, then behave (None: no limit).
        retry_after: the ``Retry-After`` seconds of ``429``.
        timeout_seconds: how long a ``timeout`` request sleeps.
        max_in_flight: a rate limit: a request arriving while this many are being
            served gets ``429`` with ``Retry-After: retry_after`` at once (None: no
            limit). The platform publishes none; this is how a client's back-off is tried.
        keyed: with a ``seed``, draw each request's fault from the request itself and
            how many times it came before (the module's docstring), not from the order
            in which requests arrive.
    """

    kinds: list[str] = field(default_factory=list)
    rate: float | None = None
    latency_ms: int = 0
    jitter_ms: int = 0
    seed: int | None = None
    methods: frozenset[str] | None = None
    path_contains: str | None = None
    remaining: int | None = None
    retry_after: int = 1
    timeout_seconds: float = 3600.0
    max_in_flight: int | None = None
    keyed: bool = False
    injected: list[tuple[str, str, str]] = field(default_factory=list)
    in_flight: int = 0
    throttled: int = 0
    """Requests refused by ``max_in_flight``."""

    def __post_init__(self) -> None:
        self.kinds = parse_kinds(self.kinds)
        if self.rate is not None and not 0.0 <= self.rate <= 1.0:
            raise ValueError("rate must be between 0 and 1")
        if self.latency_ms < 0 or self.jitter_ms < 0:
            raise ValueError("latency and jitter must be 0 or more")
        if self.max_in_flight is not None and self.max_in_flight < 1:
            raise ValueError("max in flight must be 1 or more")
        self.rng = random.Random(self.seed)
        self._seen: dict[tuple[str, str, str], int] = {}

    # ------------------------------------------------------------------ changing at run time

    def set(self, *kinds: str, rate: float = 1.0, **options: Any) -> Faults:
        """Fail from now on with ``kinds`` (at ``rate``); other fields by keyword.

        The filters (``methods``, ``path_contains``, ``remaining``) start afresh.
        """
        self.kinds = parse_kinds(kinds)
        self.rate = rate
        self.methods = self.path_contains = self.remaining = None
        for name, value in options.items():
            if not hasattr(self, name):
                raise AttributeError(name)
            setattr(self, name, value)
        return self

    def lift(self) -> None:
        """Stop failing (latency stays)."""
        self.kinds = []
        self.rate = None
        self.remaining = None

    @property
    def active(self) -> bool:
        return self.effective_rate > 0 and self.remaining != 0

    @property
    def effective_rate(self) -> float:
        if self.rate is None:
            return 1.0 if self.kinds else 0.0
        return self.rate

    # ------------------------------------------------------------------ per request

    def delay(self) -> float:
        """Seconds to wait before handling this request."""
        jitter = self.rng.uniform(0, self.jitter_ms) if self.jitter_ms else 0.0
        return (self.latency_ms + jitter) / 1000

    def pick(self, method: str, path: str, query: str = "") -> str | None:
        """The fault for this request, or None (``query``: the draw of ``keyed``)."""
        if not self.active:
            return None
        if self.methods is not None and method.upper() not in self.methods:
            return None
        if self.path_contains and self.path_contains not in path:
            return None
        rng = self.rng
        if self.keyed and self.seed is not None:
            key = (method.upper(), path, query)
            nth = self._seen[key] = self._seen.get(key, -1) + 1
            rng = random.Random(f"{self.seed}|{key[0]}|{path}|{query}|{nth}")
        if rng.random() >= self.effective_rate:
            return None
        kind = rng.choice(self.kinds or ALL_KINDS)
        if self.remaining is not None:
            self.remaining -= 1
        self.injected.append((method, path, kind))
        return kind

    def count(self, kind: str | None = None) -> int:
        return sum(1 for *_, k in self.injected if kind is None or k == kind)


# ---------------------------------------------------------------------- command line


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The fault options of ``vagent-tui sim`` and ``python -m vagent_tui.sim``."""
    parser.add_argument("--jitter-ms", type=int, default=0, metavar="J",
                        help="random extra latency of each reply, 0..J ms")  # fmt: skip
    parser.add_argument(
        "--fail-rate",
        type=float,
        default=None,
        metavar="F",
        help="fraction 0..1 of requests that fail (with the --fault kinds, or a mix of all)",
    )
    parser.add_argument(
        "--fault",
        action="append",
        default=[],
        metavar="KIND",
        help=f"fault kind, repeatable or comma-separated: {', '.join(ALL_KINDS)}, all",
    )
    parser.add_argument("--fault-seed", type=int, default=None, metavar="N",
                        help="seed of the fault draws (repeatable runs)")  # fmt: skip
    parser.add_argument("--max-in-flight", type=int, default=None, metavar="N",
                        help="a rate limit: 429 + Retry-After past N requests at once")  # fmt: skip


def from_args(args: argparse.Namespace, parser: argparse.ArgumentParser) -> Faults:
    """Build the faults of the command line; bad values end with a usage error."""
    try:
        kinds = parse_kinds(args.fault)
        rate = args.fail_rate
        if rate is None and not kinds:
            rate = 0.0
        return Faults(kinds=kinds, rate=rate, latency_ms=0, jitter_ms=args.jitter_ms,
                      seed=args.fault_seed, timeout_seconds=TIMEOUT_SECONDS_SERVED,
                      max_in_flight=getattr(args, "max_in_flight", None))  # fmt: skip
    except ValueError as exc:
        parser.error(str(exc))
        raise  # pragma: no cover - parser.error exits


def describe(faults: Faults, latency_ms: int = 0) -> str:
    """One line for the simulator's banner (``latency_ms``: the state's own latency)."""
    parts = []
    latency = latency_ms + faults.latency_ms
    if latency or faults.jitter_ms:
        parts.append(f"latency {latency} ms + jitter 0..{faults.jitter_ms} ms")
    if faults.active:
        kinds = ", ".join(faults.kinds) if faults.kinds else "a mix of every kind"
        parts.append(f"{faults.effective_rate:.0%} of requests fail with {kinds}")
    if faults.max_in_flight is not None:
        parts.append(f"429 past {faults.max_in_flight} requests at once")
    return "Faults: " + ("; ".join(parts) if parts else "none")


# ---------------------------------------------------------------------- replies


class CutResponse(Response):
    """Sends the status, the headers with the whole body's length and half the body,
    then drops the connection (the ``cut`` fault)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await send({"type": "http.response.start", "status": self.status_code,
                    "headers": self.raw_headers})  # fmt: skip
        body = bytes(self.body)
        await send({"type": "http.response.body", "body": body[: max(1, len(body) // 2)],
                    "more_body": True})  # fmt: skip
        raise SimulatedDrop("connection dropped by the simulator mid-body")


class DropResponse(Response):
    """Starts a reply, then drops the connection (the ``refused`` fault)."""

    def __init__(self) -> None:
        super().__init__(b"", status_code=0)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": []})
        raise SimulatedDrop("connection dropped by the simulator")


async def before(kind: str, faults: Faults) -> Response | None:
    """The reply that replaces the handler's, or None when ``kind`` alters replies.

    Its ``status_code`` is what the request log records (0: no reply).
    """
    if kind == "timeout":
        await asyncio.sleep(faults.timeout_seconds)
        return _json(504, {"success": False, "message": "Gateway timeout (simulated)"})
    if kind == "refused":
        return DropResponse()
    if kind in ("500", "503", "429"):
        status = int(kind)
        body = {"success": False, "message": ERROR_MESSAGES[status]}
        headers = {"Retry-After": str(faults.retry_after)} if status == 429 else None
        return _json(status, body, headers)
    return None


def after(kind: str, status: int, body: dict[str, Any] | list[Any]) -> Response:
    """The handler's reply, altered by ``kind`` (a bare array's records by ``wrong-types``)."""
    if kind == "malformed":
        raw = b'{"success": true, "message": "oops", ]]'
        return Response(raw, status_code=status, media_type="application/json")
    if kind == "truncated":
        raw = _dump(body)
        return Response(raw[: max(1, len(raw) // 2)], status_code=status,
                        media_type="application/json")  # fmt: skip
    if kind == "cut":
        return CutResponse(_dump(body), status_code=status, media_type="application/json")
    if kind == "wrong-types":
        body = _wrong_record(body)
    elif kind == "extra-fields":
        body = _extra(body)
    elif kind == "unknown-status":
        body = _unknown_status(body)
    return _json(status, body)


def after_stream(kind: str, response: Response) -> Response:
    """A streamed reply (a CSV file) hit by an altering fault: it starts, then the
    connection drops after its first chunk (a body cannot be mangled before it exists)."""
    if not isinstance(response, StreamingResponse):
        return response
    source = response.body_iterator

    async def cut() -> AsyncIterator[Any]:
        async for chunk in source:
            yield chunk
            break
        raise SimulatedDrop(f"stream dropped by the simulator ({kind})")

    response.body_iterator = cut()
    return response


def _dump(body: Any) -> bytes:
    return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()


def _json(status: int, body: Any, headers: dict[str, str] | None = None) -> Response:
    return Response(_dump(body), status_code=status, headers=headers,
                    media_type="application/json")  # fmt: skip


def _wrong_record(value: Any) -> Any:
    """Every field of a reply (of each record of a bare array) of another type."""
    if isinstance(value, list):
        return [_wrong_record(v) if isinstance(v, dict) else _wrong(v) for v in value]
    if not isinstance(value, dict):
        return _wrong(value)
    return {k: (v if k in ("success", "message") else _wrong(v)) for k, v in value.items()}


def _wrong(value: Any) -> Any:
    if isinstance(value, bool):
        return "maybe"
    if isinstance(value, int | float):
        return "not a number"
    if isinstance(value, str):
        return 12345
    if isinstance(value, list):
        return "not a list"
    if isinstance(value, dict):
        return ["not", "an", "object"]
    return {"unexpected": True}


def _extra(value: Any) -> Any:
    if isinstance(value, dict):
        out = {k: _extra(v) for k, v in value.items()}
        out["simExtraField"] = {"nested": [1, "two", None]}
        out["zz_unknown"] = "[bold]not markup[/bold]"
        return out
    if isinstance(value, list):
        return [_extra(v) for v in value]
    return value


def _unknown_status(value: Any) -> Any:
    if isinstance(value, dict):
        return {
            k: (UNKNOWN_STATUS if k in STATUS_KEYS and isinstance(v, str) else _unknown_status(v))
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [_unknown_status(v) for v in value]
    return value
