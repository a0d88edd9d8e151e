"""The record table (`RecordTable`, every screen's table of records): rows drawn a line
at a time, the cursor kept on its record, a record drawn again, a filter, keys and
clicks, text from outside inert."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import App, ComposeResult

from vagent_tui.ui.widgets.record_table import RecordTable


class _Lines(App[None]):
    def __init__(self, note_width: int | None = None) -> None:
        super().__init__()
        self.note_width = note_width
        self.highlighted: list[Any] = []
        self.selected: list[Any] = []

    def compose(self) -> ComposeResult:
        table: RecordTable[str] = RecordTable(record_key=str, id="lines")
        table.add_column("Name", key="name", width=12)
        table.add_column("Note", key="note", width=self.note_width)
        yield table

    def on_record_table_highlighted(self, event: RecordTable.Highlighted) -> None:
        self.highlighted.append(event.record)

    def on_record_table_selected(self, event: RecordTable.Selected) -> None:
        self.selected.append(event.record)


def _cells(record: str) -> list[Any]:
    return [f"name {record}", Text(f"note of {record}")]


def _lines(app: _Lines) -> RecordTable[str]:
    table: RecordTable[str] = app.query_one("#lines", RecordTable)
    return table


async def test_a_page_draws_only_the_rows_in_view_and_makes_only_their_cells() -> None:
    made: list[str] = []

    def cells(record: str) -> list[Any]:
        made.append(record)
        return _cells(record)

    app = _Lines(note_width=20)  # every column of a set width: no cell to measure
    async with app.run_test(size=(60, 12)) as pilot:
        table = _lines(app)
        table.focus()
        table.show([str(n) for n in range(50)], cells)
        await pilot.pause()
        assert table.row_count == 50
        assert 0 < table.lines_drawn <= 11  # the rows in view, not the 50
        assert len(made) < 50
        assert "name 0" in table.render_line(1).text
        assert table.render_line(0).text.strip().startswith("Name")


async def test_the_cursor_stays_on_its_record_when_the_rows_change() -> None:
    app = _Lines()
    async with app.run_test(size=(60, 12)) as pilot:
        table = _lines(app)
        table.focus()
        table.show(["a", "b", "c"], _cells)
        await pilot.press("down", "down")
        assert table.highlighted_record == "c"
        table.show(["new", "a", "b", "c"], _cells)
        assert table.highlighted_record == "c" and table.cursor_row == 3
        table.show(["x", "y"], _cells)  # gone: as near its old row as the rows allow
        assert table.highlighted_record == "y"
        await pilot.pause()
        assert app.highlighted[-1] == "y"


async def test_a_record_drawn_again_shows_what_it_holds_now() -> None:
    """`refresh_record`: the record's row made anew and drawn again (Onboard's result
    cells as each account's result comes), the other rows as they were."""
    notes = {"a": "waiting", "b": "waiting"}
    app = _Lines(note_width=20)
    async with app.run_test(size=(60, 12)) as pilot:
        table = _lines(app)
        table.show(["a", "b"], lambda record: [record, notes[record]])
        await pilot.pause()
        assert "waiting" in table.render_line(2).text
        notes["b"] = "written"
        table.refresh_record("b")
        table.refresh_record("gone")  # a key not shown: nothing
        await pilot.pause()
        assert "written" in table.render_line(2).text
        assert [str(c) for c in table.get_row_at(0)] == ["a", "waiting"]


async def test_keys_move_the_cursor_and_enter_or_a_click_selects() -> None:
    app = _Lines()
    async with app.run_test(size=(60, 12)) as pilot:
        table = _lines(app)
        table.focus()
        table.show([str(n) for n in range(30)], _cells)
        await pilot.pause()  # laid out: it scrolls
        await pilot.press("end")
        assert table.cursor_row == 29
        assert "name 29" in table.render_line(table.size.height - 1).text  # kept in view
        await pilot.press("home", "pagedown")
        assert table.cursor_row > 5
        await pilot.press("home", "enter")
        await pilot.pause()
        assert app.selected == ["0"]
        await pilot.click("#lines", offset=(3, 3))  # the third row: highlighted first
        assert table.cursor_row == 2
        await pilot.click("#lines", offset=(3, 3))
        await pilot.pause()
        assert app.selected == ["0", "2"]


