"""Provisioning the tree: create, update, delete and find accounts by external id.

The vendor's reference (``apiv2.json``) shows the requests and little of the replies;
the simulator's choices (CONTRACT.md, choices 40-49):

* ``POST /createReseller`` (``targetPartnerId``), ``POST /createOrganization``
  (``targetResellerId``) and ``POST /createAccount`` (``targetOrganizationId``) create
  under the parent their parameter names, which must be of that level (400) and in the
  key's reach (403, as any target); a key restricted to accounts creates nothing (403).
  They answer 201 with the created account's list object under ``reseller``,
  ``organization`` or ``account`` (``createReseller`` under ``organization`` too: the
  reference names that key).
* ``POST /updateAccount`` (``targetAccountId``, an agent account) and ``POST
  /updateOrganization`` (``targetOrganizationId``) need a reseller or partner key
  (the reference: "Reseller/Partner only"). Each setting is applied on its own: a
  value the platform refuses (a duplicate external id, a blank name, an unknown
  setting) is named in ``failedSettings`` with its reason in ``failedReasons`` (an
  addition) while the others are applied (200). Nothing applied: 400 ``No settings
  updated`` with the same lists. A value of the wrong type is 400 for the whole
  request (strict input, choice 3). ``null`` removes an external id.
* ``externalAccountId`` is unique in a partner's tree (409 on create, a failed setting
  on update); ``externalBillingId`` is not (one billing customer may pay for several).
* ``DELETE /deleteAccount`` (query ``targetOrganizationId``, body ``targetAccountId``)
  removes an agent account of that organization (404 when it is not one); its tokens
  stop; a member restricted to it keeps the id, which names nothing now (an emptied
  list would mean every account); its tasks go, a running one stopped.
  ``DELETE /deleteOrganization`` (query ``targetResellerId``, body
  ``targetOrganizationId``) deletes at once, as the reference says ("Delete
  (immediately)"; it names no conflict): everything under the organization goes with
  it, its agent accounts and Computer Agents (each as ``deleteAccount`` takes one),
  its members (``user`` accounts) and their keys, its task limits. Both answer 201 as
  the reference shows.
* ``GET /getAccountByExternalId`` is "Reseller/Partner only" (the reference): another
  key, or one restricted to accounts, is answered 404 like an id it does not reach (the
  reference's 404: "No account found OR caller lacks access"); a reseller or partner
  key (or a super admin's: vida-skill says one "is not limited by the returned
  accountType") finds an account of its reach, else the same 404.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from vagent_tui.sim.account import Account
from vagent_tui.sim.common import SimError, bad, iso, opt_bool, opt_str, parse_int
from vagent_tui.sim.endpoint import Ctx, route

RESTRICTED_CREATE = "A key restricted to accounts cannot change the tree"
NEEDS_RESELLER = "Updating accounts needs a reseller or partner key"
TAKEN = "externalAccountId is already used by another account"
NAME_LIMIT = 120
ORG_TYPES = ("internal", "customer")
HIPAA = ("on", "off", "inherit")
STATUSES = ("enabled", "disabled")


def _parent(ctx: Ctx, param: str, kind: str) -> Account:
    """The parent a create or delete names in ``param``: checked, of level ``kind``."""
    raw = ctx.query.get(param)
    if raw is None:
        ctx.target  # noqa: B018 -- a sent targetAccountId (or a restricted key) is refused first
        raise bad(f"{param} is required")
    acc = ctx.state.select(ctx.me, raw, param)
    if acc.account_type != kind:
        raise bad(f"{param} must select {'an' if kind[0] in 'aeiou' else 'a'} {kind} account")
    if ctx.me.permitted_ids:
        raise SimError(403, RESTRICTED_CREATE)
    return acc


def _partner_of(ctx: Ctx, acc: Account) -> Account:
    top = acc
    for above in ctx.state.ancestors(acc):
        top = above
    return top


def _id_owner(ctx: Ctx, where: Account, external_id: str) -> Account | None:
    """The account of ``where``'s partner tree holding ``external_id``, if any."""
    top = _partner_of(ctx, where)
    for acc in ctx.state.with_external_id(external_id):
        if ctx.state.is_within(top, acc):
            return acc
    return None


def _name(body: dict[str, Any], key: str, default: str | None = None) -> str:
    value = opt_str(body, key, default)
    if value is None:
        raise bad(f"{key} is required")
    if not value:
        raise bad(f"{key} must not be empty")
    if len(value) > NAME_LIMIT:
        raise bad(f"{key} must be at most {NAME_LIMIT} characters")
    return value


def _choice(body: dict[str, Any], key: str, allowed: tuple[str, ...], default: str) -> str:
    value = opt_str(body, key, default) or default
    if value not in allowed:
        raise bad(f"{key} must be one of {', '.join(allowed)}")
    return value


