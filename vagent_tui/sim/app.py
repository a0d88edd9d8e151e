"""The simulator's ASGI application (Starlette).

``create_app()`` builds a fresh :class:`~vagent_tui.sim.state.SimState` (or uses the one
given) and exposes it as ``app.state.sim``. Unknown paths answer 404 ``Not found`` and
known paths with another method 405 ``Method not allowed``, both as error envelopes;
they are logged like every other request.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse

from vagent_tui.sim import (
    routes_accounts,
    routes_admin,
    routes_agents,
    routes_computer,
    routes_messages,
    routes_staging,
    routes_templates,
)
from vagent_tui.sim.endpoint import record
from vagent_tui.sim.faults import Faults
from vagent_tui.sim.state import SimState
from vagent_tui.sim.world import demo_state


async def _http_error(request: Request, exc: Exception) -> JSONResponse:
    status = exc.status_code if isinstance(exc, HTTPException) else 500
    message = {404: "Not found", 405: "Method not allowed"}.get(status, "Internal error")
    record(request.app.state.sim, request, None, status)
    return JSONResponse({"success": False, "message": message}, status_code=status)


def create_app(
    state: SimState | None = None,
    *,
    rooms: int = 240,
    latency_ms: int = 0,
    task_seconds: float = 10.0,
    clock: Callable[[], float] | None = None,
    accounts: int = 0,
    faults: Faults | None = None,
    hostile: bool = False,
) -> Starlette:
    """Build the simulator app.

    Args:
        state: an existing state to serve; when given, the other arguments are ignored.
        rooms: junk-inbox rooms per agent account (0..1,000,000).
        latency_ms: artificial delay added to every request.
        task_seconds: duration of a migration task (and of a recording's finalization).
        clock: epoch-seconds clock; defaults to ``time.time``.
        accounts: grow the demo partner's tree to this many voice agent accounts
            (0: the seed as it is; see ``fleet.py``).
        faults: fault injection (`vagent_tui.sim.faults`), kept as ``state.faults``
            (also when ``state`` is given); tests may change it at run time.
        hostile: plant hostile text in every reply (`vagent_tui.sim.hostile`).
    """
    if state is None:
        state = demo_state(rooms=rooms, task_seconds=task_seconds, clock=clock or time.time,
                           latency_ms=latency_ms, agent_accounts=accounts)  # fmt: skip
    if faults is not None:
        state.faults = faults
    routes = [
        *routes_accounts.ROUTES,
        *routes_agents.ROUTES,
        *routes_staging.ROUTES,
        *routes_admin.ROUTES,
        *routes_computer.ROUTES,
        *routes_templates.ROUTES,
        *routes_messages.ROUTES,
    ]
    app = Starlette(routes=routes, exception_handlers={404: _http_error, 405: _http_error})
    app.router.redirect_slashes = False
    app.state.sim = state
    if hostile:
        from vagent_tui.sim.hostile import HostileReplies, plant_keys

        plant_keys(state)
        app.add_middleware(HostileReplies)
    return app
