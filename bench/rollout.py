"""Rollout: plan and apply one settings change on 1,000 agent accounts, 50 ms latency.

A simulator serves over loopback HTTP (uvicorn in its own process, ``--accounts 1000
--latency-ms 50``). The agent accounts are listed once (not timed). Then, R times:

* plan: ``services.rollout.plan_rollout(client, accounts, change, concurrency=C)``
  (each account's staging and live read together: ``speakingTimeout`` needs neither
  the voices nor the functions list);
* apply: ``services.rollout_apply.apply_rollout(client, plan, log, concurrency=C)``
  with a fresh ``RolloutLog`` in a temporary directory (never the user's state dir):
  per account staging and live read again together, then one staging write. Every
  account must come out ``written``.

The change alternates between ``speakingTimeout`` 900 and 901, so that every plan finds
all accounts to change and every apply really writes.

The yardstick is the network's physical ideal: round trips x latency at the
concurrency limit. C workers, each one account at a time, go through N accounts in
ceil(N / C) rounds; a plan round is one round trip (the reads of an account go out
together), an apply round two (the reads, then the write). At N = 1,000, C = 32 and
50 ms: plan 32 x 50 ms = 1.60 s, apply 32 x 2 x 50 ms = 3.20 s. The printed ratios are
the medians over the R runs divided by those ideals; the targets of the issue are
absolute (plan under 3 s, apply under 5 s). Each run also shows the CPU time of the
bench process (client, services, httpx): when it comes close to the wall time, the
client is CPU-bound and the figure no longer measures the network.

Memory: after each run (plan, apply, their results dropped, ``gc.collect()``) the
bench process's resident set (``/proc/self/statm``) and its count of gc-tracked objects
are taken; the growth of the resident set from the second run to the last (the first
one fills the connection pool, caches and the allocator's arenas) must stay under
5 MB.

The client runs as the console runs it: its own transport (`vagent_tui.api.transport.
default_transport`: aiohttp's connection pool under httpx, up to 100 connections kept
alive, so each account's requests reuse connections, as on a real network where a new
connection costs a TCP and TLS handshake the simulator does not charge). ``--pool P``
runs httpx's own pool instead, with P connections kept alive, for comparison: httpcore's
bookkeeping scans every pooled connection several times per request, and at 30+ requests
in flight that CPU, not the network, sets the pace. The simulator keeps idle connections
for 120 s (uvicorn's 5 s could close pooled connections between runs, racing the next
requests).

Usage: ``python bench/rollout.py [--reps R] [--concurrency C] [--pool P]``
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import math
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import loopback_sim

from vagent_tui.api.client import PlatformClient
from vagent_tui.api.scope import classify
from vagent_tui.services.accounts import AccountDirectory
from vagent_tui.services.agent_listing import fleet_accounts
from vagent_tui.services.changes import Change
from vagent_tui.services.rollout import DEFAULT_CONCURRENCY, plan_rollout
from vagent_tui.services.rollout_apply import RolloutLog, apply_rollout

PLAN_TARGET = 3.0
APPLY_TARGET = 5.0
GROWTH_LIMIT = 5 * 1024 * 1024
TOKEN = "demo-partner"
ACCOUNTS = 1000
LATENCY = 0.050
VALUES = (900, 901)


def rss() -> int:
    """The process's resident set size in bytes."""
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def summary(what: str, times: list[float], ideal: float, target: float) -> float:
    """Print the median of ``times`` against the ideal and the target; return it."""
    median = statistics.median(times)
    print(f"{what + ':':6} median {median:.2f} s (min {min(times):.2f}, max {max(times):.2f}), "
          f"ideal {ideal:.2f} s, ratio {median / ideal:.2f}; "
          f"{verdict(median < target)} (target: under {target:.0f} s)")  # fmt: skip
    return median


