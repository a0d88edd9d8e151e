"""Pilot flows of the Fleet screen: questions fill the matrix, errors per account, cancel,
CSV export, a restricted member, the concurrency limit, a grown simulator.

Seed facts (vagent_tui/sim/seed.py): the demo partner has 13 voice agent accounts
(1111 ... 1322); the member 1119 may act on 1112 and 1113 only; every agent's junk inbox
has 240 rooms, 80 of them unread.
"""

from __future__ import annotations

import asyncio
import csv
import html
import io
from pathlib import Path
from typing import Any

import pytest
from textual import events
from textual.app import App
from textual.pilot import Pilot
from textual.widgets import Input

from tests.helpers import MakeApp, known, settle, shown, sim_of, wait_for
from vagent_tui.api.errors import ApiError
from vagent_tui.services.fleet import FleetAnswer
from vagent_tui.sim.catalog import functions_for
from vagent_tui.ui.colours import FAILED
from vagent_tui.ui.screens.base import BaseScreen
from vagent_tui.ui.screens.fleet import FleetScreen
from vagent_tui.ui.widgets.fleet_matrix import FleetMatrix
from vagent_tui.ui.widgets.held_select import HeldSelect

AGENTS = [1111, 1112, 1113, 1121, 1122, 1211, 1212, 1221, 1222, 1311, 1312, 1321, 1322]
FUNCTIONS = "/api/v2/agent/functions"
LIVE = "/api/v2/agentEventRules/default"
JUNK = "/api/v2/junkConversations"


def screen_text(app: Any) -> str:
    """What the terminal shows (the SVG export, with its entities decoded)."""
    return html.unescape(app.export_screenshot()).replace("\xa0", " ")


def table(app: App[Any]) -> FleetMatrix:
    return app.screen.query_one("#fleet-table", FleetMatrix)


def row_ids(app: Any) -> list[int]:
    return [int(key) for key in table(app).row_keys]


def cell(app: Any, account_id: int, column: str) -> str:
    return table(app).cell(str(account_id), column).plain


async def run_question(pilot: Pilot[None], app: Any) -> None:
    await pilot.press("s")
    await settle(pilot, rounds=200)


async def test_each_question_fills_the_matrix(make_app: MakeApp) -> None:
    app = make_app("fleet")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, FleetScreen)
        assert type(screen).__name__ == "FleetScreen" and screen.TITLE == "Fleet"
        assert row_ids(app) == AGENTS
        assert {cell(app, a, "result") for a in AGENTS} == {""}
        sim = sim_of(app)

        await run_question(pilot, app)
        assert sim.count("GET", FUNCTIONS) == 13
        assert {cell(app, a, "result") for a in AGENTS} == {"✓"}
        fns = functions_for(sim.accounts[1113])
        refused = [f["name"] for f in fns if not f["allowed"]]
        assert cell(app, 1113, "allowed") == str(len(fns) - len(refused))
        assert cell(app, 1113, "total") == str(len(fns))
        assert cell(app, 1113, "unavailable").startswith(refused[0])
        assert "13/13 answered · 0 errors" in str(screen.query_one("#fleet-summary").render())

        await pilot.press("v")  # live voice and engines
        await settle(pilot)
        assert screen.question.name == "voice"
        assert {cell(app, a, "result") for a in AGENTS} == {""}
        await run_question(pilot, app)
        assert sim.count("GET", LIVE) == 13
        live = sim.live[1112]
        assert cell(app, 1112, "voice") == live["agentVoice"] == "azure-dalia"
        assert cell(app, 1112, "tts") == live["agentTtsEngine"]
        assert cell(app, 1112, "stt") == live["agentSttEngine"]
        assert cell(app, 1112, "lang") == "es-MX"
        assert cell(app, 1112, "s2s") == "—" and cell(app, 1113, "s2s") == "openai"

        await pilot.press("v")  # junk inbox unread
        await settle(pilot)
        await run_question(pilot, app)
        junk = [r for r in sim.requests if r.path == JUNK]
        assert len(junk) == 13
        assert all(r.query["unread"] == "true" and r.query["pageSize"] == "1" for r in junk)
        assert {cell(app, a, "unread") for a in AGENTS} == {"80"}
        assert table(app).row_count == 13

        await pilot.press("v")  # calls in the last 24 h
        await settle(pilot)
        assert screen.question.name == "calls"
        await pilot.press("down")  # the detail of a highlighted row names the screen Enter opens
        await run_question(pilot, app)
        logs = [r for r in sim.requests if r.path == "/api/v2/logs"]
        assert len(logs) == 13 and all(int(r.query["start"]) > 0 for r in logs)
        assert all(cell(app, a, "calls").isdigit() for a in AGENTS)

        screen.query_one("#fleet-question", HeldSelect).value = "numbers"
        await settle(pilot)
        await run_question(pilot, app)
        assert sim.count("GET", "/api/v2/phoneNumbers") == 13
        none = [a for a in AGENTS if not sim.numbers.get(a)]
        shown_ids = [row_ids(app)[i] for i in table(app).shown_rows]
        assert none and shown_ids == none + [a for a in AGENTS if a not in none]
        assert cell(app, 1113, "count") == "0" and cell(app, 1112, "count") == "2"
        assert cell(app, 1111, "numbers") == sim.numbers[1111][0]["number"]


