"""Resources scoped at a level take that level's parameter (spec rule 9; issue 15, point 12).

Templates and their migrations belong to a reseller: ``targetResellerId`` selects it.
The ADR export is configured at partner, reseller or organization level:
``targetPartnerId``, ``targetResellerId`` or ``targetOrganizationId``. Each is checked
like ``targetAccountId`` (in reach, else 403) and must name an account of its level
(else 400).
"""

from __future__ import annotations

from typing import Any

import pytest

from .helpers import Sim, envelope

ADR = {"deliveryProtocol": "sftp", "rotationMinutes": "60", "host": "files.example.com",
       "port": 22, "username": "adr", "password": "pw"}  # fmt: skip


async def test_a_partner_lists_a_resellers_templates_by_target_reseller_id(sim: Sim) -> None:
    r = await sim.get("/templates", "demo-partner", targetResellerId=1200)
    assert r.status_code == 200, r.text
    assert {t["id"] for t in r.json()["templates"]} == {"tpl-clinic-intake", "tpl-auto-service"}
    one = await sim.get("/templates/tpl-clinic-intake", "demo-partner", targetResellerId=1200)
    assert one.status_code == 200 and one.json()["template"]["id"] == "tpl-clinic-intake"


async def test_a_migration_is_started_and_read_by_target_reseller_id(sim: Sim) -> None:
    params = {"targetResellerId": 1100}
    r = await sim.call("POST", "/templates/tpl-dental-reception/migrate", "demo-partner",
                       params=params, json={"dryRun": True})  # fmt: skip
    assert r.status_code == 200, r.text
    task = r.json()
    assert task["taskId"]
    status = await sim.get(f"/templates/migrations/{task['taskId']}", "demo-partner", **params)
    assert status.status_code == 200 and status.json()["taskId"] == task["taskId"]
    # The task is the reseller's: another reseller does not see it.
    other = await sim.get(
        f"/templates/migrations/{task['taskId']}", "demo-partner", targetResellerId=1200
    )
    envelope(other, 404, "Migration task not found")


@pytest.mark.parametrize(
    ("params", "status", "message"),
    [
        ({"targetResellerId": 1110}, 400, "targetResellerId must select a reseller account"),
        ({"targetResellerId": 9100}, 403, "Target account is outside your hierarchy"),
        ({"targetResellerId": "x"}, 400, "targetResellerId must be an integer"),
        ({"targetResellerId": 1100, "targetAccountId": 1200}, 400,
         "targetAccountId and targetResellerId select different accounts"),
    ],
    ids=["not-a-reseller", "outside", "not-an-integer", "disagree"],
)  # fmt: skip
async def test_a_bad_target_reseller_id_is_refused(
    sim: Sim, params: dict[str, Any], status: int, message: str
) -> None:
    envelope(await sim.get("/templates", "demo-partner", **params), status, message)


async def test_a_reseller_key_needs_no_target(sim: Sim) -> None:
    r = await sim.get("/templates", "demo-reseller", targetResellerId=1100)
    assert r.status_code == 200
    envelope(await sim.get("/templates", "demo-reseller", targetResellerId=1200), 403)


@pytest.mark.parametrize(
    ("params", "owner"),
    [
        ({"targetPartnerId": 1000}, 1000),
        ({"targetResellerId": 1100}, 1100),
        ({"targetOrganizationId": 1110}, 1110),
        ({"targetAccountId": 1110}, 1110),  # rule 7: an organization by targetAccountId
    ],
    ids=["partner", "reseller", "organization", "account-id"],
)
async def test_the_adr_export_takes_the_parameter_of_its_level(
    sim: Sim, params: dict[str, Any], owner: int
) -> None:
    r = await sim.call("POST", "/billing/adrExportConfig", "demo-partner", params=params, json=ADR)
    assert r.status_code == 200, r.text
    assert set(sim.state.adr) == {owner}


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"targetOrganizationId": 1100},
         "targetOrganizationId must select an organization account"),
        ({"targetPartnerId": 1100}, "targetPartnerId must select a partner account"),
        ({"targetResellerId": 1100, "targetOrganizationId": 1110},
         "send one of targetPartnerId, targetResellerId, targetOrganizationId, not several"),
    ],
    ids=["org-param-on-a-reseller", "partner-param-on-a-reseller", "two"],
)  # fmt: skip
async def test_a_bad_adr_level_parameter_is_refused(
    sim: Sim, params: dict[str, Any], message: str
) -> None:
    r = await sim.call("POST", "/billing/adrExportConfig", "demo-partner", params=params, json=ADR)
    envelope(r, 400, message)
    assert sim.state.adr == {}


async def test_a_restricted_member_may_name_a_permitted_account_by_its_level(sim: Sim) -> None:
    member = sim.state.accounts[1119]
    member.permitted_ids = [1110, 1112]  # its organization permitted, for this test
    params = {"targetOrganizationId": 1110}
    r = await sim.call("POST", "/billing/adrExportConfig", "demo-member", params=params, json=ADR)
    assert r.status_code == 200, r.text  # the same account as targetAccountId is taken too
    refused = await sim.call("POST", "/billing/adrExportConfig", "demo-member",
                             params={"targetOrganizationId": 1120}, json=ADR)  # fmt: skip
    assert refused.status_code == 403  # not permitted: refused by the level's own check
