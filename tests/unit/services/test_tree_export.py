"""The account tree as CSV (services/tree_export.py), against the simulator."""

from __future__ import annotations

import csv
import stat
from pathlib import Path

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
    assert result.complete and result.rows == len(rows) - 1
    leads = by_id["1121"]
    assert leads[2] == "account" and leads[3] == "1120"
    assert leads[4] == "Bluebird Telecom › Harbor Realty › Harbor Realty Leads"
    assert leads[6] == "'=HYPERLINK(1)" and leads[7] == "bill-7"  # a formula is quoted
    assert by_id["1122"][5] == "no"
    assert [r[0] for r in rows[1:3]] == ["1100", "1110"]  # parents first
