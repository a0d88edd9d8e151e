"""``GET /auth/account/oneTimeAuthToken``: a GET that changes the platform (it may add a
member). Never retried, refused on a read-only profile, journaled without the token, an
unknown outcome is a change's; the token is kept out of ``repr``."""

from __future__ import annotations

import httpx
import pytest

from tests.unit.api.conftest import MakeClient
from tests.unit.api.helpers import Recorder, ok
from tests.unit.api.test_api_errors import sleeps
from vagent_tui.api.errors import (
    ApiError,
    MalformedResponse,
    ReadOnlyRefused,
    TransportError,
    outcome_unknown,
)
from vagent_tui.api.transport import Exchange

TOKEN_VALUE = "ott_secret_value_123"
__all__ = ["sleeps"]  # the fixture: backoff delays recorded, not waited


async def test_the_token_comes_back_and_is_kept_out_of_repr(make_client: MakeClient) -> None:
    reply = {"success": True, "message": "Success", "authToken": TOKEN_VALUE, "memberAdded": True}
    client = make_client(Recorder(ok(reply)))
    login = await client.one_time_login("a@b.test", external_account_id="crm-1")
    assert login.token == TOKEN_VALUE and login.member_added is True
    assert TOKEN_VALUE not in repr(login)


@pytest.mark.parametrize(
    ("failure", "unknown"),
    [
        (httpx.Response(503, json={"success": False, "message": "Busy"}), True),
        # The platform's own 500 (its message, as the reference shows): it said no.
        (httpx.Response(500, json={"success": False, "message": "An error occurred"}), False),
        (httpx.ConnectError("refused"), True),
        (httpx.Response(200, content=b"{not json"), True),
    ],
    ids=["503", "500", "connect", "garbled"],
)
async def test_never_retried_and_its_outcome_is_unknown(
    make_client: MakeClient,
    sleeps: list[float],
    failure: httpx.Response | Exception,
    unknown: bool,
) -> None:
    recorder = Recorder(failure, ok({"success": True, "authToken": TOKEN_VALUE}))
    client = make_client(recorder, get_retries=5)
    with pytest.raises((ApiError, TransportError, MalformedResponse)) as caught:
        await client.one_time_login("a@b.test", external_account_id="crm-1")
    assert recorder.calls == 1 and sleeps == []
    assert outcome_unknown(caught.value) is unknown  # unknown: read back, never sent again


async def test_an_ordinary_get_is_still_retried(
    make_client: MakeClient, sleeps: list[float]
) -> None:
    busy = httpx.Response(503, json={"success": False, "message": "Busy"})
    recorder = Recorder(busy, ok({"success": True, "members": []}))
    client = make_client(recorder, get_retries=2)
    await client.list_members()
    assert recorder.calls == 2


async def test_a_reply_without_a_token_is_an_unknown_outcome(make_client: MakeClient) -> None:
    client = make_client(Recorder(ok({"success": True, "message": "Success"})))
    with pytest.raises(MalformedResponse) as caught:
        await client.one_time_login("a@b.test", external_account_id="crm-1")
    assert outcome_unknown(caught.value)


async def test_refused_on_a_read_only_profile_and_nothing_sent(make_client: MakeClient) -> None:
    recorder = Recorder(ok({"success": True, "authToken": TOKEN_VALUE}))
    client = make_client(recorder)
    client.read_only = True
    with pytest.raises(ReadOnlyRefused):
        await client.one_time_login("a@b.test")
    assert recorder.calls == 0


async def test_journaled_as_a_change_without_the_token(make_client: MakeClient) -> None:
    heard: list[Exchange] = []
    client = make_client(Recorder(ok({"success": True, "authToken": TOKEN_VALUE})))
    client.observers.append(heard.append)
    await client.one_time_login("a@b.test", external_account_id="crm-1")
    [exchange] = heard
    assert exchange.is_change and exchange.writes
    assert exchange.body == {"email": "a@b.test", "externalAccountId": "crm-1"}
    assert TOKEN_VALUE not in repr(exchange)


@pytest.mark.parametrize("planted", ["ott\x1b]52;c;aGk=\x07", "ott\x9b2J", "ott\u202etoken", ""])
async def test_a_token_with_control_characters_is_refused(
    make_client: MakeClient, planted: str
) -> None:
    """The token is shown once in a text area, which would pass control characters to the
    terminal: such a reply is malformed, and an unknown outcome (a member may be added)."""
    client = make_client(Recorder(ok({"success": True, "authToken": planted})))
    with pytest.raises(MalformedResponse, match="no usable authToken") as caught:
        await client.one_time_login("a@b.test")
    assert outcome_unknown(caught.value)
