"""SafeTable's filter (ui/widgets/tables.py): every word, any case; the rows given are
kept, their keys too, and a cell changed while its row is hidden shows when it is back."""

from __future__ import annotations

from textual.app import App, ComposeResult

from tests.helpers import original_key
from vagent_tui.ui.widgets.table_filter import FilterRow
from vagent_tui.ui.widgets.tables import SafeTable, row_table


class _Host(App[None]):
    def compose(self) -> ComposeResult:
        yield row_table("t", (("Name", "name"), ("Label", "label")))


def _keys(table: SafeTable) -> list[str | None]:
    return [row.key.value for row in table.ordered_rows]


async def test_words_in_any_order_and_case_and_the_rows_given_kept() -> None:
    app = _Host()
    async with app.run_test() as pilot:
        table = app.query_one(SafeTable)
        for name, label in (("a", "Office PBX"), ("b", "Backup trunk"), ("a", "backup office")):
            table.add_row(name, label, key=name)
        keys = _keys(table)
        assert [original_key(k) for k in keys] == ["a", "b", "a"]  # a repeated key kept
        table.set_filter("OFFICE  backup")
        await pilot.pause()
        assert _keys(table) == [keys[2]] and table.total_rows == 3
        assert table.source_row == 2
        table.update_cell("b", "label", "office backup now")  # hidden: its words change too
        table.set_filter("office")
        table.set_filter("office backup")
        assert _keys(table) == ["b", keys[2]]
        table.set_filter("nothing like it")
        assert _keys(table) == [] and table.source_row == -1
        table.set_filter("")
        assert _keys(table) == keys


async def test_rows_given_while_filtered_show_only_when_they_match() -> None:
    app = _Host()
    async with app.run_test():
        table = app.query_one(SafeTable)
        table.set_filter("trunk")
        table.clear()
        table.add_row("x", "PBX", key="x")
        table.add_row("y", "trunk", key="y")
        assert _keys(table) == ["y"]
        assert table.move_to_source(1)  # the index among all the rows given
        assert table.source_row == 1
        table.set_filter("")
        assert _keys(table) == ["x", "y"] and table.source_row == 1  # the cursor kept its row


async def test_opening_a_filter_row_that_is_gone_does_nothing() -> None:
    """``/`` opens its row after a refresh: by then the row may be gone (ctrl+q is never
    held behind ``/``); opening it then must not end the console (NoMatches)."""
    app = _Host()
    async with app.run_test() as pilot:
        table = app.query_one(SafeTable)
        row = FilterRow(table)
        await app.mount(row)
        await row.remove()
        await pilot.pause()
        row.open()
        assert not row.is_attached
