"""Members: the ``user`` accounts of an organization (or of a reseller or partner).

The reference shows no member record, no role list and no scope; these are the
simulator's choices (CONTRACT.md, "Members"):

* The members asked about are those of the selected account's home: an organization,
  reseller or partner is its own home; an agent account's home is its organization; a
  user's its parent. Members are the ``user`` accounts whose parent is the home.
* A record: ``{id, email, name, role, permittedAccountIds, organizationId, status}``,
  ``status`` ``active`` or ``invited``; ``GET /members`` answers ``{success, members}``,
  ``GET /member`` ``{success, member}``; an id that is not a member of the home is 404
  ``Member not found``.
* Roles are ``admin`` and ``member`` (400 otherwise); ``role`` defaults to ``admin``.
* ``permittedAccountIds`` must name agent accounts below the home (400 otherwise); an
  empty array removes the restriction.
* Changing members (invite, update, remove) needs an unrestricted key (403 for a member
  restricted to accounts); a key may not remove itself (400) nor the last unrestricted
  admin (409); an email already a member's is 409.
* The writes answer 201 with ``message`` as the reference shows, and (an addition) the
  ``member`` written.

``GET /auth/account/oneTimeAuthToken`` (CONTRACT choices 48, 49):

* A reseller or partner key (rules 1, 2, not restricted to accounts) only: 403
  otherwise. ``email`` is required (400 ``email is required``). ``externalAccountId``
  (or ``customerId``, the same) names an account of the key's reach by its external id:
  an organization, or an agent account standing for its organization; none is 404.
* The email of a member of that organization (or, without an external id, of any
  organization of the key's reach) gets a token; an email no member has, with an
  external id, is added as a member of that organization (role ``admin``, no
  restriction, ``status`` ``active``: the login is its first) and gets a token; without
  an external id it is 404 ``Account not found for key: <email>``.
* 200 ``{success, message, authToken}`` as the reference shows, and (an addition)
  ``memberAdded``. The token is ``ott_`` and 32 random hex digits, new at each call;
  the simulator records only that one was issued (a hash, never the value), and honours
  it nowhere.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from typing import Any

from vagent_tui.sim.account import Account
from vagent_tui.sim.common import SimError, bad, iso, opt_bool, opt_str, parse_int, req_int, req_str
from vagent_tui.sim.endpoint import Ctx, route

ROLES = ("admin", "member")
RESTRICTED_WRITE = "A member restricted to accounts cannot change members"
NOT_FOUND = "Member not found"
_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")


def home(ctx: Ctx) -> Account:
    """The account whose members a request is about (module docstring)."""
    acc = ctx.target
    st = ctx.state
    if acc.account_type == "account" and acc.organization_id in st.accounts:
        return st.account(acc.organization_id)
    if acc.account_type == "user" and acc.parent_id in st.accounts:
        return st.account(acc.parent_id)
    return acc


def members_of(ctx: Ctx, root: Account) -> list[Account]:
    users = (a for a in ctx.state.children(root.id) if a.account_type == "user")
    return sorted(users, key=lambda a: a.id)


def _member(ctx: Ctx, root: Account, member_id: int) -> Account:
    found = next((a for a in members_of(ctx, root) if a.id == member_id), None)
    if found is None:
        raise SimError(404, NOT_FOUND)
    return found


def _may_change(ctx: Ctx) -> Account:
    if ctx.me.permitted_ids:
        raise SimError(403, RESTRICTED_WRITE)
    return home(ctx)


def _email(value: str) -> str:
    if not _EMAIL.match(value):
        raise bad("email must be an email address")
    return value.lower()


def _role(body: dict[str, Any], default: str | None) -> str | None:
    role = opt_str(body, "role", default)
    if role is not None and role not in ROLES:
        raise bad(f"role must be one of {', '.join(ROLES)}")
    return role


def _permitted(ctx: Ctx, root: Account, body: dict[str, Any]) -> list[int] | None:
    value = body.get("permittedAccountIds")
    if value is None:
        return None
    if not isinstance(value, list) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in value
    ):
        raise bad("permittedAccountIds must be an array of account ids")
    st = ctx.state
    for aid in value:
        acc = st.accounts.get(aid)
        if acc is None or acc.account_type != "account" or not st.is_within(root, acc):
            raise bad(f"permittedAccountIds: {aid} is not an agent account of {root.name}")
    return list(dict.fromkeys(value))


def _taken(ctx: Ctx, root: Account, email: str, but: int | None = None) -> None:
    if any(m.email.lower() == email and m.id != but for m in members_of(ctx, root)):
        raise SimError(409, "A member with this email already exists")


async def members_list(ctx: Ctx) -> dict[str, Any]:
    return {"success": True, "members": [m.member() for m in members_of(ctx, home(ctx))]}


async def member_read(ctx: Ctx) -> dict[str, Any]:
    member_id = parse_int("targetMemberId", ctx.query.get("targetMemberId"))
    if member_id is None:
        raise bad("targetMemberId is required")
    return {"success": True, "member": _member(ctx, home(ctx), member_id).member()}


async def member_invite(ctx: Ctx) -> tuple[int, dict[str, Any]]:
    body = await ctx.json()
    root = _may_change(ctx)
    email = _email(req_str(body, "email"))
    role = _role(body, "admin")
    permitted = _permitted(ctx, root, body)
    redirect = opt_str(body, "redirectUrl")
    if redirect and not redirect.startswith(("http://", "https://")):
        raise bad("redirectUrl must be an http(s) URL")
    opt_bool(body, "sendWelcomeEmail", True)
    _taken(ctx, root, email)
    st = ctx.state
    new_id = st.new_account_id()
    st.accounts[new_id] = Account(
        id=new_id, username=email.split("@")[0], name=email.split("@")[0],
        account_type="user", parent_id=root.id, partner_id=root.partner_id,
        reseller_id=root.reseller_id, organization_id=root.id,
        permitted_ids=permitted or None, email_address=email, role=role or "admin",
        invited=True, created_at=iso(st.now()),
    )  # fmt: skip
    st.tree_changed()
    member = st.accounts[new_id].member()
    return 201, {"success": True, "message": "Invitation sent", "member": member}


def _unrestricted_admins(ctx: Ctx, root: Account) -> list[Account]:
    return [m for m in members_of(ctx, root) if m.role == "admin" and not m.permitted_ids]


async def member_update(ctx: Ctx) -> tuple[int, dict[str, Any]]:
    body = await ctx.json()
    root = _may_change(ctx)
    member = _member(ctx, root, req_int(body, "targetMemberId"))
    raw_email = opt_str(body, "email")
    email = _email(raw_email) if raw_email is not None else None
    role = _role(body, None)
    permitted = _permitted(ctx, root, body)
    if email is not None:
        _taken(ctx, root, email, but=member.id)
    admins = _unrestricted_admins(ctx, root)
    losing = (role not in (None, "admin")) or bool(permitted)
    if losing and admins == [member]:
        raise SimError(409, "The last unrestricted admin must stay an unrestricted admin")
    if email is not None:
        member.email_address = email
    if role is not None:
        member.role = role
    if permitted is not None:
        member.permitted_ids = permitted or None  # [] removes the restriction
    return 201, {"success": True, "message": "Member updated", "member": member.member()}


async def member_delete(ctx: Ctx) -> tuple[int, dict[str, Any]]:
    body = await ctx.json()
    root = _may_change(ctx)
    member = _member(ctx, root, req_int(body, "targetMemberId"))
    if member.id == ctx.me.id:
        raise bad("You cannot remove yourself")
    if _unrestricted_admins(ctx, root) == [member]:
        raise SimError(409, "The last unrestricted admin cannot be removed")
    del ctx.state.accounts[member.id]
    ctx.state.tree_changed()
    for token, record in list(ctx.state.tokens.items()):
        if record.get("userId") == member.id:
            del ctx.state.tokens[token]  # a removed member's keys stop at once
    message = "Member successfully removed from your organization"
    return 201, {"success": True, "message": message}


NEEDS_RESELLER = "Reseller/Partner account required"


def _by_external_id(ctx: Ctx, wanted: str) -> Account:
    st = ctx.state
    for acc in st.selectable_below(ctx.me, st.reach(ctx.me).root):
        if acc.external_account_id == wanted:
            if acc.account_type == "account" and acc.organization_id in st.accounts:
                return st.account(acc.organization_id)
            return acc
    raise SimError(404, f"Account not found for externalAccountId {wanted}")


async def one_time_token(ctx: Ctx) -> dict[str, Any]:
    st = ctx.state
    if st.reach(ctx.me).rule not in (1, 2) or ctx.me.permitted_ids:
        raise SimError(403, NEEDS_RESELLER)
    raw = (ctx.query.get("email") or "").strip()
    if not raw:
        raise bad("email is required")
    email = _email(raw)
    wanted = (ctx.query.get("externalAccountId") or ctx.query.get("customerId") or "").strip()
    added = False
    if wanted:
        org = _by_external_id(ctx, wanted)
        member = next((m for m in members_of(ctx, org) if m.email.lower() == email), None)
        if member is None:
            new_id = st.new_account_id()
            st.accounts[new_id] = Account(
                id=new_id, username=email.split("@")[0], name=email.split("@")[0],
                account_type="user", parent_id=org.id, partner_id=org.partner_id,
                reseller_id=org.reseller_id, organization_id=org.id, email_address=email,
                role="admin", invited=False, created_at=iso(st.now()),
            )  # fmt: skip
            st.tree_changed()
            added = True
    else:
        below = st.selectable_below(ctx.me, st.reach(ctx.me).root)
        if not any(a.account_type == "user" and a.email.lower() == email for a in below):
            raise SimError(404, f"Account not found for key: {email}")
    token = "ott_" + secrets.token_hex(16)
    st.issued_logins.append(hashlib.sha256(token.encode()).hexdigest())
    return {"success": True, "message": "Success", "authToken": token, "memberAdded": added}


ROUTES = [
    route("/members", members_list, "GET"),
    route("/member", member_read, "GET"),
    route("/member", member_invite, "POST"),
    route("/member", member_update, "PUT"),
    route("/member", member_delete, "DELETE"),
    # acts: a key restricted to accounts is refused as on every route (rule 5) first.
    route("/auth/account/oneTimeAuthToken", one_time_token, "GET"),
]
