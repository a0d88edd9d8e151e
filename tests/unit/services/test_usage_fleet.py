"""The fleet's usage as lines: keys met, exact values, sorts, totals, the CSV, the file."""

from __future__ import annotations

import csv
import io
import stat
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

from vagent_tui.api.usage_models import UsageQuery
from vagent_tui.services.fleet import FleetAnswer
from vagent_tui.services.usage import read_usage
from vagent_tui.services.usage_fleet import (
    KEY_COLUMNS,
    FleetUsage,
    accounts_below,
    column_of,
    usage_question,
    write_private,
)


@dataclass(frozen=True)
class Acc:
    id: int | None
    display_name: str
    username: str | None = None


def _answer(account_id: int, reply: dict[str, object], plan: str = "Pro") -> FleetAnswer:
    report = read_usage(reply)
    return FleetAnswer(account_id, {"plan": plan, "report": report, "unread": 0})


def _fleet() -> FleetUsage:
    usage = FleetUsage([Acc(1, "b"), Acc(2, "a"), Acc(3, "c"), Acc(4, "d")])
    usage.take(_answer(1, {"usage": {"minutes": 5, "cost:minutes": "0.25"}, "currency": "USD"}))
    usage.take(_answer(2, {"usage": {"minutes": 1200, "texts": 3, "cost:minutes": 60.1}},
                       plan="Starter"))  # fmt: skip
    usage.take(FleetAnswer(3, error="HTTP 500: boom"))
    return usage


def test_keys_in_the_order_met_and_exact_values() -> None:
    usage = _fleet()
    assert usage.keys == ["minutes", "cost:minutes", "texts"]
    assert usage.lines[1].values["cost:minutes"] == Decimal("60.1")
    assert usage.lines[0].total == Decimal("0.25")
    assert usage.answered == 3 and usage.failed == [3]
    assert usage.columns == ["id", "name", "plan", "minutes", "cost:minutes", "texts", "cost_total"]


def test_a_new_key_is_said_once() -> None:
    usage = FleetUsage([Acc(1, "x"), Acc(2, "y")])
    assert usage.take(_answer(1, {"usage": {"calls": 1}})) is True
    assert usage.take(_answer(2, {"usage": {"calls": 2}})) is False
    assert usage.take(FleetAnswer(99, {})) is False  # not one of the fleet


def test_headers_units_and_currency_only_where_stated() -> None:
    usage = _fleet()
    assert usage.header("minutes") == "minutes (min)"
    assert usage.header("cost:minutes") == "cost:minutes (USD)"
    assert usage.header("cost_total") == "Total cost (USD)"
    assert usage.text(1, "minutes") == "1,200"
    assert usage.text(1, "cost:minutes") == "60.10"
    assert usage.text(2, "minutes") == ""  # failed: no value
    nothing_stated = FleetUsage([Acc(1, "x")])
    nothing_stated.take(_answer(1, {"usage": {"cost:minutes": 2}}))
    assert nothing_stated.header("cost:minutes") == "cost:minutes"
    two = FleetUsage([Acc(1, "x"), Acc(2, "y")])
    two.take(_answer(1, {"usage": {"cost:a": 1}, "currency": "USD"}))
    two.take(_answer(2, {"usage": {"cost:a": 1}, "currency": "EUR"}))
    assert two.header("cost:a") == "cost:a" and two.text(1, "cost:a") == "EUR 1.00"


def test_sort_any_column_both_ways_missing_values_last() -> None:
    usage = _fleet()
    assert usage.order("minutes") == [0, 1, 2, 3]
    assert usage.order("minutes", reverse=True) == [1, 0, 2, 3]
    assert usage.order("name") == [1, 0, 2, 3]
    assert usage.order("plan") == [0, 1, 2, 3]  # "pro" < "starter"
    assert usage.order("texts", reverse=True) == [1, 0, 2, 3]
    assert usage.order("id", reverse=True) == [3, 2, 1, 0]
    assert usage.order("no such column") == [0, 1, 2, 3]


def test_ties_keep_the_accounts_order_either_way() -> None:
    usage = FleetUsage([Acc(i, str(i)) for i in range(1, 5)])
    for i in range(1, 5):
        usage.take(_answer(i, {"usage": {"calls": 7 if i % 2 else 1}}))
    assert usage.order("calls", reverse=True) == [0, 2, 1, 3]
    assert usage.order("calls") == [1, 3, 0, 2]


def test_totals_of_the_rows_given() -> None:
    usage = _fleet()
    sums = usage.totals([0, 1, 2])
    assert sums == {"minutes": Decimal(1205), "cost:minutes": Decimal("60.35"),
                    "texts": Decimal(3), "cost_total": Decimal("60.35")}  # fmt: skip
    assert usage.totals([1]) == {"minutes": Decimal(1200), "cost:minutes": Decimal("60.1"),
                                 "texts": Decimal(3), "cost_total": Decimal("60.1")}  # fmt: skip
    assert usage.total_text("minutes", Decimal(1205)) == "1,205"


def test_csv_exact_with_status_and_error() -> None:
    usage = _fleet()
    rows = list(csv.DictReader(io.StringIO(usage.to_csv([1, 2, 3]))))
    assert [r["account_id"] for r in rows] == ["2", "3", "4"]
    assert rows[0]["minutes"] == "1200" and rows[0]["cost:minutes"] == "60.1"
    assert rows[0]["plan"] == "Starter" and rows[0]["status"] == "ok"
    assert rows[1]["status"] == "error" and rows[1]["error"] == "HTTP 500: boom"
    assert rows[2]["status"] == "not asked" and rows[2]["minutes"] == ""