def _integrations(body: dict[str, Any]) -> tuple[str, ...]:
    value = body.get("integrations")
    if value is None:
        return ()
    if not isinstance(value, list):
        raise bad("integrations must be an array")
    apps: list[str] = []
    for item in value:
        if not (isinstance(item, dict) and isinstance(item.get("appId"), str)
                and isinstance(item.get("appVersion"), str)
                and isinstance(item.get("appData"), dict)):  # fmt: skip
            raise bad("integrations: each needs appId, appVersion and appData")
        apps.append(item["appId"])
    return tuple(apps)


def _new(ctx: Ctx, parent: Account, kind: str, name: str, **fields: Any) -> Account:
    st = ctx.state
    new_id = st.new_account_id()
    org = new_id if kind == "organization" else parent.organization_id
    reseller = new_id if kind == "reseller" else parent.reseller_id
    acc = Account(
        id=new_id, username=f"{kind}{new_id}", name=name, account_type=kind,
        parent_id=parent.id, partner_id=parent.partner_id, reseller_id=reseller,
        organization_id=org if kind != "reseller" else None,
        plan=parent.plan, vida_premium=parent.vida_premium, created_at=iso(st.now()),
        **fields,
    )  # fmt: skip
    st.accounts[new_id] = acc
    if acc.is_agent:
        _configure(ctx, acc)
    st.tree_changed()
    return acc


def _configure(ctx: Ctx, acc: Account) -> None:
    """A new agent's live configuration: the first demo profile under its organization's
    brand (every screen reads an agent's configuration; an empty one is not the platform's)."""
    from vagent_tui.sim.configs import build_config
    from vagent_tui.sim.seed import PROFILES

    st = ctx.state
    org = st.accounts.get(acc.organization_id or 0)
    base = next(iter(PROFILES.values()))
    profile = base.branded(org.name) if org else base
    st.live[acc.id] = build_config(acc, profile, random.Random(acc.id))
    st.staging[acc.id] = None
    st.versions[acc.id] = []


def _external(ctx: Ctx, parent: Account, body: dict[str, Any]) -> dict[str, Any]:
    external = opt_str(body, "externalAccountId") or None
    if external is not None and _id_owner(ctx, parent, external) is not None:
        raise SimError(409, TAKEN)
    return {
        "external_account_id": external,
        "external_billing_id": opt_str(body, "externalBillingId") or None,
    }


async def create_reseller(ctx: Ctx) -> tuple[int, dict[str, Any]]:
    parent = _parent(ctx, "targetPartnerId", "partner")
    body = await ctx.json()
    name = _name(body, "resellerName")
    opt_str(body, "email")
    opt_bool(body, "hipaaEnabledDefault", False)
    active = _choice(body, "resellerStatus", STATUSES, "enabled") == "enabled"
    acc = _new(ctx, parent, "reseller", name, active=active)
    reply = acc.summary()
    return 201, {"success": True, "message": "Reseller created", "reseller": reply,
                 "organization": reply}  # fmt: skip


async def create_organization(ctx: Ctx) -> tuple[int, dict[str, Any]]:
    parent = _parent(ctx, "targetResellerId", "reseller")
    body = await ctx.json()
    name = _name(body, "orgName")
    opt_str(body, "email")
    agent_name = opt_str(body, "accountName") or None
    _choice(body, "orgAccountType", ORG_TYPES, "customer")
    _choice(body, "hipaaSetting", HIPAA, "inherit")
    integrations = _integrations(body)
    acc = _new(ctx, parent, "organization", name, **_external(ctx, parent, body))
    if agent_name is not None:  # the reference: "default agent name for the organization"
        _new(ctx, acc, "account", agent_name[:NAME_LIMIT], integrations=integrations)
    return 201, {"success": True, "message": "Organization created",
                 "organization": acc.summary()}  # fmt: skip


async def create_account(ctx: Ctx) -> tuple[int, dict[str, Any]]:
    parent = _parent(ctx, "targetOrganizationId", "organization")
    body = await ctx.json()
    name = _name(body, "accountName", "New agent")
    integrations = _integrations(body)
    acc = _new(ctx, parent, "account", name, integrations=integrations,
               **_external(ctx, parent, body))  # fmt: skip
    return 201, {"success": True, "message": "Account created", "account": acc.summary()}


# ---------------------------------------------------------------------------- updates

Setter = Callable[[Account, Any], str | None]
"""Applies one setting; returns why it failed, or None."""


