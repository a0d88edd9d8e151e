"""ADR export, SIP whitelist, webhooks and the five outcomes of a relay delete."""

from __future__ import annotations

from typing import Any

import pytest

from .helpers import FakeClock, Sim, envelope

ADR = {"deliveryProtocol": "sftp", "rotationMinutes": "60", "host": "files.example.com",
       "port": 2202, "username": "adr", "password": "s3cret", "path": "/incoming"}  # fmt: skip
PREMIUM = "Webhook Relay is a premium feature. Please upgrade your account to use it."


async def test_adr_export_saves(sim: Sim) -> None:
    r = await sim.call("POST", "/billing/adrExportConfig", "demo-org", json=ADR)
    assert r.status_code == 200 and r.json()["success"] is True
    assert sim.state.adr[1110]["host"] == "files.example.com"
    no_path = {k: v for k, v in ADR.items() if k != "path"}
    no_path["deliveryProtocol"] = "FTPS"
    r = await sim.call("POST", "/billing/adrExportConfig", "demo-reseller", json=no_path)
    assert r.status_code == 200 and sim.state.adr[1100]["deliveryProtocol"] == "ftps"


@pytest.mark.parametrize(
    "change",
    [
        {"deliveryProtocol": "scp"},
        {"rotationMinutes": 60},
        {"rotationMinutes": "sixty"},
        {"port": 0},
        {"port": "22"},
        {"port": True},
        {"host": "not a host"},
        {"host": None},
        {"username": ""},
        {"password": 123},
    ],
)
async def test_adr_export_rejects_bad_fields(sim: Sim, change: dict[str, Any]) -> None:
    envelope(await sim.call("POST", "/billing/adrExportConfig", json={**ADR, **change}), 400)


async def test_adr_export_level_and_body(sim: Sim) -> None:
    envelope(await sim.call("POST", "/billing/adrExportConfig", "demo-agent", json=ADR), 403)
    envelope(await sim.call("POST", "/billing/adrExportConfig", content=b"not json"), 400)
    envelope(await sim.call("POST", "/billing/adrExportConfig"), 400)


async def test_sip_whitelist_cycle(sim: Sim) -> None:
    r = await sim.call("POST", "/sip/ipWhitelist", "demo-agent",
                       json={"ip": "192.0.2.10", "label": "Lab"})  # fmt: skip
    assert r.status_code == 201 and r.json()["message"] == "IP entry created successfully"
    listed = (await sim.get("/sip/ipWhitelist", "demo-agent")).json()["whitelist"]
    entry = next(e for e in listed if e["ip"] == "192.0.2.10")
    assert entry["label"] == "Lab" and entry["userId"] == 1111
    envelope(await sim.call("POST", "/sip/ipWhitelist", "demo-agent", json={"ip": "192.0.2.10"}),
             409)  # fmt: skip
    r = await sim.call("DELETE", "/sip/ipWhitelist", "demo-agent", json={"ip": "192.0.2.10"})
    assert r.json() == {"success": True, "message": "IP entry deleted successfully"}
    listed = (await sim.get("/sip/ipWhitelist", "demo-agent")).json()["whitelist"]
    assert "192.0.2.10" not in {e["ip"] for e in listed}
    envelope(await sim.call("DELETE", "/sip/ipWhitelist", "demo-agent",
                            json={"ip": "192.0.2.10"}), 404)  # fmt: skip


@pytest.mark.parametrize("body", [{"ip": "300.1.1.1"}, {"ip": 5}, {}, {"ip": "::g"}])
async def test_sip_bad_ip(sim: Sim, body: dict[str, Any]) -> None:
    envelope(await sim.call("POST", "/sip/ipWhitelist", json=body), 400)
    envelope(await sim.call("DELETE", "/sip/ipWhitelist", json=body), 400)


async def test_sip_ipv6(sim: Sim) -> None:
    r = await sim.call("POST", "/sip/ipWhitelist", json={"ip": "2001:db8::42"})
    assert r.status_code == 201


