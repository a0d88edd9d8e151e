"""Plans' subscriptions and the billing settings (CONTRACT choices 130-135).

Subscribing moves the account to a plan of the catalog (`routes_usage.PLANS`); an
upgrade is charged at once for what is left of the month, a year's term twelve months;
cancelling puts the account back on the free ``starter`` plan. A new billing period
starts on the day the current one ends: the start sent must be today (UTC). A billing
system's configuration is a reseller's or partner's, replaced whole, read redacted.
"""

from __future__ import annotations

import calendar
from datetime import UTC, datetime
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from vagent_tui.sim.account import Account
from vagent_tui.sim.common import SimError, bad
from vagent_tui.sim.state import SimState

FREE_PLAN = "starter"
TERMS = ("month", "year")
REQUIRED = {
    "stripe": ("apiKey", "publishableKey", "webhookSigningKey"),
    "chargebee": ("apiKey", "publishableKey", "site", "webhookUsername", "webhookPassword"),
}
SECRETS = frozenset({"apiKey", "webhookSigningKey", "webhookPassword"})
REDACTED = "********"
"""What a read gives for a secret that is set (a presence indicator, not the value)."""


def _price(plan: str) -> Decimal:
    from vagent_tui.sim.routes_usage import PLANS

    return Decimal(str(PLANS.get(plan, {}).get("price") or 0))


def subscribe(state: SimState, acc: Account, plan: str, term: str) -> tuple[str, Decimal]:
    """Move ``acc`` to ``plan`` (choice 130): ``(its name, what is charged now)``."""
    from vagent_tui.sim.routes_usage import PLANS

    if term not in TERMS:
        raise bad("term must be month or year")
    if plan not in PLANS:
        raise SimError(404, "Product plan not found")
    held = state.subscriptions.get(acc.id, {}).get("term", "month")
    if plan == acc.plan and term == held:
        raise bad(f"Already subscribed to {PLANS[plan]['name']} by the {term}")
    now = datetime.fromtimestamp(state.now(), UTC)
    days = calendar.monthrange(now.year, now.month)[1]
    left = Decimal(days - now.day + 1) / Decimal(days)
    months = 12 if term == "year" else 1
    step = _price(plan) - _price(acc.plan)
    charged = (step * left * months).quantize(Decimal("0.01"), ROUND_HALF_UP)
    charged = max(charged, Decimal("0.00"))  # a downgrade charges nothing, refunds nothing
    acc.plan = plan
    state.subscriptions[acc.id] = {"plan": plan, "term": term, "charged": str(charged)}
    return str(PLANS[plan]["name"]), charged


def cancel(state: SimState, acc: Account, reason: str | None, details: str | None) -> None:
    """Back to the free plan at once (choice 131); nothing is refunded."""
    if acc.plan == FREE_PLAN:
        raise bad("There is no paid subscription to cancel")
    acc.plan = FREE_PLAN
    state.subscriptions[acc.id] = {"plan": FREE_PLAN, "term": "month",
                                   "canceled": {"reason": reason, "details": details}}  # fmt: skip


def set_period(state: SimState, caller: Account, acc: Account, start: int, end: int) -> None:
    """A new billing period of an organization (choice 132)."""
    if caller.account_type not in ("partner", "reseller") and not caller.super_admin:
        raise SimError(403, "Reseller/Partner only")
    if acc.account_type != "organization":
        raise bad("A billing period is an organization's")
    if start > end:
        raise bad("startDateTimestamp must not be greater than endDateTimestamp")
    today = datetime.fromtimestamp(state.now(), UTC).date()
    if datetime.fromtimestamp(start, UTC).date() != today:
        raise bad(
            "The new period is set on the day the current one ends: startDateTimestamp "
            f"must be today ({today.isoformat()}, UTC)"
        )
    state.billing_periods[acc.id] = {"startDateTimestamp": start, "endDateTimestamp": end}


def _owner(acc: Account) -> None:
    if acc.account_type not in ("partner", "reseller"):
        raise SimError(403, "A billing system is configured at reseller or partner level")


def read_system(state: SimState, acc: Account) -> dict[str, Any]:
    """The stored configuration, secrets redacted (choice 133); 404 when none."""
    _owner(acc)
    stored = state.billing_systems.get(acc.id)
    if stored is None:
        raise SimError(404, "No billing system is configured")
    return {k: (REDACTED if k in SECRETS and v else v) for k, v in stored.items()}


def replace_system(state: SimState, acc: Account, body: dict[str, Any]) -> None:
    """Replace the whole configuration (choice 134): the fields of its type only."""
    _owner(acc)
    kind = body.get("billingSystemType")
    if kind not in REQUIRED:
        raise bad("billingSystemType must be stripe or chargebee")
    stored: dict[str, Any] = {"billingSystemType": kind}
    for name in REQUIRED[kind]:
        value = body.get(name)
        if not isinstance(value, str) or not value.strip():
            raise bad(f"{name} is required for {kind}")
        if name in SECRETS and value == REDACTED:
            raise bad(f"{name} is the redacted value a read gives: send the key itself")
        stored[name] = value
    state.billing_systems[acc.id] = stored
