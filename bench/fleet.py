"""Fleet: one question (functions availability) of 1,000 agent accounts, 50 ms latency.

A simulator serves over loopback HTTP (uvicorn in its own process, ``--accounts 1000
--latency-ms 50``). The agent accounts are listed once (not timed). Then, in pairs:

* the service layer: ``services.fleet.ask_fleet(client, ids, "functions",
  concurrency=C)`` (typed ``FunctionDescriptor`` lists, per-account answers);
* the yardstick: a bare ``asyncio.gather`` over every id with an ``asyncio.Semaphore(C)``
  around ``httpx.AsyncClient.get`` + ``json()``.

Same concurrency limit C (default 50), same simulator, and the same connection pool
settings on both sides: each gets its own ``httpx.AsyncHTTPTransport`` with
``max_connections = max_keepalive_connections = C`` (httpx's default keeps only 20
connections alive, so at C = 50 either side would open and close connections all the
time, and the figure would measure TCP set-up instead). The simulator keeps idle
connections for 120 s (uvicorn's 5 s would close one side's pool while the other
runs, racing its next requests). Each pair runs both sides back to back, which one
first alternating; the printed ratio is the median of the pairs' ratios service /
bare, so a slow moment of the machine (or of the simulator, CPU-bound on the same
cores) weighs on both halves of a pair alike.

Usage: ``python bench/fleet.py [--reps N] [--concurrency C]``
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import loopback_sim

from vagent_tui.api.client import PlatformClient
from vagent_tui.api.scope import classify
from vagent_tui.services.accounts import AccountDirectory
from vagent_tui.services.fleet import ask_fleet, fleet_accounts

TARGET = 1.15
TOKEN = "demo-partner"
ACCOUNTS = 1000


async def run(base: str, reps: int, concurrency: int) -> float:
    def pool() -> httpx.AsyncHTTPTransport:
        limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
        return httpx.AsyncHTTPTransport(limits=limits)

    client = PlatformClient(base, TOKEN, transport=pool(), timeout=30)
    raw = httpx.AsyncClient(base_url=base, timeout=30, transport=pool())
    owner = await client.get_account()
    directory = AccountDirectory(client, classify(owner), owner)
    ids = [a.id for a in await fleet_accounts(directory) if a.id is not None]
    assert len(ids) >= ACCOUNTS, len(ids)
    ids = ids[:ACCOUNTS]

    async def service() -> int:
        answers = await ask_fleet(client, ids, "functions", concurrency=concurrency)
        return sum(a.ok for a in answers)

    async def bare() -> int:
        gate = asyncio.Semaphore(concurrency)

        async def one(account_id: int) -> object:
            async with gate:
                response = await raw.get(
                    "/api/v2/agent/functions",
                    params={"token": TOKEN, "targetAccountId": account_id},
                )
                return response.json()["functions"]

        return len(await asyncio.gather(*(one(i) for i in ids)))

    ours: list[float] = []
    theirs: list[float] = []
    try:
        for _ in range(2):  # warm both connection pools (every connection opened)
            assert await service() == len(ids)
            assert await bare() == len(ids)
        for rep in range(reps):
            pair = (service, bare) if rep % 2 else (bare, service)
            for fn in pair:
                started = time.perf_counter()
                await fn()
                (ours if fn is service else theirs).append(time.perf_counter() - started)
    finally:
        await client.aclose()
        await raw.aclose()
    a, b = statistics.median(ours), statistics.median(theirs)
    ratios = sorted(x / y for x, y in zip(ours, theirs, strict=True))
    print(
        f"{len(ids)} accounts, concurrency {concurrency}, {reps} pairs: service {a:.2f} s, "
        f"bare gather+semaphore {b:.2f} s (ideal {len(ids) / concurrency * 0.05:.2f} s); "
        f"pair ratios {ratios[0]:.2f}..{ratios[-1]:.2f}"
    )
    return statistics.median(ratios)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=7, help="pairs of runs (default 7)")
    parser.add_argument("--concurrency", type=int, default=50, help="requests in flight (50)")
    args = parser.parse_args()
    sim = loopback_sim("--accounts", str(ACCOUNTS), "--latency-ms", "50", keep_alive=120)
    with sim as base:
        ratio = asyncio.run(run(base, args.reps, args.concurrency))
    print(f"fleet: ratio {ratio:.2f} (target {TARGET})")


if __name__ == "__main__":
    main()
