"""services/calls*.py: filters, transcripts, follow, export, the fleet's summary."""

from __future__ import annotations

import asyncio
import csv
import io
import json
from collections.abc import AsyncGenerator, AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from vagent_tui.api.errors import ApiError, TransportError
from vagent_tui.api.log_models import LogPage
from vagent_tui.services import calls as S
from vagent_tui.services import calls_export as E
from vagent_tui.services import calls_follow as FL
from vagent_tui.services import calls_summary as SUM
from vagent_tui.services.connect import SimClient, demo_client
from vagent_tui.services.fleet import ask_fleet
from vagent_tui.sim import call_entries as simentries
from vagent_tui.sim import calls as simcalls

NOW = 1_800_000_000
STEP = simcalls.step_of(simcalls.DEFAULT_CALLS)


class Clock:
    def __init__(self, now: float = NOW) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def api(clock: Clock) -> AsyncIterator[SimClient]:
    client = demo_client("demo-partner", clock=clock)
    yield client
    await client.aclose()


def sim(api: SimClient) -> Any:
    return api.sim_app.state.sim


# ---------------------------------------------------------------------- filters


def test_parse_time() -> None:
    assert S.parse_time("1763640000", now=NOW) == 1763640000
    assert S.parse_time("90m", now=NOW) == NOW - 5400
    assert S.parse_time("-2h", now=NOW) == NOW - 7200
    assert S.parse_time("1w", now=NOW) == NOW - 7 * 86400
    assert S.parse_time("2025-11-20", now=NOW) == 1763596800
    assert S.parse_time("2025-11-20 14:30", now=NOW) == 1763596800 + 14 * 3600 + 1800
    assert S.parse_time("2025-11-20T14:30+01:00", now=NOW) == 1763596800 + 13 * 3600 + 1800
    for bad in ("", "yesterday", "3y"):
        with pytest.raises(ValueError):
            S.parse_time(bad, now=NOW)
    # Numbers no date holds: a clear message, not an OverflowError later on.
    for huge in ("99999999999999999999", "9999999999999", "99999999999w"):
        with pytest.raises(ValueError, match="out of range"):
            S.parse_time(huge, now=NOW)


def test_filters_as_a_value() -> None:
    base = S.CallFilters.last("day", now=NOW, account_id=1110)
    assert (base.start, base.end, base.preset) == (NOW - 86400, None, "day")
    narrowed = S.CallFilters(account_id=1110, event_type="inbound-call", outcome="voicemail",
                             extra=(("metadata.convoId", "c_1"),))  # fmt: skip
    assert narrowed.pairs() == (("eventType", "inbound-call"), ("agentOutcome", "voicemail"),
                                ("metadata.convoId", "c_1"))  # fmt: skip
    assert narrowed.describe() == ["last 7 days", "account #1110", "eventType=inbound-call",
                                   "agentOutcome=voicemail", "metadata.convoId=c_1"]  # fmt: skip
    assert base.describe()[0] == "last day" and not S.CallFilters().active
    typed = narrowed.with_range(1763596800, 1763600400)
    assert typed.describe()[0] == "2025-11-20 00:00 UTC → 2025-11-20 01:00 UTC"
    cleared = typed.cleared()
    assert cleared == S.CallFilters(account_id=1110) and not cleared.active
    with pytest.raises(ValueError):
        narrowed.with_range(5, 4)
    with pytest.raises(ValueError, match="API key"):
        S.CallFilters(extra=(("token", "x"),)).query()


# ---------------------------------------------------------------------- pages


async def page_of(api: SimClient, filters: S.CallFilters, page: int, size: int) -> LogPage:
    """One page of the query, as the Calls screen reads it (``page`` from 1)."""
    return await api.list_logs(filters.query(), page=page, page_size=size,
                               target=filters.account_id)  # fmt: skip


