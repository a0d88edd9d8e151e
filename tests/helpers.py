"""Helpers for pilot tests."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

PERPETUAL = frozenset({"_loader"})
"""Worker groups that never finish while their widget lives (DirectoryTree's loader)."""


async def settle(pilot: Any, *, rounds: int = 40) -> None:
    """Let workers finish: pause until no worker is running (bounded)."""
    app = pilot.app
    for _ in range(rounds):
        await pilot.pause()
        if not any(w.is_running and w.group not in PERPETUAL for w in app.workers):
            await pilot.pause()
            return
        await pilot.pause(0.02)


async def wait_for(pilot: Any, check: Callable[[], object], seconds: float = 10.0) -> None:
    """Pause until ``check()`` is true; fail with a clear message after ``seconds``."""
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, f"still not true after {seconds} s"
        await pilot.pause(0.02)


def fail_once(monkeypatch: Any, owner: Any, name: str, error: BaseException) -> dict[str, int]:
    """Make ``owner.name`` raise ``error`` on its first call, then behave; counts calls."""
    real = getattr(owner, name)
    calls = {"n": 0}

    async def flaky(*args: Any, **kwargs: Any) -> Any:
        calls["n"] += 1
        if calls["n"] == 1:
            raise error
        return await real(*args, **kwargs)

    monkeypatch.setattr(owner, name, flaky)
    return calls


def client_of(app: Any) -> Any:
    """The client of the app's connection in force."""
    return app.connection.api


def sim_of(app: Any) -> Any:
    """The embedded simulator's state behind a demo app (``Sim``)."""
    return app.connection.api.sim_app.state.sim
