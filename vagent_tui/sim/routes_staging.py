"""Staging writes, publish, revert, and saved-version create/restore (api-facts).

* ``POST /agent`` writes the selected agent account's staging slot. Omitted settings keep
  their staging values (or live ones when staging is empty); ``actions``, ``apps``,
  ``skills`` and ``reportingFields`` replace whole. Checks (all 400): unknown fields,
  read-only fields (``id``, ``effectiveReportingFields``, ``templateId``,
  ``templateRevision``), wrong JSON types, ``agentVoice`` not in the voices list or not
  available to the account, ``agentLang`` not ``xx-XX``/``multi``, ``agentS2SEngine`` not
  null/openai/gemini, ``agentSttEngine`` not google/deepgram/deepgramflux/openai,
  ``computerDelegateAccountId`` not null or a Computer Agent of the same organization,
  an unknown function, a function that is not allowed (its ``reason`` is quoted) and more
  entries of a function than its ``limit``.
* ``POST /agent/publish`` copies staging to live (400 ``Staging is empty`` otherwise),
  saves an ``Auto-<versionId>`` version of the new live, and empties staging.
* ``POST /agent/revert`` empties staging (live stays in use).
* ``POST /agent/{id}/versions`` ``{title, source: staging|default}`` -> 201
  ``{success, createdVersion: {title, versionId}}``; ``POST .../{versionId}/restore``
  ``{target: staging|default}`` copies the snapshot into that slot.
"""

from __future__ import annotations

import copy
import dataclasses
import re
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from vagent_tui.sim.account import Account
from vagent_tui.sim.catalog import FUNCTIONS, evaluate_actions, function_access, voices_for
from vagent_tui.sim.common import SimError, bad, iso, parse_int, req_str
from vagent_tui.sim.endpoint import Ctx, route
from vagent_tui.sim.routes_agents import config_owner

READ_ONLY = {"id", "effectiveReportingFields", "templateId", "templateRevision"}
NULLABLE = {"agentS2SEngine", "computerDelegateAccountId"}
_ENTRY_KEYS: dict[str, dict[str, type]] = {
    "actions": {"name": str, "instructions": str},
    "apps": {"appId": str, "version": str, "instructions": str, "enabled": bool},
    "skills": {"slug": str, "instructions": str},
    "reportingFields": {"key": str, "label": str, "instructions": str, "values": dict},
}
_LANG = re.compile(r"^([a-z]{2}-[A-Z]{2}|multi)$")


def _same_type(value: Any, ref: Any) -> bool:
    if isinstance(ref, bool) or isinstance(value, bool):
        return isinstance(value, bool) and isinstance(ref, bool)
    if isinstance(ref, list):
        return isinstance(value, list)
    return isinstance(value, type(ref))


def _check_entries(field: str, entries: list[Any]) -> None:
    for entry in entries:
        if not isinstance(entry, dict):
            raise bad(f"{field} entries must be objects")
        for key, kind in _ENTRY_KEYS[field].items():
            value = entry.get(key)
            if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
                raise bad(f"{field}[].{key} must be a {kind.__name__}")
        if field == "reportingFields":
            values = entry["values"]
            choices = values.get("choices", [])
            if not isinstance(values.get("kind"), str) or not isinstance(choices, list):
                raise bad("reportingFields[].values needs kind (string) and choices (array)")


def _check_values(ctx: Ctx, acc: Account, draft: dict[str, Any], body: dict[str, Any]) -> None:
    voice = body.get("agentVoice")
    if voice is not None:
        match = next((v for v in voices_for(acc) if v["id"] == voice), None)
        if match is None:
            raise bad(f"Unknown voice '{voice}'")
        if not match["accountAvailability"]["available"]:
            reason = match["accountAvailability"]["reason"]
            raise bad(f"Voice '{voice}' is not available for this account ({reason})")
    if "agentLang" in body and not _LANG.match(body["agentLang"]):
        raise bad("agentLang must be a language tag like en-US, or multi")
    if body.get("agentS2SEngine") not in (None, "openai", "gemini"):
        raise bad("agentS2SEngine must be null, openai or gemini")
    if "agentSttEngine" in body and body["agentSttEngine"] not in (
        "google", "deepgram", "deepgramflux", "openai"
    ):  # fmt: skip
        raise bad("agentSttEngine must be one of: google, deepgram, deepgramflux, openai")
    delegate = draft.get("computerDelegateAccountId")
    if delegate is not None:
        target = ctx.state.accounts.get(delegate)
        if (
            target is None
            or not target.computer_agent
            or (target.organization_id != acc.organization_id)
        ):
            raise bad("computerDelegateAccountId must name a Computer Agent of this organization")
    if "actions" in body:
        evaluated = dataclasses.replace(acc, computer_delegate=delegate)
        counts: dict[str, int] = {}
        for action in body["actions"]:
            name = action["name"]
            if name not in FUNCTIONS:
                raise bad(f"Unknown function '{name}'")
            allowed, reason, _ = function_access(evaluated, name)
            if not allowed:
                raise bad(f"Function '{name}' is not available: {reason}")
            counts[name] = counts.get(name, 0) + 1
            limit = FUNCTIONS[name]["limit"]
            if limit is not None and counts[name] > limit:
                raise bad(f"Function '{name}' may be configured at most {limit} time(s)")
        draft["actions"] = evaluate_actions(evaluated, [
            {"name": a["name"], "instructions": a["instructions"],
             "placeholder": a.get("placeholder") or FUNCTIONS[a["name"]]["placeholder"]}
            for a in body["actions"]
        ])  # fmt: skip


