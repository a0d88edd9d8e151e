"""Pilot flows of the Agent screen: slots, every field, JSON, versions and renaming."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from rich.console import Console
from rich.syntax import Syntax
from textual.coordinate import Coordinate
from textual.widgets import DataTable, Input, Static

from tests.helpers import MakeApp, fail_once, known, settle, shown, sim_of
from vagent_tui.api.errors import ApiError
from vagent_tui.api.models import AgentConfig
from vagent_tui.ui.dialogs import PromptModal
from vagent_tui.ui.screens.agent import AgentScreen
from vagent_tui.ui.widgets.agent_view import GROUPS, LISTED

TITLE_PATH = "/api/v2/agent/cfg-1111/versions/{}/title"


def text_of(screen: Any, selector: str) -> str:
    """The plain text a Static shows, rendered on one wide console."""
    console = Console(width=300, file=io.StringIO(), record=True)
    console.print(screen.query_one(selector, Static).content)
    return console.export_text()


def test_every_spec_field_has_a_group() -> None:
    grouped = {key for _, keys in GROUPS for key in keys} | LISTED
    wire_names = {info.alias or name for name, info in AgentConfig.model_fields.items()}
    assert wire_names <= grouped, wire_names - grouped


async def test_live_and_staging_toggle(make_app: MakeApp) -> None:
    app = make_app("agent", account=1111)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, AgentScreen)
        assert "LIVE" in text_of(screen, "#agent-slot") and "cfg-1111" in text_of(
            screen, "#agent-slot"
        )
        live = sim_of(app).live[1111]
        staging = known(sim_of(app).staging[1111])
        fields = text_of(screen, "#agent-fields")
        assert live["welcomeMessage"] in fields
        for title in ("Identity and instructions", "Model and thinking", "Transfers",
                      "CNAM rules", "Functions (actions)", "Effective reporting fields",
                      "Apps", "Skills", "Heartbeat", "Event rules"):  # fmt: skip
            assert title in fields
        assert "activeHours" in fields and "08:00–18:00" in fields
        assert "reseller" in fields  # the source of an effective reporting field
        # Unknown extras are shown, not hidden.
        assert "Other fields" in fields and "templateId" in fields
        await pilot.press("s")
        await pilot.pause()
        slot = text_of(screen, "#agent-slot")
        assert "STAGING" in slot and "differ from live" in slot
        assert staging["welcomeMessage"] in text_of(screen, "#agent-fields")
        await pilot.press("s")
        await pilot.pause()
        assert "LIVE" in text_of(screen, "#agent-slot")


async def test_staging_empty_falls_back_to_live(make_app: MakeApp) -> None:
    app = make_app("agent", account=1113)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, AgentScreen)
        await pilot.press("s")
        await pilot.pause()
        slot = text_of(screen, "#agent-slot")
        assert "STAGING" in slot and "staging is empty: showing the live configuration" in slot
        assert sim_of(app).live[1113]["welcomeMessage"] in text_of(screen, "#agent-fields")
        # Functions that are not allowed say why, with a glyph.
        fields = text_of(screen, "#agent-fields")
        assert "✗ no" in fields and "requires a paid account" in fields


async def test_json_view_is_the_whole_configuration(make_app: MakeApp) -> None:
    app = make_app("agent", account=1111)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, AgentScreen)
        await pilot.press("J")
        await pilot.pause()
        assert screen.tabs.active == "tab-json"
        syntax = screen.query_one("#agent-json", Static).content
        assert isinstance(syntax, Syntax)
        assert json.loads(syntax.code) == sim_of(app).live[1111]
        await pilot.press("J")
        await pilot.pause()
        assert screen.tabs.active == "tab-config"


async def test_versions_and_rename(make_app: MakeApp) -> None:
    app = make_app("agent", account=1111)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, AgentScreen)
        await pilot.press("v")
        await pilot.pause()
        table = screen.query_one("#agent-versions", DataTable)
        versions = sim_of(app).versions[1111]
        assert table.row_count == len(versions)
        second = versions[1]
        assert str(table.get_cell_at(Coordinate(1, 0))) == second["title"]
        assert str(table.get_cell_at(Coordinate(1, 2))) == str(second["versionId"])
        await pilot.press("down", "e")
        await pilot.pause()
        assert isinstance(app.screen, PromptModal)
        field = app.screen.query_one(Input)
        assert field.value == second["title"]
        field.value = "After the move"
        await pilot.press("enter")
        await settle(pilot)
        assert second["title"] == "After the move"  # the simulator's state changed
        assert str(table.get_cell_at(Coordinate(1, 0))) == "After the move"
        assert "is now titled “After the move”" in text_of(screen, "#status")


async def test_rename_empty_is_refused_and_sends_nothing(make_app: MakeApp) -> None:
    app = make_app("agent", account=1111)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        sim = sim_of(app)
        before = len(sim.requests)
        await pilot.press("e")
        await pilot.pause()
        modal = app.screen
        assert isinstance(modal, PromptModal)
        modal.query_one(Input).value = "   "
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is modal
        assert "A title cannot be empty" in str(modal.query_one("#prompt-error").render())
        await pilot.press("escape")
        await settle(pilot)
        assert len(sim.requests) == before
        assert "Rename cancelled; nothing was sent" in text_of(app.screen, "#status")


async def test_rename_server_error_keeps_the_text(make_app: MakeApp) -> None:
    app = make_app("agent", account=1111)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, AgentScreen)
        sim = sim_of(app)
        first = sim.versions[1111][0]
        wanted = "Before the spring campaign"
        sim.faults.set("500", methods=frozenset({"PUT"}), path_contains="/title", remaining=1)
        await pilot.press("e")
        await pilot.pause()
        app.screen.query_one(Input).value = wanted
        await pilot.press("enter")
        await settle(pilot)
        assert sim.count("PUT", TITLE_PATH.format(first["versionId"])) == 1
        assert first["title"] != wanted
        modal = app.screen
        assert isinstance(modal, PromptModal)  # opened again with what was typed
        assert modal.query_one(Input).value == wanted
        assert "Simulated internal server error" in modal.body_text
        assert "HTTP 500: Simulated internal server error" in text_of(screen, "#status")
        await pilot.press("enter")  # the fault was for one request only
        await settle(pilot)
        assert first["title"] == wanted


async def test_non_agent_target_shows_a_hint(make_app: MakeApp) -> None:
    app = make_app("agent")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, AgentScreen)
        assert screen.has_class("-no-agent")
        hint = text_of(screen, "#agent-hint")
        assert "Select an agent account on the Scope screen (1)" in hint
        assert "Northwind Voice Partners" in hint
        assert not [r for r in sim_of(app).requests if "agentEventRules" in r.path]
        # Following a target change: an agent account loads, an organization shows the hint.
        app.select_target(1121)
        await settle(pilot)
        assert not screen.has_class("-no-agent")
        assert "cfg-1121" in text_of(screen, "#agent-slot")
        app.select_target(1120)
        await settle(pilot)
        assert screen.has_class("-no-agent")


async def test_agent_level_key(make_app: MakeApp) -> None:
    app = make_app("agent", token="demo-agent")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, AgentScreen)
        assert app.connection.target is None
        assert "cfg-1111" in text_of(screen, "#agent-slot")
        staging = [r for r in sim_of(app).requests if r.path.endswith("/staging")]
        assert staging and "targetAccountId" not in staging[0].query


async def test_load_error_and_retry(make_app: MakeApp, monkeypatch: pytest.MonkeyPatch) -> None:
    app = make_app("agent", account=1111)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, AgentScreen)
        calls = fail_once(monkeypatch, app.connection.api, "get_live", ApiError(500, "boom"))
        await pilot.press("r")
        await settle(pilot)
        assert "HTTP 500: boom" in text_of(screen, "#status")
        assert "press r to retry" in text_of(screen, "#status")
        await pilot.press("r")
        await settle(pilot)
        assert calls["n"] == 2
        assert "cfg-1111" in text_of(screen, "#agent-slot")
        assert "Loaded" in text_of(screen, "#status")
