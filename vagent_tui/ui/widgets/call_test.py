"""A test call or text from the agent (``T`` on the Agent screen), to a number the user
types, followed to its end.

The number is checked as E.164 at its field (nothing is sent on a bad value), and a
question says that a real call is placed (or a real text sent) before anything is. The
platform queues a task (``POST /agent/outboundCall`` or ``/agent/outboundSms``); its
state is then read every `POLL_SECONDS` until it ends, and ``Calls`` opens the Calls
screen for the agent, where the ended call is. The number is kept for the profile in
a 0600 file (`vagent_tui.services.call_test_numbers`) and sent nowhere else. ESC only
closes; a task already queued goes on (the Tasks screen lists it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, cast

from pydantic import ValidationError
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Select, Static

from vagent_tui.api.errors import PlatformError
from vagent_tui.api.models import (
    OutboundCallRequest,
    OutboundSmsRequest,
    OutboundTask,
    QueuedTasks,
)
from vagent_tui.services.call_test_numbers import NumberStore
from vagent_tui.services.reread import poll
from vagent_tui.ui.built import ClosesItself
from vagent_tui.ui.colours import FAILED, OK, WARN
from vagent_tui.ui.css import stylesheet
from vagent_tui.ui.dialogs import MODAL_CSS, ConfirmModal
from vagent_tui.ui.text import inert, safe
from vagent_tui.ui.widgets.form import FormField, errors_by_field, first_invalid, show_errors
from vagent_tui.ui.widgets.status import StatusReport, describe_error
from vagent_tui.ui.writes import Write, perform

if TYPE_CHECKING:
    from vagent_tui.services.session import Connection
    from vagent_tui.ui.host import Console

POLL_SECONDS = 2.0
"""How often a queued test's task is read until it ends."""
POLL_LIMIT = 900
"""Reads of one task at most (half an hour at `POLL_SECONDS`): then the dialog stops."""


