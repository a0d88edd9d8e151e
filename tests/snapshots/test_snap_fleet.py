"""Snapshots of the Fleet screen after a completed run, at 80x24 and 120x40, and the
highlighted account's whole answer below the matrix (80x24).

Rows are sorted by account id; the run's elapsed time is pinned (``fleet._clock``).
At 120x40 the live-voice question runs with one account failing, to show its error cell.
"""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot

from tests.helpers import MakeApp, SnapCompare, settle
from vagent_tui.api.errors import ApiError


@pytest.fixture(autouse=True)
def _pinned_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("vagent_tui.ui.screens.fleet._clock", lambda: 0.0)


async def run_functions(pilot: Pilot[None]) -> None:
    await settle(pilot)
    await pilot.press("s")
    await settle(pilot, rounds=200)


async def run_voice(pilot: Pilot[None]) -> None:
    await settle(pilot)
    await pilot.press("v")
    await settle(pilot)
    await pilot.press("s")
    await settle(pilot, rounds=200)


def test_fleet_80x24(snap_compare: SnapCompare, make_app: MakeApp) -> None:
    app = make_app("fleet")
    assert snap_compare(app, terminal_size=(80, 24), run_before=run_functions)


def test_fleet_120x40(snap_compare: SnapCompare, make_app: MakeApp) -> None:
    app = make_app("fleet")
    real = app.connection.api.get_live

    async def failing(*, target: int | None = None) -> Any:
        if target == 1221:
            raise ApiError(500, "Internal error")
        return await real(target=target)

    app.connection.api.get_live = failing  # type: ignore[method-assign]
    assert snap_compare(app, terminal_size=(120, 40), run_before=run_voice)


async def run_functions_and_pick_1113(pilot: Pilot[None]) -> None:
    await run_functions(pilot)
    await pilot.press("down", "down")  # 1113: thirteen unavailable functions, scrollable
    await settle(pilot)


def test_fleet_detail_80x24(snap_compare: SnapCompare, make_app: MakeApp) -> None:
    app = make_app("fleet")
    assert snap_compare(app, terminal_size=(80, 24), run_before=run_functions_and_pick_1113)