async def test_a_failing_account_shows_its_error_and_the_rest_fill(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app("fleet")
    real = app.connection.api.list_functions

    async def failing(target: int, **shared: bool) -> Any:
        if target == 1212:
            raise ApiError(500, "boom")
        return await real(target, **shared)

    monkeypatch.setattr(app.connection.api, "list_functions", failing)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await run_question(pilot, app)
        assert cell(app, 1212, "result") == "✗ HTTP 500: boom"
        assert str(table(app).cell("1212", "result").style) == FAILED
        assert cell(app, 1212, "allowed") == ""
        assert [a for a in AGENTS if cell(app, a, "result") == "✓"] == [
            a for a in AGENTS if a != 1212
        ]
        assert sim_of(app).count("GET", FUNCTIONS) == 12
        assert "1 with an error" in str(shown(app, BaseScreen).status.render())
        assert "12" not in str(shown(app, BaseScreen).status.render()).split("answered")[0].replace(
            "13", ""
        )


async def test_cancel_stops_further_requests(make_app: MakeApp) -> None:
    # 400 accounts, 100 ms each, at most 32 at a time (starting at 16): a whole run takes
    # a while, and a loaded machine's slow key leaves room
    app = make_app("fleet", accounts=400, latency_ms=100)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, rounds=200)
        assert table(app).row_count == 400
        sim = sim_of(app)
        screen = shown(app, FleetScreen)
        screen.concurrency = 32  # as `c` sets it
        screen.action_start()  # (a key press would wait for an idle app)
        while sim.count("GET", FUNCTIONS) < 16:
            await pilot.pause(0.02)
        await pilot.press("x")
        await settle(pilot)
        asked = sim.count("GET", FUNCTIONS)
        assert 16 <= asked < 200
        await asyncio.sleep(0.3)
        await pilot.pause()
        assert sim.count("GET", FUNCTIONS) == asked
        assert not screen.running
        results = [cell(app, a, "result") for a in row_ids(app)]
        assert results.count("✓") == len(screen.answers) == asked
        assert results.count("–") == 400 - asked
        assert "Cancelled" in str(screen.status.render())
        # escape cancels too, and a new run starts afresh
        screen.action_start()
        while sim.count("GET", FUNCTIONS) < asked + 8:
            await pilot.pause(0.02)
        await pilot.press("escape")
        await settle(pilot)
        assert not screen.running and sim.count("GET", FUNCTIONS) < asked + 200
        assert len(screen.answers) < 400


