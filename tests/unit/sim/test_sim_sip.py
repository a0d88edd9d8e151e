"""SIP outbound routes and registrations: each rule and refusal, through the client
against the simulator (CONTRACT choices 80 to 89)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from vagent_tui.api import sip_models as s
from vagent_tui.api.errors import ApiError
from vagent_tui.services.connect import SimClient, demo_client
from vagent_tui.sim.hostile import KEY_PAYLOAD, plant_keys

PARTNER, AGENT, EVEN_AGENT = 1000, 1111, 1112


@pytest.fixture
async def client() -> AsyncIterator[SimClient]:
    c = demo_client("demo-partner")
    yield c
    await c.aclose()


def trunk(client: SimClient, account: int) -> dict[str, Any]:
    held: dict[str, Any] = client.sim_app.state.sim.sip_trunk[account]
    return held


def reg(aor: str = "", password: str = "pw-1234", **fields: Any) -> s.SipRegistrationRequest:
    return s.SipRegistrationRequest(aor=aor, password=password, **fields)


async def test_routes_add_list_remove(client: SimClient) -> None:
    seeded = await client.list_sip_routes(target=PARTNER)
    assert seeded == trunk(client, PARTNER)["routes"] and len(seeded) == 2
    added = await client.add_sip_route("pbx.example.com:5070;transport=tcp", target=PARTNER)
    assert added.message == "Route added successfully"
    assert added.routes is not None and added.routes[-1] == "pbx.example.com:5070;transport=tcp"
    removed = await client.delete_sip_route(seeded[0], target=PARTNER)
    assert removed.message == "Route removed successfully"
    assert await client.list_sip_routes(target=PARTNER) == [
        seeded[1],
        "pbx.example.com:5070;transport=tcp",
    ]


async def test_a_route_equal_to_a_held_one_with_the_defaults_is_409(client: SimClient) -> None:
    assert "203.0.113.1:5060;transport=udp" in trunk(client, PARTNER)["routes"]
    for same in ("203.0.113.1", "203.0.113.1;transport=UDP"):
        with pytest.raises(ApiError) as again:
            await client.add_sip_route(same, target=PARTNER)
        assert (again.value.status, again.value.message) == (409, "Route already exists")
    await client.add_sip_route("203.0.113.1;transport=tcp", target=PARTNER)  # another


@pytest.mark.parametrize(
    "body",
    [{}, {"route": ""}, {"route": 5}, {"route": "a b"}, {"route": "h;transport=tls"},
     {"route": "h;color=red"}, {"route": "h:0"}, {"route": "h;proxyAddress=bad host"}],
)  # fmt: skip
async def test_a_route_that_is_none_is_400(client: SimClient, body: dict[str, Any]) -> None:
    with pytest.raises(ApiError) as refused:
        await client.request("POST", "/sip/outboundRoutes", json=body)
    assert refused.value.status == 400


async def test_removing_a_route_not_held_is_404_and_the_delete_has_a_body(
    client: SimClient,
) -> None:
    with pytest.raises(ApiError) as gone:
        await client.delete_sip_route("nowhere.example.com", target=PARTNER)
    assert (gone.value.status, gone.value.message) == (404, "Route not found")
    with pytest.raises(ApiError) as bodiless:
        await client.request("DELETE", "/sip/outboundRoutes", target=PARTNER)
    assert bodiless.value.status == 400


async def test_a_planted_route_is_listed_and_removed_as_it_is(client: SimClient) -> None:
    plant_keys(client.sim_app.state.sim)
    [hostile, *_] = await client.list_sip_routes(target=PARTNER)
    assert KEY_PAYLOAD in hostile
    await client.delete_sip_route(hostile, target=PARTNER)
    assert hostile not in trunk(client, PARTNER)["routes"]


async def test_registration_created_201_then_updated_200_never_served_a_password(
    client: SimClient,
) -> None:
    assert await client.get_sip_registration(target=EVEN_AGENT) is None
    made = await client.save_sip_registration(
        reg("2001@pbx.acme.example.com", transport="tls", port=5061), target=EVEN_AGENT
    )
    assert made == s.RegistrationSaved(True, "Registration created successfully")
    again = await client.save_sip_registration(
        reg("2001@pbx.acme.example.com", "other-pw"), target=EVEN_AGENT
    )
    assert again == s.RegistrationSaved(False, "Registration updated successfully")
    read = await client.get_sip_registration(target=EVEN_AGENT)
    assert read is not None and read.aor == "2001@pbx.acme.example.com"
    assert "password" not in read.wire() and "other-pw" not in repr(read)
    logged = [r.body for r in client.sim_app.state.sim.requests if r.method == "POST"]
    assert all(b.get("password") == "***" for b in logged if "password" in b)


async def test_the_aor_of_another_account_is_unavailable_and_a_409(client: SimClient) -> None:
    held = trunk(client, AGENT)["registration"]["aor"]
    own = await client.check_sip_aor(s.AorQuery(aor=held), target=AGENT)
    assert own.available is True
    taken = await client.check_sip_aor(s.AorQuery(aor=held.upper()), target=EVEN_AGENT)
    assert taken.available is False and held.upper() in taken.message
    built = await client.check_sip_aor(
        s.AorQuery(username="7001", sip_realm="pbx.free.example.com"), target=EVEN_AGENT
    )
    assert built.available is True
    with pytest.raises(ApiError) as duplicate:
        await client.save_sip_registration(reg(held), target=EVEN_AGENT)
    assert duplicate.value.status == 409 and held in duplicate.value.message


async def test_missing_aor_details_and_an_unreachable_registrar(client: SimClient) -> None:
    with pytest.raises(ApiError) as missing:
        await client.request("POST", "/sip/registration/available", json={"username": "1"},
                             target=EVEN_AGENT)  # fmt: skip
    assert missing.value.status == 400
    with pytest.raises(ApiError) as gateway:
        await client.save_sip_registration(reg("9@pbx.down.invalid"), target=EVEN_AGENT)
    assert gateway.value.status == 502 and "did not answer" in gateway.value.message
    assert trunk(client, EVEN_AGENT)["registration"] is None


async def test_a_registration_is_an_agents_and_deleting_twice_is_404(client: SimClient) -> None:
    with pytest.raises(ApiError) as not_agent:
        await client.get_sip_registration(target=PARTNER)
    assert not_agent.value.status == 400
    deleted = await client.delete_sip_registration(target=AGENT)
    assert deleted.message == "Registration deleted successfully"
    with pytest.raises(ApiError) as gone:
        await client.delete_sip_registration(target=AGENT)
    assert gone.value.status == 404


@pytest.mark.parametrize(
    "change",
    [{"password": ""}, {"password": None}, {"port": 0}, {"port": "5060"}, {"transport": "SCTP"},
     {"subscribe": "yes"}, {"proxy": "bad host"}, {"aor": "no-at-sign"}],
)  # fmt: skip
async def test_a_registration_refused_field_by_field(
    client: SimClient, change: dict[str, Any]
) -> None:
    body = {"aor": "3001@pbx.example.com", "password": "pw-1234", **change}
    with pytest.raises(ApiError) as refused:
        await client.request("POST", "/sip/registration", json=body, target=EVEN_AGENT)
    assert refused.value.status == 400
