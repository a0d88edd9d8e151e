"""Computer Agent endpoints (base ``/computer/accounts/{targetAccountId}``).

The path account must be a Computer Agent the key may select (403 otherwise; 400 when
it is another kind of account); a query ``targetAccountId`` that differs from it is 400.

Workflow recordings (``T = task_seconds``): ``start`` with ``slotId`` an integer >= 0
answers state ``recording``. The slot must be held by a browser automation session of
this Computer Agent that has not expired (the spec: "pass the exact slot of that
session"); otherwise 400 ``slotId <n> is not the slot of an active browser automation
session``. Neither the spec nor api-facts gives this status or message: the simulator
chose 400 (the input names nothing that exists), checked before the 409 below.
Only one recording may be active (not yet finalized): a second start is 409 ``Only one
recording or generation may be active``. ``stop`` moves it
to ``stopping`` (``analysisStatus`` ``pending``); after ``T/2`` it is ``finalized``
(``finalized`` true, ``analysisStatus`` ``running``) and after ``T`` the analysis is
``completed``. Stopping with nothing recording is 409 ``No recording is active``.

Browser automation sessions: ``ttlSeconds`` 60..1800; each Computer Agent has a fixed
number of slots; a session holds the lowest free slot until it expires (409 when all
are busy).

Workspace upload (multipart ``path``, ``file``, ``overwrite``, ``mode``):

* ``path`` must be relative (no leading ``/``, ``~`` or drive letter), use ``/``, contain
  no ``..`` segment and name a file -> else 400;
* platform-managed files at the workspace root (``AGENTS.md``, ``settings.json``,
  ``instructions.md``, ``HEARTBEAT.md``, any case), anything under ``.system/`` and
  anything under ``public/`` -> 403;
* ``mode`` is octal text of 3 or 4 digits (``644``, ``0644``, ``755``); default ``0644``;
* ``overwrite`` is ``true``/``false`` (default false); an existing file without it is 409;
* files up to 10 MiB (400 beyond). Only metadata is kept.
"""

from __future__ import annotations

import re
from typing import Any

from starlette.datastructures import UploadFile

from vagent_tui.sim.account import Account
from vagent_tui.sim.common import SimError, bad, iso, parse_bool, parse_int, req_int
from vagent_tui.sim.endpoint import Ctx, route

PLATFORM_FILES = {"agents.md", "settings.json", "instructions.md", "heartbeat.md"}
MAX_UPLOAD = 10 * 1024 * 1024
ONE_ACTIVE = "Only one recording or generation may be active"
_MODE = re.compile(r"^[0-7]{3,4}$")


def _computer(ctx: Ctx) -> Account:
    path_raw = ctx.path("targetAccountId")
    path_id = parse_int("targetAccountId", path_raw)
    query_raw = ctx.query.get("targetAccountId")
    if query_raw is not None and parse_int("targetAccountId", query_raw) != path_id:
        raise bad("targetAccountId in the query must not differ from the path account")
    acc = ctx.state.select(ctx.me, path_raw)
    if not acc.computer_agent:
        raise bad("targetAccountId must select a Computer Agent account")
    return acc


async def computer_accounts(ctx: Ctx) -> dict[str, Any]:
    root, st = ctx.target, ctx.state
    accounts = [
        {"id": a.id, "name": a.name, "username": a.username,
         "organizationId": a.organization_id, "slots": a.slots}
        for a in st.reachable(ctx.me) if a.computer_agent and st.is_within(root, a)
    ]  # fmt: skip
    return {"success": True, "accounts": accounts}


def _view(ctx: Ctx, rec: dict[str, Any]) -> dict[str, Any]:
    now, half = ctx.state.now(), ctx.state.task_seconds / 2
    stopped = rec["stoppedAt"]
    if stopped is None:
        state, finalized, analysis, at = "recording", False, "not_started", rec["startedAt"]
    elif now < stopped + half:
        state, finalized, analysis, at = "stopping", False, "pending", stopped
    elif now < stopped + 2 * half:
        state, finalized, analysis, at = "finalized", True, "running", stopped + half
    else:
        state, finalized, analysis, at = "finalized", True, "completed", stopped + 2 * half
    return {
        "state": state,
        "recordingId": rec["recordingId"],
        "slotId": rec["slotId"],
        "finalized": finalized,
        "analysisStatus": analysis,
        "domainKey": rec["domainKey"],
        "updatedAt": iso(at),
        "evidenceRoot": f"evidence/workflow-recordings/{rec['recordingId']}",
    }


def _latest(ctx: Ctx, acc: Account) -> dict[str, Any] | None:
    recs = ctx.state.recordings.setdefault(acc.id, [])
    return recs[-1] if recs else None


async def recording_status(ctx: Ctx) -> dict[str, Any]:
    acc = _computer(ctx)
    rec = _latest(ctx, acc)
    return {"success": True, "recording": _view(ctx, rec) if rec else None}


