"""Reading usage replies of any shape (`services.usage`), the query, the CSV, the fleet's
usage question, and the client's requests against the simulator."""

from __future__ import annotations

import csv
import io
from decimal import Decimal
from typing import Any

import pytest
from pydantic import ValidationError

from vagent_tui.api import models as m
from vagent_tui.api.bounded import LeftOut
from vagent_tui.api.models import OpenReply, UsageQuery
from vagent_tui.services.account_usage import FLEET_KEYS, fleet_usage_exact, read_account_usage
from vagent_tui.services.connect import demo_client
from vagent_tui.services.fleet import QUESTIONS, FleetAnswer, ask_fleet, to_csv
from vagent_tui.services.plans import plan_lines, plan_name, today_lines
from vagent_tui.services.usage import fmt_number, fmt_value, read_reply, read_usage, usage_csv

TOTALS: dict[str, Any] = {
    "success": True,
    "currency": "EUR",
    "billingPeriod": {"start": "2025-11-01", "end": "2025-11-30"},
    "usage": {"minutes": 1234.5, "calls": 310, "cost:minutes": 61.725, "cost:texts": "0.10"},
    "timeseries": [{"date": "2025-11-01", "minutes": 1.5, "calls": 3},
                   {"date": "2025-11-02", "minutes": 2, "calls": 4}],
}  # fmt: skip
ROWS: dict[str, Any] = {
    "success": True,
    "data": {"items": [
        {"date": "2025-11-02", "key": "minutes", "value": 4},
        {"date": "2025-11-01", "key": "minutes", "value": 3.25},
        {"date": "2025-11-01", "key": "cost:minutes", "value": 0.1625},
    ]},
}  # fmt: skip
NESTED: dict[str, Any] = {
    "stats": {
        "2025-10": {"minutes": 10, "costs": {"minutes": 0.5}},
        "2025-11": {"minutes": 20, "costs": {"minutes": 1}},
    },
    "weird": [1, "a"],
    "flag": True,
}


def test_totals_shape() -> None:
    report = read_usage(TOTALS)
    assert [r.key for r in report.rows] == ["minutes", "calls", "cost:minutes", "cost:texts"]
    minutes = report.row("minutes")
    assert minutes is not None and minutes.value == Decimal("1234.5") and not minutes.summed
    assert minutes.series == (("2025-11-01", Decimal("1.5")), ("2025-11-02", Decimal("2")))
    assert report.currency == "EUR" and report.cost_total == Decimal("61.825")
    assert ("billingPeriod.start", "2025-11-01") in report.notes and report.unread == ()


def test_a_list_of_key_value_rows_is_summed_per_key() -> None:
    report = read_usage(ROWS)
    minutes, cost = report.row("minutes"), report.row("cost:minutes")
    assert minutes is not None and cost is not None
    assert minutes.value == Decimal("7.25") and minutes.summed
    assert [label for label, _ in minutes.series] == ["2025-11-01", "2025-11-02"]
    assert cost.cost and report.cost_total == Decimal("0.1625") and report.currency is None


def test_objects_keyed_by_dates_and_a_costs_object() -> None:
    report = read_usage(NESTED)
    assert [r.key for r in report.rows] == ["minutes", "cost:minutes"]
    assert report.cost_total == Decimal("1.5")
    assert report.unread == ("weird",)


def test_a_reply_with_no_number() -> None:
    report = read_usage({"success": True, "usage": {}, "note": "nothing"})
    assert report.rows == () and report.cost_total is None
    assert report.notes == (("note", "nothing"),)


def test_a_cost_total_sent_is_not_summed_again() -> None:
    report = read_usage({"cost:minutes": 1, "cost:total": 1})
    assert report.cost_total == Decimal("1")


def test_formatting_for_reading() -> None:
    report = read_usage(TOTALS)
    assert fmt_number(Decimal("1234567.891")) == "1,234,567.891"
    assert fmt_number(None) == "—"
    minutes, cost = report.row("minutes"), report.row("cost:minutes")
    assert minutes is not None and cost is not None
    assert fmt_value(minutes, "EUR") == "1,234.5 min"
    assert fmt_value(cost, "EUR") == "EUR 61.72"  # rounded for reading (exact in the CSV)
    assert fmt_value(cost, None) == "61.72"


