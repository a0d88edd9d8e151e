"""Outbound work: ``POST /agent/outboundCall``, ``POST /agent/outboundSms`` and the
tasks they queue (``/tasks``, ``/tasks/stats``, ``/tasks/{taskId}``: read, updated
(canceled), deleted).

The tasks' states, caps and business hours are `vagent_tui.sim.outbound`'s. Tasks act
on the selected account (``targetAccountId`` or the key owner): a call or text is placed
by a voice agent account (400 otherwise); the list and the stats cover the selected
account and every account below it that the key may select. Deleting a task stops its
work first when it runs (vida-skill: "deletion stops active work before removing the
Task record"): any task may be deleted.
"""

from __future__ import annotations

import csv
import io
from typing import Any

from starlette.datastructures import UploadFile

from vagent_tui.sim import outbound
from vagent_tui.sim.common import SimError, bad, opt_str, parse_bool, parse_int
from vagent_tui.sim.endpoint import Ctx, Reply, route

MAX_TARGETS = 1000
MAX_PAGE = 1000
SORTS = ("createdAt", "updatedAt", "scheduledFor")
MAX_CSV_BYTES = 1024 * 1024
MAX_CSV_ROWS = 5000
CSV_COLUMNS = ("type", "target", "context", "taskContext", "greeting", "waitToGreet",
               "accountId", "scheduledFor", "message", "externalTaskId")  # fmt: skip
"""The columns the reference names; any other is ignored (and said)."""
_TEXT_FIELDS = ("context", "taskContext", "greeting", "externalTaskId")


def _reach(ctx: Ctx) -> set[int]:
    below = ctx.state.selectable_below(ctx.me, ctx.target, lambda a: True)
    return {a.id for a in below} | {ctx.target.id}


def _scheduled(value: Any, name: str = "scheduledFor") -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise bad(f"{name} must be Unix seconds (an integer)")
    return value


def _options(body: dict[str, Any], *, text: bool) -> dict[str, Any]:
    """The optional fields an item takes (strictly typed)."""
    out: dict[str, Any] = {}
    for key in (*_TEXT_FIELDS, "content") if text else _TEXT_FIELDS:
        value = opt_str(body, key)
        if value is not None:
            out[key] = value
    meta = body.get("meta")
    if meta is not None:
        if not isinstance(meta, dict):
            raise bad("meta must be an object")
        out["meta"] = meta
    scheduled = _scheduled(body.get("scheduledFor"))
    if scheduled is not None:
        out["scheduledFor"] = scheduled
    return out


def _items(body: dict[str, Any], *, text: bool) -> list[dict[str, Any]]:
    """``target`` (one) or ``targets`` (strings or objects), the shared fields applied
    where an item has none, ``scheduleSpacingSec`` staggering their schedules."""
    shared = _options(body, text=text)
    if "target" in body and "targets" in body:
        raise bad("send target or targets, not both")
    if "targets" not in body:
        items = [{**shared, "target": outbound.check_target(body.get("target"))}]
    else:
        targets = body["targets"]
        if not isinstance(targets, list) or not targets:
            raise bad("targets must be a nonempty array")
        if len(targets) > MAX_TARGETS:
            raise bad(f"targets holds more than {MAX_TARGETS} items")
        items = []
        for n, raw in enumerate(targets):
            name = f"targets[{n}]"
            if isinstance(raw, str):
                items.append({**shared, "target": outbound.check_target(raw, name)})
            elif isinstance(raw, dict):
                own = _options(raw, text=text)
                items.append({**shared, **own,
                              "target": outbound.check_target(raw.get("target"),
                                                              f"{name}.target")})  # fmt: skip
            else:
                raise bad(f"{name} must be a string or an object")
    spacing = body.get("scheduleSpacingSec")
    if spacing is not None:
        if isinstance(spacing, bool) or not isinstance(spacing, int) or spacing < 0:
            raise bad("scheduleSpacingSec must be a nonnegative integer")
        for n, item in enumerate(items):
            item["_offset"] = n * spacing
    if text:
        for item in items:
            if not item.get("content"):
                raise bad("content is required")
    return items


