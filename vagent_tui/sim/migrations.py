"""Template migrations: tasks whose status is derived lazily from the clock.

A task created at ``t0`` with ``T = task_seconds``:

* ``queued`` during ``[t0, t0 + T/10)``;
* ``running`` during ``[t0 + T/10, t0 + T)``; ``counts.processed`` grows linearly with
  the elapsed running time, and ``changed``/``skipped``/``overridesKept``/
  ``overridesReplaced`` are the sums over the processed agents;
* ``completed`` from ``t0 + T`` on -- or ``failed`` when one of the template's agents is a
  locked account (``active`` false): processing stops before that agent and the task
  ends ``failed`` at ``t0 + T`` with ``Agent account <id> is locked; migration stopped``.
  This happens for dry runs too (a locked agent cannot be read).

``history`` lists ``{status, at}`` for each status reached so far.

An agent is *behind* when its live ``templateRevision`` is lower than the template's
``revision``; such an agent is ``changed``, others are ``skipped``. Its overridden fields
in the selected sections are kept (``overridesKept``) unless
``forceMigrateOverriddenFields`` is true (``overridesReplaced``).

When no agent is behind, both a dry run and a real run answer ``{"success": true}``
alone (nothing to migrate, no task). A real run that completes sets the changed agents'
``templateRevision`` (live and staging) to the template's revision, and forgets replaced
overrides; this is applied by :func:`settle`, which the app calls before every request,
so the effect shows whether or not anyone polled the task. Only one real (non-dry) task
per template may be queued or running at a time (409 otherwise).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from vagent_tui.sim.common import SimError, iso

if TYPE_CHECKING:
    from vagent_tui.sim.state import SimState

#: Which template section an overridden configuration field belongs to.
FIELD_SECTION = {
    "welcomeMessage": "instructions",
    "agentInstructions": "instructions",
    "agentVoice": "voice",
    "actions": "functions",
    "reportingFields": "reportingFields",
    "confirmTransfers": "transfers",
    "heartbeatConfig": "heartbeat",
}


def behind(state: SimState, template: dict[str, Any]) -> list[int]:
    """Agent ids of ``template`` whose live revision is older than the template's."""
    return [
        aid
        for aid in template["overrides"]
        if state.live[aid].get("templateRevision", 0) < template["revision"]
    ]


def template_summary(state: SimState, template: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": template["id"],
        "name": template["name"],
        "revision": template["revision"],
        "agentCount": len(template["overrides"]),
        "agentsBehind": len(behind(state, template)),
        "sections": list(template["sections"]),
        "updatedAt": template["updatedAt"],
        "resellerId": template["owner"],
    }


def start(
    state: SimState,
    template: dict[str, Any],
    *,
    dry_run: bool,
    sections: list[str] | None,
    force: bool,
) -> dict[str, Any]:
    """Start a migration; returns the reply body."""
    if sections is not None:
        unknown = [s for s in sections if s not in template["sections"]]
        if unknown:
            raise SimError(400, f"Unknown section(s) for this template: {', '.join(unknown)}")
    selected = set(sections) if sections else set(template["sections"])
    agents = list(template["overrides"])
    late = set(behind(state, template))
    if not late:
        return {"success": True}
    if not dry_run:
        for task in state.tasks.values():
            if (task["templateId"] == template["id"] and not task["dryRun"]
                    and _status(state, task)[0] in ("queued", "running")):  # fmt: skip
                raise SimError(409, "A migration of this template is already in progress")
    plan = []
    for aid in agents:
        fields = [f for f in template["overrides"][aid] if FIELD_SECTION.get(f) in selected]
        changed = aid in late
        plan.append({
            "accountId": aid,
            "changed": changed,
            "kept": 0 if force or not changed else len(fields),
            "replaced": len(fields) if force and changed else 0,
            "fields": fields,
        })  # fmt: skip
    locked = next((i for i, aid in enumerate(agents) if not state.accounts[aid].active), None)
    task_id = f"mig-{state.next_id():04d}"
    kind = "Dry run" if dry_run else "Migration"
    state.tasks[task_id] = {
        "taskId": task_id,
        "templateId": template["id"],
        "owner": template["owner"],
        "dryRun": dry_run,
        "force": force,
        "sections": sorted(selected),
        "createdAt": state.now(),
        "plan": plan,
        "failAt": locked,
        "applied": False,
    }
    return {
        "success": True,
        "taskId": task_id,
        "status": "queued",
        "statusEndpoint": f"/api/v2/templates/migrations/{task_id}",
        "message": f"{kind} of template {template['id']} queued for {len(agents)} agent(s)",
    }


