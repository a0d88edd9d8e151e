"""The child accounts a key may act on, loaded lazily level by level, and found by text.

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
from collections.abc import Callable
from functools import partial
from typing import NamedTuple, Protocol

from vagent_tui.api.client import PlatformClient
from vagent_tui.api.errors import ApiError, PlatformError
from vagent_tui.api.models import Account
from vagent_tui.api.scope import Scope, ScopeLevel
from vagent_tui.services.account_text import (
    account_kind,
    account_search_text,
    filter_accounts,
    holds,
)
from vagent_tui.services.reread import read_again
from vagent_tui.words import counted, plural

PAGE_SIZE = 200
SEARCH_CAP = 50
"""Matches asked of ``searchAccounts`` and shown; the reply's total says how many more."""
WALK_LIMIT = 5000
"""About how many accounts a walk of the tree lists before it stops (and says so)."""
REFUSED_SEARCH = frozenset({400, 403, 404, 405, 501})
"""Statuses that mean this platform or key does not search: the filter walks from then on."""

CHILD_KIND = {"partner": "reseller", "reseller": "organization", "organization": "account"}


def page_of(page: int, kind: str, account_id: int) -> str:
    """``page 8 of the accounts below 1234``: a page of a listing, in an error."""
    children = plural(CHILD_KIND.get(kind, "account"))
    return f"page {page + 1} of the {children} below {account_id}"


class NamedAccount(Protocol):
    """What a list of many accounts needs of each: an `Account`, or a compact row of one."""

    @property
    def id(self) -> int | None: ...

    @property
    def display_name(self) -> str: ...

    @property
    def username(self) -> str | None: ...


def has_children(account: Account) -> bool:
    return account_kind(account) in CHILD_KIND


class Walk(NamedTuple):
    """The accounts a walk of the tree found, and whether it reached the tree's end."""

    accounts: tuple[Account, ...]
    complete: bool


class Matches(NamedTuple):
    """The answer of the filter for one text.

    Attributes:
        query: the text it answers (a screen drops an answer for an older text).
        accounts: the best matches first, at most the cap asked for.
        total: how many accounts match in all (``searchAccounts``' count, or the walk's).
        how: ``"search"`` or ``"walk"``.
        partial: why matches may be missing (a walk stopped short), else "".
        fallback: why the tree was walked instead of searched, else "".
    """

    query: str
    accounts: tuple[Account, ...]
    total: int
    how: str
    partial: str = ""
    fallback: str = ""

    @property
    def more(self) -> int:
        """Matches not among `accounts`."""
        return max(0, self.total - len(self.accounts))


