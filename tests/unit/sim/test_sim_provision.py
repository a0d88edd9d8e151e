"""Provisioning (routes_provision.py): create, update, delete, find by external id."""

from __future__ import annotations

from typing import Any

import pytest

from .helpers import Sim, envelope


async def _create_account(sim: Sim, org: int = 1120, token: str = "demo-reseller",
                          **body: Any) -> Any:  # fmt: skip
    params = {"targetOrganizationId": str(org)}
    return await sim.call("POST", "/createAccount", token, params=params, json=body)


async def test_create_each_level_and_see_it_in_the_lists(sim: Sim) -> None:
    body = {"resellerName": "Orbit Voice", "resellerStatus": "disabled"}
    r = await sim.call("POST", "/createReseller", params={"targetPartnerId": "1000"}, json=body)
    assert r.status_code == 201, r.text
    reseller = r.json()["reseller"]
    assert reseller["accountType"] == "reseller" and reseller["active"] is False
    assert r.json()["organization"] == reseller  # the reference's key too
    rid = reseller["id"]
    r = await sim.call("POST", "/createOrganization", params={"targetResellerId": str(rid)},
                       json={"orgName": "Orbit Clinic", "externalAccountId": "crm-1",
                             "accountName": "Orbit Front Desk"})  # fmt: skip
    assert r.status_code == 201, r.text
    org = r.json()["organization"]
    assert org["externalAccountId"] == "crm-1" and org["parentId"] == rid
    r = await sim.call("GET", "/listAccounts", params={"targetOrganizationId": str(org["id"])})
    assert [a["name"] for a in r.json()["accounts"]] == ["Orbit Front Desk"]  # accountName
    r = await _create_account(sim, org["id"], "demo-partner", accountName="Orbit Nights",
                              externalBillingId="bill-9")  # fmt: skip
    assert r.status_code == 201, r.text
    agent = r.json()["account"]
    assert agent["organizationId"] == org["id"] and agent["resellerId"] == rid
    assert agent["externalBillingId"] == "bill-9" and "externalAccountId" not in agent
    # Every screen reads it: its configuration, the search.
    target = {"targetAccountId": str(agent["id"])}
    r = await sim.call("GET", "/agentEventRules/default", params=target)
    assert r.status_code == 200
    r = await sim.call("GET", "/searchAccounts", params={"queryText": "orbit nights"})
    assert [a["id"] for a in r.json()["accounts"]] == [agent["id"]]


async def test_ids_are_never_given_twice(sim: Sim) -> None:
    first = (await _create_account(sim, accountName="One")).json()["account"]["id"]
    r = await sim.call("DELETE", "/deleteAccount", "demo-reseller",
                       params={"targetOrganizationId": "1120"},
                       json={"targetAccountId": str(first)})  # fmt: skip
    assert r.status_code == 201
    second = (await _create_account(sim, accountName="Two")).json()["account"]["id"]
    assert second > first


async def test_create_refusals(sim: Sim) -> None:
    r = await _create_account(sim, 1110, "demo-other", accountName="x")
    envelope(r, 403)  # outside the key's tree
    r = await _create_account(sim, 1100, accountName="x")
    envelope(r, 400, "targetOrganizationId must select an organization account")
    r = await sim.call("POST", "/createAccount", params={}, json={})
    envelope(r, 400, "targetOrganizationId is required")
    r = await _create_account(sim, 1110, "demo-member", accountName="x")
    envelope(r, 403)
    r = await sim.call("POST", "/createOrganization", params={"targetResellerId": "1100"},
                       json={"orgName": "  "})  # fmt: skip
    envelope(r, 400, "orgName must not be empty")
    r = await sim.call("POST", "/createOrganization", params={"targetResellerId": "1100"},
                       json={"orgName": "X", "orgAccountType": "vip"})  # fmt: skip
    envelope(r, 400, "orgAccountType must be one of internal, customer")
    r = await _create_account(sim, accountName="x", integrations=[{"appId": "a"}])
    envelope(r, 400)
    before = len(sim.state.accounts)
    assert (await _create_account(sim, externalAccountId="dup")).status_code == 201
    r = await _create_account(sim, 1210, "demo-partner", externalAccountId="dup")
    envelope(r, 409, "externalAccountId is already used by another account")
    r = await _create_account(sim, 9110, "demo-other", externalAccountId="dup")
    assert r.status_code == 201  # another partner's tree: its own ids
    assert len(sim.state.accounts) == before + 2


