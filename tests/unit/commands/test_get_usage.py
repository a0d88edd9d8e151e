"""``vagent-tui get usage``: one account's usage rows, or the fleet's below a level."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest

from tests.unit.commands.conftest import RunCli
from vagent_tui.api.errors import ApiError
from vagent_tui.commands.shapes_exports import UsageFleetItem, UsageItem


def test_one_account_its_rows_exact_with_their_series(cli: RunCli) -> None:
    ran = cli("get", "usage", "-o", "json", "--account", "1111")
    assert ran.code == 0, ran.err
    items = ran.items("usage")
    for item in items:
        UsageItem.model_validate(item)
    by_key = {item["key"]: item for item in items}
    assert by_key["minutes"]["unit"] == "min" and by_key["minutes"]["series"]
    assert by_key["cost:minutes"]["kind"] == "cost" and by_key["cost:minutes"]["currency"]
    series = by_key["minutes"]["series"]
    assert sum(int(p["value"]) for p in series) == int(by_key["minutes"]["value"])
    assert {item["period"] for item in items} == {"current"}


@pytest.mark.parametrize(
    ("options", "check"),
    [
        (("--no-costs",), lambda items: all(i["kind"] == "usage" for i in items)),
        (("--period", "previous"), lambda items: items[0]["period"] == "previous"),
        (("--since", "2026-01-01", "--until", "2026-01-31"),
         lambda items: items[0]["period"] == "2026-01-01..2026-01-31"),
        (("--frequency", "month", "--period", "previous"),
         lambda items: all(len(i["series"]) <= 1 for i in items)),
    ],
)  # fmt: skip
def test_the_screens_period_options(cli: RunCli, options: tuple[str, ...], check: Any) -> None:
    ran = cli("get", "usage", "-o", "jsonl", "--account", "1111", *options)
    assert ran.code == 0, ran.err
    items = ran.lines("usage")
    assert items and check(items)


def test_a_bad_date_exits_1(cli: RunCli) -> None:
    ran = cli("get", "usage", "--account", "1111", "--since", "2026-02-01", "--until", "2026-01-01")
    assert ran.code == 1 and ran.out == "" and "--until is before --since" in ran.err
    assert cli("get", "usage", "--since", "last week").code == 1


def test_at_a_level_the_fleet_below_it(cli: RunCli) -> None:
    ran = cli("get", "usage", "-o", "jsonl", "--account", "1110")
    assert ran.code == 0, ran.err
    items = ran.lines("usage-fleet")
    assert sorted(i["account_id"] for i in items) == [1111, 1112, 1113]
    for item in items:
        UsageFleetItem.model_validate(item)
        assert item["status"] == "ok" and item["values"]["minutes"].isdecimal()
    table = cli("get", "usage", "-o", "csv", "--account", "1110")
    rows = list(csv.DictReader(io.StringIO(table.out)))
    assert [r["account_id"] for r in rows] == ["1111", "1112", "1113"]
    assert "minutes" in rows[0] and "cost_total" in rows[0]  # a column per key met
    by_id = {i["account_id"]: i for i in items}
    assert rows[0]["minutes"] == by_id[1111]["values"]["minutes"]


def _failing(monkeypatch: pytest.MonkeyPatch, accounts: set[int]) -> None:
    from vagent_tui.services import account_usage

    real = account_usage.fleet_usage_line

    async def line(client: Any, account_id: int, query: Any) -> dict[str, Any]:
        if account_id in accounts:
            raise ApiError(400, f"no usage for {account_id}")
        return await real(client, account_id, query)

    monkeypatch.setattr(account_usage, "fleet_usage_line", line)


def test_a_failing_account_is_its_item_and_exit_3(
    cli: RunCli, monkeypatch: pytest.MonkeyPatch
) -> None:
    _failing(monkeypatch, {1112})
    ran = cli("get", "usage", "-o", "jsonl", "--account", "1110")
    assert ran.code == 3
    items = {i["account_id"]: i for i in ran.lines("usage-fleet")}
    assert items[1112]["status"] == "error" and "no usage for 1112" in items[1112]["error"]
    assert items[1111]["status"] == items[1113]["status"] == "ok"
    assert "1 of 3 accounts failed" in ran.err


def test_every_account_failing_exits_1(cli: RunCli, monkeypatch: pytest.MonkeyPatch) -> None:
    _failing(monkeypatch, {1111, 1112, 1113})
    ran = cli("get", "usage", "-o", "json", "--account", "1110")
    assert ran.code == 1
    assert len(ran.items("usage-fleet")) == 3
    assert "every account failed (3)" in ran.err
