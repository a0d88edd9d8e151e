"""Building a console or a client on a simulator with fault injection."""

from __future__ import annotations

from typing import Any

from vagent_tui.api.client import PlatformClient
from vagent_tui.services.connect import SimClient
from vagent_tui.sim import create_app
from vagent_tui.sim.faults import Faults

FAST = {"timeout": 0.15, "get_retries": 0, "backoff": 0.0}
"""Client options of the matrix: a timeout is over in 0.3 s, nothing is retried."""


def faulty_client(
    token: str = "demo-partner",
    *,
    faults: Faults | None = None,
    client_options: dict[str, Any] | None = None,
    **sim_options: Any,
) -> PlatformClient:
    """A client of an in-process simulator whose ``state.faults`` the test controls."""
    app = create_app(faults=faults or Faults(seed=7), **sim_options)
    options = {**FAST, **(client_options or {})}
    return SimClient(app, token, **options)


def faulty_app(
    screen: str, token: str = "demo-partner", *, account: int | None = None, **options: Any
) -> Any:
    """The console on a faulty simulator (``app.connection.api.sim_app.state.faults``)."""
    from vagent_tui.ui.app import VagentApp

    client = faulty_client(token, **options)
    return VagentApp(
        client,
        profile_label=f"demo · {token}",
        initial_screen=screen,
        initial_account=account,
    )
