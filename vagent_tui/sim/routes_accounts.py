"""Accounts, child lists, search, tokens and the inboxes.

* ``GET /account`` describes the selected account (the key owner without
  ``targetAccountId``).
* ``GET /listResellers`` / ``/listOrganizations`` / ``/listAccounts`` take
  ``targetPartnerId`` / ``targetResellerId`` / ``targetOrganizationId`` (checked like
  ``targetAccountId``); when absent, the selected account itself must be of that level,
  else 400. Lists hold only accounts the key may select (a member sees its permitted ids).
  Without ``pagination=true`` they return everything.
* ``GET /searchAccounts``: ``accountType`` (partner, reseller, organization, account or
  user) and ``queryText`` (case-insensitive substring of name or username) over the
  accounts below the selected one that the key may select.
* Tokens belong to the selected account. ``type`` must be ``admin`` (the only documented
  type). A created token authenticates at once; a deleted one stops at once. Deleting a
  token the account does not hold is 404 ``Token not found``.
* ``GET /junkConversations`` and ``GET /conversations`` need an agent account; see
  :mod:`vagent_tui.sim.inbox`.
"""

from __future__ import annotations

import hashlib
from typing import Any

from vagent_tui.sim.account import Account
from vagent_tui.sim.common import (
    SimError,
    bad,
    page_reply,
    parse_bool,
    parse_paging,
    req_str,
)
from vagent_tui.sim.endpoint import Ctx, route
from vagent_tui.sim.inbox import inbox_page

ACCOUNT_TYPES = ("partner", "reseller", "organization", "account", "user")


async def account_read(ctx: Ctx) -> dict[str, Any]:
    return ctx.described.read()


def _level(ctx: Ctx, param: str, kind: str) -> Account:
    raw = ctx.query.get(param)
    acc = ctx.state.select(ctx.me, raw, param) if raw is not None else ctx.target
    if acc.account_type != kind:
        raise bad(f"{param} must select {'an' if kind[0] in 'aeiou' else 'a'} {kind} account")
    return acc


def _children(ctx: Ctx, parent: Account, kinds: tuple[str, ...]) -> list[dict[str, Any]]:
    st = ctx.state
    return [
        a.summary()
        for a in sorted(st.children(parent.id), key=lambda a: a.id)
        if a.account_type in kinds and st.can_target(ctx.me, a)
    ]


async def list_resellers(ctx: Ctx) -> dict[str, Any]:
    parent = _level(ctx, "targetPartnerId", "partner")
    paging = parse_paging(ctx.query)
    return page_reply("resellers", "totalResellers", _children(ctx, parent, ("reseller",)), paging)


async def list_organizations(ctx: Ctx) -> dict[str, Any]:
    parent = _level(ctx, "targetResellerId", "reseller")
    paging = parse_paging(ctx.query)
    items = _children(ctx, parent, ("organization",))
    return page_reply("organizations", "totalOrganizations", items, paging)


async def list_accounts(ctx: Ctx) -> dict[str, Any]:
    parent = _level(ctx, "targetOrganizationId", "organization")
    paging = parse_paging(ctx.query)
    return page_reply("accounts", "totalAccounts", _children(ctx, parent, ("account",)), paging)


async def search_accounts(ctx: Ctx) -> dict[str, Any]:
    kind = ctx.query.get("accountType") or None
    if kind is not None and kind not in ACCOUNT_TYPES:
        raise bad(f"accountType must be one of: {', '.join(ACCOUNT_TYPES)}")
    text = (ctx.query.get("queryText") or "").strip().lower()
    paging = parse_paging(ctx.query)

    # The selected account (ctx.target, checked by `SimState.select`) bounds the search;
    # every account found is one the key may select (the rule of `SimState.can_target`);
    # the name or username holds the text (lowered).
    found = ctx.state.matching_below(ctx.me, ctx.target, text, kind)
    reply = page_reply("accounts", "totalAccounts", found, paging)
    reply["accounts"] = [a.summary() for a in reply["accounts"]]  # only the page's
    return reply


async def tokens_list(ctx: Ctx) -> dict[str, Any]:
    owner = ctx.target
    tokens = [dict(t) for t in ctx.state.tokens.values() if t["userId"] == owner.id]
    return {"success": True, "message": "Tokens retrieved successfully", "tokens": tokens}


async def tokens_create(ctx: Ctx) -> dict[str, Any]:
    body = await ctx.json()
    owner = ctx.target
    kind = req_str(body, "type")
    if kind != "admin":
        raise bad("type must be admin")
    description = req_str(body, "description", allow_empty=True)
    st = ctx.state
    seed = f"{owner.id}:{st.next_id()}:{st.now()}".encode()
    token = "vt_" + hashlib.sha256(seed).hexdigest()[:40]
    record = {"token": token, "description": description, "type": kind,
              "timestamp": str(int(st.now() * 1000)), "userId": owner.id}  # fmt: skip
    st.tokens[token] = record
    return {"success": True, "message": "Token created successfully", "token": dict(record)}


async def tokens_delete(ctx: Ctx) -> dict[str, Any]:
    body = await ctx.json()
    owner = ctx.target
    token = req_str(body, "token")
    record = ctx.state.tokens.get(token)
    if record is None or record["userId"] != owner.id:
        raise SimError(404, "Token not found")
    del ctx.state.tokens[token]
    return {"success": True, "message": "Token deleted successfully"}


async def _inbox(ctx: Ctx, salt: int) -> dict[str, Any]:
    acc = ctx.agent_target()
    paging = parse_paging(ctx.query)
    unread = bool(parse_bool("unread", ctx.query.get("unread"), False))
    return inbox_page(acc.id, ctx.state.rooms, paging, unread=unread, salt=salt)


async def junk_conversations(ctx: Ctx) -> dict[str, Any]:
    return await _inbox(ctx, 0)


async def conversations(ctx: Ctx) -> dict[str, Any]:
    return await _inbox(ctx, 0x5A17)


ROUTES = [
    route("/account", account_read, acts=False),
    # The child lists name their account in target<Level>Id: `_level` checks it.
    route("/listResellers", list_resellers, acts=False),
    route("/listOrganizations", list_organizations, acts=False),
    route("/listAccounts", list_accounts, acts=False),
    route("/searchAccounts", search_accounts),
    route("/tokens", tokens_list, "GET"),
    route("/tokens", tokens_create, "POST"),
    route("/tokens", tokens_delete, "DELETE"),
    route("/junkConversations", junk_conversations),
    route("/conversations", conversations),
]
