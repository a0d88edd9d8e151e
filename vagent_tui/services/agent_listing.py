"""Which accounts Fleet and Rollout ask: the agent accounts below the key.

`list_agents` reads each organization's accounts page by page into `AgentRows`, a few
flat columns (`vagent_tui.services.agent_rows`; a few pages at a time: many parsed
together left their memory with the process); `AgentListings` keeps one listing per
client for both screens. `fleet_accounts` is the
plain directory walk, for the keys `list_agents` leaves to it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import TypeVar

from vagent_tui.api.client import PlatformClient
from vagent_tui.api.errors import PlatformError
from vagent_tui.api.models import Account
from vagent_tui.services.account_text import account_kind
from vagent_tui.services.accounts import (
    PAGE_SIZE,
    AccountDirectory,
    NamedAccount,
    has_children,
    page_of,
)
from vagent_tui.services.agent_rows import AgentRow as AgentRow
from vagent_tui.services.agent_rows import AgentRows, ListingParents, RowColumns
from vagent_tui.services.reread import read_again


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


@dataclass(frozen=True)
class AgentListing:
    """The agent accounts below one key (`fleet_accounts`), as compact rows, and where
    each sits in the tree (`path_of`); the accounts above them (resellers, organizations:
    a thousand at ten thousand agent accounts) are kept as rows too."""

    client: PlatformClient
    accounts: AgentRows
    """The agent accounts, in `fleet_accounts`' order (by id)."""
    parents: Mapping[int, int]
    above: dict[int, AgentRow]
    """The accounts above the agent accounts (the key owner, resellers, organizations),
    as rows too: a path needs their names, not the whole accounts."""

    @classmethod
    def of(cls, client: PlatformClient, directory: AccountDirectory,
           accounts: Sequence[Account]) -> AgentListing:  # fmt: skip
        rows = AgentRows.of(accounts, directory.parents)
        above = {i: AgentRow.of(a) for i, a in directory.known.items() if rows.index_of(i) is None}
        return cls(client, rows, dict(directory.parents), above)

    def path_of(self, account_id: int) -> list[NamedAccount]:
        """The chain from the root down to ``account_id`` (as
        `vagent_tui.services.accounts.AccountDirectory.path_of`)."""
        chain: list[NamedAccount] = []
        current: int | None = account_id
        while current is not None:
            known: NamedAccount | None = self.accounts.get(current) or self.above.get(current)
            if known is None:
                break
            chain.append(known)
            current = self.parents.get(current)
        return list(reversed(chain))


LISTING_PAGES = 4
"""Pages of accounts `list_agents` reads at once: each is parsed whole, and the memory of
many parsed together stays with the process after they are gone."""
LISTING_READS = 16
"""Children of resellers (or of the partner) `list_agents` reads at once: a hundred
resellers read together were a hundred connections kept open, and their replies parsed
together."""

A = TypeVar("A")
R = TypeVar("R")


async def each_at_most(
    at_once: int, read: Callable[[A], Awaitable[R]], items: Sequence[A]
) -> list[R | BaseException]:
    """``read`` of every item, at most ``at_once`` under way, outcomes in the items' order.

    A failure is its item's outcome (an exception, as ``gather(return_exceptions=True)``
    has it): every item is read before the caller sees one. A few workers take the items
    in turn instead of a task per item waiting its turn: a thousand organizations are
    ``at_once`` coroutines, not a thousand tasks alive together (the process keeps the
    memory they took after they are gone).
    """
    outcomes: list[R | BaseException] = []
    by_index: dict[int, R | BaseException] = {}
    queue = iter(enumerate(items))

    async def worker() -> None:
        for index, item in queue:  # one iterator shared: each item is taken once
            try:
                by_index[index] = await read(item)
            except Exception as exc:
                by_index[index] = exc

    await asyncio.gather(*(worker() for _ in range(min(at_once, len(items)))))
    outcomes.extend(by_index[index] for index in range(len(items)))
    return outcomes


@dataclass
class ListingProgress:
    """What a listing has read so far: a listing that failed part way goes on from here.

    The directory keeps the resellers and organizations it listed (and the pages read of
    a list of them that failed); this keeps the agent accounts found, the organizations
    read to their end, and for an organization whose page failed, the pages it had.
    """

    directory: AccountDirectory
    rows: RowColumns = field(default_factory=RowColumns)
    done: set[int] = field(default_factory=set)
    """Organizations whose accounts were read to the end."""
    resume: dict[int, tuple[int, int]] = field(default_factory=dict)
    """An organization whose page failed: ``(that page, accounts seen before it)``."""


