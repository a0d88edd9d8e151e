"""The console in a real pseudo-terminal: what it writes, byte for byte, and what a
terminal then shows (pyte)."""

from __future__ import annotations

import fcntl
import os
import pty
import select
import signal
import struct
import sys
import termios
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pyte


class Terminal:
    """A running console on a pty: send keys, collect what it writes."""

    def __init__(self, pid: int, fd: int, *, rows: int, columns: int) -> None:
        self.pid = pid
        self.fd = fd
        self.written = bytearray()
        self.screen = pyte.Screen(columns, rows)
        self._stream = pyte.ByteStream(self.screen)
        self.shown: list[str] = []
        """The screen's text after each read: the console writes only the cells that
        change, so a text shown need not be in `written` in one piece."""

    def ever_shown(self, text: str) -> bool:
        """Whether the screen showed ``text`` (on one line) after some read."""
        return any(text in screen for screen in self.shown)

    def read_for(self, seconds: float) -> None:
        """Collect output for ``seconds`` (less if the console closes the pty)."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            ready, _, _ = select.select([self.fd], [], [], 0.05)
            if ready:
                try:
                    chunk = os.read(self.fd, 65536)
                except OSError:
                    return
                if not chunk:
                    return
                self.written.extend(chunk)
                self._stream.feed(chunk)
                self.shown.append("\n".join(self.screen.display))

    def read_until(self, text: str, seconds: float = 60) -> bool:
        """Collect output until the screen shows ``text`` (a hang guard, not a speed
        check)."""
        deadline = time.monotonic() + seconds
        while not self.ever_shown(text) and time.monotonic() < deadline:
            self.read_for(0.1)
        return self.ever_shown(text)

    def read_drawn(self, still: float = 0.5, seconds: float = 60) -> None:
        """Collect what the last key drew: output until some comes, then until the console
        writes nothing for ``still`` seconds (a screen writes "⟳ Loading…", then its rows),
        for ``seconds`` at most (a blinking cursor never stops writing)."""
        deadline = time.monotonic() + seconds
        size = len(self.written)
        while len(self.written) == size and time.monotonic() < deadline:
            self.read_for(0.05)
        while time.monotonic() < deadline:
            size = len(self.written)
            self.read_for(still)
            if len(self.written) == size:
                return

    def send(self, keys: bytes) -> None:
        os.write(self.fd, keys)


@contextmanager
def console_on_pty(
    args: list[str], env: dict[str, str], *, rows: int, columns: int
) -> Iterator[Terminal]:
    """``python -m vagent_tui *args`` on a pty of ``rows`` x ``columns``; killed after."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: the console on the pty
        os.execvpe(sys.executable, [sys.executable, "-m", "vagent_tui", *args], env)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
    try:
        yield Terminal(pid, fd, rows=rows, columns=columns)
    finally:
        try:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass
        os.close(fd)
