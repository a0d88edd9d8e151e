"""Calls: what the agents did, for one account or every account below the key (no Textual).

What a Calls screen asks for, on the conversation logs (``GET /logs``) and the
conversations behind them (``POST /conversation/batch``):

* `CallFilters`: the query as a value (time range, account, event type, outcome,
  status, free ``key=value`` filters, fields), with the words that show it
  (`CallFilters.describe`) and its `LogQuery`;
* `CallPager` / `fetch_page`: server paging over a query of any size (only the page
  shown is ever fetched); `fetch_transcripts` reads the conversations of a page through
  the batch operation (one request per page, 200 entries at most each), and
  `TranscriptCache` keeps them so opening one from a page shown costs nothing;
* `Follower`: new entries since the newest seen (``tail -f``), polling with backoff
  on failure;
* `export_csv` / `export_jsonl`: the whole query to a file, streamed (never held whole),
  with progress callbacks and cancellation; the file is written beside its final name
  and moved there when complete, removed when cancelled or failed;
* `calls_last_24h`: the summary a fleet question shows (count, failed, by outcome).

Times sent are whole Unix seconds; the client's clock decides "the last 24 hours".
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from vagent_tui.api.client import PlatformClient
from vagent_tui.api.errors import ApiError, PlatformError
from vagent_tui.api.log_models import (
    MAX_BATCH,
    MAX_PAGE_SIZE,
    BatchResult,
    ConversationRef,
    LogEntry,
    LogPage,
    LogQuery,
)

HOUR = 3600
DAY = 24 * HOUR
WEEK = 7 * DAY
PRESETS: dict[str, int] = {"hour": HOUR, "day": DAY, "week": WEEK}
"""The time ranges offered by name: the last hour, day or week."""
PAGE_SIZES = (50, 100, 200, 500)
DEFAULT_PAGE_SIZE = 100

Sleep = Callable[[float], Awaitable[object]]


# --------------------------------------------------------------------------- the query


_RELATIVE = re.compile(r"^-?\s*(\d+)\s*([smhdw])$")
_UNITS = {"s": 1, "m": 60, "h": HOUR, "d": DAY, "w": WEEK}


def parse_time(text: str, *, now: float) -> int:
    """A moment typed by a person, as Unix seconds.

    Accepts whole Unix seconds (``1763640000``), a time back from ``now`` (``90m``,
    ``-2h``, ``3d``, ``1w``) and ISO 8601 (``2025-11-20``, ``2025-11-20T14:30``, with
    ``Z`` or an offset; without one it is UTC). Raises ValueError with a message for
    the field.
    """
    value = text.strip()
    if not value:
        raise ValueError("a time is needed")
    if value.isdecimal():
        return int(value)
    relative = _RELATIVE.match(value.lower())
    if relative:
        return int(now) - int(relative.group(1)) * _UNITS[relative.group(2)]
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00").replace(" ", "T", 1))
    except ValueError:
        raise ValueError(
            f"{value!r} is not a time: try 2h, 3d, 2025-11-20T14:30 or Unix seconds"
        ) from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return int(moment.timestamp())


@dataclass(frozen=True)
class CallFilters:
    """One query of the call log, as the screen holds it (a value: change by `replace`).

    ``account_id`` is the account the query covers (``targetAccountId``: an agent, or
    a level whose agents all count); None is the key owner's own scope. ``start`` /
    ``end`` are Unix seconds (None: the platform's default, the last 7 days up to now).
    ``event_type``, ``outcome`` (``agentOutcome``) and ``status`` are filters like the
    free ``extra`` ones (``key=value``, sent as given).
    """

    start: int | None = None
    end: int | None = None
    account_id: int | None = None
    event_type: str | None = None
    outcome: str | None = None
    status: str | None = None
    extra: tuple[tuple[str, str], ...] = ()
    fields: tuple[str, ...] = ()
    preset: str | None = None
    """The name of the time range (``hour``/``day``/``week``) when it came from one."""

    @classmethod
    def last(cls, preset: str, *, now: float, **others: Any) -> CallFilters:
        """The last hour, day or week up to ``now`` (``preset`` a key of `PRESETS`)."""
        seconds = PRESETS[preset]
        return cls(start=int(now) - seconds, end=None, preset=preset, **others)

    def with_range(self, start: int | None, end: int | None) -> CallFilters:
        """Another time range (typed: no preset). Raises ValueError if start > end."""
        if start is not None and end is not None and start > end:
            raise ValueError("the start must not be after the end")
        return replace(self, start=start, end=end, preset=None)

    def cleared(self) -> CallFilters:
        """No filters (the account and the fields stay: they are where, not what)."""
        return CallFilters(account_id=self.account_id, fields=self.fields)

    def pairs(self) -> tuple[tuple[str, str], ...]:
        named = (("eventType", self.event_type), ("agentOutcome", self.outcome),
                 ("status", self.status))  # fmt: skip
        return tuple((k, v) for k, v in named if v) + self.extra

    def query(self) -> LogQuery:
        """The request's `LogQuery`; ValueError for a filter that cannot be sent."""
        return LogQuery(start=self.start, end=self.end, fields=self.fields, filters=self.pairs())

    def describe(self, *, local: bool = False) -> list[str]:
        """The active filters as short texts, in a stable order (for the filter line)."""
        out: list[str] = []
        if self.preset:
            out.append(f"last {self.preset}")
        elif self.start is not None or self.end is not None:
            out.append(f"{_when(self.start, local)} → {_when(self.end, local)}")
        else:
            out.append("last 7 days")
        if self.account_id is not None:
            out.append(f"account #{self.account_id}")
        out.extend(f"{key}={value}" for key, value in self.pairs())
        return out

    @property
    def active(self) -> bool:
        """Whether anything narrows the query beyond the platform's defaults."""
        return bool(self.pairs()) or self.start is not None or self.end is not None


def _when(seconds: int | None, local: bool) -> str:
    if seconds is None:
        return "now"
    moment = datetime.fromtimestamp(seconds, UTC)
    if local:
        moment = moment.astimezone()
    return moment.strftime("%Y-%m-%d %H:%M") + ("" if local else " UTC")


# --------------------------------------------------------------------------- pages


@dataclass(frozen=True)
class CallsPage:
    """One page as fetched: where it is, what it holds, how many match in all."""

    filters: CallFilters
    page: int
    page_size: int
    total: int
    entries: tuple[LogEntry, ...]
    field_names: tuple[str, ...] = ()
    has_more: bool = False

    @property
    def last_page(self) -> int:
        return max(1, (self.total + self.page_size - 1) // self.page_size)

    @property
    def label(self) -> str:
        """``101–200 of 1,000,000``; ``0 of 0`` when nothing matches."""
        if self.total <= 0:
            return "0 of 0"
        first = (self.page - 1) * self.page_size + 1
        if first > self.total:
            return f"– of {self.total:,}"
        return f"{first:,}–{min(self.total, first + self.page_size - 1):,} of {self.total:,}"


async def fetch_page(
    api: PlatformClient,
    filters: CallFilters,
    page: int = 1,
    page_size: int = DEFAULT_PAGE_SIZE,
    *,
    include_fields: bool = False,
) -> CallsPage:
    """One page of the query (``page`` from 1); ValueError for a query that cannot be
    sent (nothing is), `PlatformError` as the client raises it."""
    reply: LogPage = await api.list_logs(
        filters.query(),
        page=page,
        page_size=page_size,
        include_fields=include_fields,
        target=filters.account_id,
    )
    return CallsPage(
        filters=filters,
        page=page,
        page_size=page_size,
        total=reply.total,
        entries=tuple(reply.logs),
        field_names=tuple(reply.field_names),
        has_more=reply.has_more,
    )


@dataclass
class CallPager:
    """Where the user stands in a query; the server says how many entries match.

    The screen's worker calls `fetch` (or `fetch_at`) and hands the page to `show`,
    which moves the pager only if the page is for the query in force (a reply to an
    older query is dropped: `show` returns False).
    """

    filters: CallFilters = field(default_factory=CallFilters)
    page: int = 1
    page_size: int = DEFAULT_PAGE_SIZE
    total: int = 0
    current: CallsPage | None = None

    @property
    def last_page(self) -> int:
        return max(1, (self.total + self.page_size - 1) // self.page_size)

    @property
    def label(self) -> str:
        return self.current.label if self.current else "—"

    def set_filters(self, filters: CallFilters) -> None:
        """A new query: back to its first page."""
        self.filters, self.page = filters, 1

    def target_page(self, move: str) -> int:
        """The page a move leads to: ``first``, ``prev``, ``next``, ``last`` (clamped)."""
        moves = {"first": 1, "prev": self.page - 1, "next": self.page + 1, "last": self.last_page}
        return max(1, min(self.last_page, moves[move]))

    async def fetch_at(self, api: PlatformClient, page: int) -> CallsPage:
        return await fetch_page(api, self.filters, page, self.page_size)

    async def fetch(self, api: PlatformClient, move: str | None = None) -> CallsPage:
        """The page in force, or the one ``move`` leads to."""
        return await self.fetch_at(api, self.page if move is None else self.target_page(move))

    def show(self, page: CallsPage) -> bool:
        if page.filters != self.filters or page.page_size != self.page_size:
            return False
        self.page, self.total, self.current = page.page, page.total, page
        return True


# --------------------------------------------------------------------------- transcripts


def refs_of(entries: Iterable[LogEntry]) -> list[ConversationRef]:
    """The conversations a page's entries name, once each, in order."""
    return list(dict.fromkeys(r for r in (e.conversation_ref for e in entries) if r is not None))


async def fetch_transcripts(
    api: PlatformClient, entries: Iterable[LogEntry], *, target: int | None = None
) -> dict[ConversationRef, BatchResult]:
    """The conversations behind a page's entries, by reference: one batch request per
    200 conversations (one for a page of up to 200), never one per row. Entries that
    name no conversation are left out; a failed item is a result with ``ok`` False."""
    refs = refs_of(entries)
    if not refs:
        return {}
    reply = await api.get_conversations(refs, target=target)
    return reply.by_ref()


class TranscriptCache:
    """The conversations fetched with the pages shown, the most recent ``limit`` kept."""

    def __init__(self, limit: int = 2_000) -> None:
        self.limit = limit
        self._items: OrderedDict[ConversationRef, BatchResult] = OrderedDict()

    def __len__(self) -> int:
        return len(self._items)

    def add(self, results: dict[ConversationRef, BatchResult]) -> None:
        for ref, result in results.items():
            self._items[ref] = result
            self._items.move_to_end(ref)
        while len(self._items) > self.limit:
            self._items.popitem(last=False)

    def get(self, entry: LogEntry) -> BatchResult | None:
        ref = entry.conversation_ref
        return self._items.get(ref) if ref is not None else None

    def missing(self, entries: Iterable[LogEntry]) -> list[LogEntry]:
        """The entries whose conversation is not here yet (and that name one)."""
        return [
            e for e in entries if e.conversation_ref is not None and self.get(e) is None
        ]  # fmt: skip

    def clear(self) -> None:
        self._items.clear()


# --------------------------------------------------------------------------- follow


def _seconds(entry: LogEntry) -> int | None:
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
        at = _seconds(entry)
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
            first = await fetch_page(self.api, self.filters, 1, 1)
            self.prime(first.entries)
            return []
        start = max(self.newest, self.filters.start or self.newest)
        query = replace(self.filters, start=start)
        fresh: list[LogEntry] = []
        self.gap = False
        for page in range(1, self.max_pages + 1):
            got = await fetch_page(self.api, query, page, self.page_size)
            for entry in got.entries:
                at = _seconds(entry)
                if at is not None and at == self.newest and str(entry.id) in self._seen_at_newest:
                    continue
                fresh.append(entry)
            if not got.has_more or not got.entries:
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


# --------------------------------------------------------------------------- export


@dataclass(frozen=True)
class ExportProgress:
    """How far an export is: rows and bytes written, rows expected (None: unknown)."""

    rows: int
    bytes: int
    expected: int | None

    @property
    def fraction(self) -> float | None:
        if not self.expected:
            return None
        return min(1.0, self.rows / self.expected)


@dataclass(frozen=True)
class ExportResult:
    """What an export left: the file (None when nothing was kept), rows, bytes, and
    whether it was cancelled or matched nothing."""

    path: Path | None
    rows: int
    bytes: int
    cancelled: bool = False
    empty: bool = False


Progress = Callable[[ExportProgress], object]


class _RowCounter:
    """Counts CSV records in a byte stream: line ends outside quoted fields."""

    def __init__(self) -> None:
        self.quoted = False
        self.lines = 0

    def feed(self, chunk: bytes) -> None:
        # One step per line, not per quoted field: a line end counts unless an odd
        # number of quotes since the last counted one left a field open.
        pieces = chunk.split(b"\n")
        quoted = self.quoted
        lines = 0
        for piece in pieces[:-1]:
            if piece.count(b'"') & 1:
                quoted = not quoted
            if not quoted:
                lines += 1
        if pieces[-1].count(b'"') & 1:
            quoted = not quoted
        self.quoted = quoted
        self.lines += lines


def _partial(path: Path) -> Path:
    return path.with_name(path.name + ".partial")


async def _expected(api: PlatformClient, filters: CallFilters) -> int | None:
    """How many entries the query matches (one page of one entry), None if unknown."""
    try:
        return (await fetch_page(api, filters, 1, 1)).total
    except PlatformError:
        return None


async def export_csv(
    api: PlatformClient,
    filters: CallFilters,
    path: Path | str,
    *,
    on_progress: Progress | None = None,
    cancel: asyncio.Event | None = None,
    count_first: bool = True,
) -> ExportResult:
    """The whole query as CSV (``format=csv``, the platform's columns) into ``path``.

    Streamed: each chunk is written as it arrives. ``on_progress`` hears each chunk
    written (``expected`` from a first count when ``count_first``); setting ``cancel``
    (or cancelling the task) stops it. The file is written as ``<path>.partial`` and
    renamed to ``path`` when complete; a cancelled or failed export leaves no file
    (a failure raises; a cancel through ``cancel`` returns ``cancelled``; a query
    matching nothing returns ``empty``). The key is masked by the client should the
    platform echo it.
    """
    target = Path(path)
    expected = await _expected(api, filters) if count_first else None
    counter = _RowCounter()
    written = 0
    partial = _partial(target)
    stream = api.stream_logs_csv(filters.query(), target=filters.account_id)
    kept = False
    try:
        with partial.open("wb") as out:
            try:
                async for chunk in stream:
                    out.write(chunk)
                    written += len(chunk)
                    counter.feed(chunk)
                    rows = max(0, counter.lines - 1)  # the header is no row
                    if on_progress is not None:
                        on_progress(ExportProgress(rows, written, expected))
                    if cancel is not None and cancel.is_set():
                        return ExportResult(None, rows, written, cancelled=True)
            except ApiError as exc:
                if exc.status == 404:
                    return ExportResult(None, 0, 0, empty=True)
                raise
        rows = max(0, counter.lines - 1)
        if on_progress is not None:
            on_progress(ExportProgress(rows, written, rows))
        os.replace(partial, target)
        kept = True
        return ExportResult(target, rows, written)
    finally:
        with contextlib.suppress(Exception):
            await stream.aclose()
        if not kept:
            with contextlib.suppress(OSError):
                partial.unlink()


async def export_jsonl(
    api: PlatformClient,
    filters: CallFilters,
    path: Path | str,
    *,
    page_size: int = 1_000,
    on_progress: Progress | None = None,
    cancel: asyncio.Event | None = None,
) -> ExportResult:
    """The whole query as JSON lines (one entry per line, as the platform sent it),
    read page by page (``page_size`` entries held at a time) into ``path``.

    The query's end is pinned to the newest entry's second when the export starts, so
    entries arriving meanwhile do not shift the pages under it. Progress, cancel and the
    file's life as in `export_csv`; a query matching nothing gives an empty file.
    """
    if not 1 <= page_size <= MAX_PAGE_SIZE:
        raise ValueError(f"page size must be between 1 and {MAX_PAGE_SIZE:,}")
    target = Path(path)
    partial = _partial(target)
    first = await fetch_page(api, filters, 1, 1)
    expected = first.total
    pinned = filters
    if filters.end is None and first.entries and (at := _seconds(first.entries[0])) is not None:
        pinned = replace(filters, end=at)
    rows = written = 0
    kept = False
    try:
        with partial.open("wb") as out:
            page = 1
            while True:
                got = await fetch_page(api, pinned, page, page_size)
                lines = [
                    api.redact(json.dumps(e.wire(), ensure_ascii=False, default=str)) + "\n"
                    for e in got.entries
                ]
                data = "".join(lines).encode("utf-8")
                out.write(data)
                rows += len(lines)
                written += len(data)
                if on_progress is not None:
                    on_progress(ExportProgress(rows, written, expected))
                if cancel is not None and cancel.is_set():
                    return ExportResult(None, rows, written, cancelled=True)
                if not got.has_more or not got.entries:
                    break
                page += 1
        os.replace(partial, target)
        kept = True
        return ExportResult(target, rows, written, empty=rows == 0)
    finally:
        if not kept:
            with contextlib.suppress(OSError):
                partial.unlink()


# --------------------------------------------------------------------------- fleet


@dataclass(frozen=True)
class CallsSummary:
    """Calls of one account in a time range: how many, how many failed, by outcome."""

    count: int
    failed: int
    by_outcome: tuple[tuple[str, int], ...]
    """``(agentOutcome, count)``, most frequent first; ``—`` for entries without one."""

    def outcome_texts(self) -> tuple[str, ...]:
        return tuple(f"{name} {n}" for name, n in self.by_outcome)


SUMMARY_FIELDS = ("id", "timestamp", "type", "eventType", "status", "agentOutcome")


def _is_call(entry: LogEntry) -> bool:
    """An entry of a call: ``type`` ``call``, else an ``eventType`` naming one; an
    entry that says neither counts as a call (the platform's entries are calls and
    messages; nothing else is known)."""
    kind = entry.type if isinstance(entry.type, str) else None
    if kind:
        return kind.lower() == "call"
    event = entry.event_type if isinstance(entry.event_type, str) else None
    if event:
        return "call" in event.lower()
    return True


async def calls_summary(
    api: PlatformClient,
    account_id: int | None,
    *,
    start: int,
    end: int | None = None,
    max_pages: int = 10,
) -> CallsSummary:
    """Count the calls of ``account_id`` in ``[start, end]``: pages of 10,000 entries
    with only the fields it needs (one request for up to 10,000 entries)."""
    filters = CallFilters(start=start, end=end, account_id=account_id, fields=SUMMARY_FIELDS)
    count = failed = 0
    outcomes: dict[str, int] = {}
    for page in range(1, max_pages + 1):
        got = await fetch_page(api, filters, page, MAX_PAGE_SIZE)
        for entry in got.entries:
            if not _is_call(entry):
                continue
            count += 1
            failed += entry.failed
            outcome = entry.agent_outcome
            name = outcome if isinstance(outcome, str) and outcome else "—"
            outcomes[name] = outcomes.get(name, 0) + 1
        if not got.has_more or not got.entries:
            break
    ranked = tuple(sorted(outcomes.items(), key=lambda kv: (-kv[1], kv[0])))
    return CallsSummary(count, failed, ranked)


async def calls_last_24h(
    api: PlatformClient, account_id: int, *, now: float | None = None
) -> CallsSummary:
    """`calls_summary` of the 24 hours up to ``now`` (the client's clock by default)."""
    moment = int(time.time() if now is None else now)
    return await calls_summary(api, account_id, start=moment - DAY)


__all__ = [
    "DAY",
    "MAX_BATCH",
    "PAGE_SIZES",
    "PRESETS",
    "CallFilters",
    "CallPager",
    "CallsPage",
    "CallsSummary",
    "ExportProgress",
    "ExportResult",
    "Follower",
    "TranscriptCache",
    "calls_last_24h",
    "calls_summary",
    "export_csv",
    "export_jsonl",
    "fetch_page",
    "fetch_transcripts",
    "parse_time",
    "refs_of",
]
