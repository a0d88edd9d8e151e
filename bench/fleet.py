"""Fleet: one question (functions availability) of 1,000 and 10,000 agent accounts at 50 ms.

A simulator serves over loopback HTTP in its own process (uvicorn, ``--accounts N
--latency-ms 50``: the latency is slept in the simulator, as a platform's would be). The
agent accounts are listed once (not timed). Then, for each size, in pairs:

* the console: the whole question as the Fleet screen asks it, through the service
  layer: ``ask_fleet(client, ids, "functions", limiter=AdaptiveLimit(C))`` on a
  `PlatformClient` with its default pool (`api.sender.default_pool`), typed
  ``FunctionDescriptor`` lists, one `FleetAnswer` per account; the limit starts at half of C
  and adapts (it may not pass C);
* the yardstick: a bare aiohttp script that shares no code with the console: one
  ``aiohttp.ClientSession`` (``TCPConnector(limit=C)``), an ``asyncio.Semaphore(C)``
  around ``session.get(...)`` + ``await response.json()``, ``asyncio.gather`` over every
  id, a fixed C from the first request.

With ``--ui`` (on by default) the same pairs are run once more with the console's side
being the real Fleet screen (headless, 120x40): from ``s`` to the end of the run with
every answer in its row and the next frame drawn; the aiohttp side runs on the app's
own event loop meanwhile idle.

Each pair runs both sides back to back, which one first alternating; a size's ratio is
the median of its pairs' ratios console / aiohttp, so a slow moment of the machine (or
of the simulator, CPU-bound on the same cores) weighs on both halves of a pair alike.
A second figure per size compares the console's median with the network's physical
ideal at C in flight (``N / C * 50 ms``; target 1.5). ``--sweep`` also runs 1,000
accounts at 25, 100 and 200 in flight (a cliff would show as a ratio that climbs).
``--throttle N`` only checks the back-off (informative, no ratio): a second simulator
answers 429 + ``Retry-After: 1`` past N requests at once (``sim --max-in-flight N``);
the console asks 1,000 accounts with a ceiling of 200 and prints its time, the limits
it took, the back-offs and how many answers failed.

At ``--large`` accounts (default 100,000; 0 skips it) a simulator of that size serves
one pair more, screen then aiohttp (a run takes N / C * 50 ms = 100 s at the ideal):
``fleet-ui-N-ideal`` (target 1.5) and ``fleet-ui-N`` against the bare script (target
1.2); ``fleet-ui-N-rss``: this process's resident set (``VmRSS``, which holds the app,
its accounts and answers; the simulator runs in its own process) after the screen's run,
target 200 MB; and ``fleet-ui-N-keys``: while the screen runs, a key (down) every
second, timed from the key until the matrix's cursor has moved, the worst of them in
ms (target 100), with the cycle collector as the console's command line leaves it
(`vagent_tui.collector`: a full collection kept off the keys). The yardsticks are the
same bare aiohttp script and the ideal.

Prints one ``fleet-N: ratio R (target 1.15)`` line per size against aiohttp, one
``fleet-N-ideal: ratio R (target 1.5)`` against the ideal, ``fleet-ui-N`` lines for
the screen, and last the overall ``fleet: ratio R (target 1.15)``: the worst of the
aiohttp ratios (service layer and screen).

Usage: ``python bench/fleet.py [--reps N] [--concurrency C] [--sizes 1000,10000]
[--large 100000] [--sweep] [--no-ui]``
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import loopback_sim

from vagent_tui.api.client import PlatformClient
from vagent_tui.api.scope import classify
from vagent_tui.services.accounts import AccountDirectory
from vagent_tui.services.agent_listing import fleet_accounts
from vagent_tui.services.fleet import MAX_CAP, AdaptiveLimit, ask_fleet

TARGET = 1.15
IDEAL_TARGET = 1.5
LARGE_TARGET = 1.2
RSS_TARGET_MB = 200.0
KEY_TARGET_MS = 100.0
TOKEN = "demo-partner"
LATENCY = 0.05
LARGE_PAIRS = 5
"""Pairs at 10,000 accounts (each ~25 s): with 3, the screen's pair ratios spread 1.05 to
1.22 in one run and its median moved from 0.98 to 1.16 between two runs of like code."""


async def console_side(client: PlatformClient, ids: list[int], concurrency: int) -> int:
    limit = AdaptiveLimit(concurrency)
    answers = await ask_fleet(client, ids, "functions", limiter=limit)
    return sum(a.ok for a in answers)


async def aiohttp_side(
    session: aiohttp.ClientSession, base: str, ids: list[int], concurrency: int
) -> int:
    gate = asyncio.Semaphore(concurrency)
    url = f"{base}/api/v2/agent/functions"

    async def one(account_id: int) -> int:
        async with gate:
            params = {"token": TOKEN, "targetAccountId": str(account_id)}
            async with session.get(url, params=params) as response:
                body = await response.json()
                return len(body["functions"])

    return len(await asyncio.gather(*(one(i) for i in ids)))


async def pairs(
    what: str,
    console: Callable[[], Awaitable[int]],
    bare: Callable[[], Awaitable[int]],
    size: int,
    concurrency: int,
    reps: int,
) -> tuple[float, float, float]:
    """(median ratio console/aiohttp, console median seconds, aiohttp median seconds)."""
    ours: list[float] = []
    theirs: list[float] = []
    for rep in range(reps):
        sides = (console, bare) if rep % 2 else (bare, console)
        for side in sides:
            started = time.perf_counter()
            assert await side() == size
            (ours if side is console else theirs).append(time.perf_counter() - started)
    ratios = sorted(x / y for x, y in zip(ours, theirs, strict=True))
    a, b = statistics.median(ours), statistics.median(theirs)
    print(
        f"  {what}: {size:,} accounts, {concurrency} in flight, {reps} pairs: console "
        f"{a:.2f} s, aiohttp {b:.2f} s, ideal {size / concurrency * LATENCY:.2f} s; "
        f"pair ratios {ratios[0]:.2f}..{ratios[-1]:.2f}",
        flush=True,
    )
    return statistics.median(ratios), a, b


async def measure(
    base: str, ids: list[int], concurrency: int, reps: int
) -> tuple[float, float, float]:
    """The service layer against aiohttp: `pairs`' figures."""
    client = PlatformClient(base, TOKEN, timeout=60)
    connector = aiohttp.TCPConnector(limit=concurrency, keepalive_timeout=120)
    session = aiohttp.ClientSession(connector=connector)

    async def console() -> int:
        return await console_side(client, ids, concurrency)

    async def bare() -> int:
        return await aiohttp_side(session, base, ids, concurrency)

    try:
        warm = ids[: max(concurrency * 4, 200)]
        assert await console_side(client, warm, concurrency) == len(warm)  # open the pools
        assert await aiohttp_side(session, base, warm, concurrency) == len(warm)
        return await pairs("service", console, bare, len(ids), concurrency, reps)
    finally:
        await client.aclose()
        await session.close()


