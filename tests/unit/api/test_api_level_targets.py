"""A resource scoped at a level is reached with that level's parameter (issue 15, point 12).

Spec rule 9: ``targetOrganizationId``, ``targetResellerId`` and ``targetPartnerId`` are
used by the endpoints whose resource is scoped at those levels; rule 7 keeps
``targetAccountId`` for organizations and agents. Templates are a reseller feature; the
ADR export is configured at partner, reseller or organization level.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from tests.unit.api.conftest import MakeClient
from vagent_tui.api import models as m
from vagent_tui.api.client import Exchange, PlatformClient
from vagent_tui.api.scope import ScopeLevel
from vagent_tui.api.targets import LevelTarget, level_target

from .helpers import TOKEN, Recorder, ok, query

RESELLER = LevelTarget(ScopeLevel.RESELLER, 1100)


def adr() -> m.AdrExportConfig:
    return m.AdrExportConfig(delivery_protocol="sftp", host="h.example.com", port=22,
                             username="u", password="p")  # fmt: skip


@pytest.mark.parametrize(
    "call",
    [
        lambda c, t: c.list_templates(target=t),
        lambda c, t: c.migrate("tpl-1", target=t),
        lambda c, t: c.migration_status("/api/v2/templates/migrations/t-1", target=t),
        lambda c, t: c.set_adr_export(adr(), target=t),
    ],
    ids=["list_templates", "migrate", "migration_status", "set_adr_export"],
)
async def test_a_reseller_is_selected_by_target_reseller_id(
    make_client: MakeClient, call: Callable[[PlatformClient, LevelTarget], Awaitable[Any]]
) -> None:
    recorder = Recorder(ok({"success": True, "templates": []}))
    client = make_client(recorder)

    await call(client, RESELLER)

    assert query(recorder.last) == {"token": [TOKEN], "targetResellerId": ["1100"]}


@pytest.mark.parametrize(
    ("level", "param"),
    [
        (ScopeLevel.PARTNER, "targetPartnerId"),
        (ScopeLevel.RESELLER, "targetResellerId"),
        (ScopeLevel.ORGANIZATION, "targetOrganizationId"),
    ],
)
async def test_the_adr_export_takes_the_parameter_of_its_level(
    make_client: MakeClient, level: ScopeLevel, param: str
) -> None:
    recorder = Recorder()
    client = make_client(recorder)

    await client.set_adr_export(adr(), target=LevelTarget(level, 77))

    assert query(recorder.last) == {"token": [TOKEN], param: ["77"]}


async def test_an_account_id_is_still_target_account_id(make_client: MakeClient) -> None:
    recorder = Recorder()
    client = make_client(recorder)

    await client.set_adr_export(adr(), target=1111)

    assert query(recorder.last) == {"token": [TOKEN], "targetAccountId": ["1111"]}


async def test_a_status_endpoint_with_its_own_target_sends_only_ours(
    make_client: MakeClient,
) -> None:
    recorder = Recorder(ok({"success": True, "taskId": "t-1"}))
    client = make_client(recorder)

    endpoint = "/api/v2/templates/migrations/t-1?targetResellerId=9&targetAccountId=8"
    await client.migration_status(endpoint, target=RESELLER)

    assert query(recorder.last) == {"token": [TOKEN], "targetResellerId": ["1100"]}


async def test_observers_hear_the_parameter_that_carried_the_target(
    make_client: MakeClient,
) -> None:
    client = make_client(Recorder(ok({"success": True, "taskId": "t-1"})))
    heard: list[Exchange] = []
    client.observers.append(heard.append)

    await client.migrate("tpl-1", target=RESELLER)
    await client.migrate("tpl-1", target=1111)
    await client.migrate("tpl-1")

    assert [(e.target, e.target_param) for e in heard] == [
        (1100, "targetResellerId"),
        (1111, "targetAccountId"),
        (None, "targetAccountId"),
    ]


def test_a_level_without_a_parameter_is_refused() -> None:
    with pytest.raises(ValueError):
        LevelTarget(ScopeLevel.AGENT, 1111)


def account(**fields: Any) -> m.Account:
    return m.Account.model_validate(fields)


ADR_LEVELS = (ScopeLevel.PARTNER, ScopeLevel.RESELLER, ScopeLevel.ORGANIZATION)


@pytest.mark.parametrize(
    ("fields", "levels", "expected"),
    [
        ({"id": 1100, "accountType": "reseller", "resellerId": 1100, "partnerId": 1000},
         (ScopeLevel.RESELLER,), LevelTarget(ScopeLevel.RESELLER, 1100)),
        ({"id": 1000, "accountType": "partner", "partnerId": 1000},
         ADR_LEVELS, LevelTarget(ScopeLevel.PARTNER, 1000)),
        ({"id": 1110, "accountType": "organization", "organizationId": 1110,
          "resellerId": 1100, "partnerId": 1000},
         ADR_LEVELS, LevelTarget(ScopeLevel.ORGANIZATION, 1110)),
        # a reseller admin user (rule 2: organizationId equals resellerId): its reseller
        ({"id": 1199, "accountType": "user", "organizationId": 1100, "resellerId": 1100,
          "partnerId": 1000}, (ScopeLevel.RESELLER,), LevelTarget(ScopeLevel.RESELLER, 1100)),
        # a level the endpoint is not scoped at: targetAccountId, the platform answers
        ({"id": 1110, "accountType": "organization", "organizationId": 1110},
         (ScopeLevel.RESELLER,), 1110),
        ({"id": 1111, "accountType": "account", "organizationId": 1110}, ADR_LEVELS, 1111),
    ],
    ids=["reseller", "partner", "organization", "reseller-user", "org-for-templates", "agent"],
)  # fmt: skip
def test_level_target_of_an_account(
    fields: dict[str, Any], levels: tuple[ScopeLevel, ...], expected: LevelTarget | None
) -> None:
    assert level_target(account(**fields), *levels) == expected


def test_no_account_is_the_key_owner() -> None:
    assert level_target(None, ScopeLevel.RESELLER) is None
