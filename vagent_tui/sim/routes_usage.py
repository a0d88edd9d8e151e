"""Usage, plans and today's task counts (``/stats/usage``, ``/product/currentPlan``,
``/product/productPlan/{id}``, ``/product/offeredPlan``, ``/product/allAvailablePlans``,
``/product/productCatalog``, ``/addon/available``, ``/tasks/dailyCounts``,
``/tasks/limits`` read and written), all of the selected account.

The vendor publishes these replies only as "an object"; the shapes here are the
simulator's choices (CONTRACT.md, "Every choice"). Usage is computed, not stored: a
day's numbers are a function of the account id and the date, so any period, range and
frequency add up the same way. ``state.usage_shape`` picks the reply's shape:
``totals`` (the default: totals under ``usage``, a ``timeseries`` list of dated
objects), ``rows`` (only a list of ``{date, key, value}`` rows under ``data.items``) or
``empty`` (no number at all) -- the second and third let tests run the console against
shapes it was not written for. ``state.huge`` makes these replies as large as the
console accepts (`vagent_tui.sim.huge`).
"""

from __future__ import annotations

import zlib
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from typing import Any

from vagent_tui.sim import huge, numbers
from vagent_tui.sim.account import Account
from vagent_tui.sim.common import SimError, bad, parse_bool
from vagent_tui.sim.endpoint import Ctx, route

FREQUENCIES = ("day", "month", "year")
PRICES = {"minutes": "0.05", "texts": "0.01"}
"""Per unit, USD: the costs are ``cost:minutes``, ``cost:texts`` (and their sum, none)."""
PLANS: dict[str, dict[str, Any]] = {
    "starter": {"name": "Starter", "price": 0, "includes": {"minutes": 100, "texts": 500}},
    "pro": {"name": "Pro", "price": 49, "includes": {"minutes": 2000, "texts": 5000}},
    "enterprise": {"name": "Enterprise", "price": 499,
                   "includes": {"minutes": 50000, "texts": 100000}},
}  # fmt: skip
ADDONS: dict[str, dict[str, Any]] = {
    "minutes-1000": {"name": "1,000 more minutes", "price": 40,
                     "plans": ("starter", "pro", "enterprise")},
    "numbers-5": {"name": "5 more phone numbers", "price": 10, "plans": ("starter", "pro")},
    "premium-voices": {"name": "Premium voices", "price": 15, "plans": ("starter", "pro")},
}  # fmt: skip
"""The add-ons and the plans each may be added to (choice 54)."""


def _day(account_id: int, when: date) -> dict[str, int]:
    """One day's usage of one account (deterministic)."""
    seed = zlib.crc32(f"{account_id}:{when.isoformat()}".encode())
    calls = seed % 40
    return {
        "calls": calls,
        "minutes": calls * (2 + (seed >> 8) % 4),
        "texts": (seed >> 12) % 60,
        "tasks": (seed >> 18) % 9,
    }


def _today(ctx: Ctx) -> date:
    return datetime.fromtimestamp(ctx.state.now(), UTC).date()


def _parse_date(name: str, raw: str | None) -> date | None:
    if raw is None:
        return None
    try:
        return datetime.fromisoformat(raw.strip().replace("Z", "+00:00")).date()
    except ValueError:
        raise bad(f"{name} must be an ISO date-time") from None


def _range(ctx: Ctx) -> tuple[date, date]:
    today = _today(ctx)
    start_of_month = today.replace(day=1)
    period = ctx.query.get("billingPeriod", "current")
    if period not in ("current", "previous"):
        raise bad("billingPeriod must be previous or current")
    if period == "previous":
        end = start_of_month - timedelta(days=1)
        start = end.replace(day=1)
    else:
        start, end = start_of_month, today
    start = _parse_date("startDate", ctx.query.get("startDate")) or start
    end = _parse_date("endDate", ctx.query.get("endDate")) or end
    if end < start:
        raise bad("endDate must not be before startDate")
    if (end - start).days > 3 * 366:
        raise bad("the range may span at most three years")
    return start, end


