"""SIP routes and registration in the client: the route's grammar, the registration's
request and replies, 201 told from 200, and the password kept out of every text."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from pydantic import ValidationError

from tests.unit.api.conftest import MakeClient
from vagent_tui.api import sip_models as s
from vagent_tui.api.errors import ApiError, ReadOnlyRefused
from vagent_tui.api.listeners import Exchange

from .helpers import Recorder, json_body, ok

PASSWORD = "Pw-9f8e!sEcReT"


@pytest.mark.parametrize(
    ("route", "parts"),
    [
        ("1.1.1.1", ("1.1.1.1", 5060, "udp", "", False, False)),
        ("sip.example.com:5070;transport=TCP", ("sip.example.com", 5070, "tcp", "", True, True)),
        ("[2001:db8::1]:5080;proxyAddress=proxy.example.com:5090",
         ("2001:db8::1", 5080, "udp", "proxy.example.com:5090", True, False)),
        (" h.example.com;proxyAddress=10.0.0.1 ", ("h.example.com", 5060, "udp", "10.0.0.1", False,
                                                   False)),
    ],
)  # fmt: skip
def test_a_route_read_into_its_parts(route: str, parts: tuple[Any, ...]) -> None:
    assert s.parse_route(route) == s.RouteParts(*parts)
    assert s.SipRouteRequest(route=route).wire() == {"route": route.strip()}


@pytest.mark.parametrize(
    ("route", "says"),
    [
        ("", "names a host"),
        ("sip example.com", "no spaces"),
        ("sip.example.com\x1b[2J", "control characters"),
        ("2001:db8::1", "brackets"),
        ("[2001:db8::1", "brackets"),
        ("300.1.1.1", "not a host name"),
        ("h.example.com:0", "1 to 65535"),
        ("h.example.com:70000", "1 to 65535"),
        ("h.example.com;transport=tls", "tcp or udp"),
        ("h.example.com;transport", "key=value"),
        ("h.example.com;transport=udp;transport=tcp", "twice"),
        ("h.example.com;lr=on", "unknown parameter"),
        ("h.example.com;proxyAddress=bad_host", "proxyAddress"),
    ],
)
def test_a_route_refused_with_what_is_wrong(route: str, says: str) -> None:
    with pytest.raises(ValidationError, match=says):
        s.SipRouteRequest(route=route)


def test_the_registration_request_hides_its_password_and_sends_what_is_set() -> None:
    request = s.SipRegistrationRequest(
        aor=" 1001@sip.example.com ", password=f" {PASSWORD} ", transport="tls", port=5061,
        subscribe=False,
    )  # fmt: skip
    assert PASSWORD not in repr(request) and PASSWORD not in str(request)
    assert request.wire() == {"aor": "1001@sip.example.com", "password": f" {PASSWORD} ",
                              "port": 5061, "transport": "TLS", "subscribe": False}  # fmt: skip
    built = s.SipRegistrationRequest(username="1001", sip_realm="sip.example.com", password="x")
    assert built.shown_aor == "1001@sip.example.com"


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"aor": "1001@sip.example.com", "password": "  "}, "password"),
        ({"aor": "1001@sip.example.com"}, "password"),
        ({"aor": "no-at", "password": "x"}, "aor"),
        ({"aor": "a@b.example.com", "password": "x", "port": 0}, "port"),
        ({"aor": "a@b.example.com", "password": "x", "transport": "SCTP"}, "transport"),
        ({"aor": "a@b.example.com", "password": "x", "proxy": "bad host"}, "proxy"),
        ({"username": "1001", "password": "x"}, ""),
    ],
)
def test_the_registration_request_refuses_at_its_field(fields: dict[str, Any], field: str) -> None:
    with pytest.raises(ValidationError) as refused:
        s.SipRegistrationRequest(**fields)
    assert {str(e["loc"][0]) if e["loc"] else "" for e in refused.value.errors()} == {field}
    assert PASSWORD not in str(refused.value)


def test_a_registration_read_drops_a_password_a_platform_sends() -> None:
    read = s.SipRegistration.model_validate({"aor": "a@b.example.com", "Password": PASSWORD})
    assert PASSWORD not in repr(read) and "Password" not in read.wire()


@pytest.mark.parametrize(("status", "created"), [(201, True), (200, False)])
async def test_save_tells_created_from_updated_and_journals_no_password(
    make_client: MakeClient, status: int, created: bool
) -> None:
    recorder = Recorder(ok({"success": True, "message": "done"}, status=status))
    client = make_client(recorder)
    heard: list[Exchange] = []
    client.observers.append(heard.append)
    request = s.SipRegistrationRequest(aor="1001@sip.example.com", password=PASSWORD)

    saved = await client.save_sip_registration(request, target=42)

    assert saved == s.RegistrationSaved(created, "done")
    assert json_body(recorder.last)["password"] == PASSWORD  # sent, as typed
    [exchange] = heard
    assert PASSWORD not in repr(exchange) and exchange.body["password"] == "***"


async def test_an_echoed_password_is_masked_in_the_error(make_client: MakeClient) -> None:
    echo = httpx.Response(409, json={"success": False, "message": f"Duplicate AOR ({PASSWORD})"})
    client = make_client(Recorder(echo))
    heard: list[Exchange] = []
    client.observers.append(heard.append)
    request = s.SipRegistrationRequest(aor="1001@sip.example.com", password=PASSWORD)

    with pytest.raises(ApiError) as refused:
        await client.save_sip_registration(request)

    error = refused.value
    assert error.status == 409 and "Duplicate AOR" in error.message
    assert PASSWORD not in f"{error} {error!r} {error.describe()} {error.body}"
    [exchange] = heard  # what the journal is told
    assert exchange.message is not None and "Duplicate AOR" in exchange.message
    assert PASSWORD not in repr(exchange)


async def test_save_is_refused_read_only_and_sent_once(make_client: MakeClient) -> None:
    recorder = Recorder(httpx.Response(502, json={"success": False, "message": "Bad Gateway"}))
    client = make_client(recorder)
    request = s.SipRegistrationRequest(aor="1001@sip.example.com", password=PASSWORD)
    with pytest.raises(ApiError):
        await client.save_sip_registration(request)
    assert recorder.calls == 1  # a write: never again by itself
    client.read_only = True
    with pytest.raises(ReadOnlyRefused):
        await client.save_sip_registration(request)
    assert recorder.calls == 1


async def test_no_registration_is_none_and_routes_skip_what_names_none(
    make_client: MakeClient,
) -> None:
    recorder = Recorder(
        httpx.Response(404, json={"success": False, "message": "Registration not found"}),
        ok({"success": True, "routes": ["a.example.com", None, 5, ""]}),
    )
    client = make_client(recorder)
    assert await client.get_sip_registration() is None
    assert await client.list_sip_routes() == ["a.example.com"]


async def test_a_route_added_with_a_bare_200_is_a_success(make_client: MakeClient) -> None:
    client = make_client(Recorder(httpx.Response(200, content=b"OK")))
    reply = await client.add_sip_route("a.example.com")
    assert reply.routes is None