def _status(state: SimState, task: dict[str, Any]) -> tuple[str, int, float, float]:
    """``(status, processed, running_at, end_at)`` at the current clock."""
    t0, total_s = task["createdAt"], state.task_seconds
    running_at, end_at = t0 + total_s / 10, t0 + total_s
    now = state.now()
    total = len(task["plan"])
    cap = total if task["failAt"] is None else task["failAt"]
    if now < running_at:
        return "queued", 0, running_at, end_at
    if now < end_at:
        frac = (now - running_at) / (end_at - running_at)
        return "running", min(cap, math.floor(frac * total)), running_at, end_at
    return ("completed" if task["failAt"] is None else "failed"), cap, running_at, end_at


def view(state: SimState, task: dict[str, Any]) -> dict[str, Any]:
    """The status endpoint's reply for ``task``."""
    status, processed, running_at, end_at = _status(state, task)
    done = task["plan"][:processed]
    counts = {
        "total": len(task["plan"]),
        "processed": processed,
        "changed": sum(1 for p in done if p["changed"]),
        "skipped": sum(1 for p in done if not p["changed"]),
        "overridesKept": sum(p["kept"] for p in done),
        "overridesReplaced": sum(p["replaced"] for p in done),
    }
    history = [{"status": "queued", "at": iso(task["createdAt"])}]
    if status != "queued":
        history.append({"status": "running", "at": iso(running_at)})
    if status in ("completed", "failed"):
        history.append({"status": status, "at": iso(end_at)})
    verb = "would change" if task["dryRun"] else "changed"
    if status == "queued":
        message = "Waiting for a migration worker"
    elif status == "running":
        message = f"Migrating agents ({processed}/{counts['total']})"
    elif status == "completed":
        message = (f"{'Dry run' if task['dryRun'] else 'Migration'} finished: "
                   f"{counts['changed']} agent(s) {verb}, {counts['skipped']} skipped")  # fmt: skip
    else:
        locked = task["plan"][task["failAt"]]["accountId"]
        message = f"Agent account {locked} is locked; migration stopped"
    return {
        "success": True,
        "taskId": task["taskId"],
        "templateId": task["templateId"],
        "status": status,
        "dryRun": task["dryRun"],
        "forceMigrateOverriddenFields": task["force"],
        "sectionsToMigrate": task["sections"],
        "message": message,
        "counts": counts,
        "history": history,
        "startedAt": iso(running_at) if status != "queued" else None,
        "updatedAt": history[-1]["at"],
        "finishedAt": iso(end_at) if status in ("completed", "failed") else None,
    }


def settle(state: SimState) -> None:
    """Apply every real task that has completed and is not applied yet."""
    for task in state.tasks.values():
        if task["dryRun"] or task["applied"] or _status(state, task)[0] != "completed":
            continue
        task["applied"] = True
        template = state.templates[task["templateId"]]
        for item in task["plan"]:
            if not item["changed"]:
                continue
            aid = item["accountId"]
            for cfg in (state.live[aid], state.staging.get(aid)):
                if cfg is not None:
                    cfg["templateRevision"] = template["revision"]
            if task["force"]:
                overrides = template["overrides"][aid]
                template["overrides"][aid] = [f for f in overrides if f not in item["fields"]]
