"""Planning one change for many agent accounts: outcomes, bounded reads, exports."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest

from vagent_tui.api.models import Account
from vagent_tui.api.scope import classify
from vagent_tui.services.accounts import AccountDirectory
from vagent_tui.services.changes import Change, FunctionSwitch
from vagent_tui.services.connect import demo_client
from vagent_tui.services.fleet import fleet_accounts
from vagent_tui.services.rollout import (
    RolloutPlan,
    change_problem,
    csv_cell,
    plan_rollout,
)


async def agents(client: Any) -> list[Account]:
    owner = await client.get_account()
    return await fleet_accounts(AccountDirectory(client, classify(owner), owner))


async def test_a_voice_planned_for_every_agent_with_each_outcome() -> None:
    client = demo_client("demo-partner")
    accounts = await agents(client)
    sim = client.sim_app.state.sim
    sim.clear_log()
    seen: list[int] = []
    plan = await plan_rollout(client, accounts, Change(voice="elevenlabs-rachel"),
                              on_plan=lambda p: seen.append(p.account_id))  # fmt: skip
    assert [p.account_id for p in plan.accounts] == [a.id for a in accounts]  # given order
    assert sorted(seen) == sorted(a.id for a in accounts)
    counts = plan.counts()
    assert counts["change"] and counts["refused"] and counts["already"]
    assert sum(counts.values()) == len(accounts)
    for p in plan.accounts:
        if p.outcome == "change":
            assert p.body == {"agentVoice": "elevenlabs-rachel"} and p.changes
        elif p.outcome == "refused":
            assert p.reasons and not p.body
    assert "not available for this account" in " ".join(r for p in plan.accounts for r in p.reasons)
    assert not [r for r in sim.requests if r.method != "GET"]  # nothing written


async def test_one_unreadable_account_does_not_stop_the_others() -> None:
    client = demo_client("demo-partner")
    accounts = await agents(client)
    outside = Account.model_validate({"id": 9100, "accountType": "account", "name": "Not ours"})
    accounts.insert(3, outside)
    plan = await plan_rollout(client, accounts, Change.of_settings({"speakingTimeout": 900}),
                              concurrency=4)  # fmt: skip
    counts = plan.counts()
    assert counts["unreadable"] == 1 and counts["change"] == len(accounts) - 1
    (bad,) = [p for p in plan.accounts if p.outcome == "unreadable"]
    assert bad.account_id == 9100 and bad.reasons[0].startswith("HTTP 403")


async def test_concurrency_is_bounded() -> None:
    client = demo_client("demo-partner", latency_ms=20)
    accounts = await agents(client)
    in_flight = peak = 0
    real = client.get_staging

    async def counting(**kw: Any) -> Any:
        nonlocal in_flight, peak
        in_flight += 1
        peak = max(peak, in_flight)
        try:
            return await real(**kw)
        finally:
            in_flight -= 1

    client.get_staging = counting  # type: ignore[method-assign]
    await plan_rollout(client, accounts, Change.of_settings({"speakingTimeout": 900}),
                       concurrency=3)  # fmt: skip
    assert peak == 3


def test_a_change_no_account_can_take_is_said_before_planning() -> None:
    assert change_problem(Change()) == "the change sets nothing"
    assert "whole number" in str(change_problem(Change.of_settings({"speakingTimeout": "x"})))
    twice = Change(functions=(FunctionSwitch("a", True), FunctionSwitch("a", False)))
    assert change_problem(twice) == "a function is switched twice in one change"


async def test_plan_rollout_refuses_a_bad_change() -> None:
    with pytest.raises(ValueError, match="sets nothing"):
        await plan_rollout(demo_client("demo-partner"), [], Change())


async def test_json_round_trip_and_csv_is_safe_in_a_spreadsheet() -> None:
    client = demo_client("demo-partner")
    accounts = await agents(client)
    change = Change(functions=(FunctionSwitch("sendEmail", True),),
                    settings=(("speakingTimeout", 900),))  # fmt: skip
    plan = await plan_rollout(client, accounts, change)
    again = RolloutPlan.from_json(plan.to_json())
    assert again.change == change and again.accounts == plan.accounts
    with pytest.raises(ValueError):
        RolloutPlan.from_json('{"version": 99}')
    with pytest.raises(ValueError):
        RolloutPlan.from_json("not json")
    rows = list(csv.reader(io.StringIO(plan.to_csv())))
    assert rows[0] == ["account_id", "account_name", "outcome", "changes", "reasons", "notes"]
    assert len(rows) == len(accounts) + 1
    assert csv_cell("=HYPERLINK(1)") == "'=HYPERLINK(1)" and csv_cell("Acme") == "Acme"


async def test_apply_writes_skips_what_moved_and_a_rerun_finishes(tmp_path: Any) -> None:
    from vagent_tui.services.rollout_apply import RolloutLog, apply_rollout, publish_rollout

    client = demo_client("demo-partner")
    sim = client.sim_app.state.sim
    accounts = await agents(client)
    plan = await plan_rollout(client, accounts, Change.of_settings({"speakingTimeout": 901}))
    changing = [p.account_id for p in plan.accounts if p.outcome == "change"]
    moved = changing[0]
    sim.edit_staging(moved, speakingTimeout=5)  # someone else, after the plan
    log = RolloutLog.for_plan(plan, tmp_path)
    results = await apply_rollout(client, plan, log, concurrency=4)
    by_id = {r.account_id: r.result for r in results}
    assert by_id[moved] == "changed-meanwhile"
    assert all(by_id[a] == "written" for a in changing[1:])
    assert sim.staging[moved]["speakingTimeout"] == 5  # theirs kept
    assert all(sim.staging[a]["speakingTimeout"] == 901 for a in changing[1:])
    assert (log.path.stat().st_mode & 0o777) == 0o600

    sim.clear_log()
    log.release()  # the console quits
    again = RolloutLog.for_plan(RolloutPlan.from_json(plan.to_json()), tmp_path)  # a restart
    rerun = await apply_rollout(client, plan, again)
    assert [r.account_id for r in rerun] == [moved]  # only the one not done
    assert sum(1 for r in sim.requests if r.method == "POST") == 0

    first_wave = again.written()[:3]
    published = await publish_rollout(client, plan, first_wave, again)
    assert {r.result for r in published} == {"published"}
    assert all(sim.staging[a] is None for a in first_wave)
    assert await publish_rollout(client, plan, first_wave, again) == []  # never twice


async def test_a_lost_reply_is_read_back_not_resent(tmp_path: Any) -> None:
    from vagent_tui.services.rollout_apply import RolloutLog, apply_rollout

    client = demo_client("demo-partner")
    sim = client.sim_app.state.sim
    accounts = (await agents(client))[:2]
    plan = await plan_rollout(client, accounts, Change.of_settings({"speakingTimeout": 902}))
    sim.faults.set("malformed", methods={"POST"}, path_contains="/api/v2/agent")
    results = await apply_rollout(client, plan, RolloutLog.for_plan(plan, tmp_path))
    assert {r.result for r in results} == {"written"}
    assert all("read back: the change is there" in r.message for r in results)
    assert sum(1 for r in sim.requests if r.method == "POST") == len(accounts)


async def test_a_cut_off_run_is_finished_by_the_rerun_and_runs_never_overlap(
    tmp_path: Any,
) -> None:
    from vagent_tui.services.rollout_apply import RolloutBusy, RolloutLog, apply_rollout

    client = demo_client("demo-partner")
    sim = client.sim_app.state.sim
    accounts = await agents(client)
    plan = await plan_rollout(client, [*accounts, *accounts[:3]],  # listed twice: once
                              Change.of_settings({"speakingTimeout": 903}))  # fmt: skip
    assert len(plan.accounts) == len(accounts)
    first = plan.accounts[0]
    await client.write_staging(first.body, target=first.account_id)  # written, not recorded
    log = RolloutLog.for_plan(plan, tmp_path)
    log.path.parent.mkdir(parents=True, exist_ok=True)
    log.path.write_bytes(b'{"account_id": 1, "step": "write", "result": "wri')  # cut
    log = RolloutLog.for_plan(plan, tmp_path)
    with pytest.raises(RolloutBusy):  # a second console on the same plan
        other = RolloutLog.for_plan(plan, tmp_path)
        log.hold()
        await apply_rollout(client, plan, other)
    sim.clear_log()
    results = {r.account_id: r for r in await apply_rollout(client, plan, log)}
    assert results[first.account_id].result == "written"
    assert "earlier run" in results[first.account_id].message
    posts = [r for r in sim.requests if r.method == "POST"]
    assert len(posts) == len(accounts) - 1  # each account once; the first not again
    assert first.account_id in log.written()
    reread = RolloutLog.for_plan(plan, tmp_path)  # the cut line kept apart from the rest
    assert set(reread.written()) == set(log.written())


async def test_publish_skips_staging_someone_changed_after_the_write(tmp_path: Any) -> None:
    from vagent_tui.services.rollout_apply import RolloutLog, apply_rollout, publish_rollout

    client = demo_client("demo-partner")
    sim = client.sim_app.state.sim
    accounts = (await agents(client))[:3]
    plan = await plan_rollout(client, accounts, Change.of_settings({"speakingTimeout": 904}))
    log = RolloutLog.for_plan(plan, tmp_path)
    await apply_rollout(client, plan, log)
    touched = accounts[0].id
    sim.edit_staging(touched, callerResponseTimeout=3)  # an unreviewed edit
    results = {r.account_id: r.result for r in await publish_rollout(
        client, plan, log.written(), log)}  # fmt: skip
    assert results[touched] == "changed-meanwhile"
    assert sim.live[touched]["callerResponseTimeout"] != 3
    assert all(results[a.id] == "published" for a in accounts[1:])
