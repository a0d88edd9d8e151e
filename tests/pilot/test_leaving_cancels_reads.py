"""Leaving a screen cancels its reads (not its writes) and it reloads when shown again."""

from __future__ import annotations

from collections.abc import Callable

from textual.pilot import Pilot
from textual.widgets import DataTable

from tests.helpers import MakeApp, settle, sim_of


async def _wait(pilot: Pilot[None], condition: Callable[[], bool], seconds: float = 5.0) -> bool:
    for _ in range(int(seconds / 0.05)):
        if condition():
            return True
        await pilot.pause(0.05)
    return condition()


async def test_leaving_a_loading_screen_cancels_its_read_then_reloads(make_app: MakeApp) -> None:
    app = make_app("scope", account=1111)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, rounds=80)
        sim = sim_of(app)
        sim.latency_ms = 2000  # every read from now on stays in flight for 2 s
        await pilot.press("3")  # voices: a slow read starts
        voices = app.screen
        assert await _wait(
            pilot, lambda: any(w.node is voices and w.is_running for w in app.workers)
        ), "the voices read should be under way"
        running = [w for w in app.workers if w.node is voices and w.is_running]
        await pilot.press("1")  # leave before it answers
        assert await _wait(pilot, lambda: all(w.is_cancelled or w.is_finished for w in running))
        assert any(w.is_cancelled for w in running)
        sim.latency_ms = 0
        await pilot.press("3")  # back: it loads again
        table = voices.query_one(DataTable)
        assert await _wait(pilot, lambda: table.row_count > 0, seconds=10)
