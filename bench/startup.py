"""Cold start of ``vagent-tui --demo`` to the scope screen's first frame with data.

Each run spawns a fresh interpreter under a pseudo-terminal (120x40) and reads what it
writes there. The measure is the time from spawn until the first frame with data is on
the terminal: the moment the words it must show have all been read from the
pseudo-terminal (control sequences left out). The console runs through
``bench/console_ready.py``,
which makes it quit right after the frame that shows the key owner and the first level
of the account tree has been drawn (the product has no benchmark hook); the yardstick
(``bench/yardstick_app.py``: Header + DataTable + Footer, with the console's third-party
imports under ``--demo``: httpx, pydantic and Starlette) quits the same way after its
first filled frame. Runs alternate yardstick / console;
the ratio is median(console) / median(yardstick).

For information, the script also shows the whole process (spawn to exit, awaited with
a blocking ``waitpid``), the time until each app starts to quit (its driver turns
bracketed paste off, the first thing it writes on the way out), and where the first
frame's time goes, read from the terminal alone: from spawn until the app takes the
terminal (its driver switches to the alternate screen, the first thing ``App.run``
writes: the interpreter's start and every import before it) and from there to the frame
(Textual's start, the first screen built, the data asked for and drawn). The whole process is
not the measure: it moves in steps of 100 ms that say nothing of the first frame. On
quitting, Textual's input thread finishes its current ``select(0.1)`` and then waits
one more, so an app that quits 5 ms before a step of that thread's clock exits about
100 ms sooner than one that quits 5 ms after it. (Measured: the console drew its
first frame 116 ms after ``App.run`` and the yardstick 72 ms after; they fell either
side of a step, and the console's whole process was 180 ms longer for 44 ms of
drawing.)

Both sides run with their bytecode cached, as an installed app has it: in a cache of
this run's own (``PYTHONPYCACHEPREFIX``) that the warm-up runs fill, whatever
``PYTHONDONTWRITEBYTECODE`` says. (With that variable set and no cache, the console
compiled its modules from source on every run, about 40 ms here, while the yardstick
read its libraries' installed bytecode.)

A run counts only if its data was on the terminal before it started to quit (the key
owner and the first level of the demo tree; the yardstick's first and last rows): an
app that quits too early stops the script instead of looking fast.

Usage: ``python bench/startup.py [--runs N]`` (`RUNS` pairs by default)
"""

from __future__ import annotations

import argparse
import fcntl
import os
import pty
import re
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import threading
import time
from pathlib import Path

TARGET = 1.1
RUNS = 25
"""Pairs of runs. One start varies by a third here from run to run (a bare ``import
textual.app`` took 185 to 332 ms in one minute on the 2-core machine), so the median of 9
moved the ratio by 5 % or more between runs of the same code (0.99 to 1.15 within an hour):
the issue's 5 % margin asks for a median that holds still, hence more runs."""
HERE = Path(__file__).resolve().parent


QUIT_MARK = b"\x1b[?2004l"  # bracketed paste off: written first when a Textual app quits
START_MARK = b"\x1b[?1049h"  # the alternate screen: written first when a Textual app starts
CONTROL = re.compile(rb"\x1b\[[0-9;?<>=$]*[A-Za-z~]")  # styles and cursor moves, not text
CONSOLE_SHOWS = ("Northwind", "Bluebird", "Cascade", "Summit")  # the demo's key owner, level 1
YARDSTICK_SHOWS = ("row 0", "row 19")