def _typed(
    kind: type | tuple[type, ...], what: str, nullable: bool = False
) -> Callable[[str, Any], None]:
    def check(key: str, value: Any) -> None:
        if value is None and nullable:
            return
        if isinstance(value, bool) and kind is not bool:
            raise bad(f"{key} must be {what}")
        if not isinstance(value, kind):
            raise bad(f"{key} must be {what}")

    return check


def _set_name(ctx: Ctx, attr: str) -> Setter:
    def apply(acc: Account, value: Any) -> str | None:
        text = value.strip()
        if not text:
            return "must not be empty"
        if len(text) > NAME_LIMIT:
            return f"must be at most {NAME_LIMIT} characters"
        setattr(acc, attr, text)
        ctx.state.names_changed()
        return None

    return apply


def _set_active(acc: Account, value: Any) -> str | None:
    acc.active = value
    return None


def _set_billing(acc: Account, value: Any) -> str | None:
    acc.external_billing_id = value.strip() or None if value is not None else None
    return None


def _update(
    ctx: Ctx,
    acc: Account,
    body: dict[str, Any],
    setters: dict[str, tuple[Callable[[str, Any], None], Setter]],
    done: str,
) -> tuple[int, dict[str, Any]]:
    for key, value in body.items():  # strict types first: a wrong one changes nothing
        if key in setters:
            setters[key][0](key, value)
    updated: list[str] = []
    failed: dict[str, str] = {}
    for key, value in body.items():
        if key not in setters:
            failed[key] = "not a setting the platform changes here"
            continue
        reason = setters[key][1](acc, value)
        if reason is None:
            updated.append(key)
        else:
            failed[key] = reason
    reply: dict[str, Any] = {"updatedSettings": updated}
    if failed:
        reply["failedSettings"] = list(failed)
        reply["failedReasons"] = failed
    if not updated:
        why = "; ".join(f"{k} {v}" for k, v in failed.items())
        message = f"No settings updated: {why}" if why else "No settings updated"
        return 400, {"success": False, "message": message, **reply}
    return 200, {"success": True, "message": done, **reply, "account": acc.summary()}


def _external_setter(ctx: Ctx) -> Setter:
    def apply(acc: Account, value: Any) -> str | None:
        text = value.strip() if isinstance(value, str) else None
        if not text:
            acc.external_account_id = None  # null (or blank) removes it
            ctx.state.external_ids_changed()
            return None
        owner = _id_owner(ctx, acc, text)
        if owner is not None and owner.id != acc.id:
            return "is already used by another account"
        acc.external_account_id = text
        ctx.state.external_ids_changed()
        return None

    return apply


def _enum_setter(allowed: tuple[str, ...]) -> Setter:
    def apply(acc: Account, value: Any) -> str | None:
        if value not in allowed:
            return f"must be one of {', '.join(allowed)}"
        return None  # accepted; the simulator keeps no such setting

    return apply


def _may_update(ctx: Ctx) -> None:
    rule = ctx.state.reach(ctx.me).rule
    if rule not in (1, 2) or ctx.me.permitted_ids:
        raise SimError(403, NEEDS_RESELLER)


_TEXT = _typed(str, "a string")
_TEXT_OR_NULL = _typed(str, "a string or null", nullable=True)
_BOOL = _typed(bool, "a boolean")


async def update_account(ctx: Ctx) -> tuple[int, dict[str, Any]]:
    if "targetAccountId" not in ctx.query:
        raise bad("targetAccountId is required")
    acc = ctx.target
    if acc.account_type != "account":
        raise bad(
            "targetAccountId must select an agent account (organizations: updateOrganization)"
        )
    _may_update(ctx)
    body = await ctx.json()
    setters = {
        "active": (_BOOL, _set_active),
        "accountName": (_TEXT, _set_name(ctx, "name")),
        "externalAccountId": (_TEXT_OR_NULL, _external_setter(ctx)),
        "externalBillingId": (_TEXT_OR_NULL, _set_billing),
    }
    return _update(ctx, acc, body, setters, "Account settings updated")


async def update_organization(ctx: Ctx) -> tuple[int, dict[str, Any]]:
    acc = _level_account(ctx, "targetOrganizationId", "organization")
    _may_update(ctx)
    body = await ctx.json()

    def set_premium(a: Account, value: Any) -> str | None:
        a.vida_premium = value
        return None

    def set_email(a: Account, value: Any) -> str | None:
        if "@" not in value or value.strip() != value or " " in value:
            return "is not an email address"
        a.email_address = value.lower()
        return None

    setters = {
        "active": (_BOOL, _set_active),
        "orgName": (_TEXT, _set_name(ctx, "name")),
        "email": (_TEXT, set_email),
        "vidaPremium": (_BOOL, set_premium),
        "externalAccountId": (_TEXT_OR_NULL, _external_setter(ctx)),
        "externalBillingId": (_TEXT_OR_NULL, _set_billing),
        "orgAccountType": (_TEXT, _enum_setter(ORG_TYPES)),
        "hipaaSetting": (_TEXT, _enum_setter(HIPAA)),
    }
    return _update(ctx, acc, body, setters, "Organization settings updated")


