"""Panes that lay the screen out again only when they change height (`FittedStatic`, the
`StatusLine`), a select held shut while its value is in use (`HeldSelect`), and the
base screen's test for a text field, which does not import TextArea."""

from __future__ import annotations

from typing import Any

import pytest
from rich.text import Text
from textual.app import App, ComposeResult
from textual.widget import Widget

from vagent_tui.ui.widgets.fitted import FittedStatic
from vagent_tui.ui.widgets.held_select import HeldSelect
from vagent_tui.ui.widgets.status import StatusLine


class _Panes(App[None]):
    CSS = """
    #kept { height: auto; min-height: 4; }
    #free { height: auto; }
    """

    def compose(self) -> ComposeResult:
        yield StatusLine(id="status")
        yield FittedStatic("", id="kept")
        yield FittedStatic("", id="free")
        yield HeldSelect([("One", "one"), ("Two", "two")], value="one", allow_blank=False)


def _layouts(monkeypatch: pytest.MonkeyPatch, widget: Widget) -> list[bool]:
    """Every ``layout`` a refresh of ``widget`` asks from now on."""
    asked: list[bool] = []
    refresh = widget.refresh

    def spy(*regions: Any, **options: Any) -> Widget:
        asked.append(bool(options.get("layout")))
        return refresh(*regions, **options)

    monkeypatch.setattr(widget, "refresh", spy)
    return asked


async def test_a_status_of_the_same_height_lays_nothing_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    app = _Panes()
    async with app.run_test(size=(60, 20)) as pilot:
        status = app.query_one(StatusLine)
        status.info("Loading")
        await pilot.pause()
        asked = _layouts(monkeypatch, status)
        status.ok("12 answered")
        status.busy("Asking 12 accounts")
        assert asked and not any(asked)
        await pilot.pause()
        assert "Asking 12 accounts" in str(status.render())
        status.info("word " * 30)  # wraps: the line grows, the screen is laid out
        assert any(asked)
        await pilot.pause()
        assert status.size.height > 1


async def test_a_pane_within_its_min_height_keeps_its_size_without_a_layout(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    app = _Panes()
    async with app.run_test(size=(60, 20)) as pilot:
        kept = app.query_one("#kept", FittedStatic)
        free = app.query_one("#free", FittedStatic)
        for pane in (kept, free):
            pane.show(Text("one\ntwo"))
        await pilot.pause()
        kept_layouts, free_layouts = _layouts(monkeypatch, kept), _layouts(monkeypatch, free)
        for pane in (kept, free):
            pane.show(Text("one\ntwo\nthree"))
        assert not any(kept_layouts)  # 3 lines in a pane of at least 4: the same size
        assert any(free_layouts)  # 2 lines to 3: laid out again
        await pilot.pause()
        assert kept.size.height == 4 and free.size.height == 3
        kept.show(Text("\n".join("abcdef")))  # past the minimum: laid out
        assert any(kept_layouts)
        await pilot.pause()
        assert kept.size.height == 6


async def test_a_held_select_stays_shut_and_says_why() -> None:
    app = _Panes()
    async with app.run_test(size=(60, 20)) as pilot:
        select = app.query_one(HeldSelect)
        select.focus()
        select.hold("The question stays while it is asked")
        await pilot.press("enter")
        await pilot.pause()
        assert not select.expanded
        assert [n.message for n in app._notifications] == ["The question stays while it is asked"]
        select.release()
        await pilot.press("enter")
        await pilot.pause()
        assert select.expanded
        select.hold("held again")  # a hold shuts a list already open
        assert not select.expanded


def test_text_fields_are_known_without_importing_text_area_first() -> None:
    from textual.widgets import Input, Static, TextArea

    from vagent_tui.ui.fields import is_text_field

    class Notes(TextArea):
        pass

    assert is_text_field(Input()) and is_text_field(TextArea()) and is_text_field(Notes())
    assert not is_text_field(Static("x")) and not is_text_field(None)
