"""Setup: make a connection profile (first run, or "profile: new…" from the palette).

Base URL, where the token comes from, profile name and tier. "Test" reads the key
owner (``GET /account``) with those settings and shows the key's scope; "Save" writes
the profile (and a typed token into the 0600 credentials file) and connects the app to
it. The typed token is masked and is never shown, logged or put in the config file.
A malformed config file is named with its problem and never overwritten: Save is off.
"""

from __future__ import annotations

import asyncio
import os
import re
from typing import TYPE_CHECKING, Any, ClassVar, cast

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Button, Input, Label, Select, Static

from vagent_tui import config as cfg
from vagent_tui import credentials
from vagent_tui.api.errors import PlatformError
from vagent_tui.api.scope import classify
from vagent_tui.ui.built import ClosesItself
from vagent_tui.ui.footer import KeysFooter
from vagent_tui.ui.text import safe
from vagent_tui.ui.widgets.secret_input import SecretInput
from vagent_tui.ui.widgets.status import describe_error

if TYPE_CHECKING:
    from vagent_tui.ui.host import Console

SOURCES = [
    ("Type it: kept in the credentials file (0600)", "file"),
    ("Environment variable", "env"),
    ("Command that prints it (password manager)", "command"),
]
TIERS = [("dev", "dev"), ("staging", "staging"), ("prod (read-only unless changed)", "prod")]
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$")


def _input(ident: str, placeholder: str = "", **kwargs: Any) -> Input:
    widget = Input(placeholder=placeholder, id=ident, compact=True, **kwargs)
    widget.cursor_blink = False
    return widget


