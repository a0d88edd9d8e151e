"""Handlers of ``/product/subscribe``, ``/product/cancel``, ``/billing/billingPeriod``
and ``/billing/billingSystemConfig`` (rules in `vagent_tui.sim.billing`)."""

from __future__ import annotations

from typing import Any

from vagent_tui.sim import billing
from vagent_tui.sim.common import opt_str, req_int, req_str
from vagent_tui.sim.endpoint import Ctx, route


async def subscribe(ctx: Ctx) -> dict[str, Any]:
    body = await ctx.json()
    plan = req_str(body, "productPlanId")
    term = req_str(body, "term")
    name, charged = billing.subscribe(ctx.state, ctx.target, plan, term)
    return {"success": True, "message": f"Subscribed to {name}; charged now: ${charged} (prorated)"}


async def cancel(ctx: Ctx) -> dict[str, Any]:
    body = await ctx.json(required=False)
    reason, details = opt_str(body, "reason"), opt_str(body, "details")
    billing.cancel(ctx.state, ctx.target, reason, details)
    return {"success": True, "message": "Subscription cancelled"}


async def billing_period(ctx: Ctx) -> dict[str, Any]:
    body = await ctx.json()
    start, end = req_int(body, "startDateTimestamp"), req_int(body, "endDateTimestamp")
    billing.set_period(ctx.state, ctx.me, ctx.target, start, end)
    period = {"startDateTimestamp": start, "endDateTimestamp": end}
    return {"success": True, "message": "Billing period updated", "billingPeriod": period}


async def read_system(ctx: Ctx) -> dict[str, Any]:
    return {"success": True, "billingSystemConfig": billing.read_system(ctx.state, ctx.target)}


async def replace_system(ctx: Ctx) -> dict[str, Any]:
    billing.replace_system(ctx.state, ctx.target, await ctx.json())
    return {"success": True, "message": "Success"}


ROUTES = [
    route("/product/subscribe", subscribe, "POST"),
    route("/product/cancel", cancel, "DELETE"),
    route("/billing/billingPeriod", billing_period, "POST"),
    route("/billing/billingSystemConfig", read_system, "GET"),
    route("/billing/billingSystemConfig", replace_system, "POST"),
]