async def test_webhooks_cycle(sim: Sim) -> None:
    hook = {"url": "https://example.com/hook", "label": "Mine", "type": "agent"}
    r = await sim.call("POST", "/webhooks", "demo-agent", json=hook)
    assert r.status_code == 201 and r.json()["message"] == "Webhook created successfully"
    hooks = (await sim.get("/webhooks", "demo-agent")).json()["webhooks"]
    assert any(h["url"] == hook["url"] and h["type"] == "agent" for h in hooks)
    envelope(await sim.call("POST", "/webhooks", "demo-agent", json=hook), 409)
    r = await sim.call("DELETE", "/webhooks", "demo-agent", json={"url": hook["url"]})
    assert r.json() == {"success": True, "message": "Webhook deleted successfully"}
    hooks = (await sim.get("/webhooks", "demo-agent")).json()["webhooks"]
    assert hook["url"] not in {h["url"] for h in hooks}
    envelope(await sim.call("DELETE", "/webhooks", "demo-agent", json={"url": hook["url"]}), 404)


@pytest.mark.parametrize(
    "body",
    [
        {"url": "ftp://x.example.com", "type": "agent"},
        {"url": "https://x.example.com", "type": "billing"},
        {"url": "not a url", "type": "agent"},
        {"type": "agent"},
        {"url": ["https://x.example.com"], "type": "agent"},
    ],
)
async def test_webhook_bad_input(sim: Sim, body: dict[str, Any]) -> None:
    envelope(await sim.call("POST", "/webhooks", json=body), 400)


async def test_relay_types_and_configs(sim: Sim) -> None:
    types = (await sim.get("/webhookRelay/types", "demo-member")).json()["types"]
    assert {"twilioSMS", "chargebee"} <= {t["name"] for t in types}
    configs = (await sim.get("/webhookRelay", "demo-agent")).json()["configs"]
    assert {"type", "url", "timeout", "headers", "successStatusCodes"} <= configs[0].keys()
    one = (await sim.get("/webhookRelay/twilioSMS", "demo-agent")).json()
    assert one["config"]["type"] == "twilioSMS"
    envelope(await sim.get("/webhookRelay", "demo-partner", targetAccountId=1112), 403, PREMIUM)


async def test_relay_delete_five_outcomes(sim: Sim) -> None:
    r = await sim.call("DELETE", "/webhookRelay/twilioSMS", "demo-agent")
    assert r.status_code == 200
    assert r.json() == {
        "success": True,
        "message": "Webhook Relay type 'twilioSMS' removed successfully.",
    }
    configs = (await sim.get("/webhookRelay", "demo-agent")).json()["configs"]
    assert "twilioSMS" not in {c["type"] for c in configs}
    envelope(await sim.call("DELETE", "/webhookRelay/twilioSMS", "demo-agent"), 404,
             "Webhook Relay type 'twilioSMS' was not configured.")  # fmt: skip
    envelope(await sim.call("DELETE", "/webhookRelay/%20", "demo-agent"), 400,
             "type path parameter is required and must be a string")  # fmt: skip
    envelope(await sim.call("DELETE", "/webhookRelay", "demo-agent"), 400,
             "type path parameter is required and must be a string")  # fmt: skip
    envelope(await sim.call("DELETE", "/webhookRelay/chargebee", "bad-token"), 401,
             "Unauthorized Request")  # fmt: skip
    envelope(await sim.call("DELETE", "/webhookRelay/chargebee", "demo-partner",
                            params={"targetAccountId": 1112}), 403, PREMIUM)  # fmt: skip
    envelope(await sim.call("DELETE", "/webhookRelay/legacyCrm", "demo-agent"), 500,
             "Internal error")  # fmt: skip
    # the broken one stays
    configs = (await sim.get("/webhookRelay", "demo-agent")).json()["configs"]
    assert "legacyCrm" in {c["type"] for c in configs}


