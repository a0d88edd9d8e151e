"""Outbound work: ``POST /agent/outboundCall``, ``POST /agent/outboundSms`` and the
tasks they queue (``/tasks``, ``/tasks/stats``, ``/tasks/{taskId}``).

The tasks' states, caps and business hours are `vagent_tui.sim.outbound`'s. Tasks act
on the selected account (``targetAccountId`` or the key owner): a call or text is placed
by a voice agent account (400 otherwise); the list and the stats cover the selected
account and every account below it that the key may select.
"""

from __future__ import annotations

from typing import Any

from vagent_tui.sim import outbound
from vagent_tui.sim.common import SimError, bad, opt_str, parse_int
from vagent_tui.sim.endpoint import Ctx, Reply, route

MAX_TARGETS = 1000
MAX_PAGE = 1000
SORTS = ("createdAt", "updatedAt", "scheduledFor")
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


async def delete_task(ctx: Ctx) -> Reply:
    task = outbound.find(ctx.state, _reach(ctx), ctx.path("taskId"))
    if outbound.status(ctx.state, task)[0] == "running":
        raise SimError(409, "A running task cannot be deleted")
    del ctx.state.outbound[task["id"]]
    return {"success": True, "message": "Task deleted"}


ROUTES = [
    route("/agent/outboundCall", outbound_call, "POST"),
    route("/agent/outboundSms", outbound_sms, "POST"),
    route("/tasks", list_tasks, "GET"),
    route("/tasks", create_task, "POST"),
    route("/tasks/stats", task_stats, "GET"),
    route("/tasks/{taskId}", get_task, "GET"),
    route("/tasks/{taskId}", delete_task, "DELETE"),
]
