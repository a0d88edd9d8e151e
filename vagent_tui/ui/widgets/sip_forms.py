"""The SIP screen's forms: an outbound route, and the agent's registration.

The route is checked at its field before anything is sent (`sip_models.parse_route`).
The registration's address of record is asked about as it is typed (half a second after
the last key: ``POST /sip/registration/available``, a read), the answer under the field;
the platform still decides at the save. The password is typed masked, required on every
save (the platform never reads it back), handed to the crash reports' masking before it
is sent, and goes with the form: nothing of the console keeps it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, cast

from pydantic import ValidationError
from rich.text import Text
from textual import on, work
from textual.containers import Horizontal, Vertical
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Input, Select, Static

from vagent_tui import crash
from vagent_tui.api.errors import ApiError, PlatformError
from vagent_tui.api.sip_models import (
    REGISTRATION_TRANSPORTS,
    AorQuery,
    SipRegistration,
    SipRegistrationRequest,
    SipRouteRequest,
)
from vagent_tui.ui.colours import FAILED, OK
from vagent_tui.ui.css import stylesheet
from vagent_tui.ui.text import safe
from vagent_tui.ui.widgets.entry_forms import (
    FormErrors,
    FormModal,
    FormReadBack,
    Send,
    build,
    shown,
    text_input,
)
from vagent_tui.ui.widgets.form import FormField, errors_by_field
from vagent_tui.ui.widgets.secret_input import SecretInput
from vagent_tui.ui.widgets.status import StatusReport, describe_error

if TYPE_CHECKING:
    from vagent_tui.ui.host import Console

CHECK_DELAY = 0.5
"""Seconds after the last key in the AOR, username or realm before the AOR is asked about."""
ASKED_FROM = frozenset({"form-aor", "form-username", "form-sip-realm"})


ROUTE_GRAMMAR = "host[:port][;transport=tcp|udp][;proxyAddress=host[:port]]"


ANSWER_LIMIT = 120
"""The most of the platform's answer about an AOR shown under the field."""


class SipRouteForm(FormModal):
    """One outbound route: ``host[:port][;transport=tcp|udp][;proxyAddress=host[:port]]``
    (the grammar said under the title: a field's hint is one line)."""

    TITLE_TEXT = "Add a SIP outbound route"

    def make_fields(self) -> Iterable[FormField]:
        yield FormField(
            "Route",
            text_input("route", "pbx.example.com:5060;transport=udp"),
            name="route",
            hint="5060 and udp unless said",
        )

    def build_request(self) -> SipRouteRequest:
        return build(SipRouteRequest, {"route": self.value("route")}, "route")


def _password_input() -> Input:
    return SecretInput(id="form-password")


