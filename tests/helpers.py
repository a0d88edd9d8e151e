"""Helpers for pilot tests."""

from __future__ import annotations

from typing import Any


async def settle(pilot: Any, *, rounds: int = 40) -> None:
    """Let workers finish: pause until no worker is running (bounded)."""
    app = pilot.app
    for _ in range(rounds):
        await pilot.pause()
        if not any(w.is_running for w in app.workers):
            await pilot.pause()
            return
        await pilot.pause(0.02)
