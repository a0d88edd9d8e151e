"""The Tasks screen's task edits (``POST /tasks/{taskId}``): ``e`` changes a pending
task's start, its greeting (a call) or message (a text) and its context, reviewed as a
diff before it is sent; ``c`` cancels a pending or running task (the ``canceled``
state), asked first.

Which states may be changed is the simulator's rule (sim/CONTRACT.md, choices 65 and
112): only a pending task is edited; a pending or running one is canceled; the console
says so before anything is sent, and the platform's refusal is shown if it differs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from typing import Any

from textual.widget import Widget

from vagent_tui.api.models import OutboundTask, Request
from vagent_tui.api.task_models import TaskUpdate
from vagent_tui.services.diff import FieldDiff, Kind, is_long, text_lines
from vagent_tui.services.session import Connection
from vagent_tui.ui import format as fmt
from vagent_tui.ui.dialogs import ConfirmModal, ReviewModal
from vagent_tui.ui.screens.base import BaseScreen
from vagent_tui.ui.widgets.entry_forms import FormErrors, FormModal, Send, build, text_input
from vagent_tui.ui.widgets.form import FormField
from vagent_tui.ui.writes import Confirm, Write, Written

MAX_MINUTES = 60 * 24 * 365
ATTRIBUTES = {"scheduledFor": "scheduled_for"}
"""A wire name of the update whose `OutboundTask` attribute is not the same word."""


def edit_refusal(task: OutboundTask) -> str | None:
    """Why ``task`` cannot be edited (None: it can): only a pending task changes."""
    if task.pending:
        return None
    state = fmt.plain(task.state_text) or "state unknown"
    return f"Task {task.key} is {state}: only a pending task can be edited"


def cancel_refusal(task: OutboundTask) -> str | None:
    """Why ``task`` cannot be canceled (None: it can): a pending or running one can."""
    if task.pending or task.active:
        return None
    state = fmt.plain(task.state_text) or "state unknown"
    if state.lower() in ("canceled", "cancelled"):
        return f"Task {task.key} is canceled already"
    return f"Task {task.key} is {state}: only a pending or running task can be canceled"


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _moment(seconds: int | None) -> str:
    if seconds is None:
        return "as soon as it can"
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%d %H:%M UTC")


def update_diff(task: OutboundTask, update: TaskUpdate) -> list[FieldDiff]:
    """What ``update`` changes on ``task``, field by field (long text line by line)."""
    diffs = []
    for name, new in update.wire().items():
        if name == "scheduledFor":
            at = task.scheduled_for if isinstance(task.scheduled_for, int) else None
            diffs.append(FieldDiff(name, "changed", _moment(at), _moment(new)))
            continue
        old = _text(getattr(task, name, None))
        lines = text_lines(old, new) if is_long(old) or is_long(new) else ()
        kind: Kind = "added" if not old else "removed" if not new else "changed"
        diffs.append(FieldDiff(name, kind, old, new, lines=lines))
    return diffs


class TaskEditForm(FormModal):
    """A pending task's start, greeting or message, and context; only what changed is
    sent, after a review of the change."""

    CONFIRM = "Review"

    def __init__(
        self, task: OutboundTask, send: Send, *, now: Callable[[], float],
        **kwargs: Any,
    ) -> None:  # fmt: skip
        super().__init__(send, **kwargs)
        self.record = task
        self.now = now
        self.is_text = str(task.type).lower() in ("text", "sms")

    @property
    def title_text(self) -> Any:
        from rich.text import Text

        task = self.record
        return Text(f"Edit task {fmt.plain(task.key)} "
                    f"({fmt.plain(task.type)} to {fmt.plain(task.target)})")  # fmt: skip

    def make_fields(self) -> Iterable[Widget]:
        scheduled = (
            self.record.scheduled_for if isinstance(self.record.scheduled_for, int) else None
        )
        yield FormField("Start in", text_input("start_in", "minutes from now"),
                        name="scheduled_for",
                        hint=f"empty: keep {_moment(scheduled)}")  # fmt: skip
        if self.is_text:
            yield FormField("Message", text_input("content", "", _text(self.record.content)),
                            name="content", hint="the text sent")  # fmt: skip
        else:
            yield FormField("Greeting", text_input("greeting", "", _text(self.record.greeting)),
                            name="greeting", hint="what the agent says first")  # fmt: skip
        yield FormField("Context", text_input("context", "", _text(self.record.context)),
                        name="context", hint="about the person called")  # fmt: skip

    def build_request(self) -> TaskUpdate:
        values: dict[str, Any] = {}
        minutes = self.value("scheduled_for").strip()
        if minutes:
            if not minutes.isdecimal() or int(minutes) > MAX_MINUTES:
                raise FormErrors({"scheduled_for": f"whole minutes from now (0 to {MAX_MINUTES})"})
            values["scheduled_for"] = int(self.now()) + int(minutes) * 60
        for name in ("content",) if self.is_text else ("greeting",):
            if self.value(name) != _text(getattr(self.record, name, None)):
                values[name] = self.value(name)
        if self.value("context") != _text(self.record.context):
            values["context"] = self.value("context")
        if not values:
            raise FormErrors({"": "Nothing changed: nothing to send"})
        return build(TaskUpdate, values)

    def confirm_for(self, request: Request) -> Confirm:
        from vagent_tui.ui.diff_text import diff_text

        assert isinstance(request, TaskUpdate)
        note = ("Sent once; only the fields below. A new start is planned as a new task's "
                "would be: a start outside the business hours is refused.")  # fmt: skip
        diff = diff_text(update_diff(self.record, request))
        title = f"Change task {fmt.plain(self.record.key)}"
        return ReviewModal(title, note, diff, confirm_label="Send")


class TasksEditing(BaseScreen):
    """``e`` and ``c`` on a screen that lists tasks (`task_in_view`, `after_task_change`)."""

    def task_in_view(self) -> OutboundTask | None:
        """The highlighted task (None: none)."""
        raise NotImplementedError

    def after_task_change(self, written: Written[Any] | None = None) -> None:
        """A change was sent (whatever its outcome): show the tasks as they are now."""
        raise NotImplementedError

    def action_edit(self) -> None:
        task = self.task_in_view()
        if task is None:
            self.status.info("No task highlighted: nothing to edit")
            return
        refusal = edit_refusal(task)
        if refusal:
            self.status.info(refusal)
            return
        task_id = task.key

        async def send(c: Connection, update: TaskUpdate) -> OutboundTask:
            return await c.api.update_task(task_id, update, target=c.target_id)

        async def read_back(c: Connection, update: TaskUpdate) -> str:
            now = await c.api.get_task(task_id, target=c.target_id)
            held = [f"{k}: {fmt.plain(getattr(now, ATTRIBUTES.get(k, k), None))}"
                    for k in update.wire()]  # fmt: skip
            return f"Task {task_id} holds now: " + "; ".join(held)

        def done(result: tuple[TaskUpdate, OutboundTask] | None) -> None:
            if result is None:
                return
            update, now = result
            self.status.ok(f"Task {task_id} changed ({', '.join(update.wire())}): "
                           f"{now.state_text or 'state unknown'}")  # fmt: skip
            self.after_task_change()

        form = TaskEditForm(task, send, now=lambda: fmt.now().timestamp(), read_back=read_back,
                            after_unknown=self.after_task_change)  # fmt: skip
        self.app.push_screen(form, done)

    def action_cancel_task(self) -> None:
        task = self.task_in_view()
        if task is None:
            self.status.info("No task highlighted: nothing to cancel")
            return
        refusal = cancel_refusal(task)
        if refusal:
            self.status.info(refusal)
            return
        task_id = task.key
        what = f"task {task_id} ({fmt.plain(task.type)} to {fmt.plain(task.target)})"
        if task.active:
            body = f"Cancel {what}?\nIt is under way: its work stops (a call is ended)."
        else:
            body = f"Cancel {what}?\nIt will not be placed."
        body += " A canceled task stays listed, canceled; it cannot be started again."

        async def read_back(c: Connection) -> str:
            now = await c.api.get_task(task_id, target=c.target_id)
            return f"Task {task_id} is {now.state_text or 'in a state not said'}."

        self.write(
            Write[OutboundTask](
                "tasks-cancel", f"Canceling task {task_id}",
                lambda c: c.api.update_task(task_id, TaskUpdate(state="canceled"),
                                            target=c.target_id),
                confirm=ConfirmModal("Cancel a task", body, confirm_label="Yes, cancel it"),
                done=lambda now: f"Task {task_id} {now.state_text or 'canceled'}",
                read_back=read_back, retry_key="c", after=self.after_task_change,
            )
        )  # fmt: skip
