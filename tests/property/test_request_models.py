"""Every request model: invalid values refused with a message, valid ones shaped as the spec says.

The valid cases are also sent through `PlatformClient` to a simulator: exactly one
request goes out, its body is the model's ``wire()``, and the simulator accepts it.
The invalid cases never reach the client's transport (nothing is sent).
"""

from __future__ import annotations

import asyncio
import ipaddress
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from tests.property import strategies as s
from vagent_tui.api.requests import (
    AdrExportConfig,
    MigrationRequest,
    RecordingStartRequest,
    SipEntryRequest,
    TitleRequest,
    TokenRequest,
    UploadRequest,
    WebhookRequest,
)
from vagent_tui.services.connect import demo_client

FAST = settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))


def refused(build: Any) -> str:
    """The message of the refusal (ValidationError is a ValueError)."""
    with pytest.raises(ValueError) as info:
        build()
    error = info.value
    message = str(error.errors()[0]["msg"]) if isinstance(error, ValidationError) else str(error)
    assert message.strip()
    return message


def sent(call: Any, token: str = "demo-partner") -> Any:
    """Run ``call(client)`` on a fresh simulator; return the one request it logged."""

    async def go() -> Any:
        client = demo_client(token)
        sim = client.sim_app.state.sim
        sim.clear_log()
        try:
            await call(client)
        finally:
            await client.aclose()
        writes = [r for r in sim.requests if r.method != "GET"]
        assert len(writes) == 1, writes
        return writes[0]

    return asyncio.run(go())


# --------------------------------------------------------------------------- ADR export

adr_valid = st.fixed_dictionaries(
    {
        "delivery_protocol": st.sampled_from(["sftp", "ftps", "ftp", "SFTP", " Ftps "]),
        "rotation_minutes": st.integers(1, 1440).flatmap(
            lambda n: st.sampled_from([n, str(n), f" {n} ", f"0{n}"])
        ),
        "host": st.tuples(s.spaces, s.hosts, s.spaces).map("".join),
        "port": st.integers(1, 65535),
        "username": st.tuples(s.words, s.spaces).map("".join),
        "password": st.text(min_size=1, max_size=30).filter(lambda p: p.strip()),
        "path": st.none() | st.just("") | s.paths,
    }
)


def adr_expected(v: dict[str, Any]) -> dict[str, Any]:
    body = {
        "deliveryProtocol": v["delivery_protocol"].strip().lower(),
        "rotationMinutes": str(int(str(v["rotation_minutes"]).strip())),
        "host": v["host"].strip(),
        "port": v["port"],
        "username": v["username"].strip(),
        "password": v["password"],
    }
    if v["path"] and v["path"].strip():
        body["path"] = v["path"].strip()
    return body


@FAST
@given(values=adr_valid)
def test_adr_valid_is_wired_as_the_spec_shapes_it(values: dict[str, Any]) -> None:
    config = AdrExportConfig(**values)
    assert config.wire() == adr_expected(values)
    assert "password" not in repr(config) or values["password"] not in repr(config)


BAD_ROTATIONS = ["0", "-5", "", "abc", "1.5", "+60", "٦٠", True, None]
BAD_HOSTS = ["", "bad host", "-a.com", "300.1.1.1", "a" * 254, "[::1]", "a..b"]
adr_breakers = st.one_of(
    st.tuples(st.just("delivery_protocol"), st.text(max_size=6).filter(
        lambda p: p.strip().lower() not in ("sftp", "ftps", "ftp"))),
    st.tuples(st.just("rotation_minutes"), st.sampled_from(BAD_ROTATIONS)),
    st.tuples(st.just("host"), st.sampled_from(BAD_HOSTS)),
    st.tuples(st.just("port"), st.sampled_from([0, 65536, -1, "x", None, 1.5])),
    st.tuples(st.just("username"), s.spaces),
    st.tuples(st.just("password"), s.spaces),
    st.tuples(st.just("unknown_field"), st.just("x")),
)  # fmt: skip


@FAST
@given(values=adr_valid, breaker=adr_breakers)
def test_adr_invalid_is_refused_with_a_message(
    values: dict[str, Any], breaker: tuple[str, Any]
) -> None:
    name, bad = breaker
    refused(lambda: AdrExportConfig(**{**values, name: bad}))


@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
@given(values=adr_valid)
def test_adr_valid_reaches_the_simulator_as_wired(values: dict[str, Any]) -> None:
    config = AdrExportConfig(**values)
    request = sent(lambda c: c.set_adr_export(config))
    assert request.status == 200
    assert request.body == {**config.wire(), "password": "***"}  # the sim log masks it


# --------------------------------------------------------------------------- SIP


@FAST
@given(ip=s.ips, pad=s.spaces, label=s.labels)
def test_sip_valid(ip: str, pad: str, label: str) -> None:
    request = SipEntryRequest(ip=pad + ip.upper() + pad, label=label)
    assert request.wire() == {"ip": str(ipaddress.ip_address(ip)), "label": label.strip()}


@FAST
@given(ip=s.bad_ips | st.integers() | st.none())
def test_sip_invalid(ip: Any) -> None:
    refused(lambda: SipEntryRequest(ip=ip))


@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
@given(ip=s.ips, label=s.labels)
def test_sip_valid_reaches_the_simulator(ip: str, label: str) -> None:
    wire = SipEntryRequest(ip=ip, label=label).wire()
    request = sent(lambda c: c.add_sip_entry(ip, label))
    assert (request.status, request.body) == (201, wire)


# --------------------------------------------------------------------------- webhooks


