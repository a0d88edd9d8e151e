"""The token never reaches an error text, a traceback, a repr or a log line."""

from __future__ import annotations

import logging
import traceback
from collections.abc import Awaitable, Callable
from typing import Any

import httpx
import pytest

from tests.unit.api.conftest import MakeClient
from tests.unit.api.helpers import Reply
from vagent_tui.api import models as m
from vagent_tui.api.client import PlatformClient
from vagent_tui.api.errors import (
    REDACTED,
    ApiError,
    MalformedResponse,
    PlatformError,
    RequestTimeout,
    TransportError,
    redact_text,
    redact_url,
)

from .helpers import BASE, TOKEN, Recorder, error_chain, ok


def assert_no_token(error: BaseException) -> None:
    texts = [str(error), repr(error), "".join(traceback.format_exception(error))]
    if isinstance(error, PlatformError):
        texts += [error.describe(), error.url, error.message]
    for link in error_chain(error):
        texts += [str(link), repr(link), repr(link.args)]
    for text in texts:
        assert TOKEN not in text
        assert TOKEN[8:] not in text  # nor a recognisable tail of it


def echo_url(status: int) -> Callable[[httpx.Request], httpx.Response]:
    """A server whose error message quotes the request URL, token included."""

    def reply(request: httpx.Request) -> httpx.Response:
        assert TOKEN in str(request.url)  # the secret really is in play
        message = f"Bad request for {request.url} (token {TOKEN})"
        return httpx.Response(status, json={"success": False, "message": message})

    return reply


def raising(kind: type[httpx.TransportError]) -> Callable[[httpx.Request], httpx.Response]:
    """A transport whose exception text embeds the full URL with the token."""

    def reply(request: httpx.Request) -> httpx.Response:
        assert TOKEN in str(request.url)
        raise kind(f"failed to reach {request.url}", request=request)

    return reply


Call = Callable[[PlatformClient], Awaitable[Any]]

FAILURES = [
    pytest.param(echo_url(400), ApiError, lambda c: c.get_account(), id="api-400"),
    pytest.param(echo_url(500), ApiError, lambda c: c.create_token("x"), id="api-500"),
    pytest.param(echo_url(200), ApiError, lambda c: c.list_voices(), id="api-success-false"),
    pytest.param(raising(httpx.ConnectError), TransportError, lambda c: c.get_account(), id="conn"),
    pytest.param(raising(httpx.ReadError), TransportError, lambda c: c.list_tokens(), id="read"),
    pytest.param(raising(httpx.ReadTimeout), RequestTimeout, lambda c: c.get_live(), id="timeout"),
    pytest.param(
        raising(httpx.ConnectTimeout), RequestTimeout, lambda c: c.delete_relay("x"), id="ctimeout"
    ),
    pytest.param(
        lambda r: httpx.Response(200, content=f"<p>{r.url}</p>".encode()),
        MalformedResponse,
        lambda c: c.get_account(),
        id="malformed-html",
    ),
    pytest.param(
        lambda r: httpx.Response(200, json=[str(r.url)]),
        MalformedResponse,
        lambda c: c.get_account(),
        id="malformed-array",
    ),
    pytest.param(
        lambda r: ok({"success": True, "rooms": [{"id": "abc", "name": str(r.url)}]}),
        MalformedResponse,
        lambda c: c.list_junk_rooms(),
        id="malformed-field",
    ),
    pytest.param(
        lambda r: ok({"success": True, "id": f"echo {TOKEN}"}),
        MalformedResponse,
        lambda c: c.get_account(),
        id="malformed-echoed-secret",
    ),
    pytest.param(
        lambda r: ok({"success": True, "voices": str(r.url)}),
        MalformedResponse,
        lambda c: c.list_voices(),
        id="malformed-list",
    ),
]


@pytest.mark.parametrize(("reply", "kind", "call"), FAILURES)
async def test_errors_never_show_the_token(
    make_client: MakeClient, reply: Reply, kind: type[Exception], call: Call
) -> None:
    client = make_client(Recorder(reply), get_retries=1)

    with pytest.raises(kind) as info:
        await call(client)

    assert_no_token(info.value)
    assert_no_token(info.value)  # and again: describing it changes nothing


async def test_transport_error_keeps_redacted_url_text(make_client: MakeClient) -> None:
    client = make_client(Recorder(raising(httpx.ConnectError)), get_retries=0)

    with pytest.raises(TransportError) as info:
        await client.get_account(target=12)

    assert f"token={REDACTED}" in info.value.message
    assert info.value.url.endswith("/api/v2/account")


async def test_other_host_refusal_never_shows_the_token(make_client: MakeClient) -> None:
    client = make_client(Recorder())

    with pytest.raises(PlatformError) as info:
        await client.migration_status(f"https://evil.test/status?token={TOKEN}")

    assert_no_token(info.value)


async def test_client_repr_masks_token(make_client: MakeClient) -> None:
    client = make_client(Recorder())

    assert TOKEN not in repr(client)
    assert TOKEN not in str(client)
    assert BASE in repr(client)


async def test_client_tells_its_own_key_without_giving_it(make_client: MakeClient) -> None:
    client = make_client(Recorder())

    assert client.uses_token(TOKEN)
    assert not client.uses_token(TOKEN[:-1])
    assert not client.uses_token("")


