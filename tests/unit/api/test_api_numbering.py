"""Numbering providers in the client (api/numbering.py, api/numbering_models.py;
CONTRACT choices 95-99): credentials sent as typed, never kept from a reply, journaled
as the names of the keys set."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from tests.unit.api.conftest import MakeClient
from vagent_tui.api import models as m
from vagent_tui.api.errors import ApiError
from vagent_tui.api.listeners import Exchange
from vagent_tui.api.numbering import organization_target
from vagent_tui.api.numbering_models import NumberingProvider, ProviderRequest
from vagent_tui.api.scope import ScopeLevel
from vagent_tui.api.targets import LevelTarget

from .helpers import Recorder, json_body, ok

SECRET = "tok-SECRET-5150"
ORG = LevelTarget(ScopeLevel.ORGANIZATION, 1110)


def test_a_provider_read_keeps_the_names_of_its_credentials_never_the_values() -> None:
    provider = NumberingProvider.model_validate({
        "providerId": "Twilio", "default": "true", "enabled": False, "configFields": ["a", 3],
        "config": {"accountSid": "AC1", "authToken": SECRET, "empty": ""},
        "authToken": SECRET, "credentials": {"x": SECRET},
    })  # fmt: skip
    assert provider.config_set == ["accountSid", "authToken"] and provider.config_fields == ["a"]
    assert provider.is_default is True and provider.enabled is False and provider.is_configured
    assert SECRET not in repr(provider) and SECRET not in str(provider.model_dump())


@pytest.mark.parametrize("config", [None, [], "x", {}])
def test_a_provider_without_credentials_is_not_configured(config: object) -> None:
    provider = NumberingProvider.model_validate({"providerId": "Telnyx", "config": config})
    assert provider.config_set == [] and not provider.is_configured


def test_a_request_sends_credentials_as_typed_and_journals_their_names() -> None:
    request = ProviderRequest(provider_id=" Twilio ", enabled=True,
                              config={"accountSid": " AC1 ", "authToken": SECRET})  # fmt: skip
    assert request.wire() == {"providerId": "Twilio", "enabled": True,
                              "config": {"accountSid": " AC1 ", "authToken": SECRET}}  # fmt: skip
    assert request.journal() == {"providerId": "Twilio", "enabled": True,
                                 "config": {"accountSid": "***", "authToken": "***"}}  # fmt: skip
    assert SECRET not in repr(request)


@pytest.mark.parametrize(
    ("values", "field"),
    [
        ({"provider_id": ""}, "provider_id"),
        ({"provider_id": "T", "config": {"bad key": "x"}}, "config"),
        ({"provider_id": "T", "config": {"authToken": "  "}}, "config"),
        ({"provider_id": "T", "config": {"authToken": "a\x1bb"}}, "config"),
    ],
)
def test_a_request_refuses_what_cannot_be_sent(values: dict[str, object], field: str) -> None:
    with pytest.raises(ValidationError) as caught:
        ProviderRequest(**values)  # type: ignore[arg-type]
    assert caught.value.errors()[0]["loc"][0] == field
    assert SECRET not in str(caught.value)


async def test_the_journal_hears_the_names_the_platform_the_values(make_client: MakeClient) -> None:
    recorder = Recorder(ok({"success": True, "message": "Numbering provider added"}))
    client = make_client(recorder)
    heard: list[Exchange] = []
    client.observers.append(heard.append)
    request = ProviderRequest(provider_id="Twilio", config={"authToken": SECRET})
    await client.create_numbering_provider(request, target=ORG)
    await client.update_numbering_provider(request, target=ORG)
    assert [json_body(r)["config"] for r in recorder.requests] == [{"authToken": SECRET}] * 2
    assert [e.body for e in heard] == [{"providerId": "Twilio", "config": {"authToken": "***"}}] * 2
    assert {e.target_param for e in heard} == {"targetOrganizationId"}


async def test_none_configured_is_an_empty_list(make_client: MakeClient) -> None:
    none = ok({"success": False, "message": "No numbering providers configured"}, status=404)
    assert await make_client(Recorder(none)).list_numbering_providers(target=ORG) == []
    other = ok({"success": False, "message": "Not found"}, status=404)
    with pytest.raises(ApiError):
        await make_client(Recorder(other)).list_numbering_providers(target=ORG)


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        ({"id": 1110, "accountType": "organization"}, 1110),
        ({"id": 1111, "accountType": "account", "organizationId": 1110}, 1110),
        ({"id": 1111, "accountType": "account", "organizationId": "1110"}, 1110),
        ({"id": 1111, "accountType": "account"}, None),
        ({"id": 1100, "accountType": "reseller"}, None),
        ({"id": 1000, "accountType": "partner"}, None),
    ],
)
def test_the_organization_an_account_stands_for(
    fields: dict[str, object], expected: int | None
) -> None:
    target = organization_target(m.Account.model_validate(fields))
    assert (target.account_id if target else None) == expected
    assert target is None or target.param == "targetOrganizationId"
