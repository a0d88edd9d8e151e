"""The agent accounts of a listing as Fleet and Rollout see them: a row each
(`AgentRow`), kept as a few flat columns (`AgentRows`), read a page at a time
(`RowColumns`), and each one's parent (`ListingParents`).
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import accumulate
from typing import overload

from vagent_tui.api.models import Account


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