def _queue(ctx: Ctx, items: list[dict[str, Any]], kind: str) -> dict[str, Any]:
    agent = ctx.agent_target()
    now = int(ctx.state.now())
    for item in items:
        offset = item.pop("_offset", 0)
        if offset:
            item["scheduledFor"] = (item.get("scheduledFor") or now) + offset
    tasks = outbound.queue(ctx.state, agent, items, kind)
    noun = "call" if kind == "call" else "SMS"
    return {"success": True, "message": f"Outbound {noun} initiated.",
            "inserted": len(tasks), "tasks": tasks}  # fmt: skip


async def outbound_call(ctx: Ctx) -> Reply:
    body = await ctx.json()
    return _queue(ctx, _items(body, text=False), "call")


async def outbound_sms(ctx: Ctx) -> Reply:
    body = await ctx.json()
    return _queue(ctx, _items(body, text=True), "text")


async def create_task(ctx: Ctx) -> Reply:
    body = await ctx.json()
    kind = body.get("type")
    if kind is None:
        raise bad("type is required")
    if kind not in outbound.KINDS:
        raise bad("type must be call or text")
    item = _options(body, text=kind == "text")
    item["target"] = outbound.check_target(body.get("target"))
    if kind == "text" and not item.get("content"):
        raise bad("content is required")
    tasks = outbound.queue(ctx.state, ctx.agent_target(), [item], kind)
    return 201, {"success": True, "message": "Task created", "task": tasks[0]}


async def list_tasks(ctx: Ctx) -> Reply:
    q = ctx.query
    limit = parse_int("limit", q.get("limit"))
    limit = 100 if limit is None else limit
    if not 1 <= limit <= MAX_PAGE:
        raise bad(f"limit must be an integer between 1 and {MAX_PAGE}")
    offset = parse_int("offset", q.get("offset")) or 0
    if offset < 0:
        raise bad("offset must be an integer >= 0")
    since, until = parse_int("since", q.get("since")), parse_int("until", q.get("until"))
    sort = q.get("sort", "createdAt")
    if sort not in SORTS:
        raise bad("sort must be createdAt, updatedAt or scheduledFor")
    order = q.get("order", "desc")
    if order not in ("asc", "desc"):
        raise bad("order must be asc or desc")
    wanted = q.get("state")
    reach = _reach(ctx)
    views = [outbound.view(ctx.state, t) for t in ctx.state.outbound.values()
             if t["accountId"] in reach]  # fmt: skip
    views = [v for v in views
             if (since is None or v["updatedAt"] >= since)
             and (until is None or v["updatedAt"] <= until)
             and (wanted is None or v["state"] == wanted)]  # fmt: skip
    views.sort(key=lambda v: (v.get(sort) or 0, v["id"]), reverse=order == "desc")
    return {"success": True, "total": len(views), "tasks": views[offset : offset + limit]}


async def task_stats(ctx: Ctx) -> Reply:
    reach = _reach(ctx)
    by_state = dict.fromkeys(outbound.STATES, 0)
    for task in ctx.state.outbound.values():
        if task["accountId"] in reach:
            by_state[outbound.status(ctx.state, task)[0]] += 1
    return {"success": True, "total": sum(by_state.values()), "byState": by_state}


async def get_task(ctx: Ctx) -> Reply:
    task = outbound.find(ctx.state, _reach(ctx), ctx.path("taskId"))
    return {"success": True, "task": outbound.view(ctx.state, task)}


async def update_task(ctx: Ctx) -> Reply:
    """``POST /tasks/{taskId}``: cancel it, or change a pending task's context
    (`outbound.update`)."""
    task = outbound.find(ctx.state, _reach(ctx), ctx.path("taskId"))
    body = await ctx.json()
    outbound.update(ctx.state, task, body)
    return {"success": True, "message": "Task updated", "task": outbound.view(ctx.state, task)}


async def delete_task(ctx: Ctx) -> Reply:
    """Any task: a running one's work stops and the task goes (nothing is left of it)."""
    task = outbound.find(ctx.state, _reach(ctx), ctx.path("taskId"))
    del ctx.state.outbound[task["id"]]
    return {"success": True, "message": "Task deleted"}