async def measure_ui(base: str, size: int, concurrency: int, reps: int) -> tuple[float, float]:
    """The Fleet screen (headless) against aiohttp on the app's loop: ratio, seconds."""
    from vagent_tui.ui.app import VagentApp
    from vagent_tui.ui.screens.fleet import FleetScreen

    os.environ["VAGENT_FLEET_CONCURRENCY"] = str(concurrency)
    client = PlatformClient(base, TOKEN, timeout=60)
    app = VagentApp(client, profile_label="bench", initial_screen="fleet")
    connector = aiohttp.TCPConnector(limit=concurrency, keepalive_timeout=120)
    session = aiohttp.ClientSession(connector=connector)
    async with app.run_test(size=(120, 40)) as pilot:
        deadline = time.monotonic() + 120
        while not (isinstance(app.screen, FleetScreen) and app.screen.accounts):
            assert time.monotonic() < deadline, "the Fleet screen did not list the accounts"
            await pilot.pause(0.05)
        screen = app.screen
        assert screen.accounts is not None and len(screen.accounts) >= size
        screen.accounts = screen.accounts[:size]
        ids = [a.id for a in screen.accounts if a.id is not None]

        async def console() -> int:
            screen.action_start()
            while screen.running:
                await asyncio.sleep(0.002)
            await pilot.pause()  # the frame that shows the last rows
            shown = [screen.matrix.cell(str(i), "result").plain for i in ids[:50]]
            assert set(shown) == {"✓"}, shown
            return sum(a.ok for a in screen.answers.values())

        async def bare() -> int:
            return await aiohttp_side(session, base, ids, concurrency)

        try:
            await console()
            await bare()
            return (await pairs("screen", console, bare, size, concurrency, reps))[:2]
        finally:
            await session.close()
            await client.aclose()


