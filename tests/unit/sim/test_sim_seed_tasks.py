"""The demo's seeded outbound tasks (`vagent_tui.sim.seed.TASKS`): the partner's Tasks
screen shows work at once, in the states the platform has, on accounts the partner sees;
they move on with the clock, and the ended ones are in the call log, JSON and CSV alike.

The fake clock starts at 1_800_000_000; tasks run 10 s.
"""

from __future__ import annotations

import csv
import io

from vagent_tui.sim import outbound
from vagent_tui.sim.seed import TASKS

from .helpers import FakeClock, Sim

PLATFORM_STATES = {"pending", "processing", "running", "finished", "errored", "canceled"}
"""The states the vendor lists (vida-skill)."""


async def states(sim: Sim, token: str = "demo-partner") -> dict[str, str]:
    listed = (await sim.get("/tasks", token)).json()
    return {task["id"]: task["state"] for task in listed["tasks"]}


async def test_the_partner_sees_tasks_in_each_state(sim: Sim) -> None:
    shown = await states(sim)
    assert len(shown) == len(TASKS)
    assert set(shown.values()) <= PLATFORM_STATES
    assert set(shown.values()) == {"pending", "running", "finished", "errored"}
    stats = (await sim.get("/tasks/stats")).json()
    assert stats["total"] == len(TASKS) and stats["byState"]["pending"] == 3
    # on voice agent accounts below the partner, none of Acme Dental's (the tests' 1111)
    for account, *_ in TASKS:
        agent = sim.state.accounts[account]
        assert agent.account_type == "account" and agent.partner_id == 1000
        assert agent.organization_id != 1110
    # the reseller sees its own organizations' only; another partner none
    assert 0 < len(await states(sim, "demo-reseller")) < len(TASKS)
    assert await states(sim, "demo-other") == {}


async def test_the_seeded_tasks_move_on_with_the_clock(sim: Sim, clock: FakeClock) -> None:
    before = await states(sim)
    clock.advance(5 * 60)  # past the running one's end and the 2-minute one's start
    after = await states(sim)
    moved = {tid for tid in before if before[tid] != after[tid]}
    assert {(before[t], after[t]) for t in moved} == {("running", "finished"),
                                                      ("pending", "finished")}  # fmt: skip
    assert list(after.values()).count("pending") == 2


async def test_the_ended_ones_are_in_the_call_log_as_json_and_csv(sim: Sim) -> None:
    ended = {t["id"] for t in sim.state.outbound.values()
             if outbound.status(sim.state, t)[0] in ("finished", "errored")}  # fmt: skip
    assert len(ended) == 3
    page = (await sim.get("/logs", pageSize=50)).json()
    in_json = {log["metadata"]["taskId"] for log in page["logs"] if log["id"].startswith("task_")}
    assert in_json == ended
    r = await sim.get("/logs", format="csv", fields="id,status")
    assert r.status_code == 200, r.text
    rows = list(csv.reader(io.StringIO(r.text)))
    in_csv = {row[0].removeprefix("task_") for row in rows[1:] if row[0].startswith("task_")}
    assert in_csv == ended
    assert ["task_task-d0003", "failed"] in rows  # the errored one: its number ends 666


async def test_the_ended_ones_take_their_time_s_place_on_every_page(
    sim: Sim, clock: FakeClock
) -> None:
    """Newest first across the pages, the ended tasks' entries among the computed ones
    (not on top of entries newer than them), no entry twice or left out; the CSV has
    them in the same order."""
    start, end = int(clock.now) - 4 * 3600, int(clock.now)
    whole = (await sim.get("/logs", pageSize=1000, start=start, end=end)).json()
    ids = [log["id"] for log in whole["logs"]]
    assert len(ids) == whole["totalCount"] == len(set(ids))
    times = [log["timestamp"] for log in whole["logs"]]
    assert times == sorted(times, reverse=True)
    places = [n for n, i in enumerate(ids) if i.startswith("task_")]
    assert len(places) == 3 and places[-1] > len(places)  # not all on top
    paged: list[str] = []
    for page in range(1, (len(ids) + 6) // 7 + 1):
        got = (await sim.get("/logs", pageSize=7, page=page, start=start, end=end)).json()
        paged += [log["id"] for log in got["logs"]]
    assert paged == ids
    r = await sim.get("/logs", format="csv", fields="id", start=start, end=end)
    assert [row[0] for row in csv.reader(io.StringIO(r.text))][1:] == ids
