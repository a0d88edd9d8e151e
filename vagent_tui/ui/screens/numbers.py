"""Phone numbers of the selected agent account: the numbers it holds, a search for more,
a buy, a number brought from elsewhere, a return.

``s`` asks for a search on one line (``Austin, TX``: a city and region; ``512``: a
prefix; ``*CAFE*``: a phrase) and lists the offers below the account's numbers. ``b``
buys the highlighted offer and ``o`` takes a number the customer brings: both spend
money (``does=SPENDS``), so the write path asks with the cost, as the catalog's product
items say it (read once per connection from the key's catalog), wants the number typed,
sends once and reads a lost reply back from the account's numbers. ``d`` returns the
highlighted number the account holds: it is disconnected, which cannot be undone, so
the number is typed to go ahead.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar, cast

from rich.text import Text
from textual import work
from textual.binding import Binding, BindingType
from textual.widget import Widget
from textual.widgets import Static

from vagent_tui.api.errors import ApiError, PlatformError
from vagent_tui.api.models import Envelope
from vagent_tui.api.number_models import (
    NumberPrices,
    NumberRequest,
    NumberSearch,
    PhoneNumber,
    number_prices,
    parse_search,
)
from vagent_tui.ui.caps import ROW_CAP, left_out
from vagent_tui.ui.dialogs import PromptModal
from vagent_tui.ui.format import fmt_datetime, plain
from vagent_tui.ui.safety import DESTRUCTIVE, SPENDS, Key
from vagent_tui.ui.screens.base import BaseScreen, who_of
from vagent_tui.ui.text import safe
from vagent_tui.ui.widgets.form import errors_by_field
from vagent_tui.ui.widgets.record_table import RecordTable, record_table
from vagent_tui.ui.widgets.table_filter import filter_binding
from vagent_tui.ui.writes import Spend, Write, Written, listed
from vagent_tui.words import counted

if TYPE_CHECKING:
    from vagent_tui.services.session import Connection

SEARCH_HELP = (
    "A city and region (Austin, TX; a country after them: Toronto, ON, CA), a prefix "
    "(512), or a phrase spelt on the keypad with * for any digits (*CAFE*)."
)
SOURCES = {"purchased": "bought", "byo": "brought"}


def search_problem(text: str) -> str | None:
    """Why a typed search cannot be sent (the field's error), else None."""
    try:
        parse_search(text)
    except ValueError as exc:
        return "; ".join(errors_by_field(exc).values())
    return None


def number_problem(text: str) -> str | None:
    try:
        NumberRequest(number=text.strip())
    except ValueError as exc:
        return "; ".join(errors_by_field(exc).values())
    return None


@dataclass
class NumbersState:
    """What the screen holds besides its tables: the last search and the catalog's prices."""

    query: str = ""
    search: NumberSearch | None = None
    prices: NumberPrices = field(default_factory=NumberPrices)
    priced_by: object = None
    """The client the prices were read through: read again for another key only."""
    bought: set[str] = field(default_factory=set)
    """Numbers a buy's read-back found held (a number is held by one account at most)."""

    def cost(self, offer: PhoneNumber | None, *, byo: bool, who: str) -> str:
        """What a buy (or a bring) costs, in words, for the money question."""
        price = offer.price if offer is not None else None
        if price is not None:
            currency = plain(offer.currency) if offer is not None and offer.currency else "USD"
            said = f"{price} {currency[:12]} a month, as the search offered it"
        elif (catalog := self.prices.says(byo)) is not None:
            kind = "number brought" if byo else "local number"
            said = f"{catalog}, the catalog's price of a {kind}"
        else:
            said = "the platform's catalog does not say what it costs here; its monthly fee"
        return f"{said}, billed to {who}"

    def country(self, offer: PhoneNumber) -> str:
        """The country a buy sends: the offer's when it is a code, else the search's."""
        sent = plain(offer.country).upper()
        if len(sent) == 2 and sent.isalpha():
            return sent
        return self.search.country if self.search is not None else "US"


class NumbersScreen(BaseScreen):
    """The phone numbers of the acting account: list, search, buy, bring, return."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "search", "Search", id="numbers.search",
                tooltip="Search numbers to buy: by city and region, prefix or phrase"),
        Key("b", "buy", "Buy", id="numbers.buy", does=SPENDS,
            tooltip="Buy the highlighted offer for the account (a monthly fee)"),
        Key("o", "bring", "Bring own", id="numbers.bring", does=SPENDS,
            tooltip="Assign a number the customer brings (reseller; a fee)"),
        Key("d", "delete", "Return", id="numbers.return", does=DESTRUCTIVE,
            tooltip="Return the highlighted number: it is disconnected, for good"),
        filter_binding("numbers"),  # last: the footer drops it first
    ]  # fmt: skip
    CSS_PATH = "numbers.tcss"

    def __init__(self) -> None:
        super().__init__()
        self.state = NumbersState()

    # ------------------------------------------------------------------ layout

    def compose_body(self) -> Iterable[Widget]:
        yield Static("", id="numbers-header", markup=False)
        yield record_table(
            "numbers-table",
            (("Number", "number"), ("Where", "where"), ("How", "how"), ("Monthly", "monthly"),
             ("Since", "since")),
            key=lambda number: number.number,
        )  # fmt: skip
        yield Static(
            "The account holds no number: it cannot take a call. Press s to search for one.",
            id="numbers-empty", markup=False,
        )  # fmt: skip
        yield Static("Press s to search for numbers.", id="offers-header", markup=False)
        yield record_table(
            "offers-table",
            (("Offered", "number"), ("Locality", "locality"), ("Region", "region"),
             ("Country", "country")),
            key=lambda offer: offer.number,
        )  # fmt: skip

    @property
    def table(self) -> RecordTable[PhoneNumber]:
        return cast("RecordTable[PhoneNumber]", self.query_one("#numbers-table", RecordTable))

    @property
    def offers(self) -> RecordTable[PhoneNumber]:
        return cast("RecordTable[PhoneNumber]", self.query_one("#offers-table", RecordTable))

    def on_mount(self) -> None:
        self.table.focus()

    # ------------------------------------------------------------------ loading

    def reload(self) -> None:
        self.load_numbers()
        if self.state.priced_by is not self.connection.client:
            self.load_prices()

    @work(exclusive=True, group="numbers-load", exit_on_error=False)
    async def load_numbers(
        self, highlight: str | None = None, *, quiet: bool = False, said: str = ""
    ) -> None:
        """Fetch the account's numbers; ``quiet`` leaves the status line to the action,
        whose line (``said``) a failed read keeps before its own error."""

        def failed(exc: PlatformError) -> None:
            where = f"{said} · the numbers could not be read again: " if said else ""
            self.status.error(exc, prefix=where)

        if not quiet:
            self.status.busy("Loading the phone numbers")
        ok, held = await self.load(lambda c: c.api.list_numbers(target=c.target_id),
                                   busy=self.table, on_error=failed)  # fmt: skip
        if not ok or held is None:
            return
        self.show_numbers(held, highlight)
        if not quiet:
            more, who = left_out(len(held), "number"), who_of(self, with_id=True)
            self.status.ok(f"{counted(len(held), 'phone number')} held by {who}{more}")

    @work(exclusive=True, group="numbers-prices", exit_on_error=False)
    async def load_prices(self) -> None:
        """The catalog's prices of a number, for the money question: the key's own
        catalog (a reseller's or partner's); another key's refusal leaves them unsaid."""
        client = self.connection.client
        ok, catalog = await self.load(
            lambda c: c.api.get_product_catalog(), on_error=lambda _exc: None,
            follows_target=False,
        )  # fmt: skip
        self.state.prices = number_prices(catalog.body()) if ok and catalog else NumberPrices()
        self.state.priced_by = client if ok else None  # a refusal is asked again on r

    def show_numbers(self, held: list[PhoneNumber], highlight: str | None = None) -> None:
        shown = held[:ROW_CAP]  # the status line says how many more
        self.table.show(shown, number_cells, keep=highlight)
        self.set_class(not shown, "-empty")
        numbers = self._held_numbers()
        if any(o.number in numbers for o in self.offers.records):
            self.show_offers(list(self.offers.records), self.state.query)
        who = who_of(self, with_id=True)
        self.query_one("#numbers-header", Static).update(
            safe(f"{counted(len(shown), 'phone number')} held by {who}")
        )

    # ------------------------------------------------------------------ search

    def action_search(self) -> None:
        prompt = PromptModal(
            "Search phone numbers", SEARCH_HELP, value=self.state.query,
            placeholder="Austin, TX", confirm_label="Search", validate=search_problem,
        )  # fmt: skip
        self.app.push_screen(prompt, self._searched)

    def _searched(self, text: str | None) -> None:
        if text is None:
            return
        self.state.query = text.strip()
        self.state.search = parse_search(text)
        self.search_numbers(self.state.search, self.state.query)

    @work(exclusive=True, group="numbers-search", exit_on_error=False)
    async def search_numbers(self, search: NumberSearch, query: str) -> None:
        def none_found(exc: PlatformError) -> None:
            if isinstance(exc, ApiError) and exc.status == 404:
                self.show_offers([], query)
                self.status.info(f"No number found for {query}: try another area or prefix")
            else:
                self.status.error(exc)

        ok, found = await self.load(
            lambda c: c.api.search_numbers(search, target=c.target_id),
            note=f"Searching numbers: {query}", busy=self.offers, on_error=none_found,
        )  # fmt: skip
        if not ok or found is None:
            return
        self.show_offers(found, query)
        offered = len(self.offers.records)  # the numbers held already are not offered
        if offered:
            self.offers.focus()
        follow = "" if self.connection.read_only or not offered else "; b buys one"
        self.status.ok(f"{counted(offered, 'number')} offered for {query}{follow}")

    def _held_numbers(self) -> set[str]:
        """The numbers the account holds: those listed, and those a buy's read-back
        found held (the list read after it may fail)."""
        return {n.number for n in self.table.records if n.number} | self.state.bought

    def show_offers(self, found: list[PhoneNumber], query: str) -> None:
        """The numbers offered, less those the account holds (bought meanwhile: a
        read-back or the list says so; nothing is bought twice)."""
        held = self._held_numbers()
        shown = [o for o in found if o.number not in held][:ROW_CAP]
        self.offers.show(shown, offer_cells)
        self.query_one("#offers-header", Static).update(
            safe(f"{counted(len(shown), 'number')} offered for {query}")
        )

    # ------------------------------------------------------------------ buy, bring

    def action_buy(self) -> None:
        if self.table.has_focus:  # the held list's row is not what b buys
            self.status.info("b buys a number offered: highlight one in the offers (tab)")
            return
        offer = self.offers.highlighted_record
        if offer is None:
            self.status.info("No offer highlighted: press s to search for numbers first")
            return
        number, country = offer.number, self.state.country(offer)
        if (problem := number_problem(number)) is not None:  # the platform's text, sent back
            self.status.error(f"{number} cannot be bought from here: {problem}")
            return
        if self._already_held(number):
            return
        who = who_of(self, with_id=True)
        spend = Spend("Buy number", number, self.state.cost(offer, byo=False, who=who),
                      self._held(number))  # fmt: skip
        self.write(
            Write[Envelope](
                "number-buy", f"Buying {number}",
                lambda c: c.api.buy_number(number, country, target=c.target_id),
                spends=spend, done=lambda reply: f"Bought {number} for {who}",
                after=lambda written: self._after_spend(written, number),
            )
        )  # fmt: skip

    def action_bring(self) -> None:
        prompt = PromptModal(
            "Bring your own number",
            f"The number the customer brings, to assign to {who_of(self, with_id=True)} "
            "(E.164, e.g. +15125550123). What it costs is asked next.",
            placeholder="+15125550123", confirm_label="Next", validate=number_problem,
        )  # fmt: skip
        self.app.push_screen(prompt, self._bring)

    def _bring(self, typed: str | None) -> None:
        if typed is None:
            return
        number, who = typed.strip(), who_of(self, with_id=True)
        if self._already_held(number):
            return
        spend = Spend("Bring number", number, self.state.cost(None, byo=True, who=who),
                      self._held(number))  # fmt: skip
        self.write(
            Write[Envelope](
                "number-bring", f"Assigning {number}",
                lambda c: c.api.bring_number(number, target=c.target_id),
                spends=spend, done=lambda reply: f"Assigned {number} to {who}",
                after=lambda written: self._after_spend(written, number),
            )
        )  # fmt: skip

    def _already_held(self, number: str) -> bool:
        """True (and said) when the held list shows ``number``: nothing to buy."""
        if number not in self._held_numbers():
            return False
        self.status.info(f"{number} is held by {who_of(self, with_id=True)} already: "
                         "nothing to buy")  # fmt: skip
        return True

    def _held(self, number: str) -> Callable[[Connection], Awaitable[str]]:
        """The read-back of a spend: whether the account holds the number now (held:
        never offered or bought again, whatever the list read after it says)."""

        def holds(held: PhoneNumber) -> bool:
            if held.number != number:
                return False
            self.state.bought.add(number)
            return True

        return lambda c: listed(
            c.api.list_numbers(target=c.target_id), holds,
            present=f"{number} is held by the account now.",
            absent=f"{number} is not held by the account: nothing was bought.",
        )  # fmt: skip

    def _after_spend(self, written: Written[Envelope], number: str) -> None:
        if written.stale:  # the list read again takes the number off the offers if held
            self.load_numbers(number, quiet=True, said=written.line)
        if written.outcome == "done":  # the account holds it: no longer on offer
            self.state.bought.add(number)  # nor on a later search's, if no list is read
            rest = [o for o in self.offers.records if o.number != number]
            self.show_offers(rest, self.state.query)

    # ------------------------------------------------------------------ return

    def action_delete(self) -> None:
        if self.offers.has_focus:  # an offer is not held: nothing of it to return
            self.status.info("d returns a number held: highlight one in the held list (tab)")
            return
        held = self.table.highlighted_record
        if held is None:
            self.status.info("No number highlighted: nothing to return")
            return
        number, who = held.number, who_of(self, with_id=True)
        if (problem := number_problem(number)) is not None:  # the platform's text, sent back
            self.status.error(f"{number} cannot be returned from here: {problem}")
            return
        body = (
            f"Return {number} of {who}? The number is handed back and disconnected: calls "
            "and texts to it stop, and this cannot be undone (the number may never be had "
            f"again).\n\nType {number} to go ahead."
        )
        self.write(
            Write[Envelope](
                "number-return", f"Returning {number}",
                lambda c: c.api.return_number(number, target=c.target_id),
                confirm=PromptModal("Return a number", body, placeholder=number,
                                    confirm_label="Return", expected=number),
                done=lambda reply: f"Returned {number}: it is disconnected",
                gone=f"{number} was not held by the account any more; the list is refreshed",
                read_back=lambda c: listed(
                    c.api.list_numbers(target=c.target_id), lambda n: n.number == number,
                    present=f"{number} is still held.", absent=f"{number} is no longer held.",
                ),
                after=self._after_return,
            )
        )  # fmt: skip

    def _after_return(self, written: Written[Envelope]) -> None:
        if written.outcome == "done":
            self.state.bought.clear()  # the list read again says what is held now
        if written.stale:
            self.load_numbers(quiet=True, said=written.line)


def number_cells(held: PhoneNumber) -> tuple[Text, Text, Text, Text, Text]:
    where = ", ".join(plain(part) for part in (held.locality, held.region, held.country) if part)
    source = plain(held.source)
    price = held.price
    monthly = f"{price} {plain(held.currency or 'USD')[:12]}" if price is not None else "—"
    return (
        safe(held.number, style="bold"), safe(where or "—"),
        safe(SOURCES.get(source, source)), safe(monthly), Text(fmt_datetime(held.since)),
    )  # fmt: skip


def offer_cells(offer: PhoneNumber) -> tuple[Text, Text, Text, Text]:
    return (
        safe(offer.number, style="bold"), safe(plain(offer.locality)),
        safe(plain(offer.region)), safe(plain(offer.country)),
    )  # fmt: skip
