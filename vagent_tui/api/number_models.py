"""Phone numbers: the account's numbers, the numbers a search offers, what is sent to
search, buy, bring and return one (``/phoneNumbers``, ``/phoneNumber/...``).

The vendor's file publishes these replies as ``{success, message}`` alone: it lists no
number and no price (sim/CONTRACT.md, choices 71 to 79). The simulator's shapes are
read, and so are the likely others: the list under ``phoneNumbers``, ``numbers``,
``availableNumbers`` or ``data``, or the reply a bare list; each item an object (its
number under ``number``, ``phoneNumber``, ``e164`` or ``did``) or the number as a string.
A price, where the reply carries one, is kept; the catalog's product items say it
otherwise (`NumberPrices`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime
from decimal import Decimal, InvalidOperation
from typing import Any, Literal, Self

from pydantic import Field, field_validator, model_validator

from vagent_tui.api.base import NullAsEmpty, Resource
from vagent_tui.api.replies import parse_model
from vagent_tui.api.requests import Request
from vagent_tui.api.task_models import check_e164

LIST_KEYS = ("phoneNumbers", "numbers", "availableNumbers", "data")
"""Where a reply may hold its numbers (the first present wins)."""
NUMBER_KEYS = ("number", "phoneNumber", "e164", "did")
"""Where a number record may hold the number itself."""

_COUNTRY = re.compile(r"^[A-Z]{2}$")
_PREFIX = re.compile(r"^[0-9]{1,10}$")
_PHRASE = re.compile(r"^[A-Za-z0-9*]+$")


class PhoneNumber(Resource):
    """A number: one the account holds, or one a search offers."""

    number: NullAsEmpty = ""
    country: Any = None
    region: Any = None
    locality: Any = None
    source: Any = None
    """``purchased`` or ``byo`` (the simulator's; not published)."""
    monthly_price: Any = None
    currency: Any = None
    assigned_at: Any = None

    @property
    def price(self) -> Decimal | None:
        """The monthly price the record carries, when it is a number."""
        return as_price(self.monthly_price)

    @property
    def since(self) -> datetime | None:
        """When the account took it (``assignedAt``: epoch seconds or milliseconds)."""
        value = self.assigned_at
        if isinstance(value, bool) or not isinstance(value, int | float):
            return None
        try:
            return datetime.fromtimestamp(value / 1000 if value > 10**11 else value, UTC)
        except (OverflowError, OSError, ValueError):
            return None


def as_price(value: Any) -> Decimal | None:
    """A price sent as a number or as numeric text; anything else: None."""
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return None
    try:
        price = Decimal(str(value).strip())
    except InvalidOperation:
        return None
    return price if price.is_finite() and price >= 0 else None


def _record(item: Any) -> dict[str, Any] | None:
    if isinstance(item, str):
        return {"number": item}
    if not isinstance(item, dict):
        return None
    for key in NUMBER_KEYS:
        value = item.get(key)
        if isinstance(value, str) and value:
            return {**item, "number": value}
    return None


def read_numbers(payload: Any) -> tuple[list[PhoneNumber], int]:
    """The numbers of a reply, leniently, and how many items held no number (left out).

    A reply with no list anywhere is no number at all (the vendor's ``{success,
    message}``): an empty list, not an error.
    """
    items: Any = payload
    if isinstance(payload, dict):
        items = next((payload[k] for k in LIST_KEYS if isinstance(payload.get(k), list)), [])
    if not isinstance(items, list):
        return [], 0
    found: list[PhoneNumber] = []
    for item in items:
        record = _record(item)
        if record is not None:
            found.append(parse_model(PhoneNumber, record))
    return found, len(items) - len(found)


@dataclass(frozen=True)
class NumberPrices:
    """What the catalog's product items say a number costs (None: not said); read from
    a catalog reply by `number_prices`, not a reply of its own."""

    local: Decimal | None = None
    byo: Decimal | None = None
    currency: str = "USD"
    cycle: str = "month"

    def says(self, byo: bool) -> str | None:
        """The cost in words (``"1.15 USD a month"``), or None when the catalog is silent."""
        price = self.byo if byo else self.local
        if price is None:
            return None
        return f"{price} {self.currency} a {self.cycle}"


def number_prices(catalog: dict[str, Any]) -> NumberPrices:
    """The prices of a number in a catalog reply (``GET /product/productCatalog``).

    Read from its product items (``catalog.productItems`` or ``productItems``): an item
    whose id or name speaks of bringing one's own number is the BYO fee, another that
    speaks of a number the local number's price. Nothing found: nothing said.
    """
    inner = catalog.get("catalog")
    items = inner.get("productItems") if isinstance(inner, dict) else None
    if not isinstance(items, list):
        items = catalog.get("productItems")
    prices: dict[str, Any] = {}
    for item in items if isinstance(items, list) else []:
        if not isinstance(item, dict):
            continue
        words = f"{item.get('id', '')} {item.get('name', '')}".lower()
        price = as_price(item.get("price"))
        if "number" not in words or price is None:
            continue
        kind = "byo" if "byo" in words or "bring" in words else "local"
        prices.setdefault(kind, price)
        for key in ("currency", "billingCycle"):
            if isinstance(item.get(key), str) and item[key].strip():
                prices.setdefault(key, item[key].strip()[:12])
    return NumberPrices(
        local=prices.get("local"), byo=prices.get("byo"),
        currency=prices.get("currency", "USD"),
        cycle=str(prices.get("billingCycle", "month")).removesuffix("ly"),
    )  # fmt: skip


# --------------------------------------------------------------------------- requests


class _Search(Request):
    country: str = "US"

    @field_validator("country")
    @classmethod
    def _country(cls, value: str) -> str:
        value = value.upper()
        if not _COUNTRY.match(value):
            raise ValueError("a country is two letters, e.g. US")
        return value


class LocalitySearch(_Search):
    """``POST /phoneNumber/search/local/locality``: numbers of a city and region."""

    kind: Literal["locality"] = Field(default="locality", exclude=True)
    city: str = ""
    region: str = ""

    @model_validator(mode="after")
    def _somewhere(self) -> Self:
        if not (self.city or self.region):
            raise ValueError("name a city or a region, e.g. Austin, TX")
        return self


class PrefixSearch(_Search):
    """``POST /phoneNumber/search/local/prefix``: numbers that start with digits."""

    kind: Literal["prefix"] = Field(default="prefix", exclude=True)
    prefix: str
    strict: bool = True

    @field_validator("prefix")
    @classmethod
    def _prefix(cls, value: str) -> str:
        if not _PREFIX.match(value):
            raise ValueError("a prefix is 1 to 10 digits, e.g. 512")
        return value


class PhraseSearch(_Search):
    """``POST /phoneNumber/search/local/phrase``: numbers that spell a phrase (``*``
    stands for any digits)."""

    kind: Literal["phrase"] = Field(default="phrase", exclude=True)
    phrase: str

    @field_validator("phrase")
    @classmethod
    def _phrase(cls, value: str) -> str:
        if not _PHRASE.match(value) or not value.strip("*"):
            raise ValueError("a phrase is letters or digits, with * for any digits: *CAFE*")
        return value


NumberSearch = LocalitySearch | PrefixSearch | PhraseSearch


def search_path(search: NumberSearch) -> str:
    """The endpoint of a search."""
    return f"/phoneNumber/search/local/{search.kind}"


def parse_search(text: str) -> NumberSearch:
    """A search typed on one line: digits are a prefix (``512``), text with ``*`` a
    phrase (``*CAFE*``), else ``city, region[, country]`` (``Austin, TX``).

    Raises:
        ValueError: a query that is none of them (its message says what to type).
    """
    text = text.strip()
    if not text:
        raise ValueError("type a city and region (Austin, TX), a prefix (512) or a phrase (*CAFE*)")
    if text.isascii() and text.isdecimal():
        return PrefixSearch(prefix=text)
    if "*" in text:
        return PhraseSearch(phrase=text)
    parts = [part.strip() for part in text.split(",")]
    if len(parts) > 3:
        raise ValueError("type city, region and at most a country: Austin, TX, US")
    city, region, country = [*parts, "", "", "US"][:3]
    return LocalitySearch(city=city, region=region, country=country or "US")


class NumberRequest(Request):
    """The body of a buy, a bring or a return: the number (E.164), and for a buy its
    country (the file requires it)."""

    number: str
    country: str | None = None

    @field_validator("number")
    @classmethod
    def _number(cls, value: str) -> str:
        return check_e164(value)

    def wire(self) -> dict[str, Any]:
        return {k: v for k, v in super().wire().items() if v is not None}
