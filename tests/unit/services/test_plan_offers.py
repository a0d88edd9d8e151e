"""What the Usage plans panel's money keys ask and read back (`services.plan_offers`):
a year's amount, the plan and term held refused, and a lost reply's read-back said
against what was asked."""

from __future__ import annotations

from typing import Any

import pytest

from vagent_tui.api.usage_models import OpenReply
from vagent_tui.services.plan_offers import (
    Held,
    PlanOffer,
    cancelled_back,
    choose,
    subscribe_cost,
    subscribed_back,
)

PRO = PlanOffer("pro", "Pro", "49", "USD", "month")
STARTER = PlanOffer("starter", "Starter", "0", "USD", "month")


def _on(plan_id: str | None, name: str = "", **more: Any) -> OpenReply:
    plan = {"id": plan_id, "name": name, **more} if plan_id else {}
    return OpenReply.model_validate({"success": True, "plan": plan})


@pytest.mark.parametrize(
    ("offer", "said"),
    [
        (PRO, "by the year: 588 USD a year (49 USD a month per the catalog x 12)"),
        (PlanOffer("pro", "Pro", "19.99", "USD", "month"), "239.88 USD a year"),
        (PlanOffer("pro", "Pro", "500", "USD", "year"), "by the year: 500 USD a year"),
        (PlanOffer("pro", "Pro", "49", "USD"), "a year's amount is not worked out"),
    ],
)
def test_a_yearly_term_says_the_amount_a_year(offer: PlanOffer, said: str) -> None:
    assert said in subscribe_cost(offer, "year", STARTER)
    assert said not in subscribe_cost(offer, "month", STARTER)


@pytest.mark.parametrize(
    ("held", "typed", "refused"),
    [
        (Held("pro", "month", "Pro"), "pro", True),
        (Held("pro", "month", "Pro"), "pro month", True),
        (Held("pro", "month", "Pro"), "pro year", False),
        (Held("pro", "", "Pro"), "pro", False),  # the term held not said: asked, not refused
        (Held("starter", "month"), "pro", False),
    ],
)
def test_the_plan_and_term_held_are_refused_at_the_question(
    held: Held, typed: str, refused: bool
) -> None:
    found = choose(typed, [STARTER, PRO], held)
    assert isinstance(found, str) == refused
    if refused:
        assert found == "Already on Pro (pro) by the month: nothing to buy, nothing sent"


@pytest.mark.parametrize(
    ("now", "term", "before", "said"),
    [
        (_on("pro", "Pro", billingCycle="year"), "year", Held("starter", "month"),
         "Subscribed: on Pro (pro) (year)."),
        (_on("starter", "Starter", billingCycle="month"), "year", Held("starter", "month"),
         "Still on Starter (starter) by the month: nothing was bought (Pro (year) was asked)."),
        (_on("pro", "Pro", term="month"), "year", Held("pro", "month"),
         "Still on Pro (pro) by the month: nothing was bought (Pro (year) was asked)."),
        (_on("pro", "Pro"), "year", Held("starter"),
         "Subscribed: on Pro (pro); the reply does not say the term (year was asked)."),
        (_on("enterprise", "Enterprise"), "month", Held("starter"),
         "Not subscribed to Pro (month): the account is on Enterprise (enterprise) now."),
        (_on(None), "month", Held("starter"), "whether Pro (month) was bought is not known"),
    ],
)  # fmt: skip
def test_a_lost_subscribe_reads_back_whether_it_happened(
    now: OpenReply, term: str, before: Held, said: str
) -> None:
    assert said in subscribed_back(now, PRO, term, before)


@pytest.mark.parametrize(
    ("now", "said"),
    [
        (_on("starter", "Starter"), "Cancelled: the account is on Starter (starter) now, not Pro"),
        (_on("pro", "Pro", billingCycle="month"), "Not cancelled: still on Pro (pro) by the month"),
        (_on(None), "whether the subscription is cancelled is not known"),
    ],
)
def test_a_lost_cancel_reads_back_whether_it_is_cancelled(now: OpenReply, said: str) -> None:
    assert said in cancelled_back(now, Held("pro", "month", "Pro"))