def _bucket(day: date, frequency: str) -> str:
    if frequency == "year":
        return f"{day.year:04d}"
    if frequency == "month":
        return f"{day.year:04d}-{day.month:02d}"
    return day.isoformat()


async def usage(ctx: Ctx) -> dict[str, Any]:
    acc = ctx.target
    frequency = ctx.query.get("frequency", "day")
    if frequency not in FREQUENCIES:
        raise bad("frequency must be day, month or year")
    costs = bool(parse_bool("giveCosts", ctx.query.get("giveCosts"), False))
    series = bool(parse_bool("timeseries", ctx.query.get("timeseries"), False))
    for name in ("combineCosts", "allItems"):
        parse_bool(name, ctx.query.get(name), False)
    start, end = _range(ctx)
    buckets: dict[str, dict[str, int]] = {}
    day = start
    while day <= end:
        into = buckets.setdefault(_bucket(day, frequency), {})
        for key, value in _day(acc.id, day).items():
            into[key] = into.get(key, 0) + value
        day += timedelta(days=1)
    shape = ctx.state.usage_shape
    if shape == "empty":
        return {"success": True, "usage": {}, "note": "no usage recorded"}
    if shape == "rows":
        rows = []
        for label, values in buckets.items():
            for key, value in values.items():
                rows.append({"date": label, "key": key, "value": value})
                if costs and key in PRICES:
                    rows.append({"date": label, "key": f"cost:{key}",
                                 "value": _cost(key, value)})  # fmt: skip
        return {"success": True, "data": {"items": rows}}
    totals: dict[str, Any] = {}
    for values in buckets.values():
        for key, value in values.items():
            totals[key] = totals.get(key, 0) + value
    if costs:
        totals.update({f"cost:{k}": _cost(k, totals.get(k, 0)) for k in PRICES})
    reply: dict[str, Any] = {
        "success": True,
        "billingPeriod": {"start": start.isoformat(), "end": end.isoformat()},
        "frequency": frequency,
        "usage": totals,
    }
    if costs:
        reply["currency"] = "USD"
    if series:
        reply["timeseries"] = [{"date": label, **values} for label, values in buckets.items()]
    return huge.usage(reply) if ctx.state.huge else reply


def _cost(key: str, units: int) -> float:
    return float(Decimal(PRICES[key]) * units)


def _plan(acc: Account) -> dict[str, Any]:
    plan = PLANS.get(acc.plan, {"name": acc.plan, "price": None, "includes": {}})
    return {"id": acc.plan, **plan, "currency": "USD", "billingCycle": "month"}


async def current_plan(ctx: Ctx) -> dict[str, Any]:
    plan = _plan(ctx.target)
    # The term the account subscribed for, once it has (CONTRACT 130).
    if (held := ctx.state.subscriptions.get(ctx.target.id)) is not None:
        plan["term"] = held.get("term", "month")
    return {"success": True, "plan": huge.plan(plan) if ctx.state.huge else plan}


async def product_plan(ctx: Ctx) -> dict[str, Any]:
    """One plan of the catalog by its id (choice 50): what it includes, its terms."""
    ctx.target  # noqa: B018 -- validates targetAccountId
    plan_id = ctx.path("productPlanId")
    plan = PLANS.get(plan_id)
    if plan is None:
        raise SimError(404, "Product plan not found")
    record = _catalog_plan(plan_id)
    return {"success": True, "productPlan": huge.plan(record) if ctx.state.huge else record}


def _catalog_plan(plan_id: str) -> dict[str, Any]:
    return {
        "id": plan_id,
        **PLANS[plan_id],
        "currency": "USD",
        "billingCycle": "month",
        "overage": {key: float(Decimal(price)) for key, price in PRICES.items()},
    }


