"""Leaving a screen cancels its reads (not its writes) and it reloads when shown again."""

from __future__ import annotations

from typing import Any

from tests.helpers import settle


async def test_leaving_a_loading_screen_cancels_its_read_then_reloads(make_app: Any) -> None:
    app = make_app("scope", account=1111, latency_ms=400)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, rounds=80)
        await pilot.press("3")  # voices: a 400 ms read starts
        await pilot.pause(0.1)
        voices = app.screen
        running = [w for w in app.workers if w.node is voices and w.is_running]
        assert running, "the voices read should be under way"
        await pilot.press("1")  # leave before it answers
        await pilot.pause(0.05)
        assert all(w.is_cancelled or w.is_finished for w in running)
        assert any(w.is_cancelled for w in running)
        await pilot.press("3")  # back: it loads again
        await settle(pilot, rounds=80)
        table = voices.query_one("DataTable")
        assert table.row_count > 0
