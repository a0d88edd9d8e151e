"""The service layer's call against a raw httpx call of the same endpoint.

The simulator runs over loopback HTTP (uvicorn in a subprocess), like a real platform.
Two endpoints, each called in batches of sequential requests on one kept-alive
connection:

* ``PlatformClient.list_voices()`` (query assembly, error envelope check, retry policy,
  observers, the typed ``list[Voice]``) against ``httpx.AsyncClient.get`` + ``json()``
  + the ``voices`` list taken out of the reply;
* ``PlatformClient.get_account()`` (a typed ``Account``) against the same raw call.

Batches of the two sides alternate (and which goes first alternates); each batch of
the client is paired with the raw batch next to it. The printed ratio is the worse
endpoint's median of the pairs' ratios client / raw (the medians of the times per call
are shown too).

Usage: ``python bench/client.py [--reps N] [--calls K]``
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import loopback_sim

from vagent_tui.api.client import PlatformClient

TARGET = 1.10
TOKEN = "demo-partner"


Call = Callable[[], Awaitable[object]]
"""One request, as the client or a bare HTTP call makes it."""


async def batch(call: Call, calls: int) -> float:
    started = time.perf_counter()
    for _ in range(calls):
        await call()
    return (time.perf_counter() - started) / calls


async def run(base: str, reps: int, calls: int) -> float:
    client = PlatformClient(base, TOKEN)
    raw = httpx.AsyncClient(base_url=base, timeout=15)

    async def raw_get(path: str, key: str | None) -> object:
        response = await raw.get("/api/v2" + path, params={"token": TOKEN})
        response.raise_for_status()
        payload = response.json()
        return payload[key] if key else payload

    cases: dict[str, tuple[Call, Call]] = {
        "list_voices": (client.list_voices, lambda: raw_get("/agent/voices", "voices")),
        "get_account": (client.get_account, lambda: raw_get("/account", None)),
    }
    worst = 0.0
    try:
        for name, (ours, theirs) in cases.items():
            for _ in range(3):  # warm both connections and caches
                await ours()
                await theirs()
            a: list[float] = []
            b: list[float] = []
            for rep in range(reps):
                if rep % 2:
                    a.append(await batch(ours, calls))
                    b.append(await batch(theirs, calls))
                else:
                    b.append(await batch(theirs, calls))
                    a.append(await batch(ours, calls))
            ma, mb = statistics.median(a), statistics.median(b)
            # Each batch is paired with its neighbour of the other side: the median of
            # the pairs' ratios cancels the machine's slow drifts in load.
            ratio = statistics.median(x / y for x, y in zip(a, b, strict=True))
            worst = max(worst, ratio)
            print(
                f"{name}: client {ma * 1e6:.0f} µs/call, raw httpx {mb * 1e6:.0f} µs/call, "
                f"ratio {ratio:.3f}"
            )
    finally:
        await client.aclose()
        await raw.aclose()
    return worst


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=201, help="batches per side (default 201)")
    parser.add_argument("--calls", type=int, default=5, help="calls per batch (default 5)")
    args = parser.parse_args()
    with loopback_sim() as base:
        worst = asyncio.run(run(base, args.reps, args.calls))
    print(f"client: ratio {worst:.2f} (target {TARGET})")


if __name__ == "__main__":
    main()
