"""The child accounts a key may act on, loaded lazily level by level, and a fuzzy filter.

Partner -> resellers -> organizations -> agent accounts, through ``listResellers``,
``listOrganizations`` and ``listAccounts``. A member restricted by
``permittedAccountIds`` sees only those accounts: the key may act on nothing else, not
even list its organization (rule 5), so they are read one by one as targets. A user
whose fields make it an admin (a ``user`` whose ``organizationId`` is its partner's,
reseller's or organization's id) has that account as its one child: the console acts
there by naming it, as any delegation, whatever the platform does without a target.
"""

from __future__ import annotations

import asyncio

from vagent_tui.api.client import PlatformClient
from vagent_tui.api.errors import ApiError
from vagent_tui.api.models import Account
from vagent_tui.api.scope import Scope, ScopeLevel

PAGE_SIZE = 200

CHILD_KIND = {"partner": "reseller", "reseller": "organization", "organization": "account"}


def account_kind(account: Account) -> str:
    return str(account.scope_field("accountType") or "").lower()


def has_children(account: Account) -> bool:
    return account_kind(account) in CHILD_KIND


class AccountDirectory:
    """Lists children per account, once each, and remembers what it has seen."""

    def __init__(self, client: PlatformClient, scope: Scope, owner: Account) -> None:
        self.client = client
        self.scope = scope
        self.owner = owner
        self._children: dict[int, list[Account]] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self.known: dict[int, Account] = {}
        self.parents: dict[int, int] = {}
        if owner.id is not None:
            self.known[owner.id] = owner

    def root(self) -> Account:
        """The account at the top of what this key may browse."""
        return self.owner

    def root_kind(self) -> str:
        return {
            ScopeLevel.PARTNER: "partner",
            ScopeLevel.RESELLER: "reseller",
            ScopeLevel.ORGANIZATION: "organization",
        }.get(self.scope.level, "")

    def scope_account_id(self) -> int | None:
        """The account a user-shaped admin's rule names, when it is not the key owner."""
        root = self.scope.root_id
        if self.scope.restricted or not self.root_kind() or root in (None, self.owner.id):
            return None
        return root

    async def children(self, account: Account, *, kind: str | None = None) -> list[Account]:
        """Children of ``account`` (all pages), from the cache after the first call."""
        if account.id is None:
            return []
        kind = kind or account_kind(account)
        list_id = account.id
        if account.id == self.owner.id and self.root_kind():
            kind = self.root_kind()
            # A member (a user account) lists the children of its organization, not its own.
            list_id = self.scope.root_id or account.id
        lock = self._locks.setdefault(account.id, asyncio.Lock())
        async with lock:
            if account.id in self._children:
                return self._children[account.id]
            if account.id == self.owner.id and self.scope.restricted:
                items = await self._permitted()
            elif account.id == self.owner.id and self.scope_account_id() is not None:
                items = await self._scope_account(kind, list_id)
            else:
                items = await self._fetch_all(kind, list_id)
            if self.scope.restricted:
                allowed = set(self.scope.permitted_account_ids)
                items = [a for a in items if a.id in allowed or has_children(a)]
            self._children[account.id] = items
            for child in items:
                if child.id is not None:
                    self.known[child.id] = child
                    self.parents[child.id] = account.id
            return items

    async def _permitted(self) -> list[Account]:
        """The permitted accounts of a restricted key, each read as a target.

        One the platform refuses or no longer knows (403, 404) is left out; any other
        failure fails the whole read.
        """

        async def read(account_id: int) -> Account | None:
            try:
                return await self.client.get_account(target=account_id)
            except ApiError as exc:
                if exc.status in (403, 404):
                    return None
                raise

        found = await asyncio.gather(*(read(i) for i in self.scope.permitted_account_ids))
        return [a for a in found if a is not None]

    async def _scope_account(self, kind: str, account_id: int) -> list[Account]:
        """The account a user-shaped admin's rule names, read as a target.

        A platform that refuses that read (403, 404) gets the old way: its children
        listed under the key owner.
        """
        try:
            return [await self.client.get_account(target=account_id)]
        except ApiError as exc:
            if exc.status not in (403, 404):
                raise
        return await self._fetch_all(kind, account_id)

    async def _fetch_all(self, kind: str, account_id: int) -> list[Account]:
        fetch = {
            "partner": self.client.list_resellers,
            "reseller": self.client.list_organizations,
            "organization": self.client.list_accounts,
        }.get(kind)
        if fetch is None:
            return []
        items: list[Account] = []
        page = 0
        while True:
            result = await fetch(account_id, page=page, page_size=PAGE_SIZE)
            items.extend(result.items)
            if not result.items or len(items) >= result.total:
                return items
            page += 1

    async def load_all(self, *, limit: int = 5000) -> list[Account]:
        """Walk the whole tree (for the filter), breadth first, up to ``limit`` accounts."""
        frontier = [self.owner]
        while frontier and len(self.known) < limit:
            level = await asyncio.gather(
                *(self.children(a) for a in frontier if has_children(a) or a is self.owner)
            )
            frontier = [child for kids in level for child in kids if has_children(child)]
        return list(self.known.values())

    def path_of(self, account_id: int) -> list[Account]:
        """The chain of known accounts from the root down to ``account_id``."""
        chain: list[Account] = []
        current: int | None = account_id
        while current is not None and current in self.known:
            chain.append(self.known[current])
            current = self.parents.get(current)
        return list(reversed(chain))


def fuzzy_score(query: str, text: str) -> int | None:
    """A subsequence match score (higher is better), or None when ``query`` doesn't match.

    Every character of the query must appear in order; consecutive runs and matches at
    word starts score more, so ``acme`` ranks "Acme Dental" above "A Custom Media Edge".
    """
    query = query.strip().lower()
    if not query:
        return 0
    haystack = text.lower()
    score = 0
    position = -1
    previous = -2
    for char in query:
        if char == " ":
            continue
        found = haystack.find(char, position + 1)
        if found < 0:
            return None
        score += 1
        if found == previous + 1:
            score += 3
        if found == 0 or not haystack[found - 1].isalnum():
            score += 2
        previous = position = found
    return score * 100 - len(haystack)


def account_search_text(account: Account) -> str:
    return " ".join(
        str(part)
        for part in (account.display_name, account.username, account.id, account_kind(account))
        if part
    )


def filter_accounts(accounts: list[Account], query: str) -> list[Account]:
    """Accounts matching ``query`` fuzzily, best first."""
    scored = [
        (score, account)
        for account in accounts
        if (score := fuzzy_score(query, account_search_text(account))) is not None
    ]
    scored.sort(key=lambda pair: -pair[0])
    return [account for _, account in scored]
