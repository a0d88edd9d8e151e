"""Pilot flows of the Calls screen: server paging, the filters (refused at their field,
nothing sent), the accounts, transcripts with the page (one batch request), the
conversation and the version live then, follow, export, columns kept per profile, the
``C`` key of the Agent screen, and a failed page shown with a retry."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from rich.console import Console
from textual.app import App
from textual.pilot import Pilot
from textual.widgets import Input, Static

from tests.helpers import MakeApp, settle, shown, sim_of, wait_for
from vagent_tui.sim.faults import Faults
from vagent_tui.sim.state import LoggedRequest
from vagent_tui.ui.dialogs import TextModal
from vagent_tui.ui.screens.call import CallScreen
from vagent_tui.ui.screens.calls import CallsScreen
from vagent_tui.ui.widgets.call_forms import (
    CallColumnsModal,
    CallExportModal,
    CallFiltersModal,
    ColumnPicks,
)
from vagent_tui.ui.widgets.form import FormField

NOW = 1_763_640_000.0  # 2025-11-20T12:00:00Z, the suite's VAGENT_NOW
AGENT = 1111


def text_of(screen: CallsScreen | CallScreen, selector: str) -> str:
    console = Console(width=400, file=io.StringIO(), record=True)
    console.print(screen.query_one(selector, Static).content)
    return console.export_text()


def log_requests(app: App[None], path: str = "/api/v2/logs") -> list[LoggedRequest]:
    return [r for r in sim_of(app).requests if r.path == path]


async def press(pilot: Pilot[None], *keys: str) -> None:
    await pilot.press(*keys)
    await settle(pilot)


async def opened(pilot: Pilot[None]) -> CallsScreen:
    await settle(pilot)
    return shown(pilot.app, CallsScreen)


@pytest.fixture(autouse=True)
def _utc(monkeypatch: pytest.MonkeyPatch) -> None:
    """Local time is UTC here, so that the times shown do not depend on the machine."""
    import time

    monkeypatch.setenv("TZ", "UTC")
    time.tzset()


async def test_first_page_of_the_selected_account_with_its_transcripts(
    make_app: MakeApp,
) -> None:
    app = make_app("calls", account=AGENT, clock=lambda: NOW)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot)
        header = text_of(screen, "#calls-header")
        assert "1–50 of" in header and "page 1 of" in header
        assert "account #1111" in text_of(screen, "#calls-filters")
        (first,) = log_requests(app)
        assert first.query["targetAccountId"] == str(AGENT)
        assert first.query["page"] == "1" and first.query["pageSize"] == "50"
        assert first.query["includeFields"] == "true"  # the schema, for the columns
        entries = screen.table.records
        assert len(entries) == 50
        times = [e.at for e in entries if e.at is not None]
        assert len(times) == 50 and times == sorted(times, reverse=True)  # newest first
        assert {e.account_id for e in entries} == {AGENT}
        # the page's conversations came in one batch request, not one per row
        assert len(log_requests(app, "/api/v2/conversation/batch")) == 1
        detail = text_of(screen, "#calls-detail-text")
        assert "Summary" in detail and ": " in detail.split("Summary", 1)[1]


async def test_paging_is_one_request_per_page(make_app: MakeApp) -> None:
    app = make_app("calls", account=AGENT, clock=lambda: NOW)
    sim_of(app).calls = 100_000  # 7,777 in the last 7 days
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot)
        first_ids = [e.id for e in screen.table.records]
        await press(pilot, "n")
        assert [r.query["page"] for r in log_requests(app)] == ["1", "2"]
        assert "51–100 of" in text_of(screen, "#calls-header")
        assert not set(first_ids) & {e.id for e in screen.table.records}
        await press(pilot, "G")
        last = log_requests(app)[-1].query["page"]
        assert f"page {last} of {last}" in text_of(screen, "#calls-header")
        await press(pilot, "g")
        assert [e.id for e in screen.table.records] == first_ids


async def test_a_bad_filter_is_refused_at_its_field_and_nothing_is_sent(
    make_app: MakeApp,
) -> None:
    app = make_app("calls", account=AGENT, clock=lambda: NOW)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot)
        before = len(log_requests(app))
        await press(pilot, "F")
        modal = shown(app, CallFiltersModal)
        modal.query_one("#calls-start", Input).value = "yesterday"
        modal.query_one("#calls-extra", Input).value = "token=abc"
        await press(pilot, "enter")
        assert shown(app, CallFiltersModal) is modal  # still open, as typed
        errors = [f.error for f in modal.query(FormField).results(FormField)]
        assert any("'yesterday' is not a time" in e for e in errors)
        assert any("token" in e for e in errors)
        assert modal.query_one("#calls-start", Input).value == "yesterday"
        assert len(log_requests(app)) == before
        # corrected: sent once, the filters shown
        modal.query_one("#calls-start", Input).value = "1d"
        modal.query_one("#calls-extra", Input).value = ""
        modal.query_one("#calls-status", Input).value = "failed"
        await press(pilot, "enter")
        assert shown(app, CallsScreen) is screen
        query = log_requests(app)[-1].query
        assert query["status"] == "failed"
        assert int(query["start"]) == int(NOW) - 86_400
        assert all(e.failed for e in screen.table.records)
        line = text_of(screen, "#calls-filters")
        assert "last day" in line and "status=failed" in line
        # x clears them: the platform's default range again
        await press(pilot, "x")
        query = log_requests(app)[-1].query
        assert "status" not in query and "start" not in query
        assert "last 7 days" in text_of(screen, "#calls-filters")


async def test_time_presets_and_every_account_below_the_key(make_app: MakeApp) -> None:
    app = make_app("calls", account=AGENT, clock=lambda: NOW)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot)
        await press(pilot, "t")
        assert int(log_requests(app)[-1].query["start"]) == int(NOW) - 3600
        assert "last hour" in text_of(screen, "#calls-filters")
        await press(pilot, "t")
        assert int(log_requests(app)[-1].query["start"]) == int(NOW) - 86_400
        await press(pilot, "s")
        query = log_requests(app)[-1].query
        assert "targetAccountId" not in query
        assert "every account below the key" in text_of(screen, "#calls-filters")
        assert len({e.account_id for e in screen.table.records}) > 1
        await press(pilot, "s")
        assert log_requests(app)[-1].query["targetAccountId"] == str(AGENT)


async def test_enter_shows_the_conversation_without_another_request(
    make_app: MakeApp,
) -> None:
    app = make_app("calls", account=AGENT, clock=lambda: NOW)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot)
        await press(pilot, "down")
        entry = screen.table.highlighted_record
        assert entry is not None
        batches = len(log_requests(app, "/api/v2/conversation/batch"))
        await press(pilot, "enter")
        call = shown(app, CallScreen)
        assert call.entry is entry
        assert len(log_requests(app, "/api/v2/conversation/batch")) == batches
        text = text_of(call, "#call-text")
        assert "Transcript" in text and "The log entry, as the platform sent it" in text
        assert str(entry.id) in text
        # v: the configuration live at the time of the call
        await press(pilot, "v")
        modal = shown(app, TextModal)
        assert "Live at the call's time: version" in modal.title_text
        version = int(modal.title_text.split("version ", 1)[1].split()[0])
        at = entry.at
        assert at is not None and version <= at.timestamp() * 1000
        await press(pilot, "escape")
        await press(pilot, "escape")
        assert shown(app, CallsScreen) is screen
        assert screen.table.highlighted_record is entry  # the same row


async def test_each_call_opened_shows_on_the_one_call_screen_from_its_top(
    make_app: MakeApp,
) -> None:
    app = make_app("calls", account=AGENT, clock=lambda: NOW)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await opened(pilot)
        await press(pilot, "enter")
        first = shown(app, CallScreen)
        body = first.query_one("#call-body")
        body.scroll_end(animate=False)
        await pilot.pause()
        assert body.scroll_y > 0
        first.status.info("said about the first call")
        await press(pilot, "escape", "down")
        entry = screen.table.highlighted_record
        assert entry is not None
        screen.transcripts.clear()  # this one's conversation did not come with the page
        batches = len(log_requests(app, "/api/v2/conversation/batch"))
        await press(pilot, "enter")
        call = shown(app, CallScreen)
        assert call is first and call.entry is entry
        assert str(entry.id) in text_of(call, "#call-text")
        assert body.scroll_y == 0 and not str(call.status.content)
        await wait_for(pilot, lambda: call.result is not None)
        assert len(log_requests(app, "/api/v2/conversation/batch")) == batches + 1  # read once
        assert "Transcript" in text_of(call, "#call-text")
        await press(pilot, "escape")
        assert shown(app, CallsScreen) is screen


async def test_follow_puts_new_calls_on_top_and_keeps_the_cursor(make_app: MakeApp) -> None:
    clock = {"now": NOW}
    app = make_app("calls", account=AGENT, clock=lambda: clock["now"])
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot)
        await press(pilot, "down", "down")
        kept = screen.table.highlighted_record
        newest = screen.table.records[0]
        total = screen.pager.total or 0
        await pilot.press("f")
        await wait_for(pilot, lambda: "following" in text_of(screen, "#calls-header"))
        clock["now"] = NOW + 3 * 86_400  # three days of new calls
        # the poller's next round (every FOLLOW_INTERVAL s): asked now rather than waited for
        screen.workers.cancel_group(screen, "calls-follow")
        screen._start_follow()
        await wait_for(pilot, lambda: screen.table.records[0] is not newest)
        fresh = screen.table.records.index(newest)
        assert fresh > 0
        assert screen.table.highlighted_record is kept  # the cursor stayed on its call
        assert screen.pager.total == total + fresh
        await press(pilot, "f")
        assert "following" not in text_of(screen, "#calls-header")


async def test_export_writes_the_whole_query_as_csv(make_app: MakeApp, tmp_path: Path) -> None:
    app = make_app("calls", account=AGENT, clock=lambda: NOW)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot)
        total = screen.pager.total or 0
        await press(pilot, "w")
        modal = shown(app, CallExportModal)
        target = tmp_path / "calls.csv"
        modal.query_one("#calls-path", Input).value = str(tmp_path / "missing" / "x.csv")
        await press(pilot, "enter")
        assert "does not exist" in modal.query_one("#field-path", FormField).error
        modal.query_one("#calls-path", Input).value = str(target)
        await press(pilot, "enter")
        await wait_for(pilot, lambda: target.exists())
        await settle(pilot)
        lines = target.read_text(encoding="utf-8").splitlines()
        assert lines[0].startswith("id,timestamp")
        assert len(lines) == total + 1
        assert not list(tmp_path.glob("*.partial"))
        assert f"{total:,} calls written" in str(screen.status.content)
        csv_request = [r for r in log_requests(app) if r.query.get("format") == "csv"]
        assert len(csv_request) == 1 and csv_request[0].query["targetAccountId"] == str(AGENT)


async def test_export_as_json_lines(make_app: MakeApp, tmp_path: Path) -> None:
    app = make_app("calls", account=AGENT, clock=lambda: NOW)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot)
        await press(pilot, "t")  # the last hour: a small file
        total = screen.pager.total or 0
        await press(pilot, "w")
        modal = shown(app, CallExportModal)
        from textual.widgets import Select

        modal.query_one("#calls-format", Select).value = "jsonl"
        target = tmp_path / "calls.jsonl"
        modal.query_one("#calls-path", Input).value = str(target)
        await press(pilot, "enter")
        await wait_for(pilot, lambda: target.exists())
        rows = [json.loads(line) for line in target.read_text(encoding="utf-8").splitlines()]
        assert len(rows) == total and all(row["account_id"] == AGENT for row in rows)


async def test_columns_are_chosen_from_the_schema_and_kept(make_app: MakeApp) -> None:
    app = make_app("calls", account=AGENT, clock=lambda: NOW)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot)
        await press(pilot, "c")
        modal = shown(app, CallColumnsModal)
        assert "metadata.tokens" in modal.offered  # from the page's schema
        picks = modal.query_one(ColumnPicks)
        assert "[x] Summary" in str(picks.get_option_at_index(6).prompt)  # ticked as text
        for name in ("summary", "route", "metadata.tokens"):
            picks.highlighted = picks.names.index(name)
            await press(pilot, "space")
        assert "[ ] Summary" in str(picks.get_option_at_index(6).prompt)
        await press(pilot, "ctrl+s")
        assert screen.columns[-1] == "metadata.tokens"
        assert "summary" not in screen.columns
        labels = [str(c.label) for c in screen.table.columns.values()]
        assert labels[-1] == "metadata.tokens"
        tokens = screen.table.records[0].get("metadata.tokens")
        row = screen.table.get_row_at(0)
        assert str(row[-1]) == str(tokens)
    # kept: a new console shows the same columns
    again = make_app("calls", account=AGENT, clock=lambda: NOW)
    async with again.run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot)
        assert screen.columns[-1] == "metadata.tokens"


async def test_c_on_the_agent_screen_opens_its_calls(make_app: MakeApp) -> None:
    app = make_app("agent", account=1112, clock=lambda: NOW)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await press(pilot, "C")
        screen = await opened(pilot)
        assert {e.account_id for e in screen.table.records} == {1112}
        assert log_requests(app)[-1].query["targetAccountId"] == "1112"


async def test_a_failed_page_says_so_and_r_loads_it(make_app: MakeApp) -> None:
    faults = Faults(kinds=["500"], path_contains="/logs", remaining=3)
    app = make_app("calls", account=AGENT, clock=lambda: NOW, faults=faults)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot)
        assert "not loaded (r: retry)" in text_of(screen, "#calls-header")
        assert "r" in str(screen.status.content)
        await press(pilot, "r")
        assert "1–50 of" in text_of(screen, "#calls-header")
        assert len(screen.table.records) == 50


async def test_the_kept_call_screen_follows_a_theme_changed_while_it_was_hidden(
    make_app: MakeApp,
) -> None:
    app = make_app("calls", account=AGENT, clock=lambda: NOW)
    async with app.run_test(size=(80, 24)) as pilot:
        await opened(pilot)
        await press(pilot, "enter")
        call = shown(app, CallScreen)
        before = call.styles.background
        await press(pilot, "escape")
        # another theme as dark or light as this one: the app's classes stay the same
        dark = app.current_theme.dark
        app.theme = next(
            name
            for name, theme in app.available_themes.items()
            if theme.dark == dark and name != app.theme and not name.endswith("ansi")
        )
        await settle(pilot)
        await press(pilot, "enter")
        assert shown(app, CallScreen) is call
        assert call.styles.background != before
        assert call.styles.background == app.screen_stack[-2].styles.background
