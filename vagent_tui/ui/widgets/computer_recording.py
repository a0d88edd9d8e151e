"""The workflow-recording pane of the Computer Agents screen.

The slot of a recording comes from a browser automation session (``b`` fills it in).
While a recording is not final its status is read again every `POLL_SECONDS`, one
request at a time (the next poll is armed after each answer), and only while the
screen is showing. A failed poll keeps the recording shown and the watch going, at an
interval that doubles per failure in a row (up to `MAX_POLL_SECONDS`); the first answer
brings the normal pace back.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar, cast

from pydantic import ValidationError
from textual import events, work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.timer import Timer
from textual.widgets import Button, Input, Label, Static

from vagent_tui.api.errors import PlatformError
from vagent_tui.api.models import AutomationSession, RecordingStartRequest, WorkflowRecording
from vagent_tui.ui.failures import ReportsWorkerFailures, guarded_read
from vagent_tui.ui.widgets.computer_render import is_final, recording_detail, session_text
from vagent_tui.ui.widgets.form import FormField, errors_by_field, show_errors
from vagent_tui.ui.widgets.status import StatusReport
from vagent_tui.ui.writes import Write, Written, write_from

if TYPE_CHECKING:
    from vagent_tui.api.client import PlatformClient
    from vagent_tui.services.session import Connection
    from vagent_tui.ui.host import Console

TTL_DEFAULT = 600
TTL_MIN, TTL_MAX = 60, 1800


class DigitsInput(Input):
    """A field for a whole number: digits are typed, any other character is the
    screen's key (x typed in the TTL field stops the recording, as the footer says,
    instead of landing in the field as text the form then refuses)."""

    def check_consume_key(self, key: str, character: str | None) -> bool:
        return character is not None and character.isdecimal()

    async def on_key(self, event: events.Key) -> None:
        if event.is_printable and not (event.character or "").isdecimal():
            event.prevent_default()  # not typed here: the screen's bindings get it


class RecordingPane(ReportsWorkerFailures, Vertical):
    """Slot and TTL fields, the action buttons, the browser session and the recording."""

    POLL_SECONDS: ClassVar[float] = 3.0
    MAX_POLL_SECONDS: ClassVar[float] = 30.0
    """While the platform fails, the interval doubles up to this, then holds."""

    def __init__(self) -> None:
        super().__init__(id="computer-recording-pane")
        self.recording: WorkflowRecording | None = None
        self.browser: AutomationSession | None = None
        self._poll: Timer | None = None
        self.account: int | None = None
        """The account the pane shows (the screen tells it: `account_changed`)."""
        self.poll_failures = 0

    def compose(self) -> ComposeResult:
        yield Label("Workflow recording", classes="pane-title")
        with Horizontal(classes="computer-row"):
            slot = DigitsInput(placeholder="e.g. 0", id="computer-slot", compact=True)
            slot.cursor_blink = False
            yield FormField("Slot id", slot, name="slot_id", hint="≥ 0")
            ttl = DigitsInput(str(TTL_DEFAULT), id="computer-ttl", compact=True)
            ttl.cursor_blink = False
            yield FormField("Session TTL", ttl, name="ttl_seconds", hint=f"{TTL_MIN}..{TTL_MAX} s")
        with Horizontal(classes="computer-buttons"):
            yield Button("Start s", id="computer-start", compact=True, variant="primary")
            yield Button("Stop x", id="computer-stop", compact=True)
            yield Button("Browser session b", id="computer-open-session", compact=True)
            yield Button("Status t", id="computer-refresh-status", compact=True)
        yield Static(session_text(None), id="computer-session", markup=False)
        yield Static(recording_detail(None, compact=True), id="computer-recording", markup=False)

    @property
    def client(self) -> PlatformClient:
        return cast("Console", self.app).connection.api

    def field(self, name: str) -> FormField:
        return self.query_one(f"#field-{name.replace('_', '-')}", FormField)

    # ------------------------------------------------------------------ showing

    def account_changed(self, account: int | None) -> None:
        """Forget what belonged to the previous account; read the new one's status."""
        self.account = account
        self.browser = None
        self.poll_failures = 0
        self.query_one("#computer-session", Static).update(session_text(None))
        self.set_recording(None)
        if account is not None:
            self.load_status(quiet=True)

    def set_recording(self, recording: WorkflowRecording | None) -> None:
        self.recording = recording
        self.show_recording()
        self.schedule_poll()

    def show_recording(self) -> None:
        compact = not self.screen.has_class("-wide")
        widget = self.query_one("#computer-recording", Static)
        widget.update(recording_detail(self.recording, compact=compact))

    # ------------------------------------------------------------------ polling

    def schedule_poll(self) -> None:
        self.stop_polling()
        if not is_final(self.recording) and self.screen.is_current:
            self._poll = self.set_timer(self.poll_interval, self._poll_now)

    @property
    def poll_interval(self) -> float:
        """`POLL_SECONDS`, doubled for each poll that failed in a row (bounded)."""
        backoff: float = self.POLL_SECONDS * 2 ** min(self.poll_failures, 8)
        return min(self.MAX_POLL_SECONDS, backoff)

    def stop_polling(self) -> None:
        if self._poll is not None:
            self._poll.stop()
            self._poll = None

    @property
    def polling(self) -> bool:
        return self._poll is not None

    def resume_polling(self) -> None:
        if not is_final(self.recording):
            self.load_status(quiet=True)

    def _poll_now(self) -> None:
        self._poll = None
        if self.screen.is_current and not is_final(self.recording):
            self.load_status(quiet=True)

    # ------------------------------------------------------------------ requests

    @work(exclusive=True, group="computer-status", exit_on_error=False)
    async def load_status(self, *, quiet: bool = False) -> None:
        account = self.account
        if account is None:
            return
        if not quiet:
            self.post_message(StatusReport.busy("Reading the recording status"))
        client = self.client

        def failed(exc: PlatformError) -> None:
            self.post_message(StatusReport.error(exc, retry_key="t"))
            # Keep watching a recording in progress, backing off while it fails.
            self.poll_failures += 1
            self.schedule_poll()

        ok, recording = await guarded_read(
            client.recording_status(account),
            still_wanted=lambda: account == self.account and client is self.client,
            on_error=failed,
        )
        if not ok:
            return
        recovered, self.poll_failures = self.poll_failures > 0, 0
        self.set_recording(recording)
        if recovered and quiet:
            self.post_message(
                StatusReport.ok("The platform answers again: recording status refreshed")
            )
        if not quiet:
            self.post_message(
                StatusReport.ok("Recording status refreshed" if recording else "No recording yet")
            )

    def start(self, account: int) -> None:
        """Validate the slot at its field; nothing is sent when it is invalid."""
        raw = self.query_one("#computer-slot", Input).value.strip()
        try:
            request = RecordingStartRequest.model_validate({"slot_id": raw or None})
        except ValidationError as exc:
            errors = errors_by_field(exc)
            if not raw:
                errors["slot_id"] = "required: type a slot or open a browser session (b)"
            show_errors([self.field("slot_id")], errors)
            self.query_one("#computer-slot", Input).focus()
            return
        self.field("slot_id").set_error(None)
        self.start_recording(account, request.slot_id)

    def still(self, account: int) -> Callable[[], bool]:
        """Whether the pane still shows ``account`` through the same client."""
        client = self.client
        return lambda: account == self.account and client is self.client

    def start_recording(self, account: int, slot: int) -> None:
        def after(written: Written[WorkflowRecording]) -> None:
            if written.result is None:
                return
            self.query_one("#computer-slot", Input).value = ""
            if account == self.account:
                self.set_recording(written.result)

        write_from(
            self,
            Write[WorkflowRecording](
                "computer-start",
                f"Starting a recording on slot {slot}",
                lambda c: c.api.start_recording(account, slot),
                done=lambda r: f"Recording {r.recording_id or ''} started on slot {slot}",
                read_back=lambda c: self._recording_now(c, account),
                retry_key="s",
                after=after,
            ),
            still=self.still(account),
        )

    def stop_recording(self, account: int) -> None:
        def after(written: Written[WorkflowRecording]) -> None:
            if written.result is not None and account == self.account:
                self.set_recording(written.result)

        write_from(
            self,
            Write[WorkflowRecording](
                "computer-stop",
                "Stopping the recording",
                lambda c: c.api.stop_recording(account),
                done=lambda r: f"Recording {r.recording_id or ''} {r.state or 'stopped'}",
                read_back=lambda c: self._recording_now(c, account),
                retry_key="x",
                after=after,
            ),
            still=self.still(account),
        )

    async def _recording_now(self, conn: Connection, account: int) -> str:
        recording = await conn.api.recording_status(account)
        if recording is None:
            return "no recording."
        return f"recording {recording.recording_id or ''} is {recording.state or 'unknown'}."

    def open_session(self, account: int) -> None:
        """Validate the TTL at its field, then ask for a browser automation session."""
        raw = self.query_one("#computer-ttl", Input).value.strip()
        try:
            ttl = int(raw)
        except ValueError:
            ttl = -1
        if not TTL_MIN <= ttl <= TTL_MAX:
            self.field("ttl_seconds").set_error(f"whole seconds from {TTL_MIN} to {TTL_MAX}")
            self.query_one("#computer-ttl", Input).focus()
            return
        self.field("ttl_seconds").set_error(None)
        self.create_session(account, ttl)

    def create_session(self, account: int, ttl: int) -> None:
        def after(written: Written[AutomationSession]) -> None:
            browser = written.result
            if browser is None or account != self.account:
                return
            self.browser = browser
            self.query_one("#computer-session", Static).update(session_text(browser))
            if browser.slot is not None:
                self.query_one("#computer-slot", Input).value = str(browser.slot)
                self.field("slot_id").set_error(None)

        write_from(
            self,
            Write[AutomationSession](
                "computer-browser",
                f"Opening a browser automation session ({ttl} s)",
                lambda c: c.api.create_automation_session(account, ttl),
                done=lambda b: f"Browser session on slot {b.slot}: press s to start recording",
                retry_key="b",
                after=after,
            ),
            still=self.still(account),
        )
