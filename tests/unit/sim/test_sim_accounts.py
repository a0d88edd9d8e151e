"""Auth, delegation, permittedAccountIds, account reads, child lists, search, tokens."""

from __future__ import annotations

import pytest

from vagent_tui.sim import DEMO_TOKENS

from .helpers import Sim, envelope

OUTSIDE = "Target account is outside your hierarchy"
NOT_PERMITTED = "Target account is not one of this key's permitted accounts (permittedAccountIds)"


@pytest.mark.parametrize(
    ("token", "kind", "aid"),
    [
        ("demo-partner", "partner", 1000),
        ("demo-reseller", "reseller", 1100),
        ("demo-org", "organization", 1110),
        ("demo-agent", "account", 1111),
        ("demo-member", "user", 1119),
        ("demo-other", "partner", 9000),
        ("demo-partner-user", "user", 1001),
        ("demo-reseller-user", "user", 1101),
        ("demo-org-user", "user", 1117),
    ],
)
async def test_demo_tokens_describe_their_accounts(
    sim: Sim, token: str, kind: str, aid: int
) -> None:
    r = await sim.get("/account", token)
    assert r.status_code == 200
    body = r.json()
    assert body["success"] is True
    assert body["id"] == aid == DEMO_TOKENS[token]
    assert body["accountType"] == body["details"]["accountType"] == kind
    for key in ("organizationId", "partnerId", "resellerId", "permittedAccountIds"):
        assert body[key] == body["details"][key]
    assert {"name", "email", "createdAt"} <= body["details"].keys()


async def test_member_scope_fields(sim: Sim) -> None:
    body = (await sim.get("/account", "demo-member")).json()
    assert body["organizationId"] == 1110
    assert body["permittedAccountIds"] == [1112, 1113]
    org = (await sim.get("/account", "demo-org")).json()
    assert org["organizationId"] == 1110
    assert org["permittedAccountIds"] == []


@pytest.mark.parametrize("token", [None, "", "nope", "DEMO-PARTNER"])
async def test_missing_or_unknown_token_is_401(sim: Sim, token: str | None) -> None:
    envelope(await sim.get("/account", token), 401, "Unauthorized Request")


async def test_401_comes_before_input_checks(sim: Sim) -> None:
    r = await sim.call("POST", "/tokens", "nope", content=b"{broken")
    envelope(r, 401, "Unauthorized Request")


@pytest.mark.parametrize(
    ("token", "target", "ok"),
    [
        ("demo-partner", 1000, True),
        ("demo-partner", 1100, True),
        ("demo-partner", 1322, True),
        ("demo-partner", 9111, False),
        ("demo-reseller", 1111, True),
        ("demo-reseller", 1211, False),
        ("demo-reseller", 1000, False),
        ("demo-org", 1112, True),
        ("demo-org", 1121, False),
        ("demo-agent", 1111, True),
        ("demo-agent", 1112, False),
        ("demo-agent", 1110, False),
        ("demo-member", 1112, True),
        ("demo-member", 1113, True),
        # Rule 5: the member acts on its permitted accounts only, not its organization.
        ("demo-member", 1110, False),
        ("demo-member", 1111, False),
        ("demo-member", 1118, False),
        ("demo-other", 9111, True),
        ("demo-other", 1000, False),
        ("demo-partner", 424242, False),
    ],
)
async def test_delegation(sim: Sim, token: str, target: int, ok: bool) -> None:
    r = await sim.get("/account", token, targetAccountId=target)
    if ok:
        assert r.status_code == 200
        assert r.json()["id"] == target
    else:
        envelope(r, 403, NOT_PERMITTED if token == "demo-member" else OUTSIDE)


async def test_targeted_read_describes_target_without_changing_owner(sim: Sim) -> None:
    r = await sim.get("/account", "demo-partner", targetAccountId=1111)
    assert r.json()["accountType"] == "account"
    assert r.json()["organizationId"] == 1110
    assert (await sim.get("/account", "demo-partner")).json()["id"] == 1000


@pytest.mark.parametrize("raw", ["abc", "1.5", "", "true"])
async def test_bad_target_id_is_400(sim: Sim, raw: str) -> None:
    envelope(await sim.get("/account", "demo-partner", targetAccountId=raw), 400)


