"""Serve the simulator over HTTP with uvicorn (``vagent-tui sim`` / ``python -m``)."""

from __future__ import annotations

import logging

from vagent_tui.sim.app import create_app
from vagent_tui.sim.faults import Faults, SimulatedDrop
from vagent_tui.sim.faults import describe as describe_faults
from vagent_tui.sim.seed import DEMO_TOKENS
from vagent_tui.sim.state import SimState


def banner(host: str, port: int, state: SimState | None = None) -> str:
    """The text printed at start: base URL and demo tokens (with account names if known)."""
    shown = f"[{host}]" if ":" in host else host
    lines = [f"vagent-tui simulator at http://{shown}:{port}", "Demo tokens:"]
    for token, aid in DEMO_TOKENS.items():
        acc = state.accounts.get(aid) if state is not None else None
        about = f"{acc.name} ({acc.account_type} {aid})" if acc else f"account {aid}"
        lines.append(f"  {token:<18} {about}")
    return "\n".join(lines)


def run(
    host: str = "127.0.0.1",
    port: int = 8765,
    rooms: int = 240,
    latency_ms: int = 0,
    task_seconds: float = 10.0,
    accounts: int = 0,
    faults: Faults | None = None,
    hostile: bool = False,
    calls: int = 2_000,
    huge: bool = False,
) -> None:
    """Print the base URL and the demo tokens, then serve until interrupted.

    ``faults`` (`vagent_tui.sim.faults`) makes replies slow or failing on purpose.
    """
    import uvicorn

    app = create_app(
        rooms=rooms,
        latency_ms=latency_ms,
        task_seconds=task_seconds,
        accounts=accounts,
        faults=faults,
        hostile=hostile,
        calls=calls,
        huge=huge,
    )
    print(banner(host, port, app.state.sim), flush=True)
    print(describe_faults(app.state.sim.faults, latency_ms), flush=True)
    logging.getLogger("uvicorn.error").addFilter(_quiet_drops)
    uvicorn.run(app, host=host, port=port, log_level="warning")


def _quiet_drops(record: logging.LogRecord) -> bool:
    """A connection dropped on purpose (the ``refused`` fault) is not worth a traceback."""
    exc = record.exc_info[1] if record.exc_info else None
    return not isinstance(exc, SimulatedDrop)
