"""Snapshots of Calls (the page, its filters line, the detail with the transcript) at
80x24, 120x40 and 150x40 (the detail beside the table), in NO_COLOR, with the filters
dialog, and of one call's conversation.

The simulator's clock is the suite's fixed time and local time is UTC, so the calls and
their times are the same on every run.
"""

from __future__ import annotations

import time

import pytest
from textual.pilot import Pilot

from tests.helpers import MakeApp, SnapCompare, settle
from tests.snapshots.sizes import Size, size_id, sizes
from vagent_tui.ui.app import VagentApp
from vagent_tui.ui.screens.calls import CallsScreen

NOW = 1_763_640_000.0  # 2025-11-20T12:00:00Z, the suite's VAGENT_NOW


@pytest.fixture(autouse=True)
def _utc(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()


def calls_app(make_app: MakeApp) -> VagentApp:
    return make_app("calls", account=1111, clock=lambda: NOW)


async def highlighted(pilot: Pilot[None]) -> None:
    await settle(pilot)
    await pilot.press("down", "down")
    await settle(pilot)


@pytest.mark.parametrize("size", sizes(CallsScreen), ids=size_id)
def test_calls(snap_compare: SnapCompare, make_app: MakeApp, size: Size) -> None:
    assert snap_compare(calls_app(make_app), terminal_size=size, run_before=highlighted)


def test_calls_wide_150x40(snap_compare: SnapCompare, make_app: MakeApp) -> None:
    assert snap_compare(calls_app(make_app), terminal_size=(150, 40), run_before=highlighted)


def test_calls_no_color_80x24(
    snap_compare: SnapCompare, make_app: MakeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    assert snap_compare(calls_app(make_app), terminal_size=(80, 24), run_before=highlighted)


def test_calls_filtered_120x40(snap_compare: SnapCompare, make_app: MakeApp) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        await pilot.press("F")
        await settle(pilot)
        await pilot.press(*"yesterday", "tab", "tab", *"inbound-call", "enter")
        await settle(pilot)

    assert snap_compare(calls_app(make_app), terminal_size=(120, 40), run_before=run_before)


def test_call_conversation_120x40(snap_compare: SnapCompare, make_app: MakeApp) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        await highlighted(pilot)
        await pilot.press("enter")
        await settle(pilot)

    assert snap_compare(calls_app(make_app), terminal_size=(120, 40), run_before=run_before)


def test_call_conversation_no_color_80x24(
    snap_compare: SnapCompare, make_app: MakeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NO_COLOR", "1")

    async def run_before(pilot: Pilot[None]) -> None:
        await highlighted(pilot)
        await pilot.press("enter")
        await settle(pilot)

    assert snap_compare(calls_app(make_app), terminal_size=(80, 24), run_before=run_before)
