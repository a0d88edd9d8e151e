"""One account's usage read with its plan: what the Usage screen shows of an account
(`read_account_usage`) and what the fleet tables ask of each account (`fleet_usage`,
`fleet_usage_line`), built of `vagent_tui.services.usage` and `vagent_tui.services.plans`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from vagent_tui.api.client import PlatformClient
from vagent_tui.api.usage_models import OpenReply, UsageQuery
from vagent_tui.services.plans import plan_id, plan_name
from vagent_tui.services.usage import UsageReport, exact, fmt_number, fmt_value, read_reply


@dataclass(frozen=True)
class AccountUsage:
    """What the Usage screen shows of one account; a part that failed is None with its
    error."""

    report: UsageReport
    plan: OpenReply | None = None
    plan_error: str = ""
    counts: OpenReply | None = None
    limits: OpenReply | None = None
    product: OpenReply | None = None
    """The catalog's record of the plan (``/product/productPlan/{id}``), when read."""


async def read_account_usage(
    client: PlatformClient, query: UsageQuery, target: int | None
) -> AccountUsage:
    """The usage (its failure is the read's), then the plan and today's counts and limits
    (each failure of those is said beside the usage, not instead of it)."""
    from vagent_tui.api.errors import PlatformError

    reply = await client.get_usage(query, target=target)
    report = read_reply(reply)
    plan = counts = limits = None
    plan_error = ""
    try:
        plan = await client.get_current_plan(target=target)
    except PlatformError as exc:
        plan_error = exc.message
    product = None
    if plan_id(plan):
        # what the catalog adds is extra: the plan's own reply stands without it
        with contextlib.suppress(PlatformError):
            product = await client.get_product_plan(plan_id(plan), target=target)
    try:
        counts = await client.get_daily_counts(target=target)
        limits = await client.get_task_limits(target=target)
    except PlatformError:
        pass  # today's counts are extra: the usage stands without them
    return AccountUsage(report, plan, plan_error, counts, limits, product)


FLEET_KEYS = 100
"""Rows of a usage report a fleet keeps of each account (a thousand accounts each
sending thousands of keys would otherwise be kept whole); the others are counted."""


async def fleet_usage_line(
    client: PlatformClient, account_id: int, query: UsageQuery
) -> dict[str, Any]:
    """The Usage screen's fleet table for one account: its plan's name and the usage
    read (`read_usage`), no text made for a matrix cell (the table formats what it shows).

    The usage read's failure is the answer's; the plan's only shows as ``?``.
    """
    from vagent_tui.api.errors import PlatformError

    reply = await client.get_usage(query, target=account_id)
    report = read_reply(reply)
    unread = len(report.unread)
    try:
        plan = plan_name(await client.get_current_plan(target=account_id)) or "—"
    except PlatformError:
        plan = "?"
    return {"plan": plan, "report": report.first(FLEET_KEYS), "unread": unread}


async def fleet_usage(
    client: PlatformClient, account_id: int, query: UsageQuery | None = None
) -> dict[str, Any]:
    """Fleet's "usage this period" for one account (or ``query``'s period or range):
    plan, costs, each usage key.

    The usage read's failure is the answer's; the plan's only shows as ``?``.
    """
    from vagent_tui.api.errors import PlatformError

    asked = query if query is not None else UsageQuery(timeseries=False)
    reply = await client.get_usage(asked, target=account_id)
    read = read_reply(reply)
    report = read.first(FLEET_KEYS)
    try:
        plan = plan_name(await client.get_current_plan(target=account_id)) or "—"
    except PlatformError:
        plan = "?"
    total = report.cost_total
    costs = fmt_number(total, places=2) if total is not None else None
    if costs is not None and report.currency:
        costs = f"{report.currency} {costs}"
    return {
        "plan": plan,
        "costs": costs,
        "usage": tuple(f"{r.key} {fmt_value(r, report.currency)}" for r in report.usage),
        "unread": len(read.unread),
        "not_shown": report.left_out.entries,
        "report": report,
    }


def fleet_usage_exact(values: Mapping[str, Any]) -> dict[str, str]:
    """The CSV's exact columns of one answer: each key the platform sent, the cost total
    and the currency."""
    report = values.get("report")
    if not isinstance(report, UsageReport):
        return {}
    cells = {row.key: exact(row.value) for row in report.rows}
    cells["cost_total"] = exact(report.cost_total)
    cells["currency"] = report.currency or ""
    return cells
