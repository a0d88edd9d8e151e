"""Layouts that use the space (issue 17, point 5): cut text shows its cut, panes grow
with the width, rows stay visible on a short terminal, the header keeps the profile."""

from __future__ import annotations

import io
from typing import Any

import pytest
from rich.console import Console
from textual.app import App, ComposeResult
from textual.widgets import DataTable, Static

from tests.helpers import MakeApp, settle
from vagent_tui.ui.widgets.tables import SafeTable


def text_of(widget: Any) -> str:
    console = Console(width=400, file=io.StringIO(), record=True)
    console.print(widget.content if isinstance(widget, Static) else widget.render())
    return console.export_text()


class OneTable(App[None]):
    def compose(self) -> ComposeResult:
        table = SafeTable(id="t")
        table.add_column("Name", key="name", width=8)
        table.add_row("a name far longer than its column", key="1")
        table.add_row("short", key="2")
        yield table


async def test_a_cut_cell_ends_in_an_ellipsis_and_an_updated_one_too() -> None:
    app = OneTable()
    async with app.run_test(size=(40, 6)) as pilot:
        await pilot.pause()
        table = app.query_one(SafeTable)
        first = "".join(s.text for s in table.render_line(1))
        assert "…" in first and "a name" in first, first
        table.update_cell("2", "name", "now much longer than before")  # width kept
        await pilot.pause()
        second = "".join(s.text for s in table.render_line(2))
        assert "…" in second and "now" in second, second
        assert table.get_cell("2", "name").plain == "now much longer than before"


async def test_the_header_keeps_the_profile_at_80_columns(make_app: MakeApp) -> None:
    app = make_app("voices", account=1111)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        bar = app.screen.query_one("#context-bar", Static)
        line = "".join(s.text for s in bar.render_line(0)).rstrip()
        assert line.endswith("demo · demo-partner"), line
        assert "…" in line  # the context in the middle was cut instead


@pytest.mark.parametrize("name", ["voices", "functions"])
async def test_rows_are_visible_at_60x15(make_app: MakeApp, name: str) -> None:
    app = make_app(name, account=1111)
    async with app.run_test(size=(60, 15)) as pilot:
        await settle(pilot)
        table = app.screen.query_one(f"#{name}-table", DataTable)
        assert table.row_count > 3
        # The header row plus at least three rows of data on show.
        assert table.scrollable_content_region.height >= 4, table.scrollable_content_region


@pytest.mark.parametrize("name", ["voices", "functions"])
async def test_the_detail_pane_grows_with_the_width(make_app: MakeApp, name: str) -> None:
    widths = []
    for size in ((120, 40), (200, 50)):
        app = make_app(name, account=1111)
        async with app.run_test(size=size) as pilot:
            await settle(pilot)
            widths.append(app.screen.query_one(f"#{name}-detail").size.width)
    assert widths[1] > widths[0] + 10, widths
