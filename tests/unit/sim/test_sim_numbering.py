"""Numbering providers in the simulator (routes_numbering.py, numbering.py; CONTRACT
95-99). The seed: Acme Dental Group (1110) has Twilio, default and enabled."""

from __future__ import annotations

from typing import Any

import pytest

from .helpers import Sim, envelope

ORG: dict[str, Any] = {"targetOrganizationId": 1110}
TELNYX = {"providerId": "Telnyx", "config": {"apiKey": "k-SECRET", "connectionId": "c1"}}


async def _providers(sim: Sim) -> dict[str, dict[str, Any]]:
    r = await sim.get("/numberingProviders", **ORG)
    assert r.status_code == 200, r.text
    return {p["providerId"]: p for p in r.json()["numberingProviders"]}


async def _send(sim: Sim, method: str, body: Any, token: str = "demo-partner") -> Any:
    return await sim.call(method, "/numberingProvider", token, params=ORG, json=body)


async def test_the_list_is_every_supported_provider_without_credentials(sim: Sim) -> None:
    providers = await _providers(sim)
    assert list(providers) == ["Twilio", "Telnyx", "Bandwidth"]
    twilio = providers["Twilio"]
    assert twilio["configured"] and twilio["default"] and twilio["enabled"]
    assert twilio["config"] == {"accountSid": "********", "authToken": "********"}
    assert providers["Telnyx"] == {"providerId": "Telnyx", "name": "Telnyx",
                                   "configFields": ["apiKey", "connectionId"],
                                   "configured": False}  # fmt: skip


async def test_add_then_move_the_default_then_disable(sim: Sim) -> None:
    assert (await _send(sim, "POST", TELNYX)).json()["message"] == "Numbering provider added"
    envelope(await _send(sim, "POST", TELNYX), 400, "Numbering provider already exists")
    assert (await _send(sim, "PUT", {"providerId": "Telnyx", "default": True})).status_code == 200
    providers = await _providers(sim)
    assert providers["Telnyx"]["default"] and not providers["Twilio"]["default"]
    r = await _send(sim, "PUT", {"providerId": "Twilio", "enabled": False})
    assert r.status_code == 200 and not (await _providers(sim))["Twilio"]["enabled"]
    logged = [r.body for r in sim.state.requests if r.method == "POST"]
    assert logged[0]["config"] == {"apiKey": "***", "connectionId": "***"}
    assert "k-SECRET" not in str(logged)


async def test_both_spellings_of_a_credential_key_are_taken(sim: Sim) -> None:
    body = {"providerId": "Twilio", "config": {"twilioAuthToken": "new", "accountSid": "AC2"}}
    assert (await _send(sim, "PUT", body)).status_code == 200
    assert sim.state.numbering[1110]["Twilio"]["config"] == {"accountSid": "AC2",
                                                             "authToken": "new"}  # fmt: skip


@pytest.mark.parametrize(
    ("method", "body", "status", "message"),
    [
        ("POST", {"providerId": "Nope", "config": {}}, 400, "Unknown numbering provider: Nope"),
        ("POST", {"providerId": "Telnyx"}, 400, "config is required"),
        ("POST", {"providerId": "Telnyx", "config": {"apiKey": "k"}}, 400,
         "config.connectionId is required"),
        ("POST", {"providerId": "Telnyx", "config": {"secret": "k"}}, 400,
         "config.secret is not a Telnyx credential (apiKey, connectionId)"),
        ("POST", {**TELNYX, "default": True, "enabled": False}, 400,
         "The default numbering provider must be enabled"),
        ("PUT", {"providerId": "Telnyx", "enabled": True}, 404, "Numbering provider not found"),
        ("PUT", {"providerId": "Twilio", "default": False}, 400,
         "Only one numbering provider can be set as default: make another the default"),
        ("PUT", {"providerId": "Twilio", "enabled": False}, 400,
         "The default numbering provider must be enabled"),
        ("PUT", {"providerId": "Twilio", "enabled": "no"}, 400, "enabled must be true or false"),
    ],
)  # fmt: skip
async def test_what_is_refused(
    sim: Sim, method: str, body: dict[str, Any], status: int, message: str
) -> None:
    before = repr(sim.state.numbering)
    envelope(await _send(sim, method, body), status, message)
    assert repr(sim.state.numbering) == before


@pytest.mark.parametrize("token", ["demo-org", "demo-agent"])
async def test_only_a_reseller_or_partner_key_is_answered(sim: Sim, token: str) -> None:
    message = "Numbering providers require a reseller or partner account"
    envelope(await sim.get("/numberingProviders", token, **ORG), 403, message)
    envelope(await _send(sim, "POST", TELNYX, token), 403, message)


async def test_a_write_names_its_organization(sim: Sim) -> None:
    r = await sim.call("POST", "/numberingProvider", json=TELNYX)
    envelope(r, 400, "targetOrganizationId is required")
    r = await sim.call("POST", "/numberingProvider", params={"targetOrganizationId": 1111},
                       json=TELNYX)  # fmt: skip
    envelope(r, 400, "targetOrganizationId must select an organization account")
    assert await sim.get("/numberingProviders", "demo-reseller")  # a reseller: none configured
