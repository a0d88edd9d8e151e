"""The task limits (``GET|POST /tasks/limits``): seen whole, and edited through the
usual form.

`LimitsModal` shows every field as the platform sent it; on a profile that may write,
its Edit button (or ``L``, as on the screen) hands over to the Tasks screen's ``L``.
`TaskLimitsForm` starts from the limits read, checks each field where it is typed,
sends only the groups that changed (each whole: `TaskLimitsUpdate`), after a review of
each value as it is and as it will be. The daily caps and the concurrency are a
super-admin's to change (the reference): for any other key they are shown and cannot be
typed in.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar

from pydantic import ValidationError
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Button, Input, Static, TextArea

from vagent_tui.api.models import Request, TaskLimitsUpdate
from vagent_tui.ui.built import ClosesItself
from vagent_tui.ui.css import stylesheet
from vagent_tui.ui.dialogs import MODAL_CSS, ReviewModal
from vagent_tui.ui.text import inert, safe
from vagent_tui.ui.widgets.entry_forms import FormErrors, FormModal, Send, shown
from vagent_tui.ui.widgets.form import FormField, errors_by_field
from vagent_tui.ui.writes import Confirm

FIELDS: dict[str, tuple[str, str, str]] = {
    # name: (group in the body, its key there, label)
    "timezone": ("businessHours", "timezone", "Time zone"),
    "days": ("businessHours", "days", "Days"),
    "start": ("businessHours", "start", "Opens"),
    "end": ("businessHours", "end", "Closes"),
    "cooldown_calls": ("cooldowns", "calls", "Call cooldown"),
    "cooldown_texts": ("cooldowns", "texts", "Text cooldown"),
    "daily_calls": ("daily", "calls", "Calls a day"),
    "daily_texts": ("daily", "texts", "Texts a day"),
    "daily_tasks": ("daily", "tasks", "Tasks a day"),
    "concurrency_per_run": ("concurrencyPerRun", "", "At once"),
}
"""The form's fields, in order, and where each is in the limits."""
SUPER_ADMIN_FIELDS = ("daily_calls", "daily_texts", "daily_tasks", "concurrency_per_run")
WHOLE = {
    "cooldown_calls": "seconds", "cooldown_texts": "seconds", "daily_calls": "calls",
    "daily_texts": "texts", "daily_tasks": "tasks", "concurrency_per_run": "tasks",
}  # fmt: skip
WHOLE_DIGITS = 12
"""Longer is refused at the field (past every limit the platform takes, and a pasted
thousands of digits would make ``int`` refuse the text)."""


def current_value(limits: dict[str, Any], name: str) -> Any:
    """The value of field ``name`` in ``limits`` as sent (None when absent)."""
    group, key, _ = FIELDS[name]
    value = limits.get(group)
    if not key:
        return value
    return value.get(key) if isinstance(value, dict) else None


def as_text(value: Any) -> str:
    """A limit as the form shows it: days as ``1,2,3``, numbers whole, nothing as ""."""
    if value is None:
        return ""
    if isinstance(value, list):
        return ",".join(str(v) for v in value)
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def parse_days(text: str) -> list[int]:
    """``1-5``, ``1,3,5`` or ``1 2 6-7`` as the list of days (ValueError when not)."""
    days: list[int] = []
    for part in text.replace(",", " ").split():
        low, dash, high = part.partition("-")
        numbers = (low, high) if dash else (low,)
        if not all(n.isascii() and n.isdecimal() and len(n) <= 2 for n in numbers):
            raise ValueError("days 1 (Mon) to 7 (Sun): 1-5, 1,3,5")
        first, last = int(low), int(high) if dash else int(low)
        if not (0 <= first <= 7 and 0 <= last <= 7):  # checked before a range is built
            raise ValueError(f"{part}: days 1 (Mon) to 7 (Sun)")
        if first > last:
            raise ValueError(f"{part}: the first day comes first")
        days += range(first, last + 1)
    return days


def limit_lines(value: Any, prefix: str = "") -> list[str]:
    """``name: value`` lines of a limits object, nested names dotted."""
    if not isinstance(value, dict):
        return [f"{prefix}: {as_text(value)}"] if prefix else []
    lines: list[str] = []
    for key, item in value.items():
        name = f"{prefix}.{key}" if prefix else str(key)
        if isinstance(item, dict):
            lines += limit_lines(item, name)
        else:
            lines.append(f"{name}: {as_text(item)}")
    return lines


class LimitsModal(ClosesItself[bool], ModalScreen[bool]):
    """The limits as sent; dismisses True when the user asks to edit them."""

    SCOPED_CSS: ClassVar[bool] = False
    DEFAULT_CSS = MODAL_CSS
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close", id="modal.close", tooltip="Close"),
        Binding(
            "L",
            "edit_limits",
            "Edit",
            id="limits.edit",
            tooltip="Edit the limits (the Tasks screen's L: a form, then a review)",
        ),
    ]

    def __init__(self, title: str, text: str, *, note: str, editable: bool) -> None:
        super().__init__(classes="modal")
        self.title_text = title
        self.text = text
        self.note = note
        self.editable = editable

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.editable if action == "edit_limits" else True

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(safe(self.title_text), classes="modal-title")
            yield Static(safe(self.note, multiline=True))
            yield TextArea(inert(self.text, multiline=True), read_only=True, id="text-modal-area")
            with Horizontal(classes="modal-buttons"):
                yield Button("Close", id="close", variant="primary")
                if self.editable:
                    yield Button("Edit (L)", id="edit")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id == "edit")

    def action_edit_limits(self) -> None:
        self.dismiss(True)

    def action_close(self) -> None:
        self.dismiss(False)


