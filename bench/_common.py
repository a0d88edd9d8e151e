"""Helpers shared by the benches: a loopback simulator in a subprocess, medians."""

from __future__ import annotations

import contextlib
import socket
import subprocess
import sys
import time
from collections.abc import Iterator

import httpx


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def loopback_sim(*args: str) -> Iterator[str]:
    """Run ``vagent-tui sim`` (uvicorn) on a free loopback port; yield its base URL."""
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "vagent_tui", "sim", "--port", str(port), *args],
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
