"""The account tree as CSV: every account the key reaches, with its external ids.

One row per account, parents before their children (by path): id, name, kind, parent
id, the path of names from the key's root, active, external account id and external
billing id. The tree is walked whole first (`AccountDirectory.walk`, what Scope has
read already is not read again), then the file is written at once beside itself and
renamed into place, mode 0600 (account names and billing ids are the customer's
business). Text a spreadsheet would run as a formula is quoted (`fleet.csv_cell`).
Members are not listed: that is one more request per organization.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path

from vagent_tui.config import atomic_write
from vagent_tui.services.accounts import AccountDirectory, account_kind
from vagent_tui.services.fleet import csv_cell

COLUMNS = ("id", "name", "type", "parent_id", "path", "active", "external_account_id",
           "external_billing_id")  # fmt: skip
EXPORT_LIMIT = 1_000_000
"""At most about this many accounts (a walk stops between levels, and says so)."""


@dataclass(frozen=True)
class TreeExport:
    """What was written: how many accounts, and whether the walk reached the tree's end."""

    rows: int
    complete: bool


async def export_tree(directory: AccountDirectory, path: Path) -> TreeExport:
    """Walk the tree under the key and write it to ``path`` (see the module docstring)."""
    walk = await directory.walk(limit=EXPORT_LIMIT)
    rows = []
    for account in walk.accounts:
        if account.id is None:
            continue
        chain = directory.path_of(account.id)
        names = " › ".join(a.display_name for a in chain)
        parent = directory.parents.get(account.id)
        active = "" if account.active is None else ("yes" if account.active else "no")
        rows.append((names, [
            str(account.id), csv_cell(account.display_name), account_kind(account),
            "" if parent is None else str(parent), csv_cell(names), active,
            csv_cell(account.external_account_id or ""),
            csv_cell(account.external_billing_id or ""),
        ]))  # fmt: skip
    rows.sort(key=lambda row: row[0])
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    writer.writerows(cells for _, cells in rows)
    atomic_write(path, out.getvalue(), mode=0o600)
    return TreeExport(len(rows), walk.complete)