def _csv_row(ctx: Ctx, row: dict[str, str], reach: set[int]) -> tuple[int, str, dict[str, Any]]:
    """``(agent id, kind, item)`` of one row, or 400 with the row's problem."""
    kind = (row.get("type") or "call").strip().lower() or "call"
    if kind == "sms":
        kind = "text"
    if kind not in outbound.KINDS:
        raise bad("type must be call or text")
    item: dict[str, Any] = {"target": outbound.check_target(row.get("target"))}
    for key in ("context", "taskContext", "greeting", "externalTaskId"):
        if (row.get(key) or "").strip():
            item[key] = row[key].strip()
    if (row.get("message") or "").strip():
        item["content"] = row["message"].strip()
    if kind == "text" and not item.get("content"):
        raise bad("message is required for a text")
    raw = (row.get("scheduledFor") or "").strip()
    if raw:
        if not raw.isdecimal():
            raise bad("scheduledFor must be Unix seconds")
        item["scheduledFor"] = int(raw)
    agent_id = ctx.target.id
    raw = (row.get("accountId") or "").strip()
    if raw:
        if not raw.isdecimal() or int(raw) not in reach:
            raise bad("accountId is not an agent account of this key")
        agent_id = int(raw)
    acc = ctx.state.accounts.get(agent_id)
    if acc is None or not acc.is_agent:
        raise bad("a call or text needs a voice agent account (accountId or the target)")
    return agent_id, kind, item


async def upload_csv(ctx: Ctx) -> Reply:
    form = await ctx.form()
    file = form.get("csv")
    if not isinstance(file, UploadFile):
        raise bad("csv is required and must be a file part")
    dry_raw = form.get("dryRun")
    if dry_raw is not None and not isinstance(dry_raw, str):
        raise bad("dryRun must be a boolean (true or false)")
    dry = bool(parse_bool("dryRun", dry_raw, False))
    data = await file.read()
    if len(data) > MAX_CSV_BYTES:
        raise bad("the CSV exceeds 1 MiB")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise bad("the CSV is not UTF-8 text") from None
    reader = csv.DictReader(io.StringIO(text))
    header = [h.strip() for h in reader.fieldnames or []]
    if "target" not in header:
        raise bad("the CSV needs a header row with a target column")
    reader.fieldnames = header
    rows = list(reader)
    if not rows:
        raise bad("the CSV has no rows")
    if len(rows) > MAX_CSV_ROWS:
        raise bad(f"the CSV has more than {MAX_CSV_ROWS} rows")
    reach = _reach(ctx)
    planners: dict[int, outbound.Planner] = {}
    results: list[dict[str, Any]] = []
    planned: list[tuple[int, dict[str, Any]]] = []
    for n, row in enumerate(rows, 2):  # row 1 is the header
        clean = {k: v if isinstance(v, str) else "" for k, v in row.items() if k}
        try:
            agent_id, kind, item = _csv_row(ctx, clean, reach)
            org_id = outbound.organization_of(ctx.state, agent_id)
            if org_id not in planners:
                planners[org_id] = outbound.Planner(ctx.state, org_id)
            planner = planners[org_id]
            task = planner.plan(item, kind, agent_id)
        except SimError as exc:
            results.append({"row": n, "target": clean.get("target", ""), "ok": False,
                            "reason": exc.message})  # fmt: skip
            continue
        results.append({"row": n, "target": item["target"], "type": kind, "ok": True,
                        "accountId": agent_id})  # fmt: skip
        planned.append((len(results) - 1, task))
    tasks = []
    if not dry:
        for index, task in planned:
            view = planners[outbound.organization_of(ctx.state, task["accountId"])].store(task)
            results[index]["taskId"] = view["id"]
            tasks.append(view)
    ok = len(planned)
    return {
        "success": True,
        "dryRun": dry,
        "message": (f"{ok} task(s) would be queued" if dry else f"{ok} task(s) queued")
                   + f", {len(rows) - ok} row(s) refused",
        "total": len(rows),
        "valid": ok,
        "refused": len(rows) - ok,
        "inserted": 0 if dry else ok,
        "ignoredColumns": [h for h in header if h not in CSV_COLUMNS],
        "rows": results,
        "tasks": tasks,
    }  # fmt: skip


ROUTES = [
    route("/agent/outboundCall", outbound_call, "POST"),
    route("/agent/outboundSms", outbound_sms, "POST"),
    route("/tasks", list_tasks, "GET"),
    route("/tasks", create_task, "POST"),
    route("/tasks/stats", task_stats, "GET"),
    route("/tasks/csv", upload_csv, "POST"),
    route("/tasks/{taskId}", get_task, "GET"),
    route("/tasks/{taskId}", update_task, "POST"),
    route("/tasks/{taskId}", delete_task, "DELETE"),
]
