"""Which accounts Fleet and Rollout ask: the agent accounts below the key.

`list_agents` reads each organization's accounts page by page into `AgentRows`, a few
flat columns (a few pages at a time: many parsed together left their memory with the
process);
`AgentListings` keeps one listing per client for both screens. `fleet_accounts` is the
plain directory walk, for the keys `list_agents` leaves to it.
"""

from __future__ import annotations

import asyncio
from array import array
from bisect import bisect_left
from collections.abc import Awaitable, Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from itertools import accumulate
from typing import TypeVar, overload

from vagent_tui.api.client import PlatformClient
from vagent_tui.api.errors import PlatformError
from vagent_tui.api.models import Account
from vagent_tui.services.accounts import (
    PAGE_SIZE,
    AccountDirectory,
    NamedAccount,
    account_kind,
    has_children,
    page_of,
)
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


@dataclass(frozen=True, slots=True)
class AgentRow:
    """An agent account as Fleet and Rollout see it: what they show and match on.

    A full `Account` is about 1 KB (a pydantic model, its fields and what the platform
    sent); a listing keeps its rows flatter still (`AgentRows`) and makes one of these
    when asked.
    """

    id: int
    display_name: str
    username: str | None

    @classmethod
    def of(cls, account: Account) -> AgentRow:
        return cls(account.id or 0, account.display_name, account.username)


NO_PARENT = -1
"""`AgentRows.parent_ids` of an account whose parent is not known."""


class AgentRows(Sequence[AgentRow]):
    """Agent accounts, sorted by id, kept as a few flat columns; each `AgentRow` made
    when asked for.

    Ten thousand rows as objects were ten thousand rows, twenty thousand strings and
    their ids, each a small block of its own among the blocks of the replies they came
    from: the process kept most of that memory after the replies were gone. Here they
    are a few large blocks (ids, parents, offsets, all names in one string).
    """

    __slots__ = ("_name_starts", "_names", "_no_username", "_user_starts", "_users", "ids",
                 "parent_ids")  # fmt: skip

    def __init__(
        self,
        ids: array[int],
        parent_ids: array[int],
        names: tuple[str, array[int]],
        usernames: tuple[str, array[int]],
        no_username: frozenset[int] = frozenset(),
    ) -> None:
        """``names``, ``usernames``: all of them in one string, and where each starts
        (one offset more than rows: the last is the string's end); ``no_username``: the
        rows whose username is None (not "")."""
        self.ids = ids
        """The accounts' ids, ascending, each once."""
        self.parent_ids = parent_ids
        """Each row's parent (`NO_PARENT`: not known)."""
        self._names, self._name_starts = names
        self._users, self._user_starts = usernames
        self._no_username = no_username

    @classmethod
    def of(cls, accounts: Iterable[Account], parents: Mapping[int, int]) -> AgentRows:
        """Rows of ``accounts`` (ids, ascending; an id twice: its last account)."""
        columns = RowColumns()
        for account in accounts:
            if account.id is not None:
                columns.add([account], parents.get(account.id, NO_PARENT))
        return columns.rows()

    def __len__(self) -> int:
        return len(self.ids)

    @overload
    def __getitem__(self, index: int) -> AgentRow: ...

    @overload
    def __getitem__(self, index: slice) -> AgentRows: ...

    def __getitem__(self, index: int | slice) -> AgentRow | AgentRows:
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self))
            if step == 1:
                return self.take_runs([(start, max(start, stop))])
            return self.take(range(start, stop, step))
        if index < 0:
            index += len(self)
        account_id = self.ids[index]  # IndexError past the end
        name = self._names[self._name_starts[index] : self._name_starts[index + 1]]
        username: str | None = None
        if index not in self._no_username:
            username = self._users[self._user_starts[index] : self._user_starts[index + 1]]
        return AgentRow(account_id, name, username)

    def take(self, indexes: Sequence[int]) -> AgentRows:
        """The rows at ``indexes``, in that order, as columns of their own."""
        return self.take_runs([(i, i + 1) for i in indexes])

    def take_runs(self, runs: Sequence[tuple[int, int]]) -> AgentRows:
        """The rows of ``runs`` (``(start, end)``: rows start to end - 1), in that order,
        as columns of their own: a run's names are copied as one string, not one by one."""
        ids: array[int] = array("q")
        parent_ids: array[int] = array("q")
        for start, end in runs:
            ids.extend(self.ids[start:end])
            parent_ids.extend(self.parent_ids[start:end])
        rows = [i for start, end in runs for i in range(start, end)] if self._no_username else []
        return AgentRows(
            ids,
            parent_ids,
            _runs_of(self._names, self._name_starts, runs),
            _runs_of(self._users, self._user_starts, runs),
            frozenset(n for n, i in enumerate(rows) if i in self._no_username),
        )

    def index_of(self, account_id: int) -> int | None:
        """The row of ``account_id``, or None."""
        index = bisect_left(self.ids, account_id)
        return index if index < len(self.ids) and self.ids[index] == account_id else None

    def get(self, account_id: int) -> AgentRow | None:
        """The row of ``account_id``, or None."""
        index = self.index_of(account_id)
        return None if index is None else self[index]

    def parent_of(self, account_id: int) -> int | None:
        """The parent of ``account_id`` as listed (None: not a row, or not known)."""
        index = self.index_of(account_id)
        parent = NO_PARENT if index is None else self.parent_ids[index]
        return None if parent == NO_PARENT else parent