async def test_transcripts_of_a_page_in_one_request(api: SimClient) -> None:
    page = await page_of(api, S.CallFilters(account_id=1110), 1, 150)
    state = sim(api)
    state.clear_log()
    found = await S.fetch_transcripts(api, page.logs, target=1110)
    assert state.count("POST", "/api/v2/conversation/batch") == 1
    assert len(found) == 150 and all(r.ok for r in found.values())
    cache = S.TranscriptCache(limit=200)
    cache.add(found)
    entry = page.logs[7]
    result = cache.get(entry)
    assert result is not None and result.conversation[0].uuid == entry.uuid
    assert result.conversation[0].summary == entry.summary
    assert cache.missing(page.logs) == []
    more = await page_of(api, S.CallFilters(account_id=1110), 2, 150)
    state.clear_log()
    cache.add(await S.fetch_transcripts(api, cache.missing(more.logs), target=1110))
    assert state.count("POST", "/api/v2/conversation/batch") == 1
    assert len(cache) == 200 and cache.get(page.logs[0]) is None  # the oldest went
    big = await page_of(api, S.CallFilters(account_id=1110), 1, 450)
    state.clear_log()
    await S.fetch_transcripts(api, big.logs, target=1110)
    assert state.count("POST", "/api/v2/conversation/batch") == 3  # 200 + 200 + 50


async def test_no_transcript_request_for_entries_naming_none(api: SimClient) -> None:
    from vagent_tui.api.log_models import LogEntry

    sim(api).clear_log()
    assert await S.fetch_transcripts(api, [LogEntry(id="x")]) == {}
    assert sim(api).requests == []


# ---------------------------------------------------------------------- follow


async def test_follow_reports_each_new_entry_once(api: SimClient, clock: Clock) -> None:
    shown = await page_of(api, S.CallFilters(account_id=1111), 1, 20)
    follower = FL.Follower(api, S.CallFilters(account_id=1111, end=NOW))
    follower.prime(shown.logs)
    assert await follower.poll() == []
    clock.now += 3 * STEP
    fresh = await follower.poll()
    assert len(fresh) == 3 and [e.id for e in fresh] == sorted((e.id for e in fresh), reverse=True)
    assert fresh[-1].at is not None and shown.logs[0].at is not None
    assert fresh[-1].at > shown.logs[0].at
    assert await follower.poll() == []
    clock.now += STEP
    assert len(await follower.poll()) == 1
    assert follower.filters.end is None  # following runs up to now


async def test_follow_says_when_it_could_not_read_everything(api: SimClient, clock: Clock) -> None:
    follower = FL.Follower(api, S.CallFilters(account_id=1111), page_size=2, max_pages=2)
    assert await follower.poll() == []  # finds where "now" is
    clock.now += 10 * STEP
    fresh = await follower.poll()
    assert len(fresh) == 4 and follower.gap


async def test_follow_backs_off_on_failure_and_recovers(api: SimClient, clock: Clock) -> None:
    waits: list[float] = []
    heard: list[list[Any]] = []
    errors: list[tuple[str, float]] = []
    state = sim(api)

    async def sleep(seconds: float) -> None:
        waits.append(seconds)
        if len(waits) == 4:
            state.faults.lift()
            clock.now += 2 * STEP
        if len(waits) >= 6:
            raise asyncio.CancelledError

    follower = FL.Follower(api, S.CallFilters(account_id=1111), interval=5, max_interval=12,
                          sleep=sleep)  # fmt: skip
    follower.prime((await page_of(api, S.CallFilters(account_id=1111), 1, 5)).logs)
    state.faults.set("500", path_contains="/logs")
    api.get_retries = 0
    with pytest.raises(asyncio.CancelledError):
        await follower.run(heard.append, lambda exc, wait: errors.append((exc.message, wait)))
    assert waits[:4] == [10, 12, 12, 12]  # doubling, capped
    assert waits[4:] == [5, 5]  # a success resets it
    assert len(errors) == 4 and all("Simulated" in m for m, _ in errors)
    assert len(heard) == 1 and len(heard[0]) == 2


