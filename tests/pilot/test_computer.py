"""Pilot flows of the Computer Agents screen: recordings, browser sessions, uploads.

Every "nothing is sent" claim is proved by counting requests in the simulator's log.
The file tree is rooted at a temporary folder (``computer.TREE_ROOT``).
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from textual.pilot import Pilot
from textual.widgets import DataTable, DirectoryTree, Input, Static, Switch

from tests.helpers import MakeApp, fail_once, settle, shown, sim_of, wait_for
from vagent_tui.api.errors import ApiError
from vagent_tui.ui.dialogs import ConfirmModal
from vagent_tui.ui.screens import computer
from vagent_tui.ui.screens.base import BaseScreen
from vagent_tui.ui.screens.computer import ComputerScreen
from vagent_tui.ui.widgets.computer_recording import RecordingPane
from vagent_tui.ui.widgets.form import FormField

ACCOUNT = 1118
BASE = f"/api/v2/computer/accounts/{ACCOUNT}"
START = BASE + "/workflow-recordings/start"
STATUS = BASE + "/workflow-recordings/status"
SESSION = BASE + "/browser/automation-sessions"
UPLOAD = BASE + "/workspace/upload"
FILES = BASE + "/workspace/files"


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fixed tree root with one small file in it."""
    (tmp_path / "hello.txt").write_bytes(b"hello workspace\n")
    (tmp_path / "sub").mkdir()
    monkeypatch.setattr(computer, "TREE_ROOT", tmp_path)
    return tmp_path


def text_of(screen: Any, selector: str) -> str:
    console = Console(width=300, file=io.StringIO(), record=True)
    console.print(screen.query_one(selector, Static).content)
    return console.export_text()


def file_rows(screen: Any) -> list[str]:
    return [str(key.value) for key in screen.query_one("#computer-files", DataTable).rows]


async def set_value(pilot: Pilot[None], screen: Any, selector: str, value: str) -> None:
    screen.query_one(selector, Input).value = value
    await pilot.pause()


async def pick(pilot: Pilot[None], screen: Any, path: Path) -> None:
    screen.upload_pane.pick_file(path)
    await settle(pilot)


# ---------------------------------------------------------------------- recordings


async def test_browser_session_fills_slot_then_start_and_status(make_app: MakeApp) -> None:
    app = make_app("computer", account=ACCOUNT)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, ComputerScreen)
        sim = sim_of(app)
        assert screen.account_id == ACCOUNT
        assert "No workflow recording yet" in text_of(screen, "#computer-recording")
        await pilot.press("b")
        await settle(pilot)
        assert sim.count("POST", SESSION) == 1
        assert sim.requests[-1].body == {"ttlSeconds": 600}
        assert screen.query_one("#computer-slot", Input).value == "0"
        info = text_of(screen, "#computer-session")
        assert "slot 0" in info and "wss://browser.sim.invalid/cdp/1118/0/" in info
        assert "X-Browser-Session (values hidden)" in info
        assert "s00" not in info.split("Headers")[1]  # header values are never shown
        await pilot.press("s")
        await settle(pilot)
        recs = sim.recordings[ACCOUNT]
        assert len(recs) == 1 and recs[0]["slotId"] == 0
        detail = text_of(screen, "#computer-recording")
        assert "recording" in detail and recs[0]["recordingId"] in detail
        assert "✗ no" in detail  # finalized, as a glyph
        assert "evidence/workflow-recordings/" in detail
        assert screen.query_one("#computer-slot", Input).value == ""  # success resets
        assert screen.recording_pane.polling  # not final: the status is watched
        # t reads the status again.
        before = sim.count("GET", STATUS)
        await pilot.press("t")
        await settle(pilot)
        assert sim.count("GET", STATUS) == before + 1
        assert "Recording status refreshed" in str(screen.status.content)


async def test_second_start_shows_the_servers_409(make_app: MakeApp) -> None:
    app = make_app("computer", account=ACCOUNT)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, ComputerScreen)
        for slot in ("0", "1"):  # each start on the slot of its own browser session
            await pilot.press("escape", "b")
            await settle(pilot)
            assert screen.query_one("#computer-slot", Input).value == slot
            await pilot.press("escape", "s")
            await settle(pilot)
        assert len(sim_of(app).recordings[ACCOUNT]) == 1
        status = str(screen.status.content)
        assert "HTTP 409: Only one recording or generation may be active" in status
        assert screen.query_one("#computer-slot", Input).value == "1"  # kept as typed


