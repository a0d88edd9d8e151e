"""Add forms of the SIP whitelist, webhooks, tokens and members screens, and the relay and
member forms, as dialogs.

A `FormModal` validates with the request model before anything is sent (errors under
their fields, focus on the first invalid one), then sends through the ``send`` coroutine
the screen gives it. A failed request keeps the dialog open with every field as typed
and the server's message; only a success closes it. ESC only cancels.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Iterable
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar, cast

from pydantic import ValidationError
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Button, Input, Label, Select, Static, TextArea

from vagent_tui.api.models import (
    MEMBER_ROLES,
    WEBHOOK_TYPES,
    Account,
    AccountUpdate,
    Member,
    MemberInvite,
    MemberUpdate,
    NewAgentAccount,
    NewOrganization,
    NewReseller,
    OneTimeLoginRequest,
    OrganizationUpdate,
    RelayConfig,
    RelayRequest,
    Request,
    SipEntryRequest,
    TaskRequest,
    TokenRequest,
    WebhookRequest,
    header_lines,
    parse_header_lines,
)
from vagent_tui.ui.built import ClosesItself
from vagent_tui.ui.css import stylesheet
from vagent_tui.ui.dialogs import MODAL_CSS, ConfirmModal, ReviewModal
from vagent_tui.ui.text import inert, safe
from vagent_tui.ui.widgets.form import FormField, errors_by_field, first_invalid, show_errors
from vagent_tui.ui.widgets.status import StatusReport, describe_error
from vagent_tui.ui.writes import Confirm, Write, perform

if TYPE_CHECKING:
    from vagent_tui.api.errors import PlatformError
    from vagent_tui.services.member_reach import Choices
    from vagent_tui.services.session import Connection
    from vagent_tui.ui.host import Console

Send = Callable[["Connection", Any], Awaitable[Any]]
"""Sends a validated request through the connection the form was opened for; returns
the reply (a server's message, a record) or raises PlatformError."""

FormReadBack = Callable[["Connection", Any], Awaitable[str]]
"""After a send of unknown outcome: what the platform holds of that request, a sentence."""


def _input(name: str, placeholder: str, value: str = "") -> Input:
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
            "IP address", _input("ip", "203.0.113.10 or 2001:db8::1"), name="ip", hint="IPv4/IPv6"
        )
        yield FormField("Label", _input("label", "Office PBX"), name="label", hint="optional")

    def build_request(self) -> SipEntryRequest:
        values = {"ip": self.value("ip"), "label": self.value("label")}
        return build(SipEntryRequest, values, "ip")


