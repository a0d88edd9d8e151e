"""The form of a pending task's edit (``POST /tasks/{taskId}``, the Tasks screen's ``e``):
its start, its greeting (a call) or message (a text) and its context; only what changed
is sent, after a review of the change (`update_diff`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from typing import Any

from rich.text import Text
from textual.widget import Widget
from textual.widgets import Select

from vagent_tui.api.models import OutboundTask, Request
from vagent_tui.api.task_models import TaskUpdate
from vagent_tui.services.diff import FieldDiff, Kind, is_long, text_lines
from vagent_tui.ui import format as fmt
from vagent_tui.ui.dialogs import ReviewModal
from vagent_tui.ui.widgets.entry_forms import FormErrors, FormModal, Send, build, text_input
from vagent_tui.ui.widgets.form import FormField
from vagent_tui.ui.writes import Confirm

MAX_MINUTES = 60 * 24 * 365


def text_of(value: Any) -> str:
    """A task's text field as text ("" when it holds none)."""
    return value if isinstance(value, str) else ""


def moment(seconds: int | None) -> str:
    """A start in words (None: not scheduled)."""
    if seconds is None:
        return "as soon as it can"
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%d %H:%M UTC")


GREET_CHOICES = [("as it is", "keep"), ("after the person speaks", "yes"),
                 ("at once", "no")]  # fmt: skip
"""A call's ``waitToGreet`` in the form: kept (not sent), true or false."""


def greets_now(task: OutboundTask) -> str:
    """A call's ``waitToGreet`` as the platform sent it, in words."""
    value = (task.model_extra or {}).get("waitToGreet")
    if isinstance(value, bool):
        return "after the person speaks" if value else "at once"
    return "not said"


def update_diff(task: OutboundTask, update: TaskUpdate) -> list[FieldDiff]:
    """What ``update`` changes on ``task``, field by field (long text line by line)."""
    diffs = []
    for name, new in update.wire().items():
        if name == "scheduledFor":
            at = task.scheduled_for if isinstance(task.scheduled_for, int) else None
            diffs.append(FieldDiff(name, "changed", moment(at), moment(new)))
            continue
        if name == "waitToGreet":
            diffs.append(FieldDiff(name, "changed", greets_now(task),
                                   "after the person speaks" if new else "at once"))  # fmt: skip
            continue
        old = text_of(getattr(task, name, None))
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
    def title_text(self) -> Text:
        task = self.record
        return Text(f"Edit task {fmt.plain(task.key)} "
                    f"({fmt.plain(task.type)} to {fmt.plain(task.target)})")  # fmt: skip

    def make_fields(self) -> Iterable[Widget]:
        scheduled = (
            self.record.scheduled_for if isinstance(self.record.scheduled_for, int) else None
        )
        yield FormField("Start in", text_input("start_in", "minutes from now"),
                        name="scheduled_for",
                        hint=f"empty: keep {moment(scheduled)}")  # fmt: skip
        if self.is_text:
            yield FormField("Message", text_input("content", "", text_of(self.record.content)),
                            name="content", hint="the text sent")  # fmt: skip
        else:
            yield FormField("Greeting", text_input("greeting", "", text_of(self.record.greeting)),
                            name="greeting", hint="what the agent says first")  # fmt: skip
            greet: Select[str] = Select(GREET_CHOICES, value="keep", allow_blank=False,
                                        id="form-wait-to-greet", compact=True)  # fmt: skip
            yield FormField("Greets", greet, name="wait_to_greet",
                            hint=f"now: {greets_now(self.record)}")  # fmt: skip
        yield FormField("Context", text_input("context", "", text_of(self.record.context)),
                        name="context", hint="about the person called")  # fmt: skip

    def build_request(self) -> TaskUpdate:
        values: dict[str, Any] = {}
        minutes = self.value("scheduled_for").strip()
        if minutes:
            if not minutes.isdecimal() or int(minutes) > MAX_MINUTES:
                raise FormErrors({"scheduled_for": f"whole minutes from now (0 to {MAX_MINUTES})"})
            values["scheduled_for"] = int(self.now()) + int(minutes) * 60
        for name in ("content",) if self.is_text else ("greeting",):
            if self.value(name) != text_of(getattr(self.record, name, None)):
                values[name] = self.value(name)
        if self.value("context") != text_of(self.record.context):
            values["context"] = self.value("context")
        if not self.is_text and self.value("wait_to_greet") in ("yes", "no"):
            values["wait_to_greet"] = self.value("wait_to_greet") == "yes"
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
