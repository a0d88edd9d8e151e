"""Profiles in the app: setup screen, switching, read-only, tier banner, theme memory,
keymap overrides and copy. Every test has its own config file (``VAGENT_CONFIG``)."""

from __future__ import annotations

import html
import os
import stat
from typing import Any

import pytest
from textual.app import App
from textual.command import CommandList
from textual.pilot import Pilot
from textual.widgets import Button, Input, Select, Static

from tests.helpers import MakeApp, settle, sim_of, wait_for
from vagent_tui import config as cfg
from vagent_tui import credentials
from vagent_tui.services.connect import demo_client
from vagent_tui.sim import create_app
from vagent_tui.ui.app import VagentApp
from vagent_tui.ui.dialogs import TextModal
from vagent_tui.ui.screens.setup import SetupScreen
from vagent_tui.ui.widgets.context_bar import ContextBar

URL = "http://demo.sim"


def _factory(sim_app: Any) -> Any:
    """Clients on one in-process simulator, whatever base URL the profile names."""
    return lambda connection: demo_client(connection.token, sim_app=sim_app)


def _config(**profiles: cfg.Profile) -> cfg.Config:
    config = cfg.Config(path=cfg.config_path())
    config.profiles.update(profiles)
    config.default_profile = next(iter(profiles), None)
    cfg.save(config)
    return cfg.load()


def _app(
    config: cfg.Config | None,
    profile: str | None,
    *,
    token: str = "demo-partner",
    screen: str = "scope",
    read_only: bool = False,
    config_error: str | None = None,
) -> VagentApp:
    sim_app = create_app()
    chosen = config.profiles[profile] if config and profile else None
    app = VagentApp(
        demo_client(token, sim_app=sim_app),
        profile_label=profile or f"demo · {token}",
        initial_screen=screen,
        config=config,
        config_error=config_error,
        profile=chosen,
        read_only=read_only,
        theme=chosen.theme if chosen else None,
    )
    app.client_factory = _factory(sim_app)
    return app


def _notes(app: Any) -> list[str]:
    return [str(n.message) for n in app._notifications]


def _bar(app: App[Any]) -> ContextBar:
    return app.screen.query_one(ContextBar)


async def _until_listed(pilot: Pilot[None], palette: Any, text: str) -> None:
    """Until the palette's search has put a match for ``text`` first in its list."""
    results = palette.query_one(CommandList)

    def first_matches() -> bool:
        if not results.option_count:
            return False
        first = str(results.get_option_at_index(0).prompt).lower()
        return all(word in first for word in text.lower().split())

    await wait_for(pilot, first_matches)


async def _palette(pilot: Pilot[None], text: str) -> None:
    pilot.app.action_command_palette()
    await pilot.pause()
    palette = pilot.app.screen
    palette.query_one(Input).value = text
    await _until_listed(pilot, palette, text)
    await pilot.press("enter")
    await settle(pilot)


# ---------------------------------------------------------------------- setup screen


async def _fill_setup(
    pilot: Pilot[None], *, token: str, name: str = "lab", tier: str = "dev"
) -> Any:
    screen = pilot.app.screen
    assert isinstance(screen, SetupScreen)
    screen.query_one("#setup-url", Input).value = URL
    screen.query_one("#setup-token", Input).value = token
    screen.query_one("#setup-name", Input).value = name
    screen.query_one("#setup-tier", Select).value = tier
    await pilot.pause()
    return screen


def _result(screen: Any) -> str:
    return str(screen.query_one("#setup-result", Static).content)


async def test_first_run_setup_tests_saves_0600_and_connects() -> None:
    sim_app = create_app()
    app = VagentApp(None, config=cfg.load())
    app.client_factory = _factory(sim_app)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot)
        screen = await _fill_setup(pilot, token="wrong-token")
        assert screen.query_one("#setup-token", Input).password  # masked
        await pilot.press("ctrl+t")
        await settle(pilot)
        assert _result(screen).startswith("✗")
        screen.query_one("#setup-token", Input).value = "demo-partner"
        await pilot.press("ctrl+t")
        await settle(pilot)
        assert _result(screen).startswith("✓ Key of")
        assert "Partner Admin" in _result(screen)
        assert app.connection.client is None  # a test does not connect
        await pilot.press("ctrl+s")
        await settle(pilot)
        await settle(pilot)
        assert app.connection.connected
        assert app.connection.scope is not None and app.current_mode == "scope"
        assert type(app.screen).__name__ == "ScopeScreen"
        assert app.connection.profile is not None and app.connection.profile.name == "lab"
    creds = cfg.credentials_path()
    assert stat.S_IMODE(os.stat(creds).st_mode) == 0o600
    assert credentials.read_credentials() == {"lab": "demo-partner"}
    text = cfg.config_path().read_text()
    assert "demo-partner" not in text and "token_file = true" in text
    assert cfg.load().default_profile == "lab"
    assert all("demo-partner" not in n for n in _notes(app))


