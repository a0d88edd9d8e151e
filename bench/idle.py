"""CPU of the migration monitor watching 10 running tasks, between polls.

A simulator serves over loopback HTTP (uvicorn subprocess, ``--task-seconds 100``: a task
is queued for 10 s, then runs for 90 s). The console runs headless (Textual's test
driver, 120x40, in this process) on the Migrations screen with key ``demo-reseller``; ten
dry runs are started through the same path the screen uses (``client.migrate`` then
``app.watch_task``). Once all ten are ``running`` and the pollers have settled (40 s: the
screen's once-a-second elapsed ticker and the ten pollers, backed off while nothing but
the counts changes, are all live), the process's CPU time (``time.process_time()``:
user + system, all threads) is read over a window of wall time.

The yardstick is the budget, 2 % of one core: the printed ratio is
(CPU seconds / wall seconds) / 0.02, target 1.0.

Usage: ``python bench/idle.py [--window SECONDS]``
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import loopback_sim

BUDGET = 0.02
TASKS = 10


async def measure(base: str, window: float, settle: float) -> tuple[float, int]:
    from vagent_tui.api.models import MigrationRequest
    from vagent_tui.services.connect import real_client
    from vagent_tui.ui.app import VagentApp

    client = real_client(base, "demo-reseller")
    polls: list[float] = []
    client.observers.append(lambda ex: polls.append(time.monotonic()))
    app = VagentApp(client, initial_screen="migrations")
    async with app.run_test(size=(120, 40)) as pilot:
        while not app.connection.connected:
            await pilot.pause(0.1)
        templates = await client.list_templates()
        started = 0
        for template in templates:
            while started < TASKS:
                reply = await client.migrate(template.id or "", MigrationRequest(dry_run=True))
                if not reply.task_id:
                    break  # nothing to migrate with this template
                app.watch_task(reply, template.name or template.id or "")
                started += 1
        assert started == TASKS, f"only {started} tasks could be started"
        deadline = time.monotonic() + 60
        while any(t.status != "running" for t in app.watcher.tasks.values()):
            assert time.monotonic() < deadline, [t.status for t in app.watcher.tasks.values()]
            await asyncio.sleep(0.5)
        # The pollers back off while nothing but the counts change (1 s, x1.5, up to
        # 15 s): measure the steady state, between polls.
        await asyncio.sleep(settle)
        before = len(polls)
        cpu0, wall0 = time.process_time(), time.perf_counter()
        await asyncio.sleep(window)
        cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
        assert all(not t.final for t in app.watcher.tasks.values()), "a task ended too soon"
        assert app.screen.is_current and type(app.screen).__name__ == "MigrationsScreen"
    return cpu / wall, len(polls) - before


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--window", type=float, default=30.0, help="seconds measured (30)")
    parser.add_argument("--settle", type=float, default=40.0, help="seconds before (40)")
    args = parser.parse_args()
    with loopback_sim("--task-seconds", "100") as base:
        fraction, polls = asyncio.run(measure(base, args.window, args.settle))
    print(f"{TASKS} running tasks, {args.window:.0f} s window: {polls} polls, "
          f"CPU {fraction * 100:.2f} % of one core (budget {BUDGET * 100:.0f} %)")  # fmt: skip
    print(f"idle: ratio {fraction / BUDGET:.2f} (target 1.0)")


if __name__ == "__main__":
    main()
