"""Stale replies never overwrite newer data; pollers back off while the platform fails
and resume at the normal pace after. Driven by the simulator's fault injection."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.faults.helpers import faulty_app, faulty_client
from tests.faults.test_fault_matrix import idle
from tests.helpers import shown, sim_of
from vagent_tui.services.migrations import MigrationWatcher
from vagent_tui.sim.faults import Faults
from vagent_tui.ui.screens.base import BaseScreen
from vagent_tui.ui.widgets.computer_recording import RecordingPane

JITTER: dict[str, Any] = {"latency_ms": 5, "jitter_ms": 60}
PATIENT = {"timeout": 5.0}
"""Timeouts are not the subject of the jitter tests: a loaded machine must not make one."""


async def test_fast_paging_under_jitter_shows_the_last_wanted_page() -> None:
    app = faulty_app(
        "inbox", account=1111, rooms=500, faults=Faults(seed=5, **JITTER), client_options=PATIENT
    )
    async with app.run_test(size=(120, 40)) as pilot:
        await idle(pilot)
        screen = app.screen
        await pilot.press("n", "n", "n", "n", "p", "n", "n")
        await idle(pilot)
        await pilot.pause(0.3)
        await idle(pilot)
        assert screen.pager.shown.page == screen.pager.page == 5 and screen.pager.answered
        assert not screen.status.has_class("-error")


async def test_fast_target_switches_under_jitter_show_the_last_target() -> None:
    app = faulty_app("voices", faults=Faults(seed=9, **JITTER), client_options=PATIENT)
    async with app.run_test(size=(120, 40)) as pilot:
        await idle(pilot)
        assert app.connection.connected, app.connection.error
        for account in (1111, 1113, 1112, 1111, 1113):
            app.select_target(account)  # a switch, then the screen's reload
            await pilot.pause(0.04)
        await idle(pilot)
        name = sim_of(app).accounts[1113].name
        # The last switch's reload may start a frame after the switch itself ends.
        for _ in range(100):
            text = str(shown(app, BaseScreen).status.content)
            if name in text and not any(w.is_running for w in app.workers):
                break
            await pilot.pause(0.05)
        assert name in text, text


async def test_migration_watcher_backs_off_and_resumes() -> None:
    clock = [1_800_000_000.0]
    client = faulty_client("demo-reseller", clock=lambda: clock[0], task_seconds=30)
    sleeps: list[float] = []

    async def sleep(seconds: float) -> None:
        sleeps.append(seconds)
        clock[0] += seconds

    watcher = MigrationWatcher(client, clock=lambda: clock[0], sleep=sleep)
    template = (await client.list_templates())[0]
    task = watcher.add(await client.migrate(template.id), template_name=template.id)
    faults = client.sim_app.state.sim.faults  # type: ignore[attr-defined]
    faults.set("503", "refused", "timeout", "malformed", path_contains="/migrations/")
    for _ in range(4):
        await watcher.sleep(task.interval)
        await watcher.poll_once(task)
        assert task.error
    assert sleeps == [1.0, 2.0, 4.0, 8.0]  # doubling while it fails
    assert task.interval == 15.0  # bounded
    faults.lift()
    await watcher.poll_once(task)
    assert task.error is None
    assert task.interval == watcher.min_interval  # the normal pace is back
    await watcher.watch(task)
    assert task.final and task.status == "completed"
    await client.aclose()


@pytest.fixture
def fast_polls(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(RecordingPane, "POLL_SECONDS", 0.05)
    monkeypatch.setattr(RecordingPane, "MAX_POLL_SECONDS", 0.4)


async def test_recording_poller_backs_off_and_resumes(fast_polls: None) -> None:
    clock = [1_800_000_000.0]
    app = faulty_app("computer", account=1118, clock=lambda: clock[0], task_seconds=10)
    async with app.run_test(size=(120, 40)) as pilot:
        await idle(pilot)
        screen = app.screen
        pane = screen.recording_pane
        sim = sim_of(app)
        status_path = "/api/v2/computer/accounts/1118/workflow-recordings/status"
        await pilot.press("escape", "b")  # a browser session fills the slot
        await idle(pilot)
        await pilot.press("escape", "s")
        await idle(pilot)
        assert pane.polling
        sim.faults.set("503", path_contains="/workflow-recordings/status")
        polls = sim.count("GET", status_path)
        started = time.monotonic()
        while (
            pane.poll_failures < 3 or "Service temporarily" not in str(screen.status.content)
        ) and time.monotonic() - started < 10:
            await pilot.pause(0.05)
        assert pane.poll_failures >= 3
        assert pane.polling  # still watching
        assert pane.poll_interval > RecordingPane.POLL_SECONDS
        assert "Service temporarily unavailable" in str(screen.status.content)
        assert pane.recording is not None  # what was shown stays
        failed = sim.count("GET", status_path) - polls
        assert failed <= 6  # backed off, not one poll every 0.05 s
        sim.faults.lift()
        started = time.monotonic()
        # The pane tells its screen through a message: the status line follows a moment later.
        while (pane.poll_failures or screen.status.has_class("-error")) and (
            time.monotonic() - started < 10
        ):
            await pilot.pause(0.05)
        assert pane.poll_failures == 0
        assert pane.poll_interval == RecordingPane.POLL_SECONDS
        assert not screen.status.has_class("-error")
        assert pane.polling
