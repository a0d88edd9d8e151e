"""Templates and the migration lifecycle driven by a fake clock."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from .helpers import FakeClock, Sim, envelope


async def migrate(
    sim: Sim, template: str, body: dict[str, Any] | None = None, token: str = "demo-reseller"
) -> httpx.Response:
    kwargs: dict[str, Any] = {} if body is None else {"json": body}
    return await sim.call("POST", f"/templates/{template}/migrate", token, **kwargs)


async def status(sim: Sim, task_id: str, token: str = "demo-reseller") -> dict[str, Any]:
    r = await sim.get(f"/templates/migrations/{task_id}", token)
    assert r.status_code == 200, r.text
    reply: dict[str, Any] = r.json()
    return reply


async def test_templates_list_and_access(sim: Sim) -> None:
    r = (await sim.get("/templates", "demo-reseller")).json()
    ids = {t["id"] for t in r["templates"]}
    assert ids == {"tpl-dental-reception", "tpl-realty-inbound", "tpl-after-hours"}
    t = r["templates"][0]
    assert {"id", "name", "revision", "agentCount", "sections", "updatedAt"} <= t.keys()
    r = (await sim.get("/templates", "demo-partner", targetAccountId=1200)).json()
    assert {t["id"] for t in r["templates"]} == {"tpl-clinic-intake", "tpl-auto-service"}
    for token in ("demo-partner", "demo-org", "demo-agent", "demo-member"):
        envelope(await sim.get("/templates", token), 403)
    one = (await sim.get("/templates/tpl-dental-reception", "demo-reseller")).json()
    assert {a["accountId"] for a in one["template"]["agents"]} == {1111, 1112}
    envelope(await sim.get("/templates/tpl-clinic-intake", "demo-reseller"), 404)


async def test_up_to_date_template_answers_success_alone(sim: Sim) -> None:
    r = await migrate(sim, "tpl-realty-inbound")
    assert r.status_code == 200 and r.json() == {"success": True}
    r = await migrate(sim, "tpl-realty-inbound", {"dryRun": False})
    assert r.json() == {"success": True}


async def test_dry_run_lifecycle(sim: Sim, clock: FakeClock) -> None:
    r = await migrate(sim, "tpl-dental-reception")  # dryRun defaults to true
    task = r.json()
    assert task["success"] is True and task["status"] == "queued"
    assert task["statusEndpoint"] == f"/api/v2/templates/migrations/{task['taskId']}"
    assert task["message"]
    s = await status(sim, task["taskId"])
    assert s["status"] == "queued" and s["dryRun"] is True
    assert s["counts"]["processed"] == 0 and s["counts"]["total"] == 2
    clock.advance(1.5)
    s = await status(sim, task["taskId"])
    assert s["status"] == "running"
    assert [h["status"] for h in s["history"]] == ["queued", "running"]
    clock.advance(5)
    s = await status(sim, task["taskId"])
    assert s["status"] == "running" and s["counts"]["processed"] == 1
    clock.advance(4)
    s = await status(sim, task["taskId"])
    assert s["status"] == "completed" and s["finishedAt"]
    assert s["counts"] == {"total": 2, "processed": 2, "changed": 2, "skipped": 0,
                           "overridesKept": 4, "overridesReplaced": 0}  # fmt: skip
    assert [h["status"] for h in s["history"]] == ["queued", "running", "completed"]
    # a dry run changes nothing
    live = (await sim.get("/agent/cfg-1111")).json()["campaign"]
    assert live["templateRevision"] == 3


async def test_real_run_applies_and_later_dry_run_has_nothing(sim: Sim, clock: FakeClock) -> None:
    body = {"dryRun": False, "forceMigrateOverriddenFields": True,
            "sectionsToMigrate": ["instructions", "voice"]}  # fmt: skip
    task = (await migrate(sim, "tpl-dental-reception", body)).json()
    envelope(await migrate(sim, "tpl-dental-reception", {"dryRun": False}), 409)
    clock.advance(10)
    # nobody polls: the effect still shows
    live = (await sim.get("/agent/cfg-1112")).json()["campaign"]
    assert live["templateRevision"] == 4
    s = await status(sim, task["taskId"])
    assert s["status"] == "completed"
    assert s["counts"]["overridesReplaced"] == 3 and s["counts"]["overridesKept"] == 0
    assert (await migrate(sim, "tpl-dental-reception")).json() == {"success": True}


async def test_failed_template(sim: Sim, clock: FakeClock) -> None:
    task = (await migrate(sim, "tpl-after-hours", {"dryRun": False})).json()
    clock.advance(9)
    s = await status(sim, task["taskId"])
    assert s["status"] == "running" and s["counts"]["processed"] == 1
    clock.advance(1)
    s = await status(sim, task["taskId"])
    assert s["status"] == "failed" and "1122" in s["message"]
    assert s["history"][-1]["status"] == "failed"
    assert (await sim.get("/agent/cfg-1113")).json()["campaign"]["templateRevision"] == 2


@pytest.mark.parametrize(
    "body",
    [
        {"sectionsToMigrate": ["nope"]},
        {"sectionsToMigrate": "voice"},
        {"sectionsToMigrate": [1]},
        {"dryRun": "false"},
        {"forceMigrateOverriddenFields": 1},
    ],
)
async def test_migrate_bad_input(sim: Sim, body: dict[str, Any]) -> None:
    envelope(await migrate(sim, "tpl-dental-reception", body), 400)


async def test_migrate_errors(sim: Sim) -> None:
    envelope(await migrate(sim, "tpl-unknown"), 404)
    envelope(await migrate(sim, "tpl-clinic-intake"), 404)
    envelope(await migrate(sim, "tpl-dental-reception", token="demo-org"), 403)
    r = await sim.call("POST", "/templates/tpl-dental-reception/migrate", "demo-reseller",
                       content=b"{", headers={"content-type": "application/json"})  # fmt: skip
    envelope(r, 400, "Malformed JSON body")
    envelope(await sim.get("/templates/migrations/mig-9999", "demo-reseller"), 404)
    task = (await migrate(sim, "tpl-dental-reception")).json()
    envelope(await sim.get(f"/templates/migrations/{task['taskId']}", "demo-partner",
                           targetAccountId=1200), 404)  # fmt: skip
    assert (await sim.get(f"/templates/migrations/{task['taskId']}", "demo-partner",
                          targetAccountId=1100)).status_code == 200  # fmt: skip