def test_forget_puts_lines_back_to_not_answered() -> None:
    usage = _fleet()
    usage.forget([3, 1])
    assert usage.failed == [] and usage.answered == 1
    assert usage.order("minutes") == [1, 0, 2, 3]


def test_a_failure_after_an_answer_clears_its_numbers() -> None:
    usage = _fleet()
    usage.take(FleetAnswer(2, error="HTTP 503: busy"))
    assert usage.lines[1].values == {} and usage.order("minutes", reverse=True)[0] == 0


def test_accounts_below_a_level() -> None:
    accounts = [Acc(10, "a"), Acc(11, "b"), Acc(20, "c"), Acc(None, "none")]
    parents = {10: 2, 11: 3, 20: 2, 2: 1, 3: 1}
    assert [a.id for a in accounts_below(accounts, parents, 2)] == [10, 20]
    assert [a.id for a in accounts_below(accounts, parents, 1)] == [10, 11, 20]
    assert [a.id for a in accounts_below(accounts, parents, None)] == [10, 11, 20, None]
    assert accounts_below(accounts, parents, 99) == []


def test_the_question_asks_without_series() -> None:
    question = usage_question(UsageQuery(billing_period="previous"))
    assert question.name == "usage"
    asked = question.ask.args[0]  # type: ignore[attr-defined]
    assert asked.timeseries is False and asked.billing_period == "previous"


def test_write_private_is_0600(tmp_path: Path) -> None:
    path = tmp_path / "out.csv"
    path.write_text("old")
    path.chmod(0o644)
    write_private(path, "a,b\n")
    assert path.read_text() == "a,b\n"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_csv_quotes_what_a_spreadsheet_would_run_and_keeps_numbers_exact() -> None:
    usage = FleetUsage([Acc(1, '=HYPERLINK("http://evil.example")'), Acc(2, "+cmd")])
    usage.take(_answer(1, {"usage": {"@sum": -5, "minutes": -2}}, plan="-plan"))
    usage.take(FleetAnswer(2, error="=1+1"))
    rows = list(csv.reader(io.StringIO(usage.to_csv([0, 1]))))
    assert rows[0][3:5] == ["'@sum", "minutes"]
    assert rows[1][1:5] == ['\'=HYPERLINK("http://evil.example")', "'-plan", "-5", "-2"]
    assert rows[2][1] == "'+cmd" and rows[2][-1] == "'=1+1"


def test_numbers_no_float_keeps_apart_sort_by_their_decimals() -> None:
    # 19 significant digits: these two round to the same float; the sort must still
    # tell them apart (largest first), as it does the plain ones
    close = ["1.000000000000000001", "1.000000000000000002"]
    usage = FleetUsage([Acc(i, str(i)) for i in range(1, 5)])
    values = [close[0], close[1], "0.1", "0"]
    for i, value in enumerate(values, start=1):
        usage.take(_answer(i, {"usage": {"cost:x": value, "calls": 5 - i}}))
    assert float(Decimal(close[0])) == float(Decimal(close[1]))
    assert usage.order("cost:x", reverse=True) == [1, 0, 2, 3]
    assert usage.order("cost:x") == [3, 2, 0, 1]
    assert usage.order("calls") == [3, 2, 1, 0]


def test_an_order_made_is_kept_until_the_next_answer() -> None:
    usage = _fleet()
    first = usage.order("minutes", reverse=True)
    first.append(99)  # the caller's copy: the kept order is not changed
    assert usage.order("minutes", reverse=True) == [1, 0, 2, 3]
    usage.take(_answer(4, {"usage": {"minutes": 9999}}))
    assert usage.order("minutes", reverse=True) == [3, 1, 0, 2]
    usage.forget([4])
    assert usage.order("minutes", reverse=True) == [1, 0, 2, 3]


def test_the_key_columns_are_bounded_and_each_account_says_what_it_left_out() -> None:
    usage = FleetUsage([Acc(1, "x"), Acc(2, "y")])
    usage.take(_answer(1, {"usage": {f"a{i}": i for i in range(KEY_COLUMNS - 1)}}))
    usage.take(_answer(2, {"usage": {"b1": 1, "b2": 2, "a1": 1, "b3": 3}}))
    assert len(usage.keys) == KEY_COLUMNS and usage.keys[-1] == "b1"
    assert usage.lines[0].not_shown == 0
    assert usage.lines[1].not_shown == 2 and set(usage.lines[1].values) == {"b1", "a1"}
    assert usage.with_keys_not_shown == 1


def test_a_usage_key_named_as_a_fixed_column_has_its_own() -> None:
    usage = FleetUsage([Acc(1, "x")])
    usage.take(_answer(1, {"usage": {"plan": 3, "id": 4, "name": 5, "cost_total": 6}}))
    assert usage.keys == [column_of(k) for k in ("plan", "id", "name", "cost_total")]
    assert usage.text(0, "plan") == "Pro" and usage.text(0, "plan (usage key)") == "3"
    assert usage.text(0, "name") == "x" and usage.text(0, "id") == "1"
