"""Phone numbers in the client: the searches' endpoints, the lenient replies, the models
(the request shapes of every method are `test_api_requests.py`'s cases)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import httpx
import pytest

from tests.unit.api.conftest import MakeClient
from vagent_tui.api.errors import MalformedResponse, ReadOnlyRefused, RequestTimeout
from vagent_tui.api.number_models import (
    LocalitySearch,
    NumberRequest,
    PhraseSearch,
    PrefixSearch,
    number_prices,
    parse_search,
    read_numbers,
)

from .helpers import Recorder, json_body, ok


@pytest.mark.parametrize(
    ("typed", "path", "body"),
    [
        ("Austin, TX", "locality", {"city": "Austin", "region": "TX", "country": "US"}),
        ("toronto, on, ca", "locality", {"city": "toronto", "region": "on", "country": "CA"}),
        ("512", "prefix", {"prefix": "512", "strict": True, "country": "US"}),
        ("*CAFE*", "phrase", {"phrase": "*CAFE*", "country": "US"}),
    ],
)
async def test_a_search_typed_on_one_line_goes_to_its_endpoint(
    make_client: MakeClient, typed: str, path: str, body: dict[str, Any]
) -> None:
    recorder = Recorder(ok({"success": True, "numbers": [{"number": "+15125550100"}]}))
    found = await make_client(recorder).search_numbers(parse_search(typed), target=1111)
    assert recorder.last.url.path == f"/api/v2/phoneNumber/search/local/{path}"
    assert json_body(recorder.last) == body
    assert [n.number for n in found] == ["+15125550100"]


@pytest.mark.parametrize(
    "typed",
    ["", "   ", "12-ab*", "**", "a, b, c, d", ", ", "Austin, TX, USA", "12345678901"],
)
def test_a_search_that_cannot_be_sent_says_why(typed: str) -> None:
    with pytest.raises(ValueError, match=r"\w"):
        parse_search(typed)


async def test_a_search_is_a_read_retried_and_allowed_read_only(make_client: MakeClient) -> None:
    recorder = Recorder(RequestTimeout("lost", method="POST"), ok({"numbers": []}))
    client = make_client(recorder, get_retries=1)
    client.read_only = True
    assert await client.search_numbers(PrefixSearch(prefix="512")) == []
    assert recorder.calls == 2


@pytest.mark.parametrize("call", ["buy", "bring", "return"])
async def test_a_buy_a_bring_a_return_are_refused_read_only_and_sent_once(
    make_client: MakeClient, call: str
) -> None:
    readonly = make_client(Recorder())
    readonly.read_only = True
    with pytest.raises(ReadOnlyRefused):
        await _send(readonly, call)
    recorder = Recorder(httpx.ConnectError("lost"), ok())
    with pytest.raises(Exception):  # noqa: B017  # the kind is test_api_errors'
        await _send(make_client(recorder, get_retries=3), call)
    assert recorder.calls == 1  # never sent twice


async def _send(client: Any, call: str) -> Any:
    if call == "buy":
        return await client.buy_number("+15125550100", "US", target=1111)
    if call == "bring":
        return await client.bring_number("+15125550100", target=1111)
    return await client.return_number("+15125550100", target=1111)


@pytest.mark.parametrize(
    "reply",
    [
        {"success": True, "numbers": ["+15125550100", "+15125550101"]},
        {"success": True, "availableNumbers": [{"phoneNumber": "+15125550100"},
                                               {"e164": "+15125550101"}]},
        {"success": True, "data": [{"did": "+15125550100"}, None, 7, {"number": "+15125550101"}]},
        ["+15125550100", {"number": "+15125550101", "monthlyPrice": "1.15"}],
    ],
    ids=["strings", "other-keys", "items-without-a-number", "bare-list"],
)  # fmt: skip
def test_the_search_reply_is_read_leniently(reply: Any) -> None:
    found, _left = read_numbers(reply)
    assert [n.number for n in found] == ["+15125550100", "+15125550101"]


def test_a_reply_without_a_list_offers_nothing_and_an_item_without_a_number_is_counted() -> None:
    assert read_numbers({"success": True, "message": "Success"}) == ([], 0)
    assert read_numbers({"numbers": [{"region": "TX"}, "+15125550100"]})[1] == 1


async def test_the_list_must_hold_its_list(make_client: MakeClient) -> None:
    recorder = Recorder(ok({"success": True}))
    with pytest.raises(MalformedResponse, match="phoneNumbers"):
        await make_client(recorder, get_retries=0).list_numbers(target=1111)
    recorder = Recorder(ok({"success": True, "phoneNumbers": "+15125550100"}))
    with pytest.raises(MalformedResponse, match="not a list"):
        await make_client(recorder, get_retries=0).list_numbers(target=1111)


def test_a_number_held_reads_its_price_and_date_or_none() -> None:
    held, _ = read_numbers({"phoneNumbers": [
        {"number": "+1", "monthlyPrice": 1.15, "assignedAt": 1_700_000_000_000},
        {"number": "+2", "monthlyPrice": "free", "assignedAt": "yesterday"},
        {"number": "+3", "monthlyPrice": -1, "assignedAt": True},
    ]})  # fmt: skip
    assert held[0].price == Decimal("1.15") and held[0].since is not None
    assert held[0].since.year == 2023
    assert [(n.price, n.since) for n in held[1:]] == [(None, None), (None, None)]


@pytest.mark.parametrize(
    ("catalog", "local", "byo"),
    [
        ({"catalog": {"productItems": [
            {"id": "localNumber", "price": 1.15, "currency": "USD", "billingCycle": "monthly"},
            {"id": "byoNumber", "name": "Bring your own number", "price": "0.50"}]}},
         "1.15 USD a month", "0.50 USD a month"),
        ({"productItems": [{"name": "Phone number", "price": 2}]}, "2 USD a month", None),
        ({"catalog": {"plans": [{"id": "pro", "price": 99}]}}, None, None),
        ({"catalog": {"productItems": [{"id": "number", "price": "n/a"}, "x"]}}, None, None),
    ],
    ids=["both", "top-level", "no-items", "no-price"],
)  # fmt: skip
def test_the_catalog_says_a_numbers_price_or_nothing(
    catalog: dict[str, Any], local: str | None, byo: str | None
) -> None:
    prices = number_prices(catalog)
    assert (prices.says(byo=False), prices.says(byo=True)) == (local, byo)


@pytest.mark.parametrize(
    ("make", "field"),
    [
        (lambda: NumberRequest(number="5125550100"), "number"),
        (lambda: NumberRequest(number="+1 512 555 0100"), "number"),
        (lambda: LocalitySearch(city="Austin", country="U5"), "country"),
        (lambda: PrefixSearch(prefix="51a"), "prefix"),
        (lambda: PhraseSearch(phrase="CAFE!"), "phrase"),
        (lambda: LocalitySearch(), "city or a region"),
    ],
)
def test_a_request_refuses_a_bad_value_at_its_field(make: Any, field: str) -> None:
    with pytest.raises(ValueError) as caught:
        make()
    assert field in str(caught.value)
