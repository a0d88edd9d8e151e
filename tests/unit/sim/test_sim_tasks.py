"""Outbound calls, texts and their tasks in the simulator (CONTRACT choices 60 to 69).

The fake clock starts at 1_800_000_000 (2027-01-15T08:00Z); tasks run 10 s. The limits
are the organization's (ORG, Acme Dental Group, holds AGENT and SISTER).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from vagent_tui.sim import outbound

from .helpers import FakeClock, Sim, envelope

AGENT = 1111
SISTER = 1112
"""Another voice agent of AGENT's organization."""
ORG = 1110
NOW = 1_800_000_000
FRIDAY_9_TO_5 = {"timezone": "UTC", "days": [5], "start": "09:00", "end": "17:00"}
"""Business hours that open an hour after the fake clock's start (a Friday, 08:00)."""


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
    sim.state.task_limits[ORG] = {**outbound.DEFAULT_LIMITS,
                                  "daily": {"calls": 0, "texts": 5, "tasks": 5}}  # fmt: skip
    used = outbound.baseline(ORG, outbound.run_day({"startAt": NOW}))["calls"]
    sim.state.task_limits[ORG]["daily"]["calls"] = used + 1
    envelope(await _call(sim, {"targets": ["+15551230001", "+15551230002"]}), 400)
    assert sim.state.outbound == {}
    assert (await _call(sim, {"target": "+15551230001"})).status_code == 200
    counts = (await sim.get("/tasks/dailyCounts", targetAccountId=AGENT)).json()["counts"]
    assert counts["calls"] == used + 1


async def test_the_limits_are_the_organizations(sim: Sim, clock: FakeClock) -> None:
    """One set for the organization, read and written from any account of it, bounding
    its agents together: the cap counts both agents' calls, the cooldown spans them."""
    r = await sim.call("POST", "/tasks/limits", json={"cooldowns": {"calls": 100}},
                       params={"targetAccountId": SISTER})  # fmt: skip
    assert r.status_code == 200, r.text
    assert list(sim.state.task_limits) == [ORG]
    for account in (AGENT, ORG, SISTER):
        limits = (await sim.get("/tasks/limits", targetAccountId=account)).json()["limits"]
        assert limits["cooldowns"]["calls"] == 100, account
    other = (await sim.get("/tasks/limits", targetAccountId=1121)).json()["limits"]
    assert other == outbound.DEFAULT_LIMITS  # another organization's
    first = (await _call(sim, {"target": "+15551230001"})).json()["tasks"][0]
    r = await sim.call("POST", "/agent/outboundCall", json={"target": "+15551230001"},
                       params={"targetAccountId": SISTER})  # fmt: skip
    second = r.json()["tasks"][0]
    assert first["state"] == "running"
    assert second["state"] == "pending" and second["heldBy"] == "cooldown"
    counts = (await sim.get("/tasks/dailyCounts", targetAccountId=SISTER)).json()["counts"]
    base = outbound.baseline(ORG, outbound.run_day({"startAt": NOW}))
    assert counts["calls"] == base["calls"] + 2  # both agents' calls


async def test_business_hours_hold_a_call_sent_without_a_time(sim: Sim, clock: FakeClock) -> None:
    sim.state.task_limits[ORG] = {**outbound.DEFAULT_LIMITS, "businessHours": FRIDAY_9_TO_5}
    task = (await _call(sim, {"target": "+15551230001"})).json()["tasks"][0]
    assert task["state"] == "pending" and task["heldBy"] == "businessHours"
    clock.advance(3600)
    assert (await _task(sim, task["id"]))["state"] == "running"
    limits = (await sim.get("/tasks/limits", targetAccountId=AGENT)).json()["limits"]
    assert limits["businessHours"]["days"] == [5]


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/agent/outboundCall", {"target": "+15551230001", "scheduledFor": NOW + 600}),
        # one item of a batch at 17:00, the others at 09:00: the whole batch is refused
        (
            "/agent/outboundCall",
            {
                "targets": [
                    "+15551230002",
                    {"target": "+15551230001", "scheduledFor": NOW + 9 * 3600},
                ],
                "scheduledFor": NOW + 3600,
            },
        ),
        ("/tasks", {"type": "call", "target": "+15551230001", "scheduledFor": NOW + 600}),
    ],
)
async def test_a_time_asked_outside_the_business_hours_is_refused(
    sim: Sim, path: str, body: dict[str, Any]
) -> None:
    """vida-skill: "an initial scheduledFor outside configured business hours is
    rejected" (08:10 and 17:00 on a Friday open 09:00-17:00); nothing is queued."""
    sim.state.task_limits[ORG] = {**outbound.DEFAULT_LIMITS, "businessHours": FRIDAY_9_TO_5}
    r = await sim.call("POST", path, json=body, params={"targetAccountId": AGENT})
    envelope(r, 400)
    assert "outside the business hours" in r.json()["message"]
    assert sim.state.outbound == {}
    inside = {"target": "+15551230001", "scheduledFor": NOW + 3600}
    assert (await _call(sim, inside)).status_code == 200


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
    assert stats["byState"] == {"pending": 2, "running": 0, "finished": 1, "errored": 0,
                                "canceled": 0}  # fmt: skip
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