@pytest.mark.parametrize("status", [200, 404])
async def test_httpx_log_lines_are_redacted(
    make_client: MakeClient, caplog: pytest.LogCaptureFixture, status: int
) -> None:
    """Nothing the request logs holds the key, and a line as httpx's client writes it
    (``HTTP Request: GET <url> ...``, should anything use one) is redacted."""
    caplog.set_level(logging.DEBUG, logger="httpx")
    caplog.set_level(logging.DEBUG, logger="httpcore")
    recorder = Recorder(ok({"success": True, "voices": []}) if status == 200 else echo_url(404))
    client = make_client(recorder)

    try:
        await client.list_voices(target=3)
    except ApiError:
        assert status == 404
    url = recorder.last.url
    assert TOKEN in str(url)
    logging.getLogger("httpx").info('HTTP Request: %s %s "%s"', "GET", url, "HTTP/1.1 200 OK")

    lines = [r for r in caplog.records if r.name.startswith("httpx")]
    assert any("HTTP Request:" in r.getMessage() for r in lines), caplog.text
    assert "/api/v2/agent/voices" in caplog.text
    assert "targetAccountId=3" in caplog.text  # other parameters survive
    assert TOKEN not in caplog.text
    for record in caplog.records:
        assert TOKEN not in record.getMessage()
        assert TOKEN not in repr(record.args)
        assert TOKEN not in str(record.msg)


def test_token_record_repr_masks_token() -> None:
    record = m.TokenRecord.model_validate(
        {"token": TOKEN, "description": "ci", "type": "admin", "timestamp": "1", "userId": 1}
    )

    assert TOKEN not in repr(record)
    assert TOKEN not in str(record)
    assert TOKEN not in repr([record])
    assert record.masked.endswith(TOKEN[-4:])
    assert TOKEN not in record.masked
    assert record.token == TOKEN  # the value itself is kept for the one-time display


def test_adr_config_repr_hides_password() -> None:
    config = m.AdrExportConfig(
        delivery_protocol="sftp", host="h.example", port=22, username="u", password=TOKEN
    )

    assert TOKEN not in repr(config)
    assert TOKEN not in str(config)
    assert config.wire()["password"] == TOKEN


@pytest.mark.parametrize("value", ["", "short", "12345678"])
def test_mask_secret_never_shows_short_secrets(value: str) -> None:
    masked = m.mask_secret(value)
    assert masked == "•" * 8
    if value:
        assert value not in masked


def test_redact_url_masks_token_and_keeps_other_params() -> None:
    url = f"https://api.example.com/api/v2/agent/voices?token={TOKEN}&targetAccountId=12&page=2"

    redacted = redact_url(url)

    assert TOKEN not in redacted
    assert f"token={REDACTED}" in redacted
    assert "targetAccountId=12" in redacted
    assert "page=2" in redacted
    assert redacted.startswith("https://api.example.com/api/v2/agent/voices?")


def test_redact_url_accepts_httpx_url_and_other_secret_params() -> None:
    url = httpx.URL(BASE + "/x", params={"password": "pw-1234", "TOKEN": TOKEN, "q": "a b"})

    redacted = redact_url(url)

    assert TOKEN not in redacted and "pw-1234" not in redacted
    assert "q=a+b" in redacted or "q=a%20b" in redacted


def test_redact_url_without_query_is_unchanged() -> None:
    assert redact_url(BASE + "/api/v2/account") == BASE + "/api/v2/account"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("fetch https://admin:pw@host/x failed", "fetch https://***@host/x failed"),
        ("mail admin@host.example, no url", "mail admin@host.example, no url"),
        ("PASSWORD=hunter2 and Token=abc", "PASSWORD=*** and Token=***"),
        ("plain text, nothing to mask", "plain text, nothing to mask"),
    ],
)
def test_redact_text_masks_userinfo_and_pairs_in_free_text(text: str, expected: str) -> None:
    assert redact_text(text) == expected


def test_redact_text_masks_pairs_and_given_secrets() -> None:
    text = f"GET /a?token={TOKEN}&x=1 failed; also saw {TOKEN} and api_key=k123"

    redacted = redact_text(text, TOKEN)

    assert TOKEN not in redacted
    assert "k123" not in redacted
    assert "x=1" in redacted


# ---------------------------------------------------------------- echoes and URL passwords


def test_a_token_echoed_in_any_encoding_is_masked() -> None:
    import base64
    import json
    from urllib.parse import quote, quote_plus

    from vagent_tui.api.errors import redact_text

    token = 'tok/en+v=al ue"1'
    echoes = [
        token,
        quote(token, safe=""),
        quote(token, safe="").lower(),
        quote_plus(token),
        json.dumps(token)[1:-1],
        json.dumps(token)[1:-1].replace("/", "\\/"),
        base64.b64encode(token.encode()).decode(),
        base64.urlsafe_b64encode(token.encode()).decode().rstrip("="),
    ]
    for echo in echoes:
        assert redact_text(f"bad key {echo}!", token) == "bad key ***!", echo


def test_a_password_in_a_url_never_shows() -> None:
    from vagent_tui.api.client import PlatformClient
    from vagent_tui.api.errors import redact_text, redact_url

    url = "https://admin:s3cret-pw@api.example.com:8443/api/v2/account?token=t0k3n"
    assert "s3cret-pw" not in redact_url(url) and "t0k3n" not in redact_url(url)
    assert redact_url(url).startswith("https://***@api.example.com:8443/")
    assert "s3cret-pw" not in redact_text(f"could not reach {url}: refused")
    client = PlatformClient("https://admin:s3cret-pw@api.example.com", "t0k3n-value")
    assert client.host == "api.example.com"
    assert "s3cret-pw" not in repr(client) and "t0k3n-value" not in repr(client)
