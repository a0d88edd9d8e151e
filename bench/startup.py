"""Cold start of ``vagent-tui --demo`` to the scope screen's first frame with data.

Whole process: each run spawns a fresh interpreter under a pseudo-terminal (120x40)
and times it from spawn to exit. ``VAGENT_BENCH_EXIT_ON_READY=1`` makes the console
quit right after the frame that shows the key owner and the first level of the account
tree has been drawn (the hook is in ``ui/screens/scope.py``); the yardstick
(``bench/yardstick_app.py``: Header + DataTable + Footer, importing httpx and pydantic)
quits the same way after its first filled frame. Runs alternate yardstick / console;
the ratio is median(console) / median(yardstick).

Usage: ``python bench/startup.py [--runs N]``
"""

from __future__ import annotations

import argparse
import fcntl
import os
import pty
import statistics
import struct
import subprocess
import sys
import termios
import threading
import time
from pathlib import Path

TARGET = 1.5
HERE = Path(__file__).resolve().parent


def timed_run(argv: list[str]) -> float:
    """Seconds from spawn to exit of ``argv`` run under a 120x40 pseudo-terminal."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    env = {**os.environ, "VAGENT_BENCH_EXIT_ON_READY": "1", "TERM": "xterm-256color"}
    env.pop("TEXTUAL", None)

    def drain() -> None:
        try:
            while os.read(master, 65536):
                pass
        except OSError:
            pass

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    started = time.perf_counter()
    proc = subprocess.Popen(
        argv, stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True
    )
    try:
        code = proc.wait(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise SystemExit(f"{argv} did not reach its first frame within 60 s") from None
    elapsed = time.perf_counter() - started
    os.close(slave)
    reader.join(timeout=2)
    os.close(master)
    if code != 0:
        raise SystemExit(f"{argv} exited with {code}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9, help="pairs of runs (default 9)")
    args = parser.parse_args()
    console = [sys.executable, "-m", "vagent_tui", "--demo"]
    yardstick = [sys.executable, str(HERE / "yardstick_app.py")]
    timed_run(yardstick)  # warm the file cache and bytecode of both sides
    timed_run(console)
    ours: list[float] = []
    base: list[float] = []
    for _ in range(args.runs):
        base.append(timed_run(yardstick))
        ours.append(timed_run(console))
    m_ours, m_base = statistics.median(ours), statistics.median(base)
    print(
        f"yardstick: median {m_base * 1000:.0f} ms  ({', '.join(f'{t * 1000:.0f}' for t in base)})"
    )
    print(
        f"console:   median {m_ours * 1000:.0f} ms  ({', '.join(f'{t * 1000:.0f}' for t in ours)})"
    )
    print(f"startup: ratio {m_ours / m_base:.2f} (target {TARGET})")


if __name__ == "__main__":
    main()