async def test_setup_with_env_source_saves_no_token(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LAB_TOKEN", "demo-agent")
    sim_app = create_app()
    app = VagentApp(None, config=cfg.load())
    app.client_factory = _factory(sim_app)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = await _fill_setup(pilot, token="")
        screen.query_one("#setup-source").value = "env"
        await pilot.pause()
        assert screen.query_one("#row-setup-token").has_class("-hidden")
        screen.query_one("#setup-env", Input).value = "LAB_TOKEN"
        await pilot.press("ctrl+s")
        await settle(pilot)
        await settle(pilot)
        assert app.connection.connected and app.connection.owner is not None
        assert app.connection.owner.id == 1111
    assert not cfg.credentials_path().exists()
    assert cfg.load().profiles["lab"].token_env == "LAB_TOKEN"


async def test_setup_names_a_malformed_file_and_never_saves_over_it() -> None:
    path = cfg.config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('[profiles.lab]\nbase_url = "http://x"\ntier = "nope"\n')
    with pytest.raises(cfg.ConfigError) as caught:
        cfg.load()
    app = VagentApp(None, config=None, config_error=str(caught.value))
    app.client_factory = _factory(create_app())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = await _fill_setup(pilot, token="demo-partner")
        problem = str(screen.query_one("#setup-problem", Static).content)
        assert str(path) in problem and "tier" in problem
        assert screen.query_one("#setup-save-button", Button).disabled
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert "Not saved" in _result(screen)
        await pilot.press("ctrl+t")  # testing still works
        await settle(pilot)
        assert _result(screen).startswith("✓")
    assert path.read_text() == '[profiles.lab]\nbase_url = "http://x"\ntier = "nope"\n'
    assert not cfg.credentials_path().exists()


async def test_malformed_config_with_demo_is_a_notification() -> None:
    app = _app(None, None, config_error="/x/config.toml: Expected ']' (at line 1, column 10)")
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settle(pilot)
        assert any("line 1" in n for n in _notes(app))
        app.theme = "vagent-light"  # not remembered: the file is broken
        await pilot.pause()
        assert any("not remembered" in n for n in _notes(app))
    assert not cfg.config_path().exists()


# ---------------------------------------------------------------------- switching


async def test_palette_switches_profile_without_restart(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("A_TOKEN", "demo-partner")
    monkeypatch.setenv("B_TOKEN", "demo-other")
    config = _config(
        a=cfg.Profile("a", URL, token_env="A_TOKEN"),
        b=cfg.Profile("b", URL, token_env="B_TOKEN", tier="staging", theme="vagent-light"),
    )
    app = _app(config, "a")
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settle(pilot)
        old = app.connection.client
        before = app.connection
        assert app.connection.connected and app.connection.owner is not None
        assert app.connection.owner.id == 1000
        await _palette(pilot, "profile: use b")
        await settle(pilot)
        profile = app.connection.profile
        assert app.connection.client is not old and profile is not None and profile.name == "b"
        assert app.connection.owner is not None and app.connection.owner.id == 9000
        assert app.connection is not before and app.connection.tier == "staging"
        assert app.theme == "vagent-light"
        assert _bar(app).has_class("-tier-staging")
        assert "b" in str(_bar(app).content)
        await settle(pilot)
        assert old.sender.is_closed  # type: ignore[union-attr]
    # Switching applied the profile's theme: that is not a new choice to remember.
    assert cfg.load().profiles["b"].theme == "vagent-light"


async def test_failed_switch_keeps_the_connection(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("A_TOKEN", "demo-partner")
    monkeypatch.delenv("C_TOKEN", raising=False)
    monkeypatch.setenv("D_TOKEN", "not-a-key")
    config = _config(
        a=cfg.Profile("a", URL, token_env="A_TOKEN"),
        c=cfg.Profile("c", URL, token_env="C_TOKEN"),
        d=cfg.Profile("d", URL, token_env="D_TOKEN"),
    )
    app = _app(config, "a")
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settle(pilot)
        client = app.connection.client
        app.switch_profile("c")
        await settle(pilot)
        app.switch_profile("d")
        await settle(pilot)
        profile = app.connection.profile
        assert app.connection.client is client and profile is not None and profile.name == "a"
        notes = _notes(app)
        assert any("profile c" in n and "C_TOKEN" in n and "still on a" in n for n in notes)
        assert any("profile d" in n and "still on a" in n for n in notes)
        assert not client.sender.is_closed  # type: ignore[union-attr]


# ---------------------------------------------------------------------- read-only, banner


async def test_prod_profile_banner_and_read_only_refusals() -> None:
    config = _config(p=cfg.Profile("p", URL, tier="prod", token_env="X"))
    app = _app(config, "p", screen="sip")
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settle(pilot)
        sim = sim_of(app)
        bar = _bar(app)
        assert bar.has_class("-tier-prod") and " PROD " in str(bar.content)
        assert "read-only" in str(bar.content)
        assert app.read_only and app.connection.api.read_only
        footer = {b.binding.action for b in app.screen.active_bindings.values() if b.enabled}
        assert "add" not in footer and "remove" not in footer and "reload" in footer
        before = len(sim.requests)
        await pilot.press("a")
        await settle(pilot)
        assert type(app.screen).__name__ == "SipScreen"  # no form opened
        assert any(n == "Read-only profile: Add is disabled" for n in _notes(app))
        await pilot.press("d")
        await settle(pilot)
        assert any(n == "Read-only profile: Remove is disabled" for n in _notes(app))
        assert [r for r in sim.requests[before:] if r.method != "GET"] == []
        # The palette does not offer it either.
        commands = [c.title for c in app.get_system_commands(app.screen)]
        assert "sip: Add" not in commands and "sip: Refresh" in commands
        # Every screen carries the marker.
        await pilot.press("7")
        await settle(pilot)
        assert " PROD " in str(_bar(app).content) and _bar(app).has_class("-tier-prod")


async def test_transport_refuses_writes_even_from_a_form_button() -> None:
    from vagent_tui.api.errors import ReadOnlyRefused

    app = _app(None, None, read_only=True, screen="sip")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        sim = sim_of(app)
        before = sim.count("POST")
        with pytest.raises(ReadOnlyRefused):
            await app.connection.api.add_sip_entry("10.0.0.1")
        assert sim.count("POST") == before


async def test_prod_profile_may_allow_changes_and_demo_is_read_write() -> None:
    config = _config(p=cfg.Profile("p", URL, tier="prod", read_only=False, token_env="X"))
    app = _app(config, "p", screen="sip")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert not app.read_only and _bar(app).has_class("-tier-prod")
        footer = {b.binding.action for b in app.screen.active_bindings.values() if b.enabled}
        assert "add" in footer
    demo = _app(None, None, screen="tokens")
    async with demo.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert not demo.read_only and "read-only" not in str(_bar(demo).content)


# ---------------------------------------------------------------------- theme, keymap


async def test_theme_choice_is_remembered_in_the_profile() -> None:
    config = _config(a=cfg.Profile("a", URL, token_env="X"))
    app = _app(config, "a")
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settle(pilot)
        app.theme = "vagent-high-contrast"  # what the palette's "Change theme" does
        await pilot.pause()
    saved = cfg.load()
    assert saved.profiles["a"].theme == "vagent-high-contrast" and saved.theme is None


async def test_theme_choice_without_profile_goes_to_the_top_level() -> None:
    app = _app(cfg.load(), None)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.action_change_theme()
        await pilot.pause()
        app.screen.query_one(Input).value = "vagent-ansi"
        await _until_listed(pilot, app.screen, "vagent-ansi")
        await pilot.press("enter")
        await settle(pilot)
        assert app.theme == "vagent-ansi"
    assert cfg.load().theme == "vagent-ansi"


async def test_keymap_override_from_the_profile() -> None:
    config = _config(a=cfg.Profile("a", URL, token_env="X", keymap={"goto.voices": "f3"}))
    app = _app(config, "a")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        commands = {c.title: c.help for c in app.get_system_commands(app.screen)}
        assert "(key f3)" in commands["screen: Voices"]
        await pilot.press("f3")
        await settle(pilot)
        assert app.current_mode == "voices"
        await pilot.press("3")  # the default key is replaced
        await pilot.press("1")
        await settle(pilot)
        assert app.current_mode == "scope"


async def test_unknown_keymap_ids_are_named_in_a_warning() -> None:
    keymap = {"goto.voices": "f3", "voices.cpy": "y", "nonsense": "z"}
    config = _config(a=cfg.Profile("a", URL, token_env="X", keymap=keymap))
    app = _app(config, "a")
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settle(pilot)
        await app.workers.wait_for_complete()
        await pilot.pause()
        warnings = [n for n in _notes(app) if "unknown binding ids" in n]
        assert len(warnings) == 1, _notes(app)
        assert "'nonsense', 'voices.cpy'" in warnings[0] and "goto.voices" not in warnings[0]
        assert "vagent-tui keys" in warnings[0]


async def test_a_keymap_of_known_ids_gets_no_warning() -> None:
    config = _config(a=cfg.Profile("a", URL, token_env="X", keymap={"voices.copy": "y"}))
    app = _app(config, "a")
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settle(pilot)
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert not [n for n in _notes(app) if "keymap" in n]


# ---------------------------------------------------------------------- copy


async def test_copy_osc52_then_ctrl_y_shows_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VAGENT_COPY", "osc52")
    app = _app(None, None)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settle(pilot)
        app.copy_text("voice-123", "voice id")
        assert app.clipboard == "voice-123"
        assert all("voice-123" not in n for n in _notes(app))
        await pilot.press("ctrl+y")
        await pilot.pause()
        assert isinstance(app.screen, TextModal) and app.screen.text == "voice-123"


async def test_copy_falls_back_to_a_modal_and_never_keeps_secrets(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("VAGENT_COPY", "modal")
    app = _app(None, None)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settle(pilot)
        app.copy_text('{"a": 1}', "JSON")
        await pilot.pause()
        assert isinstance(app.screen, TextModal) and app.screen.text == '{"a": 1}'
        await pilot.press("escape")
        app.copy_text("tok-secret-value", "new token", secret=True)
        await pilot.pause()
        assert not isinstance(app.screen, TextModal) and app.last_copied is None
        assert all("tok-secret-value" not in n for n in _notes(app))


def test_copy_method_detection() -> None:
    from vagent_tui.ui.clipboard import copy_method

    assert copy_method({"TERM": "xterm-256color"}) == "osc52"
    assert copy_method({"TERM": "linux"}) == "modal"
    assert copy_method({}) == "modal"
    assert copy_method({"TERM": "xterm", "TERM_PROGRAM": "Apple_Terminal"}) == "modal"
    assert copy_method({"TERM": "screen", "STY": "1.pts"}) == "modal"
    tmux = {"TERM": "tmux-256color", "TMUX": "/tmp/t,1,0"}
    assert copy_method(tmux, tmux_option="off") == "modal"
    assert copy_method(tmux, tmux_option="external") == "osc52"
    assert copy_method({"TERM": "linux", "VAGENT_COPY": "osc52"}) == "osc52"


def test_copy_in_a_browser_goes_to_the_browsers_clipboard_whatever_the_servers_terminal() -> None:
    """Under `vagent-tui serve` the server's TERM, screen or tmux say nothing of the page."""
    from vagent_tui.ui.clipboard import copy_method

    for env in ({}, {"TERM": "linux"}, {"TERM": "screen", "STY": "1.pts"}):
        assert copy_method(env, web=True) == "osc52"
    tmux = {"TERM": "tmux-256color", "TMUX": "/tmp/t,1,0"}
    assert copy_method(tmux, tmux_option="off", web=True) == "osc52"
    assert copy_method({"VAGENT_COPY": "modal"}, web=True) == "modal"


async def test_agent_json_copies(make_app: MakeApp, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VAGENT_COPY", "osc52")
    app = make_app("agent", account=1111)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settle(pilot)
        await pilot.press("y")
        await pilot.pause()
        assert app.clipboard.startswith("{") and '"' in app.clipboard
        assert any(n.startswith("Copied live configuration JSON") for n in _notes(app))


async def test_config_text_in_the_palette_is_literal_and_inert() -> None:
    # Textual reads palette titles and help as markup: a token command with a lone
    # [/] ended the app, and an escape sequence in it reached the terminal.
    config = _config(
        a=cfg.Profile("a", URL, token_env="A_TOKEN"),
        b=cfg.Profile("b", URL, token_command="pass show [/] \x1b]0;pwned\x07 [b]x"),
    )
    app = _app(config, "a")
    async with app.run_test(size=(160, 40)) as pilot:
        await settle(pilot)
        await pilot.press("colon")
        await pilot.pause()
        await pilot.press(*"profile")

        def text() -> str:
            return html.unescape(app.export_screenshot()).replace("\xa0", " ")

        await wait_for(pilot, lambda: "pass show" in text())
        assert "'pass show [/] \\x1b]0;pwned\\x07 [b]x'" in text()  # literal, never markup
        assert "\x1b" not in text() and app.is_running


async def test_a_slow_reconnect_does_not_undo_a_profile_switch() -> None:
    from tests.helpers import settle, wait_for
    from vagent_tui.services.connect import demo_client

    first = demo_client("no-such-token")
    app = VagentApp(first, profile_label="first", initial_screen="voices")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert not app.connection.connected
        first.sim_app.state.sim.latency_ms = 600
        app.connect()  # r: a slow retry with the first key
        await pilot.pause(0.1)
        second = demo_client("demo-partner")
        assert await app.connect_profile(second, None, label="second")
        await pilot.pause(1.0)  # the first retry ends (unauthorized) meanwhile
        await wait_for(pilot, lambda: not any(w.group == "connect" for w in app.workers
                                              if w.is_running))  # fmt: skip
        assert app.connection.client is second
        assert app.connection.connected and app.connection.error is None
