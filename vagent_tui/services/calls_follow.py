"""Following a query of the call log (``tail -f``): new entries as they arrive, polled
with backoff on failure (no Textual)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace

from vagent_tui.api.client import PlatformClient
from vagent_tui.api.errors import PlatformError
from vagent_tui.api.log_models import LogEntry
from vagent_tui.services.calls import CallFilters

Sleep = Callable[[float], Awaitable[object]]


def seconds_of(entry: LogEntry) -> int | None:
    """The entry's time in whole Unix seconds (None: it says none)."""
    moment = entry.at
    return int(moment.timestamp()) if moment is not None else None


class Follower:
    """New entries of a query as they arrive (``tail -f``), polling with backoff.

    The newest entry seen sets where the next poll starts: ``start`` is its second
    (the query's own ``end`` is dropped: following means up to now), and entries of that
    second already seen are skipped by id, so an entry is reported once. A poll reads up
    to ``max_pages`` pages of ``page_size``; more new entries than that sets ``gap``
    (the oldest of them were not read: the screen may say so).

    `run` polls every ``interval`` seconds; after a failure it waits twice as long each
    time (at most ``max_interval``) and tells ``on_error``; a success resets it.
    """

    def __init__(
        self,
        api: PlatformClient,
        filters: CallFilters,
        *,
        interval: float = 5.0,
        max_interval: float = 60.0,
        page_size: int = 200,
        max_pages: int = 5,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        self.api = api
        self.filters = replace(filters, end=None, preset=None)
        self.interval = interval
        self.max_interval = max_interval
        self.page_size = page_size
        self.max_pages = max_pages
        self.sleep = sleep
        self.newest: int | None = None
        self._seen_at_newest: set[str] = set()
        self.gap = False
        self.failures = 0
        self.delay = interval

    def prime(self, entries: Sequence[LogEntry]) -> None:
        """Start after these entries (the page shown, newest first)."""
        for entry in entries:
            self._note(entry)

    def _note(self, entry: LogEntry) -> None:
        at = seconds_of(entry)
        if at is None:
            return
        key = str(entry.id)
        if self.newest is None or at > self.newest:
            self.newest, self._seen_at_newest = at, {key}
        elif at == self.newest:
            self._seen_at_newest.add(key)

    async def poll(self) -> list[LogEntry]:
        """The entries that arrived since the newest seen, newest first.

        The first poll of an unprimed follower only finds where "now" is (returns []).
        """
        if self.newest is None:
            first = await self.api.list_logs(
                self.filters.query(), page=1, page_size=1, target=self.filters.account_id
            )
            self.prime(first.logs)
            return []
        start = max(self.newest, self.filters.start or self.newest)
        query = replace(self.filters, start=start)
        fresh: list[LogEntry] = []
        self.gap = False
        for page in range(1, self.max_pages + 1):
            got = await self.api.list_logs(
                query.query(), page=page, page_size=self.page_size, target=query.account_id
            )
            for entry in got.logs:
                at = seconds_of(entry)
                if at is not None and at == self.newest and str(entry.id) in self._seen_at_newest:
                    continue
                fresh.append(entry)
            if not got.has_more or not got.logs:
                break
        else:
            self.gap = True
        for entry in reversed(fresh):
            self._note(entry)
        return fresh

    async def run(
        self,
        on_new: Callable[[list[LogEntry]], object],
        on_error: Callable[[PlatformError, float], object] | None = None,
    ) -> None:
        """Poll until cancelled: ``on_new`` hears each non-empty batch (newest first),
        ``on_error`` each failure with the seconds until the next try."""
        while True:
            try:
                fresh = await self.poll()
            except PlatformError as exc:
                self.failures += 1
                self.delay = min(self.max_interval, self.interval * 2**self.failures)
                if on_error is not None:
                    on_error(exc, self.delay)
            else:
                self.failures, self.delay = 0, self.interval
                if fresh:
                    on_new(fresh)
            await self.sleep(self.delay)
