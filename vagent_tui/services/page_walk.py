"""A list the server pages, read to its end a page at a time (no Textual).

The command line reads a whole list (``vagent-tui get tasks``) the way a screen reads one
page: through a `vagent_tui.services.paging.Pager` (the query, the size, the total the
platform said, which reply counts), one page after the other, each handed on as it
comes so that the first items are written before the last page is asked for.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Hashable, Sequence
from typing import TypeVar

from vagent_tui.services.paging import Ask, Pager, Settled

Q = TypeVar("Q")
T = TypeVar("T")

Fetch = Callable[[Ask[Q]], Awaitable[tuple[Sequence[T], int | None]]]
"""Reads the page ``ask`` names: its items and the total the platform said (None: none)."""


async def walk_pages(
    pager: Pager[Q, T],
    fetch: Fetch[Q, T],
    *,
    limit: int | None = None,
    key: Callable[[T], Hashable] | None = None,
) -> AsyncIterator[list[T]]:
    """Each page of ``pager``'s query from the first, as it comes, until the last one
    (the total said, or a short page when the platform says none) or ``limit`` items.

    ``key`` names an item: one seen on an earlier page is not handed on again (a list
    newest first moves down a place for each item added while it is read).
    """
    seen: set[Hashable] = set()
    given = 0
    page = 0
    while True:
        ask = pager.ask(page)
        items, total = await fetch(ask)
        if pager.settle(ask, items, total) is not Settled.SHOWN:
            return  # the list shrank under the page asked for: it has been read
        fresh: list[T] = []
        for item in items:
            if key is not None:
                name = key(item)
                if name in seen:
                    continue
                seen.add(name)
            fresh.append(item)
        if limit is not None:
            fresh = fresh[: limit - given]
        given += len(fresh)
        if fresh:
            yield fresh
        if limit is not None and given >= limit:
            return
        if total is None:
            if len(items) < ask.size:
                return  # a short page is the last
            if key is not None and not fresh and limit is None:
                return  # a whole page of items seen before: a platform repeating itself
            # The pager counts "at least the items so far" and would clamp the next page
            # to this one: nothing is known of the end yet.
            pager.shown = None
        elif not items or ask.page >= (pager.last_page or 0):
            return
        page = ask.page + 1
