"""The words on screen say what is true now (issue 17, point 7).

No "Loading…" or connection error once the state changed; a refused token (401) says
how to give a new one, not "press r"; a failure the status line names is not also a toast.
"""

from __future__ import annotations

import io
from typing import Any

import pytest
from rich.console import Console
from textual.widgets import Static

from tests.helpers import MakeApp, client_of, fail_once, settle, shown
from vagent_tui import config as cfg
from vagent_tui.api.errors import ApiError, TransportError
from vagent_tui.ui.screens.agent import AgentScreen
from vagent_tui.ui.screens.base import BaseScreen
from vagent_tui.ui.screens.voices import VoicesScreen
from vagent_tui.ui.widgets.status import token_advice


def text_of(widget: Any) -> str:
    console = Console(width=400, file=io.StringIO(), record=True)
    console.print(widget.content if isinstance(widget, Static) else widget.render())
    return console.export_text()


def record_toasts(app: Any) -> list[str]:
    toasts: list[str] = []
    real = app.notify

    def notify(message: str, **kwargs: Any) -> None:
        toasts.append(message)
        real(message, **kwargs)

    app.notify = notify
    return toasts


async def test_a_refused_token_says_how_to_give_a_new_one(make_app: MakeApp) -> None:
    app = make_app("voices", token="not-a-demo-token")
    toasts = record_toasts(app)
    async with app.run_test(size=(160, 30)) as pilot:
        await settle(pilot)
        status = text_of(shown(app, BaseScreen).status)
        assert "401" in status, status
        assert "press r" not in status, status
        # The demo's own advice: the key goes on the command line, not in VAGENT_TOKEN.
        assert "--demo-token" in status and "VAGENT_TOKEN" not in status, status
        assert not any("Could not connect" in t for t in toasts), toasts  # the line says it


def test_without_a_profile_a_platform_key_is_given_through_the_environment() -> None:
    advice = token_advice(None)
    assert "VAGENT_TOKEN" in advice and "profile: new" in advice
    assert "--demo-token" in token_advice(None, demo=True)


def test_the_advice_names_the_profile_source_and_keeps_its_tier() -> None:
    env = cfg.Profile("ops", "https://api.example", tier="prod", token_env="OPS_TOKEN")
    assert "$OPS_TOKEN" in token_advice(env)
    stored = cfg.Profile("lab", "https://lab.example", tier="prod", token_file=True)
    advice = token_advice(stored)
    assert "vagent-tui profile add lab --base-url https://lab.example --tier prod" in advice
    assert "--token-stdin" in advice


async def test_agent_after_a_failed_connect_shows_the_failure_then_loads(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app("agent", account=1111)
    fail_once(monkeypatch, client_of(app), "get_account", TransportError("network down"))
    async with app.run_test(size=(120, 30)) as pilot:
        await settle(pilot)
        assert not app.connection.connected
        slot = text_of(app.screen.query_one("#agent-slot"))
        assert "Loading" not in slot and "Not connected" in slot and "network down" in slot
        assert "press r to retry" in text_of(shown(app, BaseScreen).status)
        await pilot.press("r")
        await settle(pilot)
        assert app.connection.connected
        status = text_of(shown(app, BaseScreen).status)
        assert "Not connected" not in status and "network down" not in status, status
        assert "LIVE" in text_of(app.screen.query_one("#agent-slot"))


async def test_loading_after_a_lost_connection_is_replaced_by_the_failure(
    make_app: MakeApp,
) -> None:
    """A screen left mid-load (its read cancelled) while the connection then fails."""
    app = make_app("agent", account=1111)
    async with app.run_test(size=(120, 30)) as pilot:
        await settle(pilot)
        agent = shown(app, AgentScreen)
        agent.slots = None
        agent.query_one("#agent-slot", Static).update("⟳ Loading…")
        await pilot.press("1")
        await settle(pilot)
        app.connection = app.connection.__class__(
            client_of(app), label="demo", error=ApiError(503, "Service Unavailable")
        )
        await pilot.press("2")
        await settle(pilot)
        slot = text_of(agent.query_one("#agent-slot"))
        assert "Loading" not in slot and "503" in slot, slot


async def test_a_target_refused_at_start_is_forgotten_once_another_is_picked(
    make_app: MakeApp,
) -> None:
    app = make_app("scope", account=987654)
    async with app.run_test(size=(120, 30)) as pilot:
        await settle(pilot)
        assert app.connection.connected and app.connection.error is not None
        info = text_of(app.screen.query_one("#scope-info"))
        assert "Could not connect" not in info, info  # it is connected
        assert "Could not act as the account asked for" in info, info
        app.select_target(1111)
        await settle(pilot)
        assert app.connection.target_id == 1111
        info = text_of(app.screen.query_one("#scope-info"))
        assert "Could not" not in info, info


def _watch(app: Any, *, dry_run: bool) -> None:
    from vagent_tui.api.models import MigrationTask

    reply = MigrationTask.model_validate(
        {
            "taskId": f"task-{dry_run}",
            "status": "running",
            "templateId": "tpl-1",
            "dryRun": dry_run,
        }
    )
    app.watcher.add(reply, template_name="Dental default")


async def test_quit_while_a_real_migration_runs_says_it_goes_on_and_asks(make_app: MakeApp) -> None:
    from vagent_tui.ui.dialogs import QuitConfirm

    app = make_app("scope")
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        _watch(app, dry_run=False)
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert isinstance(app.screen, QuitConfirm) and app.is_running
        body = text_of(app.screen.query_one("#confirm-body"))
        assert "continue on the platform" in body and "task-False" in body
        await pilot.press("escape")  # ESC stays
        await pilot.pause()
        assert app.is_running and not isinstance(app.screen, QuitConfirm)
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert isinstance(app.screen, QuitConfirm)
        await pilot.press("ctrl+q")  # asked once: ctrl+q again leaves
        await pilot.pause()
        assert not app.is_running, app.screen


async def test_quit_with_only_a_dry_run_running_asks_nothing(make_app: MakeApp) -> None:
    app = make_app("scope")
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        _watch(app, dry_run=True)
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert not app.is_running


async def test_a_staging_write_on_show_is_said_once(make_app: MakeApp) -> None:
    """The status line says the staging was saved; no toast repeats it."""
    app = make_app("voices", account=1111)
    toasts = record_toasts(app)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, VoicesScreen)
        assert isinstance(screen, BaseScreen)
        screen.notify_if_away("Staging saved: on show")
        assert toasts == []
        await pilot.press("1")
        await settle(pilot)
        screen.notify_if_away("Staging saved: away")
        assert toasts == ["Staging saved: away"]
