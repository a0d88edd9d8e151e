"""The whole query of the call log to a file (no Textual).

`export_csv` / `export_jsonl`: streamed (never held whole), with progress callbacks and
cancellation; the file is written beside its final name and moved there when complete,
removed when cancelled or failed.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from vagent_tui.api.client import PlatformClient
from vagent_tui.api.errors import ApiError, PlatformError
from vagent_tui.api.log_models import MAX_PAGE_SIZE
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


async def _expected(api: PlatformClient, filters: CallFilters) -> int | None:
    """How many entries the query matches (one page of one entry), None if unknown."""
    try:
        first = await api.list_logs(filters.query(), page=1, page_size=1, target=filters.account_id)
    except PlatformError:
        return None
    return first.total


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
    first = await api.list_logs(filters.query(), page=1, page_size=1, target=filters.account_id)
    expected = first.total
    pinned = filters
    if filters.end is None and first.logs and (at := seconds_of(first.logs[0])) is not None:
        pinned = replace(filters, end=at)
    rows = written = 0
    kept = False
    try:
        with partial.open("wb") as out:
            page = 1
            while True:
                got = await api.list_logs(
                    pinned.query(), page=page, page_size=page_size, target=pinned.account_id
                )
                lines = [
                    api.redact(json.dumps(e.wire(), ensure_ascii=False, default=str)) + "\n"
                    for e in got.logs
                ]
                data = "".join(lines).encode("utf-8")
                out.write(data)
                rows += len(lines)
                written += len(data)
                if on_progress is not None:
                    on_progress(ExportProgress(rows, written, expected))
                if cancel is not None and cancel.is_set():
                    return ExportResult(None, rows, written, cancelled=True)
                if not got.has_more or not got.logs:
                    break
                page += 1
        os.replace(partial, target)
        kept = True
        return ExportResult(target, rows, written, empty=rows == 0)
    finally:
        if not kept:
            with contextlib.suppress(OSError):
                partial.unlink()