# ---------------------------------------------------------------------- export


async def test_export_csv_streams_to_the_file(api: SimClient, tmp_path: Path) -> None:
    progress: list[E.ExportProgress] = []
    target = tmp_path / "calls.csv"
    filters = S.CallFilters(account_id=1000, status="failed")
    result = await E.export_csv(api, filters, target, on_progress=progress.append)
    expected = (await page_of(api, filters, 1, 1)).total
    assert result == E.ExportResult(target, expected, target.stat().st_size)
    rows = list(csv.reader(target.open(newline="", encoding="utf-8")))
    assert rows[0] == list(simentries.CSV_COLUMNS) and len(rows) == expected + 1
    assert progress[-1] == E.ExportProgress(expected, result.bytes, expected)
    assert all(p.expected == expected for p in progress)
    assert [p.rows for p in progress] == sorted(p.rows for p in progress)
    assert not (tmp_path / "calls.csv.partial").exists()
    assert "demo-partner" not in target.read_text(encoding="utf-8")


def test_row_counter_skips_line_ends_in_quotes() -> None:
    counter = E._RowCounter()
    for chunk in (b'a,b\r\n1,"x\r\ny', b'"\r\n2,"q""', b'"\r\n'):
        counter.feed(chunk)
    assert counter.lines == 3


def test_row_counter_agrees_with_the_csv_module_however_the_file_is_cut() -> None:
    rows = [["id", "note"], ["1", 'two\nlines, "quoted"'], ["2", "plain"], ["3", '"\n"'],
            ["4", "end\r\n"]]  # fmt: skip
    out = io.StringIO(newline="")
    csv.writer(out).writerows(rows)
    data = out.getvalue().encode()
    for size in (1, 2, 3, 7, 64, len(data)):
        counter = E._RowCounter()
        for start in range(0, len(data), size):
            counter.feed(data[start : start + size])
        assert counter.lines == len(rows), size


async def test_export_csv_cancelled_leaves_no_file(api: SimClient, tmp_path: Path) -> None:
    cancel = asyncio.Event()
    target = tmp_path / "calls.csv"

    def stop_after_first(_: E.ExportProgress) -> None:
        cancel.set()

    result = await E.export_csv(api, S.CallFilters(account_id=1000), target,
                                on_progress=stop_after_first, cancel=cancel)  # fmt: skip
    assert result.cancelled and result.path is None and result.bytes > 0
    assert list(tmp_path.iterdir()) == []


async def test_export_csv_task_cancelled_leaves_no_file(api: SimClient, tmp_path: Path) -> None:
    started = asyncio.Event()
    gate = asyncio.Event()

    def progress(_: E.ExportProgress) -> None:
        started.set()

    real = api.stream_logs_csv

    async def stalling(*args: Any, **kwargs: Any) -> AsyncGenerator[bytes, None]:
        async for chunk in real(*args, **kwargs):
            yield chunk
            await gate.wait()  # the platform goes quiet after the first chunk

    api.stream_logs_csv = stalling  # type: ignore[method-assign]
    task = asyncio.create_task(
        E.export_csv(api, S.CallFilters(account_id=1000), tmp_path / "x.csv", on_progress=progress)
    )
    await asyncio.wait_for(started.wait(), 30)
    assert (tmp_path / "x.csv.partial").exists()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert list(tmp_path.iterdir()) == []


async def test_export_csv_of_nothing_and_a_failure(api: SimClient, tmp_path: Path) -> None:
    target = tmp_path / "none.csv"
    result = await E.export_csv(api, S.CallFilters(status="nope"), target)
    assert result.empty and result.path is None and list(tmp_path.iterdir()) == []
    sim(api).faults.set("truncated", path_contains="/logs", methods=frozenset({"GET"}))
    with pytest.raises(TransportError):
        await E.export_csv(api, S.CallFilters(account_id=1000), target, count_first=False)
    assert list(tmp_path.iterdir()) == []
    sim(api).faults.set("500", path_contains="/logs")
    api.get_retries = 0
    with pytest.raises(ApiError):
        await E.export_csv(api, S.CallFilters(account_id=1000), target)
    assert list(tmp_path.iterdir()) == []


