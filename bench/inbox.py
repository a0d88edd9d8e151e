"""The junk inbox at 1,000 and at 1,000,000 rooms: time per page shown, and memory.

Two simulators serve over loopback HTTP (uvicorn subprocesses), one with 1,000 rooms per
agent account and one with 1,000,000. Each measurement is a fresh console process
(headless Textual, 120x40, key ``demo-agent``) that opens the inbox, then repeats
first page (``g``), next page (``n``) and last page (``G``); every step must be exactly
one request (counted by a client observer). A page counts as shown when the table has
been filled and the frame after it has been drawn (timed from the key press; Textual's
pilot adds its own settling time after that, which is not counted). Processes
alternate 1,000 / 1,000,000.

* time: median time per page shown at 1,000,000 / the same at 1,000 (target 1.2);
* memory: the console process's peak RSS (``ru_maxrss``, read at its end, in a process
  of its own so nothing else is counted; the simulator is another process) at
  1,000,000 / at 1,000, medians over the processes (target 1.1).

The last line is the time ratio; the RSS ratio is the line before it.

Usage: ``python bench/inbox.py [--procs N] [--cycles K]``
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import loopback_sim

TIME_TARGET = 1.2
RSS_TARGET = 1.1


async def child(base: str, cycles: int) -> dict[str, object]:
    from vagent_tui.services.connect import real_client
    from vagent_tui.ui.app import VagentApp

    client = real_client(base, "demo-agent")
    pages: list[str] = []
    client.observers.append(lambda ex: pages.append(ex.path) if "junk" in ex.path else None)
    from vagent_tui.ui.screens.inbox import InboxScreen

    shown = asyncio.Event()
    original = InboxScreen._fill

    drawn: list[float] = []

    def frame_done() -> None:
        drawn.append(time.perf_counter())
        shown.set()

    def fill(self: InboxScreen, *args: object, **kwargs: object) -> None:
        original(self, *args, **kwargs)
        if self.pager.rooms:
            self.app.call_after_refresh(frame_done)

    InboxScreen._fill = fill  # type: ignore[method-assign]
    app = VagentApp(client, initial_screen="inbox")
    times: list[float] = []
    started = time.perf_counter()
    async with app.run_test(size=(120, 40)) as pilot:
        await asyncio.wait_for(shown.wait(), 30)  # opening the inbox (app start included)
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, InboxScreen)
        opened = drawn[-1] - started
        assert len(pages) == 1, f"open: {len(pages)} requests"
        for _ in range(cycles):
            for key in ("g", "n", "G"):
                if key == "g" and screen.pager.page == 0:
                    continue
                shown.clear()
                before = len(pages)
                started = time.perf_counter()
                await pilot.press(key)
                await asyncio.wait_for(shown.wait(), 30)
                await pilot.pause()
                times.append(drawn[-1] - started)
                assert len(pages) == before + 1, f"{key}: {len(pages) - before} requests"
        total = screen.pager.total
    rss_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {"times": times, "open": opened, "rss_kb": rss_kb, "total": total}


def run_child(base: str, cycles: int) -> dict[str, object]:
    out = subprocess.run(
        [sys.executable, __file__, "--child", base, "--cycles", str(cycles)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return json.loads(out.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--procs", type=int, default=4, help="processes per size (default 4)")
    parser.add_argument("--cycles", type=int, default=8, help="g/n/G cycles per process")
    parser.add_argument("--child", metavar="BASE_URL", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(asyncio.run(child(args.child, args.cycles))))
        return
    sizes = (1_000, 1_000_000)
    times: dict[int, list[float]] = {n: [] for n in sizes}
    opens: dict[int, list[float]] = {n: [] for n in sizes}
    rss: dict[int, list[int]] = {n: [] for n in sizes}
    with loopback_sim("--rooms", "1000") as small, loopback_sim("--rooms", "1000000") as big:
        bases = {1_000: small, 1_000_000: big}
        run_child(small, 1)  # warm-up: bytecode and file caches
        for i in range(args.procs):
            for n in sizes if i % 2 == 0 else sizes[::-1]:
                result = run_child(bases[n], args.cycles)
                assert result["total"] == n, result["total"]
                times[n].extend(result["times"])  # type: ignore[arg-type]
                rss[n].append(result["rss_kb"])  # type: ignore[arg-type]
                opens[n].append(result["open"])  # type: ignore[arg-type]
    t_small, t_big = (statistics.median(times[n]) for n in sizes)
    r_small, r_big = (statistics.median(rss[n]) for n in sizes)
    for n, t, r in ((1_000, t_small, r_small), (1_000_000, t_big, r_big)):
        print(
            f"{n:>9,} rooms: {t * 1000:.1f} ms/page (n, G, g), "
            f"start + open {statistics.median(opens[n]) * 1000:.0f} ms, "
            f"peak RSS {r / 1024:.1f} MiB"
        )
    print(f"inbox-rss: ratio {r_big / r_small:.2f} (target {RSS_TARGET})")
    print(f"inbox: ratio {t_big / t_small:.2f} (target {TIME_TARGET})")


if __name__ == "__main__":
    main()
