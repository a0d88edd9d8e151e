"""Pilot flows of the Functions checklist: rows, cross-check findings, views, copy, errors.

Seed facts used (vagent_tui/sim/seed.py, catalog.py): agent 1113 is on the starter plan
with only the sms integration and no Computer Agent; it configures ``endCall`` twice
(limit 1), ``scheduleCallback`` and ``webSearch`` (paid plan needed) and
``runComputerTask`` (Computer Agent needed). Agent 1311 configures ``transferCall`` 12
times (limit 10) and nothing else is wrong.
"""

from __future__ import annotations

import io
from typing import Any

import pytest
from rich.console import Console
from textual.widgets import DataTable, Static

from tests.helpers import MakeApp, fail_once, settle, shown
from vagent_tui.api.errors import ApiError
from vagent_tui.ui.colours import FAILED, OK
from vagent_tui.ui.screens.functions import FunctionsScreen

FUNCTIONS = "/api/v2/agent/functions"
LIVE = "/api/v2/agentEventRules/default"


def text_of(screen: Any, selector: str) -> str:
    console = Console(width=300, file=io.StringIO(), record=True)
    console.print(screen.query_one(selector, Static).content)
    return console.export_text()


def row_names(screen: Any) -> list[str]:
    table = screen.query_one("#functions-table", DataTable)
    return [str(key.value) for key in table.rows]


def move_to(screen: Any, name: str) -> None:
    table = screen.query_one("#functions-table", DataTable)
    table.move_cursor(row=row_names(screen).index(name), animate=False)


def requests(app: Any, path: str) -> list[Any]:
    return [r for r in app.connection.api.sim_app.state.sim.requests if r.path == path]


async def test_checklist_and_findings_of_an_agent(make_app: MakeApp) -> None:
    app = make_app("functions", account=1113)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, FunctionsScreen)
        assert type(screen).__name__ == "FunctionsScreen"
        names = row_names(screen)
        assert len(names) == 24 and names[0] == "transferCall"
        assert requests(app, FUNCTIONS)[-1].query["targetAccountId"] == "1113"
        table = screen.query_one("#functions-table", DataTable)
        allowed = table.get_cell("transferCall", "allowed")
        refused = table.get_cell("webSearch", "allowed")
        assert allowed.plain == "✓ yes" and str(allowed.style) == OK
        assert refused.plain == "✗ no" and str(refused.style) == FAILED
        assert table.get_cell("endCall", "configured").plain == "2 ⚠"
        assert table.get_cell("transferCall", "configured").plain == "1"
        assert table.get_cell("sendSms", "configured").plain == ""
        assert table.get_cell("webSearch", "paid").plain == "yes"
        assert table.get_cell("runComputerTask", "computer").plain == "yes"

        findings = text_of(screen, "#functions-findings")
        assert "4 problems with the 9 configured functions" in findings
        assert "endCall configured 2 times, limit 1" in findings
        assert "webSearch not allowed (This function requires a paid account)" in findings
        assert "scheduleCallback not allowed (This function requires a paid account)" in findings
        assert (
            "runComputerTask not allowed (No Computer Agent is configured for this agent)"
            in findings
        )
        assert screen.query_one("#functions-findings").has_class("-problems")

        move_to(screen, "webSearch")
        await pilot.pause()
        detail = text_of(screen, "#functions-detail")
        for expected in (
            "webSearch",
            "Web search",
            "Search the web for up-to-date answers.",
            "This function requires a paid account",
            "Upgrade to a paid plan",
            "https://vida.io/docs/functions/webSearch",
            "Describe when the agent should use web search",
            "configured but not allowed",
        ):
            assert expected in detail, expected


async def test_over_limit_on_another_agent_and_target_change(make_app: MakeApp) -> None:
    app = make_app("functions", account=1113)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, FunctionsScreen)
        app.select_target(1311)
        await settle(pilot)
        assert requests(app, FUNCTIONS)[-1].query["targetAccountId"] == "1311"
        assert requests(app, LIVE)[-1].query["targetAccountId"] == "1311"
        findings = text_of(screen, "#functions-findings")
        assert "1 problem with the 15 configured functions" in findings
        assert "transferCall configured 12 times, limit 10" in findings
        assert "endCall" not in findings
        table = screen.query_one("#functions-table", DataTable)
        assert table.get_cell("transferCall", "configured").plain == "12 ⚠"
        assert table.get_cell("endCall", "configured").plain == "1"