async def test_export_jsonl_pages_and_pins_the_end(
    api: SimClient, clock: Clock, tmp_path: Path
) -> None:
    target = tmp_path / "calls.jsonl"
    progress: list[E.ExportProgress] = []
    filters = S.CallFilters(account_id=1110)
    total = (await page_of(api, filters, 1, 1)).total
    real = api.list_logs

    async def moving(*args: Any, **kwargs: Any) -> Any:
        clock.now += STEP  # entries keep arriving while the export pages
        return await real(*args, **kwargs)

    api.list_logs = moving  # type: ignore[method-assign]
    result = await E.export_jsonl(api, filters, target, page_size=100,
                                  on_progress=progress.append)  # fmt: skip
    lines = target.read_text(encoding="utf-8").splitlines()
    ids = [json.loads(line)["id"] for line in lines]
    assert len(ids) == len(set(ids))  # no repeat although pages moved
    assert result.rows == len(lines) >= total - 10
    assert progress[0].expected == total and progress[-1].rows == result.rows
    assert not (tmp_path / "calls.jsonl.partial").exists()


async def test_export_jsonl_cancel(api: SimClient, tmp_path: Path) -> None:
    cancel = asyncio.Event()
    cancel.set()
    result = await E.export_jsonl(api, S.CallFilters(), tmp_path / "x.jsonl", cancel=cancel)
    assert result.cancelled and list(tmp_path.iterdir()) == []


async def test_export_never_writes_the_key(tmp_path: Path) -> None:
    """A platform echoing the key in an entry: the file holds it masked."""
    client = demo_client("demo-agent", clock=Clock())
    real = client.list_logs

    async def echoing(*args: Any, **kwargs: Any) -> Any:
        page = await real(*args, **kwargs)
        for entry in page.logs:
            entry.summary = "key demo-agent leaked"
        return page

    client.list_logs = echoing  # type: ignore[method-assign]
    await E.export_jsonl(client, S.CallFilters(), tmp_path / "x.jsonl", page_size=500)
    text = (tmp_path / "x.jsonl").read_text(encoding="utf-8")
    assert "demo-agent leaked" not in text and "key *** leaked" in text
    await client.aclose()


# ---------------------------------------------------------------------- the fleet's summary


async def test_calls_summary_counts_calls_only(api: SimClient) -> None:
    summary = await SUM.calls_last_24h(api, 1111, now=NOW)
    page = await page_of(api, S.CallFilters(start=NOW - 86400, account_id=1111), 1, 500)
    calls = [e for e in page.logs if e.type == "call"]
    assert summary.count == len(calls) > 0
    assert summary.failed == sum(e.status == "failed" for e in calls)
    assert sum(n for _, n in summary.by_outcome) == summary.count
    assert [n for _, n in summary.by_outcome] == sorted((n for _, n in summary.by_outcome),
                                                       reverse=True)  # fmt: skip
    if summary.failed:
        assert ("—", summary.failed) in summary.by_outcome
    sim(api).clear_log()
    await SUM.calls_last_24h(api, 1111, now=NOW)
    (request,) = sim(api).requests
    assert request.query["pageSize"] == "10000" and "agentOutcome" in request.query["fields"]


async def test_fleet_asks_calls_in_the_last_24_hours(api: SimClient) -> None:
    answers = await ask_fleet(api, [1111, 1112, 1999], "calls")
    by_id = {a.account_id: a for a in answers}
    assert by_id[1111].ok and by_id[1111].values["calls"] >= 0
    assert isinstance(by_id[1111].values["outcomes"], tuple)
    assert not by_id[1999].ok and "403" in (by_id[1999].error or "")