async def run(
    base: str, reps: int, concurrency: int, pool: int, folder: Path
) -> tuple[float, float]:
    if pool:
        limits = httpx.Limits(max_connections=pool, max_keepalive_connections=pool)
        transport = httpx.AsyncHTTPTransport(limits=limits)
        client = PlatformClient(base, TOKEN, transport=transport, timeout=30)
    else:
        client = PlatformClient(base, TOKEN, timeout=30)
    owner = await client.get_account()
    directory = AccountDirectory(client, classify(owner), owner)
    accounts = (await fleet_accounts(directory))[:ACCOUNTS]
    assert len(accounts) == ACCOUNTS, len(accounts)
    del directory

    rounds = math.ceil(len(accounts) / concurrency)
    plan_ideal, apply_ideal = rounds * LATENCY, rounds * 2 * LATENCY
    plans: list[float] = []
    applies: list[float] = []
    memory: list[tuple[int, int]] = []
    pooled = f"httpx's pool of {pool} connections" if pool else "the client's own transport"
    print(f"{len(accounts)} accounts, concurrency {concurrency}, {pooled}, {reps} runs; ideal: "
          f"plan {rounds} x {LATENCY * 1000:.0f} ms = {plan_ideal:.2f} s, "
          f"apply {rounds} x 2 x {LATENCY * 1000:.0f} ms = {apply_ideal:.2f} s")  # fmt: skip
    try:
        for rep in range(reps):
            value = VALUES[rep % 2]
            change = Change.of_settings({"speakingTimeout": value})
            started, cpu = time.perf_counter(), time.process_time()
            plan = await plan_rollout(client, accounts, change, concurrency=concurrency)
            plans.append(time.perf_counter() - started)
            plan_cpu = time.process_time() - cpu
            counts = plan.counts()
            assert counts["change"] == len(accounts), dict(counts)

            log = RolloutLog(folder / f"run-{rep}.jsonl")
            started, cpu = time.perf_counter(), time.process_time()
            results = await apply_rollout(client, plan, log, concurrency=concurrency)
            applies.append(time.perf_counter() - started)
            apply_cpu = time.process_time() - cpu
            log.release()
            written = sum(r.result == "written" for r in results)
            others = [r for r in results if r.result != "written"]
            assert written == len(accounts), (written, others[:3])

            del plan, results, log
            gc.collect()
            memory.append((rss(), len(gc.get_objects())))
            print(f"  run {rep + 1}: speakingTimeout {value}: "
                  f"plan {plans[-1]:.2f} s ({plans[-1] / plan_ideal:.2f}x, CPU {plan_cpu:.2f} s), "
                  f"apply {applies[-1]:.2f} s ({applies[-1] / apply_ideal:.2f}x, "
                  f"CPU {apply_cpu:.2f} s), {written} written; "
                  f"RSS {memory[-1][0] / 2**20:.1f} MB, {memory[-1][1]:,} objects")  # fmt: skip
    finally:
        await client.aclose()

    plan_s = summary("plan", plans, plan_ideal, PLAN_TARGET)
    apply_s = summary("apply", applies, apply_ideal, APPLY_TARGET)
    # The same medians in the form bench/run_all.py reads.
    print(f"rollout-plan: {plan_s:.2f} s (target {PLAN_TARGET:.0f} s)")
    print(f"rollout-apply: {apply_s:.2f} s (target {APPLY_TARGET:.0f} s)")
    if len(memory) >= 3:
        growth = memory[-1][0] - memory[1][0]
        objects = memory[-1][1] - memory[1][1]
        print(f"memory: RSS growth from run 2 to run {len(memory)}: {growth / 2**20:+.2f} MB, "
              f"gc-tracked objects {objects:+,}; {verdict(growth < GROWTH_LIMIT)} "
              f"(limit {GROWTH_LIMIT / 2**20:.0f} MB)")  # fmt: skip
        print(f"rollout-memory: {growth / 2**20:+.2f} MB (target {GROWTH_LIMIT / 2**20:.0f} MB)")
    else:
        print("memory: growth needs at least 3 runs (--reps 3)")
    return plan_s / plan_ideal, apply_s / apply_ideal


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=5, help="plan + apply runs (default 5)")
    parser.add_argument("--concurrency", type=int, default=DEFAULT_CONCURRENCY,
                        help=f"accounts in flight ({DEFAULT_CONCURRENCY})")  # fmt: skip
    parser.add_argument("--pool", type=int, default=0,
                        help="httpx's own pool with P connections kept alive (default 0: "
                             "the client's own transport, as the console runs)")  # fmt: skip
    args = parser.parse_args()
    pool = args.pool
    sim = loopback_sim("--accounts", str(ACCOUNTS), "--latency-ms", "50", keep_alive=120)
    with sim as base, tempfile.TemporaryDirectory(prefix="vagent-rollout-bench-") as tmp:
        plan_ratio, apply_ratio = asyncio.run(
            run(base, args.reps, args.concurrency, pool, Path(tmp))
        )
    print(f"rollout: plan ratio {plan_ratio:.2f}, apply ratio {apply_ratio:.2f} "
          f"(targets: plan < {PLAN_TARGET:.0f} s, apply < {APPLY_TARGET:.0f} s)")  # fmt: skip


if __name__ == "__main__":
    main()
