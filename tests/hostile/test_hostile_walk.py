"""Every screen against the hostile simulator: inert text, alive, rows or a named error.

`vagent-tui --demo --hostile` plants escape sequences, bidi and zero-width characters,
newlines, a NUL, a 10,000-character value and markup in every display text the
simulator serves, and repeats the first record of every list (`vagent_tui.sim.hostile`).
The journal screen gets entries from real writes against the hostile simulator (their
bodies and the server's messages are hostile); the fleet screen asks its question.

For each screen: no control character on screen (its rows, its Select options open, the
details of the rows below the repeated first one); planted text shown (inert), which is
how "it shows its rows" is checked, since a screen may clear its status line once
loaded; the status line neither loading nor an error (the hostile simulator answers
every load, so an error is the console's own); no action run by markup; another screen
still opens. A second test reads the bytes a real pseudo-terminal receives.
"""

from __future__ import annotations

import contextlib
import html
import os
import re
import subprocess
import sys
import time
from typing import Any

import pytest
from textual.widgets import DataTable, Input, Select, Static

from tests.helpers import DEMO_ACCOUNT_FOR, MakeApp, settle, shown, wait_for
from tests.terminal import console_on_pty
from vagent_tui.api.errors import PlatformError
from vagent_tui.services.connect import demo_client
from vagent_tui.services.journal import Journal
from vagent_tui.sim.hostile import KEY_PAYLOAD, PAYLOADS
from vagent_tui.ui.registry import SCREENS
from vagent_tui.ui.screens.inbox import InboxScreen
from vagent_tui.ui.screens.room import RoomScreen

AGENT = DEMO_ACCOUNT_FOR["agent"]
ACCOUNT_FOR = DEMO_ACCOUNT_FOR
NAMES = [info.name for info in SCREENS]
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u200b-\u200f]")
"""Characters that must never reach the screen from data (newline and tab are layout)."""
SHOWN = ("␛", "⟨U+")
"""How planted text looks once inert: at least one must be on every screen."""


def screen_text(app: Any) -> str:
    return html.unescape(app.export_screenshot()).replace("\xa0", " ")


def assert_inert(app: Any, where: str) -> str:
    """The screen as drawn, checked for control characters; returns its text."""
    text = screen_text(app)
    found = CONTROL.findall(text)
    assert not found, f"{where}: raw control characters on screen: {found[:5]!r}"
    return text


async def write_hostile_journal() -> None:
    """Changes made against the hostile simulator, recorded like the console records them."""
    client = demo_client(hostile=True)
    client.observers.append(Journal().observer("demo · " + PAYLOADS[1]))
    hostile_hook = next(h for h in await client.list_webhooks() if KEY_PAYLOAD in h.url)
    version = (await client.list_versions(f"cfg-{AGENT}", target=AGENT))[0]
    writes = [
        client.add_sip_entry("192.0.2.77", label=PAYLOADS[0] + PAYLOADS[8]),
        client.delete_webhook(hostile_hook.url),
        client.delete_relay(f"{KEY_PAYLOAD}relay"),
        client.rename_version(f"cfg-{AGENT}", version.version_id, PAYLOADS[9], target=AGENT),
        client.delete_sip_entry("192.0.2.99"),  # 404: a hostile error message
    ]
    for write in writes:
        with contextlib.suppress(PlatformError):  # the 404 is meant
            await write
    await client.aclose()