class AccountDirectory:
    """Lists children per account, once each, and remembers what it has seen."""

    def __init__(self, client: PlatformClient, scope: Scope, owner: Account) -> None:
        self.client = client
        self.scope = scope
        self.owner = owner
        self._children: dict[int, list[Account]] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._unseen: dict[int, Exception] = {}
        """Failures of `prefetch`, given to the next `children` of the same account."""
        self._partial: dict[int, tuple[list[Account], int]] = {}
        """The pages read of a listing that failed part way, and the page that failed:
        the next read of those children goes on from there (``r`` after a failure)."""
        self.known: dict[int, Account] = {}
        self.parents: dict[int, int] = {}
        self.walk_limit = WALK_LIMIT
        self.search_refused = ""
        self._whole: tuple[str, list[Account]] | None = None
        """The last search answered whole (its text, every account it matched): a text
        that holds it is answered from those accounts, without asking again."""
        self._texts: dict[int, tuple[Account, str]] = {}
        """Each known account's searchable text, lower case (made once, not per key)."""
        self._unreached: set[int] = set()
        """Ids typed that the key was refused, or that name no account: not asked again."""
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

    def root_has_children(self) -> bool:
        """Whether anything may sit below the root (the tree offers to expand it)."""
        return has_children(self.owner) or bool(self.root_kind())

    def scope_account_id(self) -> int | None:
        """The account a user-shaped admin's rule names, when it is not the key owner."""
        root = self.scope.root_id
        if self.scope.restricted or not self.root_kind() or root in (None, self.owner.id):
            return None
        return root

    def cached_children(self, account: Account) -> list[Account] | None:
        """The children of ``account`` if they have been read (None: not yet)."""
        return self._children.get(account.id) if account.id is not None else None

    async def prefetch(self, account: Account) -> None:
        """Read the children of ``account`` now, for a `children` call to come.

        Nobody waits for this read, so a failure is not lost: the next `children` of the
        same account raises it (once), as if its own read had failed; one made while
        this read runs waits for it and gets its outcome.
        """
        if account.id is None:
            return
        async with self._lock(account.id):
            try:
                await self._read(account, None)
            except Exception as exc:
                self._unseen[account.id] = exc

    async def children(self, account: Account, *, kind: str | None = None) -> list[Account]:
        """Children of ``account`` (all pages), from the cache after the first call."""
        if account.id is None:
            return []
        async with self._lock(account.id):
            unseen = self._unseen.pop(account.id, None)
            if unseen is not None:
                raise unseen
            return await self._read(account, kind)

    def _lock(self, account_id: int) -> asyncio.Lock:
        """One read of an account's children at a time (the others wait for its result)."""
        return self._locks.setdefault(account_id, asyncio.Lock())

    async def _read(self, account: Account, kind: str | None) -> list[Account]:
        """The children from the cache, or read (under the account's lock)."""
        assert account.id is not None
        if account.id in self._children:
            return self._children[account.id]
        kind = kind or account_kind(account)
        list_id = account.id
        if account.id == self.owner.id and self.root_kind():
            kind = self.root_kind()
            # A member (a user account) lists the children of its organization, not its own.
            list_id = self.scope.root_id or account.id
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
                return await read_again(
                    self.client, lambda: self.client.get_account(target=account_id)
                )
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
            return [
                await read_again(self.client, lambda: self.client.get_account(target=account_id))
            ]
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
        # Pages kept from a read that failed part way: this one asks from its failed page.
        items, page = self._partial.pop(account_id, ([], 0))
        while True:
            try:
                result = await read_again(
                    self.client, partial(fetch, account_id, page=page, page_size=PAGE_SIZE),
                    what=page_of(page, kind, account_id),
                )  # fmt: skip
            except PlatformError:
                if items:
                    self._partial[account_id] = (items, page)
                raise
            items.extend(result.items)
            if not result.items or len(items) >= result.total:
                return items
            page += 1

    async def load_all(self, *, limit: int | None = None) -> list[Account]:
        """Walk the whole tree, breadth first, up to about ``limit`` accounts (see `walk`)."""
        return list((await self.walk(limit=limit)).accounts)

    async def walk(
        self, *, limit: int | None = None, progress: Callable[[int], None] | None = None
    ) -> Walk:
        """Every account of the tree, level by level, until about ``limit`` are known.

        The limit is checked between levels (a level is listed whole). The answer says
        whether the tree was walked to its end (`Walk.complete`), so a caller never takes
        a partial walk for the whole tree. ``progress`` hears the count after each level.
        """
        limit = self.walk_limit if limit is None else limit
        frontier = [self.owner]
        while frontier and len(self.known) < limit:
            level = await asyncio.gather(
                *(self.children(a) for a in frontier if has_children(a) or a is self.owner)
            )
            frontier = [child for kids in level for child in kids if has_children(child)]
            if progress is not None:
                progress(len(self.known))
        return Walk(tuple(self.known.values()), complete=not frontier)

    # ------------------------------------------------------------------ search

    def search_target(self) -> int | None:
        """The account a search runs below: the one a user-shaped admin's rule names."""
        return self.scope_account_id()

    def can_search(self) -> bool:
        """Whether this key asks ``searchAccounts`` (else the filter walks the tree).

        A restricted member may not search below its organization (rule 5): its few
        permitted accounts are read one by one anyway. A key with nothing below it has
        nothing to search. A platform that refused a search once is not asked again.
        """
        return not self.scope.restricted and bool(self.root_kind()) and not self.search_refused

    async def search(
        self,
        query: str,
        *,
        cap: int = SEARCH_CAP,
        progress: Callable[[int], None] | None = None,
    ) -> Matches:
        """The accounts matching ``query``, best first, at most ``cap`` of them.

        ``searchAccounts`` (one request: the first ``cap`` accounts whose name or
        username holds the text, and how many there are in all) merged with the accounts
        already known whose id or kind holds it; ranked by `fuzzy_score` (a match at a
        word start first). When the key cannot search, or the search fails, the tree
        is walked instead (``progress`` hears its count), and the answer says when that
        walk stopped short.
        """
        text = query.strip()
        reason = ""
        if self.can_search():
            by_id = await self._by_id(text)
            whole = self._whole
            if whole is not None and whole[0].lower() in text.lower():
                # The text typed on: what holds it holds the text before too, and every
                # account that did came in that answer (`holds` is the search's rule).
                found = [a for a in whole[1] if holds(text, a)]
                self._whole = (text, found)
                return self._merge(text, [*found, *by_id], len(found) + len(by_id), cap)
            try:
                page = await self.client.search_accounts(
                    text, page=0, page_size=cap, target=self.search_target()
                )
            except ApiError as exc:
                if exc.status in REFUSED_SEARCH:
                    self.search_refused = f"the platform refused searchAccounts (HTTP {exc.status})"
                reason = f"search failed (HTTP {exc.status}): walked the tree instead"
            else:
                items = [a for a in page.items if a.id is not None]
                whole_answer = page.total <= len(items) and all(holds(text, a) for a in items)
                self._whole = (text, items) if whole_answer else None
                more = [a for a in by_id if all(a.id != b.id for b in items)]
                return self._merge(text, [*page.items, *more], page.total + len(more), cap)
        elif self.search_refused:
            reason = f"{self.search_refused}: walked the tree instead"
        walk = await self.walk(progress=progress)
        found = filter_accounts(list(walk.accounts), text)
        partial = ""
        if not walk.complete:
            partial = (
                f"only the first {counted(len(walk.accounts), 'account')} of the tree were walked: "
                "others may match"
            )
        return Matches(text, tuple(found[:cap]), len(found), "walk", partial, reason)

    async def _by_id(self, text: str) -> list[Account]:
        """The account whose id ``text`` is, read by its id when it is not known yet:
        ``searchAccounts`` matches names and usernames only, and the field offers ids
        too. Nothing when the key does not reach it (said by the platform's refusal,
        not asked again) or the text is no id (fewer than three digits: every key
        typed would ask)."""
        if not (text.isdecimal() and 3 <= len(text) <= 12):
            return []
        account_id = int(text)
        if account_id in self.known or account_id in self._unreached:
            return []
        try:
            account = await self.client.get_account(target=account_id)
        except PlatformError as exc:  # the search answers without it this time
            if isinstance(exc, ApiError) and exc.status in (403, 404):
                self._unreached.add(account_id)  # refused: the key does not reach it
            return []
        return [account] if account.id == account_id else []

    def _merge(self, text: str, found: list[Account], total: int, cap: int) -> Matches:
        ids = set()
        for account in found:
            if account.id is None:
                continue
            ids.add(account.id)
            self.known.setdefault(account.id, account)
            if account.parent_id is not None and account.id != self.owner.id:
                self.parents.setdefault(account.id, account.parent_id)
        needle = text.lower()
        extra: list[Account] = []
        texts = self._texts
        for account_id, account in self.known.items():
            if account_id in ids:
                continue
            kept = texts.get(account_id)
            if kept is None or kept[0] is not account:  # new, or read again since
                kept = texts[account_id] = (account, account_search_text(account).lower())
            if needle in kept[1]:
                extra.append(account)
        # Known accounts the search counted already (their name holds the text) are in
        # its total; the others (by id or kind) add to it.
        total = max(total, len(ids)) + sum(1 for a in extra if not holds(text, a))
        ranked = filter_accounts([a for a in found if a.id is not None] + extra, text)
        return Matches(text, tuple(ranked[:cap]), max(total, len(ranked)), "search")

    # -- the tree changed (a create, an edit, a delete made by this console) ----------

    def added(self, parent: Account, account: Account) -> None:
        """``account`` was created under ``parent``: listed with its children if they
        have been read (else the first read lists it), known either way."""
        if account.id is None or parent.id is None:
            return
        listed = self._children.get(parent.id)
        if listed is not None and all(a.id != account.id for a in listed):
            self._children[parent.id] = [*listed, account]
        self.known[account.id] = account
        self.parents[account.id] = parent.id
        self._whole = None  # a search answered before does not hold it

    def replaced(self, account: Account) -> None:
        """``account`` as it is now (an edit): the same id, read anew."""
        if account.id is None:
            return
        parent = self.parents.get(account.id)
        if parent is not None and parent in self._children:
            self._children[parent] = [
                account if a.id == account.id else a for a in self._children[parent]
            ]
        self.known[account.id] = account
        self._texts.pop(account.id, None)
        self._whole = None

    def removed(self, account_id: int) -> None:
        """The account ``account_id`` is gone, and whatever was below it."""
        parent = self.parents.pop(account_id, None)
        if parent is not None and parent in self._children:
            self._children[parent] = [a for a in self._children[parent] if a.id != account_id]
        for child in self._children.pop(account_id, []):
            if child.id is not None:
                self.removed(child.id)
        self.known.pop(account_id, None)
        self._texts.pop(account_id, None)
        self._whole = None

    def forget_children(self, account_id: int) -> None:
        """Read the children of ``account_id`` again next time (an unknown outcome)."""
        self._children.pop(account_id, None)
        self._partial.pop(account_id, None)
        self._whole = None

    def path_of(self, account_id: int) -> list[Account]:
        """The chain of known accounts from the root down to ``account_id``."""
        chain: list[Account] = []
        current: int | None = account_id
        while current is not None and current in self.known:
            chain.append(self.known[current])
            current = self.parents.get(current)
        return list(reversed(chain))