class SipRegistrationForm(FormModal):
    """Register the agent to a PBX, or change its registration (every field sent anew)."""

    CONFIRM = "Register"
    DEFAULT_CSS = FormModal.DEFAULT_CSS + stylesheet(__file__)

    def __init__(
        self,
        send: Send,
        current: SipRegistration | None,
        *,
        subtitle: str = "",
        after_unknown: Callable[[], object] | None = None,
        read_back: FormReadBack | None = None,
    ) -> None:
        self.current = current
        super().__init__(send, subtitle=subtitle, after_unknown=after_unknown, read_back=read_back)
        self._timer: Timer | None = None
        self.sent_aor = ""
        """The AOR of the last request sent (never its password)."""
        self.checked: tuple[str, bool | None, str] | None = None
        """The AOR last asked about, whether it is free (None: not known) and the line shown."""

    @property
    def title_text(self) -> Text:
        if self.current is None:
            return Text("Register the agent to a PBX")
        return Text("Change the agent's SIP registration ").append(
            safe(self.current.aor, style="bold")
        )

    def _initial(self, name: str) -> str:
        value: Any = getattr(self.current, name, None) if self.current is not None else None
        return "" if value is None else shown(value)

    def _text(self, label: str, name: str, placeholder: str, hint: str = "") -> FormField:
        field = text_input(name, placeholder, self._initial(name))
        return FormField(label, field, name=name, hint=hint)

    def make_fields(self) -> Iterable[Widget]:
        yield FormField(
            "Address of record (AOR)",
            text_input("aor", "1001@pbx.example.com", self._initial("aor")),
            name="aor",
            hint="user@host; blank: username@realm",
        )
        yield Static("", id="aor-check", markup=False)
        with Horizontal(classes="sip-row"):
            yield self._text("Username", "username", "1001")
            yield self._text("Auth username", "auth_username", "optional")
        with Horizontal(classes="sip-row"):
            yield FormField("Password", _password_input(), name="password", hint="masked")
            yield self._text("SIP realm", "sip_realm", "pbx.example.com")
        with Horizontal(classes="sip-row"):
            yield self._text("Proxy", "proxy", "pbx.example.com:5061", "optional")
            yield self._text("Port", "port", "5060", "optional")
        with Horizontal(classes="sip-row"):
            now = (self.current.transport or "").upper() if self.current else ""
            transports: Select[str] = Select(
                [(t, t) for t in REGISTRATION_TRANSPORTS],
                value=now if now in REGISTRATION_TRANSPORTS else "UDP",
                allow_blank=False, id="form-transport", compact=True,
            )  # fmt: skip
            yield FormField("Transport", transports, name="transport")
            subscribe: Select[str] = Select(
                [("no", "no"), ("yes", "yes")],
                value="yes" if self.current is not None and self.current.subscribe else "no",
                allow_blank=False, id="form-subscribe", compact=True,
            )  # fmt: skip
            yield FormField("Subscribe", subscribe, name="subscribe", hint="presence")

    def build_request(self) -> SipRegistrationRequest:
        values: dict[str, Any] = {
            name: self.value(name)
            for name in ("aor", "username", "auth_username", "sip_realm", "proxy")
        }
        values["transport"] = self.value("transport") or None
        values["subscribe"] = self.value("subscribe") == "yes"
        errors: dict[str, str] = {}
        port = self.value("port").strip()
        if port:
            if port.isascii() and port.isdecimal():
                values["port"] = int(port)
            else:
                errors["port"] = "a number from 1 to 65535"
        # Read from the widget here, never kept on the form (its repr, its fields).
        values["password"] = self.query_one("#form-password", Input).value
        try:
            request = SipRegistrationRequest.model_validate(values)
        except ValidationError as exc:
            found = errors_by_field(exc)
            if "" in found:  # neither an AOR nor a username and realm
                found["aor"] = "an AOR, or a username and a SIP realm below"
                del found[""]
            raise FormErrors(found | errors) from None
        if errors:
            raise FormErrors(errors)
        crash.remember_secret(request.password)  # masked in any crash report from now on
        self.sent_aor = request.shown_aor
        return request

    def _say(self, report: StatusReport) -> None:
        """A 409 says which AOR is held, besides the platform's message."""
        super()._say(report)
        cause = report.cause
        if report.kind == "error" and isinstance(cause, ApiError) and cause.status == 409:
            self.set_form_error(
                f"✗ {describe_error(cause)} — {self.sent_aor} is held by another account: "
                "choose another AOR."
            )

    def set_form_error(self, message: str) -> None:
        """The error, and the form scrolled to it (a low terminal shows the form in part)."""
        super().set_form_error(message)
        if message:
            frame = self.query_one(Vertical)
            self.call_after_refresh(frame.scroll_end, animate=False)

    # ------------------------------------------------------------------ the AOR, as typed

    @on(Input.Changed)
    def _typed(self, event: Input.Changed) -> None:
        if event.input.id not in ASKED_FROM:
            return
        if self._timer is not None:
            self._timer.stop()
        self._timer = self.set_timer(CHECK_DELAY, self.check_aor)

    def aor_query(self) -> AorQuery | None:
        """What the fields name, to ask about; None while they name no AOR yet."""
        try:
            return AorQuery(
                aor=self.value("aor"), username=self.value("username"),
                sip_realm=self.value("sip_realm"),
            )  # fmt: skip
        except ValidationError:
            return None

    @work(exclusive=True, group="sip-aor-check", exit_on_error=False)
    async def check_aor(self) -> None:
        """Ask whether the AOR typed is free; the answer under the AOR field."""
        query = self.aor_query()
        line = self.query_one("#aor-check", Static)
        if query is None:
            self.checked = None
            line.update("")
            return
        line.update(safe(f"Asking whether {query.shown} is free…", style="dim"))
        start = self.start
        if not start.same_context(cast("Console", self.app).connection):
            return  # the form sends to the account it was opened for, or not at all
        try:
            answer = await start.api.check_sip_aor(query, target=start.target_id)
        except PlatformError as exc:
            self.checked = (query.shown, None, f"Could not ask: {describe_error(exc)}")
            line.update(safe(self.checked[2], style="dim"))
            return
        if query != self.aor_query():
            return  # typed on meanwhile: a newer question follows
        free = answer.available
        said = answer.message or ("free" if free else "taken" if free is False else "no answer")
        # One or two lines under the field, whatever the platform says (its message cut).
        if free:
            text = Text("✓ ", style=OK).append(safe(f"{query.shown}: {said}", limit=ANSWER_LIMIT))
        elif free is False:
            text = Text("✗ taken: ", style=FAILED).append(safe(said, limit=ANSWER_LIMIT))
        else:
            text = safe(f"{query.shown}: {said}", style="dim", limit=ANSWER_LIMIT)
        self.checked = (query.shown, free, str(text))
        line.update(text)
