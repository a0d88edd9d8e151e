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

Then a page move in a real terminal (``inbox-move``, the last line): the console runs as
a user runs it (``python -m vagent_tui --base-url ... --screen inbox``, ``VAGENT_TOKEN``,
``TERM=xterm-256color``) on a pseudo-terminal of 120x40, against the simulator of
1,000,000 rooms in a process of its own (``vagent-tui sim`` over loopback HTTP, as the
platform is remote: ``--demo`` would run it inside the console, sharing its GIL). Keys
are written to the terminal (``n`` ten times, then ``p`` ten times, twice). A move is
done when the bytes the console wrote since the key hold the new page's first row (its
room's name) and its detail pane (that room's ``roomId``, shown only there), both read
from the simulator beforehand, and then nothing more is written for 100 ms. Its time
runs from the key to the last byte written before that quiet: the whole frame showing
the new page, and anything else the move draws; the 100 ms of quiet are not counted.
The yardstick is the budget: median / 40 ms, target 1.0.

The RSS ratio and the headless time ratio come before it.

Usage: ``python bench/inbox.py [--procs N] [--cycles K] [--moves M] [--only-move]
[--profile FILE]`` (``--profile``: the console in the terminal runs under cProfile and
writes its stats to FILE at its end)
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import resource
import select
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import loopback_sim

TIME_TARGET = 1.2
RSS_TARGET = 1.1
MOVE_BUDGET = 0.040
"""Seconds a page move may take in a real terminal at 1,000,000 rooms."""
QUIET = 0.100
"""Seconds without a byte written after which a page counts as fully drawn."""
SIZE = (120, 40)


async def child(base: str, cycles: int) -> dict[str, object]:
    from vagent_tui.services.connect import real_client
    from vagent_tui.ui.app import VagentApp

    client = real_client(base, "demo-agent")
    pages: list[str] = []
    client.observers.append(lambda ex: pages.append(ex.path) if "junk" in ex.path else None)
    from vagent_tui.services.paging import Spot
    from vagent_tui.ui.screens.inbox import InboxScreen

    shown = asyncio.Event()
    original = InboxScreen._fill

    drawn: list[float] = []

    def frame_done() -> None:
        drawn.append(time.perf_counter())
        shown.set()

    def fill(self: InboxScreen, rooms: Any, *, unread: bool, keep: Spot | None) -> None:
        original(self, rooms, unread=unread, keep=keep)
        if rooms:
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
    result: dict[str, object] = json.loads(out.strip().splitlines()[-1])
    return result


async def first_rooms(base: str, pages: int) -> list[tuple[bytes, bytes]]:
    """For each of the first ``pages`` pages, what its frame must hold: the name in its
    first row and that room's ``roomId`` (in the detail pane)."""
    from vagent_tui.services.connect import real_client
    from vagent_tui.ui.widgets.inbox_rows import room_name

    client = real_client(base, "demo-agent")
    marks = []
    for page in range(pages):
        room = (await client.list_junk_rooms(page=page, page_size=20)).rooms[0]
        assert room.room_id
        marks.append((room_name(room).plain.encode(), room.room_id.encode()))
    await client.aclose()
    return marks


