"""Usage across the fleet: 10,000 agent accounts at 50 ms, and a sort of 10,000 rows.

A simulator serves over loopback HTTP in its own process (uvicorn, ``--accounts N
--latency-ms 50``: the latency is slept in the simulator). The agent accounts are listed
once (not timed). Then, in pairs (which side first alternating; a size's ratio is the
median of its pairs' ratios, so a slow moment of the machine weighs on both halves):

* the console: what the Usage screen asks at a level, through the service layer:
  ``ask_fleet(client, ids, usage_question(UsageQuery()), limiter=AdaptiveLimit(C))``
  on a `PlatformClient` with its default transport, each answer kept in a `FleetUsage`
  (the exact lines and sort keys the screen shows); per account ``GET /stats/usage``
  (costs, no series) then ``GET /product/currentPlan``, read by the lenient reader;
* the yardstick: a bare aiohttp script sharing no code with the console: one
  ``aiohttp.ClientSession`` (``TCPConnector(limit=C)``), an ``asyncio.Semaphore(C)``
  around the same two GETs of each account (``await response.json()`` each),
  ``asyncio.gather`` over every id, C from the first request.

Figures: ``usage-N: ratio`` console / aiohttp (target 1.15); ``usage-N-ideal: ratio``
the console against the network's ideal at C accounts in flight (two requests of 50 ms
each: ``N / C * 100 ms``; target 1.5); ``usage-sort-N``: the median, over every column
and both directions, of one sort of N rows as the screen does it, headless at 120x40:
what ``o`` (or ``O``) runs on a `UsageFleetTable` filled with N answers, until the
matrix's last line in view is drawn in the next frame (the order from the kept keys,
the matrix handed it, the totals line, Textual's refresh), in ms (target 100); the
worst of them is printed beside it.

Usage: ``python bench/usage.py [--reps N] [--concurrency C] [--size N]``
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from pathlib import Path

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import loopback_sim

from vagent_tui.api.client import PlatformClient
from vagent_tui.api.scope import classify
from vagent_tui.api.usage_models import UsageQuery
from vagent_tui.services.accounts import AccountDirectory, NamedAccount
from vagent_tui.services.agent_listing import fleet_accounts
from vagent_tui.services.fleet import AdaptiveLimit, FleetAnswer, ask_fleet
from vagent_tui.services.usage_fleet import FleetUsage, usage_question

TARGET = 1.15
IDEAL_TARGET = 1.5
SORT_TARGET_MS = 100.0
TOKEN = "demo-partner"
LATENCY = 0.05
REQUESTS = 2
"""Requests per account, one after the other: the usage, then the plan."""


async def console_side(
    client: PlatformClient, accounts: list[NamedAccount], concurrency: int
) -> list[FleetAnswer]:
    usage = FleetUsage(accounts)
    limit = AdaptiveLimit(concurrency)
    ids = [a.id for a in accounts if a.id is not None]
    question = usage_question(UsageQuery())
    answers = await ask_fleet(client, ids, question, limiter=limit, on_answer=usage.take)
    assert usage.answered == len(ids) and not usage.failed, usage.failed[:3]
    return answers


async def aiohttp_side(
    session: aiohttp.ClientSession, base: str, ids: list[int], concurrency: int
) -> int:
    gate = asyncio.Semaphore(concurrency)
    usage_url = f"{base}/api/v2/stats/usage"
    plan_url = f"{base}/api/v2/product/currentPlan"

    async def one(account_id: int) -> int:
        async with gate:
            params = {
                "token": TOKEN,
                "targetAccountId": str(account_id),
                "giveCosts": "true",
                "timeseries": "false",
                "frequency": "day",
                "billingPeriod": "current",
            }
            async with session.get(usage_url, params=params) as response:
                usage = await response.json()
            plan_params = {"token": TOKEN, "targetAccountId": str(account_id)}
            async with session.get(plan_url, params=plan_params) as response:
                plan = await response.json()
            return len(usage["usage"]) + len(plan["plan"])

    return len(await asyncio.gather(*(one(i) for i in ids)))


async def measure(
    base: str, accounts: list[NamedAccount], concurrency: int, reps: int
) -> tuple[float, float, list[FleetAnswer]]:
    """(median pair ratio console / aiohttp, console median seconds, the last answers)."""
    client = PlatformClient(base, TOKEN, timeout=60)
    connector = aiohttp.TCPConnector(limit=concurrency, keepalive_timeout=300)
    session = aiohttp.ClientSession(connector=connector)
    ids = [a.id for a in accounts if a.id is not None]
    answers: list[FleetAnswer] = []
    ours: list[float] = []
    theirs: list[float] = []
    try:
        warm = accounts[: max(concurrency * 4, 200)]
        await console_side(client, warm, concurrency)  # open the pools
        await aiohttp_side(session, base, [a.id for a in warm if a.id is not None], concurrency)
        for rep in range(reps):
            for side in ("bare", "console") if rep % 2 == 0 else ("console", "bare"):
                started = time.perf_counter()
                if side == "console":
                    answers = await console_side(client, accounts, concurrency)
                    ours.append(time.perf_counter() - started)
                else:
                    assert await aiohttp_side(session, base, ids, concurrency) == len(ids)
                    theirs.append(time.perf_counter() - started)
    finally:
        await client.aclose()
        await session.close()
    ratios = sorted(x / y for x, y in zip(ours, theirs, strict=True))
    a, b = statistics.median(ours), statistics.median(theirs)
    ideal = len(ids) / concurrency * LATENCY * REQUESTS
    print(
        f"  {len(ids):,} accounts, {concurrency} in flight, {reps} pairs: console {a:.2f} s, "
        f"aiohttp {b:.2f} s, ideal {ideal:.2f} s; pair ratios {ratios[0]:.2f}..{ratios[-1]:.2f}",
        flush=True,
    )
    return statistics.median(ratios), a, answers


async def measure_sort(accounts: list[NamedAccount], answers: list[FleetAnswer]) -> float:
    """The worst sort of every column, both ways, in ms: key press to the frame drawn."""
    from textual.app import App, ComposeResult
    from textual.strip import Strip

    from vagent_tui.ui.widgets.usage_fleet import UsageFleetTable

    class SortApp(App[None]):
        def compose(self) -> ComposeResult:
            yield UsageFleetTable(id="table")

    app = SortApp()
    median = 0.0
    async with app.run_test(size=(120, 40)) as pilot:
        table = app.query_one(UsageFleetTable)
        table.setup(usage_question(UsageQuery()), accounts)
        for answer in answers:
            table.take(answer)
        table.apply_order()
        await pilot.pause()
        matrix = table.matrix
        drawn: list[float] = [0.0]
        render_line = matrix.render_line

        def timed(y: int) -> Strip:
            strip = render_line(y)
            if y == matrix.scrollable_content_region.height - 1:  # the last line in view: drawn
                drawn[0] = time.perf_counter()
            return strip

        matrix.render_line = timed  # type: ignore[method-assign]
        columns = len(table.usage.columns)
        times: list[float] = []
        for _ in range(columns):
            for flip in (False, True):
                await pilot.pause()
                started = time.perf_counter()
                table.flip() if flip else table.next_sort()  # what o / O run
                while drawn[0] < started and time.perf_counter() - started < 5:
                    await asyncio.sleep(0.0005)
                assert drawn[0] >= started, "no frame drawn after the sort"
                times.append((drawn[0] - started) * 1000)
        rows = table.matrix.shown_rows
        assert len(rows) == len(accounts)
        worst = max(times)
        median = statistics.median(times)
        print(
            f"  sort of {len(rows):,} rows, {columns} columns both ways, until the table's "
            f"last line in view is drawn: median {statistics.median(times):.1f} ms, "
            f"worst {worst:.1f} ms",
            flush=True,
        )
    return median


async def run(base: str, size: int, concurrency: int, reps: int) -> list[str]:
    client = PlatformClient(base, TOKEN, timeout=60)
    try:
        owner = await client.get_account()
        directory = AccountDirectory(client, classify(owner), owner)
        listed = await fleet_accounts(directory)
    finally:
        await client.aclose()
    accounts: list[NamedAccount] = list(listed[:size])
    assert len(accounts) == size, (len(accounts), size)
    ratio, ours, answers = await measure(base, accounts, concurrency, reps)
    ideal = size / concurrency * LATENCY * REQUESTS
    sort_ms = await measure_sort(accounts, answers)
    return [
        f"usage-{size}: ratio {ratio:.2f} (target {TARGET})",
        f"usage-{size}-ideal: ratio {ours / ideal:.2f} (target {IDEAL_TARGET})",
        f"usage-sort-{size}: {sort_ms:.1f} ms (target {SORT_TARGET_MS:.0f} ms)",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--reps", type=int, default=3, help="pairs of runs (default 3)")
    parser.add_argument("--concurrency", type=int, default=50, help="accounts in flight (50)")
    parser.add_argument("--size", type=int, default=10_000, help="accounts (10,000)")
    args = parser.parse_args()
    # the console's own transport, as a user gets it (not httpx's, whatever the shell has)
    os.environ.pop("VAGENT_TRANSPORT", None)
    sim = loopback_sim(
        "--accounts", str(args.size), "--latency-ms", str(int(LATENCY * 1000)), keep_alive=300
    )
    with sim as base:
        lines = asyncio.run(run(base, args.size, args.concurrency, args.reps))
    for line in lines:
        print(line)


if __name__ == "__main__":
    main()
