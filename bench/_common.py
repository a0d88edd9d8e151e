"""Helpers shared by the benches: a loopback simulator in a subprocess, medians."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx

ROOT = str(Path(__file__).resolve().parent.parent)
"""The checkout this bench belongs to: its ``vagent_tui`` is the one measured."""

# The project is installed editable from another checkout: without this, ``python
# bench/NAME.py`` (its path starts at bench/) and the processes it starts (simulators,
# consoles) would import that checkout's code, not this one's.
sys.path.insert(0, ROOT)
os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (ROOT, os.environ.get("PYTHONPATH", "")) if p)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


# ``vagent-tui sim`` with uvicorn's keep-alive timeout (5 s by default) set to argv[1].
_SIM_WITH_KEEP_ALIVE = """
import functools, sys, uvicorn
uvicorn.run = functools.partial(uvicorn.run, timeout_keep_alive=float(sys.argv[1]))
from vagent_tui.sim.__main__ import main
raise SystemExit(main(sys.argv[2:]))
"""


@contextlib.contextmanager
def loopback_sim(
    *args: str, keep_alive: float | None = None, launcher: str | None = None
) -> Iterator[str]:
    """Run ``vagent-tui sim`` (uvicorn) on a free loopback port; yield its base URL.

    ``keep_alive``: seconds uvicorn keeps an idle connection open (default 5). A bench
    whose two sides take turns for longer than that needs more, or the server closes
    the idle side's pooled connections, racing its next requests. ``launcher``: Python
    code run instead (``python -c``), given the sim's options as ``sys.argv[1:]``.
    """
    port = free_port()
    if launcher is not None:
        command = [sys.executable, "-c", launcher]
    elif keep_alive is None:
        command = [sys.executable, "-m", "vagent_tui", "sim"]
    else:
        command = [sys.executable, "-c", _SIM_WITH_KEEP_ALIVE, str(keep_alive)]
    proc = subprocess.Popen(
        [*command, "--port", str(port), *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                httpx.get(f"{base}/api/v2/account", params={"token": "demo-partner"}, timeout=1)
                break
            except httpx.TransportError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit("the simulator did not start") from None
                time.sleep(0.1)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