def test_the_csv_is_exact() -> None:
    rows = list(csv.reader(io.StringIO(usage_csv(read_usage(TOTALS), label="current"))))
    assert rows[0] == ["key", "kind", "value", "unit", "currency", "point", "period"]
    by_key = {(r[0], r[5]): r for r in rows[1:]}
    assert by_key[("cost:minutes", "")][2:5] == ["61.725", "", "EUR"]
    assert by_key[("minutes", "2025-11-01")][2] == "1.5"


def test_the_query() -> None:
    assert UsageQuery().params() == {"frequency": "day", "giveCosts": True,
                                     "timeseries": True, "billingPeriod": "current"}  # fmt: skip
    ranged = UsageQuery.model_validate({"start_date": "2025-01-01", "end_date": "2025-01-31"})
    params = ranged.params()
    assert "billingPeriod" not in params
    assert params["startDate"] == "2025-01-01T00:00:00.000Z"
    assert params["endDate"] == "2025-01-31T23:59:59.999Z"
    with pytest.raises(ValidationError) as bad:
        UsageQuery.model_validate({"start_date": "2025-02-01", "end_date": "2025-01-31"})
    assert bad.value.errors()[0]["loc"] == ("end_date",)
    with pytest.raises(ValidationError):
        UsageQuery.model_validate({"start_date": "2025-13-01"})
    with pytest.raises(ValidationError):
        UsageQuery.model_validate({"frequency": "week"})


def test_plan_and_today() -> None:
    plan = OpenReply.model_validate({"success": True, "plan": {"name": "Pro", "price": 49}})
    assert plan_lines(plan) == [("name", "Pro"), ("price", "49")]
    assert plan_name(plan) == "Pro" and plan_name(None) == ""
    counts = OpenReply.model_validate({"counts": {"calls": 5, "texts": 1200, "date": "x"}})
    limits = OpenReply.model_validate({"limits": {"daily": {"calls": 100}}})
    assert today_lines(counts, limits) == [("calls", "5 of 100"), ("texts", "1,200")]
    assert today_lines(None, None) == []


async def test_the_client_asks_what_the_query_says() -> None:
    client = demo_client("demo-partner")
    query = UsageQuery(billing_period="previous", frequency="month", give_costs=False)
    usage = await read_account_usage(client, query, 1111)
    state = client.sim_app.state.sim
    asked = [r for r in state.requests if r.path.endswith("/stats/usage")][-1]
    assert asked.query["billingPeriod"] == "previous" and asked.query["frequency"] == "month"
    assert asked.query["giveCosts"] == "false" and asked.query["targetAccountId"] == "1111"
    assert "token" not in str(asked.query.get("billingPeriod"))
    assert usage.report.costs == () and usage.plan is not None
    assert [k for k, _ in today_lines(usage.counts, usage.limits)] == ["calls", "texts", "tasks"]


async def test_the_fleet_question_on_the_fleet_fan_out() -> None:
    client = demo_client("demo-partner")
    client.sim_app.state.sim.usage_shape = "rows"
    answers = await ask_fleet(client, [1111, 1112, 999999], "usage", concurrency=2)
    by_id = {a.account_id: a for a in answers}
    assert by_id[999999].error is not None  # one account's failure never stops the rest
    good = by_id[1111]
    assert good.ok and good.values["plan"] and good.values["costs"]
    assert any(str(item).startswith("minutes ") for item in good.values["usage"])
    exact = fleet_usage_exact(good.values)
    assert exact["minutes"].isdigit() and exact["currency"] == ""
    accounts = [m.Account(id=i, name=f"a{i}") for i in (1111, 1112, 999999)]
    text = to_csv(QUESTIONS["usage"], accounts, by_id)
    header = next(csv.reader(io.StringIO(text)))
    assert header[:6] == ["account_id", "account_name", "plan", "costs", "usage", "unread"]
    assert "minutes" in header and "cost_total" in header and header[-2:] == ["status", "error"]


def test_a_failed_answer_has_no_exact_columns() -> None:
    assert fleet_usage_exact(FleetAnswer(1, error="x").values) == {}