@pytest.mark.parametrize("name", NAMES)
async def test_each_screen_shows_hostile_text_inert(make_app: MakeApp, name: str) -> None:
    if name == "journal":
        await write_hostile_journal()
    app = make_app(name, account=ACCOUNT_FOR.get(name), hostile=True)
    calls: list[str] = []
    app.action_screenshot = lambda *a, **k: calls.append("screenshot")  # type: ignore[method-assign]
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        if name == "fleet":
            await pilot.press("s")
            await wait_for(
                pilot, lambda: "answered" in str(app.screen.query_one("#status", Static).content)
            )
        if name == "rollout":  # a plan: hostile names, the platform's refusals
            await pilot.press("c")
            await wait_for(pilot, lambda: app.screen.query("#rollout-settings"))
            app.screen.query_one("#rollout-settings", Input).value = "speakingTimeout=901"
            await pilot.press("enter")
            await wait_for(pilot, lambda: getattr(app.screen, "plan", None) is not None)
            await settle(pilot)
        text = assert_inert(app, name)
        assert any(mark in text for mark in SHOWN), f"{name}: no planted text shown at all"
        status_line = app.screen.query_one("#status", Static)
        status = str(status_line.content)
        assert "Loading" not in status and "⟳" not in status, f"{name}: still {status!r}"
        # The hostile simulator answers every load: an error here is the console's own.
        assert not status_line.has_class("-error"), f"{name}: {status!r}"
        assert app.connection.connected, f"{name}: not connected ({app.connection.error!r})"
        # Options from the data (languages, S2S engines...) drawn, then the next rows.
        for box in app.screen.query(Select):
            box.expanded = True
            await settle(pilot)
            assert_inert(app, f"{name}, {box.id or 'a select'} open")
            box.expanded = False
        tables = app.screen.query("DataTable, RecordTable")  # RecordTable: a table of records
        if tables:  # the rows below the first (the repeated record), and their details
            tables.first().focus()
            await pilot.press("down", "down")
            await settle(pilot)
            assert_inert(app, f"{name}, two rows down")
        assert calls == [], "markup from the data ran an action"
        # Still alive and usable: another screen opens.
        other = "2" if name == "scope" else "1"
        app.set_focus(None)  # a form's input would take the digit as text
        await pilot.press(other)
        await settle(pilot)
        assert app.is_running and app.current_mode == ("agent" if other == "2" else "scope")


PAYLOAD_SEQUENCES = (
    b"\x1b]52;c;SGFja2Vk",  # OSC 52: writes the clipboard
    b"\x1b]0;pwned",  # OSC 0: retitles the window
    b"\x1b[2J\x1b[H screen",  # clears the screen (Textual's own ESC[2J has no such tail)
    b"\xc2\x9b2J",  # a C1 CSI, as a UTF-8 terminal reads it
    b"\x9b2J csi",  # ... and as a raw byte
    b"\xe2\x80\xae",  # a bidi override
)
OSC_FROM_DATA = re.compile(rb"\x1b\][^\x07\x1b]*(?:pwned|SGFja2Vk)")
"""Any operating-system command carrying a planted text, whatever its number."""


@pytest.mark.skipif(sys.platform != "linux", reason="drives a real pseudo-terminal")
def test_a_real_terminal_receives_no_planted_sequence() -> None:
    """The bytes the console writes to a terminal, screen after screen, then ctrl+q."""
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "120", "LINES": "40"}
    env.pop("NO_COLOR", None)
    args = ["--demo", "--hostile", "--account", str(AGENT)]
    with console_on_pty(args, env, rows=40, columns=120) as term:
        assert term.read_until("Scope"), "the console never drew its first screen"
        term.read_drawn(seconds=4.0)
        for key in b"2345678901":  # every key draws: 1 last, back from Computer Agents
            term.send(bytes([key]))
            term.read_drawn(seconds=1.5)
        before_quit = len(term.written)
        term.send(b"\x11")  # ctrl+q
        done, status = 0, 0
        deadline = time.monotonic() + 60  # a hang, not a speed check: a loaded CI is slow
        while not done and time.monotonic() < deadline:
            term.read_for(0.5)
            done, status = os.waitpid(term.pid, os.WNOHANG)
        assert done == term.pid, "the console did not quit after ctrl+q"
        assert os.waitstatus_to_exitcode(status) == 0
    written = term.written
    assert len(written) > 10_000, "the console drew almost nothing"
    for sequence in PAYLOAD_SEQUENCES:
        assert sequence not in written, f"{sequence!r} from the data reached the terminal"
    assert not OSC_FROM_DATA.search(written), "an OSC carrying planted text was written"
    assert b"\x1b[?1049l" not in written[:before_quit], "left the alternate screen early"
    assert term.ever_shown("␛]52;c;SGFja2Vk"), "the planted text was not shown at all"


