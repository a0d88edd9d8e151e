"""Which accounts Fleet and Rollout ask: the agent accounts below the key.

`list_agents` reads each organization's accounts page by page into compact `AgentRow`s
(a few pages at a time: many parsed together left their memory with the process);
`AgentListings` keeps one listing per client for both screens. `fleet_accounts` is the
plain directory walk, for the keys `list_agents` leaves to it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from vagent_tui.api.client import PlatformClient
from vagent_tui.api.models import Account
from vagent_tui.services.accounts import (
    PAGE_SIZE,
    AccountDirectory,
    NamedAccount,
    account_kind,
    has_children,
)


def is_agent_account(account: Account) -> bool:
    """A voice agent account (``accountType`` account, not a Computer Agent)."""
    computer = account.computer_agent or account.scope_field("computerAgent")
    return account_kind(account) == "account" and not computer


async def fleet_accounts(directory: AccountDirectory, *, limit: int = 100_000) -> list[Account]:
    """The agent accounts the key may act on, sorted by id (walks the whole tree).

    A restricted member gets only its permitted accounts.
    """
    accounts = await directory.load_all(limit=limit)
    scope = directory.scope
    out = [
        a
        for a in accounts
        if a.id is not None
        and is_agent_account(a)
        and (not scope.restricted or scope.permits(a.id))
    ]
    out.sort(key=lambda a: a.id or 0)
    return out


@dataclass(frozen=True, slots=True)
class AgentRow:
    """An agent account as Fleet and Rollout keep it: what they show and match on.

    A full `Account` is about 1 KB (a pydantic model, its fields and what the platform
    sent); ten thousand rows of three fields are a tenth of that.
    """

    id: int
    display_name: str
    username: str | None

    @classmethod
    def of(cls, account: Account) -> AgentRow:
        return cls(account.id or 0, account.display_name, account.username)


@dataclass(frozen=True)
class AgentListing:
    """The agent accounts below one key (`fleet_accounts`), as compact rows, and where
    each sits in the tree (`path_of`): the accounts above them are kept whole (a few
    resellers and organizations), the agent accounts only as rows."""

    client: PlatformClient
    rows: dict[int, AgentRow]
    """The agent accounts by id, in `fleet_accounts`' order (by id)."""
    parents: dict[int, int]
    above: dict[int, Account]

    @property
    def accounts(self) -> tuple[AgentRow, ...]:
        return tuple(self.rows.values())

    @classmethod
    def of(cls, client: PlatformClient, directory: AccountDirectory,
           accounts: Sequence[Account]) -> AgentListing:  # fmt: skip
        rows = {a.id: AgentRow.of(a) for a in accounts if a.id is not None}
        above = {i: a for i, a in directory.known.items() if i not in rows}
        return cls(client, rows, dict(directory.parents), above)

    def path_of(self, account_id: int) -> list[NamedAccount]:
        """The chain from the root down to ``account_id`` (as
        `vagent_tui.services.accounts.AccountDirectory.path_of`)."""
        chain: list[NamedAccount] = []
        current: int | None = account_id
        while current is not None:
            known: NamedAccount | None = self.rows.get(current) or self.above.get(current)
            if known is None:
                break
            chain.append(known)
            current = self.parents.get(current)
        return list(reversed(chain))


LISTING_PAGES = 4
"""Pages of accounts `list_agents` reads at once: each is parsed whole, and the memory of
many parsed together stays with the process after they are gone."""


async def list_agents(
    client: PlatformClient, directory: AccountDirectory, *, limit: int = 100_000
) -> AgentListing:
    """The same accounts as `fleet_accounts`, as an `AgentListing`, read leanly.

    The resellers and organizations are listed through ``directory``; each organization's
    accounts page by page, every page turned into rows at once, so ten thousand full
    accounts are never held together (the memory they take would stay with the process).
    A restricted member, or an admin whose rule names another account, gets
    `fleet_accounts` as is.
    """
    scope = directory.scope
    root_kind = directory.root_kind()
    if scope.restricted or not root_kind or directory.scope_account_id() is not None:
        return AgentListing.of(client, directory, await fleet_accounts(directory, limit=limit))
    owner = directory.owner
    rows: dict[int, AgentRow] = {}
    parents: dict[int, int] = {}
    pages = asyncio.Semaphore(LISTING_PAGES)

    def kind_of(account: Account) -> str:
        return root_kind if account is owner else account_kind(account)

    async def agents_of(organization: Account) -> None:
        if organization.id is None:
            return
        list_id = (scope.root_id or organization.id) if organization is owner else organization.id
        page = seen = 0
        while True:
            async with pages:
                result = await client.list_accounts(list_id, page=page, page_size=PAGE_SIZE)
            seen += len(result.items)
            for account in result.items:
                if account.id is not None and is_agent_account(account):
                    rows[account.id] = AgentRow.of(account)
                    parents[account.id] = organization.id
            if not result.items or seen >= result.total:
                return
            page += 1

    frontier = [owner]
    while frontier and len(directory.known) + len(rows) < limit:
        above = [a for a in frontier if kind_of(a) in ("partner", "reseller")]
        level, _ = await asyncio.gather(
            asyncio.gather(*(directory.children(a) for a in above)),
            asyncio.gather(*(agents_of(a) for a in frontier if kind_of(a) == "organization")),
        )
        frontier = [child for kids in level for child in kids if has_children(child)]
    parents.update(directory.parents)
    ordered = dict(sorted(rows.items()))
    return AgentListing(client, ordered, parents, dict(directory.known))


class AgentListings:
    """One listing of the agent accounts per client, shared by the screens that need it.

    Fleet and Rollout both list every agent account below the key: at ten thousand
    accounts each copy is megabytes, so they share one. Only the last client's listing
    is kept (another client, another key: listed afresh, the old one dropped); callers
    asking while a listing is under way wait for that one. A failed listing is not kept.
    """

    def __init__(self) -> None:
        self._client: PlatformClient | None = None
        self._task: asyncio.Task[AgentListing] | None = None

    def forget(self) -> None:
        """Drop the listing kept (the client changed, or the accounts are to be read again)."""
        self._client, self._task = None, None

    async def get(
        self, client: PlatformClient, make_directory: Callable[[], AccountDirectory],
        *, fresh: bool = False,
    ) -> AgentListing:  # fmt: skip
        """The listing for ``client``: the one kept, or a new one (``fresh`` forces it).

        Cancelling the caller does not cancel a listing another caller may be waiting on.
        """
        task = self._task
        if fresh or task is None or self._client is not client or (
            task.done() and (task.cancelled() or task.exception() is not None)
        ):  # fmt: skip
            directory = make_directory()

            async def listing() -> AgentListing:
                return await list_agents(client, directory)

            task = asyncio.ensure_future(listing())
            task.add_done_callback(lambda t: t.cancelled() or t.exception())  # retrieved
            self._client, self._task = client, task
        try:
            return await asyncio.shield(task)
        except BaseException:
            if task.done() and self._task is task and (task.cancelled() or task.exception()):
                self.forget()
            raise


# ---------------------------------------------------------------------------- output