async def test_update_account_partial_success(sim: Sim) -> None:
    await _create_account(sim, accountName="Holder", externalAccountId="taken")
    params = {"targetAccountId": "1121"}
    body = {"accountName": "Harbor Leads", "active": False, "externalAccountId": "taken",
            "externalBillingId": "b-1"}  # fmt: skip
    r = await sim.call("POST", "/updateAccount", "demo-reseller", params=params, json=body)
    assert r.status_code == 200, r.text
    reply = r.json()
    assert reply["updatedSettings"] == ["accountName", "active", "externalBillingId"]
    assert reply["failedSettings"] == ["externalAccountId"]
    assert reply["failedReasons"]["externalAccountId"] == "is already used by another account"
    acc = sim.state.accounts[1121]
    assert acc.name == "Harbor Leads" and acc.active is False and acc.external_billing_id == "b-1"
    assert acc.external_account_id is None
    # null removes; all failed -> 400 with the lists.
    r = await sim.call("POST", "/updateAccount", "demo-reseller", params=params,
                       json={"externalBillingId": None})  # fmt: skip
    assert r.status_code == 200 and acc.external_billing_id is None
    r = await sim.call("POST", "/updateAccount", "demo-reseller", params=params,
                       json={"accountName": " ", "plan": "x"})  # fmt: skip
    envelope(r, 400)
    assert r.json()["failedSettings"] == ["accountName", "plan"]
    assert r.json()["message"].startswith("No settings updated")
    r = await sim.call("POST", "/updateAccount", "demo-reseller", params=params,
                       json={"active": "no", "accountName": "Y"})  # fmt: skip
    envelope(r, 400, "active must be a boolean")
    assert acc.name == "Harbor Leads"  # a wrong type changes nothing


async def test_update_needs_a_reseller_key_and_an_agent(sim: Sim) -> None:
    params = {"targetAccountId": "1112"}
    r = await sim.call("POST", "/updateAccount", "demo-org", params=params, json={"active": False})
    envelope(r, 403, "Updating accounts needs a reseller or partner key")
    r = await sim.call("POST", "/updateAccount", "demo-reseller",
                       params={"targetAccountId": "1110"}, json={"active": False})  # fmt: skip
    envelope(r, 400)
    r = await sim.call("POST", "/updateAccount", params={}, json={"active": False})
    envelope(r, 400, "targetAccountId is required")


async def test_update_organization(sim: Sim) -> None:
    params = {"targetOrganizationId": "1120"}
    body = {"orgName": "Harbor Homes", "email": "bad", "hipaaSetting": "on"}
    r = await sim.call("POST", "/updateOrganization", "demo-reseller", params=params, json=body)
    assert r.status_code == 200, r.text
    assert r.json()["updatedSettings"] == ["orgName", "hipaaSetting"]
    assert r.json()["failedSettings"] == ["email"]
    assert sim.state.accounts[1120].name == "Harbor Homes"


async def test_delete_account_and_organization(sim: Sim) -> None:
    org = {"targetResellerId": "1100"}
    for aid in (1121, 1122):
        r = await sim.call("DELETE", "/deleteAccount", params={"targetOrganizationId": "1120"},
                           json={"targetAccountId": aid})  # fmt: skip
        assert r.status_code == 201, r.text
    r = await sim.call("DELETE", "/deleteAccount", params={"targetOrganizationId": "1120"},
                       json={"targetAccountId": 1121})  # fmt: skip
    envelope(r, 404)  # already gone
    assert 1121 not in sim.state.accounts and 1121 not in sim.state.live
    r = await sim.call("DELETE", "/deleteOrganization", params=org,
                       json={"targetOrganizationId": 1120})  # fmt: skip
    assert r.status_code == 201, r.text
    assert 1120 not in sim.state.accounts
    r = await sim.call("GET", "/listOrganizations", params={"targetResellerId": "1100"})
    assert 1120 not in [a["id"] for a in r.json()["organizations"]]
    r = await sim.call("DELETE", "/deleteAccount", "demo-member",
                       params={"targetOrganizationId": "1110"},
                       json={"targetAccountId": 1112})  # fmt: skip
    envelope(r, 403)
    r = await sim.call("DELETE", "/deleteAccount", params={"targetOrganizationId": "1110"},
                       json={})  # fmt: skip
    envelope(r, 400)


async def test_deleting_an_organization_takes_its_members_and_their_keys(sim: Sim) -> None:
    rid = {"targetResellerId": "1100"}
    r = await sim.call("POST", "/createOrganization", params=rid, json={"orgName": "Temp"})
    oid = r.json()["organization"]["id"]
    r = await sim.call("POST", "/member", params={"targetAccountId": str(oid)},
                       json={"email": "a@temp.test"})  # fmt: skip
    member = r.json()["member"]["id"]
    r = await sim.call("DELETE", "/deleteOrganization", params=rid,
                       json={"targetOrganizationId": str(oid)})  # fmt: skip
    assert r.status_code == 201
    assert member not in sim.state.accounts