def rss_mb() -> float:
    """This process's resident set in MB (10^6 bytes)."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024 / 1e6
    raise SystemExit("no VmRSS in /proc/self/status")


async def measure_large(base: str, size: int, concurrency: int) -> list[str]:
    """One pair at ``size`` accounts: the screen (with a key a second) then aiohttp."""
    from vagent_tui import collector
    from vagent_tui.ui.app import VagentApp
    from vagent_tui.ui.screens.fleet import FleetScreen

    os.environ["VAGENT_FLEET_CONCURRENCY"] = str(concurrency)
    client = PlatformClient(base, TOKEN, timeout=60)
    # The cycle collector as the console's command line leaves it (`cli.run_console`):
    # paused for the start, then the app's (a full collection kept off the keys), not an
    # interpreter's defaults no user gets.
    collector.pause()
    app = VagentApp(client, profile_label="bench", initial_screen="fleet")
    connector = aiohttp.TCPConnector(limit=concurrency, keepalive_timeout=120)
    session = aiohttp.ClientSession(connector=connector)
    keys: list[float] = []
    async with app.run_test(size=(120, 40)) as pilot:
        deadline = time.monotonic() + 600
        while not (isinstance(app.screen, FleetScreen) and app.screen.accounts):
            assert time.monotonic() < deadline, "the Fleet screen did not list the accounts"
            await pilot.pause(0.1)
        screen = app.screen
        assert screen.accounts is not None and len(screen.accounts) >= size
        screen.accounts = screen.accounts[:size]
        ids = [a.id for a in screen.accounts if a.id is not None]
        try:
            started = time.perf_counter()
            screen.action_start()
            next_key = time.perf_counter() + 1.0
            while screen.running:
                await asyncio.sleep(0.002)
                if time.perf_counter() >= next_key and screen.matrix.has_focus:
                    before, sent = screen.matrix.cursor_row, time.perf_counter()
                    app.simulate_key("down")
                    while screen.matrix.cursor_row == before and screen.running:
                        await asyncio.sleep(0.001)
                    if screen.matrix.cursor_row != before:
                        keys.append(time.perf_counter() - sent)
                    next_key = time.perf_counter() + 1.0
            await pilot.pause()
            ours = time.perf_counter() - started
            answered = sum(a.ok for a in screen.answers.values())
            assert answered == size, (answered, size)
            memory = rss_mb()
            started = time.perf_counter()
            assert await aiohttp_side(session, base, ids, concurrency) == size
            theirs = time.perf_counter() - started
        finally:
            await session.close()
            await client.aclose()
    collector.resume()
    collector.release()
    ideal = size / concurrency * LATENCY
    worst = max(keys) * 1000 if keys else float("nan")
    print(f"  screen at {size:,}: {ours:.1f} s, aiohttp {theirs:.1f} s, ideal {ideal:.1f} s; "
          f"RSS {memory:.0f} MB; {len(keys)} keys while it ran, median "
          f"{statistics.median(keys) * 1000 if keys else float('nan'):.0f} ms, "
          f"max {worst:.0f} ms", flush=True)  # fmt: skip
    return [
        f"fleet-ui-{size}-ideal: ratio {ours / ideal:.2f} (target {IDEAL_TARGET})",
        f"fleet-ui-{size}: ratio {ours / theirs:.2f} (target {LARGE_TARGET})",
        f"fleet-ui-{size}-rss: {memory:.0f} MB (target {RSS_TARGET_MB:.0f} MB)",
        f"fleet-ui-{size}-keys: {worst:.0f} ms (target {KEY_TARGET_MS:.0f} ms)",
    ]


async def run(
    base: str, sizes: list[int], concurrency: int, reps: int, sweep: bool, ui: bool
) -> None:
    client = PlatformClient(base, TOKEN, timeout=60)
    try:
        owner = await client.get_account()
        directory = AccountDirectory(client, classify(owner), owner)
        all_ids = [a.id for a in await fleet_accounts(directory) if a.id is not None]
    finally:
        await client.aclose()
    worst = 0.0
    lines: list[str] = []
    for size in sizes:
        assert len(all_ids) >= size, (len(all_ids), size)
        ids = all_ids[:size]
        pairs = reps if size <= 2000 else max(LARGE_PAIRS, reps // 2)
        ratio, ours, _ = await measure(base, ids, concurrency, pairs)
        ideal = size / concurrency * LATENCY
        worst = max(worst, ratio)
        lines.append(f"fleet-{size}: ratio {ratio:.2f} (target {TARGET})")
        lines.append(f"fleet-{size}-ideal: ratio {ours / ideal:.2f} (target {IDEAL_TARGET})")
    if ui:
        for size in sizes:
            pairs_ui = reps if size <= 2000 else max(LARGE_PAIRS, reps // 2)
            ratio, ours = await measure_ui(base, size, concurrency, pairs_ui)
            ideal = size / concurrency * LATENCY
            worst = max(worst, ratio)
            lines.append(f"fleet-ui-{size}: ratio {ratio:.2f} (target {TARGET})")
            lines.append(f"fleet-ui-{size}-ideal: ratio {ours / ideal:.2f} (target {IDEAL_TARGET})")
    if sweep:
        for c in (25, 100, 200):
            ratio, ours, _ = await measure(base, all_ids[:1000], c, max(3, reps // 2))
            lines.append(f"fleet-1000-at-{c}: ratio {ratio:.2f} (target {TARGET})")
            ideal = 1000 / c * LATENCY
            lines.append(f"fleet-1000-at-{c}-ideal: ratio {ours / ideal:.2f} (informative)")
    for line in lines:
        print(line)
    print(f"fleet: ratio {worst:.2f} (target {TARGET})")


async def throttled(base: str, cap: int) -> None:
    client = PlatformClient(base, TOKEN, timeout=60)
    try:
        owner = await client.get_account()
        directory = AccountDirectory(client, classify(owner), owner)
        ids = [a.id for a in await fleet_accounts(directory) if a.id is not None][:1000]
        limit = AdaptiveLimit(MAX_CAP)
        started = time.perf_counter()
        answers = await ask_fleet(client, ids, "functions", limiter=limit)
        took = time.perf_counter() - started
    finally:
        await client.aclose()
    failed = sum(not a.ok for a in answers)
    print(
        f"throttled at {cap}: {len(ids):,} accounts in {took:.2f} s (ideal at {cap}: "
        f"{len(ids) / cap * LATENCY:.2f} s), {failed} failed, {limit.backoffs} back-offs, "
        f"pauses {sum(limit.pauses):.0f} s, most in flight {limit.max_in_flight}, "
        f"limits {limit.history[:12]}{'...' if len(limit.history) > 12 else ''} "
        f"-> {limit.limit}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--reps", type=int, default=7, help="pairs of runs (default 7)")
    parser.add_argument("--concurrency", type=int, default=50, help="requests in flight (50)")
    parser.add_argument("--sizes", default="1000,10000", help="accounts (1000,10000)")
    parser.add_argument("--large", type=int, default=100_000,
                        help="the screen at N accounts, one pair (100000; 0: not)")  # fmt: skip
    parser.add_argument("--sweep", action="store_true", help="also 1,000 at 25/100/200")
    parser.add_argument("--no-ui", action="store_true", help="the service layer only")
    parser.add_argument("--throttle", type=int, default=0, help="only the 429 back-off at N")
    args = parser.parse_args()
    # the console's own transport, as a user gets it (not httpx's, whatever the shell has)
    os.environ.pop("VAGENT_TRANSPORT", None)
    if args.throttle:
        limited = loopback_sim(
            "--accounts", "1000", "--latency-ms", "50", "--max-in-flight", str(args.throttle)
        )
        with limited as base:
            asyncio.run(throttled(base, args.throttle))
        return
    sizes = [int(s) for s in args.sizes.split(",") if s]
    large: list[str] = []
    if args.large and not args.no_ui:
        big = loopback_sim(
            "--accounts", str(args.large), "--latency-ms", str(int(LATENCY * 1000)),
            keep_alive=600,
        )  # fmt: skip
        with big as base:
            large = asyncio.run(measure_large(base, args.large, args.concurrency))
    sim = loopback_sim(
        "--accounts", str(max(sizes)), "--latency-ms", str(int(LATENCY * 1000)), keep_alive=120
    )
    with sim as base:
        for line in large:
            print(line)
        asyncio.run(run(base, sizes, args.concurrency, args.reps, args.sweep, not args.no_ui))


if __name__ == "__main__":
    main()
