"""The inbox draws a page move once (issue 16, target 4): each row's line once, the detail
pane once, and a cursor move only the two lines it changes. Counted by the widgets
(``RoomsTable.lines_drawn``, ``DetailText.renders``), never timed. A page that comes
before `PENDING_DELAY` is not announced first (no frame for the key alone); one that
takes longer is."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest
from rich.text import Text
from textual.app import App, ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from tests.helpers import MakeApp, settle, shown, wait_for
from vagent_tui.ui.screens import inbox
from vagent_tui.ui.screens.inbox import InboxScreen, RoomsTable
from vagent_tui.ui.widgets.inbox_rows import DetailText

AGENT = 1111


def screen_text(app: Any) -> str:
    svg = app.export_screenshot()
    return re.sub(r"&#160;|\s+", " ", " ".join(re.findall(r">([^<>]*)</text>", svg)))


async def test_a_page_move_draws_each_row_and_the_detail_once(make_app: MakeApp) -> None:
    app = make_app("inbox", account=AGENT, rooms=1234)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, InboxScreen)
        table = screen.query_one("#inbox-table", RoomsTable)
        detail = screen.query_one("#inbox-detail-text", DetailText)
        visible = min(table.row_count, table.size.height - table.header_height)
        assert visible > 5
        lines, renders = table.lines_drawn, detail.renders
        await pilot.press("n")
        await settle(pilot)
        assert "21–40 of 1,234" in screen_text(app)
        assert table.lines_drawn - lines == visible  # every row on screen, once
        assert detail.renders - renders == 1  # not again for the row highlighted
        # The rows on screen are the new page's, as stored in the table.
        first = table.get_row_at(0)
        assert str(first[1]) in screen_text(app)
        assert str(first[1]) in table.render_line(table.header_height).text
        # A cursor move draws the two rows it changes.
        lines = table.lines_drawn
        await pilot.press("down")
        await settle(pilot)
        assert table.cursor_row == 1
        assert table.lines_drawn - lines == 2
        # Nothing changes: nothing is drawn.
        lines, renders = table.lines_drawn, detail.renders
        await settle(pilot)
        assert (table.lines_drawn, detail.renders) == (lines, renders)


async def test_a_click_on_a_drawn_row_highlights_it(make_app: MakeApp) -> None:
    app = make_app("inbox", account=AGENT, rooms=1234)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        table = app.screen.query_one("#inbox-table", RoomsTable)
        await pilot.click("#inbox-table", offset=(30, table.header_height + 3))
        await settle(pilot)
        assert table.cursor_row == 3


def header_of(app: Any) -> str:
    return str(app.screen.query_one("#inbox-header", Static).content)


async def test_a_page_that_comes_in_time_is_not_announced_first(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(inbox.InboxScreen, "PENDING_DELAY", 60.0)  # every page comes in time
    app = make_app("inbox", account=AGENT, rooms=1234)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, InboxScreen)
        said: list[str] = []
        header = screen.query_one("#inbox-header", Static)
        update = header.update

        def updating(content: Any, **kwargs: Any) -> None:
            said.append(str(content))
            update(content, **kwargs)

        monkeypatch.setattr(header, "update", updating)
        monkeypatch.setattr(screen.status, "busy", lambda what="": said.append(what))
        await pilot.press("n")
        await settle(pilot)
        assert "21–40 of 1,234" in header_of(app)
        assert said and not [s for s in said if "→" in s or "Loading" in s]
        assert not str(screen.status.content)


async def test_a_slow_page_is_announced_until_it_comes(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(inbox.InboxScreen, "PENDING_DELAY", 0.01)  # the held page is late
    app = make_app("inbox", account=AGENT, rooms=1234)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, InboxScreen)
        api = app.connection.api
        real = api.list_junk_rooms
        gate = asyncio.Event()

        async def held(*args: Any, **kwargs: Any) -> Any:
            await gate.wait()
            return await real(*args, **kwargs)

        monkeypatch.setattr(api, "list_junk_rooms", held)
        await pilot.press("n")
        await wait_for(pilot, lambda: "→ page 2" in header_of(app))
        assert "1–20 of 1,234" in header_of(app)  # still what is shown
        assert "Loading page 2" in str(screen.status.content)
        await pilot.press("n")  # already announced: the header follows at once
        await wait_for(pilot, lambda: "→ page 3" in header_of(app))
        assert "Loading page 3" in str(screen.status.content)
        gate.set()
        await settle(pilot)
        assert "41–60 of 1,234" in header_of(app) and "→" not in header_of(app)
        assert not str(screen.status.content)


class _Pane(App[None]):
    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield DetailText(Text("\n".join(f"line {n}" for n in range(12))), id="pane")


async def test_a_held_detail_keeps_its_height_until_its_content_comes() -> None:
    """A placeholder shown with ``hold`` (Calls: the transcript loading) keeps the pane
    as tall as it was, blank below; the content shown next sets the height again."""
    app = _Pane()
    async with app.run_test(size=(40, 30)) as pilot:
        await pilot.pause()
        pane = app.query_one("#pane", DetailText)
        assert pane.size.height == 12
        pane.show(Text("loading…"), hold=True)
        await pilot.pause()
        assert pane.size.height == 12
        assert pane.render_line(0).text.startswith("loading…")
        assert pane.render_line(11).text.strip() == ""
        pane.show(Text("one\ntwo\nthree"))
        await pilot.pause()
        assert pane.size.height == 3
        pane.show(Text("\n".join("tall" for _ in range(20))), hold=True)
        await pilot.pause()
        assert pane.size.height == 20  # a taller placeholder is shown whole
