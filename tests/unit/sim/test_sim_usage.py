"""Usage, plans, today's counts and limits in the simulator (CONTRACT choices 36 to 39,
50 to 54).

The fake clock reads 2027-01-15T08:00Z: the current period is 2027-01-01..15, the
previous one December 2026.
"""

from __future__ import annotations

from typing import Any

import pytest

from .helpers import Sim, envelope

AGENT = 1111


async def _usage(sim: Sim, **params: Any) -> Any:
    return await sim.get("/stats/usage", targetAccountId=AGENT, **params)


async def test_current_period_totals_and_series(sim: Sim) -> None:
    r = await _usage(sim, giveCosts="true", timeseries="true")
    body = r.json()
    assert r.status_code == 200 and body["success"] is True
    assert body["billingPeriod"] == {"start": "2027-01-01", "end": "2027-01-15"}
    series = body["timeseries"]
    assert [p["date"] for p in series][:2] == ["2027-01-01", "2027-01-02"] and len(series) == 15
    for key in ("calls", "minutes", "texts", "tasks"):
        assert body["usage"][key] == sum(p[key] for p in series)
    assert body["usage"]["cost:minutes"] == pytest.approx(body["usage"]["minutes"] * 0.05)
    assert body["currency"] == "USD"


async def test_without_costs_no_cost_key_and_no_currency(sim: Sim) -> None:
    body = (await _usage(sim)).json()
    assert not [k for k in body["usage"] if k.startswith("cost:")]
    assert "currency" not in body and "timeseries" not in body


async def test_previous_period_and_frequencies_add_up(sim: Sim) -> None:
    by_day = (await _usage(sim, billingPeriod="previous", timeseries="true")).json()
    assert by_day["billingPeriod"] == {"start": "2026-12-01", "end": "2026-12-31"}
    by_month = (await _usage(sim, billingPeriod="previous", timeseries="true",
                             frequency="month")).json()  # fmt: skip
    assert by_month["timeseries"] == [{"date": "2026-12", **by_day["usage"]}]


async def test_a_range_replaces_the_period(sim: Sim) -> None:
    body = (await _usage(sim, startDate="2026-06-01T00:00:00.000Z",
                         endDate="2026-06-03T23:59:59.999Z", timeseries="true")).json()  # fmt: skip
    assert body["billingPeriod"] == {"start": "2026-06-01", "end": "2026-06-03"}
    assert len(body["timeseries"]) == 3


@pytest.mark.parametrize(
    "params",
    [
        {"frequency": "week"},
        {"billingPeriod": "next"},
        {"startDate": "yesterday"},
        {"startDate": "2026-06-03", "endDate": "2026-06-01"},
        {"startDate": "2020-01-01", "endDate": "2026-01-01"},
        {"giveCosts": "yes"},
        {"allItems": "maybe"},
    ],
)
async def test_refusals(sim: Sim, params: dict[str, str]) -> None:
    envelope(await _usage(sim, **params), 400)


async def test_the_other_shapes(sim: Sim) -> None:
    sim.state.usage_shape = "rows"
    body = (await _usage(sim, giveCosts="true")).json()
    rows = body["data"]["items"]
    assert {"date", "key", "value"} == set(rows[0])
    assert {r["key"] for r in rows} == {"calls", "minutes", "texts", "tasks", "cost:minutes",
                                        "cost:texts"}  # fmt: skip
    sim.state.usage_shape = "empty"
    assert (await _usage(sim)).json() == {"success": True, "usage": {},
                                          "note": "no usage recorded"}  # fmt: skip


async def test_plan_counts_and_limits(sim: Sim) -> None:
    plan = (await sim.get("/product/currentPlan", targetAccountId=AGENT)).json()
    assert plan["success"] is True and plan["plan"]["id"] == sim.state.accounts[AGENT].plan
    counts = (await sim.get("/tasks/dailyCounts", targetAccountId=AGENT)).json()["counts"]
    assert counts["date"] == "2027-01-15" and set(counts) == {"calls", "texts", "tasks", "date"}
    limits = (await sim.get("/tasks/limits", targetAccountId=AGENT)).json()["limits"]
    assert limits["daily"] == {"calls": 100, "texts": 200, "tasks": 300}


