"""Phone numbers in the simulator, through the client (CONTRACT choices 71 to 78)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from vagent_tui.api.errors import ApiError
from vagent_tui.api.number_models import (
    LocalitySearch,
    PhraseSearch,
    PrefixSearch,
    number_prices,
    parse_search,
)
from vagent_tui.services.connect import SimClient, demo_client
from vagent_tui.sim import numbers

AGENT = 1111  # holds one number (id % 3)
NONE_HELD = 1113  # holds none
ORG = 1110


@pytest.fixture
async def api() -> AsyncIterator[SimClient]:
    client = demo_client()
    yield client
    await client.aclose()


async def _error(call: object) -> ApiError:
    with pytest.raises(ApiError) as caught:
        await call  # type: ignore[misc]
    return caught.value


async def test_the_demo_agents_hold_some_numbers_and_some_none(api: SimClient) -> None:
    [held] = await api.list_numbers(target=AGENT)
    assert held.number.startswith("+1") and held.source == "purchased"
    assert held.price is not None and held.since is not None
    assert await api.list_numbers(target=NONE_HELD) == []
    assert await api.list_numbers(target=ORG) == []  # not an agent: nothing held


@pytest.mark.parametrize(
    ("typed", "area"),
    [("Austin, TX", ("512",)), ("Nowhere, TX", ("512", "214", "713")), ("415", ("415",)),
     ("*CAFE*", None)],
    ids=["city", "region-for-unknown-city", "prefix", "phrase"],
)  # fmt: skip
async def test_a_search_offers_free_numbers_of_its_area(
    api: SimClient, typed: str, area: tuple[str, ...] | None
) -> None:
    offers = await api.search_numbers(parse_search(typed), target=AGENT)
    assert 1 <= len(offers) <= numbers.OFFERS
    assert len({o.number for o in offers}) == len(offers)
    if area is not None:
        assert all(o.number[2:5] in area for o in offers)
    else:
        assert all("2233" in o.number[5:] for o in offers)  # CAFE on the keypad
    assert offers == await api.search_numbers(parse_search(typed), target=AGENT)  # the same


@pytest.mark.parametrize(
    "search",
    [LocalitySearch(city="Atlantis", region="ZZ"), PrefixSearch(prefix="999"),
     PrefixSearch(prefix="5120", strict=True), PhraseSearch(phrase="*TOOLONGWORD*")],
    ids=["unknown-place", "unknown-area-code", "no-exchange-starts-0", "phrase-too-long"],
)  # fmt: skip
async def test_nothing_to_offer_is_404_with_the_files_sentence(
    api: SimClient, search: LocalitySearch | PrefixSearch | PhraseSearch
) -> None:
    error = await _error(api.search_numbers(search, target=AGENT))
    assert error.status == 404 and error.message == numbers.NONE_FOUND


async def test_not_strict_drops_what_cannot_be_had_and_offers_the_area(api: SimClient) -> None:
    offers = await api.search_numbers(PrefixSearch(prefix="5120", strict=False), target=AGENT)
    assert offers and all(o.number.startswith("+1512") for o in offers)


async def test_buy_then_the_number_is_held_and_offered_no_more(api: SimClient) -> None:
    search = parse_search("Austin, TX")
    first = (await api.search_numbers(search, target=NONE_HELD))[0].number
    await api.buy_number(first, "US", target=NONE_HELD)
    [held] = await api.list_numbers(target=NONE_HELD)
    assert held.number == first and held.source == "purchased"
    assert first not in {o.number for o in await api.search_numbers(search, target=AGENT)}
    again = await _error(api.buy_number(first, "US", target=NONE_HELD))
    assert again.status == 404 and "already assigned to this account" in again.message
    other = await _error(api.buy_number(first, "US", target=AGENT))
    assert other.status == 404 and "not available" in other.message
    assert len(await api.list_numbers(target=NONE_HELD)) == 1  # nothing bought twice


async def test_a_buy_needs_an_agent_account(api: SimClient) -> None:
    error = await _error(api.buy_number("+15125550123", "US", target=ORG))
    assert error.status == 400 and "agent account" in error.message


async def test_return_disconnects_and_a_number_not_held_is_404(api: SimClient) -> None:
    [held] = await api.list_numbers(target=AGENT)
    await api.return_number(held.number, target=AGENT)
    assert await api.list_numbers(target=AGENT) == []
    error = await _error(api.return_number(held.number, target=AGENT))
    assert error.status == 404 and "not assigned to this account" in error.message
    await api.buy_number(held.number, "US", target=NONE_HELD)  # available again


async def test_bring_and_return_need_a_resellers_key() -> None:
    org_key = demo_client("demo-org")
    try:
        for call in (org_key.bring_number("+15125550123", target=AGENT),
                     org_key.return_number("+15125550123", target=AGENT)):  # fmt: skip
            error = await _error(call)
            assert error.status == 403 and "reseller or partner" in error.message
    finally:
        await org_key.aclose()


async def test_a_number_brought_is_held_as_byo(api: SimClient) -> None:
    await api.bring_number("+13035550999", target=NONE_HELD)
    [held] = await api.list_numbers(target=NONE_HELD)
    assert held.number == "+13035550999" and held.source == "byo"


async def test_the_catalog_says_what_a_number_costs_to_a_partner_only(api: SimClient) -> None:
    prices = number_prices((await api.get_product_catalog()).body())
    assert prices.says(byo=False) == "1.15 USD a month"
    assert prices.says(byo=True) == "0.5 USD a month"
    error = await _error(api.get_product_catalog(target=AGENT))
    assert error.status == 403


async def test_hostile_mode_keeps_the_number_usable() -> None:
    client = demo_client(hostile=True)
    try:
        held = await client.list_numbers(target=AGENT)
        assert len(held) == 2 and held[0] == held[1]  # the first record, twice
        assert held[0].number.startswith("+1") and held[0].locality != "Dallas"
        await client.return_number(held[0].number, target=AGENT)
    finally:
        await client.aclose()