async def test_csv_export(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    app = make_app("fleet")
    real = app.connection.api.list_functions

    async def failing(target: int, **shared: bool) -> Any:
        if target == 1321:
            raise ApiError(403, "Target account is outside your hierarchy")
        return await real(target, **shared)

    monkeypatch.setattr(app.connection.api, "list_functions", failing)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await run_question(pilot, app)
        await pilot.press("w")
        await settle(pilot)
        modal = app.screen
        assert modal.query_one("#prompt-input", Input).value == "fleet-functions-2025-11-20.csv"
        await pilot.press("enter")
        await settle(pilot)
        path = tmp_path / "fleet-functions-2025-11-20.csv"
        text = path.read_text(encoding="utf-8")
        assert "demo-partner" not in text and "token" not in text
        rows = list(csv.reader(io.StringIO(text)))
        assert rows[0] == [
            "account_id",
            "account_name",
            "allowed",
            "total",
            "unavailable",
            "status",
            "error",
        ]
        assert [int(r[0]) for r in rows[1:]] == AGENTS
        by_id = {int(r[0]): r for r in rows[1:]}
        assert by_id[1111][1] == "Acme Dental Front Desk" and by_id[1111][5] == "ok"
        assert by_id[1321][5:] == ["error", "HTTP 403: Target account is outside your hierarchy"]
        assert str(path) in str(shown(app, BaseScreen).status.render())

        # exporting again over the same file asks first; cancelling keeps the file
        path.write_text("old", encoding="utf-8")
        await pilot.press("w")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert type(app.screen).__name__ == "ConfirmModal"
        await pilot.press("escape")
        await settle(pilot)
        assert path.read_text(encoding="utf-8") == "old"


async def test_restricted_member_sees_only_permitted_accounts(make_app: MakeApp) -> None:
    app = make_app("fleet", token="demo-member")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert row_ids(app) == [1112, 1113]
        await run_question(pilot, app)
        assert {cell(app, a, "result") for a in (1112, 1113)} == {"✓"}
        targets = {r.query.get("targetAccountId") for r in sim_of(app).requests
                   if r.path == FUNCTIONS}  # fmt: skip
        assert targets == {"1112", "1113"}


async def test_concurrency_setting_bounds_requests_in_flight(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app("fleet", accounts=60)
    real = app.connection.api.list_functions
    flight = {"now": 0, "max": 0}

    async def tracked(target: int, **shared: bool) -> Any:
        flight["now"] += 1
        flight["max"] = max(flight["max"], flight["now"])
        try:
            await asyncio.sleep(0.005)
            return await real(target, **shared)
        finally:
            flight["now"] -= 1

    monkeypatch.setattr(app.connection.api, "list_functions", tracked)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, rounds=100)
        # the ceiling; a run starts at half of it and adapts
        assert shown(app, FleetScreen).concurrency == 100
        await run_question(pilot, app)
        assert known(shown(app, FleetScreen).limit).history[0] == 50
        assert 50 <= flight["max"] <= 100 and len(shown(app, FleetScreen).answers) == 60
        await pilot.press("c")
        await settle(pilot)
        inp = app.screen.query_one("#prompt-input", Input)
        inp.value = "3"
        await pilot.press("enter")
        await settle(pilot)
        assert shown(app, FleetScreen).concurrency == 3
        flight["max"] = 0
        await run_question(pilot, app)
        assert flight["max"] == 3 and len(shown(app, FleetScreen).answers) == 60


async def test_two_hundred_accounts_complete(make_app: MakeApp) -> None:
    app = make_app("fleet", accounts=200)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, rounds=200)
        ids = row_ids(app)
        assert len(ids) == 200 and ids == sorted(ids)
        await run_question(pilot, app)
        screen = shown(app, FleetScreen)
        assert len(screen.answers) == 200 and screen.errors == 0
        assert table(app).row_count == 200
        assert sim_of(app).count("GET", FUNCTIONS) == 200
        assert "200 answered" in str(screen.status.render())


async def test_target_change_keeps_the_fleet(make_app: MakeApp) -> None:
    app = make_app("fleet")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await run_question(pilot, app)
        listed = sim_of(app).count("GET", "/api/v2/listResellers")
        app.select_target(1111)
        await settle(pilot)
        assert len(shown(app, FleetScreen).answers) == 13
        assert sim_of(app).count("GET", "/api/v2/listResellers") == listed
        await pilot.press("r")
        await settle(pilot)
        assert sim_of(app).count("GET", "/api/v2/listResellers") == listed + 1
        assert shown(app, FleetScreen).answers == {} and row_ids(app) == AGENTS


# ---------------------------------------------------------------------------- one account


def detail(app: Any) -> str:
    return str(app.screen.query_one("#fleet-detail-text").render())


def wheel(widget: Any, *, down: bool = True) -> None:
    """One turn of the mouse wheel over ``widget``."""
    kind = events.MouseScrollDown if down else events.MouseScrollUp
    widget.post_message(kind(widget, 2, 2, 0, 1 if down else -1, 0, False, False, False))