async def staging_write(ctx: Ctx) -> dict[str, Any]:
    acc = ctx.agent_target()
    body = await ctx.json()
    st = ctx.state
    base = st.staging.get(acc.id) or st.live[acc.id]
    draft = copy.deepcopy(base)
    for key, value in body.items():
        if key in READ_ONLY:
            raise bad(f"{key} is read-only")
        if key not in base:
            raise bad(f"Unknown field: {key}")
        ref = base[key] if base[key] is not None else st.live[acc.id].get(key)
        if value is None and key in NULLABLE:
            pass
        elif ref is None and key in NULLABLE:
            if isinstance(value, bool) or not isinstance(value, int | str):
                raise bad(f"{key} has the wrong type")
        elif not _same_type(value, ref):
            raise bad(f"{key} has the wrong type")
        if key in _ENTRY_KEYS:
            _check_entries(key, value)
        elif isinstance(ref, list) and not all(isinstance(v, str) for v in value):
            raise bad(f"{key} must be an array of strings")
        draft[key] = copy.deepcopy(value)
    _check_values(ctx, acc, draft, body)
    st.staging[acc.id] = draft
    return {"success": True, "message": "Staging configuration saved successfully",
            "campaign": copy.deepcopy(draft)}  # fmt: skip


def _new_version_id(ctx: Ctx, owner: Account) -> int:
    versions = ctx.state.versions.setdefault(owner.id, [])
    newest = max((v["versionId"] for v in versions), default=0)
    return max(int(ctx.state.now() * 1000), newest + 1)


def _save_version(
    ctx: Ctx, owner: Account, title: str | None, snap: dict[str, Any]
) -> dict[str, Any]:
    vid = _new_version_id(ctx, owner)
    version = {"versionId": vid, "title": title or f"Auto-{vid}", "createdAt": iso(vid / 1000),
               "snapshot": copy.deepcopy(snap)}  # fmt: skip
    ctx.state.versions[owner.id].insert(0, version)
    return version


async def publish(ctx: Ctx) -> dict[str, Any]:
    acc = ctx.agent_target()
    st = ctx.state
    draft = st.staging.get(acc.id)
    if draft is None:
        raise bad("Staging is empty; nothing to publish")
    st.live[acc.id] = copy.deepcopy(draft)
    acc.computer_delegate = draft.get("computerDelegateAccountId")
    st.staging[acc.id] = None
    version = _save_version(ctx, acc, None, draft)
    return {"success": True, "message": "Staging configuration published",
            "versionId": version["versionId"], "campaign": copy.deepcopy(draft)}  # fmt: skip


async def someone_else(request: Request) -> JSONResponse:
    """``POST /_sim/agents/{accountId}/staging``: another admin's change (no token asked).

    A simulator route, outside ``/api/v2`` and never logged, so that a demo or a test
    against ``vagent-tui sim`` can change an agent behind the console's back; the body
    holds the settings to set (`SimState.edit_staging`).
    """
    state = request.app.state.sim
    try:
        account_id = int(request.path_params["accountId"])
        body = await request.json()
    except ValueError:
        return JSONResponse({"success": False, "message": "Bad request"}, status_code=400)
    if account_id not in state.live or not isinstance(body, dict):
        return JSONResponse({"success": False, "message": "Not found"}, status_code=404)
    draft = state.edit_staging(account_id, **body)
    return JSONResponse({"success": True, "message": "Staging changed by someone else",
                         "campaign": draft})  # fmt: skip


async def revert(ctx: Ctx) -> dict[str, Any]:
    acc = ctx.agent_target()
    ctx.state.staging[acc.id] = None
    return {"success": True, "message": "Staging configuration reverted to live"}


def _slot(body: dict[str, Any], key: str) -> str:
    value = req_str(body, key)
    if value not in ("staging", "default"):
        raise bad(f"{key} must be staging or default")
    return value


async def version_create(ctx: Ctx) -> tuple[int, dict[str, Any]]:
    owner = config_owner(ctx)
    body = await ctx.json()
    title = req_str(body, "title")
    source = _slot(body, "source")
    snap = ctx.state.live[owner.id] if source == "default" else ctx.state.staging.get(owner.id)
    if snap is None:
        raise bad("Staging is empty; nothing to save")
    version = _save_version(ctx, owner, title, snap)
    return 201, {"success": True,
                 "createdVersion": {"title": title, "versionId": version["versionId"]}}  # fmt: skip


async def version_restore(ctx: Ctx) -> dict[str, Any]:
    owner = config_owner(ctx)
    version_id = parse_int("versionId", ctx.path("versionId"))
    body = await ctx.json()
    target = _slot(body, "target")
    version = next((v for v in ctx.state.versions[owner.id] if v["versionId"] == version_id), None)
    if version is None:
        raise SimError(404, "Version not found")
    snap = copy.deepcopy(version["snapshot"])
    if target == "default":
        ctx.state.live[owner.id] = snap
        owner.computer_delegate = snap.get("computerDelegateAccountId")  # as a publish does
    else:
        ctx.state.staging[owner.id] = snap
    return {"success": True, "message": f"Version {version_id} restored to {target}"}


ROUTES = [
    Route("/_sim/agents/{accountId}/staging", someone_else, methods=["POST"]),
    route("/agent", staging_write, "POST"),
    route("/agent/publish", publish, "POST"),
    route("/agent/revert", revert, "POST"),
    route("/agent/{agentConfigId}/versions", version_create, "POST", acts=False),
    route(
        "/agent/{agentConfigId}/versions/{versionId}/restore", version_restore, "POST", acts=False
    ),
]