class CallTestModal(ClosesItself[int | None], ModalScreen[int | None]):
    """Type, number, message; then the task's state. Dismisses with the agent's account
    id when the user asks for Calls, None otherwise."""

    SCOPED_CSS: ClassVar[bool] = False
    DEFAULT_CSS = MODAL_CSS + stylesheet(__file__)
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Close", id="test-call.close",
                tooltip="Close (a queued task goes on)"),
    ]  # fmt: skip

    def __init__(self, *, who: str, store: NumberStore | None = None) -> None:
        super().__init__(classes="modal")
        self.who = who
        self.store = store or NumberStore()
        self.start: Connection
        self.sending = False

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        self.start = cast("Console", self.app).connection
        profile = self.start.profile.name if self.start.profile is not None else None
        with Vertical():
            yield Static("Test call or text", classes="modal-title", markup=False)
            yield Static(safe(f"From the agent of {self.who}. A real call is placed (or a "
                              "real text sent) to the number you type; it is kept for this "
                              "profile only and sent nowhere else.", style="dim",
                              multiline=True))  # fmt: skip
            kinds: Select[str] = Select(
                [("call", "call"), ("text", "text")], value="call", allow_blank=False,
                id="test-type", compact=True,
            )  # fmt: skip
            yield FormField("Type", kinds, name="type", hint="a call or a text")
            number = Input(self.store.load(profile), placeholder="+15551234567",
                           id="test-number", compact=True)  # fmt: skip
            yield FormField("Number", number, name="target", hint="E.164")
            message = Input(placeholder="This is a test from the console", id="test-message",
                            compact=True)  # fmt: skip
            yield FormField("Message", message, name="content", hint="texts only")
            yield Label("", id="test-error", classes="-hidden", markup=False)
            yield Static("", id="test-state", markup=False)
            with Horizontal(classes="modal-buttons"):
                yield Button("Close", id="test-close")
                yield Button("Calls", id="test-calls", disabled=True)
                yield Button("Place", id="test-submit", variant="primary")

    def on_mount(self) -> None:
        self.query_one("#test-number", Input).focus()

    @property
    def fields(self) -> list[FormField]:
        return list(self.query(FormField).results(FormField))

    @property
    def kind(self) -> str:
        value = self.query_one("#test-type", Select).value
        return "text" if value == "text" else "call"

    def _error(self, message: str) -> None:
        label = self.query_one("#test-error", Label)
        label.update(safe(message))
        label.set_class(not message, "-hidden")

    # ------------------------------------------------------------------ submitting

    def build_request(self) -> OutboundCallRequest | OutboundSmsRequest | None:
        """The request, or None with each error at its field (nothing is sent)."""
        number = self.query_one("#test-number", Input).value
        try:
            if self.kind == "text":
                content = self.query_one("#test-message", Input).value
                return OutboundSmsRequest(target=number, content=content,
                                          context="A test from the console")  # fmt: skip
            return OutboundCallRequest(target=number, context="A test call from the console")
        except ValidationError as exc:
            errors = errors_by_field(exc)
        if not number.strip():
            errors["target"] = "required"
        rest = show_errors(self.fields, errors)
        self._error("\n".join(rest))
        invalid = first_invalid(self.fields)
        if invalid is not None:
            invalid.widget.focus()
        return None

    def submit(self) -> None:
        if self.sending:
            return
        request = self.build_request()
        if request is None:
            return
        show_errors(self.fields, {})
        self._error("")
        self.place(request)

    def question(self, request: OutboundCallRequest | OutboundSmsRequest) -> ConfirmModal:
        if isinstance(request, OutboundSmsRequest):
            title, what = "Send a real text", f"sends a real text message to {request.target}"
            label = "Send text"
        else:
            title, what = "Place a real call", f"places a real phone call to {request.target}"
            label = "Place call"
        body = (f"This {what} from the agent of {self.who}.\nSomeone's phone will ring or "
                "buzz. Go ahead?")  # fmt: skip
        return ConfirmModal(title, body, confirm_label=label)

    @work(group="write-test-call", exit_on_error=False)
    async def place(self, request: OutboundCallRequest | OutboundSmsRequest) -> None:
        """Sent through the write path: asked first, once, to the agent the dialog was
        opened for; an unknown outcome is read back (the tasks to that number)."""
        button = self.query_one("#test-submit", Button)
        self.sending = True
        button.disabled = True
        text = isinstance(request, OutboundSmsRequest)

        async def send(c: Connection) -> QueuedTasks:
            if isinstance(request, OutboundSmsRequest):
                return await c.api.send_text(request, target=c.target_id)
            return await c.api.place_call(request, target=c.target_id)

        async def read_back(c: Connection) -> str:
            page = await c.api.list_tasks(target=c.target_id)
            same = [t for t in page.tasks if t.target == request.target]
            if not same:
                return f"No task to {request.target} is listed: nothing was queued."
            self.follow(same[0].key)
            return (
                f"A task to {request.target} is listed ({same[0].state_text or 'state unknown'})."
            )

        try:
            written = await perform(
                Write[QueuedTasks](
                    "test-call", "Sending a test text" if text else "Placing a test call",
                    send, confirm=self.question(request), read_back=read_back,
                ),
                app=self.app, start=self.start,
                still=lambda: self.start.same_context(cast("Console", self.app).connection),
                say=self._say,
            )  # fmt: skip
        finally:
            self.sending = False
            button.disabled = False
        if written.outcome != "done" or written.result is None:
            return
        profile = self.start.profile.name if self.start.profile is not None else None
        self.store.keep(profile, request.target)
        tasks = written.result.tasks
        if not tasks:
            note = inert(written.result.message) if isinstance(written.result.message, str) else ""
            self._show(Text(f"Queued{': ' + note if note else ''}; the platform named no task "
                            "to follow. The Tasks screen lists it.", style=WARN))  # fmt: skip
            self._calls_ready()
            return
        self._show_task(tasks[0])
        self._calls_ready()
        if not tasks[0].ended and tasks[0].key:
            self.follow(tasks[0].key)
        if self.store.error:
            self._error(self.store.error)

    def _say(self, report: StatusReport) -> None:
        if report.kind == "error":
            self._error(f"✗ {describe_error(report.what)}")
        elif report.kind in ("info", "ok"):
            self._error(describe_error(report.what))

    # ------------------------------------------------------------------ following

    @work(exclusive=True, group="test-call-follow", exit_on_error=False)
    async def follow(self, task_id: str) -> None:
        """Read the task until it ends (a read that fails is said, and tried again)."""
        async for task in poll(
            lambda: self.start.api.get_task(task_id, target=self.start.target_id),
            every=POLL_SECONDS, times=POLL_LIMIT,
        ):  # fmt: skip
            if isinstance(task, PlatformError):
                line = f"Task {task_id}: not read ({describe_error(task)}); trying again"
                self._show(Text(inert(line), style=WARN))
                continue
            self._show_task(task)
            if task.ended:
                return
        self._show(Text(f"Task {task_id} has not ended; the Tasks screen follows it.", style=WARN))

    def _show_task(self, task: OutboundTask) -> None:
        state = task.state_text or "state unknown"
        style = OK if state == "finished" else FAILED if state == "errored" else WARN
        text = Text()
        text.append(f"Task {inert(task.key) or '(no id)'}: ", style="bold")
        text.append(inert(state), style=style)
        detail = task.error if task.error not in (None, "") else task.result
        if detail not in (None, ""):
            text.append(f" · {inert(detail)}")
        elif task.waits_for:
            text.append(inert(f" · waits: {task.waits_for}"))
        if task.ended:
            text.append("\nPress Calls to see it in the call log.")
        self._show(text)

    def _show(self, text: Text) -> None:
        self.query_one("#test-state", Static).update(text)

    def _calls_ready(self) -> None:
        button = self.query_one("#test-calls", Button)
        button.disabled = False
        button.focus()

    # ------------------------------------------------------------------ keys

    @on(Input.Submitted)
    def _input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.submit()

    @on(Button.Pressed)
    def _button(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "test-submit":
            self.submit()
        elif event.button.id == "test-calls":
            self.dismiss(self.start.target_id)
        else:
            self.action_cancel()

    def action_cancel(self) -> None:
        self.dismiss(None)