async def test_product_plan_of_the_catalog(sim: Sim) -> None:
    plan_id = sim.state.accounts[AGENT].plan
    reply = await sim.get(f"/product/productPlan/{plan_id}", targetAccountId=AGENT)
    plan = reply.json()["productPlan"]
    assert plan["id"] == plan_id and set(plan["includes"]) == {"minutes", "texts"}
    assert plan["overage"] == {"minutes": 0.05, "texts": 0.01}
    missing = await sim.get("/product/productPlan/gold", targetAccountId=AGENT)
    envelope(missing, 404, "Product plan not found")


async def test_out_of_reach_and_no_token(sim: Sim) -> None:
    envelope(await sim.get("/stats/usage", "demo-org", targetAccountId=1211), 403)
    envelope(await sim.get("/product/currentPlan", None), 401)


async def test_offered_plan_is_the_next_one_up_and_none_at_the_top(sim: Sim) -> None:
    for plan, offered in (("starter", "pro"), ("pro", "enterprise"), ("enterprise", None)):
        sim.state.accounts[AGENT].plan = plan
        body = (await sim.get("/product/offeredPlan", targetAccountId=AGENT)).json()
        assert body["success"] is True
        if offered is None:
            assert body["offeredPlan"] is None
        else:
            assert body["offeredPlan"]["id"] == offered
            assert set(body["offeredPlan"]) == {"id", "name", "price", "includes", "currency",
                                                "billingCycle"}  # fmt: skip


async def test_all_available_plans_is_a_list_of_the_catalog(sim: Sim) -> None:
    body = (await sim.get("/product/allAvailablePlans", targetAccountId=AGENT)).json()
    assert [p["id"] for p in body["plans"]] == ["starter", "pro", "enterprise"]
    current = (await sim.get("/product/currentPlan", targetAccountId=AGENT)).json()["plan"]
    assert current in body["plans"]


async def test_the_catalog_is_a_reseller_or_partner_read(sim: Sim) -> None:
    for key in ("demo-partner", "demo-reseller"):
        body = (await sim.get("/product/productCatalog", key)).json()
        assert body["catalog"]["currency"] == "USD"
        assert body["catalog"]["plans"][0]["overage"] == {"minutes": 0.05, "texts": 0.01}
    refused = await sim.get("/product/productCatalog", "demo-org")
    envelope(refused, 403, "The product catalog needs a reseller or partner account")
    # acting as an agent account below: the target is asked about, not the key
    envelope(await sim.get("/product/productCatalog", targetAccountId=AGENT), 403)


async def test_addons_of_the_accounts_plan(sim: Sim) -> None:
    sim.state.accounts[AGENT].plan = "pro"
    body = (await sim.get("/addon/available", targetAccountId=AGENT)).json()
    assert [a["id"] for a in body["addons"]] == ["minutes-1000", "numbers-5", "premium-voices"]
    first = {"id": "minutes-1000", "name": "1,000 more minutes", "price": 40,
             "currency": "USD", "billingCycle": "month"}  # fmt: skip
    assert body["addons"][0] == first
    sim.state.accounts[AGENT].plan = "enterprise"
    body = (await sim.get("/addon/available", targetAccountId=AGENT)).json()
    assert [a["id"] for a in body["addons"]] == ["minutes-1000"]


@pytest.mark.parametrize(
    "path",
    ["/product/offeredPlan", "/product/allAvailablePlans", "/product/productCatalog",
     "/addon/available"],
)  # fmt: skip
async def test_plan_reads_check_the_target_and_token(sim: Sim, path: str) -> None:
    envelope(await sim.get(path, "demo-org", targetAccountId=1211), 403)
    envelope(await sim.get(path, None), 401)
