"""Every screen against the hostile simulator: inert text, alive, rows or a named error.

`vagent-tui --demo --hostile` plants escape sequences, bidi and zero-width characters,
newlines, a NUL, a 10,000-character value and markup in every display text the
simulator serves, and repeats the first record of every list (`vagent_tui.sim.hostile`).
"""

from __future__ import annotations

import html
import os
import pty
import re
import select
import signal
import subprocess
import sys
import time
from typing import Any

import pytest

from tests.helpers import settle
from vagent_tui.ui.registry import SCREENS

AGENT, RESELLER, COMPUTER_AGENT = 1111, 1100, 1118
ACCOUNT_FOR = {
    "agent": AGENT,
    "voices": AGENT,
    "functions": AGENT,
    "inbox": AGENT,
    "migrations": RESELLER,
    "computer": COMPUTER_AGENT,
}
NAMES = [info.name for info in SCREENS]
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u200b-\u200f]")
"""Characters that must never reach the screen from data (newline and tab are layout)."""


def screen_text(app: Any) -> str:
    return html.unescape(app.export_screenshot()).replace("\xa0", " ")


@pytest.mark.parametrize("name", NAMES)
async def test_each_screen_shows_hostile_text_inert(make_app: Any, name: str) -> None:
    app = make_app(name, account=ACCOUNT_FOR.get(name), hostile=True)
    calls: list[str] = []
    app.action_screenshot = lambda *a, **k: calls.append("screenshot")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        text = screen_text(app)
        found = CONTROL.findall(text)
        assert not found, f"{name}: raw control characters on screen: {found[:5]!r}"
        status = str(app.screen.query_one("#status").content)
        assert "Loading" not in status and "⟳" not in status, f"{name}: still {status!r}"
        assert app.connected, f"{name}: not connected ({app.connect_error!r})"
        assert calls == [], "markup from the data ran an action"
        # Still alive and usable: another screen opens.
        await pilot.press("1")
        await settle(pilot)
        assert app.is_running and app.current_mode == "scope"


PAYLOAD_SEQUENCES = (b"\x1b]52;c;SGFja2Vk", b"\x1b]0;pwned", b"\x9b2J")


@pytest.mark.skipif(sys.platform != "linux", reason="drives a real pseudo-terminal")
def test_a_real_terminal_receives_no_planted_sequence() -> None:
    """The bytes the console writes to a terminal, screen after screen, then ctrl+q."""
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "120", "LINES": "40"}
    env.pop("NO_COLOR", None)
    pid, fd = pty.fork()
    if pid == 0:  # the child: the console on the pty
        os.execvpe(sys.executable, [sys.executable, "-m", "vagent_tui", "--demo", "--hostile",
                                    "--account", str(AGENT)], env)  # fmt: skip
    written = bytearray()

    def read_for(seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            ready, _, _ = select.select([fd], [], [], 0.05)
            if ready:
                try:
                    chunk = os.read(fd, 65536)
                except OSError:
                    return
                if not chunk:
                    return
                written.extend(chunk)

    try:
        import fcntl
        import struct
        import termios

        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
        read_for(4.0)
        for key in b"2345678901":
            os.write(fd, bytes([key]))
            read_for(1.5)
        os.write(fd, b"\x11")  # ctrl+q
        done, status = 0, 0
        deadline = time.monotonic() + 60  # a hang, not a speed check: a loaded CI is slow
        while not done and time.monotonic() < deadline:
            read_for(0.5)
            done, status = os.waitpid(pid, os.WNOHANG)
        assert done == pid, "the console did not quit after ctrl+q"
        assert os.waitstatus_to_exitcode(status) == 0
    finally:
        try:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass
        os.close(fd)
    assert len(written) > 10_000, "the console drew almost nothing"
    for sequence in PAYLOAD_SEQUENCES:
        assert sequence not in written, f"{sequence!r} from the data reached the terminal"
    assert b"\x1b[2J\x1b[H screen" not in written
    assert "␛]52;c;SGFja2Vk".encode() in written, "the planted text was not shown at all"


def test_the_demo_flag_reaches_the_simulator() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "vagent_tui", "--help"], capture_output=True, text=True, check=True
    )
    assert "--hostile" in result.stdout
