"""Snapshots of changing an agent: the publish review (a diff) and the settings form."""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, TextArea

from tests.helpers import MakeApp, SnapCompare, settle, wait_for
from tests.snapshots.sizes import Size, size_id, sizes
from vagent_tui.ui.dialogs import DiffModal, ReviewModal
from vagent_tui.ui.screens.settings import SettingsScreen
from vagent_tui.ui.widgets.form import FormField


async def _review_of(pilot: Pilot[None], key: str) -> None:
    await settle(pilot)
    await pilot.press(key)
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, ReviewModal | DiffModal))
    await pilot.pause(0.1)


def test_publish_review_120x40(snap_compare: SnapCompare, make_app: MakeApp) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        await _review_of(pilot, "P")

    app = make_app("agent", account=1112)
    assert snap_compare(app, terminal_size=(120, 40), run_before=run_before)


def test_diff_80x24(snap_compare: SnapCompare, make_app: MakeApp) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        await _review_of(pilot, "D")

    app = make_app("agent", account=1112)
    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


def test_restore_into_live_review_80x24(snap_compare: SnapCompare, make_app: MakeApp) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        await pilot.press("v")
        await pilot.press("down")
        await _review_of(pilot, "L")

    app = make_app("agent", account=1112)
    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


def _settings(size: tuple[int, int]) -> Any:
    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        await pilot.press("E")
        await wait_for(pilot, lambda: getattr(pilot.app.screen, "built", False))
        screen = pilot.app.screen
        for editor in [*screen.query(Input), *screen.query(TextArea)]:
            editor.cursor_blink = False  # a blinking cursor is a matter of timing
        screen.query_one("#set-agentLang", Input).value = "english"
        await pilot.press("ctrl+s")  # refused at the field: nothing sent
        field = screen.query_one("#field-agentLang", FormField)
        await wait_for(pilot, lambda: field.error)
        field.scroll_visible(animate=False)
        await settle(pilot)
        await pilot.pause(0.2)

    return run_before


@pytest.mark.parametrize("size", sizes(SettingsScreen), ids=size_id)
def test_settings_form(snap_compare: SnapCompare, make_app: MakeApp, size: Size) -> None:
    app = make_app("agent", account=1112)
    assert snap_compare(app, terminal_size=size, run_before=_settings(size))