class Pty:
    """The console on a pseudo-terminal: what it writes, and when."""

    def __init__(self, base: str, profile: str | None) -> None:
        import fcntl
        import pty
        import struct
        import termios

        args = ["--base-url", base, "--screen", "inbox"]
        if profile:
            code = (
                "import cProfile; from vagent_tui import cli; "
                f"cProfile.run({f'cli.main({args!r})'!r}, {profile!r})"
            )
            argv = [sys.executable, "-c", code]
        elif os.environ.get("IDLE_WRAP"):
            argv = [sys.executable, *os.environ["IDLE_WRAP"].split(), *args]
        else:
            argv = [sys.executable, "-m", "vagent_tui", *args]
        env = {**os.environ, "VAGENT_TOKEN": "demo-agent", "TERM": "xterm-256color"}
        env.pop("VAGENT_BASE_URL", None)
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.execvpe(argv[0], argv, env)
        columns, rows = SIZE
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        self.written = bytearray()

    def drawn(self, needles: tuple[bytes, ...], timeout: float = 30.0) -> float:
        """Read until every one of ``needles`` was written and then ``QUIET`` passed: the
        time the last byte before the quiet was read (the quiet is not counted)."""
        deadline = time.monotonic() + timeout
        last = time.perf_counter()
        start = len(self.written)
        while True:
            written = self.written[start:]
            seen = all(needle in written for needle in needles)
            wait = QUIET - (time.perf_counter() - last) if seen else 0.05
            if seen and wait <= 0:
                return last
            assert time.monotonic() < deadline, f"{needles!r} never drawn"
            ready, _, _ = select.select([self.fd], [], [], max(wait, 0.001))
            if ready:
                chunk = os.read(self.fd, 1 << 16)
                assert chunk, "the console closed its terminal"
                self.written.extend(chunk)
                last = time.perf_counter()

    def cpu(self) -> float:
        """CPU seconds (user + system) the console has used so far (Linux /proc)."""
        fields = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def send(self, keys: bytes) -> float:
        sent = time.perf_counter()
        os.write(self.fd, keys)
        return sent

    def close(self) -> None:
        import signal

        self.send(b"\x11")  # ctrl+q: a clean exit (the profile is written)
        deadline = time.monotonic() + 30
        with contextlib.suppress(OSError):
            while time.monotonic() < deadline and os.waitpid(self.pid, os.WNOHANG) == (0, 0):
                if select.select([self.fd], [], [], 0.1)[0]:
                    os.read(self.fd, 1 << 16)
        with contextlib.suppress(ProcessLookupError, ChildProcessError):
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        os.close(self.fd)


def moves_in_a_terminal(base: str, moves: int, profile: str | None) -> tuple[list[float], float]:
    """Seconds per page move (n then p), key to the new page fully drawn; and the
    console's CPU seconds per move (quiet periods included: nothing runs in them)."""
    marks = asyncio.run(first_rooms(base, moves + 1))
    term = Pty(base, profile)
    times: list[float] = []
    try:
        term.drawn(marks[0], timeout=60)
        cpu = term.cpu()
        for _ in range(2):
            for key, pages in ((b"n", range(1, moves + 1)), (b"p", range(moves - 1, -1, -1))):
                for page in pages:
                    sent = term.send(key)
                    times.append(term.drawn(marks[page]) - sent)
        cpu = (term.cpu() - cpu) / len(times)
    finally:
        term.close()
    return times, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--procs", type=int, default=4, help="processes per size (default 4)")
    parser.add_argument("--cycles", type=int, default=8, help="g/n/G cycles per process")
    parser.add_argument("--moves", type=int, default=10, help="n presses, then p (10)")
    parser.add_argument("--only-move", action="store_true", help="only the terminal part")
    parser.add_argument("--profile", metavar="FILE", help="cProfile the console in the pty")
    parser.add_argument("--child", metavar="BASE_URL", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(asyncio.run(child(args.child, args.cycles))))
        return
    if args.only_move:
        with loopback_sim("--rooms", "1000000") as big:
            report_moves(*moves_in_a_terminal(big, args.moves, args.profile))
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
        moves, cpu = moves_in_a_terminal(big, args.moves, args.profile)
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
    report_moves(moves, cpu)


def report_moves(moves: list[float], cpu: float) -> None:
    ms = sorted(t * 1000 for t in moves)
    median = statistics.median(ms)
    print(
        f"page move in a terminal ({SIZE[0]}x{SIZE[1]}, 1,000,000 rooms, {len(ms)} moves): "
        f"median {median:.1f} ms, min {ms[0]:.1f}, max {ms[-1]:.1f} "
        f"(budget {MOVE_BUDGET * 1000:.0f} ms); the console's CPU {cpu * 1000:.1f} ms per move"
    )
    print(f"inbox-move: ratio {median / (MOVE_BUDGET * 1000):.2f} (target 1.0)")


if __name__ == "__main__":
    main()
