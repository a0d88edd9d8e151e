"""``/`` filters the rows of every screen with a table (ui/widgets/table_filter.py):
the words typed narrow the rows, Esc shows them all again, and what a key does (the
detail, a delete) acts on the row highlighted among those shown."""

from __future__ import annotations

from typing import Any

from textual.widgets import Static

from tests.helpers import settle, sim_of
from vagent_tui.ui.dialogs import ConfirmModal
from vagent_tui.ui.widgets.table_filter import FilterInput, FilterRow
from vagent_tui.ui.widgets.tables import SafeTable


def _keys(table: SafeTable) -> list[str | None]:
    return [row.key.value for row in table.ordered_rows]


async def _filter(pilot: Any, text: str) -> FilterRow:
    await pilot.press("slash")
    await settle(pilot)
    field = pilot.app.screen.focused
    assert isinstance(field, FilterInput)
    await pilot.press(*text)
    await settle(pilot)
    row = field.parent
    assert isinstance(row, FilterRow)
    return row


def _count(row: FilterRow) -> str:
    return str(row.query_one(".table-filter-count", Static).content)


async def test_sip_filter_narrows_restores_and_delete_targets_the_shown_row(
    make_app: Any,
) -> None:
    app = make_app("sip")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        table = screen.table
        everything = _keys(table)
        assert len(everything) == 2
        row = await _filter(pilot, "BACK")  # any case: "Backup trunk"
        assert _keys(table) == ["198.51.100.107"]
        assert _count(row) == "1 of 2 rows"
        assert screen.highlighted.ip == "198.51.100.107"
        await pilot.press("enter")  # back to the table, still filtered
        await settle(pilot)
        assert screen.focused is table
        assert _keys(table) == ["198.51.100.107"]
        await pilot.press("d")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmModal)
        assert "198.51.100.107" in app.screen.body_text
        await pilot.click("#confirm")
        await settle(pilot)
        assert [e["ip"] for e in sim_of(app).sip[1000]] == ["203.0.113.1"]  # the shown one went
        assert _keys(table) == []  # the filter stays on the rows loaded again
        assert _count(row) == "0 of 1 rows"
        await pilot.press("slash")
        await settle(pilot)
        await pilot.press("escape")  # clears the filter and hides its row
        await settle(pilot)
        assert _keys(table) == ["203.0.113.1"]
        assert not row.display
        assert screen.focused is table
