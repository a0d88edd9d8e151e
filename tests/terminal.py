"""The console in a real pseudo-terminal: what it writes, byte for byte."""

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


class Terminal:
    """A running console on a pty: send keys, collect what it writes."""

    def __init__(self, pid: int, fd: int) -> None:
        self.pid = pid
        self.fd = fd
        self.written = bytearray()

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

    def read_until(self, needle: bytes, seconds: float = 60) -> bool:
        """Collect output until ``needle`` was written (a hang guard, not a speed check)."""
        deadline = time.monotonic() + seconds
        while needle not in self.written and time.monotonic() < deadline:
            self.read_for(0.1)
        return needle in self.written

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
        yield Terminal(pid, fd)
    finally:
        try:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass
        os.close(fd)
