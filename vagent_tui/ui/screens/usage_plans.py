"""The Usage screen's plans panel and its money keys (`Does.SPENDS`): ``u`` subscribes
to a plan the plan reads listed (``POST /product/subscribe``), ``C`` cancels the
subscription (``DELETE /product/cancel``). Each asks its own question first (the plan
and term; the reason and details: `widgets.plan_questions`), then hands the write path
a `Spend`: what it costs or stops per the catalog, the plan id typed to confirm, sent
once, a lost reply read back from ``/product/currentPlan``.
"""

from __future__ import annotations

from collections.abc import Sequence

from vagent_tui.api.billing_models import CancelRequest, SubscribeRequest
from vagent_tui.api.models import Envelope
from vagent_tui.services.plan_offers import (
    Held,
    PlanOffer,
    cancel_cost,
    cancelled_back,
    choose,
    current_of,
    plan_offers,
    subscribe_cost,
    subscribed_back,
)
from vagent_tui.services.plans import PlanPart, plan_id, plan_name
from vagent_tui.services.session import Connection
from vagent_tui.ui.format import plain
from vagent_tui.ui.screens.base import who_of
from vagent_tui.ui.screens.usage_level import UsageLevelScreen
from vagent_tui.ui.writes import Spend, Write, Written

PLANS_KEYS = "u subscribe to a plan listed · C cancel the subscription · esc close\n"
"""The plans panel's first line: its money keys (out of the footer, which is full)."""
NOT_OPEN = "Plans are changed on the plans panel: press p, then {key}"


class UsagePlansScreen(UsageLevelScreen):
    """The plan changes of the Usage screen (its keys are declared there)."""

    _plan_parts: list[PlanPart] = []
    """The plan reads on show: what ``u`` offers and ``C`` cancels."""

    def _current_offer(self, offers: Sequence[PlanOffer]) -> tuple[PlanOffer | None, str]:
        """The plan the account is on, as the catalog lists it (None: not listed), and
        its name as the current plan's reply gives it."""
        current = current_of(self._plan_parts)
        ident, name = plan_id(current), plan_name(current)
        return next((o for o in offers if o.id == ident), None), name or ident

    def action_subscribe(self) -> None:
        """``u``: the plan and term asked, then the money question (`Spend`)."""
        if not self.plans_shown:
            self.status.info(NOT_OPEN.format(key="u"))
            return
        offers = plan_offers(self._plan_parts)
        if not offers:
            self.status.info("No plan listed to subscribe to: read the plans first (r)")
            return
        from vagent_tui.ui.widgets.plan_questions import plan_question

        start = self.connection
        _, name = self._current_offer(offers)
        held = Held.of(current_of(self._plan_parts))
        self.app.push_screen(
            plan_question(offers, name, held),
            lambda answer: self._subscribe_to(answer, offers, start, held),
        )

    def _subscribe_to(
        self, answer: str | None, offers: Sequence[PlanOffer], start: Connection, held: Held
    ) -> None:
        if answer is None:
            self.status.info("Cancelled; nothing was sent.")
            return
        found = choose(answer, offers, held)
        if isinstance(found, str):
            self.status.info(found if found.endswith("nothing sent") else f"{found}; nothing sent")
            return
        offer, term = found
        current, _ = self._current_offer(offers)
        request = SubscribeRequest(product_plan_id=offer.id, term=term)  # type: ignore[arg-type]
        who = who_of(self, with_id=True)
        self.write(
            Write[Envelope](
                "usage-plan",
                f"Subscribing {who} to {offer.id} by the {term}",
                lambda c: c.api.buy_plan(request, target=c.target_id),
                done=lambda reply: f"{reply.message or 'Subscribed'} · {who}",
                after=self._plan_changed,
                spends=Spend(
                    "Subscribe to plan",
                    offer.id,
                    f"{subscribe_cost(offer, term, current)}; billed to {who}",
                    lambda c: self._subscribed_back(c, offer, term, held),
                ),
            ),
            start,
        )

    def action_unsubscribe(self) -> None:
        """``C``: why (optional), then what stops, typed to confirm (`Spend`)."""
        from vagent_tui.ui.widgets.plan_questions import why_question

        if not self.plans_shown:
            self.status.info(NOT_OPEN.format(key="C"))
            return
        current = current_of(self._plan_parts)
        ident = plan_id(current) or plan_name(current)
        if not ident:
            self.status.info("The current plan is not read: read the plans first (r)")
            return
        start = self.connection

        def details(reason: str | None) -> None:
            if reason is None:
                self._cancel_with(None, ident, start)
                return
            self.app.push_screen(
                why_question(ident, "details"),
                lambda more: self._cancel_with(
                    None if more is None else (reason, more), ident, start
                ),
            )

        self.app.push_screen(why_question(ident, "reason"), details)

    def _cancel_with(self, answer: tuple[str, str] | None, ident: str, start: Connection) -> None:
        if answer is None:
            self.status.info("Cancelled; nothing was sent.")
            return
        request = CancelRequest(reason=answer[0], details=answer[1])
        current, _ = self._current_offer(plan_offers(self._plan_parts))
        held = Held.of(current_of(self._plan_parts))
        said = zip(("reason", "details"), answer, strict=True)
        why = "; ".join(f"{name}: {plain(typed)}" for name, typed in said if typed)
        who = who_of(self, with_id=True)
        self.write(
            Write[Envelope](
                "usage-plan",
                f"Cancelling the subscription of {who}",
                lambda c: c.api.cancel_plan(request, target=c.target_id),
                done=lambda reply: f"{reply.message or 'Cancelled'} · {who}",
                after=self._plan_changed,
                spends=Spend(
                    "Cancel plan",
                    ident,
                    f"{cancel_cost(current, held)}; for {who}" + (f" ({why})" if why else ""),
                    lambda c: self._cancelled_back(c, held),
                    effect="This stops a charge on the bill.",
                ),
            ),
            start,
        )

    async def _subscribed_back(self, c: Connection, offer: PlanOffer, term: str, held: Held) -> str:
        reply = await c.api.get_current_plan(target=c.target_id)
        return subscribed_back(reply, offer, term, held)

    async def _cancelled_back(self, c: Connection, held: Held) -> str:
        return cancelled_back(await c.api.get_current_plan(target=c.target_id), held)

    def _plan_changed(self, written: Written[Envelope]) -> None:
        if written.stale and self.is_current:
            self.refresh_plans()

    def refresh_plans(self) -> None:
        """Read the plans panel again, the status line left as the write said it."""
        raise NotImplementedError