async def test_relay_save_then_delete(sim: Sim) -> None:
    body = {"url": "https://relay.example.com/stripe", "timeout": 5000,
            "headers": [{"X-A": "1"}, {"X-A": "2"}], "successStatusCodes": [200]}  # fmt: skip
    r = await sim.call("POST", "/webhookRelay/stripe", "demo-agent", json=body)
    assert r.status_code == 200 and r.json()["config"]["timeout"] == 5000
    assert r.json()["message"] == "Webhook Relay for type 'stripe' configured successfully."
    one = (await sim.get("/webhookRelay/stripe", "demo-agent")).json()["config"]
    assert one["headers"] == [{"X-A": "1"}, {"X-A": "2"}]  # as sent, repeats kept
    r = await sim.call("DELETE", "/webhookRelay/stripe", "demo-agent")
    assert r.status_code == 200
    envelope(await sim.call("POST", "/webhookRelay/stripe", "demo-agent",
                            json={**body, "timeout": "5s"}), 400)  # fmt: skip
    envelope(await sim.call("POST", "/webhookRelay/stripe", "demo-member", json=body), 403)


async def test_relay_headers_are_an_array_of_single_key_objects(sim: Sim) -> None:
    """The published shape (api-facts): ``[{"Authorization": "Bearer xyz"}]``."""
    configs = (await sim.get("/webhookRelay", "demo-agent")).json()["configs"]
    for config in configs:
        assert isinstance(config["headers"], list)
        assert all(isinstance(h, dict) and len(h) == 1 for h in config["headers"])
    one = (await sim.get("/webhookRelay/twilioSMS", "demo-agent")).json()["config"]
    assert one["headers"] == [{"X-Relay-Source": "vida"}]


@pytest.mark.parametrize(
    "headers",
    [
        {"Authorization": "Bearer xyz"},  # one object: not the published shape
        [{"A": "1", "B": "2"}],
        [{}],
        ["Authorization: Bearer xyz"],
        [{"A": 1}],
        [{"": "x"}],
        "Authorization: Bearer xyz",
    ],
)
async def test_relay_headers_of_another_shape_are_400(sim: Sim, headers: object) -> None:
    body = {"url": "https://relay.example.com/stripe", "headers": headers}
    r = await sim.call("POST", "/webhookRelay/stripe", "demo-agent", json=body)
    envelope(r, 400, "headers must be an array of single-key objects")


@pytest.mark.parametrize("method", ["GET", "POST", "DELETE"])
async def test_unknown_relay_type_is_404_not_supported(sim: Sim, method: str) -> None:
    body = {"url": "https://relay.example.com/pager"} if method == "POST" else None
    r = await sim.call(method, "/webhookRelay/pager", "demo-agent", json=body)
    envelope(r, 404, "Webhook Relay type 'pager' is not supported.")


async def test_sip_and_webhook_timestamps_are_numbers_in_seconds(
    sim: Sim, clock: FakeClock
) -> None:
    """api-facts: a number (epoch seconds, as the published example 1678829072)."""
    clock.now = 1_800_000_123.75
    await sim.call("POST", "/sip/ipWhitelist", json={"ip": "192.0.2.44"})
    hook = {"url": "https://example.com/stamp", "type": "agent"}
    await sim.call("POST", "/webhooks", json=hook)
    entries = (await sim.get("/sip/ipWhitelist")).json()["whitelist"]
    hooks = (await sim.get("/webhooks")).json()["webhooks"]
    for record in entries + hooks:
        stamp = record["timestamp"]
        assert isinstance(stamp, int) and not isinstance(stamp, bool), record
        assert 1_600_000_000 < stamp < 2_000_000_000  # seconds, not milliseconds
    assert next(e for e in entries if e["ip"] == "192.0.2.44")["timestamp"] == 1_800_000_123
    assert next(h for h in hooks if h["url"] == hook["url"])["timestamp"] == 1_800_000_123