@FAST
@given(url=s.urls, kind=s.webhook_types, label=s.labels, pad=s.spaces)
def test_webhook_valid(url: str, kind: str, label: str, pad: str) -> None:
    request = WebhookRequest(url=pad + url + pad, type=kind, label=label)  # type: ignore[arg-type]  # the strategy's str: pydantic checks it
    assert request.wire() == {"url": url, "label": label.strip(), "type": kind}


@FAST
@given(url=s.urls, kind=s.webhook_types, bad_url=s.bad_urls, bad_kind=s.bad_webhook_types,
       which=st.booleans())  # fmt: skip
def test_webhook_invalid(url: str, kind: str, bad_url: str, bad_kind: str, which: bool) -> None:
    if which:
        refused(lambda: WebhookRequest(url=bad_url, type=kind))  # type: ignore[arg-type]  # the strategy's str: pydantic checks it
    else:
        refused(lambda: WebhookRequest(url=url, type=bad_kind))  # type: ignore[arg-type]  # the strategy's str: pydantic checks it


@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
@given(url=s.urls, kind=s.webhook_types, label=s.labels)
def test_webhook_valid_reaches_the_simulator(url: str, kind: str, label: str) -> None:
    wire = WebhookRequest(url=url, type=kind, label=label).wire()  # type: ignore[arg-type]  # the strategy's str: pydantic checks it
    request = sent(lambda c: c.add_webhook(url, kind, label))
    assert (request.status, request.body) == (201, wire)


# --------------------------------------------------------------------------- tokens, titles


@FAST
@given(description=s.descriptions)
def test_token_valid(description: str) -> None:
    wire = TokenRequest(description=description).wire()
    assert wire == {"type": "admin", "description": description.strip()}


@FAST
@given(description=s.bad_descriptions, kind=st.sampled_from(["admin", "", " "]))
def test_token_invalid(description: Any, kind: str) -> None:
    refused(lambda: TokenRequest(type=kind, description=description))
    refused(lambda: TokenRequest(type="", description="ok"))


@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))
@given(description=s.descriptions)
def test_token_valid_reaches_the_simulator(description: str) -> None:
    wire = TokenRequest(description=description).wire()
    request = sent(lambda c: c.create_token(description))
    assert (request.status, request.body) == (200, wire)


@FAST
@given(title=s.titles)
def test_title_valid(title: str) -> None:
    assert TitleRequest(title=title).wire() == {"title": title.strip()}


@FAST
@given(title=s.bad_titles | st.integers() | st.none())
def test_title_invalid(title: Any) -> None:
    refused(lambda: TitleRequest(title=title))


# --------------------------------------------------------------------------- computer agents


@FAST
@given(slot=st.integers(0, 10**6))
def test_slot_valid(slot: int) -> None:
    assert RecordingStartRequest(slot_id=slot).wire() == {"slotId": slot}
    assert RecordingStartRequest(slot_id=str(slot)).wire() == {"slotId": slot}  # type: ignore[arg-type]  # the strategy's str: pydantic checks it


@FAST
@given(slot=st.integers(max_value=-1) | st.sampled_from([True, False, "x", "", None, 1.5, "1.5"]))
def test_slot_invalid(slot: Any) -> None:
    refused(lambda: RecordingStartRequest(slot_id=slot))


@FAST
@given(path=s.upload_paths, mode=st.none() | st.just("") | s.modes, overwrite=st.booleans())
def test_upload_valid(path: str, mode: str | None, overwrite: bool) -> None:
    wire = UploadRequest(path=path, mode=mode, overwrite=overwrite).wire()
    assert wire == {"path": path, "overwrite": overwrite, "mode": mode or None}


@FAST
@given(path=s.upload_paths, bad_path=s.bad_upload_paths, bad_mode=s.bad_modes, which=st.booleans())
def test_upload_invalid(path: str, bad_path: str, bad_mode: str, which: bool) -> None:
    if which:
        refused(lambda: UploadRequest(path=bad_path))
    else:
        refused(lambda: UploadRequest(path=path, mode=bad_mode))


@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
@given(path=s.upload_paths.filter(lambda p: p.split("/")[0] not in (".system", "public")
                                  and p.lower() not in ("agents.md", "settings.json",
                                                         "instructions.md", "heartbeat.md")),
       mode=st.none() | s.modes)  # fmt: skip
def test_upload_valid_reaches_the_simulator(path: str, mode: str | None) -> None:
    request = sent(lambda c: c.upload_file(1118, "new/" + path, b"data", mode=mode))
    assert request.status == 200, request


# --------------------------------------------------------------------------- migrations


@FAST
@given(dry=st.booleans(), force=st.booleans(), sections=st.lists(s.words, max_size=4))
def test_migration_valid(dry: bool, force: bool, sections: list[str]) -> None:
    wire = MigrationRequest(
        dry_run=dry, force_migrate_overridden_fields=force, sections_to_migrate=sections
    ).wire()
    expected: dict[str, Any] = {"dryRun": dry, "forceMigrateOverriddenFields": force}
    if sections:
        expected["sectionsToMigrate"] = sections
    assert wire == expected
    assert MigrationRequest().wire() == {"dryRun": True, "forceMigrateOverriddenFields": False}


@FAST
@given(
    field=st.sampled_from(
        ["dry_run", "force_migrate_overridden_fields", "sections_to_migrate", "x"]
    ),
    value=st.sampled_from(["maybe", 2, None, [1], {"a": 1}, "yes please"]),
)
def test_migration_invalid(field: str, value: Any) -> None:
    if field == "sections_to_migrate" and value is None:
        value = "not a list"
    refused(lambda: MigrationRequest(**{field: value}))