async def offered_plan(ctx: Ctx) -> dict[str, Any]:
    """The plan offered to the account (choice 51): the next one up, none past the top."""
    order = list(PLANS)
    now = ctx.target.plan
    at = order.index(now) if now in order else len(order) - 1
    offered = _plan_of(order[at + 1]) if at + 1 < len(order) else None
    if ctx.state.huge:
        offered = huge.plan(offered)
    return {"success": True, "offeredPlan": offered}


def _plan_of(plan_id: str) -> dict[str, Any]:
    return {"id": plan_id, **PLANS[plan_id], "currency": "USD", "billingCycle": "month"}


async def all_available_plans(ctx: Ctx) -> dict[str, Any]:
    """Every plan of the catalog, as ``currentPlan`` describes one (choice 52)."""
    ctx.target  # noqa: B018 -- validates targetAccountId
    plans = [_plan_of(plan_id) for plan_id in PLANS]
    if ctx.state.huge:
        plans += huge.records("plan")
    return {"success": True, "plans": plans}


async def product_catalog(ctx: Ctx) -> dict[str, Any]:
    """The catalog with its overage prices, for a reseller or partner (choice 53)."""
    if ctx.target.account_type not in ("partner", "reseller"):
        raise SimError(403, "The product catalog needs a reseller or partner account")
    plans = [_catalog_plan(plan_id) for plan_id in PLANS]
    if ctx.state.huge:
        plans += huge.records("plan")
    items = [dict(item) for item in numbers.PRODUCT_ITEMS]  # choice 74
    return {"success": True, "catalog": {"currency": "USD", "plans": plans, "productItems": items}}


async def available_addons(ctx: Ctx) -> dict[str, Any]:
    """The add-ons of the account's plan (choice 54)."""
    plan = ctx.target.plan
    addons = [
        {"id": addon_id, "name": addon["name"], "price": addon["price"], "currency": "USD",
         "billingCycle": "month"}
        for addon_id, addon in ADDONS.items()
        if plan in addon["plans"]
    ]  # fmt: skip
    if ctx.state.huge:
        addons += huge.records("addon")
    return {"success": True, "addons": addons}


async def daily_counts(ctx: Ctx) -> dict[str, Any]:
    from vagent_tui.sim import outbound

    today = _today(ctx)
    counts = outbound.used(ctx.state, outbound.organization_of(ctx.state, ctx.target.id), today)
    sent = {**counts, "date": today.isoformat()}
    return {"success": True, "counts": huge.counts(sent) if ctx.state.huge else sent}


async def task_limits(ctx: Ctx) -> dict[str, Any]:
    """The limits of the selected account's organization (choice 68)."""
    from vagent_tui.sim import outbound

    return {"success": True, "limits": outbound.limits_of(ctx.state, ctx.target.id)}


async def update_task_limits(ctx: Ctx) -> dict[str, Any]:
    """The groups sent laid over the limits of the selected account's organization
    (choice 68): every agent of it is bound by them."""
    from vagent_tui.sim import outbound

    body = await ctx.json()
    owner = outbound.organization_of(ctx.state, ctx.target.id)
    current = outbound.limits_of(ctx.state, owner)
    limits = outbound.update_limits(current, body, super_admin=ctx.me.super_admin)
    ctx.state.task_limits[owner] = limits
    return {"success": True, "message": "Task limits updated", "limits": limits}


ROUTES = [
    route("/stats/usage", usage, "GET"),
    route("/product/currentPlan", current_plan, "GET"),
    route("/product/productPlan/{productPlanId}", product_plan, "GET"),
    route("/product/offeredPlan", offered_plan, "GET"),
    route("/product/allAvailablePlans", all_available_plans, "GET"),
    route("/product/productCatalog", product_catalog, "GET"),
    route("/addon/available", available_addons, "GET"),
    route("/tasks/dailyCounts", daily_counts, "GET"),
    route("/tasks/limits", task_limits, "GET"),
    route("/tasks/limits", update_task_limits, "POST"),
]
