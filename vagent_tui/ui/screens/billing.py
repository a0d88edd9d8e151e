"""ADR export: where the platform delivers the call-detail records of the acting account.

The API can only write this configuration (no read, no delete), so the form starts
from defaults, says so, and remembers (for this session only, password excluded) what
was last saved for each account. Validation is `AdrExportConfig`'s, before sending.

Beside it, a reseller's or partner's billing settings: the billing system's
configuration, read redacted when the target is one (``GET /billing/billingSystemConfig``)
and replaced whole by ``ctrl+g`` (a form, its keys typed masked; the whole configuration,
before and after, reviewed and the system's name typed before the POST; the journal says
only that a key was set), and ``ctrl+n`` a new billing period of an organization
(``POST /billing/billingPeriod``: it starts today, UTC, checked at the field).

Keys: ``ctrl+s`` saves from anywhere on the screen, even while typing in a field (Textual
turns off XON/XOFF flow control, so the terminal does not swallow it; checked in tmux);
``ctrl+o`` does the same for terminals that keep ``ctrl+s`` for themselves (an editor's
integrated terminal); Enter moves to the next field and submits on the last one.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import ValidationError
from textual import on, work
from textual.binding import BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widget import Widget
from textual.widgets import Button, Input, Select, Static

from vagent_tui.api.errors import ApiError, PlatformError
from vagent_tui.api.models import AdrExportConfig, Envelope
from vagent_tui.api.scope import ScopeLevel
from vagent_tui.ui.safety import WRITES, Key
from vagent_tui.ui.screens.base import BaseScreen, who_of
from vagent_tui.ui.text import safe
from vagent_tui.ui.widgets.form import FormField, errors_by_field, first_invalid, show_errors
from vagent_tui.ui.widgets.secret_input import SecretInput
from vagent_tui.ui.writes import Write, Written

if TYPE_CHECKING:
    from vagent_tui.api.billing_models import BillingPeriodRequest, BillingSystemConfig
    from vagent_tui.services.session import Connection
from vagent_tui.words import counted

PROTOCOLS = [("SFTP", "sftp"), ("FTPS", "ftps"), ("FTP", "ftp")]
DEFAULT_PORTS = {"sftp": 22, "ftps": 990, "ftp": 21}
LEVELS = ("partner", "reseller", "organization")
ADR_LEVELS = (ScopeLevel.PARTNER, ScopeLevel.RESELLER, ScopeLevel.ORGANIZATION)
SHOWN = 60
"""Characters of a stored value shown at most (a reply's text may be any length)."""
SYSTEM_LEVELS = ("partner", "reseller")
"""The accounts a billing system is configured at (the notes)."""


def stored_lines(stored: dict[str, Any] | None, error: str = "") -> list[str]:
    """What the platform holds, as its redacted read says it (values as sent)."""
    if error:
        return [f"not read: {error}"]
    if stored is None:
        return ["none configured (the read answered 404)"]
    from vagent_tui.api.integration_models import secret_name

    def said(key: str, value: Any) -> str:
        # The platform redacts the keys; should one come back whole, it is not shown.
        if secret_name(key) and key != "publishableKey" and value not in (None, ""):
            return "set (not shown)"
        text = str(value)
        return text if len(text) <= SHOWN else f"{text[: SHOWN - 1]}…"

    return [f"{key}: {said(key, value)}" for key, value in stored.items()] or [
        "(the read has no field)"
    ]


WRITE_ONLY = (
    "Write-only: the platform does not return the current settings, so this form starts "
    "from defaults and saving replaces whatever is configured."
)
DELIVERY = (
    "Delivery: one file a day at 02:00 UTC, named ADR_<accountId>_YYYY_MM_DD_HHmmss.csv.gz, "
    "uploaded to the folder path (the user's home folder when empty). The export is "
    "configured at partner, reseller or organization level."
)

# pydantic's wording -> what a person filling the form needs to read
_FRIENDLY = {
    "host": "a host name or an IP address",
    "port": "a port number between 1 and 65535",
    "username": "required",
    "password": "required",
    "rotation_minutes": "a whole number of minutes, 1 or more (e.g. 60)",
    "delivery_protocol": "pick SFTP, FTPS or FTP",
}


def _field_input(name: str, placeholder: str = "", **kwargs: Any) -> Input:
    widget = Input(placeholder=placeholder, id=f"billing-{name}", compact=True, **kwargs)
    widget.cursor_blink = False
    return widget


class BillingScreen(BaseScreen):
    """The ADR export form; nothing is read from the platform, only written."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Key(
            "ctrl+s",
            "save",
            "Save",
            id="billing.save",
            does=WRITES,
            tooltip="Validate and send the ADR export settings",
        ),
        Key(
            "ctrl+o",
            "save",
            "Save",
            show=False,
            id="billing.save-alt",
            does=WRITES,
            tooltip="Save (for terminals that keep ctrl+s)",
        ),
        Key(
            "ctrl+g",
            "billing_system",
            "Billing system",
            id="billing.system",
            does=WRITES,
            tooltip="Replace a reseller's or partner's Stripe or Chargebee configuration",
        ),
        Key(
            "ctrl+n",
            "billing_period",
            "New period",
            id="billing.period",
            does=WRITES,
            tooltip="Start an organization's new billing period (today, UTC)",
        ),
    ]
    CSS_PATH = "billing.tcss"

    def __init__(self) -> None:
        super().__init__()
        self.port_touched = False
        """True once the user typed a port: it then stops following the protocol."""
        self._saved: dict[int | None, str] = {}  # per target, this session, no password
        self._stored: list[str] = []
        """The billing system as last read (redacted by the platform), for the review."""

    # ------------------------------------------------------------------ layout

    def compose_body(self) -> Iterable[Widget]:
        with VerticalScroll(id="billing-body"):
            yield Static(WRITE_ONLY, id="billing-intro", markup=False)
            yield Static("", id="billing-level", classes="-hidden", markup=False)
            yield Static("", id="billing-system", markup=False)
            with Vertical(id="billing-form"):
                with Horizontal(classes="billing-row"):
                    yield FormField(
                        "Protocol",
                        Select(
                            PROTOCOLS,
                            value="sftp",
                            allow_blank=False,
                            id="billing-protocol",
                            compact=True,
                        ),
                        name="delivery_protocol",
                    )
                    yield FormField(
                        "Port",
                        _field_input("port", "22", type="integer"),
                        name="port",
                        hint="follows protocol until typed",
                    )
                yield FormField("Host", _field_input("host", "e.g. files.example.com"), name="host")
                with Horizontal(classes="billing-row"):
                    yield FormField("Username", _field_input("username"), name="username")
                    yield FormField(
                        "Password",
                        SecretInput(placeholder="", id="billing-password"),
                        name="password",
                        hint="masked",
                    )
                with Horizontal(classes="billing-row"):
                    yield FormField(
                        "Folder path",
                        _field_input("path", "empty: home folder"),
                        name="path",
                        hint="optional",
                    )
                    yield FormField(
                        "Rotation minutes",
                        _field_input("rotation", "60", value="60", type="integer"),
                        name="rotation_minutes",
                        hint="sent as text",
                    )
            with Horizontal(id="billing-actions"):
                yield Button("Save", id="billing-save", variant="primary")
                yield Static(
                    "ctrl+s or ctrl+o saves · Enter: next field, last one saves",
                    id="billing-keys",
                    markup=False,
                )
            yield Static("", id="billing-saved", classes="-hidden", markup=False)
            yield Static(DELIVERY, id="billing-delivery", markup=False)

    @property
    def fields(self) -> list[FormField]:
        return list(self.query("#billing-form FormField").results(FormField))

    def _input(self, name: str) -> Input:
        return self.query_one(f"#billing-{name}", Input)

    def on_mount(self) -> None:
        # Filled here, silently: a value given to the constructor would arrive as a
        # Changed message, indistinguishable from the user typing it.
        with self.prevent(Input.Changed):
            self._input("port").value = str(DEFAULT_PORTS["sftp"])
        self.query_one("#billing-protocol", Select).focus()

    # ------------------------------------------------------------------ the target

    def reload(self) -> None:
        """Nothing to read (write-only): show whom it applies to and what was saved."""
        level = self.query_one("#billing-level", Static)
        kind = self.connection.acting_type
        if kind and kind not in LEVELS:
            shown = "an agent" if kind == "account" else f"a {kind}"
            level.update(
                safe(
                    f"⚠ {who_of(self, with_id=True)} is {shown} account: the platform accepts this "
                    "only for partner, reseller or organization accounts."
                )
            )
        level.set_class(not kind or kind in LEVELS, "-hidden")
        self._show_saved()
        self.status.info(f"ADR export of {who_of(self, with_id=True)} · fill in and save (ctrl+s)")
        self._stored = []
        if kind in SYSTEM_LEVELS:
            self.load_system()
        else:
            self._show_system(["a reseller's or partner's: act as one to read or replace it"])

    # ------------------------------------------------------------------ billing settings

    def _show_system(self, lines: list[str]) -> None:
        said = "Billing system: " + " · ".join(lines)
        said += "\nctrl+g replace it (reseller, partner) · ctrl+n new billing period (organization)"
        widget = self.query_one("#billing-system", Static)
        widget.update(safe(said, multiline=True))
        # Its height changes with the read: laid out again once drawn (an update made
        # before the screen's first layout keeps the first height otherwise).
        self.call_after_refresh(widget.refresh, layout=True)

    @work(exclusive=True, group="billing-system", exit_on_error=False)
    async def load_system(self) -> None:
        """The stored configuration, redacted by the platform; a 404 is "none"."""
        missing: list[PlatformError] = []

        def failed(exc: PlatformError) -> None:
            if isinstance(exc, ApiError) and exc.status == 404:
                missing.append(exc)
                return
            self._stored = stored_lines(None, exc.message)
            self._show_system(self._stored)
            self.status.error(exc)

        ok, read = await self.load(
            lambda c: c.api.get_billing_system(target=c.target_id), on_error=failed
        )
        if missing:
            self._stored = stored_lines(None)
        elif ok and read is not None:
            self._stored = stored_lines(read.wire())
        else:
            return
        self._show_system(self._stored)

    def action_billing_system(self) -> None:
        """``ctrl+g``: the form; its review shows what is stored now and after."""
        from vagent_tui.ui.widgets.billing_forms import BillingSystemForm

        if self.connection.acting_type not in SYSTEM_LEVELS:
            self.status.info("A billing system is a reseller's or partner's: act as one first")
            return
        who = who_of(self, with_id=True)

        async def send(c: Connection, config: BillingSystemConfig) -> Envelope:
            return await c.api.set_billing_system(config, target=c.target_id)

        async def read_back(c: Connection, _config: BillingSystemConfig) -> str:
            read = await c.api.get_billing_system(target=c.target_id)
            return "Stored now: " + " · ".join(stored_lines(read.wire()))

        def done(result: tuple[BillingSystemConfig, Envelope] | None) -> None:
            if result is not None:
                self.status.ok(f"{result[1].message or 'Replaced'} · billing system of {who}")
            if self.is_current:
                self.load_system()

        async def read_stored(c: Connection) -> list[str]:
            try:
                read = await c.api.get_billing_system(target=c.target_id)
            except ApiError as exc:
                if exc.status == 404:
                    return stored_lines(None)
                raise
            return stored_lines(read.wire())

        form = BillingSystemForm(
            send, stored=list(self._stored) or ["not read"], who=who, read_back=read_back,
            after_unknown=self.load_system, read_stored=read_stored,
        )  # fmt: skip
        self.app.push_screen(form, done)

    def action_billing_period(self) -> None:
        """``ctrl+n``: an organization's new period, checked at its fields, then asked."""
        from vagent_tui.ui.widgets.billing_forms import BillingPeriodForm

        if self.connection.acting_type != "organization":
            self.status.info("A billing period is an organization's: act as one first")
            return
        who = who_of(self, with_id=True)

        async def send(c: Connection, period: BillingPeriodRequest) -> Envelope:
            return await c.api.set_billing_period(period, target=c.target_id)

        def done(result: tuple[BillingPeriodRequest, Envelope] | None) -> None:
            if result is not None:
                self.status.ok(f"{result[1].message or 'Billing period set'} · {who}")

        self.app.push_screen(BillingPeriodForm(send, who=who), done)

    def _show_saved(self) -> None:
        saved = self._saved.get(self.connection.target_id, "")
        widget = self.query_one("#billing-saved", Static)
        widget.update(safe(saved))
        widget.set_class(not saved, "-hidden")

    # ------------------------------------------------------------------ the port follows

    @on(Select.Changed, "#billing-protocol")
    def _protocol_changed(self, event: Select.Changed) -> None:
        event.stop()
        if self.port_touched or not isinstance(event.value, str):
            return
        port = self._input("port")
        default = str(DEFAULT_PORTS[event.value])
        port.placeholder = default
        if port.value:
            with self.prevent(Input.Changed):
                port.value = default

    @on(Input.Changed, "#billing-port")
    def _port_typed(self, event: Input.Changed) -> None:
        # Programmatic changes are made under prevent(): this is the user typing.
        # Emptying the field hands the port back to the protocol (empty = its default).
        self.port_touched = bool(event.value.strip())

    # ------------------------------------------------------------------ submit

    @on(Input.Submitted)
    def _enter(self, event: Input.Submitted) -> None:
        event.stop()
        inputs = list(self.query("#billing-form Input").results(Input))
        if event.input is inputs[-1]:
            self.action_save()
        else:
            self.focus_next()

    @on(Button.Pressed, "#billing-save")
    def _save_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_save()

    def build_config(self) -> AdrExportConfig:
        """The request from the form, or ValidationError (nothing is sent then)."""
        protocol = self.query_one("#billing-protocol", Select).value
        protocol = protocol if isinstance(protocol, str) else ""
        # An empty port is the protocol's default (its placeholder shows which).
        port = self._input("port").value.strip() or DEFAULT_PORTS.get(protocol, "")
        # Field text as typed: the model parses and checks it (ValidationError per field).
        return AdrExportConfig.model_validate(
            {
                "delivery_protocol": protocol,
                "host": self._input("host").value,
                "port": port,
                "username": self._input("username").value,
                "password": self._input("password").value,
                "path": self._input("path").value,
                "rotation_minutes": self._input("rotation").value,
            }
        )

    def action_save(self) -> None:
        if any(w.group == "write-billing-save" and w.is_running for w in self.workers):
            return
        try:
            config = self.build_config()
        except ValidationError as exc:
            errors = {name: _FRIENDLY.get(name, msg) for name, msg in errors_by_field(exc).items()}
            rest = show_errors(self.fields, errors)
            count = len(errors)
            self.status.error(
                "; ".join(rest) or f"{counted(count, 'field')} to fix: nothing was sent",
                retry_key=None,
            )
            invalid = first_invalid(self.fields)
            if invalid is not None:
                invalid.widget.focus()
            return
        show_errors(self.fields, {})
        self.save(config)

    def save(self, config: AdrExportConfig) -> None:
        """Send ``config`` through the write path; every field stays as typed on failure."""
        target, who = self.connection.target_id, who_of(self, with_id=True)
        button = self.query_one("#billing-save", Button)
        where = f"{config.delivery_protocol}://{config.username}@{config.host}:{config.port}"
        note = (
            f"Saved in this session: {where} {config.path or '(home folder)'}, rotation "
            f"{config.rotation_minutes} min (password sent, not kept)"
        )

        def after(written: Written[Envelope]) -> None:
            button.disabled = False
            if written.result is None:
                return
            self._saved[target] = note
            with self.prevent(Input.Changed):
                self._input("password").value = ""
            if target == self.connection.target_id:
                self._show_saved()

        from vagent_tui.ui.dialogs import ConfirmModal

        # Write-only: what is configured now cannot be shown, only said to be replaced.
        question = ConfirmModal(
            f"Replace the ADR export of {who}?",
            f"The platform does not return the export it holds: saving replaces whatever "
            f"is configured for {who} now (from here or elsewhere) with {where}, folder "
            f"{config.path or '(home folder)'}, rotation {config.rotation_minutes} min. "
            "The password is sent, not kept.",
            confirm_label="Replace",
        )
        # Configured at partner, reseller or organization level: an account of those
        # levels goes by the parameter of its level (rule 9), others by targetAccountId.
        worker = self.write(
            Write[Envelope](
                "billing-save",
                f"Saving the ADR export of {who}",
                lambda c: c.api.set_adr_export(config, target=c.target_at(*ADR_LEVELS)),
                confirm=question,
                done=lambda reply: f"{reply.message or 'Saved'} · {who}",
                retry_key="ctrl+s",
                after=after,
            )
        )
        if worker is not None:
            button.disabled = True
