"""Phone numbers: what each agent account holds, what a search offers, what a number
costs, buying, bringing and returning one (CONTRACT.md, choices 71 to 79).

Nothing is seeded but what the accounts hold: the numbers a search offers are made from
the search itself (the area code of its city, region or prefix, digits drawn from a hash
of the query), so the same search offers the same numbers, less those held by anyone.
A number is available unless an account holds it; a returned number is available again.
"""

from __future__ import annotations

import re
import zlib
from typing import TYPE_CHECKING, Any

from vagent_tui.sim.common import SimError, bad

if TYPE_CHECKING:
    from vagent_tui.sim.account import Account
    from vagent_tui.sim.state import SimState

PRODUCT_ITEMS: tuple[dict[str, Any], ...] = (
    {"id": "localNumber", "name": "Local phone number", "price": 1.15, "currency": "USD",
     "billingCycle": "month"},
    {"id": "byoNumber", "name": "Bring your own number", "price": 0.5, "currency": "USD",
     "billingCycle": "month"},
)  # fmt: skip
"""The catalog's product items for numbers (``productCatalog``'s ``productItems``)."""
PRICES = {"purchased": 1.15, "byo": 0.5}

AREAS: dict[str, tuple[str, str, tuple[str, ...]]] = {
    # region -> (country, the region's name, its area codes; the first is its largest city's)
    "TX": ("US", "Texas", ("512", "214", "713")),
    "CA": ("US", "California", ("415", "213", "619")),
    "NY": ("US", "New York", ("212", "718")),
    "IL": ("US", "Illinois", ("312",)),
    "WA": ("US", "Washington", ("206",)),
    "MA": ("US", "Massachusetts", ("617",)),
    "CO": ("US", "Colorado", ("303",)),
    "FL": ("US", "Florida", ("305", "407")),
    "ON": ("CA", "Ontario", ("416", "613")),
}
CITIES: dict[str, tuple[str, str]] = {
    # city (lower case) -> (region, area code)
    "austin": ("TX", "512"), "dallas": ("TX", "214"), "houston": ("TX", "713"),
    "san francisco": ("CA", "415"), "los angeles": ("CA", "213"), "san diego": ("CA", "619"),
    "new york": ("NY", "212"), "brooklyn": ("NY", "718"), "chicago": ("IL", "312"),
    "seattle": ("WA", "206"), "boston": ("MA", "617"), "denver": ("CO", "303"),
    "miami": ("FL", "305"), "orlando": ("FL", "407"), "toronto": ("ON", "416"),
    "ottawa": ("ON", "613"),
}  # fmt: skip
CITY_OF = {code: city.title() for city, (_, code) in CITIES.items()}
REGION_OF = {code: region for region, (_, _, codes) in AREAS.items() for code in codes}
OFFERS = 10
"""Numbers a search offers at most."""
NONE_FOUND = "No phone numbers available for the search area. Please try a different area."
KEYPAD = {c: str(d) for d, letters in ((2, "ABC"), (3, "DEF"), (4, "GHI"), (5, "JKL"),
                                       (6, "MNO"), (7, "PQRS"), (8, "TUV"), (9, "WXYZ"))
          for c in letters}  # fmt: skip
# Patterns kept as text: `re` compiles one on first use (and caches it), not at every start.
_E164 = r"^\+[1-9][0-9]{6,14}$"


def holder(state: SimState, number: str) -> int | None:
    """The account that holds ``number``, if any."""
    for account_id, held in state.numbers.items():
        if any(n["number"] == number for n in held):
            return account_id
    return None


def _record(number: str, source: str, at: int) -> dict[str, Any]:
    code = number[2:5] if number.startswith("+1") else ""
    region = REGION_OF.get(code, "")
    return {
        "number": number, "country": AREAS[region][0] if region else "",
        "region": region, "locality": CITY_OF.get(code, ""), "source": source,
        "monthlyPrice": PRICES[source], "currency": "USD", "assignedAt": at,
    }  # fmt: skip


def seed_numbers(state: SimState, agents: list[Account], at: int) -> None:
    """What the demo's agent accounts hold: ``id % 3`` numbers each (so some hold none),
    the second one brought (BYO)."""
    for acc in agents:
        codes = ("512", "214", "415", "212", "312", "206")
        code = codes[acc.id % len(codes)]
        state.numbers[acc.id] = [
            _record(f"+1{code}555{(acc.id * 10 + k) % 10_000:04d}", ("purchased", "byo")[k], at)
            for k in range(acc.id % 3)
        ]


def number_of(body: dict[str, Any]) -> str:
    number = body.get("number")
    if not isinstance(number, str) or not number:
        raise bad("number is required")
    if not re.match(_E164, number):
        raise bad("number must be a phone number in E.164 form, e.g. +12145551234")
    return number


def country_of(body: dict[str, Any], *, required: bool) -> str:
    country = body.get("country")
    if country is None and not required:
        return "US"
    if not isinstance(country, str) or not re.match(r"^[A-Za-z]{2}$", country):
        raise bad("country must be a two-letter country code, e.g. US")
    return country.upper()


def _digits(seed: str, k: int, n: int) -> str:
    value = zlib.crc32(f"{seed}#{k}".encode())
    return f"{value:010d}"[-n:]


def _free(state: SimState, numbers: list[str]) -> list[str]:
    seen: set[str] = set()
    out = []
    for number in numbers:
        if number not in seen and holder(state, number) is None:
            seen.add(number)
            out.append(number)
    return out[:OFFERS]


