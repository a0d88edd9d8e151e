"""Pilot flows of the junk inbox: server paging (one request per page), page size, unread
filter, refresh keeping cursor and page, target changes, a million rooms, API errors."""

from __future__ import annotations

import io
from typing import Any

import pytest
from rich.console import Console
from textual.pilot import Pilot
from textual.widgets import DataTable, Static

from tests.helpers import MakeApp, known, settle, shown, sim_of, wait_for
from vagent_tui.api.errors import ApiError
from vagent_tui.ui.screens.inbox import InboxScreen

AGENT = 1111


def text_of(screen: Any, selector: str) -> str:
    console = Console(width=300, file=io.StringIO(), record=True)
    console.print(screen.query_one(selector, Static).content)
    return console.export_text()


def inbox_requests(app: Any) -> list[Any]:
    sim = app.connection.api.sim_app.state.sim
    return [r for r in sim.requests if r.path == "/api/v2/junkConversations"]


def table(screen: InboxScreen) -> DataTable[Any]:
    return screen.query_one("#inbox-table", DataTable)


def row_keys(screen: Any) -> list[str]:
    return [str(key.value) for key in table(screen).rows]


async def press(pilot: Pilot[None], *keys: str) -> None:
    await pilot.press(*keys)
    await settle(pilot)


async def test_first_page_shows_rooms_label_and_detail(make_app: MakeApp) -> None:
    app = make_app("inbox", account=AGENT, rooms=1234)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, InboxScreen)
        assert type(screen).__name__ == "InboxScreen"
        header = text_of(screen, "#inbox-header")
        assert "1–20 of 1,234" in header and "page 1 of 62" in header
        assert row_keys(screen)[:2] == ["1111:1234", "1111:1233"]
        requests = inbox_requests(app)
        assert len(requests) == 1
        query = requests[0].query
        assert query["page"] == "0" and query["pageSize"] == "20"
        assert query["pagination"] == "true" and "unread" not in query  # sent only when set
        assert query["targetAccountId"] == str(AGENT)
        detail = text_of(screen, "#inbox-detail-text")
        # every field of the room, the simulator's extra "unread" included, literally
        for key in ("roomId", "vidaPhoneNumber", "lastMessageTimestamp", "chatAgentCampaignId"):
            assert key in detail
        assert "unread" in detail and "1111:1234" in detail


async def test_paging_keys_each_send_one_request(make_app: MakeApp) -> None:
    app = make_app("inbox", account=AGENT, rooms=1234)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, InboxScreen)
        steps = [
            ("n", 1, "21–40 of 1,234"),
            ("n", 2, "41–60 of 1,234"),
            ("right", 3, "61–80 of 1,234"),
            ("pagedown", 4, "81–100 of 1,234"),
            ("p", 3, "61–80 of 1,234"),
            ("left", 2, "41–60 of 1,234"),
            ("pageup", 1, "21–40 of 1,234"),
            ("G", 61, "1,221–1,234 of 1,234"),
            ("g", 0, "1–20 of 1,234"),
            ("end", 61, "1,221–1,234 of 1,234"),
            ("home", 0, "1–20 of 1,234"),
        ]
        for key, page, label in steps:
            before = len(inbox_requests(app))
            await press(pilot, key)
            requests = inbox_requests(app)
            assert len(requests) == before + 1, key
            assert requests[-1].query["page"] == str(page), key
            assert screen.pager.page == page
            assert label in text_of(screen, "#inbox-header"), key
        assert "page 3 of 62" not in text_of(screen, "#inbox-header")
        await press(pilot, "n", "n")
        assert "41–60 of 1,234 · page 3 of 62" in text_of(screen, "#inbox-header")
        assert len(table(screen).rows) == 20


async def test_no_request_past_either_end(make_app: MakeApp) -> None:
    app = make_app("inbox", account=AGENT, rooms=30)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, InboxScreen)
        await press(pilot, "p")
        assert len(inbox_requests(app)) == 1
        assert "first page" in str(screen.status.content)
        await press(pilot, "G")
        assert len(inbox_requests(app)) == 2 and "21–30 of 30" in text_of(screen, "#inbox-header")
        await press(pilot, "n")
        assert len(inbox_requests(app)) == 2
        assert "last page" in str(screen.status.content)


async def test_page_size_cycles_and_keeps_the_first_room_in_view(make_app: MakeApp) -> None:
    app = make_app("inbox", account=AGENT, rooms=1234)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, InboxScreen)
        await press(pilot, "n", "n", "n")  # rooms 61-80
        await press(pilot, "z")
        last = inbox_requests(app)[-1].query
        assert last["pageSize"] == "50" and last["page"] == "1"
        assert "51–100 of 1,234" in text_of(screen, "#inbox-header")
        assert len(table(screen).rows) == 50
        sizes = []
        for _ in range(3):
            await press(pilot, "z")
            sizes.append(inbox_requests(app)[-1].query["pageSize"])
        assert sizes == ["100", "200", "20"]
        assert "· 20/page ·" in text_of(screen, "#inbox-header")


