"""Numbers screen: its wiring (list, search, buy asked with the catalog's price and the
number typed, return typed), in one app; and its state without an app."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, Static

from tests.helpers import MakeApp, settle, shown, sim_of
from vagent_tui.api.number_models import NumberPrices, PhoneNumber, parse_search
from vagent_tui.ui.dialogs import PromptModal
from vagent_tui.ui.screens.base import BaseScreen
from vagent_tui.ui.screens.numbers import NumbersScreen, NumbersState, search_problem

AGENT = 1111


def _held(app: Any) -> list[str]:
    return [n["number"] for n in sim_of(app).numbers.get(AGENT, [])]


def _posts(app: Any, tail: str) -> int:
    return sum(1 for r in sim_of(app).requests if r.method == "POST" and r.path.endswith(tail))


def _status(app: Any) -> str:
    return str(shown(app, BaseScreen).status.content)


async def _answer(pilot: Pilot[None], text: str) -> PromptModal:
    prompt = pilot.app.screen
    assert isinstance(prompt, PromptModal)
    prompt.query_one("#prompt-input", Input).value = text
    await pilot.pause()
    await pilot.press("enter")
    await settle(pilot)
    return prompt


async def test_search_a_city_buy_a_number_typed_see_it_listed_then_return_it(
    make_app: MakeApp,
) -> None:
    app = make_app("numbers", account=AGENT)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, NumbersScreen)
        assert [n.number for n in screen.table.records] == _held(app)
        assert "1 phone number held by" in _status(app)

        await pilot.press("s")
        await settle(pilot)
        await _answer(pilot, "Austin, TX")
        offers = screen.offers.records
        assert offers and all(o.number.startswith("+1512") for o in offers)
        assert app.focused is screen.offers

        await pilot.press("b")
        await settle(pilot)
        wanted = offers[0].number
        question = app.screen
        assert isinstance(question, PromptModal) and question.expected == wanted
        assert "1.15 USD a month, the catalog's price" in question.body_text
        await _answer(pilot, wanted[:-1])  # not the number: refused, nothing sent
        assert app.screen is question and _posts(app, "/phoneNumber/assign") == 0
        await _answer(pilot, wanted)
        assert _posts(app, "/phoneNumber/assign") == 1
        assert wanted in _held(app) and wanted in [n.number for n in screen.table.records]
        assert wanted not in [o.number for o in screen.offers.records]
        header = str(screen.query_one("#offers-header", Static).content)
        assert header == f"{len(offers) - 1} numbers offered for Austin, TX"
        assert f"Bought {wanted}" in _status(app)

        screen.table.focus()
        screen.table.move_cursor(row=[n.number for n in screen.table.records].index(wanted))
        await pilot.press("d")
        await settle(pilot)
        returning = app.screen
        assert isinstance(returning, PromptModal) and returning.expected == wanted
        assert "cannot be undone" in returning.body_text
        await pilot.press("escape")
        await settle(pilot)
        assert _posts(app, "/phoneNumber/return") == 0 and wanted in _held(app)
        await pilot.press("d")
        await settle(pilot)
        await _answer(pilot, wanted)
        assert _posts(app, "/phoneNumber/return") == 1 and wanted not in _held(app)
        assert wanted not in [n.number for n in screen.table.records]

        screen.table.focus()  # b in the held list does not buy the offer highlighted
        await pilot.press("b")
        await settle(pilot)
        assert isinstance(app.screen, NumbersScreen) and "b buys a number offered" in _status(app)
        screen.offers.focus()  # nor d in the offers return the number held highlighted
        await pilot.press("d")
        await settle(pilot)
        assert isinstance(app.screen, NumbersScreen) and "d returns a number held" in _status(app)


async def test_a_buy_whose_reply_is_lost_is_read_back_and_never_offered_again(
    make_app: MakeApp,
) -> None:
    """The buy's reply cut (the number assigned), then the list's read failing: the line
    says what the read-back found before the failed read, the number leaves the offers,
    and asking to buy it (or bring it) again says it is held and sends nothing."""
    from vagent_tui.sim.faults import Faults

    app = make_app("numbers", account=AGENT)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, NumbersScreen)
        await pilot.press("s")
        await settle(pilot)
        await _answer(pilot, "Austin, TX")
        wanted = screen.offers.records[0].number
        await pilot.press("b")
        await settle(pilot)
        sim = sim_of(app)
        sim.faults = Faults(kinds=["truncated"], methods=frozenset({"POST"}), remaining=1)
        await _answer(pilot, wanted)
        assert _posts(app, "/phoneNumber/assign") == 1 and wanted in _held(app)
        assert wanted not in [o.number for o in screen.offers.records]
        assert f"{wanted} is held by the account now" in _status(app)

        # The list failing to be read again (its retries too) keeps the line said.
        sim.faults = Faults(kinds=["500"], path_contains="phoneNumbers", remaining=10)
        screen.load_numbers(quiet=True, said="Bought it")
        await settle(pilot)
        assert "Bought it · the numbers could not be read again" in _status(app)

        screen.show_offers([*screen.offers.records, PhoneNumber(number=wanted)], "Austin, TX")
        assert wanted not in [o.number for o in screen.offers.records]  # held: not offered
        screen.offers.focus()
        await pilot.press("o")
        await settle(pilot)
        await _answer(pilot, wanted)
        posts = [
            r
            for r in sim_of(app).requests
            if r.method == "POST" and "phone" in r.path and "search" not in r.path
        ]
        assert isinstance(app.screen, NumbersScreen) and len(posts) == 1
        assert f"{wanted} is held by" in _status(app) and "nothing to buy" in _status(app)


@pytest.mark.parametrize(
    ("offer", "prices", "byo", "said"),
    [
        (PhoneNumber(number="+1", monthly_price=2, currency="EUR"), NumberPrices(), False,
         "2 EUR a month, as the search offered it"),
        (PhoneNumber(number="+1"), NumberPrices(local=Decimal("1.15")), False,
         "1.15 USD a month, the catalog's price of a local number"),
        (None, NumberPrices(local=Decimal("1.15"), byo=Decimal("0.5")), True,
         "0.5 USD a month, the catalog's price of a number brought"),
        (None, NumberPrices(local=Decimal("1.15")), True,
         "the platform's catalog does not say what it costs here"),
    ],
    ids=["offered", "catalog", "catalog-byo", "unsaid"],
)  # fmt: skip
def test_the_cost_said_is_the_offers_else_the_catalogs_else_unsaid(
    offer: PhoneNumber | None, prices: NumberPrices, byo: bool, said: str
) -> None:
    cost = NumbersState(prices=prices).cost(offer, byo=byo, who="Desk (#1)")
    assert cost.startswith(said) and cost.endswith("billed to Desk (#1)")


def test_a_buy_sends_the_offers_country_else_the_searchs() -> None:
    state = NumbersState(search=parse_search("Toronto, ON, CA"))
    assert state.country(PhoneNumber(number="+1", country="us")) == "US"
    assert state.country(PhoneNumber(number="+1", country="\x1b]0;x")) == "CA"


@pytest.mark.parametrize(("typed", "ok"), [("Austin, TX", True), ("", False), ("**", False)])
def test_the_search_field_says_what_it_refuses(typed: str, ok: bool) -> None:
    assert (search_problem(typed) is None) is ok
