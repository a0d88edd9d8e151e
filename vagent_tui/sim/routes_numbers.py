"""Phone numbers: ``GET /phoneNumbers``, the three searches
(``POST /phoneNumber/search/local/{locality,prefix,phrase}``), ``POST /phoneNumber/assign``
(a buy), ``POST /phoneNumber/byo/assign`` (a number brought) and ``POST
/phoneNumber/return``; the rules are `vagent_tui.sim.numbers`' (CONTRACT.md, choices 71
to 79). All act on the selected account (``targetAccountId`` or the key owner); a buy,
a bring and a return need an agent account selected, a bring and a return a key of a
reseller or partner (the vendor: "Requires reseller account").
"""

from __future__ import annotations

from typing import Any

from vagent_tui.sim import numbers
from vagent_tui.sim.account import Account
from vagent_tui.sim.common import NEED_AGENT, SimError, bad, opt_bool, opt_str
from vagent_tui.sim.endpoint import Ctx, route
from vagent_tui.sim.state import scope_rule

NEED_RESELLER = "{what} needs a reseller or partner account"


def _agent(ctx: Ctx) -> Account:
    acc = ctx.target
    if not acc.is_agent:
        raise bad(NEED_AGENT)
    return acc


def _reseller(ctx: Ctx, what: str) -> None:
    if scope_rule(ctx.me)[0] not in (1, 2):
        raise SimError(403, NEED_RESELLER.format(what=what))


async def list_numbers(ctx: Ctx) -> dict[str, Any]:
    held = ctx.state.numbers.get(ctx.target.id, [])
    return {"success": True, "phoneNumbers": [dict(n) for n in held]}


async def by_locality(ctx: Ctx) -> dict[str, Any]:
    body = await ctx.json()
    country = numbers.country_of(body, required=False)
    city, region = opt_str(body, "city", "") or "", opt_str(body, "region", "") or ""
    return numbers.by_locality(ctx.state, country, city.strip(), region.strip())


async def by_prefix(ctx: Ctx) -> dict[str, Any]:
    body = await ctx.json()
    country = numbers.country_of(body, required=False)
    prefix = opt_str(body, "prefix")
    if not prefix:
        raise bad("prefix is required")
    return numbers.by_prefix(ctx.state, country, prefix, opt_bool(body, "strict", True))


async def by_phrase(ctx: Ctx) -> dict[str, Any]:
    body = await ctx.json()
    phrase = opt_str(body, "phrase")
    if not phrase:
        raise bad("phrase is required")
    country = numbers.country_of(body, required=True)
    city, region = opt_str(body, "city", "") or "", opt_str(body, "region", "") or ""
    return numbers.by_phrase(ctx.state, country, phrase, city.strip(), region.strip())


async def buy(ctx: Ctx) -> dict[str, Any]:
    body = await ctx.json()
    number = numbers.number_of(body)
    numbers.country_of(body, required=True)
    return numbers.assign(ctx.state, _agent(ctx), number, "purchased")


async def bring(ctx: Ctx) -> dict[str, Any]:
    _reseller(ctx, "Bringing your own number")
    body = await ctx.json()
    return numbers.assign(ctx.state, _agent(ctx), numbers.number_of(body), "byo")


async def give_back(ctx: Ctx) -> dict[str, Any]:
    _reseller(ctx, "Returning a number")
    body = await ctx.json()
    return numbers.give_back(ctx.state, _agent(ctx), numbers.number_of(body))


ROUTES = [
    route("/phoneNumbers", list_numbers, "GET"),
    route("/phoneNumber/search/local/locality", by_locality, "POST"),
    route("/phoneNumber/search/local/prefix", by_prefix, "POST"),
    route("/phoneNumber/search/local/phrase", by_phrase, "POST"),
    route("/phoneNumber/assign", buy, "POST"),
    route("/phoneNumber/byo/assign", bring, "POST"),
    route("/phoneNumber/return", give_back, "POST"),
]