async def test_deleting_an_organization_takes_everything_under_it_at_once(sim: Sim) -> None:
    """The reference: "Delete (immediately)", no conflict named: its agent accounts,
    Computer Agent, members, their keys, tasks and limits go with it."""
    st = sim.state
    r = await sim.call("POST", "/agent/outboundCall", json={"target": "+15551230001"},
                       params={"targetAccountId": 1111})  # fmt: skip
    assert r.status_code == 200, r.text
    r = await sim.call("POST", "/tasks/limits", json={"cooldowns": {"calls": 5}},
                       params={"targetAccountId": 1110})  # fmt: skip
    assert r.status_code == 200, r.text
    under = [a.id for a in st.children(1110)]
    assert {1111, 1112, 1113, 1118, 1119, 1117} <= set(under)
    r = await sim.call("DELETE", "/deleteOrganization", params={"targetResellerId": "1100"},
                       json={"targetOrganizationId": 1110})  # fmt: skip
    assert r.status_code == 201, r.text
    assert not [aid for aid in (1110, *under) if aid in st.accounts]
    gone = {1110, *under}
    assert not [t for t in st.outbound.values() if t["accountId"] in gone]  # seeded ones stay
    assert 1110 not in st.task_limits and 1118 not in st.files
    assert (await sim.get("/account", "demo-agent")).status_code == 401  # its keys stopped
    assert (await sim.get("/account", "demo-member")).status_code == 401


@pytest.mark.parametrize("token", ["demo-org", "demo-agent", "demo-org-user"])
async def test_find_by_external_id_is_reseller_partner_only(sim: Sim, token: str) -> None:
    """The reference: "Reseller/Partner only"; its 404 is "No account found OR caller
    lacks access": another key is answered 404, even for an account of its own."""
    await sim.call("POST", "/updateAccount", "demo-reseller", params={"targetAccountId": "1111"},
                   json={"externalAccountId": "crm-own"})  # fmt: skip
    r = await sim.call("GET", "/getAccountByExternalId", token,
                       params={"externalAccountId": "crm-own"})  # fmt: skip
    envelope(r, 404, "Account not found for externalAccountId crm-own")
    for key in ("demo-reseller", "demo-partner", "demo-partner-user"):
        r = await sim.call("GET", "/getAccountByExternalId", key,
                           params={"externalAccountId": "crm-own"})  # fmt: skip
        assert r.status_code == 200 and r.json()["account"]["id"] == 1111, key


async def test_find_by_external_id_within_reach(sim: Sim) -> None:
    made = (await _create_account(sim, externalAccountId="crm-77")).json()["account"]
    r = await sim.call("GET", "/getAccountByExternalId", "demo-reseller",
                       params={"externalAccountId": "crm-77"})  # fmt: skip
    assert r.status_code == 200 and r.json()["account"]["id"] == made["id"]
    r = await sim.call("GET", "/getAccountByExternalId", "demo-org",
                       params={"externalAccountId": "crm-77"})  # fmt: skip
    envelope(r, 404, "Account not found for externalAccountId crm-77")  # not its tree
    r = await sim.call("GET", "/getAccountByExternalId", params={})
    envelope(r, 400, "externalAccountId is required")


async def test_find_by_external_id_follows_an_id_changed_or_removed(sim: Sim) -> None:
    """The lookup's index is dropped whenever an id is set, removed or an account goes."""

    async def found(external_id: str) -> int | None:
        r = await sim.call("GET", "/getAccountByExternalId", "demo-reseller",
                           params={"externalAccountId": external_id})  # fmt: skip
        return r.json()["account"]["id"] if r.status_code == 200 else None

    made = (await _create_account(sim, externalAccountId="crm-1")).json()["account"]["id"]
    assert await found("crm-1") == made
    params = {"targetAccountId": str(made)}
    r = await sim.call("POST", "/updateAccount", "demo-reseller", params=params,
                       json={"externalAccountId": "crm-2"})  # fmt: skip
    assert r.status_code == 200, r.text
    assert await found("crm-1") is None and await found("crm-2") == made
    # the old id is free again: another account may take it
    other = (await _create_account(sim, externalAccountId="crm-1")).json()["account"]["id"]
    assert await found("crm-1") == other
    await sim.call("POST", "/updateAccount", "demo-reseller", params=params,
                   json={"externalAccountId": None})  # fmt: skip
    assert await found("crm-2") is None
    r = await sim.call("DELETE", "/deleteAccount", "demo-reseller",
                       params={"targetOrganizationId": "1120"},
                       json={"targetAccountId": str(other)})  # fmt: skip
    assert r.status_code == 201, r.text
    assert await found("crm-1") is None
