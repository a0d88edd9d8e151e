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

Then the sort, in a real terminal: a console runs in a tmux session of 120x40 (``vagent-tui
--base-url … --token demo-partner --screen usage``, the checkout's code passed to it by
name) against a second simulator of N accounts without latency (filling the table is not
timed). Once every account answered and the screen and the console's CPU are quiet,
``o`` (the next column) then ``O`` (reversed) are pressed for every column, until the
sort is back at the first; each is timed from ``send-keys`` to the first capture
(``capture-pane``, polled as fast as it runs: a few ms of each figure) of the frame the
screen then keeps, once it has kept it for 0.3 s and the console uses no CPU. Each frame
is checked, reading only the screen's text: the sort line names the next column (or
the other direction), the rows changed, and where the column is in view its cells are
in the order stated (cells cut by the view's edge are skipped). Nothing of the
console's code is used to measure or check.

Figures: ``usage-N: ratio`` console / aiohttp (target 1.15); ``usage-N-ideal: ratio``
the console against the network's ideal at C accounts in flight (two requests of 50 ms
each: ``N / C * 100 ms``; target 1.5); ``usage-sort-N``: the median, over every column
and both directions, of the key to the sorted frame on the terminal, in ms (target
100); the worst of them and the load average are printed beside it (the machine may be
shared: the load says how much).

Usage: ``python bench/usage.py [--reps N] [--concurrency C] [--size N] [--only fan-out|sort]``
(needs tmux)
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import shutil
import statistics
import sys
import time
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import TmuxConsole, loopback_sim

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


SORTED = re.compile(r"Sorted by (.+?), (largest first|smallest first|A to Z|Z to A)")
DOWN = ("largest first", "Z to A")
ROW = re.compile(r"\s+(\d+\s|Total of )")
"""A line of the table below its header: the totals, or a row (its account id first)."""


def table_of(screen: str) -> tuple[str, str, list[str]] | None:
    """(the sort line's column, its direction, the table's lines: header, totals, rows)."""
    lines = screen.splitlines()
    at = next((i for i, line in enumerate(lines) if SORTED.search(line)), None)
    if at is None:
        return None
    found = SORTED.search(lines[at])
    assert found is not None
    rows = lines[at + 1 : at + 2]  # the header
    for line in lines[at + 2 :]:
        if not ROW.match(line):
            break  # past the table: the status line
        rows.append(line)
    return found.group(1), found.group(2), rows


def number(cell: str) -> Decimal | None:
    try:
        return Decimal(cell.replace(",", ""))
    except InvalidOperation:
        return None


def check_sorted(column: str, way: str, rows: list[str]) -> int:
    """The rows in view are in the order the sort line states, where its column is in
    view (its title whole in the header line). Returns how many cells were compared."""
    header, body = rows[0], [r for r in rows[1:] if not r.strip().startswith("Total of")]
    start = header.find(f" {column} ")
    if start < 0:
        return 0  # the column is past the right edge: not in view
    start += 1
    end = start + len(column)
    while end < len(header) and header[end] == " ":
        end += 1  # up to the next title: the column's cells
    cells = [row[start:end].strip() for row in body]
    cells = [c for c in cells if not c.endswith("…")]  # cut by the view: not comparable
    present = [c for c in cells if c]
    if "" in cells and any(cells[cells.index("") :]):
        raise SystemExit(f"a row without a value before one with a value: {cells}")
    numbers = [number(c) for c in present]
    keys: list[Any] = numbers if None not in numbers else [c.casefold() for c in present]
    wanted = sorted(keys, reverse=way in DOWN)
    if keys != wanted:
        raise SystemExit(f"not sorted by {column}, {way}: {present}")
    return len(keys)