async def recording_start(ctx: Ctx) -> dict[str, Any]:
    acc = _computer(ctx)
    body = await ctx.json()
    slot = req_int(body, "slotId")
    if slot < 0:
        raise bad("slotId must be an integer >= 0")
    now = ctx.state.now()
    sessions = ctx.state.sessions.get(acc.id, [])
    if not any(s["slot"] == slot and s["expires"] > now for s in sessions):
        raise bad(f"slotId {slot} is not the slot of an active browser automation session")
    rec = _latest(ctx, acc)
    if rec is not None and not _view(ctx, rec)["finalized"]:
        raise SimError(409, ONE_ACTIVE)
    n = ctx.state.next_id()
    rec = {"recordingId": f"rec-{acc.id}-{n:04d}", "slotId": slot, "startedAt": ctx.state.now(),
           "stoppedAt": None, "domainKey": f"wf-{acc.id}-{n:04d}"}  # fmt: skip
    ctx.state.recordings[acc.id].append(rec)
    view = _view(ctx, rec)
    del view["analysisStatus"], view["domainKey"]
    return {"success": True, **view}


async def recording_stop(ctx: Ctx) -> dict[str, Any]:
    acc = _computer(ctx)
    rec = _latest(ctx, acc)
    if rec is None or rec["stoppedAt"] is not None:
        raise SimError(409, "No recording is active")
    rec["stoppedAt"] = ctx.state.now()
    return {"success": True, **_view(ctx, rec)}


async def browser_session(ctx: Ctx) -> dict[str, Any]:
    acc = _computer(ctx)
    body = await ctx.json()
    ttl = req_int(body, "ttlSeconds")
    if not 60 <= ttl <= 1800:
        raise bad("ttlSeconds must be between 60 and 1800")
    now = ctx.state.now()
    live = [s for s in ctx.state.sessions.setdefault(acc.id, []) if s["expires"] > now]
    busy = {s["slot"] for s in live}
    free = [i for i in range(acc.slots) if i not in busy]
    if not free:
        raise SimError(409, "All browser slots are busy")
    n = ctx.state.next_id()
    session = {"slot": free[0], "expires": now + ttl}
    ctx.state.sessions[acc.id] = [*live, session]
    return {
        "success": True,
        "cdpUrl": f"wss://browser.sim.invalid/cdp/{acc.id}/{free[0]}/s{n:04d}",
        "headers": {"X-Browser-Session": f"s{n:04d}"},
        "slot": free[0],
        "expiresAt": iso(now + ttl),
    }


def check_path(raw: str) -> str:
    """Validate and normalise an upload path (see module docstring)."""
    p = raw.strip()
    if not p:
        raise bad("path is required")
    if "\\" in p or any(ord(c) < 32 for c in p):
        raise bad("path must use '/' separators and no control characters")
    if p.startswith(("/", "~")) or re.match(r"^[A-Za-z]:", p):
        raise bad("path must be relative to the workspace")
    parts = [s for s in p.split("/") if s not in ("", ".")]
    if ".." in parts:
        raise bad("path must not escape the workspace")
    if not parts or p.endswith("/"):
        raise bad("path must name a file")
    norm = "/".join(parts)
    if parts[0] == ".system":
        raise SimError(403, "'.system/' holds protected system files and cannot be written")
    if parts[0] == "public":
        raise SimError(403, "'public/' is protected and cannot be written")
    if len(parts) == 1 and parts[0].lower() in PLATFORM_FILES:
        raise SimError(403, f"'{norm}' is platform-managed and cannot be uploaded")
    return norm


async def upload(ctx: Ctx) -> dict[str, Any]:
    acc = _computer(ctx)
    form = await ctx.form()
    raw_path = form.get("path")
    if not isinstance(raw_path, str):
        raise bad("path is required")
    file = form.get("file")
    if not isinstance(file, UploadFile):
        raise bad("file is required and must be a file part")
    mode = form.get("mode", "0644")
    if not isinstance(mode, str) or not _MODE.match(mode.strip()):
        raise bad("mode must be a file mode in octal text form, e.g. 0644")
    mode = mode.strip().rjust(4, "0")
    overwrite_raw = form.get("overwrite")
    if overwrite_raw is not None and not isinstance(overwrite_raw, str):
        raise bad("overwrite must be a boolean (true or false)")
    overwrite = bool(parse_bool("overwrite", overwrite_raw, False))
    path = check_path(raw_path)
    data = await file.read()
    if len(data) > MAX_UPLOAD:
        raise bad("file exceeds the 10 MiB upload limit")
    files = ctx.state.files.setdefault(acc.id, {})
    exists = path in files
    if exists and not overwrite:
        raise SimError(409, "File already exists; set overwrite to true to replace it")
    files[path] = {"path": path, "size": len(data), "mode": mode,
                   "updatedAt": iso(ctx.state.now())}  # fmt: skip
    return {"success": True, "message": "File uploaded successfully", "path": path,
            "size": len(data), "mode": mode, "overwritten": exists}  # fmt: skip


async def files_list(ctx: Ctx) -> dict[str, Any]:
    acc = _computer(ctx)
    files = sorted(ctx.state.files.get(acc.id, {}).values(), key=lambda f: f["path"])
    return {"success": True, "files": [dict(f) for f in files]}


_BASE = "/computer/accounts/{targetAccountId}"
ROUTES = [
    route("/computer/accounts", computer_accounts),
    # The account is in the path: `_computer` checks it (and the query's, if sent).
    route(_BASE + "/workflow-recordings/status", recording_status, acts=False),
    route(_BASE + "/workflow-recordings/start", recording_start, "POST", acts=False),
    route(_BASE + "/workflow-recordings/stop", recording_stop, "POST", acts=False),
    route(_BASE + "/browser/automation-sessions", browser_session, "POST", acts=False),
    route(_BASE + "/workspace/upload", upload, "POST", acts=False),
    route(_BASE + "/workspace/files", files_list, acts=False),
]
