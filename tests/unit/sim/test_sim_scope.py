"""The spec's scope rules at every route: rule 5 (permittedAccountIds) and user-shaped keys.

The member 1119 (``demo-member``) is restricted to 1112 and 1113 (rule 5): it acts on
nothing else, neither its organization 1110 nor the organization's other accounts, and
a request without ``targetAccountId`` acts on nothing (only the account read describes
the key owner). User-shaped keys get the scope the rules give them, whatever their
``accountType``: ``demo-partner-user`` (rule 1), ``demo-reseller-user`` (rule 2),
``demo-org-user`` (rule 4).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from vagent_tui.sim import create_app
from vagent_tui.sim.app import api_routes

from .helpers import API, Sim, envelope

OUTSIDE = "Target account is outside your hierarchy"
NOT_PERMITTED = "Target account is not one of this key's permitted accounts (permittedAccountIds)"
RESTRICTED = (
    "This key is restricted to its permitted accounts (permittedAccountIds): send targetAccountId"
)

# Path parameters filled with what the member may NOT act on (1111 and 1118 are in its
# organization, outside its permitted list).
_FILL = {
    "agentConfigId": "cfg-1111",
    "versionId": "1",
    "type": "twilioSMS",
    "templateId": "tpl-dental-reception",
    "taskId": "task-1",
    "targetAccountId": "1118",
    "roomId": "1111:1",
    "productPlanId": "pro",
    "integrationSlug": "crm",
    "integrationVersion": "v1",
}


def _api_routes() -> list[tuple[str, str]]:
    out = []
    for r in api_routes(create_app()):
        if not r.path.startswith(API) or not r.methods:
            continue
        path = re.sub(r"\{(\w+)\}", lambda m: _FILL[m.group(1)], r.path.removeprefix(API))
        out += [(method, path) for method in sorted(r.methods - {"HEAD"})]
    return out


ROUTES = _api_routes()
# Only these answer a member that names no target: the account read describes the key
# owner, and the relay types are a catalog that belongs to no account.
DESCRIBE_OWNER = {("GET", "/account"), ("GET", "/webhookRelay/types")}


def test_every_route_is_covered() -> None:
    assert len(ROUTES) >= 45
    assert ("POST", "/tokens") in ROUTES and ("GET", "/agent/cfg-1111") in ROUTES


@pytest.mark.parametrize(("method", "path"), ROUTES)
async def test_member_targeting_a_non_permitted_account_is_refused_everywhere(
    sim: Sim, method: str, path: str
) -> None:
    """Its organization, or an agent of it outside the list: 403 at every route.

    Itself too, except where a read describes the key owner.
    """
    targets = (1110, 1111) if (method, path) in DESCRIBE_OWNER else (1110, 1111, 1119)
    for target in targets:
        query = {} if path.startswith("/computer/accounts/") else {"targetAccountId": target}
        r = await sim.call(method, path, "demo-member", params=query, json={})
        envelope(r, 403, NOT_PERMITTED)


@pytest.mark.parametrize(("method", "path"), [r for r in ROUTES if r not in DESCRIBE_OWNER])
async def test_member_without_target_acts_on_nothing(sim: Sim, method: str, path: str) -> None:
    r = await sim.call(method, path, "demo-member", json={})
    envelope(r, 403)
    assert r.json()["message"] in (RESTRICTED, NOT_PERMITTED)


async def test_member_cannot_do_what_the_issue_found(sim: Sim) -> None:
    """Select its organization, create a token there, read 1111, list the org's tokens."""
    envelope(await sim.get("/account", "demo-member", targetAccountId=1110), 403, NOT_PERMITTED)
    before = set(sim.state.tokens)
    r = await sim.call("POST", "/tokens", "demo-member", params={"targetAccountId": 1110},
                       json={"type": "admin", "description": "mine now"})  # fmt: skip
    envelope(r, 403, NOT_PERMITTED)
    assert set(sim.state.tokens) == before
    envelope(await sim.get("/agent/cfg-1111", "demo-member"), 403, NOT_PERMITTED)
    r = await sim.get("/tokens", "demo-member", targetAccountId=1110)
    envelope(r, 403, NOT_PERMITTED)
    assert "demo-org" not in r.text and "sk_1110_" not in r.text
    envelope(await sim.get("/tokens", "demo-member"), 403, RESTRICTED)


async def test_member_acts_on_its_permitted_accounts(sim: Sim) -> None:
    me = (await sim.get("/account", "demo-member")).json()
    assert me["id"] == 1119 and me["permittedAccountIds"] == [1112, 1113]
    assert (await sim.get("/account", "demo-member", targetAccountId=1112)).json()["id"] == 1112
    tokens = (await sim.get("/tokens", "demo-member", targetAccountId=1112)).json()["tokens"]
    assert tokens and {t["userId"] for t in tokens} == {1112}
    assert (await sim.get("/agent/cfg-1112", "demo-member")).status_code == 200
    staging = await sim.get("/agentEventRules/default", "demo-member", targetAccountId=1113)
    assert staging.json()["campaign"]["id"] == "cfg-1113"
    r = await sim.call("POST", "/sip/ipWhitelist", "demo-member",
                       params={"targetAccountId": 1113}, json={"ip": "192.0.2.9"})  # fmt: skip
    assert r.status_code == 201
    found = (await sim.get("/searchAccounts", "demo-member", targetAccountId=1112)).json()
    assert [a["id"] for a in found["accounts"]] == [1112]


