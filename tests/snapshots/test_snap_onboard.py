"""Snapshots of the Onboard screen (demo-reseller): a file planned, each kind of outcome
on show (will create, unknown parent, refused)."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.pilot import Pilot

from tests.helpers import MakeApp, SnapCompare, settle, wait_for
from tests.pilot.test_onboard import FILE, status_text
from tests.snapshots.sizes import size_id, sizes
from vagent_tui.ui.dialogs import PromptModal
from vagent_tui.ui.screens.onboard import OnboardScreen

SIZES = sizes(OnboardScreen)


@pytest.mark.parametrize("size", SIZES, ids=size_id)
def test_onboard_plan(
    snap_compare: SnapCompare, make_app: MakeApp, size: tuple[int, int], tmp_path: Path
) -> None:
    path = tmp_path / "customers.csv"
    path.write_text(FILE)

    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        await pilot.press("c")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, PromptModal))
        pilot.app.screen.query_one("Input").value = str(path)  # type: ignore[attr-defined]
        await pilot.press("enter")
        await settle(pilot)
        await wait_for(pilot, lambda: "Planned" in status_text(pilot.app))
        await settle(pilot)

    app = make_app("onboard", token="demo-reseller")
    assert snap_compare(app, terminal_size=size, run_before=run_before)
