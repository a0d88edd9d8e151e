"""Onboarding: plan and apply a CSV of 1,000 agent accounts at 50 ms.

Each run starts a fresh simulator over loopback HTTP (uvicorn in its own process,
``--latency-ms 50``; not timed): the simulator looks an external id up by walking the
key's tree, so thousands of accounts left by earlier runs would measure its own walk,
not the console. The file (1,000 ``account`` rows under the demo organization 1110,
external ids of their own per run, so that every plan finds 1,000 to create and every
apply really creates) is read once per run (not timed). Then, with the key of
``demo-reseller``:

* plan: ``services.onboard.plan_onboarding(client, rows, concurrency=C)``: each row's
  ``GET /getAccountByExternalId`` (its parent, named ``#1110``, needs no read);
* apply: ``services.onboard_apply.apply_onboarding(client, plan, log, concurrency=C)``
  with the log in a temporary directory (never the user's state dir): one ``POST
  /createAccount`` per row, each marked sent in the log before it goes out. Every row
  must come out ``written``.

The yardstick is the network's physical ideal at the concurrency used: C workers, a
row at a time each, go through N rows in ceil(N / C) rounds of one round trip (plan:
the lookup; apply: the create). At N = 1,000, C = 32 and 50 ms: 32 x 50 ms = 1.60 s
each. ``onboard-plan-ideal`` and ``onboard-apply-ideal`` are the medians over the runs
divided by that (target 1.5).

Memory: after each run (plan, apply, their results dropped, ``gc.collect()``) the bench
process's resident set (``/proc/self/statm``) is taken; ``onboard-memory`` is its
growth from the second run to the last (the first fills caches and the allocator's
arenas), in MB (target: under 5 MB, flat).

Usage: ``python bench/onboard.py [--reps R] [--rows N] [--concurrency C]``
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

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import loopback_sim

from vagent_tui.api.client import PlatformClient
from vagent_tui.services.bulk import DEFAULT_CONCURRENCY
from vagent_tui.services.onboard import plan_onboarding
from vagent_tui.services.onboard_apply import apply_onboarding
from vagent_tui.services.onboard_rows import log_for, read_rows

IDEAL_TARGET = 1.5
GROWTH_LIMIT = 5 * 1024 * 1024
TOKEN = "demo-reseller"
ORGANIZATION = 1110
ROWS = 1000
LATENCY = 0.050


def rss() -> int:
    """The process's resident set size in bytes."""
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def the_file(run: int, rows: int) -> str:
    lines = ["type,external_id,name,parent,billing_id"]
    lines += [f"account,bench-{run}-{n},Bench {run} account {n},#{ORGANIZATION},bill-{n % 50}"
              for n in range(rows)]  # fmt: skip
    return "\n".join(lines) + "\n"


async def one_run(base: str, run: int, rows: int, concurrency: int, folder: Path) -> tuple[
    float, float, float, float
]:  # fmt: skip
    """Plan and apply one file; (plan s, apply s, plan CPU s, apply CPU s)."""
    client = PlatformClient(base, TOKEN, timeout=30)
    try:
        await client.get_account()  # the connection is up before the clock starts
        parsed = read_rows(the_file(run, rows))
        started, cpu = time.perf_counter(), time.process_time()
        plan = await plan_onboarding(client, parsed, concurrency=concurrency, origin="bench")
        plan_s, plan_cpu = time.perf_counter() - started, time.process_time() - cpu
        assert plan.counts() == {"create": rows}, plan.counts()
        log = log_for(parsed, "bench", folder)
        started, cpu = time.perf_counter(), time.process_time()
        results = await apply_onboarding(client, plan, log, concurrency=concurrency)
        apply_s, apply_cpu = time.perf_counter() - started, time.process_time() - cpu
        log.release()
        others = [r for r in results if r.result != "written"]
        assert len(results) == rows and not others, others[:3]
    finally:
        await client.aclose()
    return plan_s, apply_s, plan_cpu, apply_cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=5, help="plan + apply runs (default 5)")
    parser.add_argument("--rows", type=int, default=ROWS, help="accounts in the file (1000)")
    parser.add_argument("--concurrency", type=int, default=DEFAULT_CONCURRENCY,
                        help=f"rows in flight ({DEFAULT_CONCURRENCY})")  # fmt: skip
    args = parser.parse_args()
    rows, concurrency = args.rows, args.concurrency
    ideal = math.ceil(rows / concurrency) * LATENCY
    print(f"{rows:,} accounts, concurrency {concurrency}, {args.reps} runs; ideal: "
          f"{math.ceil(rows / concurrency)} x {LATENCY * 1000:.0f} ms = {ideal:.2f} s "
          "for the plan and for the apply", flush=True)  # fmt: skip
    plans: list[float] = []
    applies: list[float] = []
    memory: list[int] = []
    with tempfile.TemporaryDirectory(prefix="vagent-onboard-bench-") as tmp:
        for run in range(args.reps):
            with loopback_sim("--latency-ms", "50", keep_alive=120) as base:
                plan_s, apply_s, plan_cpu, apply_cpu = asyncio.run(
                    one_run(base, run, rows, concurrency, Path(tmp))
                )
            plans.append(plan_s)
            applies.append(apply_s)
            gc.collect()
            memory.append(rss())
            print(f"  run {run + 1}: plan {plan_s:.2f} s ({plan_s / ideal:.2f}x, CPU "
                  f"{plan_cpu:.2f} s), apply {apply_s:.2f} s ({apply_s / ideal:.2f}x, CPU "
                  f"{apply_cpu:.2f} s); RSS {memory[-1] / 2**20:.1f} MB",
                  flush=True)  # fmt: skip
    plan_m, apply_m = statistics.median(plans), statistics.median(applies)
    print(f"plan:  median {plan_m:.2f} s (min {min(plans):.2f}, max {max(plans):.2f})")
    print(f"apply: median {apply_m:.2f} s (min {min(applies):.2f}, max {max(applies):.2f})")
    print(f"onboard-plan-ideal: ratio {plan_m / ideal:.2f} (target {IDEAL_TARGET})")
    print(f"onboard-apply-ideal: ratio {apply_m / ideal:.2f} (target {IDEAL_TARGET})")
    if len(memory) >= 3:
        growth = (memory[-1] - memory[1]) / 2**20
        print(f"onboard-memory: {growth:+.2f} MB (target {GROWTH_LIMIT / 2**20:.0f} MB)")
    else:
        print("memory: growth needs at least 3 runs (--reps 3)")
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
