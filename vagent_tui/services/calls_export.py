"""The whole query of the call log, streamed (no Textual): one engine, two ends.

The engine reads the query as the platform gives it, never holding it whole:
`csv_chunks` (the platform's CSV, ``format=csv``, chunk by chunk as it arrives) and
`EntryLines` (every entry as a JSON line, page by page, the query's end pinned when it
starts). Its two ends: the Calls screen's ``w`` (`export_csv` / `export_jsonl`: a file,
with progress callbacks and cancellation; written beside its final name and moved there
when complete, removed when cancelled or failed) and ``vagent-tui get calls`` (the same
chunks and lines to stdout, `CsvRecords` cutting the CSV into records so that each
cell is written formula-safe).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import AsyncGenerator, Callable
from contextlib import aclosing
from dataclasses import dataclass, replace
from pathlib import Path

from vagent_tui import json_text
from vagent_tui.api.client import PlatformClient
from vagent_tui.api.errors import ApiError, PlatformError
from vagent_tui.api.log_models import MAX_PAGE_SIZE
from vagent_tui.csv_text import rows_of
from vagent_tui.services.calls import CallFilters
from vagent_tui.services.calls_follow import seconds_of


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


async def expected_count(api: PlatformClient, filters: CallFilters) -> int | None:
    """How many entries the query matches (one page of one entry), None if unknown."""
    try:
        first = await api.list_logs(filters.query(), page=1, page_size=1, target=filters.account_id)
    except PlatformError:
        return None
    return first.total


# --------------------------------------------------------------------------- the engine


async def csv_chunks(api: PlatformClient, filters: CallFilters) -> AsyncGenerator[bytes, None]:
    """The platform's CSV of the whole query (``format=csv``: a header of its columns, or
    of ``filters.fields``, then a row per entry), chunk by chunk as it arrives; nothing
    when no entry matches (the platform's 404). Leaving early closes the connection. The
    key is masked by the client should the platform echo it."""
    stream = api.stream_logs_csv(filters.query(), target=filters.account_id)
    async with aclosing(stream):
        try:
            async for chunk in stream:
                yield chunk
        except ApiError as exc:
            if exc.status != 404:
                raise


class CsvRecords:
    """The records of a CSV byte stream, as its chunks arrive (a record cut between two
    chunks waits for the next). `feed` a chunk, `end` after the last one; `feed_text` and
    `end_text` give the same records as their text, unparsed."""

    def __init__(self) -> None:
        self._pending = b""
        self.rows = 0
        """Rows read so far by `feed` and `end`, the header included."""

    def feed(self, chunk: bytes) -> list[list[str]]:
        """The rows completed by ``chunk``."""
        return self._read(self.feed_text(chunk))

    def end(self) -> list[list[str]]:
        """The last row, when the stream ended without a line end."""
        return self._read(self.end_text())

    def feed_text(self, chunk: bytes) -> str:
        """The text of the records completed by ``chunk`` (each with its line end)."""
        data = self._pending + chunk
        # A line end ends a record unless an odd number of quotes since the record's
        # start left a field open (RFC 4180: a quote inside a field is doubled).
        quoted = False
        cut = at = 0
        for piece in data.split(b"\n")[:-1]:
            at += len(piece) + 1
            if piece.count(b'"') & 1:
                quoted = not quoted
            if not quoted:
                cut = at
        self._pending = data[cut:]
        return data[:cut].decode("utf-8", errors="replace")

    def end_text(self) -> str:
        """The last record's text, when the stream ended without a line end."""
        rest, self._pending = self._pending, b""
        return rest.decode("utf-8", errors="replace")

    def _read(self, text: str) -> list[list[str]]:
        rows = rows_of(text)
        self.rows += len(rows)
        return rows


class EntryLines:
    """The whole query as JSON lines (one entry each, as the platform sent it, the key
    masked), read page by page (``page_size`` entries held at a time).

    The query's end is pinned to the newest entry's second when `pages` starts, so
    entries arriving meanwhile do not shift the pages under it; `expected` is then the
    number the query matched.
    """

    def __init__(self, api: PlatformClient, filters: CallFilters, page_size: int = 1_000) -> None:
        if not 1 <= page_size <= MAX_PAGE_SIZE:
            raise ValueError(f"page size must be between 1 and {MAX_PAGE_SIZE:,}")
        self.api = api
        self.filters = filters
        self.page_size = page_size
        self.expected: int | None = None

    async def pages(self) -> AsyncGenerator[list[str], None]:
        """Each page's lines (without their line ends), as the pages arrive."""
        api, filters = self.api, self.filters
        first = await api.list_logs(filters.query(), page=1, page_size=1, target=filters.account_id)
        self.expected = first.total
        pinned = filters
        if filters.end is None and first.logs and (at := seconds_of(first.logs[0])) is not None:
            pinned = replace(filters, end=at)
        query, page = pinned.query(), 1
        while True:
            got = await api.list_logs(
                query, page=page, page_size=self.page_size, target=pinned.account_id
            )
            yield [api.redact(json_text.dumps(e.wire())) for e in got.logs]
            if not got.has_more or not got.logs:
                return
            page += 1


# --------------------------------------------------------------------------- to a file


async def export_csv(
    api: PlatformClient,
    filters: CallFilters,
    path: Path | str,
    *,
    on_progress: Progress | None = None,
    cancel: asyncio.Event | None = None,
    count_first: bool = True,
) -> ExportResult:
    """The whole query as CSV (`csv_chunks`: the platform's columns) into ``path``.

    Streamed: each chunk is written as it arrives. ``on_progress`` hears each chunk
    written (``expected`` from a first count when ``count_first``); setting ``cancel``
    (or cancelling the task) stops it. The file is written as ``<path>.partial`` and
    renamed to ``path`` when complete; a cancelled or failed export leaves no file
    (a failure raises; a cancel through ``cancel`` returns ``cancelled``; a query
    matching nothing returns ``empty``).
    """
    target = Path(path)
    expected = await expected_count(api, filters) if count_first else None
    counter = _RowCounter()
    written = 0
    partial = _partial(target)
    stream = csv_chunks(api, filters)
    kept = False
    try:
        with partial.open("wb") as out:
            async for chunk in stream:
                out.write(chunk)
                written += len(chunk)
                counter.feed(chunk)
                rows = max(0, counter.lines - 1)  # the header is no row
                if on_progress is not None:
                    on_progress(ExportProgress(rows, written, expected))
                if cancel is not None and cancel.is_set():
                    return ExportResult(None, rows, written, cancelled=True)
        if not written:
            return ExportResult(None, 0, 0, empty=True)
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
    """The whole query as JSON lines (`EntryLines`) into ``path``.

    Progress, cancel and the file's life as in `export_csv`; a query matching nothing
    gives an empty file.
    """
    target = Path(path)
    partial = _partial(target)
    lines = EntryLines(api, filters, page_size)
    rows = written = 0
    kept = False
    pages = lines.pages()
    try:
        with partial.open("wb") as out:
            async for page in pages:
                data = "".join(line + "\n" for line in page).encode("utf-8")
                out.write(data)
                rows += len(page)
                written += len(data)
                if on_progress is not None:
                    on_progress(ExportProgress(rows, written, lines.expected))
                if cancel is not None and cancel.is_set():
                    return ExportResult(None, rows, written, cancelled=True)
        os.replace(partial, target)
        kept = True
        return ExportResult(target, rows, written, empty=rows == 0)
    finally:
        with contextlib.suppress(Exception):
            await pages.aclose()
        if not kept:
            with contextlib.suppress(OSError):
                partial.unlink()
