"""The Scope filter at 10,000 and 100,000 agent accounts, typed in a real terminal.

Two simulators serve over loopback HTTP (uvicorn subprocesses, ``--accounts 10000`` and
``--accounts 100000``; the demo partner's tree grows to that many agents). For each
repetition and each size, alternating, a fresh console runs in a tmux session of
120x40 (``vagent-tui --base-url … --token demo-partner --screen scope``; tmux is the
terminal, its screen is read with ``capture-pane``). Once the tree shows and the screen
and the console's CPU are quiet, ``/`` opens the filter, then ``fleet agent NNNNN`` is
typed one key at a time. Each key is timed from ``send-keys`` to the first capture of
the screen that shows the answer for the text typed so far; before the next key the
screen must not change for
0.3 s and the console use no CPU (``/proc``), so a key's time includes everything the
console does for it. After the last key, the agent asked for must be on the screen.

* first key: the time of the first key (target 1 s);
* further keys: the median time of the other keys (target 100 ms), and the slowest of
  them (target 200 ms).

The yardstick is the target budget itself. For scale, the same run also times the bare
request the console's answer rests on: ``GET /api/v2/searchAccounts`` for every prefix
typed, with plain httpx (no console code), after each console's keys, on the same
simulator; its median is printed beside the console's (with tmux's polling, about 5 ms
of a key's time is the measuring itself). Each size's median and max are printed as
ratios to their targets; the last ratio is the worst of measured/target over the three
figures and the two sizes.

Usage: ``python bench/scope.py [--reps N]`` (needs tmux)
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import TmuxConsole, loopback_sim

FIRST_KEY_TARGET = 1.0
NEXT_KEY_TARGET = 0.1
MAX_KEY_TARGET = 0.2
SIZES = (10_000, 100_000)
TOKEN = "demo-partner"
CPU: list[float] = []
"""The console's CPU seconds per key (from the key to quiet), for the record."""


def answered(text: str) -> Callable[[str], bool]:
    """The screen shows the answer for ``text`` (the line above it says how many match)."""

    def check(screen: str) -> bool:
        return re.search(f"match(es)? “{re.escape(text.strip())}”", screen) is not None

    return check


def type_query(console: TmuxConsole, query: str) -> list[float]:
    console.send("/")
    console.quiet()
    times = []
    for end in range(1, len(query) + 1):
        cpu = console.cpu()
        console.send(query[end - 1])
        times.append(console.wait_for(answered(query[:end])))
        console.quiet()
        CPU.append(console.cpu() - cpu)
    return times


def bare(base: str, query: str) -> list[float]:
    times = []
    with httpx.Client(base_url=base, timeout=30) as client:
        for end in range(1, len(query) + 1):
            params: dict[str, str | int] = {
                "token": TOKEN, "queryText": query[:end], "pagination": "true",
                "page": 0, "pageSize": 50}  # fmt: skip
            started = time.perf_counter()
            client.get("/api/v2/searchAccounts", params=params).json()
            times.append(time.perf_counter() - started)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=3, help="consoles per size (default 3)")
    args = parser.parse_args()
    if shutil.which("tmux") is None:
        raise SystemExit("bench/scope.py needs tmux")
    rng = random.Random(16)
    first: dict[int, list[float]] = {n: [] for n in SIZES}
    rest: dict[int, list[float]] = {n: [] for n in SIZES}
    plain: dict[int, list[float]] = {n: [] for n in SIZES}
    with (
        loopback_sim("--accounts", str(SIZES[0])) as small,
        loopback_sim("--accounts", str(SIZES[1])) as large,
    ):
        bases = {SIZES[0]: small, SIZES[1]: large}
        for rep in range(args.reps):
            for size in SIZES if rep % 2 == 0 else tuple(reversed(SIZES)):
                wanted = f"Fleet Agent {rng.randrange(1, size - 13):05d}"
                console = TmuxConsole(
                    bases[size],
                    f"scope-bench-{os.getpid()}-{rep}-{size}",
                    token=TOKEN,
                    screen="scope",
                )
                try:
                    console.wait_for(lambda s: "accounts under" in s)
                    console.quiet()
                    times = type_query(console, wanted.lower())
                    if wanted not in console.screen():
                        raise SystemExit(f"{wanted} not found at {size:,} accounts")
                finally:
                    console.close()
                first[size].append(times[0])
                rest[size].extend(times[1:])
                plain[size].extend(bare(bases[size], wanted.lower()))
    ratios = []
    for size in SIZES:
        a, b, c = (statistics.median(x[size]) for x in (first, rest, plain))
        slowest = max(rest[size])
        ratios += [a / FIRST_KEY_TARGET, b / NEXT_KEY_TARGET, slowest / MAX_KEY_TARGET]
        print(
            f"{size:,} agents: first key {a * 1000:.0f} ms (target {FIRST_KEY_TARGET * 1000:.0f}),"
            f" further keys median {b * 1000:.0f} ms (target {NEXT_KEY_TARGET * 1000:.0f}),"
            f" max {slowest * 1000:.0f} ms (target {MAX_KEY_TARGET * 1000:.0f});"
            f" bare searchAccounts median {c * 1000:.0f} ms"
        )
        print(f"scope-{size}-median: ratio {b / NEXT_KEY_TARGET:.2f} (target 1.0)")
        print(f"scope-{size}-max: ratio {slowest / MAX_KEY_TARGET:.2f} (target 1.0)")
    cpu = statistics.median(CPU) * 1000
    print(f"console CPU per key median {cpu:.0f} ms; load average {os.getloadavg()[0]:.2f}")
    print(f"scope: ratio {max(ratios):.2f} (target 1.0)")


if __name__ == "__main__":
    main()
