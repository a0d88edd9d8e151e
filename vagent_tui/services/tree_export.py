"""The account tree as CSV: every account the key reaches, with its external ids.

One row per account, parents before their children (by path): id, name, kind, parent
id, the path of names from the key's root, active, external account id and external
billing id. The tree is walked whole first (`AccountDirectory.walk`, what Scope has
read already is not read again), then the file is written at once beside itself and
renamed into place, mode 0600 (account names and billing ids are the customer's
business). Text a spreadsheet would run as a formula is quoted (`fleet.csv_cell`).

Members follow the account they belong to (an organization, reseller or partner), one
row each: type ``member``, its parent the account, its status (``active``,
``invited``) in the active column, its email, role and the agent accounts it is limited
to, space-separated (empty: every account). They take one ``GET /members`` per such account, at most
`MEMBER_READS` at a time; one that is refused or fails leaves that account's members
out, and the export says how many were left out rather than failing whole.
"""

from __future__ import annotations

import asyncio
import csv
import io
from dataclasses import dataclass
from pathlib import Path

from vagent_tui.api.errors import PlatformError
from vagent_tui.api.models import Account, Member
from vagent_tui.config import atomic_write
from vagent_tui.inert import csv_cell
from vagent_tui.services.account_text import account_kind
from vagent_tui.services.accounts import AccountDirectory

COLUMNS = ("id", "name", "type", "parent_id", "path", "active", "external_account_id",
           "external_billing_id", "email", "role", "permitted_account_ids")  # fmt: skip
MEMBER_READS = 8
"""Member lists read at once."""
HOMES = frozenset({"partner", "reseller", "organization"})
"""The kinds of account that have members."""
EXPORT_LIMIT = 1_000_000
"""At most about this many accounts (a walk stops between levels, and says so)."""


@dataclass(frozen=True)
class TreeExport:
    """What was written: how many accounts and members, whether the walk reached the
    tree's end, and the accounts whose members could not be read (with the first why)."""

    rows: int
    complete: bool
    members: int = 0
    members_missing: int = 0
    why: str = ""


async def _members_of(
    directory: AccountDirectory, homes: list[Account]
) -> tuple[dict[int, list[Member]], int, str]:
    """Each home's members (read `MEMBER_READS` at a time); how many failed, and why."""
    gate = asyncio.Semaphore(MEMBER_READS)
    found: dict[int, list[Member]] = {}
    failed: list[str] = []

    async def read(home: Account) -> None:
        assert home.id is not None
        target = None if home.id == directory.owner.id else home.id
        async with gate:
            try:
                found[home.id] = await directory.client.list_members(target=target)
            except PlatformError as exc:
                failed.append(str(exc))

    await asyncio.gather(*(read(h) for h in homes))
    return found, len(failed), failed[0] if failed else ""


async def export_tree(directory: AccountDirectory, path: Path) -> TreeExport:
    """Walk the tree under the key and write it to ``path`` (see the module docstring)."""
    walk = await directory.walk(limit=EXPORT_LIMIT)
    homes = [a for a in walk.accounts if a.id is not None and account_kind(a) in HOMES]
    if directory.scope.restricted:
        homes = []  # a key limited to accounts may not read its organization's members
    members, missing, why = await _members_of(directory, homes)
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
            csv_cell(account.external_billing_id or ""), "", "", "",
        ]))  # fmt: skip
        for member in members.get(account.id, ()):
            # "\0" sorts a member right after its account, before the accounts below it.
            rows.append((f"{names}\0{member.email}", _member_cells(member, account.id, names)))
    rows.sort(key=lambda row: row[0])
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    writer.writerows(cells for _, cells in rows)
    atomic_write(path, out.getvalue(), mode=0o600)
    listed = sum(len(m) for m in members.values())
    return TreeExport(len(rows) - listed, walk.complete, listed, missing, why)


def _member_cells(member: Member, home_id: int, path: str) -> list[str]:
    return [
        "" if member.id is None else str(member.id), csv_cell(member.name or ""), "member",
        str(home_id), csv_cell(path), csv_cell(member.status or ""), "", "",
        csv_cell(member.email), csv_cell(member.role or ""),
        " ".join(str(i) for i in member.permitted_account_ids),
    ]  # fmt: skip
