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
* ``POST /agent/autoReviewAgentConfiguration`` (the vendor's reference): ``mode``
  ``agent`` (``agentId`` required) reviews the configuration the agent runs next (its
  staging, else live) and answers ``agentInstructionsSuggestion``,
  ``greetingSuggestion``, ``actionSuggestions`` (enabled actions with instructions) and
  ``appSuggestions`` (enabled apps); ``mode`` ``fields`` answers one
  ``{key, value, promptSuggestion}`` per field asked (``agentId`` or ``templateId``).
  The suggestions are computed from the text (deterministic), and nothing is changed.
"""

from __future__ import annotations

import copy
from typing import Any

from vagent_tui.sim.account import Account
from vagent_tui.sim.catalog import functions_for, voices_for
from vagent_tui.sim.common import OUTSIDE, SimError, bad, parse_bool, parse_int, req_str
from vagent_tui.sim.endpoint import Ctx, Reply, route

MAX_TITLE = 120


async def functions(ctx: Ctx) -> dict[str, Any]:
    if ctx.query.get("targetAccountId") is None:
        raise bad("targetAccountId is required")
    acc = ctx.target
    return {"success": True, "message": "Functions retrieved successfully",
            "functions": functions_for(acc)}  # fmt: skip


async def voices(ctx: Ctx) -> dict[str, Any]:
    return {"success": True, "voices": voices_for(ctx.target)}


def config_owner(ctx: Ctx, raw: str | None = None) -> Account:
    raw = ctx.path("agentConfigId") if raw is None else raw
    num = raw[4:] if raw.startswith("cfg-") else ""
    owner = ctx.state.accounts.get(int(num)) if num.isdecimal() and num.isascii() else None
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
    # Not copied: the reply is encoded as soon as this returns, before any other request
    # can run (`endpoint.wrap`), and no fault alters it in place (faults.after builds new
    # values). A copy of a 70-field configuration cost more than the rest of the read.
    return {"success": True, "message": "Staging configuration retrieved successfully",
            "campaign": cfg}  # fmt: skip


async def live_read(ctx: Ctx) -> dict[str, Any]:
    acc = ctx.agent_target()
    return {"success": True, "message": "Live configuration retrieved successfully",
            "campaign": ctx.state.live[acc.id]}  # fmt: skip  # not copied: as staging_read


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


def _tightened(text: str, brand: str) -> str:
    """A shorter, voice-ready rewrite: the first three sentences and two house rules."""
    sentences = [p.strip() for p in text.replace("\n", " ").split(". ") if p.strip()]
    kept = ". ".join(sentences[:3]).rstrip(".")
    lead = f"{kept}." if kept else f"You are the voice agent of {brand}."
    rules = [rule for rule in (
        "Keep each answer under three sentences.",
        "Confirm names, dates and phone numbers back to the caller before acting on them.",
    ) if rule.split()[1].lower() not in lead.lower()]  # fmt: skip
    return " ".join([lead, *rules])


def _suggestion(key: str, value: str, brand: str) -> str:
    if key in ("greeting", "welcomeMessage"):
        return f"Thank you for calling {brand}. How can I help you today?"
    if key == "agentInstructions":
        return _tightened(value, brand)
    return (value.strip().rstrip(".") + ". Say what you are doing before you do it.").lstrip(". ")


async def review(ctx: Ctx) -> Reply:
    body = await ctx.json()
    if not isinstance(body, dict):
        raise bad("body must be a JSON object")
    mode = body.get("mode", "fields")
    if mode not in ("fields", "agent"):
        raise bad("mode must be fields or agent")
    agent_id = body.get("agentId")
    if agent_id is not None and not isinstance(agent_id, str):
        raise bad("agentId must be a string")
    if mode == "agent" and not agent_id:
        raise bad("agentId is required in agent mode")
    cfg: dict[str, Any] = {}
    brand = "us"
    if agent_id:
        owner = config_owner(ctx, agent_id)
        cfg = ctx.state.staging.get(owner.id) or ctx.state.live[owner.id]
        brand = str(cfg.get("brandName") or cfg.get("title") or brand)
    elif not body.get("templateId"):
        raise bad("templateId or agentId is required")
    if mode == "fields":
        fields = body.get("fields")
        if not isinstance(fields, list) or not fields:
            raise bad("fields must be a nonempty array of {key, value}")
        out = []
        for item in fields:
            if not isinstance(item, dict) or not isinstance(item.get("key"), str):
                raise bad("each field needs a key")
            key = item["key"]
            name = "welcomeMessage" if key == "greeting" else key
            value = str(cfg.get(name, "")) if agent_id else str(item.get("value", ""))
            out.append({"key": key, "value": value,
                        "promptSuggestion": _suggestion(key, value, brand)})  # fmt: skip
        return out
    actions = [
        {"name": a["name"], "promptSuggestion": _suggestion(a["name"], a["instructions"], brand)}
        for a in cfg.get("actions") or []
        if isinstance(a, dict) and a.get("allowed", True) and a.get("instructions")
    ]
    apps = [
        {"appId": a["appId"], "version": a.get("version"),
         "promptSuggestion": _suggestion(a["appId"], a["instructions"], brand)}
        for a in cfg.get("apps") or []
        if isinstance(a, dict) and a.get("enabled") and a.get("instructions")
    ]  # fmt: skip
    return {
        "agentId": agent_id,
        "agentInstructionsSuggestion": _tightened(str(cfg.get("agentInstructions") or ""), brand),
        "greetingSuggestion": _suggestion("greeting", "", brand),
        "actionSuggestions": actions,
        "appSuggestions": apps,
    }


ROUTES = [
    route("/agent/functions", functions),
    route("/agent/autoReviewAgentConfiguration", review, "POST"),
    route("/agent/voices", voices),
    route("/agentEventRules/staging", staging_read),
    route("/agentEventRules/default", live_read),
    route("/agent/{agentConfigId}", agent_read, acts=False),
    route("/agent/{agentConfigId}/versions", versions_list, acts=False),
    route("/agent/{agentConfigId}/versions/{versionId}/title", version_title, "PUT", acts=False),
]
