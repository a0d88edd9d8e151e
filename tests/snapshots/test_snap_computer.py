"""Snapshots of the Computer Agents screen at 80x24 and 120x40.

The simulator's clock is pinned (recordings and browser sessions carry times) and the
file tree is rooted at a fixed folder, so nothing depends on the real cwd or clock.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from tests.conftest import FIXED_NOW
from tests.helpers import MakeApp, SnapCompare, settle
from tests.snapshots.sizes import Size, size_id, sizes
from vagent_tui.ui.screens import computer
from vagent_tui.ui.screens.computer import ComputerScreen

SIM_NOW = datetime.fromisoformat(FIXED_NOW).timestamp() - 120  # two minutes before "now"


def app_for(make_app: MakeApp) -> Any:
    return make_app("computer", account=1118, clock=lambda: SIM_NOW)


async def run_before(pilot: Pilot[None]) -> None:
    await settle(pilot)


async def run_before_recording(pilot: Pilot[None]) -> None:
    await settle(pilot)
    await pilot.press("b")  # a browser session fills the slot
    await settle(pilot)
    await pilot.press("s")
    await settle(pilot)


async def run_before_errors(pilot: Pilot[None]) -> None:
    await settle(pilot)
    screen = pilot.app.screen
    screen.query_one("#computer-slot", Input).value = "-1"
    screen.query_one("#computer-path", Input).value = "../outside.txt"
    screen.query_one("#computer-mode", Input).value = "999"
    await pilot.pause()
    await pilot.press("s")
    await pilot.press("escape", "u")
    await settle(pilot)


async def run_before_picker(pilot: Pilot[None]) -> None:
    await settle(pilot)
    await pilot.press("f")
    await settle(pilot)


@pytest.fixture
def tree_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "upload-me"
    (root / "reports").mkdir(parents=True)
    (root / "notes.txt").write_text("notes\n")
    (root / "script.sh").write_text("#!/bin/sh\n")
    monkeypatch.setattr(computer, "TREE_ROOT", root)
    return root


@pytest.mark.parametrize("size", sizes(ComputerScreen), ids=size_id)
def test_computer(snap_compare: SnapCompare, make_app: MakeApp, size: Size) -> None:
    assert snap_compare(app_for(make_app), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", sizes(ComputerScreen), ids=size_id)
def test_computer_recording(snap_compare: SnapCompare, make_app: MakeApp, size: Size) -> None:
    app = app_for(make_app)
    assert snap_compare(app, terminal_size=size, run_before=run_before_recording)


def test_computer_errors_120x40(snap_compare: SnapCompare, make_app: MakeApp) -> None:
    app = app_for(make_app)
    assert snap_compare(app, terminal_size=(120, 40), run_before=run_before_errors)


def test_computer_picker_80x24(
    snap_compare: SnapCompare, make_app: MakeApp, tree_root: Path
) -> None:
    app = app_for(make_app)
    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before_picker)