async def test_a_slot_without_a_browser_session_shows_the_servers_message(
    make_app: MakeApp,
) -> None:
    """The slot must be an existing session's: slot 99 starts nothing, the reason shows."""
    app = make_app("computer", account=ACCOUNT)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, ComputerScreen)
        await set_value(pilot, screen, "#computer-slot", "99")
        await pilot.press("escape", "s")
        await settle(pilot)
        assert sim_of(app).recordings[ACCOUNT] == []
        status = str(screen.status.content)
        message = "slotId 99 is not the slot of an active browser automation session"
        assert f"HTTP 400: {message}" in status
        assert screen.query_one("#computer-slot", Input).value == "99"  # kept as typed
        assert "No workflow recording yet" in text_of(screen, "#computer-recording")


async def test_invalid_slot_sends_nothing(make_app: MakeApp) -> None:
    app = make_app("computer", account=ACCOUNT)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, ComputerScreen)
        for slot in ("-1", "abc", "", "1.5"):
            await set_value(pilot, screen, "#computer-slot", slot)
            await pilot.press("s")
            await settle(pilot)
            assert sim_of(app).count("POST", START) == 0, slot
            field = screen.query_one("#field-slot-id", FormField)
            assert field.has_class("-invalid") and field.error, slot
            assert screen.focused is screen.query_one("#computer-slot", Input), slot
            assert screen.query_one("#computer-slot", Input).value == slot


async def test_invalid_ttl_sends_nothing(make_app: MakeApp) -> None:
    app = make_app("computer", account=ACCOUNT)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, ComputerScreen)
        for ttl in ("59", "1801", "ten"):
            await set_value(pilot, screen, "#computer-ttl", ttl)
            await pilot.press("b")
            await settle(pilot)
            assert sim_of(app).count("POST", SESSION) == 0, ttl
            assert "60 to 1800" in screen.query_one("#field-ttl-seconds", FormField).error, ttl


async def test_status_is_polled_until_final_and_not_while_hidden(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = [1_800_000_000.0]
    monkeypatch.setattr(RecordingPane, "POLL_SECONDS", 0.05)
    app = make_app("computer", account=ACCOUNT, clock=lambda: clock[0], task_seconds=10)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, ComputerScreen)
        sim = sim_of(app)
        await pilot.press("escape", "b")  # a browser session fills the slot
        await settle(pilot)
        await pilot.press("escape", "s")
        await settle(pilot)
        await pilot.press("x")
        await settle(pilot)
        assert "stopping" in text_of(screen, "#computer-recording")
        # Hidden: no polling.
        app.switch_mode("voices")
        await settle(pilot)
        assert not screen.recording_pane.polling
        polls = sim.count("GET", STATUS)
        await pilot.pause(0.3)
        assert sim.count("GET", STATUS) == polls
        # Shown again: polled until finalized and analysed, then it stops.
        clock[0] += 6
        app.switch_mode("computer")
        await wait_for(pilot, lambda: "✓ yes" in text_of(screen, "#computer-recording"))
        clock[0] += 10
        await wait_for(pilot, lambda: "completed" in text_of(screen, "#computer-recording"))
        await settle(pilot)
        assert not screen.recording_pane.polling
        polls = sim.count("GET", STATUS)
        await pilot.pause(0.3)
        assert sim.count("GET", STATUS) == polls


async def test_stop_without_recording_shows_the_server_message(make_app: MakeApp) -> None:
    app = make_app("computer", account=ACCOUNT)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("x")
        await settle(pilot)
        assert "HTTP 409: No recording is active" in str(shown(app, BaseScreen).status.content)


# ---------------------------------------------------------------------- upload


async def test_upload_picked_from_the_tree(make_app: MakeApp, folder: Path) -> None:
    app = make_app("computer", account=ACCOUNT)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = shown(app, ComputerScreen)
        sim = sim_of(app)
        assert "hello.txt" not in sim.files[ACCOUNT]
        await pilot.press("b")  # a browser session: the panes are taller than 24 rows
        await settle(pilot)
        await pilot.press("f")
        await settle(pilot)
        tree = screen.query_one("#computer-tree", DirectoryTree)
        assert Path(tree.path) == folder and screen.has_class("-picking")
        # The root, then "sub" (folders first), then hello.txt.
        await pilot.press("down", "down", "enter")
        await settle(pilot)
        assert not screen.has_class("-picking")
        assert screen.upload_pane.local_file == folder / "hello.txt"
        assert "(16 B)" in text_of(screen, "#computer-local")
        assert screen.query_one("#computer-path", Input).value == "hello.txt"
        assert screen.focused is screen.query_one("#computer-path", Input)
        body = screen.query_one("#computer-body").region
        assert body.contains_region(screen.focused.region), "the focused field is out of view"
        await pilot.press("enter")  # Enter in the path field uploads
        await settle(pilot)
        assert sim.files[ACCOUNT]["hello.txt"]["size"] == 16
        assert sim.count("POST", UPLOAD) == 1
        assert "hello.txt" in file_rows(screen)
        assert "File uploaded successfully" in str(screen.status.content)
        assert screen.query_one("#computer-path", Input).value == ""  # success resets


