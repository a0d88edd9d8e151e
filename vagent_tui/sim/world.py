"""The demo world: a `SimState` filled with the seed and, on request, a grown fleet.

`SimState` is only the data and its rules; what it holds at start is decided here, so
the state never imports the modules that fill it.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from vagent_tui.sim.fleet import grow
from vagent_tui.sim.seed import seed
from vagent_tui.sim.state import SimState


def demo_state(
    *,
    rooms: int = 240,
    task_seconds: float = 10.0,
    clock: Callable[[], float] = time.time,
    latency_ms: int = 0,
    agent_accounts: int = 0,
    calls: int = 2_000,
) -> SimState:
    """A fresh simulator state holding the seed data (see `seed`).

    Args:
        rooms: junk-inbox rooms per agent account (0..1,000,000).
        task_seconds: duration of a migration task and of a recording's finalization.
        clock: returns epoch seconds; injected by tests to move time by hand.
        latency_ms: artificial delay added to every request.
        agent_accounts: grow the demo partner's tree to this many voice agent accounts
            (`vagent_tui.sim.fleet`); 0 keeps the seed as it is.
        calls: call log entries per voice agent account (0..1,000,000;
            `vagent_tui.sim.calls`, `vagent_tui.sim.call_entries`).

    Raises:
        ValueError: a count or duration out of its range.
    """
    state = SimState(rooms=rooms, task_seconds=task_seconds, clock=clock, latency_ms=latency_ms,
                     calls=calls)  # fmt: skip
    seed(state)
    if agent_accounts:
        grow(state, agent_accounts)
    return state
