"""ADR export: where the platform delivers the call-detail records of the acting account.

The API can only write this configuration (no read, no delete), so the form starts
from defaults, says so, and remembers (for this session only, password excluded) what
was last saved for each account. Validation is `AdrExportConfig`'s, before sending.

Keys: ``ctrl+s`` saves from anywhere on the screen, even while typing in a field (Textual
turns off XON/XOFF flow control, so the terminal does not swallow it; checked in tmux);
``ctrl+o`` does the same for terminals that keep ``ctrl+s`` for themselves (an editor's
integrated terminal); Enter moves to the next field and submits on the last one.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar

from pydantic import ValidationError
from textual import on
from textual.binding import BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widget import Widget
from textual.widgets import Button, Input, Select, Static

from vagent_tui.api.models import AdrExportConfig, Envelope
from vagent_tui.api.scope import ScopeLevel
from vagent_tui.ui.safety import WRITES, Key
from vagent_tui.ui.screens.base import BaseScreen, who_of
from vagent_tui.ui.text import safe
from vagent_tui.ui.widgets.form import FormField, errors_by_field, first_invalid, show_errors
from vagent_tui.ui.writes import Write, Written
from vagent_tui.words import counted

PROTOCOLS = [("SFTP", "sftp"), ("FTPS", "ftps"), ("FTP", "ftp")]
DEFAULT_PORTS = {"sftp": 22, "ftps": 990, "ftp": 21}
LEVELS = ("partner", "reseller", "organization")
ADR_LEVELS = (ScopeLevel.PARTNER, ScopeLevel.RESELLER, ScopeLevel.ORGANIZATION)

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
    ]
    CSS_PATH = "billing.tcss"

    def __init__(self) -> None:
        super().__init__()
        self.port_touched = False
        """True once the user typed a port: it then stops following the protocol."""
        self._saved: dict[int | None, str] = {}  # per target, this session, no password

    # ------------------------------------------------------------------ layout

    def compose_body(self) -> Iterable[Widget]:
        with VerticalScroll(id="billing-body"):
            yield Static(WRITE_ONLY, id="billing-intro", markup=False)
            yield Static("", id="billing-level", classes="-hidden", markup=False)
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
                        _field_input("password", password=True),
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

        # Configured at partner, reseller or organization level: an account of those
        # levels goes by the parameter of its level (rule 9), others by targetAccountId.
        worker = self.write(
            Write[Envelope](
                "billing-save",
                f"Saving the ADR export of {who}",
                lambda c: c.api.set_adr_export(config, target=c.target_at(*ADR_LEVELS)),
                done=lambda reply: f"{reply.message or 'Saved'} · {who}",
                retry_key="ctrl+s",
                after=after,
            )
        )
        if worker is not None:
            button.disabled = True