async def test_child_lists(sim: Sim) -> None:
    r = (await sim.get("/listResellers", targetPartnerId=1000)).json()
    assert r["totalResellers"] == 3 and len(r["resellers"]) == 3
    assert {"id", "parentId", "vidaPremium", "computerAgent"} <= r["resellers"][0].keys()
    r = (await sim.get("/listOrganizations", targetResellerId=1100)).json()
    assert [o["id"] for o in r["organizations"]] == [1110, 1120]
    r = (await sim.get("/listAccounts", targetOrganizationId=1110)).json()
    assert [a["id"] for a in r["accounts"]] == [1111, 1112, 1113, 1118]
    # defaults to the key's own level
    r = (await sim.get("/listOrganizations", "demo-reseller")).json()
    assert r["totalOrganizations"] == 2


async def test_child_list_paging(sim: Sim) -> None:
    r = (await sim.get("/listResellers", pagination="true", page=1, pageSize=2)).json()
    assert r["totalResellers"] == 3
    assert r["pageNumber"] == 1 and r["pageSize"] == 2
    assert [x["id"] for x in r["resellers"]] == [1300]
    r = (await sim.get("/listResellers", pagination="true", page=9, pageSize=2)).json()
    assert r["resellers"] == [] and r["totalResellers"] == 3


async def test_child_list_errors(sim: Sim) -> None:
    envelope(await sim.get("/listResellers", "demo-reseller"), 400)
    envelope(await sim.get("/listResellers", targetPartnerId=1100), 400)
    envelope(await sim.get("/listResellers", targetPartnerId=9000), 403, OUTSIDE)
    envelope(await sim.get("/listOrganizations", "demo-reseller", targetResellerId=1200), 403)
    envelope(await sim.get("/listResellers", pagination="yes"), 400)
    envelope(await sim.get("/listResellers", pagination="true", pageSize=0), 400)


async def test_member_lists_only_permitted_accounts(sim: Sim) -> None:
    """Not its organization's list (rule 5): each permitted account, as a target."""
    r = await sim.get("/listAccounts", "demo-member", targetOrganizationId=1110)
    envelope(r, 403, NOT_PERMITTED)
    envelope(await sim.get("/searchAccounts", "demo-member", targetAccountId=1110), 403)
    r = (await sim.get("/searchAccounts", "demo-member", targetAccountId=1113)).json()
    assert [a["id"] for a in r["accounts"]] == [1113]


async def test_search_accounts(sim: Sim) -> None:
    r = (await sim.get("/searchAccounts", accountType="account", queryText="acme")).json()
    assert r["success"] is True
    assert [a["id"] for a in r["accounts"]] == [1111, 1112, 1113, 1118]
    r = (await sim.get("/searchAccounts", "demo-other", queryText="acme")).json()
    assert r["totalAccounts"] == 0
    envelope(await sim.get("/searchAccounts", accountType="robot"), 400)


async def test_tokens_create_authenticates_at_once_and_delete_revokes(sim: Sim) -> None:
    r = await sim.call("POST", "/tokens", "demo-partner", params={"targetAccountId": 1111},
                       json={"type": "admin", "description": "CI"})  # fmt: skip
    assert r.status_code == 200
    body = r.json()
    assert body["message"] == "Token created successfully"
    record = body["token"]
    assert record["userId"] == 1111 and record["type"] == "admin"
    assert record["timestamp"].isdigit()
    new = record["token"]
    me = (await sim.get("/account", new)).json()
    assert me["id"] == 1111
    listed = (await sim.get("/tokens", "demo-agent")).json()["tokens"]
    assert new in {t["token"] for t in listed}
    r = await sim.call("DELETE", "/tokens", "demo-agent", json={"token": new})
    assert r.json() == {"success": True, "message": "Token deleted successfully"}
    envelope(await sim.get("/account", new), 401)
    envelope(await sim.call("DELETE", "/tokens", "demo-agent", json={"token": new}), 404)


@pytest.mark.parametrize(
    "body",
    [
        {"type": "admin"},
        {"description": "x"},
        {"type": 1, "description": "x"},
        {"type": "admin", "description": 5},
        {"type": "superuser", "description": "x"},
        [],
    ],
)
async def test_token_create_bad_input(sim: Sim, body: object) -> None:
    envelope(await sim.call("POST", "/tokens", json=body), 400)


