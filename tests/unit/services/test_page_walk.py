"""A list the server pages, read to its end through a `Pager` (`walk_pages`)."""

from __future__ import annotations

import asyncio

import pytest

from vagent_tui.services.page_walk import walk_pages
from vagent_tui.services.paging import Ask, Pager

LETTERS = list("abcde")


def _walk(total_said: bool, *, limit: int | None = None, moved: bool = False) -> list[list[str]]:
    served = list(LETTERS)
    asked: list[int] = []

    async def fetch(ask: Ask[str]) -> tuple[list[str], int | None]:
        asked.append(ask.page)
        if moved and ask.page == 1:
            served.insert(0, "new")  # a newer item arrived: the rest moved down a place
        start = ask.page * ask.size
        return served[start : start + ask.size], len(served) if total_said else None

    async def pages() -> list[list[str]]:
        pager: Pager[str, str] = Pager.of("all", 2)
        return [page async for page in walk_pages(pager, fetch, limit=limit, key=str)]

    return asyncio.run(pages())


@pytest.mark.parametrize("total_said", [True, False])
def test_every_page_is_read_to_the_end_whether_the_total_is_said_or_not(
    total_said: bool,
) -> None:
    assert _walk(total_said) == [["a", "b"], ["c", "d"], ["e"]]


def test_a_limit_stops_the_walk() -> None:
    assert _walk(True, limit=3) == [["a", "b"], ["c"]]


def test_an_item_pushed_onto_the_next_page_is_handed_on_once() -> None:
    pages = _walk(True, moved=True)
    assert pages == [["a", "b"], ["c"], ["d", "e"]]  # b came again on page 1: left out


def test_a_platform_serving_the_same_full_page_again_ends_the_walk() -> None:
    """No total, every page full and the same: without a stop the walk never ends."""
    asked: list[int] = []

    async def fetch(ask: Ask[str]) -> tuple[list[str], int | None]:
        asked.append(ask.page)
        assert len(asked) < 10, "the walk goes round"
        return ["a", "b"], None

    async def pages() -> list[list[str]]:
        pager: Pager[str, str] = Pager.of("all", 2)
        return [page async for page in walk_pages(pager, fetch, key=str)]

    assert asyncio.run(pages()) == [["a", "b"]] and asked == [0, 1]
