"""An integration's data on the wire and as shown: which keys are secrets, their values
masked at any depth, journaled as set; the GET's reply read as the PUT's."""

from __future__ import annotations

import pytest

from tests.unit.api.conftest import MakeClient
from vagent_tui.api.integration_models import (
    MASK,
    IntegrationUpdate,
    masked,
    name_problem,
    secret_name,
)
from vagent_tui.api.listeners import Exchange

from .helpers import Recorder, ok

DATA = {"provider": "stripe", "secretKey": "sk_1", "empty_token": "",
        "webhook": {"url": "https://x", "signingSecret": "whsec_1"},
        "owners": [{"email": "a@x", "password": "pw_1"}]}  # fmt: skip


@pytest.mark.parametrize(
    ("name", "secret"),
    [("apiKey", True), ("client_secret", True), ("accessToken", True), ("password", True),
     ("smtp-pwd", True), ("API_KEY", True), ("keyboardLayout", False), ("accountSid", False),
     ("provider", False)],
)  # fmt: skip
def test_a_key_names_a_secret_by_its_words(name: str, secret: bool) -> None:
    assert secret_name(name) is secret


def test_secrets_are_masked_at_any_depth_and_an_empty_one_reads_empty() -> None:
    shown = masked(DATA)
    assert shown["secretKey"] == MASK and shown["empty_token"] == ""
    assert shown["webhook"] == {"url": "https://x", "signingSecret": MASK}
    assert shown["owners"] == [{"email": "a@x", "password": MASK}]
    assert IntegrationUpdate(app_data=DATA).journal()["appData"]["secretKey"] == "***"


def test_a_slug_is_one_path_segment() -> None:
    assert name_problem("slug", "crm-2.x") is None
    assert name_problem("slug", "a/b") and name_problem("slug", "a b") and name_problem("slug", "")


async def test_the_put_journals_no_secret_and_the_get_reads_the_data(
    make_client: MakeClient,
) -> None:
    heard: list[Exchange] = []
    reply = {"success": True, "appId": "pay", "appVersion": "v1", "appData": DATA}
    client = make_client(Recorder(ok(reply)))
    client.observers.append(heard.append)
    await client.update_integration("pay", "v1", IntegrationUpdate(app_data=DATA), target=1111)
    assert "sk_1" not in repr(heard) and "pw_1" not in repr(heard)
    read = await client.get_integration("pay", "v1", target=1111)
    assert read.app_id == "pay" and read.app_data == DATA


def test_plurals_and_other_names_of_secrets_are_masked_too() -> None:
    """apiKeys, tokens, credentials, an auth header: shown and journaled in clear before."""
    from vagent_tui.api.integration_models import secret_name

    for name in ("apiKeys", "tokens", "secrets", "credentials", "authHeader", "passphrase"):
        assert secret_name(name), name
    for name in ("currency", "portalId", "region", "address", "status"):
        assert not secret_name(name), name
