"""`FieldGrid`: labelled rows drawn as the two-column grid they replace."""

from __future__ import annotations

from rich.console import Console
from rich.style import Style
from rich.text import Text

from vagent_tui.ui.widgets.field_grid import FieldGrid


def _lines(grid: FieldGrid, width: int) -> list[str]:
    console = Console(width=width, color_system=None, legacy_windows=False)
    return [
        "".join(segment.text for segment in line).rstrip()
        for line in console.render_lines(grid, console.options, pad=False)
    ]


def test_labels_share_a_column_and_long_values_wrap_under_the_value() -> None:
    grid = FieldGrid()
    grid.add_row("Id", "1111")
    grid.add_row("Path", "Northwind Voice Partners › Bluebird Telecom")
    assert _lines(grid, 24) == [
        "Id   1111",
        "Path Northwind Voice",
        "     Partners › Bluebird",
        "     Telecom",
    ]


def test_a_word_longer_than_the_column_is_folded_and_a_fixed_label_width_kept() -> None:
    grid = FieldGrid(label_width=6)
    grid.add_row("Username", "abcdefghijklmnop")
    assert _lines(grid, 14) == ["Usern… abcdefg", "       hijklmn", "       op"]


def test_text_is_never_markup_and_styles_are_kept() -> None:
    grid = FieldGrid()
    grid.add_row("[bold]Name[/]", Text("Acme", style="italic"))
    console = Console(width=40, color_system="truecolor")
    segments = list(console.render(grid, console.options))
    assert segments[0].text.startswith("[bold]Name[/]")
    assert segments[0].style is not None and segments[0].style.bold
    acme = next(s for s in segments if s.text == "Acme")
    assert acme.style == Style(italic=True)


def test_a_str_is_made_inert() -> None:
    grid = FieldGrid()
    grid.add_row("Name", "evil\x1b]0;pwned\x07")
    assert "\x1b" not in _lines(grid, 40)[0]