async def test_unread_only_toggle(make_app: MakeApp) -> None:
    app = make_app("inbox", account=AGENT, rooms=1234)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, InboxScreen)
        await press(pilot, "n")
        await press(pilot, "u")
        last = inbox_requests(app)[-1].query
        assert last["unread"] == "true" and last["page"] == "0"
        header = text_of(screen, "#inbox-header")
        assert "1–20 of 412" in header and "unread only" in header
        markers = [table(screen).get_row_at(i)[0].plain for i in range(20)]
        assert markers == ["●"] * 20
        await press(pilot, "u")
        assert "unread" not in inbox_requests(app)[-1].query
        assert "1–20 of 1,234" in text_of(screen, "#inbox-header")


async def test_refresh_keeps_cursor_and_page(make_app: MakeApp) -> None:
    app = make_app("inbox", account=AGENT, rooms=1234)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, InboxScreen)
        await press(pilot, "n", "n")
        await press(pilot, "down", "down", "j")
        assert table(screen).cursor_row == 3
        key = row_keys(screen)[3]
        before = len(inbox_requests(app))
        await press(pilot, "r")
        assert len(inbox_requests(app)) == before + 1
        assert inbox_requests(app)[-1].query["page"] == "2"
        assert screen.pager.page == 2 and table(screen).cursor_row == 3
        assert row_keys(screen)[3] == key
        assert key in text_of(screen, "#inbox-detail-text")


async def test_million_rooms_last_page_is_one_request_per_page(make_app: MakeApp) -> None:
    app = make_app("inbox", account=AGENT, rooms=1_000_000)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = shown(app, InboxScreen)
        assert len(inbox_requests(app)) == 1
        await press(pilot, "G")
        requests = inbox_requests(app)
        assert len(requests) == 2 and requests[-1].query["page"] == "49999"
        header = text_of(screen, "#inbox-header")
        assert "999,981–1,000,000 of 1,000,000" in header and "page 50,000 of 50,000" in header
        assert row_keys(screen)[-1] == "1111:1"
        await press(pilot, "p")
        await press(pilot, "p")
        requests = inbox_requests(app)
        assert [r.query["page"] for r in requests] == ["0", "49999", "49998", "49997"]
        assert all(r.query["pageSize"] == "20" for r in requests)


async def test_fast_paging_shows_only_the_last_wanted_page(make_app: MakeApp) -> None:
    app = make_app("inbox", account=AGENT, rooms=1234, latency_ms=60)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, InboxScreen)
        await pilot.press("n", "n", "n")
        await settle(pilot)
        await pilot.pause(0.2)
        await settle(pilot)
        assert screen.pager.page == 3
        assert row_keys(screen)[0] == "1111:1174"
        assert "61–80 of 1,234" in text_of(screen, "#inbox-header")


async def test_hint_without_agent_then_follows_the_target(make_app: MakeApp) -> None:
    app = make_app("inbox")  # partner key acting as itself: no inbox of its own
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, InboxScreen)
        assert screen.has_class("-no-agent")
        assert "Select an agent account" in text_of(screen, "#inbox-hint")
        assert inbox_requests(app) == []
        await press(pilot, "n")
        assert inbox_requests(app) == []
        app.select_target(AGENT)
        await settle(pilot)
        assert not screen.has_class("-no-agent")
        assert len(inbox_requests(app)) == 1
        assert row_keys(screen)[0] == "1111:240"
        await press(pilot, "n")
        app.select_target(1112)
        await settle(pilot)
        # another account's inbox starts on its first page
        assert screen.pager.page == 0 and row_keys(screen)[0] == "1112:240"
        assert inbox_requests(app)[-1].query["targetAccountId"] == "1112"


async def test_api_error_is_shown_and_retry_works(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app("inbox", account=AGENT, rooms=1234)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, InboxScreen)
        api = app.connection.api
        real, down = api.list_junk_rooms, [True]

        async def failing(*args: Any, **kwargs: Any) -> Any:
            # Down for as long as the page is read again (the pager asks a 5xx again).
            if down[0]:
                raise ApiError(500, "boom")
            return await real(*args, **kwargs)

        monkeypatch.setattr(api, "list_junk_rooms", failing)
        await press(pilot, "n")
        await wait_for(pilot, lambda: screen.status.has_class("-error"))  # after its rounds
        status = str(screen.status.content)
        assert "boom" in status and "press r to retry" in status
        assert screen.status.has_class("-error")
        assert known(screen.pager.shown).page == 0  # the shown page is still the first one
        down[0] = False
        await press(pilot, "r")
        assert screen.pager.page == 1 and row_keys(screen)[0] == "1111:1214"
        assert not screen.status.has_class("-error")


async def test_server_error_message_for_a_bad_target(make_app: MakeApp) -> None:
    app = make_app("inbox", token="demo-other", account=9111)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, InboxScreen)
        assert row_keys(screen)[0] == "9111:240"
        sim = sim_of(app)
        sim.accounts.pop(9111)  # the account vanishes: the server refuses the target
        await press(pilot, "n")
        assert "press r" not in str(screen.status.content)  # a refusal: same on a retry
        assert "HTTP 403" in str(screen.status.content)
        assert "Scope (1) selects another account" in str(screen.status.content)


async def test_agent_key_reads_its_own_inbox_without_a_target(make_app: MakeApp) -> None:
    app = make_app("inbox", token="demo-agent")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = shown(app, InboxScreen)
        assert not screen.has_class("-no-agent")
        assert row_keys(screen)[0] == "1111:240"
        assert "targetAccountId" not in inbox_requests(app)[0].query
