"""Outbound calls, texts and their tasks in the simulator (CONTRACT choices 60 to 69).

The fake clock starts at 1_800_000_000 (2027-01-15T08:00Z); tasks run 10 s.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from vagent_tui.sim import outbound

from .helpers import FakeClock, Sim, envelope

AGENT = 1111
NOW = 1_800_000_000


@pytest.fixture(autouse=True)
def no_seeded_tasks(sim: Sim) -> None:
    """The rules here start from an empty queue: the demo's seeded tasks (none of them
    1111's) are tests/unit/sim/test_sim_seed_tasks.py's."""
    sim.state.outbound.clear()


async def _call(sim: Sim, body: dict[str, Any], **params: Any) -> Any:
    return await sim.call("POST", "/agent/outboundCall", json=body,
                          params={"targetAccountId": AGENT, **params})  # fmt: skip


async def _task(sim: Sim, task_id: str) -> dict[str, Any]:
    r = await sim.get(f"/tasks/{task_id}", targetAccountId=AGENT)
    assert r.status_code == 200, r.text
    task: dict[str, Any] = r.json()["task"]
    return task


async def test_one_call_moves_pending_running_finished(sim: Sim, clock: FakeClock) -> None:
    r = await _call(sim, {"target": "+15551230001", "context": "test"})
    body = r.json()
    assert r.status_code == 200 and body["inserted"] == 1
    task = body["tasks"][0]
    assert task["state"] == "running" and task["target"] == "+15551230001"
    assert task["context"] == "test"
    clock.advance(10)
    done = await _task(sim, task["id"])
    assert done["state"] == "finished" and done["result"] == "answered"
    assert done["logId"] == f"task_{task['id']}"


async def test_scheduled_call_is_pending_until_its_time(sim: Sim, clock: FakeClock) -> None:
    body = (await _call(sim, {"target": "+15551230001", "scheduledFor": NOW + 60})).json()
    task_id = body["tasks"][0]["id"]
    assert (await _task(sim, task_id))["state"] == "pending"
    clock.advance(61)
    assert (await _task(sim, task_id))["state"] == "running"


async def test_targets_with_spacing_and_objects(sim: Sim) -> None:
    body = (await _call(sim, {"targets": ["+15551230001", {"target": "+15551230002",
                                                          "context": "VIP"}],
                              "context": "all", "scheduleSpacingSec": 30})).json()  # fmt: skip
    first, second = body["tasks"]
    assert body["inserted"] == 2
    assert first["context"] == "all" and second["context"] == "VIP"
    assert first["scheduledFor"] is None and second["scheduledFor"] == NOW + 30
    assert second["state"] == "pending"


async def test_errored_target(sim: Sim, clock: FakeClock) -> None:
    task = (await _call(sim, {"target": "+15551230666"})).json()["tasks"][0]
    clock.advance(11)
    done = await _task(sim, task["id"])
    assert done["state"] == "errored" and done["error"]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({}, "target is required"),
        ({"target": "555 123"}, None),
        ({"target": "+15551230001", "targets": ["+15551230002"]}, None),
        ({"targets": []}, None),
        ({"targets": [5]}, None),
        ({"target": "+15551230001", "scheduledFor": "soon"}, None),
    ],
)
async def test_bad_bodies_queue_nothing(
    sim: Sim, body: dict[str, Any], message: str | None
) -> None:
    envelope(await _call(sim, body), 400, message)
    assert sim.state.outbound == {}


async def test_a_call_needs_an_agent_account(sim: Sim) -> None:
    r = await sim.call("POST", "/agent/outboundCall", json={"target": "+15551230001"})
    envelope(r, 400)
    assert sim.state.outbound == {}


async def test_sms_needs_content(sim: Sim) -> None:
    r = await sim.call("POST", "/agent/outboundSms", json={"target": "+15551230001"},
                       params={"targetAccountId": AGENT})  # fmt: skip
    envelope(r, 400, "content is required")
    r = await sim.call("POST", "/agent/outboundSms",
                       json={"target": "+15551230001", "content": "Hi"},
                       params={"targetAccountId": AGENT})  # fmt: skip
    task = r.json()["tasks"][0]
    assert task["type"] == "text" and task["content"] == "Hi"


async def test_daily_cap_refuses_the_whole_request(sim: Sim) -> None:
    sim.state.task_limits[AGENT] = {**outbound.DEFAULT_LIMITS,
                                    "daily": {"calls": 0, "texts": 5, "tasks": 5}}  # fmt: skip
    used = outbound.baseline(AGENT, outbound.run_day({"startAt": NOW}))["calls"]
    sim.state.task_limits[AGENT]["daily"]["calls"] = used + 1
    envelope(await _call(sim, {"targets": ["+15551230001", "+15551230002"]}), 400)
    assert sim.state.outbound == {}
    assert (await _call(sim, {"target": "+15551230001"})).status_code == 200
    counts = (await sim.get("/tasks/dailyCounts", targetAccountId=AGENT)).json()["counts"]
    assert counts["calls"] == used + 1


async def test_business_hours_hold_a_call_until_opening(sim: Sim, clock: FakeClock) -> None:
    # 2027-01-15 is a Friday; 08:00 UTC. Open 09:00-17:00 UTC on Fridays only.
    sim.state.task_limits[AGENT] = {**outbound.DEFAULT_LIMITS, "businessHours": {
        "timezone": "UTC", "days": [5], "start": "09:00", "end": "17:00"}}  # fmt: skip
    task = (await _call(sim, {"target": "+15551230001"})).json()["tasks"][0]
    assert task["state"] == "pending"
    clock.advance(3600)
    assert (await _task(sim, task["id"]))["state"] == "running"
    limits = (await sim.get("/tasks/limits", targetAccountId=AGENT)).json()["limits"]
    assert limits["businessHours"]["days"] == [5]


async def test_list_paging_sort_filters_and_stats(sim: Sim, clock: FakeClock) -> None:
    await _call(sim, {"targets": ["+15551230001", "+15551230002", "+15551230003"],
                      "scheduleSpacingSec": 100})  # fmt: skip
    page = (await sim.get("/tasks", targetAccountId=AGENT, limit=2, offset=0,
                          sort="scheduledFor", order="desc")).json()  # fmt: skip
    assert page["total"] == 3 and len(page["tasks"]) == 2
    assert page["tasks"][0]["target"] == "+15551230003"
    pending = (await sim.get("/tasks", targetAccountId=AGENT, state="pending")).json()
    assert pending["total"] == 2
    clock.advance(20)
    stats = (await sim.get("/tasks/stats", targetAccountId=AGENT)).json()
    assert stats["byState"] == {"pending": 2, "running": 0, "finished": 1, "errored": 0}
    assert stats["total"] == 3
    later = (await sim.get("/tasks", targetAccountId=AGENT, since=NOW + 5)).json()
    assert later["total"] == 1
    envelope(await sim.get("/tasks", targetAccountId=AGENT, sort="name"), 400)
    envelope(await sim.get("/tasks", targetAccountId=AGENT, limit=0), 400)


async def test_create_and_delete(sim: Sim, clock: FakeClock) -> None:
    r = await sim.call("POST", "/tasks", json={"type": "call", "target": "+15551230001",
                                               "scheduledFor": NOW + 600},
                       params={"targetAccountId": AGENT})  # fmt: skip
    assert r.status_code == 201
    task_id = r.json()["task"]["id"]
    untyped = await sim.call("POST", "/tasks", json={"target": "+15551230001"},
                             params={"targetAccountId": AGENT})  # fmt: skip
    envelope(untyped, 400, "type is required")
    gone = await sim.call("DELETE", f"/tasks/{task_id}", params={"targetAccountId": AGENT})
    assert gone.status_code == 200
    envelope(await sim.get(f"/tasks/{task_id}", targetAccountId=AGENT), 404, "Task not found")
    envelope(await sim.call("DELETE", f"/tasks/{task_id}",
                            params={"targetAccountId": AGENT}), 404)  # fmt: skip


async def test_running_task_cannot_be_deleted(sim: Sim) -> None:
    task = (await _call(sim, {"target": "+15551230001"})).json()["tasks"][0]
    envelope(await sim.call("DELETE", f"/tasks/{task['id']}",
                            params={"targetAccountId": AGENT}), 409)  # fmt: skip


async def test_out_of_reach(sim: Sim) -> None:
    task = (await _call(sim, {"target": "+15551230001"})).json()["tasks"][0]
    envelope(await sim.get(f"/tasks/{task['id']}", "demo-org", targetAccountId=1211), 403)


async def test_an_ended_call_is_in_the_call_log(sim: Sim, clock: FakeClock) -> None:
    task = (await _call(sim, {"target": "+15551230001"})).json()["tasks"][0]
    before = (await sim.get("/logs", targetAccountId=AGENT)).json()
    assert all(log["id"] != f"task_{task['id']}" for log in before["logs"])
    clock.advance(10)
    after = (await sim.get("/logs", targetAccountId=AGENT)).json()
    first = after["logs"][0]
    assert first["id"] == f"task_{task['id']}" and first["toNumber"] == "+15551230001"
    assert first["direction"] == "outbound" and first["status"] == "completed"
    assert after["totalCount"] == before["totalCount"] + 1
    only = (await sim.get("/logs", targetAccountId=AGENT, direction="inbound")).json()
    assert all(log["id"] != first["id"] for log in only["logs"])
    r = await sim.call(
        "POST",
        "/conversation/batch",
        params={"targetAccountId": AGENT},
        json={"items": [{"roomId": first["roomId"], "uuid": first["uuid"]}]},
    )
    result = r.json()["results"][0]
    assert result["success"] is True and result["conversation"][0]["callDialog"]


async def _csv(sim: Sim, text: str, dry: bool | None = None) -> Any:
    data = {} if dry is None else {"dryRun": "true" if dry else "false"}
    return await sim.call("POST", "/tasks/csv", params={"targetAccountId": AGENT}, data=data,
                          files={"csv": ("tasks.csv", text.encode(), "text/csv")})  # fmt: skip


CSV = (
    "target,type,message,context,colour\n"
    "+15551230001,call,,VIP,blue\n"
    "555 1234,call,,,\n"
    "+15551230002,text,,,\n"
    "+15551230003,text,Hello,,\n"
)


async def test_csv_dry_run_reports_each_row_and_queues_nothing(sim: Sim) -> None:
    body = (await _csv(sim, CSV, dry=True)).json()
    assert body["dryRun"] is True and body["total"] == 4
    assert (body["valid"], body["refused"], body["inserted"]) == (2, 2, 0)
    assert [r["ok"] for r in body["rows"]] == [True, False, False, True]
    assert body["rows"][1]["row"] == 3 and "E.164" in body["rows"][1]["reason"]
    assert "message" in body["rows"][2]["reason"]
    assert body["ignoredColumns"] == ["colour"]
    assert sim.state.outbound == {}


async def test_csv_for_real_queues_the_valid_rows(sim: Sim) -> None:
    body = (await _csv(sim, CSV, dry=False)).json()
    assert body["inserted"] == 2 and len(body["tasks"]) == 2
    assert body["rows"][0]["taskId"] == body["tasks"][0]["id"]
    assert {t["target"] for t in sim.state.outbound.values()} == {"+15551230001", "+15551230003"}


async def test_csv_rows_past_the_daily_cap_are_refused(sim: Sim) -> None:
    used = outbound.baseline(AGENT, outbound.run_day({"startAt": NOW}))["calls"]
    daily = {"calls": used + 2, "texts": 5, "tasks": 500}
    sim.state.task_limits[AGENT] = {**outbound.DEFAULT_LIMITS, "daily": daily}
    rows = "".join(f"+1555123{n:04d}\n" for n in range(5))
    body = (await _csv(sim, "target\n" + rows, dry=True)).json()
    assert [r["ok"] for r in body["rows"]] == [True, True, False, False, False]
    assert "Daily calls limit" in body["rows"][2]["reason"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("name\nx\n", "the CSV needs a header row with a target column"),
        ("target\n", "the CSV has no rows"),
    ],
)
async def test_csv_refusals(sim: Sim, text: str, message: str) -> None:
    envelope(await _csv(sim, text), 400, message)
    r = await sim.call("POST", "/tasks/csv", params={"targetAccountId": AGENT},
                       data={"dryRun": "maybe"},
                       files={"csv": ("t.csv", b"target\n+15551230001\n", "text/csv")})  # fmt: skip
    envelope(r, 400)
    assert sim.state.outbound == {}


# ---------------------------------------------------------------- limits: edit (choice 68)


async def _limits(sim: Sim, body: Any, token: str = "demo-partner") -> Any:
    return await sim.call("POST", "/tasks/limits", token, json=body,
                          params={"targetAccountId": AGENT})  # fmt: skip


def _owner_is_super_admin(sim: Sim) -> None:
    owner = sim.state.accounts[1000]  # demo-partner's account
    sim.state.accounts[owner.id] = replace(owner, super_admin=True)


async def test_limits_update_lays_the_fields_sent_over_the_rest(sim: Sim) -> None:
    r = await _limits(sim, {"cooldowns": {"calls": 120},
                            "businessHours": {"days": [5, 1, 1], "start": "09:00",
                                              "end": "17:00"}})  # fmt: skip
    assert r.status_code == 200, r.text
    limits = r.json()["limits"]
    assert limits["cooldowns"] == {"calls": 120, "texts": 30}
    assert limits["businessHours"] == {"timezone": "UTC", "days": [1, 5], "start": "09:00",
                                       "end": "17:00"}  # fmt: skip
    assert limits["daily"] == outbound.DEFAULT_LIMITS["daily"]
    read = (await sim.get("/tasks/limits", targetAccountId=AGENT)).json()["limits"]
    assert read == limits
    assert outbound.DEFAULT_LIMITS["cooldowns"] == {"calls": 60, "texts": 30}  # untouched


@pytest.mark.parametrize("body", [{"daily": {"calls": 5}}, {"concurrencyPerRun": 2},
                                  {"cooldowns": {"calls": 5}, "daily": {"tasks": 1}}])  # fmt: skip
async def test_limits_daily_and_concurrency_are_a_super_admins(
    sim: Sim, body: dict[str, Any]
) -> None:
    r = await _limits(sim, body)
    envelope(r, 403)
    assert "super admin" in r.json()["message"]
    assert sim.state.task_limits == {}
    _owner_is_super_admin(sim)
    assert (await _limits(sim, body)).status_code == 200
    assert AGENT in sim.state.task_limits


@pytest.mark.parametrize(
    ("body", "word"),
    [
        ({}, "Nothing to update"),
        ({"colour": 1}, "Unknown field: colour"),
        ({"cooldowns": {"calls": -1}}, "cooldowns.calls"),
        ({"cooldowns": {"calls": True}}, "cooldowns.calls"),
        ({"cooldowns": {"sms": 5}}, "Unknown field: cooldowns.sms"),
        ({"cooldowns": 5}, "cooldowns must be an object"),
        ({"businessHours": {"timezone": "Mars/Olympus"}}, "not a known time zone"),
        ({"businessHours": {"days": []}}, "businessHours.days"),
        ({"businessHours": {"days": [9]}}, "businessHours.days[0]"),
        ({"businessHours": {"start": "9:00"}}, "businessHours.start"),
        ({"businessHours": {"start": "18:00", "end": "17:00"}}, "businessHours.end"),
        ({"concurrencyPerRun": 0}, "concurrencyPerRun"),
        ({"daily": {"calls": "many"}}, "daily.calls"),
    ],
)
async def test_limits_refusals_change_nothing(sim: Sim, body: Any, word: str) -> None:
    _owner_is_super_admin(sim)
    r = await _limits(sim, body)
    envelope(r, 400)
    assert word in r.json()["message"]
    assert sim.state.task_limits == {}


# ---------------------------------------------------------------- cooldowns, concurrency (69)


async def test_a_second_call_to_a_number_waits_for_its_cooldown(sim: Sim, clock: FakeClock) -> None:
    sim.state.task_limits[AGENT] = {**outbound.DEFAULT_LIMITS,
                                    "cooldowns": {"calls": 100, "texts": 0}}  # fmt: skip
    first = (await _call(sim, {"target": "+15551230001"})).json()["tasks"][0]
    second = (await _call(sim, {"target": "+15551230001"})).json()["tasks"][0]
    other = (await _call(sim, {"target": "+15551230002"})).json()["tasks"][0]
    assert first["state"] == "running" and other["state"] == "running"
    assert second["state"] == "pending" and second["heldBy"] == "cooldown"
    clock.advance(99)
    assert (await _task(sim, second["id"]))["state"] == "pending"
    clock.advance(1)
    now = await _task(sim, second["id"])
    assert now["state"] == "running" and "heldBy" not in now
    # A text to the same number has no cooldown of its own here.
    r = await sim.call("POST", "/agent/outboundSms", json={"target": "+15551230001",
                       "content": "Hi"}, params={"targetAccountId": AGENT})  # fmt: skip
    assert r.json()["tasks"][0]["state"] == "running"


async def test_concurrency_holds_the_tasks_past_it_until_one_ends(
    sim: Sim, clock: FakeClock
) -> None:
    sim.state.task_limits[AGENT] = {**outbound.DEFAULT_LIMITS, "concurrencyPerRun": 2}
    body = (await _call(sim, {"targets": [f"+1555123000{n}" for n in range(5)]})).json()
    states = [t["state"] for t in body["tasks"]]
    assert states == ["running", "running", "pending", "pending", "pending"]
    assert body["tasks"][2]["heldBy"] == "concurrency"
    clock.advance(10)  # the first two end (10 s each); the next two run
    states = [(await _task(sim, t["id"]))["state"] for t in body["tasks"]]
    assert states == ["finished", "finished", "running", "running", "pending"]
    clock.advance(10)
    assert (await _task(sim, body["tasks"][4]["id"]))["state"] == "running"


async def test_a_csv_run_is_held_by_the_concurrency_not_refused(sim: Sim) -> None:
    sim.state.task_limits[AGENT] = {**outbound.DEFAULT_LIMITS, "concurrencyPerRun": 3}
    rows = "".join(f"+1555124{n:04d}\n" for n in range(9))
    body = (await _csv(sim, "target\n" + rows, dry=False)).json()
    assert body["inserted"] == 9
    starts = sorted(t["startAt"] for t in sim.state.outbound.values())
    assert starts == [NOW] * 3 + [NOW + 10] * 3 + [NOW + 20] * 3
