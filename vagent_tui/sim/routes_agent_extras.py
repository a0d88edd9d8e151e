"""The rest of the agent: the models the platform offers, the agent's public link.

* ``GET /models/supported`` answers the map of model id to ``{provider, canReason}``, as
  the vendor's example does, with ``success`` beside it (CONTRACT choice 120).
* ``GET /checkAgentUrl``, ``GET /agentUrl`` and ``POST /agentUrl`` name the agent by
  ``targetUsername`` (choices 121-123): the GET makes a link when the agent has none,
  the POST replaces it (the old slug is free again at once).
* ``POST /agent/{agentConfigId}/versions/{versionId}`` replaces a saved version's
  snapshot whole (choice 124).
* ``POST /account`` sets the key owner's own details, or a selected account's
  (choice 125).
* ``POST /agent/receiveMessage`` (a reseller's or partner's key) keeps the message and
  the agent's answer, which ``GET /messages/recent`` then lists (choices 126, 127).
"""

from __future__ import annotations

import copy

from vagent_tui.sim.account import Account
from vagent_tui.sim.agent_extras import (
    SLUG_TAKEN,
    agent_of,
    checked_slug,
    holder,
    link_of,
    receive,
    supported_models,
    update_details,
)
from vagent_tui.sim.common import SimError, bad, parse_int, req_str
from vagent_tui.sim.endpoint import Ctx, Reply, route
from vagent_tui.sim.routes_agents import config_owner


async def models_supported(_ctx: Ctx) -> Reply:
    return supported_models()


def _query(ctx: Ctx, name: str) -> str:
    value = ctx.query.get(name)
    if not value or not value.strip():
        raise bad(f"{name} is required")
    return value


def _agent(ctx: Ctx, username: str) -> Account:
    return agent_of(ctx.state, ctx.me, ctx.target, username.strip())


async def check_link(ctx: Ctx) -> Reply:
    agent = _agent(ctx, _query(ctx, "targetUsername"))
    slug = checked_slug(_query(ctx, "slug"))
    held = holder(ctx.state, slug)
    return {"success": True, "available": held is None or held == agent.id, "slug": slug}


async def get_link(ctx: Ctx) -> Reply:
    agent = _agent(ctx, _query(ctx, "targetUsername"))
    return {"success": True, "slug": link_of(ctx.state, agent)}


async def set_link(ctx: Ctx) -> Reply:
    body = await ctx.json()
    agent = _agent(ctx, req_str(body, "targetUsername"))
    slug = checked_slug(req_str(body, "slug"))
    held = holder(ctx.state, slug)
    if held is not None and held != agent.id:
        raise SimError(409, SLUG_TAKEN)
    ctx.state.agent_links[agent.id] = slug
    return {"success": True, "message": "Referral Slug Created Successfully", "slug": slug}


async def version_replace(ctx: Ctx) -> Reply:
    """The snapshot replaced whole; its title and creation time kept."""
    owner = config_owner(ctx)
    version_id = parse_int("versionId", ctx.path("versionId"))
    body = await ctx.json()
    snapshot = body.get("snapshot") if isinstance(body, dict) else None
    if not isinstance(snapshot, dict) or not snapshot:
        raise bad("snapshot must be a nonempty object")
    for version in ctx.state.versions[owner.id]:
        if version["versionId"] == version_id:
            version["snapshot"] = copy.deepcopy(snapshot)
            return {"success": True, "versionId": version_id}
    raise SimError(404, "Version not found")


async def own_details(ctx: Ctx) -> Reply:
    reply = update_details(ctx.target, await ctx.json())
    ctx.state.names_changed()
    return reply


async def receive_message(ctx: Ctx) -> Reply:
    return receive(ctx.state, ctx.me, ctx.target, await ctx.json())


ROUTES = [
    route("/models/supported", models_supported),
    route("/checkAgentUrl", check_link),
    route("/agentUrl", get_link),
    route("/agentUrl", set_link, "POST"),
    route("/agent/{agentConfigId}/versions/{versionId}", version_replace, "POST", acts=False),
    route("/account", own_details, "POST"),
    route("/agent/receiveMessage", receive_message, "POST"),
]
