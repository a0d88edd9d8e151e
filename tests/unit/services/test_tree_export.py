"""The account tree as CSV (services/tree_export.py), against the simulator."""

from __future__ import annotations

import csv
import stat
from pathlib import Path

import pytest

from vagent_tui.api.errors import ApiError
from vagent_tui.api.models import Member
from vagent_tui.api.scope import classify
from vagent_tui.services.accounts import AccountDirectory
from vagent_tui.services.connect import demo_client
from vagent_tui.services.tree_export import COLUMNS, export_tree


async def test_every_account_with_its_path_and_external_ids_mode_0600(tmp_path: Path) -> None:
    client = demo_client("demo-reseller")
    sim = client.sim_app.state.sim
    sim.accounts[1121].external_account_id = "=HYPERLINK(1)"
    sim.accounts[1121].external_billing_id = "bill-7"
    owner = await client.get_account()
    directory = AccountDirectory(client, classify(owner), owner)
    path = tmp_path / "tree.csv"
    result = await export_tree(directory, path)
    await client.aclose()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    rows = list(csv.reader(path.open(encoding="utf-8")))
    assert tuple(rows[0]) == COLUMNS
    by_id = {row[0]: row for row in rows[1:]}
    assert result.complete and result.rows + result.members == len(rows) - 1
    leads = by_id["1121"]
    assert leads[2] == "account" and leads[3] == "1120"
    assert leads[4] == "Bluebird Telecom › Harbor Realty › Harbor Realty Leads"
    assert leads[6] == "'=HYPERLINK(1)" and leads[7] == "bill-7"  # a formula is quoted
    assert by_id["1122"][5] == "no"
    assert [r[0] for r in rows[1:4:2]] == ["1100", "1110"]  # parents first (1101: a member)


async def test_members_follow_their_account_with_role_and_accounts(tmp_path: Path) -> None:
    client = demo_client("demo-reseller")
    owner = await client.get_account()
    directory = AccountDirectory(client, classify(owner), owner)
    path = tmp_path / "tree.csv"
    result = await export_tree(directory, path)
    await client.aclose()
    rows = list(csv.reader(path.open(encoding="utf-8")))
    assert result.members == 3 and result.rows == 9 and not result.members_missing
    members = [r for r in rows[1:] if r[2] == "member"]
    assert {r[8]: (r[3], r[9], r[10]) for r in members} == {
        "marco.bellini@example.com": ("1100", "admin", ""),
        "sam.okafor@example.com": ("1110", "admin", ""),
        "dana.whitfield@example.com": ("1110", "member", "1112 1113"),
    }
    order = [r[0] for r in rows[1:]]
    # A member right after its account, before the accounts below it.
    assert order.index("1101") == order.index("1100") + 1
    assert order.index("1119") < order.index("1111") and order.index("1110") < order.index("1119")


async def test_members_that_cannot_be_read_are_left_out_and_counted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = demo_client("demo-reseller")
    owner = await client.get_account()
    directory = AccountDirectory(client, classify(owner), owner)
    real = client.list_members

    async def refuse_acme(*, target: int | None = None) -> list[Member]:
        if target == 1110:
            raise ApiError(403, "Not yours", method="GET", url="/members")
        return await real(target=target)

    monkeypatch.setattr(client, "list_members", refuse_acme)
    path = tmp_path / "tree.csv"
    result = await export_tree(directory, path)
    await client.aclose()
    assert result.rows == 9 and result.members == 1 and result.members_missing == 1
    assert "Not yours" in result.why
    emails = [r[8] for r in csv.reader(path.open(encoding="utf-8")) if r[2] == "member"]
    assert emails == ["marco.bellini@example.com"]