class SetupScreen(ClosesItself[None]):
    """A short form that makes a profile and connects to it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+t", "test", "Test", id="setup.test", tooltip="Read the key owner"),
        Binding("ctrl+s", "save", "Save", id="setup.save", tooltip="Save the profile, connect"),
        Binding(
            "ctrl+o",
            "save",
            "Save",
            show=False,
            id="setup.save-alt",
            tooltip="Save (for terminals that keep ctrl+s)",
        ),
        Binding("escape", "cancel", "Cancel", id="setup.cancel", tooltip="Close without saving"),
    ]
    CSS_PATH = "setup.tcss"

    def __init__(self, *, first_run: bool = False) -> None:
        super().__init__()
        self.first_run = first_run
        self.config: cfg.Config | None = None
        self.problem = ""

    @property
    def vapp(self) -> Console:
        return cast("Console", self.app)

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        title = "Set up a connection" if self.first_run else "New connection profile"
        yield Static(f"vagent-tui · {title}", id="setup-head", markup=False)
        with VerticalScroll(id="setup-body"):
            yield Static(
                "Where is the platform, and where does the API key come from? The key is "
                "never written to the config file.",
                id="setup-intro",
                markup=False,
            )
            yield Static("", id="setup-problem", classes="-hidden", markup=False)
            yield self._row("Base URL", _input("setup-url", "https://api.example.com"))
            yield self._row(
                "Token from",
                Select(SOURCES, value="file", allow_blank=False, id="setup-source", compact=True),
            )
            yield self._row("Token", SecretInput(placeholder="paste the key", id="setup-token"))
            yield self._row("Variable", _input("setup-env", "e.g. VIDA_TOKEN"), hidden=True)
            yield self._row("Command", _input("setup-command", "e.g. pass show vida"), hidden=True)
            yield self._row("Profile name", _input("setup-name", value="default"))
            yield self._row(
                "Tier", Select(TIERS, value="dev", allow_blank=False, id="setup-tier", compact=True)
            )
            with Horizontal(id="setup-buttons"):
                yield Button("Test", id="setup-test-button")
                yield Button("Save and connect", id="setup-save-button", variant="primary")
                if self.first_run:
                    yield Button("Try the demo", id="setup-demo-button")
            yield Static("", id="setup-result", markup=False)
        yield KeysFooter(show_hint=False)  # its own keys only: the fields take what is typed

    @staticmethod
    def _row(label: str, widget: Input | Select[str], *, hidden: bool = False) -> Horizontal:
        row = Horizontal(
            Label(label, markup=False),
            widget,
            classes="setup-row -hidden" if hidden else "setup-row",
        )
        row.id = f"row-{widget.id}"
        return row

    def on_mount(self) -> None:
        try:
            self.config = cfg.load()
        except cfg.ConfigError as exc:
            self.problem = str(exc)
        if self.problem:
            problem = self.query_one("#setup-problem", Static)
            problem.update(
                safe(
                    f"⚠ The config file could not be read: {self.problem}\n"
                    "It is left exactly as it is and nothing will be saved until it is fixed "
                    "by hand. You can still test a connection (or try the demo).",
                    multiline=True,
                )
            )
            problem.remove_class("-hidden")
            self.query_one("#setup-save-button", Button).disabled = True
        elif self.config is not None and self.config.profiles:
            self.query_one("#setup-name", Input).value = ""
        self.query_one("#setup-url", Input).focus()

    # ------------------------------------------------------------------ the form

    def _value(self, ident: str) -> str:
        return self.query_one(f"#{ident}", Input).value.strip()

    @property
    def source(self) -> str:
        return str(self.query_one("#setup-source", Select).value)

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "setup-source":
            for ident, source in (("setup-token", "file"), ("setup-env", "env")):
                self.query_one(f"#row-{ident}").set_class(self.source != source, "-hidden")
            self.query_one("#row-setup-command").set_class(self.source != "command", "-hidden")

    def _say(self, text: str, kind: str = "") -> None:
        result = self.query_one("#setup-result", Static)
        result.update(safe(text, multiline=True))
        result.set_class(kind == "ok", "-ok")
        result.set_class(kind == "error", "-error")

    def _profile(self) -> cfg.Profile:
        """The profile the form describes; raises `ConfigError` with what to fix."""
        url = self._value("setup-url").rstrip("/")
        problem = cfg.base_url_problem(url)
        if problem:
            raise cfg.ConfigError(f"Base URL {problem}")
        name = self._value("setup-name")
        if not _NAME.match(name):
            raise cfg.ConfigError("Profile name: letters, digits, - _ . (up to 40)")
        source = self.source
        profile = cfg.Profile(
            name=name, base_url=url, tier=str(self.query_one("#setup-tier", Select).value)
        )
        if source == "file":
            if not self._value("setup-token"):
                raise cfg.ConfigError("Paste the API key into Token")
            profile.token_file = True
        elif source == "env":
            var = self._value("setup-env")
            if not re.match(r"^[A-Za-z_][A-Za-z0-9_]*$", var):
                raise cfg.ConfigError("Variable: the name of an environment variable")
            profile.token_env = var
        else:
            if not self._value("setup-command"):
                raise cfg.ConfigError("Command: the command that prints the key")
            profile.token_command = self._value("setup-command")
        return profile

    async def _token(self, profile: cfg.Profile) -> str:
        if profile.token_file:
            return self._value("setup-token")
        env = dict(os.environ)
        env.pop("VAGENT_TOKEN", None)  # the profile's own source, not the one-run override
        return await asyncio.to_thread(credentials.resolve_token, profile, env=env)

    async def _connection(self) -> credentials.Connection:
        profile = self._profile()
        token = await self._token(profile)
        return credentials.Connection(profile.base_url, token, profile, profile.name)

    # ------------------------------------------------------------------ actions

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "setup-test-button":
            self.action_test()
        elif event.button.id == "setup-save-button":
            self.action_save()
        elif event.button.id == "setup-demo-button":
            self.use_demo()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.focus_next()

    def action_test(self) -> None:
        self._say("Testing: reading the key owner…")
        self.test_connection()

    @work(exclusive=True, group="setup-test", exit_on_error=False)
    async def test_connection(self) -> None:
        try:
            connection = await self._connection()
        except cfg.ConfigError as exc:
            self._say(f"✗ {exc}", "error")
            return
        client = self.vapp.client_factory(connection)
        try:
            owner = await client.get_account()
        except PlatformError as exc:
            self._say(f"✗ {describe_error(exc)}", "error")
            return
        finally:
            await client.aclose()
        scope = classify(owner)
        self._say(f"✓ Key of {owner.display_name} (#{owner.id}): {scope.summary()}", "ok")

    def action_save(self) -> None:
        if self.problem:
            self._say("✗ Not saved: the config file has a problem (see above).", "error")
            return
        self.save_and_connect()

    @work(exclusive=True, group="setup-save", exit_on_error=False)
    async def save_and_connect(self) -> None:
        config = self.config or cfg.Config()
        try:
            connection = await self._connection()
            profile = connection.profile
            assert profile is not None
            if profile.name in config.profiles:
                raise cfg.ConfigError(
                    f"A profile named {profile.name} exists already; pick another name"
                )
            if profile.token_file:
                credentials.store_token(profile.name, connection.token)
            config.profiles[profile.name] = profile
            if config.default_profile is None:
                config.default_profile = profile.name
            cfg.save(config)
        except (cfg.ConfigError, OSError) as exc:
            self._say(f"✗ Not saved: {exc}", "error")
            return
        self.query_one("#setup-token", Input).value = ""
        self._say(f"Saved profile {profile.name} to {config.path}; connecting…")
        self.vapp.adopt_config(config)
        client = self.vapp.client_factory(connection)
        if await self.vapp.connect_profile(client, profile):
            self._leave()
        else:
            self._say(
                f"Saved profile {profile.name}, but connecting failed (see the message). "
                "Fix the settings with `vagent-tui profile add`, or switch from the palette.",
                "error",
            )

    def use_demo(self) -> None:
        self.start_demo()

    @work(exclusive=True, group="setup-save", exit_on_error=False)
    async def start_demo(self) -> None:
        from vagent_tui.services.connect import demo_client

        if await self.vapp.connect_profile(demo_client(), None, label="demo · demo-partner"):
            self._leave()

    def _leave(self) -> None:
        self.app.pop_screen()
        if self.first_run:
            self.app.switch_mode(self.vapp.initial_screen)

    def action_cancel(self) -> None:
        if self.first_run and not self.vapp.connection.connected:
            self._say("Save a profile, try the demo, or quit with ctrl+q.")
            return
        self.app.pop_screen()