async def list_agents(
    client: PlatformClient,
    directory: AccountDirectory,
    *,
    limit: int = 100_000,
    progress: ListingProgress | None = None,
) -> AgentListing:
    """The same accounts as `fleet_accounts`, as an `AgentListing`, read leanly.

    The resellers and organizations are listed through ``directory``; each organization's
    accounts page by page, every page turned into rows at once, so ten thousand full
    accounts are never held together (the memory they take would stay with the process).
    A page that fails is asked again (`vagent_tui.services.reread.read_again`); one that
    keeps failing fails the listing, and ``progress`` (when given: its directory is then
    the one used) keeps what was read, so that the next call with it asks only for the
    rest. A restricted member, or an admin whose rule names another account, gets
    `fleet_accounts` as is.
    """
    if progress is not None:
        directory = progress.directory
    scope = directory.scope
    root_kind = directory.root_kind()
    if scope.restricted or not root_kind or directory.scope_account_id() is not None:
        return AgentListing.of(client, directory, await fleet_accounts(directory, limit=limit))
    owner = directory.owner
    state = progress if progress is not None else ListingProgress(directory)
    rows = state.rows

    def kind_of(account: Account) -> str:
        return root_kind if account is owner else account_kind(account)

    async def agents_of(organization: Account) -> None:
        if organization.id is None or organization.id in state.done:
            return
        org_id = organization.id
        list_id = (scope.root_id or org_id) if organization is owner else org_id
        page, seen = state.resume.pop(org_id, (0, 0))
        while True:
            try:
                result = await read_again(
                    client,
                    partial(client.list_accounts, list_id, page=page, page_size=PAGE_SIZE),
                    what=page_of(page, "organization", list_id),
                )
            except PlatformError:
                state.resume[org_id] = (page, seen)
                raise
            seen += len(result.items)
            rows.add((a for a in result.items if a.id is not None and is_agent_account(a)), org_id)
            if not result.items or seen >= result.total:
                state.done.add(org_id)
                return
            page += 1

    frontier = [owner]
    while frontier and len(directory.known) + len(rows) < limit:
        above = [a for a in frontier if kind_of(a) in ("partner", "reseller")]
        # Every read of a level finishes (each keeps its pages) before a failure is
        # raised: one organization's bad page does not cancel the others' reads.
        organizations = [a for a in frontier if kind_of(a) == "organization"]
        level, read = await asyncio.gather(
            each_at_most(LISTING_READS, directory.children, above),
            each_at_most(LISTING_PAGES, agents_of, organizations),
        )
        for outcome in (*level, *read):
            if isinstance(outcome, BaseException):
                raise outcome
        frontier = [
            child for kids in level if isinstance(kids, list) for child in kids
            if has_children(child)
        ]  # fmt: skip
    listed = rows.rows()
    named = {i: AgentRow.of(a) for i, a in directory.known.items()}
    return AgentListing(client, listed, ListingParents(listed, dict(directory.parents)), named)


class AgentListings:
    """One listing of the agent accounts per client, shared by the screens that need it.

    Fleet and Rollout both list every agent account below the key: at ten thousand
    accounts each copy is megabytes, so they share one. Only the last client's listing
    is kept (another client, another key: listed afresh, the old one dropped); callers
    asking while a listing is under way wait for that one. A failed listing is not kept,
    but what it had read is: the next listing for the same client (``r``, ``fresh`` or
    not) asks only for the pages it lacked.
    """

    def __init__(self) -> None:
        self._client: PlatformClient | None = None
        self._task: asyncio.Task[AgentListing] | None = None
        self._progress: ListingProgress | None = None
        """What the listing under way (or the last that failed) has read."""

    def forget(self) -> None:
        """Drop the listing kept (the client changed, or the accounts are to be read again)."""
        self._client, self._task, self._progress = None, None, None

    async def get(
        self, client: PlatformClient, make_directory: Callable[[], AccountDirectory],
        *, fresh: bool = False,
    ) -> AgentListing:  # fmt: skip
        """The listing for ``client``: the one kept, or a new one (``fresh`` forces it).

        A new listing after one that failed for the same client goes on from what that
        one read. Cancelling the caller does not cancel a listing another caller may be
        waiting on.
        """
        task = self._task
        failed = (
            task is not None and task.done() and (task.cancelled() or task.exception() is not None)
        )
        if fresh or task is None or self._client is not client or failed:
            progress = self._progress if failed and self._client is client else None
            if progress is None:
                progress = ListingProgress(make_directory())
            kept = progress

            async def listing() -> AgentListing:
                return await list_agents(client, kept.directory, progress=kept)

            task = asyncio.ensure_future(listing())
            task.add_done_callback(lambda t: t.cancelled() or t.exception())  # retrieved
            self._client, self._task, self._progress = client, task, progress
        try:
            listed = await asyncio.shield(task)
        except BaseException:
            if task.done() and self._task is task and task.cancelled():
                self.forget()
            raise
        if self._task is task:
            self._progress = None  # listed whole: nothing to go on from
        return listed


# ---------------------------------------------------------------------------- output
