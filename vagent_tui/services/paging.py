"""Server paging as a value: what is asked, what is shown, which reply counts (no Textual).

Every list the platform pages (the Inboxes, Calls, Tasks) is read the same way: a
`Pager` holds the query and the page size in force, the page asked for last (`Ask`), the
page on show (`Page`: its items and the total the platform said) and where the cursor
stands (`Spot`). Pages are numbered from 0 everywhere in the console (a platform that
counts from 1 is told ``page + 1`` by the fetch); people read ``page + 1``.

One rule for a stale reply: each `Pager.ask` gives a new ticket, and a reply is shown
only if it answers the ticket in force (`Pager.settle`); a reply to a page asked for
before the last key, a query since changed, or an account since left, is dropped.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Generic, TypeVar

Q = TypeVar("Q")
"""The query: a value (compared with ``==``) that says which list, filtered how."""
T = TypeVar("T")
"""An item of a page (a room, a log entry, a task)."""


def last_page_of(total: int, size: int) -> int:
    """The last page (from 0) of ``total`` items, ``size`` a page; 0 when there are none."""
    return max(0, (total - 1) // size) if total > 0 else 0


def page_range(page: int, size: int, total: int) -> str:
    """``41–60 of 1,234`` for page 2 of 20 a page; ``0 of 0`` when empty; ``– of N``
    for a page past the end."""
    if total <= 0:
        return "0 of 0"
    first = page * size + 1
    if first > total:
        return f"– of {total:,}"
    last = min(total, (page + 1) * size)
    return f"{first:,}–{last:,} of {total:,}"


@dataclass(frozen=True)
class Spot:
    """Where the cursor stands: the key of the item under it and its row (a reload of
    the same page puts it back on the item, or on the same row if the item is gone)."""

    key: str | None
    row: int


@dataclass(frozen=True)
class Ask(Generic[Q]):
    """One request for a page: the query, the page (from 0), its size, and its ticket.

    ``keep`` says the cursor stays where it was (the same page read again); a page move
    starts at the first row.
    """

    query: Q
    page: int = 0
    size: int = 20
    ticket: int = 0
    keep: bool = False


@dataclass(frozen=True)
class Page(Generic[Q, T]):
    """A page as shown: the request it answers, its items, and how many match in all."""

    ask: Ask[Q]
    items: tuple[T, ...] = ()
    total: int = 0

    @property
    def page(self) -> int:
        return self.ask.page

    @property
    def size(self) -> int:
        return self.ask.size

    @property
    def query(self) -> Q:
        return self.ask.query

    @property
    def last_page(self) -> int:
        return last_page_of(self.total, self.size)

    @property
    def label(self) -> str:
        """``101–200 of 1,000,000``; ``0 of 0`` when nothing matches."""
        return page_range(self.page, self.size, self.total)

    def grown(self, fresh: Sequence[T], cap: int) -> Page[Q, T]:
        """This page with ``fresh`` items put first (new ones arrived; at most ``cap``
        kept), the total counting them."""
        items = (*fresh, *self.items)[:cap]
        return replace(self, items=items, total=self.total + len(fresh))


class Settled(Enum):
    """What became of a reply (`Pager.settle`)."""

    SHOWN = "shown"
    """It answers the page in force: it is the page on show now."""
    STALE = "stale"
    """It answers an older request: dropped."""
    PAST_END = "past end"
    """The list shrank under the page asked for (nothing there, fewer pages than the
    page): the pager asks for its last page instead (`Pager.wanted`: fetch it)."""


@dataclass
class Pager(Generic[Q, T]):
    """One paged list: what is asked (`wanted`), what is on show (`shown`), which reply
    counts (the ticket of `wanted`), and whether the last request failed."""

    wanted: Ask[Q]
    shown: Page[Q, T] | None = None
    failed: bool = False
    """The last request did not come (an error): the screen says so instead of waiting."""
    _tickets: int = field(default=0, repr=False)

    @classmethod
    def of(cls, query: Q, size: int) -> Pager[Q, T]:
        return cls(Ask(query, 0, size))

    # ------------------------------------------------------------------ asking

    @property
    def query(self) -> Q:
        return self.wanted.query

    @property
    def page(self) -> int:
        """The page asked for last (the one shown once it came)."""
        return self.wanted.page

    @property
    def size(self) -> int:
        return self.wanted.size

    def ask(
        self,
        page: int | None = None,
        *,
        query: Q | None = None,
        size: int | None = None,
        keep: bool = False,
    ) -> Ask[Q]:
        """A new request, in force from now: replies to the earlier ones are stale.

        Another ``query`` starts at its first page (unless ``page`` says another);
        another ``size`` keeps the first item of the page in view; ``page`` alone is
        clamped to the pages known (`target`). Without any, the page in force is read
        again (``keep``: the cursor stays).
        """
        want = self.wanted
        if query is not None and query != want.query:
            want = replace(want, query=query, page=0 if page is None else max(0, page))
        elif page is not None:
            want = replace(want, page=self.target(page))
        if size is not None and size != want.size:
            want = replace(want, page=want.page * want.size // size, size=size)
        self._tickets += 1
        self.wanted = replace(want, ticket=self._tickets, keep=keep)
        self.failed = False
        return self.wanted

    def drop_replies(self) -> None:
        """Replies on their way are stale from now (the list is left: another account)."""
        self._tickets += 1
        self.wanted = replace(self.wanted, ticket=self._tickets)

    def reset(self) -> None:
        """Nothing shown, the first page wanted (the query and size kept); replies on
        their way are stale."""
        self.shown = None
        self.failed = False
        self.wanted = replace(self.wanted, page=0)
        self.drop_replies()

    def is_current(self, ask: Ask[Q]) -> bool:
        return ask.ticket == self.wanted.ticket

    # ------------------------------------------------------------------ what is known

    @property
    def total(self) -> int | None:
        """How many items the query in force matches, once a reply for it said so."""
        shown = self.shown
        return shown.total if shown is not None and shown.query == self.query else None

    @property
    def last_page(self) -> int | None:
        """The last page of the query in force at the size in force (None: not known)."""
        total = self.total
        return None if total is None else last_page_of(total, self.size)

    def target(self, page: int) -> int:
        """``page`` clamped to the pages known (from 0; no upper bound while unknown)."""
        last = self.last_page
        page = max(0, page)
        return page if last is None else min(page, last)

    @property
    def answered(self) -> bool:
        """The page on show answers the request in force."""
        shown = self.shown
        return shown is not None and shown.ask.ticket == self.wanted.ticket

    @property
    def waiting(self) -> bool:
        """A page was asked for that is not on show yet (and did not fail)."""
        return not self.failed and not self.answered

    def on_edge(self, page: int) -> bool:
        """Whether going to ``page`` (clamped) goes nowhere: it is the page on show, and
        the one asked for last."""
        shown = self.shown
        return (
            shown is not None
            and not self.waiting
            and shown.query == self.query
            and self.target(page) == shown.page == self.page
        )

    # ------------------------------------------------------------------ replies

    def settle(self, ask: Ask[Q], items: Sequence[T], total: int | None) -> Settled:
        """Take the reply to ``ask``: ``total`` as the platform said it (None: it did not;
        then at least the items up to this page's)."""
        if not self.is_current(ask):
            return Settled.STALE
        count = total if total is not None else ask.page * ask.size + len(items)
        if not items and count and ask.page > last_page_of(count, ask.size):
            self.wanted = replace(ask, page=last_page_of(count, ask.size), keep=False)
            self.drop_replies()
            return Settled.PAST_END
        self.shown = Page(ask, tuple(items), count)
        self.failed = False
        return Settled.SHOWN

    def fail(self, ask: Ask[Q]) -> bool:
        """The request ``ask`` failed: True (and `failed` set) if it is the one in force."""
        if not self.is_current(ask):
            return False
        self.failed = True
        return True


__all__ = [
    "Ask",
    "Page",
    "Pager",
    "Settled",
    "Spot",
    "last_page_of",
    "page_range",
]