async def test_a_running_task_is_stopped_and_deleted(sim: Sim, clock: FakeClock) -> None:
    """vida-skill: "deletion stops active work before removing the Task record"."""
    task = (await _call(sim, {"target": "+15551230001"})).json()["tasks"][0]
    assert task["state"] == "running"
    r = await sim.call("DELETE", f"/tasks/{task['id']}", params={"targetAccountId": AGENT})
    assert r.status_code == 200, r.text
    envelope(await sim.get(f"/tasks/{task['id']}", targetAccountId=AGENT), 404)
    clock.advance(10)
    logs = (await sim.get("/logs", targetAccountId=AGENT)).json()["logs"]
    assert all(log["id"] != f"task_{task['id']}" for log in logs)  # it never ended


async def _update(sim: Sim, task_id: str, body: Any) -> Any:
    return await sim.call("POST", f"/tasks/{task_id}", json=body,
                          params={"targetAccountId": AGENT})  # fmt: skip


async def test_cancel_a_pending_and_a_running_task(sim: Sim, clock: FakeClock) -> None:
    """``POST /tasks/{taskId}`` with ``state: canceled`` (the reference's example): the
    task stays listed as canceled, never placed (a pending one) or stopped (a running
    one), leaves no call and counts for no cap."""
    running = (await _call(sim, {"target": "+15551230001"})).json()["tasks"][0]
    pending = (await _call(sim, {"target": "+15551230002", "scheduledFor": NOW + 60})).json()
    pending = pending["tasks"][0]
    before = (await sim.get("/tasks/dailyCounts", targetAccountId=AGENT)).json()["counts"]
    clock.advance(3)
    for task, started in ((pending, False), (running, True)):
        r = await _update(sim, task["id"], {"state": "canceled"})
        assert r.status_code == 200, r.text
        now = r.json()["task"]
        assert now["state"] == "canceled" and now["canceledAt"] == NOW + 3
        assert (now["startedAt"] is not None) is started
    clock.advance(100)
    assert (await _task(sim, pending["id"]))["state"] == "canceled"
    assert (await _task(sim, running["id"]))["state"] == "canceled"
    stats = (await sim.get("/tasks/stats", targetAccountId=AGENT)).json()["byState"]
    assert stats["canceled"] == 2 and stats["finished"] == 0
    listed = (await sim.get("/tasks", targetAccountId=AGENT, state="canceled")).json()
    assert listed["total"] == 2
    logs = (await sim.get("/logs", targetAccountId=AGENT)).json()["logs"]
    assert not [log for log in logs if log["id"].startswith("task_")]
    after = (await sim.get("/tasks/dailyCounts", targetAccountId=AGENT)).json()["counts"]
    assert after["calls"] == before["calls"] - 1  # the pending one is never placed
    again = await _update(sim, pending["id"], {"state": "canceled"})
    assert again.status_code == 200 and again.json()["task"]["canceledAt"] == NOW + 3


