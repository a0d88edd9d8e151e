"""SIP outbound routes and the agent's SIP registration (the rules: `sip`).

All act on the selected account (``targetAccountId`` or the key owner). The replies
are the vendor's (`apiv2.json`): ``routes`` a list of strings; the registration's read
``{success, registration:{aor, username, proxy, transport, ...}}``, never a password.
"""

from __future__ import annotations

from typing import Any

from vagent_tui.sim import sip
from vagent_tui.sim.common import SimError, req_str
from vagent_tui.sim.endpoint import Ctx, route


async def routes_list(ctx: Ctx) -> dict[str, Any]:
    routes = sip.held(ctx.state, ctx.target.id)["routes"]
    return {"success": True, "message": "Success", "routes": list(routes)}


async def routes_add(ctx: Ctx) -> tuple[int, dict[str, Any]]:
    body = await ctx.json()
    routes = sip.add_route(ctx.state, ctx.target, req_str(body, "route"))
    return 201, {"success": True, "message": "Route added successfully", "routes": routes}


async def routes_delete(ctx: Ctx) -> dict[str, Any]:
    body = await ctx.json()
    value = body.get("route")
    if not isinstance(value, str) or not value:
        raise SimError(400, "route is required")
    sip.remove_route(ctx.state, ctx.target, value)
    return {"success": True, "message": "Route removed successfully"}


async def aor_available(ctx: Ctx) -> dict[str, Any]:
    body = await ctx.json()
    aor = sip.aor_of(body)
    other = sip.holder(ctx.state, aor)
    if other is None or other == ctx.target.id:
        return {"success": True, "available": True, "message": "AOR is available"}
    return {"success": True, "available": False,
            "message": f"AOR {aor} is registered to another account"}  # fmt: skip


async def registration_save(ctx: Ctx) -> tuple[int, dict[str, Any]]:
    acc = ctx.agent_target()
    body = await ctx.json()
    if sip.save_registration(ctx.state, acc, body):
        return 201, {"success": True, "message": "Registration created successfully"}
    return 200, {"success": True, "message": "Registration updated successfully"}


async def registration_get(ctx: Ctx) -> dict[str, Any]:
    acc = ctx.agent_target()
    registration = sip.held(ctx.state, acc.id)["registration"]
    if registration is None:
        raise SimError(404, "Registration not found")
    return {"success": True, "registration": sip.served(registration)}


async def registration_delete(ctx: Ctx) -> dict[str, Any]:
    acc = ctx.agent_target()
    trunk = sip.held(ctx.state, acc.id)
    if trunk["registration"] is None:
        raise SimError(404, "Registration not found")
    trunk["registration"] = None
    return {"success": True, "message": "Registration deleted successfully"}


ROUTES = [
    route("/sip/outboundRoutes", routes_list, "GET"),
    route("/sip/outboundRoutes", routes_add, "POST"),
    route("/sip/outboundRoutes", routes_delete, "DELETE"),
    route("/sip/registration/available", aor_available, "POST"),
    route("/sip/registration", registration_get, "GET"),
    route("/sip/registration", registration_save, "POST"),
    route("/sip/registration", registration_delete, "DELETE"),
]
