"""Focus is visible in every shipped theme: at least 3:1 between focused and not.

Each focusable kind the console uses (a bordered and a compact field, a bordered and a
compact dropdown, a check box, a switch, a button, a table) is drawn focused and then
blurred; the cells that change are compared colour for colour (what the eye sees: the
glyph's colour where there is a glyph, the background everywhere), and the strongest
change must reach WCAG's 3:1 for a focus indicator. A 5% tint (about 1.1:1) fails.
ANSI colours are measured in a common terminal palette (dark or light, as the theme).
"""

from __future__ import annotations

from typing import Any

import pytest
from rich.color import Color as RichColor
from rich.style import Style
from rich.terminal_theme import DEFAULT_TERMINAL_THEME, MONOKAI, TerminalTheme
from textual.app import ComposeResult
from textual.geometry import Region
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Button, Checkbox, DataTable, Input, Select, Switch

from tests.helpers import settle
from vagent_tui.services.connect import demo_client
from vagent_tui.ui.app import VagentApp
from vagent_tui.ui.themes import load_themes, packaged_theme_dir

THEMES = sorted(theme.name for theme in load_themes([packaged_theme_dir()])[0])
MINIMUM = 3.0


class Focusables(Screen[None]):
    def compose(self) -> ComposeResult:
        yield Input("text", id="input")
        yield Input("text", id="input-compact", compact=True)
        yield Select([("one", 1), ("two", 2)], value=1, id="select")
        yield Select([("one", 1), ("two", 2)], value=1, id="select-compact", compact=True)
        yield Checkbox("check", id="checkbox")
        yield Switch(id="switch")
        yield Button("Button", id="button")
        table: DataTable[str] = DataTable(id="table")
        table.add_columns("a", "b")
        table.add_rows([("1", "2"), ("3", "4")])
        yield table
        yield Input("elsewhere", id="elsewhere")


PALETTE: list[TerminalTheme] = [MONOKAI]
"""The terminal palette ANSI colours are measured in: a dark one for a dark theme."""


def _rgb(color: RichColor | None, foreground: bool) -> tuple[int, int, int]:
    if color is None:
        color = RichColor.default()
    r, g, b = color.get_truecolor(PALETTE[0], foreground=foreground)
    return (r, g, b)


def _luminance(rgb: tuple[int, int, int]) -> float:
    def channel(value: int) -> float:
        v = value / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = rgb
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def _cells(widget: Widget) -> list[tuple[str, tuple[int, int, int], tuple[int, int, int]]]:
    """(glyph, seen foreground, seen background) of every cell the widget and the
    widgets inside it (a dropdown's current value) draw."""
    cells: list[tuple[str, tuple[int, int, int], tuple[int, int, int]]] = []
    for part in [widget, *widget.query("*")]:
        assert isinstance(part, Widget)
        size = part.outer_size
        for strip in part.render_lines(Region(0, 0, size.width, size.height)):
            for segment in strip:
                style = segment.style or Style()
                fg, bg = _rgb(style.color, True), _rgb(style.bgcolor, False)
                if style.reverse:
                    fg, bg = bg, fg
                cells.extend((char, fg, bg) for char in segment.text)
    return cells


def focus_change(focused: list[Any], blurred: list[Any]) -> float:
    """The strongest colour change between the two drawings of the same cells."""
    best = 1.0
    for (char, fg1, bg1), (_, fg2, bg2) in zip(focused, blurred, strict=False):
        best = max(best, contrast(bg1, bg2))
        if char.strip():
            best = max(best, contrast(fg1, fg2))
    return best


@pytest.mark.parametrize("theme", THEMES)
async def test_focus_is_visible_in_every_theme(theme: str) -> None:
    app = VagentApp(demo_client(), profile_label="demo", theme=theme)
    PALETTE[0] = MONOKAI if app.current_theme.dark else DEFAULT_TERMINAL_THEME
    async with app.run_test(size=(60, 40)) as pilot:
        await settle(pilot)
        await app.push_screen(Focusables())
        await pilot.pause()
        screen = app.screen
        weak = {}
        for widget_id in ("input", "input-compact", "select", "select-compact", "checkbox",
                          "switch", "button", "table"):  # fmt: skip
            widget = screen.query_one(f"#{widget_id}", Widget)
            widget.focus()
            await pilot.pause()
            focused = _cells(widget)
            screen.query_one("#elsewhere").focus()
            await pilot.pause()
            change = focus_change(focused, _cells(widget))
            if change < MINIMUM:
                weak[widget_id] = round(change, 2)
        assert not weak, f"{theme}: focus shows too faintly (contrast): {weak}"