async def test_updates_refused(sim: Sim, clock: FakeClock) -> None:
    running = (await _call(sim, {"target": "+15551230001"})).json()["tasks"][0]
    pending = (await _call(sim, {"target": "+15551230002", "scheduledFor": NOW + 60})).json()
    pending_id = pending["tasks"][0]["id"]
    r = await _update(sim, pending_id, {"context": "Ask for Dana", "waitToGreet": True})
    assert r.status_code == 200 and r.json()["task"]["context"] == "Ask for Dana"
    for body, word in (({"state": "paused"}, "only be set to canceled"),
                       ({}, "Nothing to update"), ({"title": "x"}, "Unknown field: title"),
                       ({"context": 5}, "context must be a string")):  # fmt: skip
        r = await _update(sim, pending_id, body)
        envelope(r, 400)
        assert word in r.json()["message"]
    envelope(await _update(sim, running["id"], {"context": "late"}), 400)
    clock.advance(10)
    r = await _update(sim, running["id"], {"state": "canceled"})
    envelope(r, 400)
    assert "has ended (finished)" in r.json()["message"]
    envelope(await _update(sim, "task-nope", {"state": "canceled"}), 404, "Task not found")
    assert (await _task(sim, pending_id))["state"] == "pending"


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


async def test_a_csv_row_timed_outside_the_business_hours_is_refused(sim: Sim) -> None:
    sim.state.task_limits[ORG] = {**outbound.DEFAULT_LIMITS, "businessHours": FRIDAY_9_TO_5}
    text = f"target,scheduledFor\n+15551230001,{NOW + 600}\n+15551230002,{NOW + 3600}\n"
    body = (await _csv(sim, text, dry=True)).json()
    assert [r["ok"] for r in body["rows"]] == [False, True]
    assert "outside the business hours" in body["rows"][0]["reason"]


async def test_csv_rows_past_the_daily_cap_are_refused(sim: Sim) -> None:
    used = outbound.baseline(ORG, outbound.run_day({"startAt": NOW}))["calls"]
    daily = {"calls": used + 2, "texts": 5, "tasks": 500}
    sim.state.task_limits[ORG] = {**outbound.DEFAULT_LIMITS, "daily": daily}
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
    assert list(sim.state.task_limits) == [ORG]


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
    sim.state.task_limits[ORG] = {**outbound.DEFAULT_LIMITS,
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
    sim.state.task_limits[ORG] = {**outbound.DEFAULT_LIMITS, "concurrencyPerRun": 2}
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
    sim.state.task_limits[ORG] = {**outbound.DEFAULT_LIMITS, "concurrencyPerRun": 3}
    rows = "".join(f"+1555124{n:04d}\n" for n in range(9))
    body = (await _csv(sim, "target\n" + rows, dry=False)).json()
    assert body["inserted"] == 9
    starts = sorted(t["startAt"] for t in sim.state.outbound.values())
    assert starts == [NOW] * 3 + [NOW + 10] * 3 + [NOW + 20] * 3


async def test_a_pending_task_rescheduled_and_its_message_changed(
    sim: Sim, clock: FakeClock
) -> None:
    """Choice 112: a pending task's start, greeting (a call) and content (a text) change;
    a new start is planned as a new task's (outside the hours 400); not once it runs."""
    sim.state.task_limits[ORG] = {**outbound.DEFAULT_LIMITS, "businessHours": FRIDAY_9_TO_5}
    task = (await _call(sim, {"target": "+15551230002", "scheduledFor": NOW + 7200})).json()
    task_id = task["tasks"][0]["id"]
    r = await _update(sim, task_id, {"scheduledFor": NOW + 3 * 3600, "greeting": "Hi Dana"})
    assert r.status_code == 200, r.text
    now = r.json()["task"]
    assert now["scheduledFor"] == NOW + 3 * 3600 and now["greeting"] == "Hi Dana"
    assert now["state"] == "pending"
    for body, word in (({"scheduledFor": NOW + 600}, "outside the business hours"),
                       ({"content": "a text's"}, "content is a text's"),
                       ({"state": "canceled", "context": "x"}, "Cancel alone"),
                       ({"scheduledFor": "soon"}, "Unix seconds")):  # fmt: skip
        r = await _update(sim, task_id, body)
        envelope(r, 400)
        assert word in r.json()["message"]
    assert (await _task(sim, task_id))["scheduledFor"] == NOW + 3 * 3600
    clock.advance(3 * 3600)
    r = await _update(sim, task_id, {"greeting": "late"})
    envelope(r, 400)
    assert "is running" in r.json()["message"]
