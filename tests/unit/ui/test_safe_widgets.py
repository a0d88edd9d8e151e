"""The widget side of outside text: `safe`, `safe_markup`, `SafeTable`."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import App, ComposeResult
from textual.content import Content
from textual.coordinate import Coordinate

from tests.helpers import original_key
from vagent_tui.ui.text import safe, safe_markup, safe_rich
from vagent_tui.ui.widgets.tables import SafeTable, row_table

HOSTILE = "[@click=app.screenshot()]x[/] \x1b]52;c;SGFja2Vk\x07 \u202e"


def test_safe_is_text_never_markup() -> None:
    shown = safe(HOSTILE)
    assert isinstance(shown, Text)
    assert shown.plain == "[@click=app.screenshot()]x[/] ␛]52;c;SGFja2Vk␇ ⟨U+202E⟩"


def test_safe_markup_parses_back_to_the_literal_text() -> None:
    # What a markup-only API (the palette) shows is the inert text, brackets and all.
    assert Content.from_markup(safe_markup(HOSTILE)).plain == safe(HOSTILE).plain


def test_safe_rich_keeps_clean_text_and_its_spans() -> None:
    clean = Text("ok")
    clean.stylize("bold", 0, 1)
    assert safe_rich(clean) is clean
    dirty = Text("a\x1bb", style="red")
    assert safe_rich(dirty).plain == "a␛b"
    assert safe_rich(dirty).style == "red"


class TableApp(App[None]):
    def compose(self) -> ComposeResult:
        yield row_table("t", (("IP", "ip"), ("Label", "label")))


async def test_table_cells_are_inert_and_repeated_keys_kept() -> None:
    app = TableApp()
    async with app.run_test() as pilot:
        table = app.query_one(SafeTable)
        table.add_row("192.0.2.1", "[/]", key="192.0.2.1")
        table.add_row("192.0.2.1", Text("\x1b[2J"), key="192.0.2.1")
        table.add_row("192.0.2.1", "third", key="192.0.2.1")
        await pilot.pause()
        assert table.row_count == 3
        cells: list[Any] = [table.get_row_at(i)[1] for i in range(3)]
        assert [c.plain for c in cells] == ["[/]", "␛[2J", "third"]
        keys = [table.coordinate_to_cell_key(Coordinate(i, 0)).row_key.value for i in range(3)]
        assert len(set(keys)) == 3
        assert {original_key(k) for k in keys} == {"192.0.2.1"}
        assert keys[1] is not None
        table.update_cell(keys[1], "label", "\x1b]0;pwned\x07")
        assert table.get_row_at(1)[1].plain == "␛]0;pwned␇"


async def test_a_table_pass_works_out_its_base_style_once_and_draws_the_same() -> None:
    import textual.dom
    from textual.geometry import Region

    app = TableApp()
    async with app.run_test(size=(60, 20)) as pilot:
        table = app.query_one(SafeTable)
        for n in range(12):
            table.add_row(f"192.0.2.{n}", f"host {n}", key=str(n))
        await pilot.pause()
        region = Region(0, 0, table.size.width, table.size.height)
        plain_style = textual.dom.DOMNode.rich_style
        assert isinstance(plain_style, property) and plain_style.fget is not None
        worked_out = 0

        def counting(node: textual.dom.DOMNode) -> Any:
            nonlocal worked_out
            if node is table:
                worked_out += 1
            return plain_style.fget(node)

        table.refresh()
        textual.dom.DOMNode.rich_style = property(counting)
        try:
            lines = table.render_lines(region)
        finally:
            textual.dom.DOMNode.rich_style = plain_style
        assert worked_out == 1  # DataTable asks on every one of the 13 lines
        assert table.rich_style == plain_style.fget(table)  # outside a pass: as Textual has it
        table.refresh()
        assert [line.text for line in table.render_lines(region)] == [s.text for s in lines]
        assert "host 11" in "".join(line.text for line in lines)