async def test_member_cannot_list_its_organization(sim: Sim) -> None:
    """The console reads the permitted accounts one by one instead."""
    r = await sim.get("/listAccounts", "demo-member", targetOrganizationId=1110)
    envelope(r, 403, NOT_PERMITTED)
    envelope(await sim.get("/listAccounts", "demo-member"), 403, RESTRICTED)
    envelope(await sim.get("/searchAccounts", "demo-member", accountType="account"), 403)


async def test_unknown_ids_are_refused_alike_for_a_member(sim: Sim) -> None:
    """No difference between an id of another tree, an unknown id and a sibling."""
    for target in (9111, 424242, 1111):
        envelope(await sim.get("/account", "demo-member", targetAccountId=target), 403,
                 NOT_PERMITTED)  # fmt: skip


# ---------------------------------------------------------------------- user-shaped keys


@pytest.mark.parametrize(
    ("token", "aid", "fields"),
    [
        ("demo-partner-user", 1001, {"organizationId": 1000, "partnerId": 1000}),
        ("demo-reseller-user", 1101, {"organizationId": 1100, "resellerId": 1100}),
        ("demo-org-user", 1117, {"organizationId": 1110, "permittedAccountIds": []}),
    ],
)
async def test_user_keys_describe_themselves(
    sim: Sim, token: str, aid: int, fields: dict[str, Any]
) -> None:
    body = (await sim.get("/account", token)).json()
    assert body["id"] == aid and body["accountType"] == "user"
    assert {k: body[k] for k in fields} == fields
    assert {k: body["details"][k] for k in fields} == fields


@pytest.mark.parametrize(
    ("token", "target", "ok"),
    [
        ("demo-partner-user", 1000, True),  # rule 1: the partner and all below it
        ("demo-partner-user", 1200, True),
        ("demo-partner-user", 1322, True),
        ("demo-partner-user", 9111, False),
        ("demo-reseller-user", 1100, True),  # rule 2: the reseller and all below it
        ("demo-reseller-user", 1122, True),
        ("demo-reseller-user", 1211, False),
        ("demo-reseller-user", 1000, False),
        ("demo-org-user", 1110, True),  # rule 4, not restricted: the whole organization
        ("demo-org-user", 1111, True),
        ("demo-org-user", 1118, True),
        ("demo-org-user", 1121, False),
        ("demo-org-user", 1100, False),
    ],
)
async def test_user_keys_delegate_by_the_rules(sim: Sim, token: str, target: int, ok: bool) -> None:
    r = await sim.get("/account", token, targetAccountId=target)
    if ok:
        assert r.status_code == 200 and r.json()["id"] == target
    else:
        envelope(r, 403, OUTSIDE)


async def test_user_keys_act_as_themselves_and_name_their_scope_account(sim: Sim) -> None:
    """Without ``targetAccountId`` a request acts on the key owner, a user like any other;
    the account its rule names is reached by naming it, like every delegation."""
    tokens = (await sim.get("/tokens", "demo-org-user")).json()["tokens"]
    assert {t["userId"] for t in tokens} == {1117}
    tokens = (await sim.get("/tokens", "demo-org-user", targetAccountId=1110)).json()["tokens"]
    assert {t["userId"] for t in tokens} == {1110}
    resellers = await sim.get("/listResellers", "demo-partner-user", targetPartnerId=1000)
    assert [r["id"] for r in resellers.json()["resellers"]] == [1100, 1200, 1300]
    envelope(await sim.get("/listResellers", "demo-partner-user"), 400)  # a user lists nothing
    envelope(await sim.get("/templates", "demo-reseller-user"), 403)  # a user is no reseller
    templates = await sim.get("/templates", "demo-reseller-user", targetAccountId=1100)
    assert {t["id"] for t in templates.json()["templates"]} >= {"tpl-dental-reception"}
    accounts = await sim.get("/listAccounts", "demo-org-user", targetOrganizationId=1110)
    assert [a["id"] for a in accounts.json()["accounts"]] == [1111, 1112, 1113, 1118]
    assert (await sim.get("/agent/cfg-1322", "demo-partner-user")).status_code == 200
    envelope(await sim.get("/agent/cfg-1211", "demo-reseller-user"), 403, OUTSIDE)


async def test_rules_follow_the_fields_not_the_account_type(sim: Sim) -> None:
    """The member without its list is an organization admin (rule 4); a user whose
    organizationId is its reseller's id is a reseller admin (rule 2)."""
    member = sim.state.accounts[1119]
    member.permitted_ids = None
    assert (await sim.get("/account", "demo-member", targetAccountId=1111)).status_code == 200
    envelope(await sim.get("/account", "demo-member", targetAccountId=1121), 403, OUTSIDE)
    member.organization_id = 1100  # == its resellerId: rule 2
    assert (await sim.get("/account", "demo-member", targetAccountId=1121)).status_code == 200
    member.organization_id = None  # a user with no organization: no rule matches
    envelope(await sim.get("/account", "demo-member", targetAccountId=1111), 403, OUTSIDE)
    assert (await sim.get("/account", "demo-member")).json()["id"] == 1119