async def test_views_cycle(make_app: MakeApp) -> None:
    app = make_app("functions", account=1113)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, FunctionsScreen)
        by_name = {f.name: f for f in screen.functions}
        await pilot.press("v")
        names = row_names(screen)
        assert names and all(by_name[n].allowed is False for n in names)
        assert len(names) == 13
        assert "view: unavailable" in text_of(screen, "#functions-view")
        await pilot.press("v")
        assert set(row_names(screen)) == {
            "transferCall",
            "endCall",
            "lookupContact",
            "addNote",
            "transferToVoicemail",
            "scheduleCallback",
            "webSearch",
            "runComputerTask",
        }
        await pilot.press("v")
        assert row_names(screen) == ["endCall", "scheduleCallback", "webSearch", "runComputerTask"]
        assert text_of(screen, "#functions-summary").startswith("4 of 24 functions")
        await pilot.press("v")
        assert len(row_names(screen)) == 24


async def test_copy_docs_url_or_name(make_app: MakeApp) -> None:
    app = make_app("functions", account=1113)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settle(pilot)
        screen = shown(app, FunctionsScreen)
        await pilot.press("y")
        assert app.clipboard == "https://vida.io/docs/functions/transferCall"
        await pilot.press("Y")
        assert app.clipboard == "transferCall"
        move_to(screen, "endCall")  # no docs page: the name is copied
        await pilot.pause()
        await pilot.press("y")
        assert app.clipboard == "endCall"


async def test_a_platform_refusing_a_non_agent_account_gets_a_hint(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The spec evaluates any account; a platform that refuses one gets a way out."""
    app = make_app("functions")  # the partner key acting as itself
    real = app.connection.api.list_functions

    async def agents_only(target: int) -> Any:
        if target < 1111:
            raise ApiError(400, "targetAccountId must select an agent account")
        return await real(target=target)

    monkeypatch.setattr(app.connection.api, "list_functions", agents_only)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, FunctionsScreen)
        assert requests(app, LIVE) == []
        status = text_of(screen, "#status")
        assert "targetAccountId must select an agent account" in status
        findings = text_of(screen, "#functions-findings")
        assert "Select an agent account on the Scope screen (1)" in findings
        assert row_names(screen) == []
        # Choosing an agent account fills the checklist.
        app.select_target(1112)
        await settle(pilot)
        assert len(row_names(screen)) == 24
        findings = text_of(screen, "#functions-findings")
        assert "pauseRecording not allowed (This function has been retired)" in findings


async def test_a_non_agent_account_gets_its_list_and_a_cross_check_hint(make_app: MakeApp) -> None:
    app = make_app("functions", account=1110)  # an organization
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, FunctionsScreen)
        # The list is asked for with the acting account's id; the cross-check is not.
        assert requests(app, FUNCTIONS)[-1].query["targetAccountId"] == "1110"
        assert requests(app, LIVE) == []
        assert len(row_names(screen)) == 24
        assert "24 functions for Acme Dental Group" in text_of(screen, "#status")
        findings = text_of(screen, "#functions-findings")
        assert "needs an agent account (organization account selected)" in findings
        table = screen.query_one("#functions-table", DataTable)
        assert table.get_cell("transferCall", "configured").plain == "—"


async def test_api_error_shown_and_retry(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app("functions", account=1113)
    fail_once(monkeypatch, app.connection.api, "list_functions", ApiError(500, "boom"))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, FunctionsScreen)
        status = text_of(screen, "#status")
        assert "HTTP 500: boom" in status and "press r to retry" in status
        assert row_names(screen) == []
        await pilot.press("r")
        await settle(pilot)
        assert len(row_names(screen)) == 24
        assert "4 problems" in text_of(screen, "#functions-findings")
        assert "boom" not in text_of(screen, "#status")


async def test_live_read_failure_keeps_the_list(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app("functions", account=1113)

    async def broken(**kwargs: Any) -> Any:
        raise ApiError(500, "config store down")

    monkeypatch.setattr(app.connection.api, "get_live", broken)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, FunctionsScreen)
        assert len(row_names(screen)) == 24
        assert "config store down" in text_of(screen, "#functions-findings")
        status = text_of(screen, "#status")
        assert "Agent configuration: HTTP 500: config store down" in status
        assert "press r to retry" in status