class RowColumns:
    """`AgentRows` being read: a page's accounts added at a time, in any order."""

    def __init__(self) -> None:
        self.ids: array[int] = array("q")
        self.parent_ids: array[int] = array("q")
        self.name_lengths: array[int] = array("q")
        self.username_lengths: array[int] = array("q")
        """-1: no username (None)."""
        self.names: list[str] = []
        """One string per page added: its names one after the other."""
        self.usernames: list[str] = []
        self.page_starts: array[int] = array("q")
        """Where each page added starts among the rows."""

    def __len__(self) -> int:
        return len(self.ids)

    def add(self, accounts: Iterable[Account], parent: int) -> None:
        """Accounts (each with an id) whose parent is ``parent``."""
        names: list[str] = []
        usernames: list[str] = []
        self.page_starts.append(len(self.ids))
        for account in accounts:
            assert account.id is not None
            self.ids.append(account.id)
            self.parent_ids.append(parent)
            names.append(account.display_name)
            self.name_lengths.append(len(account.display_name))
            username = account.username
            usernames.append(username or "")
            self.username_lengths.append(-1 if username is None else len(username))
        self.names.append("".join(names))
        self.usernames.append("".join(usernames))

    def rows(self) -> AgentRows:
        """The rows sorted by id, each id once (the last one added)."""
        ends = [*self.page_starts[1:], len(self.ids)]
        pages = sorted(
            (p for p, start in enumerate(self.page_starts) if ends[p] > start),
            key=lambda p: self.ids[self.page_starts[p]],
        )
        runs = [(self.page_starts[p], ends[p]) for p in pages]
        if not _ascending(self.ids, runs):  # an id twice, or organizations' ids interleaved
            last = {account_id: index for index, account_id in enumerate(self.ids)}
            return self._read().take(sorted(last.values(), key=self.ids.__getitem__))
        if pages == sorted(pages):
            return self._read()
        # Organizations are read side by side, each in order: their pages put in order
        # of their first id are all the rows in order, copied a page at a time.
        ids: array[int] = array("q")
        parent_ids: array[int] = array("q")
        for start, end in runs:
            ids.extend(self.ids[start:end])
            parent_ids.extend(self.parent_ids[start:end])
        rows = [i for start, end in runs for i in range(start, end)]
        return AgentRows(
            ids,
            parent_ids,
            _joined([self.names[p] for p in pages], (self.name_lengths[i] for i in rows)),
            _joined(
                [self.usernames[p] for p in pages],
                (max(0, self.username_lengths[i]) for i in rows),
            ),
            frozenset(n for n, i in enumerate(rows) if self.username_lengths[i] < 0),
        )

    def _read(self) -> AgentRows:
        """The rows in the order they were added."""
        return AgentRows(
            self.ids,
            self.parent_ids,
            _joined(self.names, self.name_lengths),
            _joined(self.usernames, (max(0, n) for n in self.username_lengths)),
            frozenset(i for i, n in enumerate(self.username_lengths) if n < 0),
        )


def _joined(parts: list[str], lengths: Iterable[int]) -> tuple[str, array[int]]:
    """``parts`` as one string, and where each of the texts of ``lengths`` starts in it."""
    return "".join(parts), array("q", accumulate(lengths, initial=0))


def _runs_of(
    text: str, starts: array[int], runs: Sequence[tuple[int, int]]
) -> tuple[str, array[int]]:
    """The parts of ``text`` (each from its start to the next) of ``runs``, in that order,
    and where each starts in the text they make."""
    lengths = (starts[i + 1] - starts[i] for start, end in runs for i in range(start, end))
    joined = "".join(text[starts[start] : starts[end]] for start, end in runs)
    return joined, array("q", accumulate(lengths, initial=0))


def _ascending(ids: array[int], runs: Sequence[tuple[int, int]]) -> bool:
    """Whether the ids of ``runs``, in that order, only ever grow."""
    previous: int | None = None
    for start, end in runs:
        for i in range(start, end):
            if previous is not None and ids[i] <= previous:
                return False
            previous = ids[i]
    return True


class ListingParents(Mapping[int, int]):
    """Each listed account's parent: an agent account's from its row, the others' (the
    accounts above) from a dict."""

    def __init__(self, rows: AgentRows, above: dict[int, int]) -> None:
        self.rows = rows
        self.above = above

    def __getitem__(self, account_id: int) -> int:
        parent = self.rows.parent_of(account_id)
        return self.above[account_id] if parent is None else parent

    def __iter__(self) -> Iterator[int]:
        seen = set(self.above)
        for account_id, parent in zip(self.rows.ids, self.rows.parent_ids, strict=True):
            if parent != NO_PARENT and account_id not in seen:
                yield account_id
        yield from self.above

    def __len__(self) -> int:
        return sum(1 for _ in self)


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
