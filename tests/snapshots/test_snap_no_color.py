"""NO_COLOR snapshots (no colour at all: cursors and focus in reverse video and bold),
and the layouts of a short and a very wide terminal."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

from tests.helpers import MakeApp, SnapCompare, settle


@pytest.fixture
def no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")


async def _settled(pilot: Pilot[None]) -> None:
    await settle(pilot)


def test_no_color_scope_80x24(snap_compare: SnapCompare, make_app: MakeApp, no_color: None) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        await pilot.press("down", "space")
        await settle(pilot)
        await pilot.press("down")
        await settle(pilot)

    assert snap_compare(make_app("scope"), terminal_size=(80, 24), run_before=run_before)


def test_no_color_agent_80x24(snap_compare: SnapCompare, make_app: MakeApp, no_color: None) -> None:
    app = make_app("agent", account=1111)
    assert snap_compare(app, terminal_size=(80, 24), run_before=_settled)


def test_no_color_voices_focused_dropdown_80x24(
    snap_compare: SnapCompare, make_app: MakeApp, no_color: None
) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        pilot.app.screen.query_one("#voices-language").focus()
        await pilot.pause()

    app = make_app("voices", account=1111)
    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


def test_no_color_form_dialog_with_focus_80x24(
    snap_compare: SnapCompare, make_app: MakeApp, no_color: None
) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        await pilot.press("a")
        await settle(pilot)
        await pilot.press(*"10.0.0.300", "enter")
        await settle(pilot)

    assert snap_compare(make_app("sip"), terminal_size=(80, 24), run_before=run_before)


@pytest.mark.parametrize("name", ["voices", "functions"])
def test_short_terminal_60x15(snap_compare: SnapCompare, make_app: MakeApp, name: str) -> None:
    app = make_app(name, account=1111)
    assert snap_compare(app, terminal_size=(60, 15), run_before=_settled)


@pytest.mark.parametrize("name", ["voices", "inbox"])
def test_wide_terminal_200x50(snap_compare: SnapCompare, make_app: MakeApp, name: str) -> None:
    app = make_app(name, account=1111)
    assert snap_compare(app, terminal_size=(200, 50), run_before=_settled)
