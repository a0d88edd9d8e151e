"""Members (routes_members.py): the list, one member, invite, change, remove, refusals."""

from __future__ import annotations

from typing import Any

import pytest

from .helpers import Sim, envelope

ORG = {"targetAccountId": "1110"}


def _ids(sim: Sim, org: int = 1110) -> list[int]:
    return sorted(a.id for a in sim.state.children(org) if a.account_type == "user")


async def test_members_of_an_organization_and_of_an_agent_account(sim: Sim) -> None:
    r = await sim.call("GET", "/members", params=ORG)
    assert r.status_code == 200
    members = r.json()["members"]
    assert [m["id"] for m in members] == [1117, 1119]
    dana = members[1]
    assert dana["permittedAccountIds"] == [1112, 1113] and dana["role"] == "member"
    assert dana["status"] == "active" and dana["email"].endswith("@example.com")
    r = await sim.call("GET", "/members", params={"targetAccountId": "1112"})
    assert [m["id"] for m in r.json()["members"]] == [1117, 1119]  # the agent's organization


async def test_a_restricted_member_reads_through_a_permitted_account_only(sim: Sim) -> None:
    r = await sim.call("GET", "/members", "demo-member", params={"targetAccountId": "1112"})
    assert r.status_code == 200
    r = await sim.call("GET", "/members", "demo-member")
    assert r.status_code == 403


async def test_one_member(sim: Sim) -> None:
    r = await sim.call("GET", "/member", params={**ORG, "targetMemberId": "1119"})
    assert r.status_code == 200 and r.json()["member"]["name"] == "Dana Whitfield"
    r = await sim.call("GET", "/member", params={**ORG, "targetMemberId": "1111"})
    envelope(r, 404, "Member not found")
    r = await sim.call("GET", "/member", params=ORG)
    envelope(r, 400)


async def test_invite_then_change_then_remove(sim: Sim) -> None:
    body = {"email": "New.Admin@acme.test", "role": "member", "permittedAccountIds": [1111],
            "redirectUrl": "https://acme.test/welcome", "sendWelcomeEmail": False}  # fmt: skip
    r = await sim.call("POST", "/member", json=body, params=ORG)
    assert r.status_code == 201 and r.json()["message"] == "Invitation sent"
    member = r.json()["member"]
    assert member["email"] == "new.admin@acme.test" and member["status"] == "invited"
    assert member["permittedAccountIds"] == [1111]
    new_id = member["id"]
    assert new_id in _ids(sim)
    r = await sim.call("PUT", "/member", json={"targetMemberId": new_id, "permittedAccountIds": []},
                       params=ORG)  # fmt: skip
    assert r.status_code == 201 and r.json()["member"]["permittedAccountIds"] == []
    assert sim.state.accounts[new_id].permitted_ids is None
    r = await sim.call("PUT", "/member", json={"targetMemberId": new_id, "role": "admin",
                                               "email": "boss@acme.test"}, params=ORG)  # fmt: skip
    assert r.json()["member"]["role"] == "admin" and r.json()["member"]["email"] == "boss@acme.test"
    r = await sim.call("DELETE", "/member", json={"targetMemberId": new_id}, params=ORG)
    assert r.status_code == 201 and new_id not in _ids(sim)
    r = await sim.call("DELETE", "/member", json={"targetMemberId": new_id}, params=ORG)
    envelope(r, 404, "Member not found")


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({}, 400),
        ({"email": "not-an-email"}, 400),
        ({"email": "a@b.test", "role": "owner"}, 400),
        ({"email": "a@b.test", "permittedAccountIds": [1121]}, 400),  # another organization
        ({"email": "a@b.test", "permittedAccountIds": [1117]}, 400),  # a user, not an agent
        ({"email": "a@b.test", "permittedAccountIds": "1111"}, 400),
        ({"email": "a@b.test", "redirectUrl": "ftp://x"}, 400),
        ({"email": "sam.okafor@example.com"}, 409),
    ],
)
async def test_invite_refusals(sim: Sim, body: dict[str, Any], status: int) -> None:
    before = _ids(sim)
    r = await sim.call("POST", "/member", json=body, params=ORG)
    envelope(r, status)
    assert _ids(sim) == before


async def test_a_restricted_member_may_not_change_members(sim: Sim) -> None:
    r = await sim.call("POST", "/member", "demo-member", json={"email": "x@y.test"},
                       params={"targetAccountId": "1112"})  # fmt: skip
    envelope(r, 403, "A member restricted to accounts cannot change members")


async def test_the_last_unrestricted_admin_stays(sim: Sim) -> None:
    r = await sim.call("DELETE", "/member", "demo-org-user", json={"targetMemberId": 1117})
    envelope(r, 400, "You cannot remove yourself")
    r = await sim.call("DELETE", "/member", json={"targetMemberId": 1117}, params=ORG)
    envelope(r, 409)
    r = await sim.call("PUT", "/member", json={"targetMemberId": 1117, "role": "member"},
                       params=ORG)  # fmt: skip
    envelope(r, 409)
    r = await sim.call("DELETE", "/member", json={"targetMemberId": 1119}, params=ORG)
    assert r.status_code == 201 and 1119 not in _ids(sim)


# ---------------------------------------------------------------- one-time login (48, 49)

LOGIN = "/auth/account/oneTimeAuthToken"


async def test_a_login_token_for_a_member_adds_nobody(sim: Sim) -> None:
    sim.state.accounts[1110].external_account_id = "crm-acme"
    before = _ids(sim)
    params = {"email": "Dana.Whitfield@example.com", "externalAccountId": "crm-acme"}
    r = await sim.call("GET", LOGIN, "demo-reseller", params=params)
    assert r.status_code == 200
    reply = r.json()
    assert reply["authToken"].startswith("ott_") and len(reply["authToken"]) == 36
    assert reply["memberAdded"] is False and _ids(sim) == before
    again = await sim.call("GET", LOGIN, "demo-reseller", params=params)
    assert again.json()["authToken"] != reply["authToken"]  # new at every call
    assert len(sim.state.issued_logins) == 2
    assert reply["authToken"] not in sim.state.issued_logins  # a hash, never the value


async def test_an_unknown_email_with_an_external_id_becomes_a_member(sim: Sim) -> None:
    sim.state.accounts[1112].external_account_id = "crm-spanish"  # an agent: its organization
    params = {"email": "new.owner@acme.test", "customerId": "crm-spanish"}
    r = await sim.call("GET", LOGIN, "demo-reseller", params=params)
    assert r.status_code == 200 and r.json()["memberAdded"] is True
    [new] = [a for a in sim.state.children(1110) if a.email == "new.owner@acme.test"]
    assert new.role == "admin" and not new.permitted_ids and not new.invited


async def test_login_refusals(sim: Sim) -> None:
    r = await sim.call("GET", LOGIN, "demo-org", params={"email": "sam.okafor@example.com"})
    envelope(r, 403, "Reseller/Partner account required")
    r = await sim.call("GET", LOGIN, "demo-reseller")
    envelope(r, 400, "email is required")
    r = await sim.call("GET", LOGIN, "demo-reseller", params={"email": "nobody@acme.test"})
    envelope(r, 404, "Account not found for key: nobody@acme.test")
    params = {"email": "x@acme.test", "externalAccountId": "no-such-id"}
    r = await sim.call("GET", LOGIN, "demo-reseller", params=params)
    envelope(r, 404)
    r = await sim.call("GET", LOGIN, "demo-reseller", params={"email": "sam.okafor@example.com"})
    assert r.status_code == 200 and r.json()["memberAdded"] is False
