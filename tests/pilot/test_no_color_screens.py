"""NO_COLOR on every registered screen: no text drawn in its own background colour.

The cells are read from what each visible widget renders (after Textual's colour
filters), so a filter that turns the theme's colours into black on black is caught. An
empty NO_COLOR means "colours" (no-color.org): the console and Textual must agree on
that, or Textual's monochrome filter meets the ANSI theme's "terminal default" colours
and writes colour 16 on colour 16 everywhere.
"""

from __future__ import annotations

from typing import Any

import pytest
from rich.segment import Segment
from textual.geometry import Region
from textual.widget import Widget

from tests.helpers import DEMO_ACCOUNT_FOR, settle
from vagent_tui.services.connect import demo_client
from vagent_tui.ui.app import VagentApp
from vagent_tui.ui.registry import SCREENS

NAMES = [info.name for info in SCREENS]


def _cells(app: Any) -> list[tuple[str, Segment]]:
    """(widget, segment) for every visible, non-blank segment the screen's widgets draw."""
    found: list[tuple[str, Segment]] = []
    for widget in app.screen.query("*"):
        assert isinstance(widget, Widget)
        if not widget.display or not widget.region.area:
            continue
        size = widget.outer_size
        for strip in widget.render_lines(Region(0, 0, size.width, size.height)):
            for segment in strip:
                if segment.text.strip() and not segment.control:
                    found.append((widget.__class__.__name__ + f"#{widget.id or ''}", segment))
    return found


def _invisible(segment: Segment) -> bool:
    style = segment.style
    if style is None or style.color is None or style.bgcolor is None:
        return False
    if style.color.is_default or style.bgcolor.is_default:
        return False  # the terminal's own foreground on its own background
    return style.color == style.bgcolor or (
        style.color.get_truecolor() == style.bgcolor.get_truecolor()
    )


Seen = dict[str, tuple[list[str], list[str]]]


async def _walk(names: list[str], theme: str) -> Seen:
    """Open each of ``names`` in one app, each on the demo account it shows best:
    (widgets with invisible text, widgets with a colour written) by name."""
    app = VagentApp(demo_client(), profile_label="demo · demo-partner", initial_screen="scope",
                    theme=theme)  # fmt: skip
    seen: Seen = {}
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        for name in names:
            app.select_target(DEMO_ACCOUNT_FOR.get(name))
            await settle(pilot)
            app.action_show(name)
            await settle(pilot)
            cells = _cells(app)
            assert cells, f"{name}: nothing drawn"
            invisible = sorted({f"{w}: {s.text[:20]!r}" for w, s in cells if _invisible(s)})
            coloured = sorted(
                {w for w, s in cells if s.style and s.style.color and not s.style.color.is_default}
            )
            seen[name] = invisible, coloured
    return seen


async def test_no_color_every_screen_readable(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every registered screen, in one app."""
    monkeypatch.setenv("NO_COLOR", "1")
    for name, (invisible, coloured) in (await _walk(NAMES, "vagent-ansi")).items():
        assert not invisible, f"{name}: text in its background colour: {invisible[:5]}"
        assert not coloured, f"{name}: colour drawn despite NO_COLOR: {coloured[:5]}"


@pytest.mark.parametrize("theme", ["vagent-ansi", "vagent-dark"])
async def test_empty_no_color_is_not_black_on_black(
    monkeypatch: pytest.MonkeyPatch, theme: str
) -> None:
    """An empty NO_COLOR is "not set" (no-color.org): colours, and all of them readable."""
    monkeypatch.setenv("NO_COLOR", "")
    for name, (invisible, coloured) in (await _walk(["scope", "voices", "agent"], theme)).items():
        assert not invisible, f"{name}: text in its background colour: {invisible[:5]}"
        if theme == "vagent-dark":
            assert coloured, f"{name}: an empty NO_COLOR took the colours away"


async def test_a_chosen_colour_theme_under_no_color_is_readable(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A profile that names a true-colour theme, run with NO_COLOR: colours stripped."""
    monkeypatch.setenv("NO_COLOR", "1")
    invisible, coloured = (await _walk(["voices"], "vagent-light"))["voices"]
    assert not invisible and not coloured, (invisible[:3], coloured[:3])


async def test_no_color_check_boxes_on_and_off_look_different(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A check box's X is drawn on and off: without colour, on is bold and underlined,
    off faint (Migrations: Dry run on, Force off; its sections, a selection list)."""
    from textual.widgets import Checkbox, SelectionList

    monkeypatch.setenv("NO_COLOR", "1")
    app = VagentApp(demo_client(), initial_screen="migrations", initial_account=1100,
                    theme="vagent-ansi")  # fmt: skip
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        boxes = {box.value: box.get_visual_style("toggle--button") for box in
                 app.screen.query(Checkbox)}  # fmt: skip
        assert boxes[True].bold and boxes[True].underline and not boxes[True].dim
        assert boxes[False].dim and not boxes[False].underline
        sections = app.screen.query_one(SelectionList)
        off = sections.get_component_rich_style("selection-list--button")
        on = sections.get_component_rich_style("selection-list--button-selected")
        assert off.dim and not off.underline and on.bold and on.underline
