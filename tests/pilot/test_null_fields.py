"""A ``null`` where the platform showed a string or a list costs nothing but that value.

The record is listed, the value shows as ``—``, a ``null`` list item is skipped
(issue 15, point 6); a token ``timestamp`` sent as a number and an
``autoRecordingNotification`` sent as a boolean are read as well (point 7).
"""

from __future__ import annotations

import io
from typing import Any

import pytest
from rich.console import Console
from textual.widgets import DataTable, Static

from tests.helpers import MakeApp, settle, shown, sim_of
from vagent_tui.sim import catalog, routes_agents
from vagent_tui.ui.screens.agent import AgentScreen
from vagent_tui.ui.screens.tokens import TokensScreen
from vagent_tui.ui.screens.voices import VoicesScreen
from vagent_tui.ui.widgets.record_table import RecordTable

AGENT = 1111


def text_of(screen: Any, selector: str) -> str:
    console = Console(width=300, file=io.StringIO(), record=True)
    console.print(screen.query_one(selector, Static).content)
    return console.export_text()


def cells(table: DataTable[Any] | RecordTable[Any], row: int) -> list[str]:
    return [str(getattr(cell, "plain", cell)) for cell in table.get_row_at(row)]


async def test_a_token_with_nulls_and_a_numeric_timestamp_is_listed(make_app: MakeApp) -> None:
    app = make_app("tokens")
    secret = "sk_nulls_" + "0" * 24
    sim_of(app).tokens[secret] = {"token": secret, "description": None, "type": None,
                                  "timestamp": 1750194180352, "userId": 1000}  # fmt: skip
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, TokensScreen)
        table = screen.query_one("#tokens-table", RecordTable)
        rows = [cells(table, k) for k in range(table.row_count)]
        [row] = [r for r in rows if r[0].endswith("0000")]
        assert row[1:4] == ["—", "—", "2025-06-17 21:03 UTC"]
        assert "tokens" in str(screen.status.content) and "✗" not in str(screen.status.content)


async def test_voices_with_null_names_and_items_are_listed(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = catalog.voices_for

    def with_nulls(*args: Any, **kwargs: Any) -> list[Any]:
        voices = list(real(*args, **kwargs))
        first = {**voices[0], "name": None, "languages": [None, "en-US"], "provider": None}
        return [None, first, *voices[1:]]

    monkeypatch.setattr(routes_agents, "voices_for", with_nulls)
    app = make_app("voices")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, VoicesScreen)
        table = screen.query_one("#voices-table", DataTable)
        assert table.row_count == 34
        assert cells(table, 0)[:3] == ["—", "—", "en-US"]
        detail = text_of(screen, "#voices-detail")
        assert "openai-alloy" in detail and "Name" in detail


async def test_an_agent_configuration_with_nulls_is_shown(make_app: MakeApp) -> None:
    app = make_app("agent", account=AGENT)
    live = sim_of(app).live[AGENT]
    live["actions"] = [None, {**live["actions"][0], "instructions": None}]
    live.update(links=None, keywords=["front desk", None], title=None,
                autoRecordingNotification=True)  # fmt: skip
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, AgentScreen)
        fields = text_of(screen, "#agent-fields")
        assert "front desk" in fields
        assert "Functions (actions)" in fields and live["actions"][1]["name"] in fields
        assert "✗" not in str(screen.status.content)
