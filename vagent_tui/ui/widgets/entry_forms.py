"""The dialog form (`FormModal`), and the add forms of the SIP whitelist, webhooks, tasks
and tokens screens and the relay form.

The members' forms are in `member_forms`, the account tree's in `account_forms`.

A `FormModal` validates with the request model before anything is sent (errors under
their fields, focus on the first invalid one), then sends through the ``send`` coroutine
the screen gives it. A failed request keeps the dialog open with every field as typed
and the server's message; only a success closes it. ESC only cancels.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar, cast

from pydantic import ValidationError
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Button, Input, Label, Select, Static, TextArea

from vagent_tui.api.models import (
    WEBHOOK_TYPES,
    Request,
    SipEntryRequest,
    TaskRequest,
    TokenRequest,
    WebhookRequest,
)
from vagent_tui.ui.built import ClosesItself
from vagent_tui.ui.css import stylesheet
from vagent_tui.ui.dialogs import MODAL_CSS, ConfirmModal
from vagent_tui.ui.safety import WRITES, Key
from vagent_tui.ui.text import inert, safe
from vagent_tui.ui.widgets.form import FormField, errors_by_field, first_invalid, show_errors
from vagent_tui.ui.widgets.status import StatusReport, describe_error
from vagent_tui.ui.writes import Confirm, Write, perform

if TYPE_CHECKING:
    from vagent_tui.services.session import Connection
    from vagent_tui.ui.host import Console

Send = Callable[["Connection", Any], Awaitable[Any]]
"""Sends a validated request through the connection the form was opened for; returns
the reply (a server's message, a record) or raises PlatformError."""

FormReadBack = Callable[["Connection", Any], Awaitable[str]]
"""After a send of unknown outcome: what the platform holds of that request, a sentence."""


def text_input(name: str, placeholder: str, value: str = "") -> Input:
    """A form's one-line field ``form-<name>``, without a blinking cursor."""
    field = Input(
        value=value, placeholder=placeholder, id=f"form-{name.replace('_', '-')}", compact=True
    )
    field.cursor_blink = False
    return field


class FormModal(ClosesItself[tuple[Any, Any] | None], ModalScreen[tuple[Any, Any] | None]):
    """A dialog form; dismisses with ``(request, reply)`` after a success."""

    SCOPED_CSS: ClassVar[bool] = False  # MODAL_CSS styles the screen itself (.modal)
    DEFAULT_CSS = MODAL_CSS + stylesheet(__file__)
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="form.cancel", tooltip="Close without sending"),
        # The convention's "save" (vagent_tui.ui.convention): what the form's button does.
        Key("ctrl+s,ctrl+o", "save", "Send", id="form.save", does=WRITES, tooltip="Check and send"),
    ]
    TITLE_TEXT = ""
    CONFIRM = "Add"

    def __init__(
        self,
        send: Send,
        *,
        subtitle: str = "",
        after_unknown: Callable[[], object] | None = None,
        read_back: FormReadBack | None = None,
    ) -> None:
        super().__init__(classes="modal")
        self.send = send
        self.subtitle = subtitle
        self.after_unknown = after_unknown
        """Called when a send's outcome is unknown: the screen reloads what it shows."""
        self.read_back = read_back
        self.sending = False
        self.start: Connection
        """The connection in force when the form opened: what it sends through."""

    # ------------------------------------------------------------------ subclass hooks

    def make_fields(self) -> Iterable[Widget]:
        """The form's fields (`FormField`), or containers of them (a row of fields)."""
        return ()

    def build_request(self) -> Request:
        raise NotImplementedError

    def confirm_for(self, request: Request) -> Confirm:
        """The question before ``request`` is sent (an edit's diff); None: the form's
        own button was the question. A "no" keeps the form open, nothing sent."""
        return None

    # ------------------------------------------------------------------ layout

    @property
    def title_text(self) -> Text:
        return Text(self.TITLE_TEXT)

    def compose(self) -> ComposeResult:
        self.start = cast("Console", self.app).connection
        with Vertical():
            yield Static(self.title_text, classes="modal-title", markup=False)
            if self.subtitle:
                yield Static(safe(self.subtitle, style="dim", multiline=True))
            yield from self.make_fields()
            yield Label("", id="form-error", classes="-hidden", markup=False)
            with Horizontal(classes="modal-buttons"):
                yield Button("Cancel", id="form-cancel")
                yield Button(self.CONFIRM, id="form-submit", variant="primary")

    def on_mount(self) -> None:
        self.fields[0].widget.focus()

    @property
    def fields(self) -> list[FormField]:
        return list(self.query(FormField).results(FormField))

    def value(self, name: str) -> str:
        widget = self.query_one(f"#field-{name.replace('_', '-')}", FormField).widget
        if isinstance(widget, Select):
            return "" if widget.value is Select.NULL else str(widget.value)
        if isinstance(widget, TextArea):
            return widget.text
        assert isinstance(widget, Input)
        return widget.value

    def set_form_error(self, message: str) -> None:
        label = self.query_one("#form-error", Label)
        label.update(safe(message))
        label.set_class(not message, "-hidden")

    # ------------------------------------------------------------------ submitting

    def submit(self) -> None:
        """Validate; on success send, else show each error at its field."""
        if self.sending:
            return
        try:
            request = self.build_request()
        except FormErrors as exc:
            rest = show_errors(self.fields, exc.errors)
            self.set_form_error("\n".join(rest))
            invalid = first_invalid(self.fields)
            if invalid is not None:
                invalid.widget.focus()
            return
        show_errors(self.fields, {})
        self.set_form_error("")
        self.send_request(request)

    @work(group="write-form-send", exit_on_error=False)
    async def send_request(self, request: Request) -> None:
        """Send through the write path (`vagent_tui.ui.writes`): once, to the account
        the form was opened for; an unknown outcome is read back, never resent."""
        button = self.query_one("#form-submit", Button)
        self.sending = True
        button.disabled = True
        button.label = "Sending…"
        read_back = self.read_back
        try:
            written = await perform(
                Write(
                    "form-send", "Sending", lambda c: self.send(c, request),
                    confirm=self.confirm_for(request),
                    read_back=(lambda c: read_back(c, request)) if read_back else None,
                ),
                app=self.app, start=self.start,
                still=lambda: self.start.same_context(cast("Console", self.app).connection),
                say=self._say,
            )  # fmt: skip
        finally:
            self.sending = False
            button.disabled = False
            button.label = self.CONFIRM
        if written.outcome == "done":
            self.dismiss((request, written.result))
        elif written.outcome == "unknown" and self.after_unknown is not None:
            self.after_unknown()

    def _say(self, report: StatusReport) -> None:
        """The write path's word: a failure (or nothing sent) under the fields."""
        if report.kind == "error":
            self.set_form_error(f"✗ {describe_error(report.what)}")
        elif report.kind == "info":
            self.set_form_error(describe_error(report.what))

    @on(Input.Submitted)
    def _input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.submit()

    @on(Button.Pressed)
    def _button(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "form-submit":
            self.submit()
        else:
            self.action_cancel()

    def action_save(self) -> None:
        self.submit()

    def action_cancel(self) -> None:
        self.workers.cancel_group(self, "form-send")
        self.dismiss(None)


R = TypeVar("R", bound=Request)


class FormErrors(Exception):
    """Validation failed: ``{field name: message}``."""

    def __init__(self, errors: dict[str, str]) -> None:
        super().__init__("invalid form")
        self.errors = errors


def build(model: type[R], values: dict[str, str], *required: str) -> R:
    """The request model built from the fields, or `FormErrors`.

    A blank required field reads ``required`` rather than the model's parse error.
    """
    try:
        return model(**values)
    except ValidationError as exc:
        errors = errors_by_field(exc)
    for name in required:
        if not values.get(name, "").strip():
            errors[name] = "required"
    raise FormErrors(errors)


class SipEntryForm(FormModal):
    """IP (IPv4 or IPv6) and a label."""

    TITLE_TEXT = "Add an address to the SIP whitelist"

    def make_fields(self) -> Iterable[FormField]:
        yield FormField(
            "IP address",
            text_input("ip", "203.0.113.10 or 2001:db8::1"),
            name="ip",
            hint="IPv4/IPv6",
        )
        yield FormField("Label", text_input("label", "Office PBX"), name="label", hint="optional")

    def build_request(self) -> SipEntryRequest:
        values = {"ip": self.value("ip"), "label": self.value("label")}
        return build(SipEntryRequest, values, "ip")


class WebhookForm(FormModal):
    """URL (http or https), one of the five documented types, and a label."""

    TITLE_TEXT = "Add a webhook destination"

    def make_fields(self) -> Iterable[FormField]:
        yield FormField(
            "URL", text_input("url", "https://hooks.example.com/vida"), name="url", hint="http(s)"
        )
        types: Select[str] = Select(
            [(t, t) for t in WEBHOOK_TYPES], prompt="Choose a type", id="form-type", compact=True
        )
        yield FormField("Type", types, name="type", hint="which events are sent")
        yield FormField(
            "Label", text_input("label", "CRM conversations"), name="label", hint="optional"
        )

    def build_request(self) -> WebhookRequest:
        values = {
            "url": self.value("url"),
            "type": self.value("type"),
            "label": self.value("label"),
        }
        return build(WebhookRequest, values, "url", "type")


class TaskForm(FormModal):
    """A call or text task: the number (E.164), the text of a text, context, when."""

    TITLE_TEXT = "Queue an outbound call or text"
    CONFIRM = "Queue"

    def __init__(self, send: Send, *, who: str, now: Callable[[], float], **kwargs: Any) -> None:
        super().__init__(send, **kwargs)
        self.who = who
        self.now = now

    def make_fields(self) -> Iterable[FormField]:
        kinds: Select[str] = Select(
            [("call", "call"), ("text", "text")], value="call", allow_blank=False,
            id="form-type", compact=True,
        )  # fmt: skip
        yield FormField("Type", kinds, name="type", hint="a call or a text")
        yield FormField("Number", text_input("target", "+15551234567"), name="target", hint="E.164")
        yield FormField("Message", text_input("content", "Your appointment is tomorrow at 10"),
                        name="content", hint="texts only")  # fmt: skip
        yield FormField("Context", text_input("context", "Follow-up on the demo request"),
                        name="context", hint="optional")  # fmt: skip
        yield FormField("Start in", text_input("start_in", "0"), name="start_in",
                        hint="minutes; empty: now")  # fmt: skip

    def build_request(self) -> TaskRequest:
        values: dict[str, Any] = {
            "type": self.value("type") or "call",
            "target": self.value("target"),
            "context": self.value("context"),
        }
        if values["type"] == "text":
            values["content"] = self.value("content")
        errors: dict[str, str] = {}
        minutes = self.value("start_in").strip()
        if minutes:
            if not minutes.isdecimal() or int(minutes) > 60 * 24 * 365:
                errors["start_in"] = "whole minutes from now (0 to 525600)"
            elif int(minutes):
                values["scheduled_for"] = int(self.now()) + int(minutes) * 60
        try:
            request = build(TaskRequest, values, "target")
        except FormErrors as exc:
            raise FormErrors({**exc.errors, **errors}) from None
        if errors:
            raise FormErrors(errors)
        return request

    def confirm_for(self, request: Request) -> Confirm:
        assert isinstance(request, TaskRequest)
        if request.type == "text":
            title, what = "Send a real text", f"sends a real text message to {request.target}"
        else:
            title, what = "Place a real call", f"places a real phone call to {request.target}"
        if request.scheduled_for:
            when = ("at its scheduled time (the platform refuses a time outside its "
                    "organization's business hours)")  # fmt: skip
        else:
            when = "as soon as it can (within its organization's business hours and limits)"
        body = f"This {what} from {self.who}, {when}.\nSomeone's phone will ring. Go ahead?"
        return ConfirmModal(title, body, confirm_label="Place call" if request.type == "call"
                            else "Send text")  # fmt: skip


TOKEN_TYPES = ("admin",)
"""The only token type the API documents."""


class TokenForm(FormModal):
    """A new token: a description (optional) and its type."""

    TITLE_TEXT = "Create a token"
    CONFIRM = "Create"

    def make_fields(self) -> Iterable[FormField]:
        yield FormField(
            "Description", text_input("description", "what is it for?"), name="description",
            hint="optional",
        )  # fmt: skip
        types: Select[str] = Select(
            [(t, t) for t in TOKEN_TYPES], value="admin", allow_blank=False, id="form-type",
            compact=True,
        )  # fmt: skip
        yield FormField("Type", types, name="type", hint="admin is the only documented type")

    def build_request(self) -> TokenRequest:
        values = {"type": self.value("type"), "description": self.value("description")}
        return build(TokenRequest, values, "type")


def shown(value: object, *, multiline: bool = False) -> str:
    """Outside text for a field: inert and never cut (the field would send the cut)."""
    text = "" if value is None else str(value)
    return inert(text, multiline=multiline, limit=max(len(text), 1))