def timed_run(
    argv: list[str], shows: tuple[str, ...], pycache: str
) -> tuple[float, float, float, float]:
    """Seconds from spawn of ``argv`` run under a 120x40 pseudo-terminal: until every one
    of ``shows`` had been read on the terminal, until it started to quit (`QUIT_MARK`
    read), until it exited, and until it took the terminal (`START_MARK` read).

    Stops the script if any of ``shows`` was not written before the app started to quit.
    """
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    env = {**os.environ, "VAGENT_BENCH_EXIT_ON_READY": "1", "TERM": "xterm-256color"}
    env.pop("TEXTUAL", None)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = pycache
    quitting: list[float] = []
    drawn = bytearray()
    chunks: list[tuple[float, int]] = []
    """When each read ended, and how many bytes had been read by then."""

    def drain() -> None:
        try:
            while chunk := os.read(master, 65536):
                if not quitting:
                    drawn.extend(chunk)
                    chunks.append((time.perf_counter(), len(drawn)))
                    if QUIT_MARK in drawn[-len(chunk) - len(QUIT_MARK) :]:
                        quitting.append(time.perf_counter())
        except OSError:
            pass

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    started = time.perf_counter()
    proc = subprocess.Popen(
        argv, stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True
    )
    watchdog = threading.Timer(60, proc.kill)
    watchdog.start()
    code = proc.wait()  # blocking waitpid: no polling interval in the measurement
    elapsed = time.perf_counter() - started
    timed_out = not watchdog.is_alive()
    watchdog.cancel()
    os.close(slave)
    reader.join(timeout=2)
    os.close(master)
    if timed_out:
        raise SystemExit(f"{argv} did not reach its first frame within 60 s")
    if code != 0:
        raise SystemExit(f"{argv} exited with {code}")
    text = _text(bytes(drawn).partition(QUIT_MARK)[0])
    missing = [word for word in shows if word not in text]
    if not quitting or missing:
        raise SystemExit(f"{argv} quit before drawing its data (not on screen: {missing})")
    shown = next(t for t, end in chunks if all(word in _text(bytes(drawn[:end])) for word in shows))
    took = next((t for t, end in chunks if START_MARK in drawn[:end]), shown)
    return shown - started, quitting[0] - started, elapsed, took - started


def _text(written: bytes) -> str:
    """What ``written`` puts on the terminal as text: control sequences left out."""
    return CONTROL.sub(b"", written).decode("utf-8", "replace")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=RUNS, help=f"pairs of runs (default {RUNS})")
    args = parser.parse_args()
    console = [sys.executable, str(HERE / "console_ready.py"), "--demo"]
    yardstick = [sys.executable, str(HERE / "yardstick_app.py")]
    pycache = tempfile.mkdtemp(prefix="vagent-bench-pycache-")
    try:
        # Warm the file cache and fill the bytecode cache of both sides.
        timed_run(yardstick, YARDSTICK_SHOWS, pycache)
        timed_run(console, CONSOLE_SHOWS, pycache)
        runs: dict[str, list[tuple[float, float, float, float]]] = {
            "console": [],
            "yardstick": [],
        }
        for _ in range(args.runs):
            runs["yardstick"].append(timed_run(yardstick, YARDSTICK_SHOWS, pycache))
            runs["console"].append(timed_run(console, CONSOLE_SHOWS, pycache))
    finally:
        shutil.rmtree(pycache, ignore_errors=True)
    medians = {
        side: [statistics.median(run[i] for run in side_runs) for i in range(3)]
        for side, side_runs in runs.items()
    }
    split = {
        side: (
            statistics.median(run[3] for run in side_runs),
            statistics.median(run[0] - run[3] for run in side_runs),
        )
        for side, side_runs in runs.items()
    }
    for side in ("yardstick", "console"):
        shown = ", ".join(f"{run[0] * 1000:.0f}" for run in runs[side])
        first = medians[side][0] * 1000
        print(f"{side + ':':<10} first frame with data, median {first:.0f} ms ({shown})")
    for i, what in ((1, "until quitting"), (2, "whole process")):
        ours, base = medians["console"][i], medians["yardstick"][i]
        print(
            f"{what} (information): yardstick {base * 1000:.0f} ms, "
            f"console {ours * 1000:.0f} ms, ratio {ours / base:.2f}"
        )
    for i, what in ((0, "spawn to the terminal taken"), (1, "terminal taken to the frame")):
        ours, base = split["console"][i], split["yardstick"][i]
        print(
            f"{what} (information): yardstick {base * 1000:.0f} ms, "
            f"console {ours * 1000:.0f} ms, {(ours - base) * 1000:+.0f} ms"
        )
    ratio = medians["console"][0] / medians["yardstick"][0]
    print(f"startup: ratio {ratio:.2f} (target {TARGET})")


if __name__ == "__main__":
    main()
