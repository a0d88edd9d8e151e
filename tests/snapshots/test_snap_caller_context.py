"""Snapshots at 80x24 of the reviews before ``POST /context`` (``K`` on Calls: the text
as it will be, then its diff) and before ``POST /tasks/{taskId}`` (``e`` on Tasks)."""

from __future__ import annotations

import time

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, TextArea

from tests.helpers import MakeApp, SnapCompare, settle
from tests.snapshots.test_snap_calls import calls_app
from tests.snapshots.test_snap_tasks import tasks_app


@pytest.fixture(autouse=True)
def _utc(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()


def test_caller_context_review_80x24(snap_compare: SnapCompare, make_app: MakeApp) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        await pilot.press("K")
        await settle(pilot)
        area = pilot.app.screen.query_one(TextArea)
        area.text = (area.text + "\n" if area.text else "") + "Name: Dana Lee\nPrefers texts"
        await pilot.press("ctrl+s")
        await settle(pilot)

    assert snap_compare(calls_app(make_app), terminal_size=(80, 24), run_before=run_before)


def test_task_edit_review_80x24(snap_compare: SnapCompare, make_app: MakeApp) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        await pilot.press("g", "down")  # the newest pending call (in 30 minutes)
        await settle(pilot)
        await pilot.press("e")
        await settle(pilot)
        pilot.app.screen.query_one("#form-start-in", Input).value = "90"
        pilot.app.screen.query_one("#form-context", Input).value = "Ask for Dana"
        await pilot.press("enter")
        await settle(pilot)

    assert snap_compare(tasks_app(make_app), terminal_size=(80, 24), run_before=run_before)
