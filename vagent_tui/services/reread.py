"""Asking a read again when it failed for a reason that passes: the pages of a listing,
the reads of one account among many; and asking one read again and again until its
caller has seen enough (`poll`: a task followed until it ends).

The client already sends a GET again a few times on a transient fault
(`vagent_tui.api.transport`); what still fails after that budget is, on a flaky link,
most often one page out of many or one account out of hundreds. A listing that dropped
every page it had for that one, or a plan that gave up on the account, would get
nothing done: `read_again` asks that one read again, a few rounds more, each round the
client's whole budget again after a pause that carries its backoff on. Only reads, and
only for faults that pass (`vagent_tui.api.errors.transient`): a 4xx, an error envelope
or a refused token fail at once.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import TypeVar

from vagent_tui.api.errors import PlatformError, transient
from vagent_tui.api.transport import ApiTransport
from vagent_tui.words import counted

T = TypeVar("T")

READ_ROUNDS = 2
"""Rounds after the first: at 15 % of requests failing and the client's 3 attempts a
round, a read still fails after 3 rounds about once in a billion."""


def rounds_for(client: ApiTransport) -> int:
    """`READ_ROUNDS`, or none for a client told to retry nothing (``get_retries=0``) or
    one without a retry policy (a test's stand-in)."""
    return min(READ_ROUNDS, getattr(client, "get_retries", 0))


async def read_again(
    client: ApiTransport,
    read: Callable[[], Awaitable[T]],
    *,
    what: str = "",
    on_retry: Callable[[PlatformError], object] | None = None,
) -> T:
    """``read()``, asked again up to `rounds_for` times while it fails transiently.

    ``what`` names the read in the error raised when every round failed ("page 8 of
    the accounts below 1234"): the error keeps its kind and status, its message says what
    failed and how often it was asked. ``on_retry`` hears each failure asked again.
    """
    rounds = rounds_for(client)
    retries = getattr(client, "get_retries", 0)
    for round_ in range(rounds + 1):
        try:
            return await read()
        except PlatformError as exc:
            if round_ >= rounds or not transient(exc):
                if what and transient(exc):
                    asked = (rounds + 1) * (1 + retries)
                    raise exc.reworded(f"Could not read {what} (asked {counted(asked, 'time')}): "
                                       f"{exc.message}") from None  # fmt: skip
                raise
            if on_retry is not None:
                on_retry(exc)
        await asyncio.sleep(client.backoff_delay(retries + round_))
    raise AssertionError("unreachable")  # pragma: no cover


async def poll(
    read: Callable[[], Awaitable[T]], *, every: float, times: int
) -> AsyncIterator[T | PlatformError]:
    """``read()`` every ``every`` seconds, at most ``times`` times (a follow): each reply,
    or the `PlatformError` of a read that failed (the next is asked all the same). The
    caller stops it by leaving its loop."""
    for _ in range(times):
        await asyncio.sleep(every)
        try:
            got: T | PlatformError = await read()
        except PlatformError as exc:
            got = exc
        yield got
