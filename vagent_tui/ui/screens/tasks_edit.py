"""The Tasks screen's task edits (``POST /tasks/{taskId}``): ``e`` changes a pending
task's start, its greeting (a call) or message (a text) and its context, reviewed as a
diff before it is sent; ``c`` cancels a pending or running task (the ``canceled``
state), asked first.

Which states may be changed is the simulator's rule (sim/CONTRACT.md, choices 65 and
112): only a pending task is edited; a pending or running one is canceled; the console
says so before anything is sent, and the platform's refusal is shown if it differs.
"""

from __future__ import annotations

from typing import Any

from vagent_tui.api.models import OutboundTask
from vagent_tui.api.task_models import TaskUpdate
from vagent_tui.services.session import Connection
from vagent_tui.ui import format as fmt
from vagent_tui.ui.dialogs import ConfirmModal
from vagent_tui.ui.screens.base import BaseScreen
from vagent_tui.ui.widgets.task_edit_form import TaskEditForm
from vagent_tui.ui.writes import Write, Written

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