def _input(name: str, value: str, placeholder: str, *, disabled: bool = False) -> Input:
    field = Input(value=value, placeholder=placeholder, id=f"form-{name.replace('_', '-')}",
                  compact=True, disabled=disabled)  # fmt: skip
    field.cursor_blink = False
    return field


class TaskLimitsForm(FormModal):
    """The limits of the selected account, edited; dismisses with ``(update, reply)``."""

    DEFAULT_CSS = stylesheet(__file__)
    CONFIRM = "Review"

    def __init__(self, limits: dict[str, Any], send: Send, *, super_admin: bool, who: str,
                 **kwargs: Any) -> None:  # fmt: skip
        super().__init__(send, **kwargs)
        self.limits = limits
        self.super_admin = super_admin
        self.who = who
        self.initial = {name: as_text(current_value(limits, name)) for name in FIELDS}

    @property
    def title_text(self) -> Text:
        return safe(f"Task limits of {self.who}")

    def _field(self, name: str, placeholder: str) -> FormField:
        locked = name in SUPER_ADMIN_FIELDS and not self.super_admin
        widget = _input(name, shown(self.initial[name]), placeholder, disabled=locked)
        return FormField(FIELDS[name][2], widget, name=name)

    def make_fields(self) -> Iterable[Widget]:
        yield Static(
            "Business hours: days 1 (Mon) … 7 (Sun), HH:MM", classes="limits-group", markup=False
        )
        yield Horizontal(
            self._field("timezone", "America/Chicago"),
            self._field("days", "1-5"),
            self._field("start", "09:00"),
            self._field("end", "17:00"),
            classes="limits-row",
        )
        yield Static(
            "Cooldowns: seconds between tasks to one number", classes="limits-group", markup=False
        )
        yield Horizontal(
            self._field("cooldown_calls", "86400"),
            self._field("cooldown_texts", "300"),
            classes="limits-row",
        )
        heading = "Daily caps; tasks running at once"
        if not self.super_admin:
            heading += " (a super-admin's)"
        yield Static(heading, classes="limits-group", markup=False)
        yield Horizontal(
            self._field("daily_calls", "100"),
            self._field("daily_texts", "200"),
            self._field("daily_tasks", "300"),
            self._field("concurrency_per_run", "10"),
            classes="limits-row",
        )

    def changed(self) -> dict[str, str]:
        """The fields typed differently from the limits read (trimmed)."""
        return {name: typed for name in FIELDS
                if (typed := self.value(name).strip()) != self.initial[name].strip()}  # fmt: skip

    def build_request(self) -> TaskLimitsUpdate:
        changed = self.changed()
        if not changed:
            raise FormErrors({"": "Nothing changed: nothing to send"})
        groups = {FIELDS[name][0] for name in changed}
        values: dict[str, Any] = {}
        errors: dict[str, str] = {}
        for name, (group, _, _) in FIELDS.items():
            if group not in groups:
                continue
            if name in SUPER_ADMIN_FIELDS and not self.super_admin:
                errors[name] = "a super-admin's to change"
                continue
            text = self.value(name).strip()
            if not text:
                if group == "businessHours" or self.initial[name]:
                    errors[name] = "required"
                continue  # absent before, left absent
            if name == "days":
                try:
                    values[name] = parse_days(text)
                except ValueError as exc:
                    errors[name] = str(exc)
            elif name in WHOLE:
                if text.isascii() and text.isdecimal() and len(text) <= WHOLE_DIGITS:
                    values[name] = int(text)
                else:
                    errors[name] = f"a whole number of {WHOLE[name]}"
            else:
                values[name] = text
        try:
            request = TaskLimitsUpdate(**values)
        except ValidationError as exc:
            found = errors_by_field(exc)
            if errors:  # a field left out said so already: not the whole's "need all"
                found.pop("", None)
            errors = found | errors
        else:
            if not errors:
                return request
        raise FormErrors(errors)

    def confirm_for(self, request: Request) -> Confirm:
        assert isinstance(request, TaskLimitsUpdate)
        return ReviewModal(
            f"Change the task limits of {self.who}",
            "Tasks queued from now on wait for these hours, cooldowns and caps; the "
            "platform may keep what is already queued as it was planned.",
            limits_diff(self.initial, request),
            confirm_label="Save",
        )


def limits_diff(initial: dict[str, str], request: TaskLimitsUpdate) -> Text:
    """Each field sent, as it is and as it will be (unchanged ones of a group dimmed)."""
    text = Text()
    for name, (group, _, label) in FIELDS.items():
        if group not in request.groups:
            continue
        after = as_text(getattr(request, name))
        before = initial[name]
        if not after and not before:
            continue
        text.append(inert(f"{label}: "), style="bold")
        if after == before:
            text.append(inert(after or "(none)") + " (as it is)\n", style="dim")
            continue
        text.append(inert(before or "(none)"), style="strike dim")
        text.append(" → ")
        text.append(inert(after) + "\n")
    return text
