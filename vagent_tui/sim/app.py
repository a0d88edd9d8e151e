"""The simulator's ASGI application (Starlette).

``create_app()`` builds a fresh :class:`~vagent_tui.sim.state.SimState` (or uses the one
given) and exposes it as ``app.state.sim``. Unknown paths answer 404 ``Not found`` and
known paths with another method 405 ``Method not allowed``, both as error envelopes;
they are logged like every other request.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import BaseRoute, Match, NoMatchFound, Route
from starlette.types import Receive, Scope, Send

from vagent_tui.sim import routes_accounts
from vagent_tui.sim.endpoint import record
from vagent_tui.sim.faults import Faults
from vagent_tui.sim.state import SimState
from vagent_tui.sim.world import demo_state

_CHOSEN = "vagent_tui.sim.route"
"""Where `LazyRoutes.matches` leaves the route it matched, for its `handle`."""


class LazyRoutes(BaseRoute):
    """The routes of one module of the simulator, imported at the first request that
    reaches them: ``--demo`` starts without the modules its first screen does not ask
    for (the account routes are always there). Matching is that of the routes in order.
    """

    def __init__(self, module: str) -> None:
        self.module = module
        self._routes: list[BaseRoute] | None = None

    @property
    def routes(self) -> list[BaseRoute]:
        if self._routes is None:
            routes = importlib.import_module(f"vagent_tui.sim.{self.module}").ROUTES
            self._routes = list(routes)
        return self._routes

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        partial: tuple[Match, Scope] | None = None
        for route in self.routes:
            match, child = route.matches(scope)
            if match is Match.FULL:
                return match, {**child, _CHOSEN: route}
            if match is Match.PARTIAL and partial is None:
                partial = match, {**child, _CHOSEN: route}
        return partial or (Match.NONE, {})

    def url_path_for(self, name: str, /, **path_params: Any) -> Any:
        for route in self.routes:
            try:
                return route.url_path_for(name, **path_params)
            except NoMatchFound:
                pass
        raise NoMatchFound(name, path_params)

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        route: BaseRoute = scope.pop(_CHOSEN)
        scope["route"] = route
        await route.handle(scope, receive, send)


_LAZY_MODULES = (
    "routes_agents",
    "routes_staging",
    "routes_admin",
    "routes_usage",  # before routes_tasks: /tasks/limits is not a task id
    "routes_tasks",
    "routes_computer",
    "routes_templates",
    "routes_logs",  # before routes_messages: /messages/recent is not a room id
    "routes_messages",
    "routes_members",
    "routes_provision",
    "routes_numbers",
    "routes_captures",
    "routes_numbering",
    "routes_sip",
    "routes_context",
    "routes_billing",
    "routes_integrations",
    "routes_agent_extras",
)


def api_routes(app: Starlette) -> list[Route]:
    """Every route of a simulator app, the lazy ones imported (for tests and tools)."""
    out: list[Route] = []
    for route in app.routes:
        if isinstance(route, LazyRoutes):
            out.extend(r for r in route.routes if isinstance(r, Route))
        elif isinstance(route, Route):
            out.append(route)
    return out


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
    calls: int = 2_000,
    huge: bool = False,
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
        calls: call log entries per voice agent account (0..1,000,000).
        huge: serve huge open-ended replies (`vagent_tui.sim.huge`).
    """
    if state is None:
        state = demo_state(rooms=rooms, task_seconds=task_seconds, clock=clock or time.time,
                           latency_ms=latency_ms, agent_accounts=accounts, calls=calls)  # fmt: skip
    if faults is not None:
        state.faults = faults
    if huge:
        state.huge = True
    routes: list[BaseRoute] = [
        *routes_accounts.ROUTES,
        *(LazyRoutes(module) for module in _LAZY_MODULES),
    ]
    app = Starlette(routes=routes, exception_handlers={404: _http_error, 405: _http_error})
    app.router.redirect_slashes = False
    app.state.sim = state
    if hostile:
        from vagent_tui.sim.hostile import HostileReplies, plant_keys

        plant_keys(state)
        state.hostile = True
        app.add_middleware(HostileReplies)
    return app