async def test_token_of_another_account_cannot_be_deleted(sim: Sim) -> None:
    partner_tokens = (await sim.get("/tokens")).json()["tokens"]
    victim = partner_tokens[0]["token"]
    envelope(await sim.call("DELETE", "/tokens", "demo-agent", json={"token": victim}), 404)


async def test_search_accounts_keeps_to_the_keys_scope(sim: Sim) -> None:
    """The scope rules of every other route: below the selected account, within the
    key's reach, only a restricted member's permitted ids; a page and the whole count."""
    r = (await sim.get("/searchAccounts", "demo-reseller", queryText="lakeside")).json()
    assert r["totalAccounts"] == 0  # Lakeside is another reseller's
    r = (await sim.get("/searchAccounts", "demo-reseller", queryText="acme")).json()
    assert [a["id"] for a in r["accounts"]] == [1110, 1111, 1112, 1113, 1118]
    r = await sim.get("/searchAccounts", "demo-reseller", targetAccountId=1200, queryText="a")
    envelope(r, 403, OUTSIDE)
    # A user whose rule names partner 1000 searches below it by naming it; without a
    # target the search runs below the user itself.
    r = (await sim.get("/searchAccounts", "demo-partner-user", targetAccountId=1000,
                       queryText="metro")).json()  # fmt: skip
    assert [a["id"] for a in r["accounts"]] == [1220, 1221, 1222, 1228]
    assert (await sim.get("/searchAccounts", "demo-partner-user", queryText="metro")).json()[
        "accounts"
    ] == []
    r = (await sim.get("/searchAccounts", "demo-member", targetAccountId=1112,
                       queryText="acme")).json()  # fmt: skip
    assert [a["id"] for a in r["accounts"]] == [1112]
    r = (await sim.get("/searchAccounts", queryText="a", pagination="true", page=1,
                       pageSize=5)).json()  # fmt: skip
    assert r["pageNumber"] == 1 and len(r["accounts"]) == 5 and r["totalAccounts"] > 20
    assert r["accounts"][0]["parentId"] is not None


async def test_search_accounts_in_a_grown_fleet() -> None:
    import httpx

    from vagent_tui.sim import create_app

    app = create_app(accounts=100_000)
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://sim") as client:
        params: dict[str, str | int] = {
            "token": "demo-reseller", "queryText": "fleet agent", "pagination": "true",
            "page": 0, "pageSize": 3,
        }  # fmt: skip
        r = (await client.get("/api/v2/searchAccounts", params=params)).json()
        assert r["totalAccounts"] == 0  # the fleet grows below partner 1000 in its own resellers
        params["token"] = "demo-partner"
        r = (await client.get("/api/v2/searchAccounts", params=params)).json()
        assert r["totalAccounts"] == 100_000 - 13 and len(r["accounts"]) == 3


async def test_search_answers_as_each_account_is_asked(sim: Sim) -> None:
    """The index (choice 70) answers what asking every account's name and username does."""
    st = sim.state
    me = st.accounts[1000]
    for text in ("", "a", "acme", "ACME".lower(), "1111", "zzz", "e\x00a", "demo"):
        for kind in (None, "account", "organization"):
            r = (await sim.get("/searchAccounts", queryText=text, pageSize=500,
                               **({"accountType": kind} if kind else {}))).json()  # fmt: skip
            wanted = [a.id for a in st.selectable_below(me, me)
                      if (kind is None or a.account_type == kind)
                      and (text.strip().lower() in a.name.lower()
                           or text.strip().lower() in a.username.lower())]  # fmt: skip
            assert [a["id"] for a in r["accounts"]] == wanted[:500], (text, kind)
            assert r["totalAccounts"] == len(wanted)


async def test_search_finds_an_account_by_its_new_name(sim: Sim) -> None:
    """A name changed after a search is found by its new name, not its old one."""
    r = (await sim.get("/searchAccounts", queryText="acme dental")).json()
    assert 1111 in [a["id"] for a in r["accounts"]]
    params = {"targetAccountId": "1111"}
    body = {"accountName": "Harbor Leads"}
    r = await sim.call("POST", "/updateAccount", "demo-partner", params=params, json=body)
    assert r.status_code == 200, r.text
    r = (await sim.get("/searchAccounts", queryText="harbor lea")).json()
    assert [a["id"] for a in r["accounts"]] == [1111]
    r = (await sim.get("/searchAccounts", queryText="acme dental")).json()
    assert 1111 not in [a["id"] for a in r["accounts"]]
