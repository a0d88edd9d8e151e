"""The agent accounts a member may be restricted to: those below its home, from the tree.

A member's ``permittedAccountIds`` name agent accounts of the organization (or reseller,
partner) it belongs to. The invite and change forms offer them from the key's tree
(`AccountDirectory`: what Scope has read already is not read again) rather than as typed
ids, and check typed ids against the same list.
"""

from __future__ import annotations

from dataclasses import dataclass

from vagent_tui.api.models import Account
from vagent_tui.services.account_text import account_kind
from vagent_tui.services.accounts import AccountDirectory, has_children

PICK_LIMIT = 2000
"""At most about this many agent accounts are offered (the walk stops between accounts)."""


@dataclass(frozen=True)
class Choice:
    """An agent account to pick: its id, name and the names above it, below the home."""

    id: int
    name: str
    path: str


@dataclass(frozen=True)
class Choices:
    """The agent accounts below a home, and whether the walk reached the end."""

    home_name: str
    accounts: tuple[Choice, ...]
    complete: bool

    def name_of(self, account_id: int) -> str | None:
        return next((c.name for c in self.accounts if c.id == account_id), None)


async def home_account(directory: AccountDirectory, home_id: int) -> Account:
    """The home as an account the directory can list below (read when not yet known)."""
    owner = directory.owner
    if home_id == owner.id or home_id == directory.scope.root_id:
        return owner  # the key's own level: the directory lists it from its owner
    known = directory.known.get(home_id)
    if known is not None:
        return known
    return await directory.client.get_account(target=home_id)


async def choices_below(
    directory: AccountDirectory, home_id: int, *, limit: int = PICK_LIMIT
) -> Choices:
    """Every agent account below ``home_id`` this key can see, parents first."""
    home = await home_account(directory, home_id)
    home_name = (
        directory.known[home_id].display_name if home_id in directory.known else home.display_name
    )
    found: list[Choice] = []
    frontier: list[tuple[Account, str]] = [(home, "")]
    while frontier:
        below: list[tuple[Account, str]] = []
        for account, path in frontier:
            if len(found) >= limit:  # stops between accounts: what is left is not read
                return Choices(home_name, tuple(found), complete=False)
            for child in await directory.children(account):
                if child.id is None:
                    continue
                if account_kind(child) == "account":
                    found.append(Choice(child.id, child.display_name, path))
                elif has_children(child):
                    named = f"{path} › {child.display_name}" if path else child.display_name
                    below.append((child, named))
        frontier = below
    return Choices(home_name, tuple(found), complete=True)