async def test_upload_with_mode_and_a_folder_path(make_app: MakeApp, folder: Path) -> None:
    app = make_app("computer", account=ACCOUNT)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, ComputerScreen)
        await pick(pilot, screen, folder / "hello.txt")
        await set_value(pilot, screen, "#computer-path", "notes/hello.sh")
        await set_value(pilot, screen, "#computer-mode", "755")
        await pilot.press("escape", "u")
        await settle(pilot)
        saved = sim_of(app).files[ACCOUNT]["notes/hello.sh"]
        assert saved["mode"] == "0755"
        assert "notes/hello.sh" in file_rows(screen)


async def test_invalid_path_or_mode_sends_nothing(make_app: MakeApp, folder: Path) -> None:
    app = make_app("computer", account=ACCOUNT)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, ComputerScreen)
        await pick(pilot, screen, folder / "hello.txt")
        for path, mode, field in (
            ("/etc/passwd", "", "path"),
            ("../outside.txt", "", "path"),
            ("a/../../b", "", "path"),
            ("", "", "path"),
            ("ok.txt", "999", "mode"),
            ("ok.txt", "rwx", "mode"),
            ("ok.txt", "64", "mode"),
        ):
            await set_value(pilot, screen, "#computer-path", path)
            await set_value(pilot, screen, "#computer-mode", mode)
            await pilot.press("escape", "u")
            await settle(pilot)
            assert sim_of(app).count("POST", UPLOAD) == 0, (path, mode)
            assert screen.query_one(f"#field-{field}", FormField).error, (path, mode)
            assert screen.query_one("#computer-path", Input).value == path
            assert screen.query_one("#computer-mode", Input).value == mode


async def test_no_file_directory_or_missing_file_refused_at_the_field(
    make_app: MakeApp, folder: Path
) -> None:
    app = make_app("computer", account=ACCOUNT)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, ComputerScreen)
        await set_value(pilot, screen, "#computer-path", "x.txt")
        await pilot.press("escape", "u")
        await settle(pilot)
        assert "pick a local file" in screen.query_one("#field-file", FormField).error
        await pick(pilot, screen, folder / "sub")
        assert "is a directory" in screen.query_one("#field-file", FormField).error
        await pick(pilot, screen, folder / "gone.txt")
        assert "does not exist" in screen.query_one("#field-file", FormField).error
        await pilot.press("escape", "u")
        await settle(pilot)
        assert "does not exist" in screen.query_one("#field-file", FormField).error
        # A file that disappears after picking is refused when read for the upload.
        (folder / "brief.txt").write_text("x")
        await pick(pilot, screen, folder / "brief.txt")
        (folder / "brief.txt").unlink()
        await set_value(pilot, screen, "#computer-path", "x.txt")
        await pilot.press("escape", "u")
        await settle(pilot)
        assert "does not exist" in screen.query_one("#field-file", FormField).error
        assert sim_of(app).count("POST", UPLOAD) == 0


async def test_overwrite_asks_and_cancel_sends_nothing(make_app: MakeApp, folder: Path) -> None:
    app = make_app("computer", account=ACCOUNT)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, ComputerScreen)
        sim = sim_of(app)
        assert screen.query_one("#computer-overwrite", Switch).value is False
        await pick(pilot, screen, folder / "hello.txt")
        await set_value(pilot, screen, "#computer-path", "notes/readme.txt")
        screen.query_one("#computer-overwrite", Switch).value = True
        await pilot.pause()
        assert "replace" in text_of(screen, "#computer-overwrite-state")
        await pilot.press("escape", "u")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmModal)
        assert app.screen.focused is not None and app.screen.focused.id == "cancel"
        await pilot.press("escape")
        await settle(pilot)
        assert sim.count("POST", UPLOAD) == 0
        assert "nothing was sent" in str(screen.status.content)
        assert sim.files[ACCOUNT]["notes/readme.txt"]["size"] == 812
        # Enter on the focused Cancel button cancels too.
        await pilot.press("u")
        await pilot.pause()
        await pilot.press("enter")
        await settle(pilot)
        assert sim.count("POST", UPLOAD) == 0
        # Confirming replaces the file.
        await pilot.press("u")
        await pilot.pause()
        await pilot.click("#confirm")
        await settle(pilot)
        assert sim.count("POST", UPLOAD) == 1
        upload = next(r for r in sim.requests if r.path == UPLOAD)
        assert "overwrite" in upload.body  # the log keeps the multipart field names
        assert sim.files[ACCOUNT]["notes/readme.txt"]["size"] == 16
        assert "replaced the existing file" in str(screen.status.content)


