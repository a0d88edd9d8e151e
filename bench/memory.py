"""Memory: the console's RSS after visiting every screen, small platform against large.

Two simulators serve over loopback HTTP (``vagent-tui sim`` in processes of their own,
so their memory is not counted): a small one (1,000 junk rooms per agent account, 100
agent accounts below the demo partner) and a large one (1,000,000 rooms, 10,000
accounts). Each measurement is a fresh console process (headless Textual, 120x40, key
``demo-partner``, target the demo agent account 1111) that shows every screen of
``vagent_tui.ui.registry.SCREENS`` in turn, waiting each time until the screen's reads
have finished and a frame has been drawn, then reads its own resident set size
(``VmRSS`` of ``/proc/self/status``; the peak, ``VmHWM``, is shown for information).
Processes alternate small / large; figures are medians over the processes.

* ``memory-large``: RSS at the large platform / RSS at the small one (target 1.1);
* ``memory-rss``: RSS at the large platform in MB (target 150);
* ``memory`` (last line): the worse of the two, each divided by its target (target 1.0).

Usage: ``python bench/memory.py [--procs N]``
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import loopback_sim

RATIO_TARGET = 1.1
MB_TARGET = 150.0
TOKEN = "demo-partner"
TARGET_ACCOUNT = 1111  # the seeded agent account of the demo key ``demo-agent``
SIZES = {"small": ("1000", "100"), "large": ("1000000", "10000")}  # rooms, accounts
SETTLE_S = 60.0  # longest wait for one screen's reads


def mb(kib: float) -> float:
    """Megabytes (10^6 bytes) from the kernel's kB (KiB)."""
    return kib * 1024 / 1e6


def status_kb(field: str) -> int:
    """A ``kB`` line of ``/proc/self/status`` (``VmRSS``, ``VmHWM``)."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise SystemExit(f"no {field} in /proc/self/status")


async def child(base: str) -> dict[str, Any]:
    from vagent_tui.services.connect import real_client
    from vagent_tui.ui.app import VagentApp
    from vagent_tui.ui.registry import SCREENS

    app = VagentApp(real_client(base, TOKEN), initial_account=TARGET_ACCOUNT)
    slow: list[str] = []
    steps: list[tuple[str, int]] = []
    async with app.run_test(size=(120, 40)) as pilot:
        for info in SCREENS:
            app.switch_mode(info.name)
            await pilot.pause()
            deadline = time.monotonic() + SETTLE_S
            while any(not w.is_finished for w in app.workers if w.node is app.screen):
                if time.monotonic() > deadline:
                    slow.append(info.name)
                    break
                await asyncio.sleep(0.05)
            await pilot.pause()
            if app.current_mode != info.name:
                raise SystemExit(f"screen {info.name} did not open")
            steps.append((info.name, status_kb("VmRSS")))
    return {"rss_kb": status_kb("VmRSS"), "hwm_kb": status_kb("VmHWM"), "slow": slow,
            "steps": steps}  # fmt: skip


def run_child(base: str) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, __file__, "--child", base],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--procs", type=int, default=3, help="processes per size (default 3)")
    parser.add_argument("--steps", action="store_true", help="also show the RSS after each screen")
    parser.add_argument("--child", metavar="BASE_URL", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(asyncio.run(child(args.child))))
        return
    rss: dict[str, list[int]] = {name: [] for name in SIZES}
    hwm: dict[str, list[int]] = {name: [] for name in SIZES}
    (s_rooms, s_accounts), (l_rooms, l_accounts) = SIZES.values()
    with (
        loopback_sim("--rooms", s_rooms, "--accounts", s_accounts, keep_alive=600) as small,
        loopback_sim("--rooms", l_rooms, "--accounts", l_accounts, keep_alive=600) as large,
    ):
        bases = {"small": small, "large": large}
        run_child(small)  # warm-up: bytecode and file caches
        for i in range(args.procs):
            for name in SIZES if i % 2 == 0 else reversed(SIZES):
                result = run_child(bases[name])
                if result["slow"]:
                    print(f"{name}: still reading after {SETTLE_S:.0f} s: {result['slow']}")
                rss[name].append(result["rss_kb"])
                if args.steps:
                    shown = ", ".join(f"{screen} {mb(kb):.1f}" for screen, kb in result["steps"])
                    print(f"{name}: MB after each screen: {shown}")
                hwm[name].append(result["hwm_kb"])
    r_small, r_large = (mb(statistics.median(rss[name])) for name in SIZES)
    for name, (rooms, accounts) in SIZES.items():
        print(
            f"{name}: {int(rooms):,} rooms, {int(accounts):,} accounts: "
            f"RSS {mb(statistics.median(rss[name])):.1f} MB "
            f"(peak {mb(statistics.median(hwm[name])):.1f} MB; "
            f"{', '.join(f'{mb(kb):.1f}' for kb in rss[name])})"
        )
    ratio = r_large / r_small
    print(f"memory-large: ratio {ratio:.2f} (target {RATIO_TARGET})")
    print(f"memory-rss: {r_large:.1f} MB (target {MB_TARGET:.0f} MB)")
    worst = max(ratio / RATIO_TARGET, r_large / MB_TARGET)
    print(f"memory: ratio {worst:.2f} (target 1.0)")


if __name__ == "__main__":
    main()
