"""Fleet: one question (functions availability) of 1,000 agent accounts, 50 ms latency.

A simulator serves over loopback HTTP (uvicorn subprocess, ``--accounts 1000
--latency-ms 50``). The agent accounts are listed once (not timed). Then, alternately:

* the service layer: ``services.fleet.ask_fleet(client, ids, "functions",
  concurrency=C)`` (typed ``FunctionDescriptor`` lists, per-account answers);
* the yardstick: a bare ``asyncio.gather`` over every id with an ``asyncio.Semaphore(C)``
  around ``httpx.AsyncClient.get`` + ``json()``.

Same concurrency limit C (default 50), same simulator, one client each (default httpx
connection limits on both sides). The ratio is median(service) / median(bare).

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
    client = PlatformClient(base, TOKEN)
    raw = httpx.AsyncClient(base_url=base, timeout=30)
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
        assert await service() == len(ids)  # warm both connection pools
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
    print(
        f"{len(ids)} accounts, concurrency {concurrency}: service {a:.2f} s, "
        f"bare gather+semaphore {b:.2f} s (ideal {len(ids) / concurrency * 0.05:.2f} s)"
    )
    return a / b


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=3, help="runs per side (default 3)")
    parser.add_argument("--concurrency", type=int, default=50, help="requests in flight (50)")
    args = parser.parse_args()
    with loopback_sim("--accounts", str(ACCOUNTS), "--latency-ms", "50") as base:
        ratio = asyncio.run(run(base, args.reps, args.concurrency))
    print(f"fleet: ratio {ratio:.2f} (target {TARGET})")


if __name__ == "__main__":
    main()
