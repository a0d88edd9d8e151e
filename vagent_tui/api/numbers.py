"""Phone numbers: the account's numbers, the searches for numbers to buy, a buy, a
number brought from elsewhere, a return (sim/CONTRACT.md, choices 71 to 79).

Every request carries ``targetAccountId`` when an account is selected: the vendor's
file declares none on these, vida-skill's notes send it on each (the number is the
agent account's). A buy and a bring spend money: a POST sent once, never ``reads``; a
search is a POST that only reads (``reads``: retried like a GET, allowed read-only).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from vagent_tui.api import models as m
from vagent_tui.api.errors import MalformedResponse
from vagent_tui.api.replies import Json, no_list
from vagent_tui.api.streaming import StreamingTransport

if TYPE_CHECKING:
    # The models import at the area's first request, not at start-up.
    from vagent_tui.api.number_models import NumberSearch, PhoneNumber


class NumbersApi(StreamingTransport):
    """The account's phone numbers."""

    async def list_numbers(self, *, target: int | None = None) -> list[PhoneNumber]:
        """``GET /phoneNumbers`` (vida-skill's; not in the vendor's file): the numbers
        the account holds. A reply must hold its list (an empty one is ``[]``)."""

        def parse(payload: Json) -> list[PhoneNumber]:
            if not any(key in payload for key in ("phoneNumbers", "numbers")):
                raise no_list("phoneNumbers", "/phoneNumbers")
            return _numbers_of(payload, "/phoneNumbers")

        return await self.get("/phoneNumbers", parse, target=target)

    async def search_numbers(
        self, search: NumberSearch, *, target: int | None = None
    ) -> list[PhoneNumber]:
        """``POST /phoneNumber/search/local/{locality|prefix|phrase}``: numbers that could
        be bought. The file shows no list in the reply: read leniently (none: ``[]``)."""
        from vagent_tui.api.number_models import search_path

        path = search_path(search)
        payload = await self.request("POST", path, target=target, json=search.wire(),
                                     reads=True)  # fmt: skip
        return _numbers_of(payload, path)

    async def buy_number(
        self, number: str, country: str, *, target: int | None = None
    ) -> m.Envelope:
        """``POST /phoneNumber/assign``: buys the number for the account (a monthly fee)."""
        from vagent_tui.api.number_models import NumberRequest

        body = NumberRequest(number=number, country=country).wire()
        return await self._envelope("POST", "/phoneNumber/assign", target=target, json=body)

    async def bring_number(self, number: str, *, target: int | None = None) -> m.Envelope:
        """``POST /phoneNumber/byo/assign``: a number the customer brings (reseller; a fee)."""
        from vagent_tui.api.number_models import NumberRequest

        body = NumberRequest(number=number).wire()
        return await self._envelope("POST", "/phoneNumber/byo/assign", target=target, json=body)

    async def return_number(self, number: str, *, target: int | None = None) -> m.Envelope:
        """``POST /phoneNumber/return``: hands the number back and disconnects it
        (reseller; cannot be undone)."""
        from vagent_tui.api.number_models import NumberRequest

        body = NumberRequest(number=number).wire()
        return await self._envelope("POST", "/phoneNumber/return", target=target, json=body)


def _numbers_of(payload: Json, url: str) -> list[PhoneNumber]:
    """The numbers of a reply (`number_models.read_numbers`); a list's key that holds
    something else than a list is a malformed reply, not "no number"."""
    from vagent_tui.api.number_models import LIST_KEYS, read_numbers

    for key in LIST_KEYS:
        if key in payload and payload[key] is not None and not isinstance(payload[key], list):
            raise MalformedResponse(f"The platform's reply has {key!r} that is not a list",
                                    url=url)  # fmt: skip
    return read_numbers(payload)[0]
