"""Usage, plan, today's counts and limits in the simulator (CONTRACT choices 36 to 39).

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