def _level_account(ctx: Ctx, param: str, kind: str) -> Account:
    raw = ctx.query.get(param)
    if raw is None:
        ctx.target  # noqa: B018 -- as in `_parent`
        raise bad(f"{param} is required")
    acc = ctx.state.select(ctx.me, raw, param)
    if acc.account_type != kind:
        raise bad(f"{param} must select {'an' if kind[0] in 'aeiou' else 'a'} {kind} account")
    return acc


# ---------------------------------------------------------------------------- deletes


def _body_id(body: dict[str, Any], key: str) -> int:
    value = body.get(key)
    if isinstance(value, str):
        parsed = parse_int(key, value.strip())
        if parsed is not None:
            return parsed
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    raise bad(f"{key} is required (an account id)")


def _remove(ctx: Ctx, acc: Account) -> None:
    st = ctx.state
    del st.accounts[acc.id]
    for token, record in list(st.tokens.items()):
        if record.get("userId") == acc.id:
            del st.tokens[token]  # its keys stop at once
    # A member restricted to it keeps the id, which names nothing now: it loses that
    # account, not its restriction (an emptied list would mean every account).
    for store in (st.live, st.staging, st.versions, st.sip, st.webhooks, st.relays, st.adr,
                  st.recordings, st.sessions, st.files, st.task_limits,
                  st.sip_trunk):  # fmt: skip
        store.pop(acc.id, None)
    # Its tasks go too, a running one's work stopped (as a task's delete does).
    for task_id in [k for k, task in st.outbound.items() if task["accountId"] == acc.id]:
        del st.outbound[task_id]


async def delete_account(ctx: Ctx) -> tuple[int, dict[str, Any]]:
    org = _parent(ctx, "targetOrganizationId", "organization")
    body = await ctx.json()
    account_id = _body_id(body, "targetAccountId")
    acc = ctx.state.accounts.get(account_id)
    if acc is None or acc.parent_id != org.id or acc.account_type != "account":
        raise SimError(404, "Account not found in this organization")
    _remove(ctx, acc)
    ctx.state.tree_changed()
    return 201, {"success": True, "message": "Account deleted"}


async def delete_organization(ctx: Ctx) -> tuple[int, dict[str, Any]]:
    reseller = _parent(ctx, "targetResellerId", "reseller")
    body = await ctx.json()
    org_id = _body_id(body, "targetOrganizationId")
    org = ctx.state.accounts.get(org_id)
    if org is None or org.parent_id != reseller.id or org.account_type != "organization":
        raise SimError(404, "Organization not found under this reseller")
    children = ctx.state.children(org.id)
    for member in children:
        if member.id == ctx.me.id:
            raise bad("You cannot delete the organization your own key belongs to")
    for child in children:  # agent accounts, Computer Agents and members alike
        _remove(ctx, child)
    _remove(ctx, org)
    ctx.state.tree_changed()
    return 201, {"success": True, "message": "Organization deleted"}


# ---------------------------------------------------------------------------- lookup


async def account_by_external_id(ctx: Ctx) -> dict[str, Any]:
    ctx.target  # noqa: B018 -- a sent targetAccountId is checked as on every route
    wanted = (ctx.query.get("externalAccountId") or "").strip()
    if not wanted:
        raise bad("externalAccountId is required")
    st = ctx.state
    not_found = SimError(404, f"Account not found for externalAccountId {wanted}")
    partner_or_reseller = st.reach(ctx.me).rule in (1, 2) and not ctx.me.permitted_ids
    if not (partner_or_reseller or ctx.me.super_admin):
        raise not_found  # "Reseller/Partner only": the caller lacks access (choice 47)
    for acc in st.with_external_id(wanted):
        if st.can_target(ctx.me, acc):
            return {"success": True, "message": "Success", "account": acc.summary()}
    raise not_found


ROUTES = [
    # The parents are named in target<Level>Id: `_parent` checks them.
    route("/createReseller", create_reseller, "POST", acts=False),
    route("/createOrganization", create_organization, "POST", acts=False),
    route("/createAccount", create_account, "POST", acts=False),
    route("/updateAccount", update_account, "POST"),
    route("/updateOrganization", update_organization, "POST", acts=False),
    route("/deleteAccount", delete_account, "DELETE", acts=False),
    route("/deleteOrganization", delete_organization, "DELETE", acts=False),
    route("/getAccountByExternalId", account_by_external_id, "GET", acts=False),
]
