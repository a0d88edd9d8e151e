"""Subscriptions, billing periods and the billing system in the simulator (CONTRACT
choices 130-134). The fake clock reads 2027-01-15T08:00Z: 17 of January's 31 days are
left, counted from today."""

from __future__ import annotations

from typing import Any

import pytest

from .helpers import Sim, envelope

AGENT, ORG, RESELLER, STARTER_ORG = 1111, 1110, 1100, 1220
TODAY = 1_800_000_000 - 8 * 3600  # 2027-01-15T00:00Z


async def _post(sim: Sim, path: str, target: int, body: Any, method: str = "POST") -> Any:
    return await sim.call(method, path, params={"targetAccountId": target}, json=body)


async def test_an_upgrade_is_charged_at_once_prorated_and_a_second_is_refused(sim: Sim) -> None:
    sim.state.accounts[AGENT].plan = "starter"
    r = await _post(sim, "/product/subscribe", AGENT, {"productPlanId": "pro", "term": "month"})
    assert r.status_code == 200, r.text
    assert r.json()["message"] == "Subscribed to Pro; charged now: $26.87 (prorated)"  # 49*17/31
    assert sim.state.accounts[AGENT].plan == "pro"
    again = await _post(sim, "/product/subscribe", AGENT, {"productPlanId": "pro", "term": "month"})
    envelope(again, 400, "Already subscribed to Pro by the month")


async def test_the_current_plan_says_the_term_held_once_subscribed(sim: Sim) -> None:
    """A yearly subscription reads back as yearly (the console compares the term asked)."""
    read = await sim.call("GET", "/product/currentPlan", params={"targetAccountId": AGENT})
    assert "term" not in read.json()["plan"]  # the seed's: never subscribed here
    await _post(sim, "/product/subscribe", AGENT, {"productPlanId": "enterprise", "term": "year"})
    read = await sim.call("GET", "/product/currentPlan", params={"targetAccountId": AGENT})
    assert read.json()["plan"]["id"] == "enterprise" and read.json()["plan"]["term"] == "year"


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"productPlanId": "gold", "term": "month"}, 404),
        ({"productPlanId": "pro", "term": "week"}, 400),
        ({"productPlanId": "pro"}, 400),
    ],
)
async def test_subscribe_refusals(sim: Sim, body: dict[str, str], status: int) -> None:
    envelope(await _post(sim, "/product/subscribe", AGENT, body), status)


async def test_cancel_goes_back_to_the_free_plan_and_twice_is_refused(sim: Sim) -> None:
    body = {"reason": "too dear", "details": "x"}
    r = await _post(sim, "/product/cancel", AGENT, body, "DELETE")
    assert r.status_code == 200 and sim.state.accounts[AGENT].plan == "starter"
    envelope(await _post(sim, "/product/cancel", AGENT, {}, "DELETE"), 400,
             "There is no paid subscription to cancel")  # fmt: skip


async def test_a_billing_period_starts_today_at_an_organization(sim: Sim) -> None:
    period = {"startDateTimestamp": TODAY, "endDateTimestamp": TODAY + 30 * 86400}
    r = await _post(sim, "/billing/billingPeriod", ORG, period)
    assert r.status_code == 200 and r.json()["billingPeriod"] == period
    assert sim.state.billing_periods[ORG] == period
    yesterday = {**period, "startDateTimestamp": TODAY - 86400}
    envelope(await _post(sim, "/billing/billingPeriod", ORG, yesterday), 400)
    backwards = {"startDateTimestamp": TODAY + 10, "endDateTimestamp": TODAY}
    envelope(await _post(sim, "/billing/billingPeriod", ORG, backwards), 400,
             "startDateTimestamp must not be greater than endDateTimestamp")  # fmt: skip
    envelope(await _post(sim, "/billing/billingPeriod", AGENT, period), 400)


async def test_the_billing_system_is_replaced_whole_and_read_redacted(sim: Sim) -> None:
    path = "/billing/billingSystemConfig"
    envelope(await sim.get(path, targetAccountId=RESELLER), 404)
    stripe = {"billingSystemType": "stripe", "apiKey": "sk_1", "publishableKey": "pk_1",
              "webhookSigningKey": "whsec_1"}  # fmt: skip
    assert (await _post(sim, path, RESELLER, stripe)).status_code == 200
    read = (await sim.get(path, targetAccountId=RESELLER)).json()["billingSystemConfig"]
    assert read == {"billingSystemType": "stripe", "apiKey": "********",
                    "publishableKey": "pk_1", "webhookSigningKey": "********"}  # fmt: skip
    envelope(await _post(sim, path, RESELLER, {**stripe, "apiKey": "********"}), 400)
    envelope(await _post(sim, path, RESELLER, {"billingSystemType": "chargebee",
                                               "apiKey": "k"}), 400)  # fmt: skip
    envelope(await _post(sim, path, ORG, stripe), 403)
    assert "sk_1" not in str([r for r in sim.state.requests])