@pytest.mark.parametrize(
    ("turns", "opens"),
    [
        (0, "FunctionsScreen"),
        (1, "AgentScreen"),
        (2, "InboxScreen"),
        (3, "CallsScreen"),
        (4, "UsageScreen"),
    ],
)
async def test_enter_acts_as_the_account_and_opens_the_questions_screen(
    make_app: MakeApp, turns: int, opens: str
) -> None:
    app = make_app("fleet")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        for _ in range(turns):  # functions -> voice -> junk -> calls -> usage
            await pilot.press("v")
            await settle(pilot)
        await run_question(pilot, app)
        assert app.connection.target is None
        await pilot.press("down", "down")  # 1113
        assert table(app).highlighted_account() == 1113
        await pilot.press("enter")
        await wait_for(pilot, lambda: type(app.screen).__name__ == opens)
        assert app.connection.acting_id == 1113
        await settle(pilot)
        assert "Acme Dental After Hours" in screen_text(app)
        # back in Fleet: the answers are kept (the fleet is the key's, not the target's)
        await app.run_action("app.show('fleet')")
        await settle(pilot)
        assert len(shown(app, FleetScreen).answers) == 13 and row_ids(app) == AGENTS


async def test_enter_on_a_running_fleet_does_not_leave(make_app: MakeApp) -> None:
    app = make_app("fleet", accounts=400, latency_ms=100)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, rounds=200)
        # Slow answers (5 s) from now: the run is still going when enter comes, on a
        # busy machine too.
        sim_of(app).latency_ms = 5000
        screen = shown(app, FleetScreen)
        screen.action_start()
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is screen and app.connection.target is None
        # the question's list stays shut while it is asked, and says why
        question = screen.query_one("#fleet-question", HeldSelect)
        question.focus()
        await pilot.press("enter")
        await pilot.pause()
        assert not question.expanded and question.held is not None
        await pilot.press("x")
        await settle(pilot)
        assert question.held is None
        question.focus()
        await pilot.press("enter")
        await pilot.pause()
        assert question.expanded


async def test_the_whole_unavailable_list_scrolls_with_keys_and_wheel(make_app: MakeApp) -> None:
    app = make_app("fleet")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await run_question(pilot, app)
        await pilot.press("down", "down")  # 1113: 13 unavailable functions
        refused = [f["name"] for f in functions_for(sim_of(app).accounts[1113]) if not f["allowed"]]
        text = detail(app)
        assert len(refused) > 6 and "1113" in text and f"unavailable ({len(refused)})" in text
        assert all(name in text.splitlines()[2 + i] for i, name in enumerate(refused))
        pane = app.screen.query_one("#fleet-detail")
        assert pane.max_scroll_y > 0 and pane.scroll_y == 0  # more names than lines
        await pilot.click("#fleet-detail")
        assert pane.has_focus
        await pilot.press("down", "down")
        await settle(pilot)
        assert pane.scroll_y == 2
        await pilot.press("end")
        await settle(pilot)
        assert pane.scroll_y == pane.max_scroll_y
        await pilot.press("home")
        await settle(pilot)
        wheel(pane)
        await settle(pilot)
        assert pane.scroll_y > 0


async def test_the_matrix_scrolls_with_keys_wheel_and_click(make_app: MakeApp) -> None:
    app = make_app("fleet", accounts=200)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, rounds=200)
        matrix = table(app)
        ids = row_ids(app)
        assert matrix.has_focus and matrix.highlighted_account() == ids[0]
        await pilot.press("end")
        await settle(pilot)
        assert matrix.highlighted_account() == ids[-1] and matrix.scroll_y == matrix.max_scroll_y
        assert str(ids[-1]) in screen_text(app) and str(ids[-1]) in detail(app)
        await pilot.press("home", "pagedown")
        await settle(pilot)
        assert matrix.cursor_row > 1 and matrix.scroll_y == 0
        await pilot.press("home")
        wheel(matrix)
        wheel(matrix)
        await settle(pilot)
        top = matrix.scroll_y
        assert top > 0 and matrix.highlighted_account() == ids[0]  # the wheel moves the view
        await pilot.click("#fleet-table", offset=(10, 3))  # the third row in view
        await settle(pilot)
        assert matrix.highlighted_account() == ids[int(top) + 2]
        assert str(ids[int(top) + 2]) in detail(app)


