"""The one model of server paging: what is asked, what is shown, which reply counts."""

from __future__ import annotations

import pytest

from vagent_tui.services.paging import Ask, Page, Pager, Settled, last_page_of, page_range


@pytest.mark.parametrize(
    ("page", "size", "total", "label"),
    [
        (0, 20, 0, "0 of 0"),
        (0, 20, 5, "1–5 of 5"),
        (2, 20, 1234, "41–60 of 1,234"),
        (61, 20, 1234, "1,221–1,234 of 1,234"),
        (99, 20, 1234, "– of 1,234"),
        (0, 50, 1_000_000, "1–50 of 1,000,000"),
    ],
)
def test_page_range(page: int, size: int, total: int, label: str) -> None:
    assert page_range(page, size, total) == label


@pytest.mark.parametrize(
    ("total", "size", "last"), [(0, 20, 0), (1, 20, 0), (20, 20, 0), (21, 20, 1), (1234, 20, 61)]
)
def test_last_page_counts_from_zero(total: int, size: int, last: int) -> None:
    assert last_page_of(total, size) == last


def shown_page(pager: Pager[str, int], total: int, items: int = 1) -> None:
    ask = pager.wanted
    assert pager.settle(ask, list(range(items)), total) is Settled.SHOWN


def test_only_the_reply_to_the_last_request_is_shown() -> None:
    pager: Pager[str, int] = Pager.of("q", 20)
    first = pager.ask(1)
    second = pager.ask(2)
    third = pager.ask(3)
    assert pager.settle(third, [3], 100) is Settled.SHOWN
    # replies coming late, in any order, are dropped: the page on show stays
    assert pager.settle(first, [1], 100) is Settled.STALE
    assert pager.settle(second, [2], 100) is Settled.STALE
    assert pager.shown is not None and pager.shown.items == (3,) and pager.shown.page == 3
    assert not pager.fail(second) and not pager.failed
    assert pager.answered and not pager.waiting


def test_leaving_the_list_drops_the_replies_on_their_way() -> None:
    pager: Pager[str, int] = Pager.of("q", 20)
    ask = pager.ask()
    pager.drop_replies()
    assert pager.settle(ask, [1], 10) is Settled.STALE
    assert pager.shown is None
    pager.reset()
    assert pager.page == 0 and pager.shown is None and pager.waiting


def test_pages_are_clamped_to_the_total_once_known() -> None:
    pager: Pager[str, int] = Pager.of("q", 20)
    assert pager.last_page is None and pager.target(500) == 500 and pager.target(-3) == 0
    shown_page(pager, 1234)
    assert pager.total == 1234 and pager.last_page == 61
    assert pager.ask(500).page == 61 and pager.ask(-3).page == 0


def test_another_query_starts_on_its_first_page_with_its_total_unknown() -> None:
    pager: Pager[str, int] = Pager.of("junk", 20)
    pager.ask(4)
    shown_page(pager, 1234)
    ask = pager.ask(query="priority")
    assert (ask.query, ask.page) == ("priority", 0)
    assert pager.total is None and pager.last_page is None  # the junk total is not its own
    assert pager.shown is not None and pager.shown.query == "junk"


def test_another_page_size_keeps_the_first_item_in_view() -> None:
    pager: Pager[str, int] = Pager.of("q", 20)
    pager.ask(5)  # items 100..119
    assert pager.ask(size=50).page == 2  # items 100..149
    assert pager.ask(size=20).page == 5


def test_a_reply_past_the_end_asks_for_the_last_page() -> None:
    pager: Pager[str, int] = Pager.of("q", 20)
    ask = pager.ask(9)
    assert pager.settle(ask, [], 45) is Settled.PAST_END
    assert pager.page == 2 and not pager.is_current(ask)
    assert pager.settle(pager.wanted, [40, 41, 42, 43, 44], 45) is Settled.SHOWN


def test_a_reply_without_a_total_counts_the_items_up_to_its_page() -> None:
    pager: Pager[str, int] = Pager.of("q", 20)
    ask = pager.ask(2)
    assert pager.settle(ask, [1, 2, 3], None) is Settled.SHOWN
    assert pager.total == 43


def test_a_failed_request_is_said_until_the_next() -> None:
    pager: Pager[str, int] = Pager.of("q", 20)
    shown_page(pager, 100)
    ask = pager.ask(1)
    assert pager.fail(ask) and pager.failed and not pager.waiting
    assert pager.shown is not None and pager.shown.page == 0  # still the page before
    pager.ask()
    assert not pager.failed and pager.waiting


def test_the_edge_is_where_a_page_key_goes_nowhere() -> None:
    pager: Pager[str, int] = Pager.of("q", 20)
    assert not pager.on_edge(0)  # nothing shown yet
    shown_page(pager, 45)
    assert pager.on_edge(0) and pager.on_edge(-1) and not pager.on_edge(1)
    pager.ask(2)
    assert not pager.on_edge(2)  # on its way, not on show
    shown_page(pager, 45)
    assert pager.on_edge(3) and pager.on_edge(2)


def test_a_page_grows_with_new_items_first() -> None:
    page: Page[str, int] = Page(Ask("q", 0, 3), (3, 2, 1), 10)
    grown = page.grown([5, 4], cap=4)
    assert grown.items == (5, 4, 3, 2) and grown.total == 12 and grown.label == "1–3 of 12"
