"""Numbering providers (the vendor's OpenAPI reference, "Phone Numbers"; CONTRACT
choices 95-99): ``GET /numberingProviders``, ``POST``/``PUT /numberingProvider``.

Only a reseller or partner key (spec rules 1 and 2, its admins too) is answered: 403
``Numbering providers require a reseller or partner account`` otherwise. The
organization is ``targetOrganizationId`` (checked by the scope rules; required on POST
and PUT, 400 without); the GET without it lists for the selected account when it is an
organization, else the supported providers with none configured. The rules of a change
are `vagent_tui.sim.numbering`'s; the request log keeps the credentials as ``***``.
"""

from __future__ import annotations

from typing import Any

from vagent_tui.sim import numbering
from vagent_tui.sim.account import Account
from vagent_tui.sim.common import SimError, bad
from vagent_tui.sim.endpoint import Ctx, Reply, route
from vagent_tui.sim.state import scope_rule

ORGANIZATION = {"targetOrganizationId": "organization"}


def _organization(ctx: Ctx, *, required: bool) -> Account | None:
    if scope_rule(ctx.me)[0] not in (1, 2):
        raise SimError(403, numbering.REFUSED_ACCOUNT)
    if "targetOrganizationId" not in ctx.query:
        if required:
            raise bad("targetOrganizationId is required")
        return ctx.target if ctx.target.account_type == "organization" else None
    return ctx.level_target(ORGANIZATION)


async def list_providers(ctx: Ctx) -> Reply:
    org = _organization(ctx, required=False)
    held = ctx.state.numbering.get(org.id, {}) if org is not None else {}
    return {"success": True, "message": "Numbering providers fetched successfully",
            "numberingProviders": numbering.listing(held)}  # fmt: skip


async def _body(ctx: Ctx) -> tuple[dict[str, dict[str, Any]], dict[str, Any]]:
    org = _organization(ctx, required=True)
    assert org is not None
    body = await ctx.json()
    ctx.body_log = numbering.journaled(body)
    return ctx.state.numbering.setdefault(org.id, {}), body


async def add_provider(ctx: Ctx) -> Reply:
    providers, body = await _body(ctx)
    numbering.add(providers, body)
    return {"success": True, "message": "Numbering provider added"}


async def change_provider(ctx: Ctx) -> Reply:
    providers, body = await _body(ctx)
    numbering.change(providers, body)
    return {"success": True, "message": "Numbering provider updated"}


ROUTES = [
    route("/numberingProviders", list_providers, "GET"),
    route("/numberingProvider", add_provider, "POST"),
    route("/numberingProvider", change_provider, "PUT"),
]
