"""Helpers shared by the benches: a loopback simulator in a subprocess, a console in tmux."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
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


# ------------------------------------------------------------------ a console in tmux

CONSOLE = str(Path(sys.executable).with_name("vagent-tui"))
"""The console's command, beside this Python (the venv's)."""


def tmux(*args: str) -> str:
    done = subprocess.run(["tmux", *args], capture_output=True, text=True, check=False)
    return done.stdout


class TmuxConsole:
    """A console in a tmux session of 120x40: keys in, screen text out, its CPU time.

    Nothing of the console is imported: the screen is read as text, as a user would.
    """

    def __init__(self, base: str, name: str, *, token: str, screen: str) -> None:
        self.name = name
        command = f"{CONSOLE} --base-url {base} --token {token} --screen {screen}"
        # tmux starts the command with its server's environment: the checkout's code
        # is passed on by name (`ROOT`), not inherited.
        tmux("new-session", "-d", "-s", name, "-x", "120", "-y", "40",
             "-e", f"PYTHONPATH={ROOT}", command)  # fmt: skip
        self.pid = int(tmux("display", "-p", "-t", name, "#{pane_pid}").strip())

    def screen(self) -> str:
        return tmux("capture-pane", "-p", "-t", self.name)

    def send(self, text: str) -> None:
        tmux("send-keys", "-t", self.name, "-l", text)

    def cpu(self) -> float:
        """Seconds of CPU the console used so far (user + system)."""
        fields = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def quiet(self, limit: float = 20.0) -> str:
        """Wait until the screen is unchanged for 0.3 s and the console uses no CPU; the
        screen then."""
        deadline = time.monotonic() + limit
        last, since, cpu = self.screen(), time.monotonic(), self.cpu()
        while time.monotonic() < deadline:
            time.sleep(0.05)
            now, used = self.screen(), self.cpu()
            if now != last or used - cpu > 0.005:
                last, since, cpu = now, time.monotonic(), used
            elif time.monotonic() - since >= 0.3:
                return last
        raise SystemExit(f"the console did not settle: {last[-400:]}")

    def wait_for(self, check: Callable[[str], bool], limit: float = 60.0) -> float:
        """Poll the screen until ``check(screen)``; the time it took."""
        started = time.perf_counter()
        while True:
            if check(self.screen()):
                return time.perf_counter() - started
            if time.perf_counter() - started > limit:
                raise SystemExit(f"timed out; the screen: {self.screen()[-600:]}")
            time.sleep(0.002)

    def close(self) -> None:
        tmux("kill-session", "-t", self.name)


# ------------------------------------------------------------------ what a terminal shows


class ScreenText:
    """The text a terminal shows of the bytes fed to it (pyte: the bench extra).

    The console writes only the cells that change (`vagent_tui.ui.frame_diff`): a text
    on its screen need not be in its bytes in one piece, so a bench waiting for a text
    reads the screen, not the bytes.
    """

    def __init__(self, columns: int, rows: int) -> None:
        import pyte

        self._screen = pyte.Screen(columns, rows)
        self._stream = pyte.ByteStream(self._screen)
        self._text: bytes | None = b""

    def feed(self, chunk: bytes) -> None:
        self._stream.feed(chunk)
        self._text = None

    def text(self) -> bytes:
        """The screen's lines, joined by newlines, as UTF-8."""
        if self._text is None:
            self._text = "\n".join(self._screen.display).encode()
        return self._text
