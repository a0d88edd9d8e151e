"""A platform that echoes a secret a write sent: the error, the message the journal hears
and the message returned never hold it (one rule for every write: `api.echoes`)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import httpx
import pytest

from tests.unit.api.conftest import MakeClient
from vagent_tui.api.billing_models import BillingSystemConfig
from vagent_tui.api.client import PlatformClient
from vagent_tui.api.echoes import secrets_of
from vagent_tui.api.errors import REDACTED, ApiError
from vagent_tui.api.integration_models import IntegrationUpdate
from vagent_tui.api.listeners import Exchange
from vagent_tui.api.numbering_models import ProviderRequest

from .helpers import Recorder

AUTH = "auth-Tok3n-a1b2c3"
SID = "AC-sid-77f1e2"
API_KEY = "sk_live_Q9w8e7r6"
SIGNING = "whsec_Z1x2c3v4"
CLIENT_SECRET = "cs-Mn0pQr5t"
NESTED = "nested-Pass-4u5v"
LISTED = "listed-Key-6w7x"

Write = Callable[[PlatformClient], Awaitable[Any]]

WRITES = [
    pytest.param(
        lambda c: c.create_numbering_provider(
            ProviderRequest(provider_id="Twilio", config={"accountSid": SID, "authToken": AUTH})
        ),
        (SID, AUTH), "Twilio", id="provider-create",
    ),
    pytest.param(
        lambda c: c.update_numbering_provider(
            ProviderRequest(provider_id="Twilio", enabled=True, config={"authToken": AUTH})
        ),
        (AUTH,), "Twilio", id="provider-update",
    ),
    pytest.param(
        lambda c: c.set_billing_system(
            BillingSystemConfig(billing_system_type="stripe", api_key=API_KEY,
                                publishable_key="pk_public_1", webhook_signing_key=SIGNING)
        ),
        (API_KEY, SIGNING), "pk_public_1", id="billing-system",
    ),
    pytest.param(
        lambda c: c.update_integration("crm", "v1", IntegrationUpdate(app_data={
            "portalId": "portal-7",
            "clientSecret": CLIENT_SECRET,
            "auth": {"user": NESTED},  # a secret's name over an object: all of it
            "mail": {"smtp": {"apiKeys": [LISTED]}},
        })),
        (CLIENT_SECRET, NESTED, LISTED), "portal-7", id="integration",
    ),
]  # fmt: skip


def echo(status: int) -> Callable[[httpx.Request], httpx.Response]:
    """A platform whose message quotes the whole body it was sent."""

    def reply(request: httpx.Request) -> httpx.Response:
        said = f"invalid value in {request.content.decode()}"
        return httpx.Response(status, json={"success": status < 400, "message": said})

    return reply


def heard_by(client: PlatformClient) -> list[Exchange]:
    heard: list[Exchange] = []
    client.observers.append(heard.append)  # as the journal hears a request
    return heard


@pytest.mark.parametrize(("write", "secrets", "plain"), WRITES)
async def test_an_echoed_secret_is_in_no_error_nor_the_journal(
    make_client: MakeClient, write: Write, secrets: tuple[str, ...], plain: str
) -> None:
    recorder = Recorder(echo(400))
    client = make_client(recorder)
    heard = heard_by(client)

    with pytest.raises(ApiError) as refused:
        await write(client)

    assert all(s in recorder.last.content.decode() for s in secrets)  # sent as typed
    error = refused.value
    [exchange] = heard
    texts = f"{error} {error!r} {error.describe()} {error.body} {exchange!r}"
    assert not [s for s in secrets if s in texts]
    assert error.status == 400 and plain in error.message and REDACTED in error.message
    assert exchange.message == error.message  # the rest of the message as said


@pytest.mark.parametrize(("write", "secrets", "plain"), WRITES)
async def test_an_echoed_secret_is_in_no_message_returned(
    make_client: MakeClient, write: Write, secrets: tuple[str, ...], plain: str
) -> None:
    client = make_client(Recorder(echo(200)))
    heard = heard_by(client)

    reply = await write(client)

    [exchange] = heard
    assert isinstance(reply.message, str) and plain in reply.message
    assert not [s for s in secrets if s in f"{reply.message} {exchange!r}"]
    assert exchange.message == reply.message


def test_the_secrets_are_what_the_journal_masks_at_the_same_place() -> None:
    sent = {"a": "shown", "b": "hidden", "c": {"d": ["x1", {"e": "deep"}], "f": 5},
            "g": [REDACTED, "kept"], "h": "shown too"}  # fmt: skip
    kept = {"a": "shown", "b": REDACTED, "c": REDACTED, "g": [REDACTED, "kept"]}

    assert secrets_of(sent, kept) == ("hidden", "x1", "deep")
    assert secrets_of(sent, None) == secrets_of(sent, sent) == ()