def test_plan_id_and_what_the_catalog_adds() -> None:
    from vagent_tui.api.usage_models import OpenReply
    from vagent_tui.services.plans import catalog_lines, plan_id

    plan = OpenReply.model_validate({"success": True, "plan": {"id": "pro", "name": "Pro"}})
    product = OpenReply.model_validate(
        {"success": True, "productPlan": {"id": "pro", "name": "Pro", "overage": {"minutes": 0.05}}}
    )
    assert plan_id(plan) == "pro" and plan_id(None) == ""
    assert plan_id(OpenReply.model_validate({"success": True, "productPlanId": "p-1"})) == "p-1"
    assert catalog_lines(plan, product) == [("overage.minutes", "0.05")]
    assert catalog_lines(plan, None) == []
    assert catalog_lines(None, product)[0] == ("id", "pro")


def test_plan_name_looks_inside_the_wrappers_only() -> None:
    from vagent_tui.api.usage_models import OpenReply

    def name(body: dict[str, object]) -> str:
        return plan_name(OpenReply.model_validate({"success": True, **body}))

    assert name({"data": {"plan": {"id": 5, "name": "Pro"}}}) == "Pro"
    assert name({"id": 12345}) == "12,345"
    assert name({"plan": "gold"}) == "gold"
    assert name({"other": {"name": "not a plan's"}}) == ""
    assert name({"plan": {"name": "", "title": "Starter"}}) == "Starter"


def test_record_groups_put_a_records_fields_on_one_line() -> None:
    from vagent_tui.services.plans import record_groups

    lines = [("currency", "USD"), ("plans[1].id", "a"), ("plans[1].price", "1"),
             ("plans[2].id", "b"), ("x[1].y[2].z", "deep"), ("note", "")]  # fmt: skip
    assert record_groups(lines) == [
        ("", [("currency", "USD")]),
        ("plans[1]", [("id", "a"), ("price", "1")]),
        ("plans[2]", [("id", "b")]),
        ("x[1]", [("y[2].z", "deep")]),
        ("", [("note", "")]),
    ]


async def test_read_plans_keeps_each_failure_to_its_part() -> None:
    from vagent_tui.api.errors import ApiError
    from vagent_tui.api.usage_models import OpenReply
    from vagent_tui.services.plans import read_plans

    class Client:
        async def get_current_plan(self, *, target: int | None = None) -> OpenReply:
            return OpenReply.model_validate({"success": True, "plan": {"name": f"P{target}"}})

        async def get_offered_plan(self, *, target: int | None = None) -> OpenReply:
            raise ApiError(403, "no offer for you")

        async def get_available_plans(self, *, target: int | None = None) -> OpenReply:
            return OpenReply.model_validate({"success": True})

        get_product_catalog = get_available_addons = get_available_plans

    parts = await read_plans(Client(), 7)  # type: ignore[arg-type]
    assert [p.title for p in parts] == ["Current plan", "Offered", "Available plans",
                                        "Catalog", "Add-ons"]  # fmt: skip
    assert parts[0].lines == [("name", "P7")] and parts[0].error == ""
    assert parts[1].reply is None and parts[1].error == "no offer for you"
    assert parts[2].lines == [] and parts[2].error == ""


def test_a_huge_usage_reply_is_read_bounded_and_says_what_it_left_out() -> None:
    sent = {"usage": {f"metric{i:06d}": i for i in range(100_000)}, "cost:total": "9.5",
            "note": "N" * (8 * 1024 * 1024)}  # fmt: skip
    report = read_reply(OpenReply.model_validate(sent))
    assert len(report.rows) == 2_001  # an object's first entries (api.bounded.ENTRIES)
    assert report.left_out == LeftOut(keys=98_000, texts=1)
    (note,) = report.notes
    assert len(note[1]) <= 2_000 and note[1].endswith("characters)")
    # what a fleet keeps of each account: the first rows, the others counted, the
    # cost total of the whole report
    kept = report.first(FLEET_KEYS)
    assert len(kept.rows) == FLEET_KEYS
    assert kept.left_out == LeftOut(keys=98_000 + 2_001 - FLEET_KEYS, texts=1)
    assert kept.cost_total == Decimal("9.5")
    small = read_usage(TOTALS)
    assert small.first(FLEET_KEYS) is small
