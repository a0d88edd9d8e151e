"""Agent endpoints: functions, voices, configuration reads and saved versions.

* ``GET /agent/functions`` requires ``targetAccountId`` (400 ``targetAccountId is
  required``) naming any account the key may select; descriptors are evaluated for it
  (an account above the agents has no Computer Agent of its own).
* ``GET /agent/voices`` computes ``accountAvailability`` for the selected account.
* ``GET /agent/{agentConfigId}``: ids are ``cfg-<accountId>``; an unknown id is 404
  ``Agent configuration not found``; a configuration of an account the key may not select
  (or outside the selected ``targetAccountId``) is 403.
* ``GET /agentEventRules/staging`` and ``/default`` read the selected agent account's
  staging and live slots; ``campaign`` is ``null`` when staging is empty.
* Versions use the live ``agentConfigId``; listed newest first; ``snapshot`` only with
  ``includeData=true``. Renaming needs a nonempty ``title`` of at most 120 characters;
  an unknown ``versionId`` is 404 ``Version not found``.
"""

from __future__ import annotations

import copy
from typing import Any

from vagent_tui.sim.catalog import functions_for, voices_for
from vagent_tui.sim.common import OUTSIDE, SimError, bad, parse_bool, parse_int, req_str
from vagent_tui.sim.endpoint import Ctx, route
from vagent_tui.sim.state import Account

MAX_TITLE = 120


async def functions(ctx: Ctx) -> dict[str, Any]:
    if ctx.query.get("targetAccountId") is None:
        raise bad("targetAccountId is required")
    acc = ctx.target
    return {"success": True, "message": "Functions retrieved successfully",
            "functions": functions_for(acc)}  # fmt: skip


async def voices(ctx: Ctx) -> dict[str, Any]:
    return {"success": True, "voices": voices_for(ctx.target)}


def config_owner(ctx: Ctx) -> Account:
    raw = ctx.path("agentConfigId")
    num = raw[4:] if raw.startswith("cfg-") else ""
    owner = ctx.state.accounts.get(int(num)) if num.isdigit() and num.isascii() else None
    if owner is None or owner.id not in ctx.state.live:
        raise SimError(404, "Agent configuration not found")
    ctx.state.check(ctx.me, owner)
    scoped = ctx.query.get("targetAccountId") is not None
    if scoped and not ctx.state.is_within(ctx.target, owner):
        raise SimError(403, OUTSIDE)
    return owner


async def agent_read(ctx: Ctx) -> dict[str, Any]:
    owner = config_owner(ctx)
    return {"success": True, "message": "Agent configuration retrieved successfully",
            "campaign": copy.deepcopy(ctx.state.live[owner.id])}  # fmt: skip


async def staging_read(ctx: Ctx) -> dict[str, Any]:
    acc = ctx.agent_target()
    cfg = ctx.state.staging.get(acc.id)
    if cfg is None:
        return {"success": True, "message": "Staging is empty; the live configuration is in use",
                "campaign": None}  # fmt: skip
    return {"success": True, "message": "Staging configuration retrieved successfully",
            "campaign": copy.deepcopy(cfg)}  # fmt: skip


async def live_read(ctx: Ctx) -> dict[str, Any]:
    acc = ctx.agent_target()
    return {"success": True, "message": "Live configuration retrieved successfully",
            "campaign": copy.deepcopy(ctx.state.live[acc.id])}  # fmt: skip


async def versions_list(ctx: Ctx) -> dict[str, Any]:
    owner = config_owner(ctx)
    include = parse_bool("includeData", ctx.query.get("includeData"), False)
    out = []
    for v in ctx.state.versions[owner.id]:
        item = {"title": v["title"], "versionId": v["versionId"], "createdAt": v["createdAt"]}
        if include:
            item["snapshot"] = copy.deepcopy(v["snapshot"])
        out.append(item)
    return {"success": True, "versions": out}


async def version_title(ctx: Ctx) -> dict[str, Any]:
    owner = config_owner(ctx)
    version_id = parse_int("versionId", ctx.path("versionId"))
    body = await ctx.json()
    title = req_str(body, "title")
    if len(title) > MAX_TITLE:
        raise bad(f"title must be at most {MAX_TITLE} characters")
    for v in ctx.state.versions[owner.id]:
        if v["versionId"] == version_id:
            v["title"] = title
            return {"success": True, "versionId": version_id, "newTitle": title}
    raise SimError(404, "Version not found")


ROUTES = [
    route("/agent/functions", functions),
    route("/agent/voices", voices),
    route("/agentEventRules/staging", staging_read),
    route("/agentEventRules/default", live_read),
    route("/agent/{agentConfigId}", agent_read, acts=False),
    route("/agent/{agentConfigId}/versions", versions_list, acts=False),
    route("/agent/{agentConfigId}/versions/{versionId}/title", version_title, "PUT", acts=False),
]
