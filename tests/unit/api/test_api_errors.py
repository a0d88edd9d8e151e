"""Error mapping, and the retry policy: GET only, bounded, honouring Retry-After."""

from __future__ import annotations

import asyncio
import types
from collections.abc import AsyncIterator, Callable
from typing import Any

import httpx
import pytest

from tests.unit.api.conftest import MakeClient
from tests.unit.api.helpers import ClientCall, Reply
from vagent_tui.api import transport as client_module
from vagent_tui.api.client import Exchange
from vagent_tui.api.errors import (
    ApiError,
    MalformedResponse,
    PlatformError,
    ReplyTooLarge,
    RequestTimeout,
    TransportError,
    outcome_unknown,
)

from .helpers import Recorder, ok
from .test_api_requests import CASES as REQUEST_CASES
from .test_api_requests import TARGET
from .test_api_requests import WRITES as REQUEST_WRITES


def envelope(status: int, message: str, **kwargs: Any) -> httpx.Response:
    return httpx.Response(status, json={"success": False, "message": message}, **kwargs)


@pytest.fixture
def sleeps(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """Record the client's backoff delays instead of waiting them out."""
    delays: list[float] = []

    async def fake_sleep(delay: float) -> None:
        delays.append(delay)

    fake = types.SimpleNamespace(get_running_loop=asyncio.get_running_loop, sleep=fake_sleep)
    monkeypatch.setattr(client_module, "asyncio", fake)
    return delays


# --------------------------------------------------------------------------- mapping


@pytest.mark.parametrize(
    ("status", "message"),
    [
        (400, "type path parameter is required and must be a string"),
        (401, "Unauthorized Request"),
        (403, "Webhook Relay is a premium feature. Please upgrade your account to use it."),
        (404, "Webhook Relay type 'chargebee' was not configured."),
        (409, "IP entry already exists"),
        (500, "Internal error"),
    ],
)
async def test_error_envelope_becomes_api_error(
    make_client: MakeClient, status: int, message: str
) -> None:
    recorder = Recorder(envelope(status, message))
    client = make_client(recorder, get_retries=0)

    with pytest.raises(ApiError) as info:
        await client.delete_relay("chargebee")

    error = info.value
    assert error.status == status
    assert error.message == message
    assert str(error) == message
    assert error.method == "DELETE"
    assert error.body == {"success": False, "message": message}
    assert "/api/v2/webhookRelay/chargebee" in error.describe()
    assert error.kind == "api"


async def test_success_false_with_200_is_api_error(make_client: MakeClient) -> None:
    client = make_client(Recorder(envelope(200, "targetAccountId is outside your hierarchy")))

    with pytest.raises(ApiError) as info:
        await client.list_voices(target=999)

    assert info.value.status == 200
    assert info.value.message == "targetAccountId is outside your hierarchy"


async def test_error_without_message_names_the_status(make_client: MakeClient) -> None:
    client = make_client(Recorder(httpx.Response(404, json={"success": False})))

    with pytest.raises(ApiError) as info:
        await client.get_agent("cfg-x")

    assert info.value.status == 404
    assert "404" in info.value.message


async def test_a_bare_json_string_error_is_its_message(make_client: MakeClient) -> None:
    """The vendor's reference gives ``POST /conversation/batch`` a 401 whose body is the
    JSON string "Unauthorized Request" (the envelope elsewhere): either says why."""
    from vagent_tui.api.log_models import ConversationRef

    client = make_client(Recorder(httpx.Response(401, json="Unauthorized Request")))

    with pytest.raises(ApiError) as info:
        await client.get_conversations([ConversationRef("1:1", "a:1")])

    assert info.value.status == 401 and info.value.message == "Unauthorized Request"


@pytest.mark.parametrize("content", [b"", b"<html>Bad Gateway</html>"])
async def test_error_status_with_non_json_body_is_api_error(
    make_client: MakeClient, content: bytes
) -> None:
    client = make_client(Recorder(httpx.Response(502, content=content)), get_retries=0)

    with pytest.raises(ApiError) as info:
        await client.get_account()

    assert info.value.status == 502


@pytest.mark.parametrize(
    "response",
    [
        httpx.Response(200, content=b"<html>not json</html>"),
        httpx.Response(200, content=b""),
        httpx.Response(200, json=[{"id": "v1"}]),
        httpx.Response(200, json="just a string"),
    ],
    ids=["html", "empty", "array", "string"],
)
async def test_non_object_reply_is_malformed(
    make_client: MakeClient, response: httpx.Response
) -> None:
    client = make_client(Recorder(response))

    with pytest.raises(MalformedResponse) as info:
        await client.list_voices()

    assert info.value.status == 200
    assert info.value.kind == "malformed"
    assert not isinstance(info.value, ApiError)


@pytest.mark.parametrize(
    ("call", "payload"),
    [
        (lambda c: c.list_voices(), {"success": True, "voices": "x"}),
        (lambda c: c.list_voices(), {"success": True, "voices": [{"languages": "en-US"}]}),
        (lambda c: c.list_voices(), {"success": True, "voices": ["not-an-object"]}),
        (lambda c: c.list_junk_rooms(), {"success": True, "rooms": [{"id": "abc"}]}),
        (lambda c: c.list_junk_rooms(), {"success": True, "totalRooms": "many"}),
        (lambda c: c.get_account(), {"success": True, "id": "abc"}),
        (lambda c: c.get_live(), {"success": True, "campaign": {"waitToGreet": "maybe"}}),
        (lambda c: c.get_live(), {"success": True, "campaign": ["not", "an", "object"]}),
        (lambda c: c.list_resellers(1), {"success": True, "resellers": {"id": 1}}),
    ],
    ids=[
        "voices-str",
        "voice-languages-str",
        "voice-not-object",
        "room-id-abc",
        "total-rooms-text",
        "account-id-abc",
        "campaign-bool",
        "campaign-list",
        "resellers-dict",
    ],
)
async def test_wrong_field_types_are_malformed(
    make_client: MakeClient, call: ClientCall, payload: Any
) -> None:
    client = make_client(Recorder(ok(payload)))

    with pytest.raises(MalformedResponse):
        await call(client)


async def test_connect_error_is_transport_error(make_client: MakeClient) -> None:
    recorder = Recorder(httpx.ConnectError("Connection refused"))
    client = make_client(recorder, get_retries=0)

    with pytest.raises(TransportError) as info:
        await client.get_account()

    error = info.value
    assert not isinstance(error, RequestTimeout)
    assert error.kind == "network"
    assert "platform.test" in error.message
    assert "Connection refused" in error.message


@pytest.mark.parametrize(
    "exc",
    [httpx.ReadTimeout("timed out"), httpx.ConnectTimeout("timed out"), httpx.PoolTimeout("x")],
)
async def test_timeouts_are_request_timeout(make_client: MakeClient, exc: Exception) -> None:
    client = make_client(Recorder(exc), get_retries=0)

    with pytest.raises(RequestTimeout) as info:
        await client.get_account()

    assert info.value.kind == "timeout"
    assert isinstance(info.value, TransportError)


async def test_errors_do_not_chain_httpx_exceptions(make_client: MakeClient) -> None:
    client = make_client(Recorder(httpx.ConnectError("boom")), get_retries=0)

    with pytest.raises(TransportError) as info:
        await client.get_account()

    assert info.value.__cause__ is None
    assert info.value.__context__ is None


# --------------------------------------------------------------------------- retries


@pytest.mark.parametrize(
    "failure",
    [
        envelope(503, "Service unavailable"),
        envelope(429, "Slow down"),
        envelope(500, "Internal error"),
        httpx.ConnectError("Connection refused"),
        httpx.ReadTimeout("timed out"),
    ],
    ids=["503", "429", "500", "connect-error", "read-timeout"],
)
async def test_get_retried_then_succeeds(
    make_client: MakeClient, sleeps: list[float], failure: httpx.Response | Exception
) -> None:
    recorder = Recorder(failure, failure, ok({"success": True, "voices": [{"id": "v1"}]}))
    client = make_client(recorder, get_retries=2)

    voices = await client.list_voices()

    assert [v.id for v in voices] == ["v1"]
    assert recorder.calls == 3
    assert len(sleeps) == 2


@pytest.mark.parametrize("retries", [0, 1, 3])
async def test_get_retries_are_bounded(
    make_client: MakeClient, sleeps: list[float], retries: int
) -> None:
    recorder = Recorder(envelope(503, "Service unavailable"))
    client = make_client(recorder, get_retries=retries)

    with pytest.raises(ApiError) as info:
        await client.get_account()

    assert info.value.status == 503
    assert info.value.message == "Service unavailable"
    assert recorder.calls == 1 + retries
    assert len(sleeps) == retries


async def test_transport_failure_after_retries_raises_last_failure(
    make_client: MakeClient, sleeps: list[float]
) -> None:
    recorder = Recorder(httpx.ConnectError("refused"))
    client = make_client(recorder, get_retries=2)

    with pytest.raises(TransportError):
        await client.list_tokens()
    assert recorder.calls == 3


@pytest.mark.parametrize("status", [400, 401, 403, 404, 409])
async def test_get_client_errors_not_retried(
    make_client: MakeClient, sleeps: list[float], status: int
) -> None:
    recorder = Recorder(envelope(status, "nope"))
    client = make_client(recorder, get_retries=3)

    with pytest.raises(ApiError):
        await client.get_account()

    assert recorder.calls == 1
    assert sleeps == []


class CutStream(httpx.AsyncByteStream):
    """A body that stops half way: the connection dropped mid-reply."""

    async def __aiter__(self) -> AsyncIterator[bytes]:
        yield b'{"success": true, "voices": [{"id": "v'
        raise httpx.RemoteProtocolError("peer closed connection without sending complete body")


def cut() -> httpx.Response:
    return httpx.Response(200, headers={"Content-Length": "4000"}, stream=CutStream())


def garbled(content: bytes) -> Callable[[httpx.Request], httpx.Response]:
    """A fresh 200 reply of ``content`` per request (a Response is read once)."""
    return lambda _request: httpx.Response(
        200, content=content, headers={"Content-Type": "application/json"}
    )


GOOD_VOICES = b'{"success": true, "voices": [{"id": "v1"}]}'
GARBLED = [
    pytest.param(garbled(b'{"success": true, "message": "oops", ]]'), id="not-json"),
    pytest.param(garbled(GOOD_VOICES[: len(GOOD_VOICES) // 2]), id="truncated"),
    pytest.param(garbled(b""), id="empty"),
    pytest.param(garbled(b'["not", "an", "object"]'), id="not-an-object"),
    pytest.param(garbled(b'{"success": true, "voices": "not a list"}'), id="wrong-types"),
    pytest.param(lambda _request: cut(), id="cut-mid-body"),
]


@pytest.mark.parametrize("bad", GARBLED)
async def test_get_with_a_garbled_or_cut_reply_is_asked_again(
    make_client: MakeClient, sleeps: list[float], bad: Reply
) -> None:
    recorder = Recorder(bad, garbled(GOOD_VOICES))
    client = make_client(recorder, get_retries=2)

    voices = await client.list_voices()

    assert [v.id for v in voices] == ["v1"]
    assert recorder.calls == 2
    assert len(sleeps) == 1


MODEL_READS = [
    pytest.param(
        lambda c: c.get_account(),
        b'{"success": true, "id": "x"}',
        b'{"success": true}',
        id="account",
    ),
    pytest.param(
        lambda c: c.get_staging(),
        b'{"success": true, "campaign": 7}',
        b'{"success": true}',
        id="staging",
    ),
    pytest.param(
        lambda c: c.list_accounts(5, page=0, page_size=10),
        b'{"success": true, "accounts": "no"}',
        b'{"success": true, "accounts": []}',
        id="accounts-page",
    ),
    pytest.param(
        lambda c: c.list_junk_rooms(),
        b'{"success": true, "rooms": "no"}',
        b'{"success": true, "rooms": []}',
        id="junk-page",
    ),
    pytest.param(
        lambda c: c.list_room_messages("r1"), b'{"messages": 5}', b"[]", id="room-messages"
    ),
]


@pytest.mark.parametrize(("read", "refused", "good"), MODEL_READS)
async def test_a_reply_its_model_refuses_is_asked_again(
    make_client: MakeClient, sleeps: list[float], read: ClientCall, refused: bytes, good: bytes
) -> None:
    recorder = Recorder(garbled(refused), garbled(b"{oops"), garbled(good))
    client = make_client(recorder, get_retries=2)

    await read(client)

    assert recorder.calls == 3
    assert len(sleeps) == 2


@pytest.mark.parametrize("retries", [0, 2])
async def test_garbled_replies_are_asked_again_within_the_budget(
    make_client: MakeClient, sleeps: list[float], retries: int
) -> None:
    recorder = Recorder(garbled(b"not json"))
    client = make_client(recorder, get_retries=retries)

    with pytest.raises(MalformedResponse) as info:
        await client.get_account()

    assert "not JSON" in info.value.message
    assert recorder.calls == 1 + retries
    assert len(sleeps) == retries


async def test_a_mix_of_faults_shares_one_budget(
    make_client: MakeClient, sleeps: list[float]
) -> None:
    recorder = Recorder(
        envelope(503, "Busy", headers={"Retry-After": "2"}), garbled(b"{"), cut(), ok()
    )
    client = make_client(recorder, get_retries=2, max_retry_after=10)

    with pytest.raises(TransportError):
        await client.get_account()

    assert recorder.calls == 3
    assert sleeps[0] == 2.0  # Retry-After honoured


async def test_a_reply_past_the_size_limit_is_not_asked_again(
    make_client: MakeClient, sleeps: list[float]
) -> None:
    recorder = Recorder(lambda _r: httpx.Response(200, content=b"x" * 2048))
    client = make_client(recorder, get_retries=3, max_reply_bytes=1024)

    with pytest.raises(ReplyTooLarge):
        await client.get_account()

    assert recorder.calls == 1
    assert sleeps == []


async def test_an_error_envelope_in_a_200_is_not_asked_again(
    make_client: MakeClient, sleeps: list[float]
) -> None:
    recorder = Recorder(ok({"success": False, "message": "No such agent"}))
    client = make_client(recorder, get_retries=3)

    with pytest.raises(ApiError):
        await client.get_staging()

    assert recorder.calls == 1


async def test_observers_hear_a_retried_read_once(
    make_client: MakeClient, sleeps: list[float]
) -> None:
    recorder = Recorder(garbled(b"{"), cut(), garbled(GOOD_VOICES))
    client = make_client(recorder, get_retries=2)
    heard: list[Exchange] = []
    client.observers.append(heard.append)

    await client.list_voices()

    assert [(e.method, e.status, e.message) for e in heard] == [("GET", 200, None)]


@pytest.mark.parametrize(
    "call",
    [lambda c: c.write_staging({"agentVoice": "v2"}), lambda c: c.publish_staging()],
    ids=["write", "publish"],
)
@pytest.mark.parametrize("bad", [p for p in GARBLED if p.id != "wrong-types"])
async def test_a_write_whose_reply_is_garbled_is_not_resent(
    make_client: MakeClient, sleeps: list[float], call: ClientCall, bad: Reply
) -> None:
    recorder = Recorder(bad, ok())
    client = make_client(recorder, get_retries=5)

    with pytest.raises(PlatformError) as info:
        await call(client)

    assert recorder.calls == 1
    assert sleeps == []
    assert outcome_unknown(info.value)  # the caller reads back


async def test_retry_after_is_honoured(make_client: MakeClient, sleeps: list[float]) -> None:
    recorder = Recorder(
        envelope(429, "Slow down", headers={"Retry-After": "3"}),
        envelope(503, "Busy", headers={"Retry-After": "1"}),
        ok(),
    )
    client = make_client(recorder, get_retries=2, backoff=0, max_retry_after=10)

    await client.get_account()

    assert sleeps == [3.0, 1.0]
    assert recorder.calls == 3


async def test_retry_after_is_capped(make_client: MakeClient, sleeps: list[float]) -> None:
    recorder = Recorder(envelope(429, "Slow down", headers={"Retry-After": "3600"}), ok())
    client = make_client(recorder, get_retries=1, backoff=0, max_retry_after=0.5)

    await client.get_account()

    assert sleeps == [0.5]


async def test_backoff_grows_without_retry_after(
    make_client: MakeClient, sleeps: list[float]
) -> None:
    recorder = Recorder(envelope(503, "a"), envelope(503, "b"), envelope(503, "c"), ok())
    client = make_client(recorder, get_retries=3, backoff=0.01, max_retry_after=10)

    await client.get_account()

    # base * 2**attempt * (1 + jitter in [0, 1))
    assert len(sleeps) == 3
    for attempt, delay in enumerate(sleeps):
        assert 0.01 * 2**attempt <= delay < 0.01 * 2 ** (attempt + 1)


async def test_backoff_capped_by_max_retry_after(
    make_client: MakeClient, sleeps: list[float]
) -> None:
    recorder = Recorder(envelope(503, "a"), ok())
    client = make_client(recorder, get_retries=1, backoff=100, max_retry_after=0.25)

    await client.get_account()

    assert sleeps == [0.25]


WRITES = [
    pytest.param(
        lambda c, case=case: case.call(c, TARGET if case.target_required else None),
        id=f"{case.method}-{case.id}",
    )
    for case in REQUEST_CASES
    if case in REQUEST_WRITES
]
"""Every call that changes the platform: the request cases a read-only client refuses."""


@pytest.mark.parametrize("call", WRITES)
@pytest.mark.parametrize(
    ("failure", "error"),
    [
        (envelope(503, "Busy", headers={"Retry-After": "0"}), ApiError),
        (envelope(429, "Slow down"), ApiError),
        (httpx.ConnectError("refused"), TransportError),
        (httpx.ReadTimeout("timed out"), RequestTimeout),
    ],
    ids=["503", "429", "connect", "timeout"],
)
async def test_writes_are_never_retried(
    make_client: MakeClient,
    sleeps: list[float],
    call: ClientCall,
    failure: httpx.Response | Exception,
    error: type[Exception],
) -> None:
    recorder = Recorder(failure, ok())
    client = make_client(recorder, get_retries=5)

    with pytest.raises(error):
        await call(client)

    assert recorder.calls == 1
    assert sleeps == []


async def test_other_host_refusal_is_a_platform_error(make_client: MakeClient) -> None:
    client = make_client(Recorder())

    with pytest.raises(PlatformError) as info:
        await client.migration_status("https://elsewhere.test/x")

    assert "elsewhere.test" in info.value.message