async def test_the_filter_shows_the_rows_holding_every_word() -> None:
    app = _Lines()
    async with app.run_test(size=(60, 12)) as pilot:
        table = _lines(app)
        counts: list[tuple[int, int]] = []
        table.on_count = lambda shown, total: counts.append((shown, total))
        table.show(["apple", "banana", "apple pie"], _cells)
        table.set_filter("APPLE note")
        assert [table.get_row_at(n)[0].plain for n in range(table.row_count)] == [
            "name apple",
            "name apple pie",
        ]
        assert counts[-1] == (2, 3)
        table.set_filter("")
        assert table.row_count == 3
        await pilot.pause()


async def test_a_column_without_a_width_fits_its_widest_cell_and_a_cut_ends_in_an_ellipsis() -> (
    None
):
    app = _Lines()
    async with app.run_test(size=(60, 12)) as pilot:
        table = _lines(app)
        table.show(["a" * 20, "b"], _cells)
        await pilot.pause()
        assert table.columns["note"].content_width == len("note of ") + 20
        assert "name aaaaaa…" in table.render_line(1).text  # 12 wide: cut


async def test_text_from_outside_is_drawn_inert() -> None:
    app = _Lines()
    async with app.run_test(size=(60, 12)) as pilot:
        table = _lines(app)
        table.show(["[b]x[/b]\x1b[31m"], _cells)
        await pilot.pause()
        line = table.render_line(1)
        assert "\x1b" not in line.text
        assert "[b]x" in line.text


class _Auto(App[None]):
    def compose(self) -> ComposeResult:
        table: RecordTable[str] = RecordTable(record_key=str, id="auto")
        for name in ("Name", "Provider", "Note"):
            table.add_column(name, key=name.lower())
        yield table


async def test_a_very_long_cell_leaves_the_columns_after_it_in_view() -> None:
    """A column sized to its cells is cut to half the table's width when the columns
    overflow it (a hostile name thousands of characters long hid every other column);
    the last column and columns that fit keep their widths, and a wider table shows
    more of the long cell."""
    app = _Auto()
    async with app.run_test(size=(100, 10)) as pilot:
        table: RecordTable[str] = app.query_one("#auto", RecordTable)
        table.show(["short"], lambda r: ["Acme", "openai", "fits"])
        await pilot.pause()
        assert [c.content_width for c in table.columns.values()] == [4, 8, 4]
        table.show(["long"], lambda r: ["A" * 2000, "openai", "N" * 300])
        await pilot.pause()
        name, provider, note = table.columns.values()
        assert name.content_width == 50 and provider.content_width == 8
        assert note.content_width == 300  # the last: it scrolls, hiding nothing after it
        assert "openai" in "".join(s.text for s in table.render_line(1))
        await pilot.resize_terminal(140, 10)
        await pilot.pause()
        assert name.content_width == 70


def test_a_set_width_counts_when_the_columns_overflow_the_table() -> None:
    """Columns of a set width (the console's own) count as drawn: beside them a long
    cell is cut as soon as the columns overflow the table, not only when it alone
    does."""
    from vagent_tui.ui.widgets.record_columns import LineColumn, fit_columns

    columns = [LineColumn("when", Text("When"), 40, 40), LineColumn("name", Text("Name")),
               LineColumn("note", Text("Note"))]  # fmt: skip
    fit_columns(columns, [4, 80, 4], 100)
    assert [c.content_width for c in columns] == [40, 50, 4]
    fit_columns(columns, [4, 40, 4], 100)  # they fit: nothing is cut
    assert [c.content_width for c in columns] == [40, 40, 4]