def test_the_demo_flag_reaches_the_simulator() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "vagent_tui", "--help"], capture_output=True, text=True, check=True
    )
    assert "--hostile" in result.stdout


async def test_both_inboxes_and_a_room_show_hostile_text_inert(make_app: MakeApp) -> None:
    """The priority inbox and a room's messages (sender, text, attachment addresses, the
    repeated first message) against the hostile simulator: inert, alive, no action run."""
    app = make_app("inbox", account=AGENT, hostile=True)
    calls: list[str] = []
    app.action_screenshot = lambda *a, **k: calls.append("screenshot")  # type: ignore[method-assign]
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        inbox = shown(app, InboxScreen)
        for inbox_name in ("junk", "priority"):
            if inbox_name == "priority":
                await pilot.press("i")
                await settle(pilot)
                assert inbox.pager.query.inbox == "priority"
            await pilot.press("enter")
            await settle(pilot)
            room = shown(app, RoomScreen)
            assert room.thread is not None and room.thread.total > 1, inbox_name
            text = assert_inert(app, f"{inbox_name} room")
            assert any(mark in text for mark in SHOWN), f"{inbox_name} room: nothing planted"
            assert not room.status.has_class("-error"), str(room.status.content)
            # every message in turn: the repeated first one, and those with attachments
            for row in range(min(room.thread.total, 50)):
                room.query_one("#room-table", DataTable).move_cursor(row=row)
                await pilot.pause()
                if row < 3 or room.thread.shown[row].links:
                    assert_inert(app, f"{inbox_name} room, message {row}")
            await pilot.press("n")
            await settle(pilot)
            assert_inert(app, f"{inbox_name} room, page 2")
            await pilot.press("escape")
            await settle(pilot)
            assert app.screen is inbox
            assert_inert(app, f"{inbox_name} inbox")
        assert calls == [], "markup from the data ran an action"
        assert app.is_running


@pytest.mark.skipif(sys.platform != "linux", reason="drives a real pseudo-terminal")
def test_a_real_terminal_receives_nothing_planted_in_a_room() -> None:
    """Both inboxes and a room's messages, on a pty: no planted sequence is written."""
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "120", "LINES": "40"}
    env.pop("NO_COLOR", None)
    args = ["--demo", "--hostile", "--account", str(AGENT), "--screen", "inbox"]
    with console_on_pty(args, env, rows=40, columns=120) as term:
        assert term.read_until("Junk inbox"), "the console never drew the inbox"
        term.read_drawn(seconds=4.0)  # the inbox goes on writing (never still): 4 s at most
        for keys in (b"\r", b"j", b"j", b"j", b"n", b"\x1b", b"i", b"\r", b"j", b"j", b"\x1b"):
            term.send(keys)
            term.read_drawn(seconds=1.0)
        term.send(b"\x11")  # ctrl+q
        done, status = 0, 0
        deadline = time.monotonic() + 60
        while not done and time.monotonic() < deadline:
            term.read_for(0.5)
            done, status = os.waitpid(term.pid, os.WNOHANG)
        assert done == term.pid, "the console did not quit after ctrl+q"
        assert os.waitstatus_to_exitcode(status) == 0
    written = term.written
    for sequence in PAYLOAD_SEQUENCES:
        assert sequence not in written, f"{sequence!r} from the data reached the terminal"
    assert not OSC_FROM_DATA.search(written), "an OSC carrying planted text was written"
    assert term.ever_shown("Priority inbox › room"), "the priority room was not opened"
    assert term.ever_shown("Junk inbox › room"), "the junk room was not opened"