def _offer(number: str) -> dict[str, Any]:
    code = number[2:5]
    region = REGION_OF.get(code, "")
    return {"number": number, "country": AREAS[region][0] if region else "US",
            "region": region, "locality": CITY_OF.get(code, "")}  # fmt: skip


def _area_codes(country: str, city: str, region: str) -> list[str]:
    """The area codes a locality search looks in: the city's, else its region's (the
    vendor: "numbers from a 10 mile radius" when the city has none)."""
    region = region.upper()
    known = CITIES.get(city.strip().lower())
    if known is not None and (not region or known[0] == region):
        return [known[1]]
    area = AREAS.get(region)
    if area is None or area[0] != country:
        return []
    return list(area[2])


def _offers(state: SimState, codes: list[str], seed: str) -> dict[str, Any]:
    numbers = [f"+1{codes[k % len(codes)]}{_digits(seed, k, 7)}" for k in range(OFFERS * 2)]
    free = _free(state, [n for n in numbers if n[5] not in "01"])  # no exchange starts 0 or 1
    if not free:
        raise SimError(404, NONE_FOUND)
    return {"success": True, "message": "Success", "numbers": [_offer(n) for n in free]}


def by_locality(state: SimState, country: str, city: str, region: str) -> dict[str, Any]:
    if not (city or region):
        raise bad("city or region is required")
    codes = _area_codes(country, city, region)
    if not codes:
        raise SimError(404, NONE_FOUND)
    return _offers(state, codes, f"L{country}{city.lower()}{region.upper()}")


def by_prefix(state: SimState, country: str, prefix: str, strict: bool) -> dict[str, Any]:
    """Numbers whose national digits start with ``prefix``; not ``strict``: numbers of
    the same area code when no number starts so."""
    if not (prefix.isascii() and prefix.isdecimal()) or not 1 <= len(prefix) <= 10:
        raise bad("prefix must be 1 to 10 digits")
    codes = [c for c in REGION_OF if c.startswith(prefix[:3]) and
             AREAS[REGION_OF[c]][0] == country]  # fmt: skip
    if not codes:
        raise SimError(404, NONE_FOUND)
    rest = prefix[3:]
    if rest and rest[0] in "01":  # no exchange starts 0 or 1: none starts so
        if strict:
            raise SimError(404, NONE_FOUND)
        rest = ""
    numbers = [f"+1{codes[k % len(codes)]}{rest}{_digits(prefix, k, 7 - len(rest))}"
               for k in range(OFFERS * 2)]  # fmt: skip
    free = _free(state, [n for n in numbers if n[5] not in "01"])
    if not free:
        raise SimError(404, NONE_FOUND)
    return {"success": True, "message": "Success", "numbers": [_offer(n) for n in free]}


def by_phrase(state: SimState, country: str, phrase: str, city: str, region: str) -> dict[str, Any]:
    """Numbers whose last seven digits spell ``phrase`` on a keypad, ``*`` any digits
    (``*CAFE*``: CAFE anywhere; ``CAFE*``: at the start; ``*CAFE``: at the end)."""
    if not re.match(r"^[A-Za-z0-9*]+$", phrase) or not phrase.strip("*"):
        raise bad("phrase must be letters or digits, with * as a wildcard")
    word = "".join(KEYPAD.get(c, c) for c in phrase.strip("*").upper())
    if "*" in word or len(word) > 7:
        raise SimError(404, NONE_FOUND)  # one run of letters, at most seven digits
    codes = _area_codes(country, city, region) if (city or region) else ["512", "415", "212"]
    if not codes:
        raise SimError(404, NONE_FOUND)
    free_left, free_right = phrase.startswith("*"), phrase.endswith("*")
    numbers = []
    for k in range(OFFERS * 2):
        room = 7 - len(word)
        fill = _digits(phrase, k, room) if room else ""
        # anywhere (*WORD*), at the end (*WORD), at the start (WORD*)
        cut = k % (room + 1) if free_left and free_right else (room if free_left else 0)
        numbers.append(f"+1{codes[k % len(codes)]}{fill[:cut]}{word}{fill[cut:]}")
    free = _free(state, [n for n in numbers if n[5] not in "01"])
    if not free:
        raise SimError(404, NONE_FOUND)
    return {"success": True, "message": "Success", "numbers": [_offer(n) for n in free]}


def assign(state: SimState, acc: Account, number: str, source: str) -> dict[str, Any]:
    """The account takes ``number`` (bought or brought); 404 when anyone holds it."""
    held = holder(state, number)
    if held == acc.id:
        raise SimError(404, f"Unable to assign phone number: {number} is already assigned "
                            "to this account")  # fmt: skip
    if held is not None:
        raise SimError(404, f"Unable to assign phone number: {number} is not available")
    state.numbers.setdefault(acc.id, []).append(_record(number, source, int(state.now())))
    return {"success": True, "message": "Success"}


def give_back(state: SimState, acc: Account, number: str) -> dict[str, Any]:
    held = state.numbers.get(acc.id, [])
    keep = [n for n in held if n["number"] != number]
    if len(keep) == len(held):
        raise SimError(404, f"Unable to return phone number: {number} is not assigned to "
                            "this account")  # fmt: skip
    state.numbers[acc.id] = keep
    return {"success": True, "message": "Success"}