async def test_existing_file_without_overwrite_is_409_and_form_kept(
    make_app: MakeApp, folder: Path
) -> None:
    app = make_app("computer", account=ACCOUNT)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, ComputerScreen)
        await pick(pilot, screen, folder / "hello.txt")
        await set_value(pilot, screen, "#computer-path", "notes/readme.txt")
        await set_value(pilot, screen, "#computer-mode", "0600")
        await pilot.press("escape", "u")
        await settle(pilot)
        status = str(screen.status.content)
        assert "HTTP 409: File already exists; set overwrite to true to replace it" in status
        assert screen.query_one("#computer-path", Input).value == "notes/readme.txt"
        assert screen.query_one("#computer-mode", Input).value == "0600"
        assert screen.upload_pane.local_file == folder / "hello.txt"
        assert sim_of(app).files[ACCOUNT]["notes/readme.txt"]["size"] == 812


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("public/index.html", "'public/' is protected and cannot be written"),
        ("AGENTS.md", "'AGENTS.md' is platform-managed and cannot be uploaded"),
        (".system/x.json", "'.system/' holds protected system files"),
    ],
)
async def test_protected_paths_refused_with_the_servers_message(
    make_app: MakeApp, folder: Path, path: str, message: str
) -> None:
    app = make_app("computer", account=ACCOUNT)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, ComputerScreen)
        await pick(pilot, screen, folder / "hello.txt")
        await set_value(pilot, screen, "#computer-path", path)
        await pilot.press("escape", "u")
        await settle(pilot)
        assert "HTTP 403: " + message in str(screen.status.content)
        assert screen.query_one("#computer-path", Input).value == path
        assert path not in sim_of(app).files[ACCOUNT]


async def test_server_error_shown_input_kept_and_retry_works(
    make_app: MakeApp, folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app("computer", account=ACCOUNT)
    fail_once(monkeypatch, app.connection.api, "upload_file", ApiError(500, "boom"))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, ComputerScreen)
        await pick(pilot, screen, folder / "hello.txt")
        await set_value(pilot, screen, "#computer-path", "docs/hello.txt")
        await pilot.press("escape", "u")
        await settle(pilot)
        status = str(screen.status.content)
        assert "HTTP 500: boom" in status and "press u to retry" in status
        assert screen.query_one("#computer-path", Input).value == "docs/hello.txt"
        await pilot.press("u")
        await settle(pilot)
        assert "docs/hello.txt" in sim_of(app).files[ACCOUNT]
        assert "docs/hello.txt" in file_rows(screen)


# ---------------------------------------------------------------------- accounts


async def test_account_follows_the_target_and_paths_hold_the_id(make_app: MakeApp) -> None:
    app = make_app("computer")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, ComputerScreen)
        sim = sim_of(app)
        # The partner key reaches several Computer Agents: the first is preselected.
        assert len(screen.accounts) >= 3 and screen.account_id == screen.accounts[0].id
        app.select_target(1218)
        await settle(pilot)
        assert screen.account_id == 1218
        assert [a.id for a in screen.accounts] == [1218]
        assert sim.requests[-1].path.startswith("/api/v2/computer/accounts/1218/")
        computer_calls = [
            r for r in sim.requests if r.path.startswith("/api/v2/computer/accounts/")
        ]
        assert all("targetAccountId" not in r.query for r in computer_calls)
        # A voice agent account: the Computer Agent its live configuration delegates to.
        app.select_target(1111)
        await settle(pilot)
        assert [a.id for a in screen.accounts] == [1118] and screen.account_id == 1118
        assert "agent #1111 delegates to" in str(screen.status.content)
        # One without a delegate reaches none: a hint, not a failure.
        app.select_target(1113)
        await settle(pilot)
        assert screen.account_id is None
        assert "Scope screen (1)" in str(screen.status.content)
        before = len(sim.requests)
        await pilot.press("s")
        await settle(pilot)
        assert len(sim.requests) == before
        assert "No Computer Agent account selected" in str(screen.status.content)


async def test_accounts_error_then_retry(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app("computer", account=ACCOUNT)
    fail_once(monkeypatch, app.connection.api, "list_computer_accounts", ApiError(500, "boom"))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, ComputerScreen)
        assert "HTTP 500: boom" in str(screen.status.content)
        await pilot.press("r")
        await settle(pilot)
        assert screen.account_id == ACCOUNT
        assert "notes/readme.txt" in file_rows(screen)


async def test_x_typed_in_the_ttl_field_stops_instead_of_landing_there(make_app: MakeApp) -> None:
    """The slot and TTL fields take digits; a letter is the screen's key (x: stop)."""
    app = make_app("computer", account=ACCOUNT)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        ttl = app.screen.query_one("#computer-ttl", Input)
        ttl.focus()
        await pilot.press("end", "0")
        await pilot.press("x")
        await settle(pilot)
        assert ttl.value == "6000"  # the digit typed, the letter not
        assert "HTTP 409: No recording is active" in str(shown(app, BaseScreen).status.content)