class WebhookForm(FormModal):
    """URL (http or https), one of the five documented types, and a label."""

    TITLE_TEXT = "Add a webhook destination"

    def make_fields(self) -> Iterable[FormField]:
        yield FormField(
            "URL", _input("url", "https://hooks.example.com/vida"), name="url", hint="http(s)"
        )
        types: Select[str] = Select(
            [(t, t) for t in WEBHOOK_TYPES], prompt="Choose a type", id="form-type", compact=True
        )
        yield FormField("Type", types, name="type", hint="which events are sent")
        yield FormField(
            "Label", _input("label", "CRM conversations"), name="label", hint="optional"
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
        yield FormField("Number", _input("target", "+15551234567"), name="target", hint="E.164")
        yield FormField("Message", _input("content", "Your appointment is tomorrow at 10"),
                        name="content", hint="texts only")  # fmt: skip
        yield FormField("Context", _input("context", "Follow-up on the demo request"),
                        name="context", hint="optional")  # fmt: skip
        yield FormField("Start in", _input("start_in", "0"), name="start_in",
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
        when = "at its scheduled time" if request.scheduled_for else "as soon as it can"
        body = (f"This {what} from {self.who}, {when} (within the account's business "
                "hours and daily limits).\nSomeone's phone will ring. Go ahead?")  # fmt: skip
        return ConfirmModal(title, body, confirm_label="Place call" if request.type == "call"
                            else "Send text")  # fmt: skip


def _roles(current: str = "admin") -> Select[str]:
    roles = list(MEMBER_ROLES) + ([current] if current not in MEMBER_ROLES else [])
    return Select([(safe(r), r) for r in roles], value=current, allow_blank=False,
                  id="form-role", compact=True)  # fmt: skip


ACCOUNTS_HINT = "Pick… or type ids; empty: every account"

PickLoader = Callable[["Connection"], Awaitable["Choices"]]
"""Reads the agent accounts a member may be limited to (`services.member_reach`)."""


class AccountsField(FormField):
    """The accounts a member is limited to: picked from the tree (``Pick…``), or typed."""

    class PickWanted(Message):
        """The ``Pick…`` button: the form opens the picker."""

    def compose(self) -> ComposeResult:
        yield Label(self.label_text, classes="field-label", markup=False)
        with Horizontal(classes="accounts-row"):
            yield self.widget
            yield Button("Pick…", id="form-pick-accounts", compact=True, disabled=True)
        yield Label("", classes="field-error", markup=False)

    @on(Button.Pressed, "#form-pick-accounts")
    def _pick(self, event: Button.Pressed) -> None:
        event.stop()
        self.post_message(self.PickWanted())


def _typed_ids(text: str) -> list[int]:
    """The ids in a field as typed (the rest is the model's to refuse)."""
    return [int(p) for p in re.split(r"[,\s]+", text) if p.isdecimal()]


class _MemberForm(FormModal):
    """What the invite and change forms share: the accounts, picked or typed and checked
    against the agent accounts below the member's home when those could be read."""

    def __init__(self, send: Send, *, pick: PickLoader | None = None, **kwargs: Any) -> None:
        super().__init__(send, **kwargs)
        self.pick = pick
        self.choices: Choices | None = None
        """The agent accounts offered (None: not read, or could not be)."""

    def accounts_field(self, value: str = "") -> AccountsField:
        return AccountsField(
            "Accounts", _input("permitted_account_ids", "1112, 1113", value),
            name="permitted_account_ids", hint=ACCOUNTS_HINT,
        )  # fmt: skip

    def on_mount(self) -> None:
        super().on_mount()
        if self.pick is not None:
            self._read_choices(self.pick)

    @work(group="form-choices", exclusive=True, exit_on_error=False)
    async def _read_choices(self, pick: PickLoader) -> None:
        from vagent_tui.ui.failures import guarded_read

        def failed(exc: PlatformError) -> None:
            self.set_form_error(
                f"The accounts could not be read ({describe_error(exc)}): type their ids"
            )

        ok, choices = await guarded_read(
            pick(self.start), still_wanted=lambda: self.is_attached, on_error=failed
        )
        if not ok or choices is None:
            return
        self.choices = choices
        self.query_one("#form-pick-accounts", Button).disabled = False

    def on_accounts_field_pick_wanted(self, message: AccountsField.PickWanted) -> None:
        from vagent_tui.ui.widgets.account_picker import AccountPickerModal

        message.stop()
        if self.choices is None:
            return
        field = self.query_one("#form-permitted-account-ids", Input)

        def picked(ids: list[int] | None) -> None:
            if ids is not None:
                field.value = ", ".join(map(str, ids))
                field.focus()

        self.app.push_screen(AccountPickerModal(self.choices, _typed_ids(field.value)), picked)

    def check_accounts(self, ids: list[int]) -> None:
        """Typed ids that are not agent accounts below the home: refused at the field."""
        choices = self.choices
        if choices is None or not choices.complete:
            return  # not known here: the platform checks them
        offered = {c.id for c in choices.accounts}
        wrong = [i for i in ids if i not in offered]
        if wrong:
            which = ", ".join(map(str, wrong))
            raise FormErrors({
                "permitted_account_ids": f"not an agent account of {choices.home_name}: {which}"
            })  # fmt: skip


class MemberInviteForm(_MemberForm):
    """An invitation: email, role, the accounts it is limited to, redirect, welcome email."""

    TITLE_TEXT = "Invite a member"
    CONFIRM = "Invite"

    def make_fields(self) -> Iterable[FormField]:
        yield FormField("Email", _input("email", "admin@customer.example"), name="email")
        yield FormField("Role", _roles(), name="role")
        yield self.accounts_field()
        yield FormField(
            "Redirect URL", _input("redirect_url", "https://customer.example/welcome"),
            name="redirect_url", hint="optional: where accepting the invitation leads",
        )  # fmt: skip
        welcome: Select[str] = Select(
            [("yes", "yes"), ("no", "no")], value="yes", allow_blank=False,
            id="form-send-welcome-email", compact=True,
        )  # fmt: skip
        yield FormField("Welcome email", welcome, name="send_welcome_email")

    def build_request(self) -> MemberInvite:
        values = {
            "email": self.value("email"),
            "role": self.value("role"),
            "permitted_account_ids": self.value("permitted_account_ids"),
            "redirect_url": self.value("redirect_url"),
            "send_welcome_email": self.value("send_welcome_email"),
        }
        request = build(MemberInvite, values, "email")
        self.check_accounts(request.permitted_account_ids)
        return request


class MemberEditForm(_MemberForm):
    """A member's email, role and accounts; clearing the accounts lifts the restriction."""

    TITLE_TEXT = "Change a member"
    CONFIRM = "Save"

    def __init__(self, member: Member, send: Send, **kwargs: Any) -> None:
        super().__init__(send, **kwargs)
        self.member = member

    def make_fields(self) -> Iterable[FormField]:
        member = self.member
        yield FormField("Email", _input("email", "", member.email), name="email")
        yield FormField("Role", _roles(member.role or "admin"), name="role")
        yield self.accounts_field(", ".join(str(i) for i in member.permitted_account_ids))

    def build_request(self) -> MemberUpdate:
        values = {
            "target_member_id": str(self.member.id),
            "email": self.value("email"),
            "role": self.value("role"),
            "permitted_account_ids": self.value("permitted_account_ids"),
        }
        request = build(MemberUpdate, values, "email")
        self.check_accounts(request.permitted_account_ids)
        return request


class OneTimeLoginForm(FormModal):
    """A one-time login token for an email: the email and, optional, the external id of
    the account whose organization an email that is no member is added to. The question
    before it is sent says what the platform will do (it may add a member)."""

    TITLE_TEXT = "One-time login token"
    CONFIRM = "Get a token"

    def __init__(
        self, send: Send, *, email: str, external_id: str, members: frozenset[str],
        organization: str, **kwargs: Any,
    ) -> None:  # fmt: skip
        super().__init__(send, **kwargs)
        self.email = email
        self.external_id = external_id
        self.members = members
        """The emails (lower case) of the organization's members, as listed."""
        self.organization = organization

    def make_fields(self) -> Iterable[FormField]:
        yield FormField("Email", _input("email", "admin@customer.example", self.email),
                        name="email")  # fmt: skip
        yield FormField(
            "External account id", _input("external_account_id", "AC_12345", self.external_id),
            name="external_account_id",
            hint="optional; then an email that is no member is ADDED",
        )  # fmt: skip

    def build_request(self) -> OneTimeLoginRequest:
        values = {"email": self.value("email"),
                  "external_account_id": self.value("external_account_id")}  # fmt: skip
        return build(OneTimeLoginRequest, values, "email")

    def confirm_for(self, request: Request) -> Confirm:
        assert isinstance(request, OneTimeLoginRequest)
        email, ext = request.email, request.external_account_id
        if email.lower() in self.members:
            effect = f"{email} is a member of {self.organization}: nobody is added."
        elif ext:
            effect = (
                f"{email} is not a member of {self.organization} as listed: the platform ADDS "
                f"{email} as a member of the organization whose external id is {ext}, "
                "and that stays after the token is used or lost."
            )
        else:
            effect = (
                f"{email} is not a member of {self.organization} as listed: without an "
                "external id the platform adds nobody (it may answer that it knows no "
                "such account)."
            )
        body = (
            f"Ask the platform for a single-use login token for {email}? Whoever holds the "
            f"token can sign in as {email} once, so it is shown once, here, and never "
            f"logged or journaled.\n{effect}\nA GET that changes the platform: it is sent "
            "once (never retried) and journaled with the email and external id."
        )
        return ConfirmModal("Issue a one-time login token", body, confirm_label="Issue")


TOKEN_TYPES = ("admin",)
"""The only token type the API documents."""


class TokenForm(FormModal):
    """A new token: a description (optional) and its type."""

    TITLE_TEXT = "Create a token"
    CONFIRM = "Create"

    def make_fields(self) -> Iterable[FormField]:
        yield FormField(
            "Description", _input("description", "what is it for?"), name="description",
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


class RelayForm(FormModal):
    """Configure one relay type: URL, timeout, headers (one ``Name: value`` a line), codes.

    Opened on a configured type it starts from the stored configuration and replaces it
    as a whole. The headers travel as the platform publishes them, an array of
    single-key objects (`RelayRequest`).
    """

    CONFIRM = "Save"

    def __init__(
        self,
        relay_type: str,
        config: RelayConfig | None,
        send: Send,
        *,
        subtitle: str = "",
        after_unknown: Callable[[], object] | None = None,
        read_back: FormReadBack | None = None,
    ) -> None:
        self.relay_type = relay_type
        self.config = config
        self.initial = {
            "url": config.url if config else "",
            "timeout": "" if config is None or config.timeout is None else str(config.timeout),
            "headers": header_lines(config.headers) if config else "",
            "success_status_codes": ", ".join(map(str, (config.success_status_codes or [])))
            if config
            else "",
        }
        if any(shown(v, multiline=k == "headers") != (v or "") for k, v in self.initial.items()):
            # Characters a terminal would obey are shown as pictures: saving sends those.
            subtitle += (
                "\nSome stored values hold characters that cannot be shown as they are: "
                "they are shown cleaned, and saving sends them as shown."
            )
        super().__init__(send, subtitle=subtitle, after_unknown=after_unknown, read_back=read_back)

    def on_mount(self) -> None:
        super().on_mount()
        # A header is usually added: the cursor waits after the last one.
        headers = self.query_one("#form-headers", TextArea)
        headers.move_cursor(headers.document.end)

    @property
    def title_text(self) -> Text:
        verb = "Edit" if self.config is not None else "Configure"
        title = Text(f"{verb} the relay of type ")
        title.append(safe(self.relay_type, "bold"))
        return title

    def make_fields(self) -> Iterable[FormField]:
        yield FormField(
            "URL",
            _input("url", "https://relay.example.com/in", shown(self.initial["url"])),
            name="url",
            hint="http(s), where the events are relayed",
        )
        yield FormField(
            "Timeout",
            _input("timeout", "5000", shown(self.initial["timeout"])),
            name="timeout",
            hint="milliseconds; blank: the platform's default",
        )
        headers = TextArea(
            shown(self.initial["headers"], multiline=True), id="form-headers", compact=True
        )
        headers.cursor_blink = False
        yield FormField("Headers", headers, name="headers", hint="one Name: value a line")
        yield FormField(
            "Success status codes",
            _input("success_status_codes", "200, 202", shown(self.initial["success_status_codes"])),
            name="success_status_codes",
            hint="blank: the platform's default",
        )

    def build_request(self) -> RelayRequest:
        errors: dict[str, str] = {}
        values: dict[str, object] = {"url": self.value("url")}
        timeout = self.value("timeout").strip()
        if timeout:
            if timeout.isascii() and timeout.isdecimal():
                values["timeout"] = int(timeout)
            else:
                errors["timeout"] = "a whole number of milliseconds"
        try:
            values["headers"] = parse_header_lines(self.value("headers"))
        except ValueError as exc:
            errors["headers"] = str(exc)
        codes = self.value("success_status_codes").replace(",", " ").split()
        if codes:
            if all(c.isascii() and c.isdecimal() for c in codes):
                values["success_status_codes"] = [int(c) for c in codes]
            else:
                errors["success_status_codes"] = "HTTP status codes, e.g. 200, 202"
        try:
            request = RelayRequest.model_validate(values)
        except ValidationError as exc:
            errors = errors_by_field(exc) | errors
        else:
            if not errors:
                return request
        if not self.value("url").strip():
            errors["url"] = "required"
        raise FormErrors(errors)


# ---------------------------------------------------------------- the tree (Scope)

LEVEL_BELOW = {"partner": "reseller", "reseller": "organization", "organization": "account"}
"""What the Scope screen creates under an account of each kind."""

LEVEL_NAMES = {"reseller": "reseller", "organization": "organization", "account": "agent account"}

EXTERNAL_HINT = "optional: your CRM's id for it (unique)"
BILLING_HINT = "optional: your billing system's id for it"


def _choice(name: str, options: Iterable[str], current: str) -> Select[str]:
    return Select([(o, o) for o in options], value=current, allow_blank=False,
                  id=f"form-{name.replace('_', '-')}", compact=True)  # fmt: skip


class NewAccountForm(FormModal):
    """A reseller under a partner, an organization under a reseller or an agent account
    under an organization: the fields of that level."""

    CONFIRM = "Create"

    def __init__(self, kind: str, send: Send, **kwargs: Any) -> None:
        super().__init__(send, **kwargs)
        self.kind = kind

    @property
    def title_text(self) -> Text:
        return Text(f"New {LEVEL_NAMES[self.kind]}")

    def make_fields(self) -> Iterable[FormField]:
        if self.kind == "reseller":
            yield FormField("Name", _input("reseller_name", "Orbit Voice"), name="reseller_name")
            yield FormField("Admin email", _input("email", "admin@reseller.example"),
                            name="email", hint="optional")  # fmt: skip
            status = _choice("reseller_status", ("enabled", "disabled"), "enabled")
            yield FormField("Status", status, name="reseller_status")
            return
        if self.kind == "organization":
            yield FormField("Name", _input("org_name", "Acme Solar"), name="org_name")
            yield FormField("Admin email", _input("email", "admin@customer.example"),
                            name="email", hint="optional")  # fmt: skip
            yield FormField("First agent", _input("account_name", "Acme Support"),
                            name="account_name",
                            hint="optional: creates its first agent account")  # fmt: skip
            kinds = _choice("org_account_type", ("customer", "internal"), "customer")
            yield FormField("Type", kinds, name="org_account_type",
                            hint="internal: billed through your usage")  # fmt: skip
        else:
            yield FormField("Name", _input("account_name", "Front desk"), name="account_name")
        yield FormField("External id", _input("external_account_id", "AC_12345"),
                        name="external_account_id", hint=EXTERNAL_HINT)  # fmt: skip
        yield FormField("Billing id", _input("external_billing_id", "billing-6789"),
                        name="external_billing_id", hint=BILLING_HINT)  # fmt: skip

    def build_request(self) -> Request:
        names = {
            "reseller": ("reseller_name", "email", "reseller_status"),
            "organization": ("org_name", "email", "account_name", "org_account_type",
                             "external_account_id", "external_billing_id"),
            "account": ("account_name", "external_account_id", "external_billing_id"),
        }[self.kind]  # fmt: skip
        values = {name: self.value(name) for name in names}
        if self.kind == "reseller":
            return build(NewReseller, values, names[0])
        if self.kind == "organization":
            return build(NewOrganization, values, names[0])
        return build(NewAgentAccount, values, names[0])


EDITED = {"name": "Name", "active": "Active", "external_account_id": "External id",
          "external_billing_id": "Billing id"}  # fmt: skip
"""The fields an edit changes, as the review names them."""


def edit_diff(account: Account, request: AccountUpdate | OrganizationUpdate) -> Text:
    """The review of an edit: each setting sent, as it is and as it will be."""
    sent = request.model_dump(exclude_unset=True)
    now = {"name": account.display_name, "active": account.active,
           "external_account_id": account.external_account_id,
           "external_billing_id": account.external_billing_id}  # fmt: skip
    text = Text()
    for key, value in sent.items():
        field = "name" if key in ("account_name", "org_name") else key
        before, after = now.get(field), value
        label = EDITED.get(field, field)
        text.append(inert(f"{label}: "), style="bold")
        text.append(inert(_shown(before)), style="strike dim")
        text.append(" → ")
        text.append(inert(_shown(after)) + "\n")
    return text


def _shown(value: object) -> str:
    if value is None or value == "":
        return "(none)"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


class AccountEditForm(FormModal):
    """An agent account's or an organization's name, status and external ids; only what
    changed is sent, after a review of the change (an empty id removes it)."""

    TITLE_TEXT = "Edit an account"
    CONFIRM = "Review"

    def __init__(self, account: Account, send: Send, **kwargs: Any) -> None:
        super().__init__(send, **kwargs)
        self.account = account
        self.organization = (account.account_type or "").lower() == "organization"

    @property
    def title_text(self) -> Text:
        what = "an organization" if self.organization else "an agent account"
        return Text(f"Edit {what}")

    def make_fields(self) -> Iterable[FormField]:
        acc = self.account
        yield FormField("Name", _input("name", "", acc.display_name), name="name")
        active = _choice("active", ("yes", "no"), "no" if acc.active is False else "yes")
        yield FormField("Active", active, name="active",
                        hint="no: calls and messages are not answered")  # fmt: skip
        yield FormField("External id", _input("external_account_id", "AC_12345",
                                              acc.external_account_id or ""),
                        name="external_account_id", hint="empty: removes it")  # fmt: skip
        yield FormField("Billing id", _input("external_billing_id", "billing-6789",
                                             acc.external_billing_id or ""),
                        name="external_billing_id", hint="empty: removes it")  # fmt: skip

    def build_request(self) -> AccountUpdate | OrganizationUpdate:
        acc = self.account
        values: dict[str, Any] = {}
        name = self.value("name").strip()
        if name != acc.display_name:
            values["org_name" if self.organization else "account_name"] = name
        active = self.value("active") == "yes"
        if active != (acc.active is not False):
            values["active"] = active
        for key in ("external_account_id", "external_billing_id"):
            typed = self.value(key).strip()
            if typed != (getattr(acc, key) or ""):
                values[key] = typed or None
        if not values:
            raise FormErrors({"": "Nothing changed: nothing to send"})
        model: type[AccountUpdate | OrganizationUpdate] = (
            OrganizationUpdate if self.organization else AccountUpdate
        )
        try:
            return model(**values)
        except ValidationError as exc:
            errors = errors_by_field(exc)
        raise FormErrors({("name" if k in ("account_name", "org_name") else k): v
                          for k, v in errors.items()})  # fmt: skip

    def confirm_for(self, request: Request) -> Confirm:
        assert isinstance(request, AccountUpdate | OrganizationUpdate)
        return ReviewModal(
            f"Change {self.account.display_name}",
            "The platform applies each setting on its own: some may fail while the others "
            "are saved; the status line says which.",
            edit_diff(self.account, request),
            confirm_label="Save",
        )