def measure_sort(size: int) -> tuple[float, float, int]:
    """Each column, both ways, sorted in a console in a real terminal (tmux): from the
    key to the first capture of the frame the screen then keeps. Returns (median ms,
    worst ms, cells checked)."""
    times: list[float] = []
    checked = 0
    # no latency: filling the table is not timed
    with loopback_sim("--accounts", str(size)) as base:
        console = TmuxConsole(base, f"b-usage-bench-{os.getpid()}", token=TOKEN, screen="usage")
        try:
            deadline = time.monotonic() + 900
            done = f"{size:,}/{size:,} answered"
            while not (done in (screen := console.screen()) and "Asking" not in screen):
                if time.monotonic() > deadline:
                    raise SystemExit(f"the table did not fill: {screen[-600:]}")
                time.sleep(0.5)
            screen = console.quiet(30.0)
            table = table_of(screen)
            assert table is not None, screen
            first = table[0]
            seen: list[str] = []
            while not seen or table[0] != first:
                for key in ("o", "O"):
                    before = table
                    started = time.perf_counter()
                    console.send(key)
                    frames: list[tuple[float, str]] = []
                    last = screen
                    while time.perf_counter() - started < 5:
                        now = console.screen()
                        if now != last:
                            frames.append((time.perf_counter() - started, now))
                            last = now
                        if frames and time.perf_counter() - started - frames[-1][0] > 0.3:
                            break
                        time.sleep(0.002)  # tmux's captures share the cores with the console
                    screen = console.quiet(30.0)
                    table = table_of(screen)
                    if table is None or table == before:
                        raise SystemExit(f"{key}: the table did not change: {screen[-800:]}")
                    column, way, rows = table
                    if key == "o" and column == before[0]:
                        raise SystemExit(f"o: still sorted by {column}")
                    if key == "O" and (column != before[0] or way == before[1]):
                        raise SystemExit(f"O: {column}, {way} after {before[0]}, {before[1]}")
                    checked += check_sorted(column, way, rows)
                    # the frame shown at the end, as first captured
                    shown = next((t for t, text in frames if table_of(text) == table), None)
                    if shown is None:
                        raise SystemExit(f"{key}: the final frame was never captured")
                    times.append(shown * 1000)
                    seen.append(f"{column} {way} {shown * 1000:.0f} ms")
        finally:
            console.close()
    print(f"  sorted in a terminal (tmux 120x40): {'; '.join(seen)}", flush=True)
    return statistics.median(times), max(times), checked


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
    ratio, ours, _answers = await measure(base, accounts, concurrency, reps)
    ideal = size / concurrency * LATENCY * REQUESTS
    return [
        f"usage-{size}: ratio {ratio:.2f} (target {TARGET})",
        f"usage-{size}-ideal: ratio {ours / ideal:.2f} (target {IDEAL_TARGET})",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--reps", type=int, default=3, help="pairs of runs (default 3)")
    parser.add_argument("--concurrency", type=int, default=50, help="accounts in flight (50)")
    parser.add_argument("--size", type=int, default=10_000, help="accounts (10,000)")
    parser.add_argument("--only", choices=("all", "fan-out", "sort"), default="all",
                        help="only the fan-out or only the sort (default: both)")  # fmt: skip
    args = parser.parse_args()
    # the console's own transport, as a user gets it (not httpx's, whatever the shell has)
    os.environ.pop("VAGENT_TRANSPORT", None)
    sim = loopback_sim(
        "--accounts", str(args.size), "--latency-ms", str(int(LATENCY * 1000)), keep_alive=300
    )
    lines: list[str] = []
    if args.only in ("all", "fan-out"):
        with sim as base:
            lines += asyncio.run(run(base, args.size, args.concurrency, args.reps))
    if args.only in ("all", "sort"):
        if shutil.which("tmux") is None:
            raise SystemExit("the sort is measured in tmux: bench/usage.py needs tmux")
        load = os.getloadavg()[0]
        median, worst, checked = measure_sort(args.size)
        print(
            f"  sort of {args.size:,} rows: median {median:.0f} ms, worst {worst:.0f} ms; "
            f"{checked:,} cells in view checked in order; load average {load:.2f} before, "
            f"{os.getloadavg()[0]:.2f} after",
            flush=True,
        )
        lines.append(f"usage-sort-{args.size}: {median:.1f} ms (target {SORT_TARGET_MS:.0f} ms)")
    for line in lines:
        print(line)


if __name__ == "__main__":
    main()
