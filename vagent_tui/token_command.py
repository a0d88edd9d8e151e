"""Running a profile's token command, bounded in time and output.

A password manager's command prints the token; it may also print far too much, hang,
or echo the secret on stderr. `run` reads its output in pieces (never more than
``output_limit`` bytes), stops it after ``timeout`` seconds, and raises
`TokenCommandError` with a message that never quotes the output nor stderr.
No dependency on the rest of the package: `vagent_tui.config` turns the error into a
`ConfigError` naming the profile.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import threading
from collections.abc import Callable
from typing import IO

from vagent_tui.words import counted


class TokenCommandError(Exception):
    """The command could not give a token; the text says why, never what it printed."""


class CappedReader:
    """Reads a pipe in a thread and keeps at most ``limit`` bytes of it.

    Past the limit it calls ``on_overflow`` and stops reading (the command is killed),
    or without one, goes on draining the pipe so that the command never blocks on it.
    """

    def __init__(
        self, stream: IO[bytes], limit: int, on_overflow: Callable[[], None] | None = None
    ) -> None:
        self.data = bytearray()
        self.seen = 0
        self.overflow = False
        self._limit = limit
        self._on_overflow = on_overflow
        self._thread = threading.Thread(target=self._read, args=(stream,), daemon=True)
        self._thread.start()

    def _read(self, stream: IO[bytes]) -> None:
        with stream:
            while chunk := os.read(stream.fileno(), 8192):
                self.seen += len(chunk)
                room = self._limit - len(self.data)
                self.data += chunk[: max(room, 0)]
                if len(chunk) > room and not self.overflow:
                    self.overflow = True
                    if self._on_overflow is not None:
                        self._on_overflow()
                        return

    def join(self, timeout: float) -> bytes:
        # A child the command left running may hold the pipe open: do not wait for it.
        self._thread.join(timeout)
        return bytes(self.data)


def run(command: str, who: str, *, timeout: float, output_limit: int) -> str:
    """Run ``command``; the first line of its output is the token.

    Args:
        command: The command line, split like a POSIX shell would (no shell runs).
        who: What the error messages call it, e.g. ``profile 'ops': token command``.
        timeout: Seconds before the command is stopped.
        output_limit: Bytes of output read at most; past them the command is stopped.
    """
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise TokenCommandError(
            f"{who} cannot be split into words ({exc}); check its quotes"
        ) from None
    if not argv:
        raise TokenCommandError(f"{who} is empty")
    try:
        # stdin stays the terminal's: a password manager may ask for a passphrase.
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise TokenCommandError(f"{who} {argv[0]!r} could not start: {reason}") from None
    assert proc.stdout is not None and proc.stderr is not None
    out = CappedReader(proc.stdout, output_limit, on_overflow=proc.kill)
    err = CappedReader(proc.stderr, 0)  # only counted: it may echo the secret
    try:
        status = proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        raise TokenCommandError(
            f"{who} did not finish within {timeout:g} seconds; stopped"
        ) from None
    stdout = out.join(timeout=2.0)
    err.join(timeout=0.5)
    if out.overflow:
        raise TokenCommandError(
            f"{who} printed more than {output_limit // 1024} KiB; it should print the token alone"
        )
    text = stdout.decode("utf-8", errors="replace").strip()
    token = text.splitlines()[0].strip() if text else ""
    if status != 0 or not token:
        ended = f"status {status}" if status >= 0 else f"signal {-status}"
        said = (
            f"; it wrote {counted(err.seen, 'byte')} on stderr, not shown here (run it yourself "
            "to see)"
            if err.seen
            else ""
        )
        raise TokenCommandError(f"{who} ended with {ended} and no token{said}")
    return token
