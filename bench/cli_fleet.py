"""fleet ask: the command over N accounts against the Fleet screen's service path, at 50 ms.

A simulator serves over loopback HTTP in its own process (``--accounts N --latency-ms
50``). For each size, in pairs (which side first alternating):

* the command: ``vagent-tui fleet ask functions -o jsonl --concurrency C`` as a script
  runs it, a process of its own (``VAGENT_BASE_URL``, ``VAGENT_TOKEN``; a configuration
  folder of its own, empty), from its spawn until it has exited, its stdout read
  through a pipe; every one of the N lines checked (no error) and its exit code 0;
* the screen's path, in a process of its own timed the same way (spawn to exit): what
  the Fleet screen does from an empty listing to the last answer, through the same
  services: a new `PlatformClient`, the key owner read, the agent accounts listed
  (`list_agents`, the screen's listing), then ``ask_fleet(client, ids, "functions",
  limiter=AdaptiveLimit(C))``, each answer then written to stdout as a JSON line of
  its own (the screen draws a row instead; a process must hand its answers on).

Both collect cycles as a command does: none while they import and connect, then with
the running console's thresholds (`vagent_tui.collector.starting`, ``resume``).

Both end the same way: the command through its entry point, which leaves what it made
to the operating system (`vagent_tui.collector.ending`), the service path's child by
calling it too.

Both sides pay an interpreter and their imports, so the ratio says whether the command
asks the fleet as fast as the screen's services do; what a command's start costs on top
of a bare script is `bench/cli_first_request.py`'s figure. A size's ratio is the median
of its pairs' ratios command / service path (target 1.15, as the fleet bench's).

Prints one ``cli-fleet-N: ratio R (target 1.15)`` line per size and last the overall
``cli-fleet: ratio R (target 1.15)``, the worst of them.

Usage: ``python bench/cli_fleet.py [--reps N] [--concurrency C] [--sizes 1000,5000]``
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import ROOT, loopback_sim

TARGET = 1.15
TOKEN = "demo-partner"
LATENCY = 0.05


async def service_child(base: str, concurrency: int) -> None:
    """The Fleet screen's path: list the agent accounts, ask each; a JSON line an answer."""
    from vagent_tui import collector
    from vagent_tui.api.client import PlatformClient
    from vagent_tui.api.scope import classify
    from vagent_tui.services.accounts import AccountDirectory
    from vagent_tui.services.agent_listing import list_agents
    from vagent_tui.services.fleet import AdaptiveLimit, ask_fleet

    client = PlatformClient(base, TOKEN, timeout=60)
    try:
        owner = await client.get_account()
        collector.resume()  # as a command, once connected
        listing = await list_agents(client, AccountDirectory(client, classify(owner), owner))
        ids = list(listing.accounts.ids)
        limit = AdaptiveLimit(concurrency)
        answers = await ask_fleet(client, ids, "functions", limiter=limit)
        out = sys.stdout
        for answer in answers:
            out.write(json.dumps({"account": answer.account_id, "ok": answer.ok}) + "\n")
    finally:
        await client.aclose()


def service_side(base: str, concurrency: int) -> int:
    """The service path in its own process (spawn to exit); its good answers."""
    command = [sys.executable, __file__, "--service-child", base, str(concurrency)]
    env = {**os.environ, "PYTHONPATH": ROOT}
    done = subprocess.run(command, env=env, cwd=ROOT, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"the service path exited {done.returncode}: {done.stderr[-400:]}")
    return sum(1 for line in done.stdout.splitlines() if json.loads(line)["ok"])


def command_side(base: str, concurrency: int, home: str) -> int:
    """``vagent-tui fleet ask functions -o jsonl`` in its own process; its good lines."""
    env = {
        **os.environ,
        "VAGENT_BASE_URL": base,
        "VAGENT_TOKEN": TOKEN,
        "XDG_CONFIG_HOME": home,
        "XDG_STATE_HOME": home,
        "PYTHONPATH": ROOT,
    }
    env.pop("VAGENT_CONFIG", None)
    command = [sys.executable, "-m", "vagent_tui", "fleet", "ask", "functions", "-o", "jsonl",
               "--concurrency", str(concurrency), "-q"]  # fmt: skip
    done = subprocess.run(command, env=env, cwd=ROOT, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"the command exited {done.returncode}: {done.stderr[-400:]}")
    lines = [json.loads(line)["item"] for line in done.stdout.splitlines()]
    return sum(1 for item in lines if item["error"] is None)


def measure(base: str, size: int, concurrency: int, reps: int, home: str) -> float:
    """The median ratio command / service path of ``reps`` pairs."""
    ours: list[float] = []
    theirs: list[float] = []

    def service() -> int:
        return service_side(base, concurrency)

    def command() -> int:
        return command_side(base, concurrency, home)

    assert service() == size and command() == size  # warm: the simulator, the page cache
    for rep in range(reps):
        sides = (command, service) if rep % 2 else (service, command)
        for side in sides:
            started = time.perf_counter()
            assert side() == size
            (ours if side is command else theirs).append(time.perf_counter() - started)
    ratios = sorted(x / y for x, y in zip(ours, theirs, strict=True))
    print(
        f"  {size:,} accounts, {concurrency} in flight at most, {reps} pairs: command "
        f"{statistics.median(ours):.2f} s, service path {statistics.median(theirs):.2f} s, "
        f"ideal {size / concurrency * LATENCY:.2f} s; "
        f"pair ratios {ratios[0]:.2f}..{ratios[-1]:.2f}",
        flush=True,
    )
    return statistics.median(ratios)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--reps", type=int, default=5, help="pairs of runs (default 5)")
    parser.add_argument("--concurrency", type=int, default=50, help="requests in flight (50)")
    parser.add_argument("--sizes", default="1000,5000", help="accounts (1000,5000)")
    parser.add_argument("--service-child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.service_child:
        from vagent_tui import collector

        base, concurrency = args.service_child
        with collector.starting():  # as a command's start
            asyncio.run(service_child(base, int(concurrency)))
        collector.ending()  # as the command ends (`vagent_tui.cli.entry`): both sides alike
        return
    # the console's own transport, as a user gets it (not httpx's, whatever the shell has)
    os.environ.pop("VAGENT_TRANSPORT", None)
    sizes = [int(s) for s in args.sizes.split(",") if s]
    lines: list[str] = []
    worst = 0.0
    with tempfile.TemporaryDirectory() as home:
        for size in sizes:
            sim = loopback_sim(
                "--accounts", str(size), "--latency-ms", str(int(LATENCY * 1000)), keep_alive=120
            )  # fmt: skip
            with sim as base:
                ratio = measure(base, size, args.concurrency, args.reps, home)
            worst = max(worst, ratio)
            lines.append(f"cli-fleet-{size}: ratio {ratio:.2f} (target {TARGET})")
    for line in lines:
        print(line)
    print(f"cli-fleet: ratio {worst:.2f} (target {TARGET})")


if __name__ == "__main__":
    main()
