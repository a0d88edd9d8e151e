"""Plans and billing writes: subscribe to a plan, cancel it, start a billing period, and
the billing system's configuration (``/product/subscribe``, ``/product/cancel``,
``/billing/billingPeriod``, ``/billing/billingSystemConfig``; CONTRACT choices 130-139).

A subscription spends money: sent once, never ``reads=True``. The billing system's keys
never reach the journal (`BillingSystemConfig.journal`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from vagent_tui.api import models as m
from vagent_tui.api.replies import Json
from vagent_tui.api.targets import Target
from vagent_tui.api.transport import ApiTransport

if TYPE_CHECKING:  # the models load with their first use, not at start-up
    from vagent_tui.api import billing_models as b

BILLING_SYSTEM = "/billing/billingSystemConfig"


class BillingApi(ApiTransport):
    """The plan's subscription and the reseller's or partner's billing settings."""

    async def buy_plan(
        self, request: b.SubscribeRequest, *, target: int | None = None
    ) -> m.Envelope:
        """``POST /product/subscribe``: subscribe to a plan (an upgrade is charged at
        once, prorated)."""
        return await self._envelope("POST", "/product/subscribe", target=target,
                                    json=request.wire())  # fmt: skip

    async def cancel_plan(
        self, request: b.CancelRequest, *, target: int | None = None
    ) -> m.Envelope:
        """``DELETE /product/cancel``: cancel the account's subscription."""
        return await self._envelope("DELETE", "/product/cancel", target=target,
                                    json=request.wire())  # fmt: skip

    async def set_billing_period(
        self, request: b.BillingPeriodRequest, *, target: int | None = None
    ) -> m.Envelope:
        """``POST /billing/billingPeriod``: start an organization's new billing period
        (reseller or partner only)."""
        return await self._envelope("POST", "/billing/billingPeriod", target=target,
                                    json=request.wire())  # fmt: skip

    async def get_billing_system(self, *, target: Target | None = None) -> b.BillingSystem:
        """``GET /billing/billingSystemConfig``: the stored configuration, its credentials
        redacted (404: none configured)."""

        from vagent_tui.api.billing_models import BillingSystem

        def parse(payload: Json) -> b.BillingSystem:
            inner = payload.get("billingSystemConfig") or payload.get("config")
            body = inner if isinstance(inner, dict) else payload
            return self._parse(BillingSystem, body, url=BILLING_SYSTEM)

        return await self.get(BILLING_SYSTEM, parse, target=target)

    async def set_billing_system(
        self, config: b.BillingSystemConfig, *, target: Target | None = None
    ) -> m.Envelope:
        """``POST /billing/billingSystemConfig``: replace the whole configuration."""
        return await self._envelope("POST", BILLING_SYSTEM, target=target,
                                    json=config.wire(), journal_body=config.journal())  # fmt: skip
