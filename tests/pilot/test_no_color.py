"""NO_COLOR in a real terminal: the terminal's own colours, and cursors in reverse video.

The ANSI theme (chosen for NO_COLOR) names the terminal's "default" colours; Textual's
monochrome filter once turned those into black on black, so the whole console was
unreadable. The bytes written to a pseudo-terminal are checked, not the widget tree.
"""

from __future__ import annotations

import os
import pty
import re
import select
import signal
import sys
import time

import pytest

SGR = re.compile(rb"\x1b\[([0-9;:]*)m")
COLOUR_PARAMS = {"38", "48", *map(str, range(30, 38)), *map(str, range(40, 48)),
                 *map(str, range(90, 98)), *map(str, range(100, 108))}  # fmt: skip


def _sgr_params(written: bytes) -> list[list[str]]:
    return [m.group(1).decode().replace(":", ";").split(";") for m in SGR.finditer(written)]


@pytest.mark.skipif(sys.platform != "linux", reason="drives a real pseudo-terminal")
def test_no_color_writes_no_colour_and_shows_the_cursor() -> None:
    env = {**os.environ, "TERM": "xterm-256color", "COLORTERM": "truecolor", "NO_COLOR": "1"}
    pid, fd = pty.fork()
    if pid == 0:  # the child: the console on the pty
        os.execvpe(sys.executable, [sys.executable, "-m", "vagent_tui", "--demo",
                                    "--screen", "voices", "--account", "1111"], env)  # fmt: skip
    written = bytearray()
    try:
        import fcntl
        import struct
        import termios

        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        deadline = time.monotonic() + 60  # a hang, not a speed check
        while b"voices for" not in written and time.monotonic() < deadline:
            ready, _, _ = select.select([fd], [], [], 0.1)
            if ready:
                try:
                    written.extend(os.read(fd, 65536))
                except OSError:
                    break
        os.write(fd, b"\x11")  # ctrl+q
        time.sleep(0.5)
    finally:
        try:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass
        os.close(fd)
    assert b"voices for" in written, "the voices never loaded"
    params = _sgr_params(bytes(written))
    coloured = [p for p in params if COLOUR_PARAMS & set(p)]
    assert not coloured, f"colour written despite NO_COLOR: {coloured[:3]}"
    assert any("7" in p for p in params), "no cursor or highlight in reverse video"
