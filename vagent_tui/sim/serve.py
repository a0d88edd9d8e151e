"""Serve the simulator over HTTP with uvicorn (``vagent-tui sim`` / ``python -m``)."""

from __future__ import annotations

from vagent_tui.sim.app import create_app
from vagent_tui.sim.seed import DEMO_TOKENS


def banner(host: str, port: int) -> str:
    """The text printed at start: base URL and demo tokens."""
    shown = f"[{host}]" if ":" in host else host
    lines = [f"vagent-tui simulator at http://{shown}:{port}", "Demo tokens:"]
    lines += [f"  {token:<14} account {aid}" for token, aid in DEMO_TOKENS.items()]
    return "\n".join(lines)


def run(
    host: str = "127.0.0.1",
    port: int = 8765,
    rooms: int = 240,
    latency_ms: int = 0,
    task_seconds: float = 10.0,
) -> None:
    """Print the base URL and the demo tokens, then serve until interrupted."""
    import uvicorn

    app = create_app(rooms=rooms, latency_ms=latency_ms, task_seconds=task_seconds)
    print(banner(host, port), flush=True)
    uvicorn.run(app, host=host, port=port, log_level="warning")