async def test_an_answer_repaints_its_own_row_only(make_app: MakeApp) -> None:
    app = make_app("fleet", accounts=400)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, rounds=200)
        matrix = table(app)
        await run_question(pilot, app)
        assert len(shown(app, FleetScreen).answers) == 400
        ids = row_ids(app)
        # about 10 rows are in view: each is drawn a few times (waiting, answered, a
        # column growing); the rows out of view are not drawn at all
        assert matrix.repainted_rows < 100
        drawn = matrix.repainted_rows

        def changed(account_id: int) -> FleetAnswer:
            answer = shown(app, FleetScreen).answers[account_id]
            values = dict(answer.values, allowed=answer.values["allowed"] - 1)
            return FleetAnswer(account_id, values)

        matrix.show_answer(changed(ids[300]))  # out of view: kept, not drawn
        await settle(pilot)
        assert matrix.repainted_rows == drawn
        matrix.show_answer(changed(ids[2]))  # in view: that row alone is drawn again
        await settle(pilot)
        assert matrix.repainted_rows == drawn + 1
        await pilot.press("end")
        await settle(pilot)
        assert cell(app, ids[300], "allowed") == str(changed(ids[300]).values["allowed"])


async def test_accounts_answering_alike_share_their_cells_made_inert(make_app: MakeApp) -> None:
    """One shared answer's cells are made (and made inert) once for every row holding it;
    an equal answer that is another object gets its own, equal cells."""
    app = make_app("fleet")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, rounds=200)
        matrix = table(app)
        hostile = {"allowed": 1, "total": 2, "unavailable": ("[red]x[/red]\x1b[2J",)}
        first, second, third = AGENTS[:3]
        matrix.show_waiting(AGENTS)
        matrix.show_answer(FleetAnswer(first, hostile))
        matrix.show_answer(FleetAnswer(second, hostile))
        matrix.show_answer(FleetAnswer(third, dict(hostile)))
        await settle(pilot)
        shared = matrix.cell(str(first), "unavailable")
        assert matrix.cell(str(second), "unavailable") is shared
        assert matrix.cell(str(third), "unavailable") is not shared
        for account in (first, third):
            text = matrix.cell(str(account), "unavailable").plain
            assert text.startswith("[red]x[/red]") and "\x1b" not in text
        assert cell(app, third, "allowed") == "1"


async def test_slash_filters_the_matrix_and_enter_opens_the_row_shown(make_app: MakeApp) -> None:
    """``/`` on Fleet as on every list: the words narrow the rows (id, name, answers),
    the count says so, enter acts on the row highlighted among those shown, esc shows
    every row again."""
    from textual.widgets import Static

    from vagent_tui.ui.widgets.table_filter import FilterInput, FilterRow

    app = make_app("fleet")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await run_question(pilot, app)
        matrix = table(app)
        assert matrix.row_count == 13
        await pilot.press("slash")
        await settle(pilot)
        field = app.screen.focused
        assert isinstance(field, FilterInput)
        await pilot.press(*"METRO")
        await settle(pilot)
        row = field.parent
        assert isinstance(row, FilterRow)
        assert matrix.row_count == 2 and matrix.total_rows == 13
        assert str(row.query_one(".table-filter-count", Static).content) == "2 of 13 rows"
        assert matrix.highlighted_account() == 1221  # Metro Service Desk, the first shown
        assert "Metro Parts Line" in screen_text(app)
        assert "Acme Dental Front Desk" not in screen_text(app)
        await pilot.press("enter")  # back to the matrix, still filtered
        await settle(pilot)
        assert app.screen.focused is matrix and matrix.row_count == 2
        await pilot.press("down")
        assert matrix.highlighted_account() == 1222
        await pilot.press("slash")
        await settle(pilot)
        await pilot.press("escape")  # clears the filter: every row, the cursor kept
        await settle(pilot)
        assert matrix.row_count == 13 and matrix.highlighted_account() == 1222
        await pilot.press("slash", *"1221")
        await settle(pilot)
        await pilot.press("enter", "enter")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "FunctionsScreen")
        assert app.connection.acting_id == 1221
