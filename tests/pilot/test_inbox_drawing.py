"""The inbox draws a page move once (issue 16, target 4): each row's line once, the detail
pane once, and a cursor move only the two lines it changes. Counted by the widgets
(``RoomsTable.lines_drawn``, ``DetailText.renders``), never timed."""

from __future__ import annotations

import re
from typing import Any

from tests.helpers import settle
from vagent_tui.ui.screens.inbox import RoomsTable
from vagent_tui.ui.widgets.inbox_rows import DetailText

AGENT = 1111


def screen_text(app: Any) -> str:
    svg = app.export_screenshot()
    return re.sub(r"&#160;|\s+", " ", " ".join(re.findall(r">([^<>]*)</text>", svg)))


async def test_a_page_move_draws_each_row_and_the_detail_once(make_app: Any) -> None:
    app = make_app("inbox", account=AGENT, rooms=1234)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
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


async def test_a_click_on_a_drawn_row_highlights_it(make_app: Any) -> None:
    app = make_app("inbox", account=AGENT, rooms=1234)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        table = app.screen.query_one("#inbox-table", RoomsTable)
        await pilot.click("#inbox-table", offset=(30, table.header_height + 3))
        await settle(pilot)
        assert table.cursor_row == 3
