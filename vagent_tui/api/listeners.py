"""Who hears of a request besides its caller: the observers and the pressure hook.

An observer (the journal, the console's status line) hears each request's outcome once,
as an `Exchange` that never holds the token (`vagent_tui.api.transport`). The pressure
hook hears every 429 and 503 reply, attempt by attempt, of the requests sent from one
context (the fleet's adaptive limit: `listen_for_pressure`).
"""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from vagent_tui.api.replies import Reply


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
    reads: bool = False
    """A POST that only reads (`ApiTransport.request`'s ``reads``): not a change."""
    writes: bool = False
    """A GET that changes the platform (`ApiTransport.request`'s ``writes``): a change."""

    @property
    def is_change(self) -> bool:
        """Whether the request may have changed the platform (the journal keeps those)."""
        if self.writes:
            return True
        return not self.reads and self.method.upper() not in ("GET", "HEAD", "OPTIONS")


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


def retry_after_seconds(response: Reply) -> float | None:
    """The ``Retry-After`` header in seconds (the delta form), or None."""
    value = response.headers.get("Retry-After", "").strip()
    return float(value) if value.isdecimal() else None


def hear_pressure(response: Reply) -> None:
    """Tell the current context's pressure hook of ``response`` if it is a 429 or 503."""
    if response.status_code in PRESSURE_STATUSES:
        hook = _pressure.get()
        if hook is not None:
            hook(response.status_code, retry_after_seconds(response))
