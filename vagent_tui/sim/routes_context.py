"""What an agent knows about a caller: ``GET /context`` and ``POST /context`` (the
rules in `vagent_tui.sim.caller_context`). Both act on the selected account, which
must be a voice agent account (400 otherwise)."""

from __future__ import annotations

from vagent_tui.sim import caller_context
from vagent_tui.sim.endpoint import Ctx, Reply, route


async def get_context(ctx: Ctx) -> Reply:
    agent = ctx.agent_target()
    who = caller_context.check_who(ctx.query.get("target"))
    return {"success": True, "context": caller_context.known(ctx.state, agent.id, who)}


async def set_context(ctx: Ctx) -> Reply:
    agent = ctx.agent_target()
    body = await ctx.json()
    who = caller_context.check_who(body.get("target"))
    caller_context.replace(ctx.state, agent.id, who, body.get("context"))
    return 201, {"success": True, "message": "Context added successfully"}


ROUTES = [
    route("/context", get_context, "GET"),
    route("/context", set_context, "POST"),
]
