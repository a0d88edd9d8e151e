"""Snapshots of the Tasks screen (a task in each state, the counts and today's limits)
and of the Agent screen's test call dialog, at 80x24 and 120x40 (the simulator's clock
pinned to the suite's time)."""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot

from tests.helpers import MakeApp, SnapCompare, settle, sim_of
from tests.snapshots.sizes import Size, size_id, sizes
from vagent_tui.sim import outbound
from vagent_tui.ui.app import VagentApp
from vagent_tui.ui.screens.tasks import TasksScreen

AGENT = 1111
NOW = 1_763_640_000.0  # 2025-11-20T12:00:00Z, the suite's VAGENT_NOW


class Clock:
    def __init__(self) -> None:
        self.now = NOW

    def __call__(self) -> float:
        return self.now


def tasks_app(make_app: MakeApp) -> VagentApp:
    """Tasks of 1111: two ended an hour ago (finished, errored), one canceled before its
    start, one running, two pending."""
    clock = Clock()
    app = make_app("tasks", account=AGENT, clock=clock)
    sim = sim_of(app)
    agent = sim.accounts[AGENT]

    def queue(items: list[dict[str, Any]], kind: str = "call") -> None:
        outbound.queue(sim, agent, items, kind)

    clock.now = NOW - 3600
    queue([{"target": "+15551230001", "context": "Demo follow-up"}])
    queue([{"target": "+15551230666", "content": "Your visit is at 10"}], "text")
    queue([{"target": "+15551230005", "scheduledFor": int(NOW) + 600}])
    clock.now = NOW - 1800
    [canceled] = [t for t in sim.outbound.values() if t["target"] == "+15551230005"]
    outbound.update(sim, canceled, {"state": "canceled"})
    clock.now = NOW
    queue([{"target": "+15551230002"}])
    queue([{"target": "+15551230003", "scheduledFor": int(NOW) + 1800},
           {"target": "+15551230004", "scheduledFor": int(NOW) + 86_400}])  # fmt: skip
    return app


async def _settled(pilot: Pilot[None]) -> None:
    await settle(pilot)


@pytest.mark.parametrize("size", sizes(TasksScreen), ids=size_id)
def test_tasks(snap_compare: SnapCompare, make_app: MakeApp, size: Size) -> None:
    assert snap_compare(tasks_app(make_app), terminal_size=size, run_before=_settled)


def test_tasks_add_form_bad_number_80x24(snap_compare: SnapCompare, make_app: MakeApp) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        await pilot.press("a")
        await settle(pilot)
        await pilot.press("tab", *"555 1234", "enter")
        await settle(pilot)

    assert snap_compare(tasks_app(make_app), terminal_size=(80, 24), run_before=run_before)


def test_call_test_bad_number_80x24(snap_compare: SnapCompare, make_app: MakeApp) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        await pilot.press("T")
        await settle(pilot)
        await pilot.press(*"5551234", "enter")
        await settle(pilot)

    app = make_app("agent", account=AGENT, clock=Clock())
    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


def test_call_test_question_120x40(snap_compare: SnapCompare, make_app: MakeApp) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        await pilot.press("T")
        await settle(pilot)
        await pilot.press(*"+15551230042", "enter")
        await settle(pilot)

    app = make_app("agent", account=AGENT, clock=Clock())
    assert snap_compare(app, terminal_size=(120, 40), run_before=run_before)


def test_call_test_dialog_120x40(snap_compare: SnapCompare, make_app: MakeApp) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        await pilot.press("T")
        await settle(pilot)

    app = make_app("agent", account=AGENT, clock=Clock())
    assert snap_compare(app, terminal_size=(120, 40), run_before=run_before)


def test_tasks_limits_form_80x24(snap_compare: SnapCompare, make_app: MakeApp) -> None:
    """The limits form with a bad value refused at its field (a key that is not a
    super-admin's: the daily caps and the concurrency locked)."""

    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        await pilot.press("L")
        await settle(pilot)
        await pilot.press("tab", "ctrl+u", *"1-9", "enter")
        await settle(pilot)

    assert snap_compare(tasks_app(make_app), terminal_size=(80, 24), run_before=run_before)
