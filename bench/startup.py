"""Cold start of ``vagent-tui --demo`` to the scope screen's first frame with data.

Whole process: each run spawns a fresh interpreter under a pseudo-terminal (120x40)
and times it from spawn to exit. The console runs through ``bench/console_ready.py``,
which makes it quit right after the frame that shows the key owner and the first level
of the account tree has been drawn (the product has no benchmark hook); the yardstick
(``bench/yardstick_app.py``: Header + DataTable + Footer, with the console's third-party
imports under ``--demo``: httpx, pydantic and Starlette) quits the same way after its
first filled frame. Runs alternate yardstick / console;
the ratio is median(console) / median(yardstick).

The exit is awaited with a blocking ``waitpid`` (``Popen.wait`` with a timeout polls
every 50 ms, which rounded every run up to the next poll). Whole-process times move
in steps of about 100 ms: on quitting, Textual's input thread finishes its current
``select(0.1)`` and then waits one more. So the script also shows, for information,
the time until each app starts to quit (its driver turns bracketed paste off, the
first thing it writes on the way out), which has no such steps.

Both sides run with their bytecode cached, as an installed app has it: in a cache of
this run's own (``PYTHONPYCACHEPREFIX``) that the warm-up runs fill, whatever
``PYTHONDONTWRITEBYTECODE`` says. (With that variable set and no cache, the console
compiled its modules from source on every run, about 40 ms here, while the yardstick
read its libraries' installed bytecode.)

A run counts only if its data was on the terminal before it started to quit (the key
owner and the first level of the demo tree; the yardstick's first and last rows): an
app that quits too early stops the script instead of looking fast.

Usage: ``python bench/startup.py [--runs N]``
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

TARGET = 1.2
HERE = Path(__file__).resolve().parent


QUIT_MARK = b"\x1b[?2004l"  # bracketed paste off: written first when a Textual app quits
CONTROL = re.compile(rb"\x1b\[[0-9;?<>=$]*[A-Za-z~]")  # styles and cursor moves, not text
CONSOLE_SHOWS = ("Northwind", "Bluebird", "Cascade", "Summit")  # the demo's key owner, level 1
YARDSTICK_SHOWS = ("row 0", "row 19")


def timed_run(argv: list[str], shows: tuple[str, ...], pycache: str) -> tuple[float, float]:
    """Seconds from spawn to exit of ``argv`` run under a 120x40 pseudo-terminal, and
    from spawn until it started to quit (`QUIT_MARK` read on the terminal).

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

    def drain() -> None:
        try:
            while chunk := os.read(master, 65536):
                if not quitting:
                    drawn.extend(chunk)
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
    text = CONTROL.sub(b"", bytes(drawn).partition(QUIT_MARK)[0]).decode("utf-8", "replace")
    missing = [word for word in shows if word not in text]
    if not quitting or missing:
        raise SystemExit(f"{argv} quit before drawing its data (not on screen: {missing})")
    return elapsed, quitting[0] - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9, help="pairs of runs (default 9)")
    args = parser.parse_args()
    console = [sys.executable, str(HERE / "console_ready.py"), "--demo"]
    yardstick = [sys.executable, str(HERE / "yardstick_app.py")]
    pycache = tempfile.mkdtemp(prefix="vagent-bench-pycache-")
    try:
        # Warm the file cache and fill the bytecode cache of both sides.
        timed_run(yardstick, YARDSTICK_SHOWS, pycache)
        timed_run(console, CONSOLE_SHOWS, pycache)
        ours: list[float] = []
        base: list[float] = []
        ours_quit: list[float] = []
        base_quit: list[float] = []
        for _ in range(args.runs):
            total, until_quit = timed_run(yardstick, YARDSTICK_SHOWS, pycache)
            base.append(total)
            base_quit.append(until_quit)
            total, until_quit = timed_run(console, CONSOLE_SHOWS, pycache)
            ours.append(total)
            ours_quit.append(until_quit)
    finally:
        shutil.rmtree(pycache, ignore_errors=True)
    m_ours, m_base = statistics.median(ours), statistics.median(base)
    q_ours, q_base = statistics.median(ours_quit), statistics.median(base_quit)
    print(
        f"yardstick: median {m_base * 1000:.0f} ms  ({', '.join(f'{t * 1000:.0f}' for t in base)})"
    )
    print(
        f"console:   median {m_ours * 1000:.0f} ms  ({', '.join(f'{t * 1000:.0f}' for t in ours)})"
    )
    print(
        f"until quitting (information): yardstick {q_base * 1000:.0f} ms, "
        f"console {q_ours * 1000:.0f} ms, ratio {q_ours / q_base:.2f}"
    )
    print(f"startup: ratio {m_ours / m_base:.2f} (target {TARGET})")


if __name__ == "__main__":
    main()
