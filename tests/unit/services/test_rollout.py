"""Planning one change for many agent accounts: outcomes, bounded reads, exports."""

from __future__ import annotations

import csv
import io
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import id_of
from vagent_tui.api.models import Account
from vagent_tui.api.scope import classify
from vagent_tui.inert import csv_cell
from vagent_tui.services.accounts import AccountDirectory
from vagent_tui.services.agent_listing import fleet_accounts
from vagent_tui.services.changes import Change, FunctionSwitch
from vagent_tui.services.connect import demo_client
from vagent_tui.services.rollout import AccountPlan, RolloutPlan, change_problem
from vagent_tui.services.rollout_planning import plan_rollout


def no_drafts(sim: Any) -> None:
    """Empty every seeded agent's staging (the seed keeps unpublished drafts in some)."""
    for account_id in list(sim.staging):
        sim.staging[account_id] = None


async def agents(client: Any) -> list[Account]:
    owner = await client.get_account()
    return await fleet_accounts(AccountDirectory(client, classify(owner), owner))


async def test_a_voice_planned_for_every_agent_with_each_outcome() -> None:
    client = demo_client("demo-partner")
    accounts = await agents(client)
    sim = client.sim_app.state.sim
    sim.clear_log()
    seen: list[int] = []

    def planned(p: AccountPlan | None) -> None:
        assert p is not None  # nothing is left out here
        seen.append(p.account_id)

    plan = await plan_rollout(client, accounts, Change(voice="elevenlabs-rachel"), on_plan=planned)
    assert [p.account_id for p in plan.accounts] == [a.id for a in accounts]  # given order
    assert sorted(seen) == sorted(id_of(a) for a in accounts)
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
    real = client.get_slot

    async def counting(slot: Any, **kw: Any) -> Any:
        nonlocal in_flight, peak
        in_flight += slot == "staging"
        peak = max(peak, in_flight)
        try:
            return await real(slot, **kw)
        finally:
            in_flight -= slot == "staging"

    client.get_slot = counting  # type: ignore[method-assign]
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


async def test_apply_writes_skips_what_moved_and_a_rerun_finishes(tmp_path: Path) -> None:
    from vagent_tui.services.bulk import RolloutLog
    from vagent_tui.services.rollout_apply import apply_rollout, publish_rollout

    client = demo_client("demo-partner")
    no_drafts(client.sim_app.state.sim)  # see test_drafts_are_noted_in_the_plan...
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


async def test_a_lost_reply_is_read_back_not_resent(tmp_path: Path) -> None:
    from vagent_tui.services.bulk import RolloutLog
    from vagent_tui.services.rollout_apply import apply_rollout

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
    tmp_path: Path,
) -> None:
    from vagent_tui.services.bulk import RolloutBusy, RolloutLog
    from vagent_tui.services.rollout_apply import apply_rollout

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


async def test_publish_skips_staging_someone_changed_after_the_write(tmp_path: Path) -> None:
    from vagent_tui.services.bulk import RolloutLog
    from vagent_tui.services.rollout_apply import apply_rollout, publish_rollout

    client = demo_client("demo-partner")
    no_drafts(client.sim_app.state.sim)  # see test_drafts_are_noted_in_the_plan...
    sim = client.sim_app.state.sim
    accounts = (await agents(client))[:3]
    plan = await plan_rollout(client, accounts, Change.of_settings({"speakingTimeout": 904}))
    log = RolloutLog.for_plan(plan, tmp_path)
    await apply_rollout(client, plan, log)
    touched = id_of(accounts[0])
    sim.edit_staging(touched, callerResponseTimeout=3)  # an unreviewed edit
    results = {r.account_id: r.result for r in await publish_rollout(
        client, plan, log.written(), log)}  # fmt: skip
    assert results[touched] == "changed-meanwhile"
    assert sim.live[touched]["callerResponseTimeout"] != 3
    assert all(results[id_of(a)] == "published" for a in accounts[1:])


# ---------------------------------------------------------------- planning with a filter


async def test_keep_leaves_out_accounts_and_the_plan_counts_them() -> None:
    from vagent_tui.services.rollout_pick import AccountFilter

    client = demo_client("demo-partner")
    sim = client.sim_app.state.sim
    accounts = await agents(client)
    keep = AccountFilter.parse("lang:en-US").matches_config
    seen: list[Any] = []
    plan = await plan_rollout(client, accounts, Change.of_settings({"speakingTimeout": 910}),
                              keep=keep, on_plan=seen.append, concurrency=3)  # fmt: skip
    other_lang = {a.id for a in accounts if (sim.staging[a.id] or sim.live[a.id])["agentLang"]
                  != "en-US"}  # fmt: skip
    assert other_lang == {1112, 1212, 1312, 1321, 1322}  # the seed's languages
    assert plan.left_out == len(other_lang)
    assert [p.account_id for p in plan.accounts] == [a.id for a in accounts
                                                     if a.id not in other_lang]  # fmt: skip
    assert seen.count(None) == len(other_lang)  # progress hears of each left out
    assert len(seen) == len(accounts)
    assert plan.summary().endswith(f"({len(other_lang)} left out by the filter)")
    assert "left out" not in (await plan_rollout(
        client, accounts[:2], Change.of_settings({"speakingTimeout": 910}))).summary()  # fmt: skip


async def test_keep_gets_the_configuration_planned_against() -> None:
    client = demo_client("demo-partner")
    sim = client.sim_app.state.sim
    accounts = await agents(client)
    given: dict[str, Any] = {}

    def keep(config: Any) -> bool:
        given[config["agentVoice"]] = config
        return bool(config["agentVoice"] == "gemini-kore")

    sim.edit_staging(1111, agentVoice="gemini-kore")  # staging, not live, is read
    plan = await plan_rollout(client, accounts, Change.of_settings({"speakingTimeout": 911}),
                              keep=keep)  # fmt: skip
    assert sorted(p.account_id for p in plan.accounts) == [1111, 1322]
    assert plan.left_out == len(accounts) - 2
    assert "elevenlabs-rachel" not in given  # 1111's live voice was never looked at
    assert all(p.base is not None and p.base["agentVoice"] == "gemini-kore"
               for p in plan.accounts)  # fmt: skip


async def test_an_unreadable_account_is_an_outcome_not_left_out() -> None:
    client = demo_client("demo-partner")
    accounts = (await agents(client))[:2]
    outside = Account.model_validate({"id": 9100, "accountType": "account", "name": "Not ours"})
    plan = await plan_rollout(client, [*accounts, outside],
                              Change.of_settings({"speakingTimeout": 912}),
                              keep=lambda _config: False)  # fmt: skip
    assert [p.outcome for p in plan.accounts] == ["unreadable"]
    assert plan.left_out == 2


async def test_left_out_counts_each_account_once() -> None:
    client = demo_client("demo-partner")
    accounts = (await agents(client))[:3]
    plan = await plan_rollout(client, [*accounts, *accounts],
                              Change.of_settings({"speakingTimeout": 913}),
                              keep=lambda config: config["agentLang"] == "en-US")  # fmt: skip
    assert [p.account_id for p in plan.accounts] == [1111, 1113]
    assert plan.left_out == 1  # 1112, listed twice


async def test_json_keeps_origin_chosen_and_left_out() -> None:
    from vagent_tui.services.bulk import plan_id

    client = demo_client("demo-partner")
    accounts = await agents(client)
    change = Change(voice="openai-ash", functions=(FunctionSwitch("sendSms", False),),
                    settings=(("speakingTimeout", 914), ("agentLang", "en-US")))  # fmt: skip
    plan = await plan_rollout(client, accounts, change,
                              keep=lambda config: config["agentLang"] == "en-US",
                              origin="sim://demo · Northwind Voice Partners",
                              chosen="under 1000 · lang:en-US")  # fmt: skip
    assert plan.origin == "sim://demo · Northwind Voice Partners"
    assert plan.chosen == "under 1000 · lang:en-US"
    again = RolloutPlan.from_json(plan.to_json())
    assert again == plan
    assert (again.origin, again.chosen, again.left_out) == (plan.origin, plan.chosen, 5)
    assert again.to_json() == plan.to_json() and plan_id(again) == plan_id(plan)
    assert again.summary() == plan.summary()


def test_json_of_an_older_plan_reads_with_defaults() -> None:
    old = '{"version": 1, "change": {"voice": "x"}, "accounts": []}'
    plan = RolloutPlan.from_json(old)
    assert (plan.origin, plan.chosen, plan.left_out) == ("", "", 0)
    assert plan.change == Change(voice="x")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"version": 2, "change": {}, "accounts": []}', "not a rollout plan of version 1"),
        ('{"change": {}, "accounts": []}', "not a rollout plan of version 1"),
        ("not json", "not a readable rollout plan"),
        ("", "not a readable rollout plan"),
        ("[1, 2]", "not a readable rollout plan"),
        ("null", "not a readable rollout plan"),
        ('{"version": 1}', "not a readable rollout plan"),
        ('{"version": 1, "change": {}}', "the change sets nothing"),
        ('{"version": 1, "accounts": []}', "not a readable rollout plan"),
        ('{"version": 1, "change": null, "accounts": []}', "not a readable rollout plan"),
        ('{"version": 1, "change": {"functions": [1]}, "accounts": []}',
         "a function switch is not an object"),
        ('{"version": 1, "change": {"voice": "v"}, "accounts": [{"account_id": 1}]}',
         "unknown outcome"),
        ('{"version": 1, "change": {"voice": "v"}, "accounts": [{"nope": 1}]}',
         "not a positive whole number"),
        ('{"version": 1, "change": {"voice": "v"}, "accounts": [], "left_out": "many"}',
         "left_out is not a count"),
        ('{"version": 1, "change": {"voice": "v"}, "accounts": '
         '[{"account_id": 1, "name": "x", "outcome": "maybe"}]}', "unknown outcome"),
        ('{"version": 1, "change": {"voice": "v"}, "accounts": [{"account_id": 1, "name": "x",'
         ' "outcome": "change", "base": {}, "body": {"welcomeMessage": "hi"}}]}',
         "welcomeMessage is not something the change sets"),
        ('{"version": 1, "change": {"voice": "v"}, "accounts": [{"account_id": 1, "name": "x",'
         ' "outcome": "change", "base": {}, "body": {"agentVoice": "w"}}]}',
         "agentVoice is not the change's voice"),
        ('{"version": 1, "change": {"voice": "v"}, "accounts": [{"account_id": 1, "name": "x",'
         ' "outcome": "change", "base": {}, "body": {"agentVoice": "v"}, "changes": [1]}]}',
         None),
        ('{"version": 1, "change": {"functions": [{"name": "a", "on": true}]}, "accounts": '
         '[{"account_id": 1, "name": "x", "outcome": "change", "base": {"actions": []}, '
         '"body": {"actions": [{"name": "b"}]}}]}', "actions holds b"),
    ],
)  # fmt: skip
def test_from_json_refuses_what_is_not_a_plan(text: str, message: str | None) -> None:
    if message is None:  # the file's own ``changes`` lines are never read: computed again
        plan = RolloutPlan.from_json(text)
        assert plan.accounts[0].changes == ("agentVoice: added",)
        return
    with pytest.raises(ValueError, match=message):
        RolloutPlan.from_json(text)


def test_to_csv_adds_columns_and_makes_them_safe() -> None:
    from vagent_tui.services.rollout import AccountPlan

    plan = RolloutPlan(Change(voice="x"), [
        AccountPlan(1, "=cmd|' /C calc'!A0", "change", changes=("agentVoice: added",)),
        AccountPlan(2, "Plain", "refused", reasons=("-1 slots",)),
    ])  # fmt: skip

    def more(p: AccountPlan) -> list[str]:
        return [f"@{p.account_id}", "+1" if p.account_id == 1 else "ok"]

    rows = list(csv.reader(io.StringIO(plan.to_csv(("a", "b"), more))))
    assert rows[0][-2:] == ["a", "b"]
    assert rows[1] == ["1", "'=cmd|' /C calc'!A0", "change", "agentVoice: added", "", "",
                       "'@1", "'+1"]  # fmt: skip
    assert rows[2] == ["2", "Plain", "refused", "", "'-1 slots", "", "'@2", "ok"]


# ------------------------------------------------------------------------- in_pool stop


async def test_in_pool_stop_starts_nothing_more_and_finishes_what_started() -> None:
    import asyncio

    from vagent_tui.services.bulk import in_pool

    started: list[int] = []
    finished: list[int] = []

    async def each(item: int) -> None:
        started.append(item)
        await asyncio.sleep(0.01)
        finished.append(item)

    await in_pool(list(range(20)), 2, each, stop=lambda: len(started) >= 5)
    assert started == [0, 1, 2, 3, 4]
    assert sorted(finished) == started  # those under way finished


async def test_in_pool_stop_true_from_the_start_runs_nothing() -> None:
    from vagent_tui.services.bulk import in_pool

    ran: list[int] = []

    async def each(item: int) -> None:
        ran.append(item)

    await in_pool([1, 2, 3], 8, each, stop=lambda: True)
    assert ran == []
    await in_pool([1, 2, 3], 8, each, stop=lambda: False)
    assert sorted(ran) == [1, 2, 3]
    await in_pool([], 8, each, stop=lambda: False)  # nothing to do
    await in_pool([4], 0, each)  # at least one worker
    assert sorted(ran) == [1, 2, 3, 4]


# --------------------------------------------------------------------- apply with stop


def posts_per_account(sim: Any, path: str = "/api/v2/agent") -> Counter[int]:
    return Counter(int(r.query["targetAccountId"]) for r in sim.requests
                   if r.method == "POST" and r.path == path)  # fmt: skip


async def test_apply_stopped_after_the_first_result_and_a_rerun_writes_the_rest(
    tmp_path: Path,
) -> None:
    from vagent_tui.services.bulk import RolloutLog
    from vagent_tui.services.rollout_apply import apply_rollout

    client = demo_client("demo-partner", latency_ms=5)
    sim = client.sim_app.state.sim
    accounts = await agents(client)
    plan = await plan_rollout(client, accounts, Change.of_settings({"speakingTimeout": 920}))
    changing = [p.account_id for p in plan.accounts if p.outcome == "change"]
    assert len(changing) == len(accounts)
    sim.clear_log()
    log = RolloutLog.for_plan(plan, tmp_path)
    heard: list[Any] = []
    first = await apply_rollout(client, plan, log, concurrency=3, on_result=heard.append,
                                stop=lambda: bool(heard))  # fmt: skip
    assert 1 <= len(first) <= 3 < len(changing)  # those under way finished, no more
    assert {r.result for r in first} == {"written"}
    assert heard == first
    assert set(posts_per_account(sim)) == {r.account_id for r in first}
    on_disk = RolloutLog(log.path)  # every result sent is recorded
    assert set(on_disk.written()) == {r.account_id for r in first}
    assert on_disk.count("write", "written") == len(first)

    rest = await apply_rollout(client, plan, log, concurrency=3)
    assert {r.account_id for r in rest} == set(changing) - {r.account_id for r in first}
    assert {r.result for r in rest} == {"written"}
    assert posts_per_account(sim) == Counter(changing)  # each staging written exactly once
    assert all(sim.staging[a]["speakingTimeout"] == 920 for a in changing)
    assert sorted(RolloutLog(log.path).written()) == sorted(changing)
    assert await apply_rollout(client, plan, log) == []


async def test_apply_with_stop_already_true_writes_nothing(tmp_path: Path) -> None:
    from vagent_tui.services.bulk import RolloutLog
    from vagent_tui.services.rollout_apply import apply_rollout

    client = demo_client("demo-partner")
    sim = client.sim_app.state.sim
    accounts = (await agents(client))[:3]
    plan = await plan_rollout(client, accounts, Change.of_settings({"speakingTimeout": 921}))
    sim.clear_log()
    log = RolloutLog.for_plan(plan, tmp_path)
    assert await apply_rollout(client, plan, log, stop=lambda: True) == []
    assert not sim.requests
    assert log.written() == []


async def test_publish_stopped_and_rerun_publishes_each_once(tmp_path: Path) -> None:
    from vagent_tui.services.bulk import RolloutLog
    from vagent_tui.services.rollout_apply import apply_rollout, publish_rollout

    client = demo_client("demo-partner")
    no_drafts(client.sim_app.state.sim)  # see test_drafts_are_noted_in_the_plan...
    sim = client.sim_app.state.sim
    accounts = (await agents(client))[:6]
    plan = await plan_rollout(client, accounts, Change.of_settings({"speakingTimeout": 922}))
    log = RolloutLog.for_plan(plan, tmp_path)
    await apply_rollout(client, plan, log)
    sim.clear_log()
    heard: list[Any] = []
    first = await publish_rollout(client, plan, log.written(), log, concurrency=2,
                                  on_result=heard.append, stop=lambda: bool(heard))  # fmt: skip
    assert 1 <= len(first) <= 2
    assert log.count("publish", "published") == len(first)
    rest = await publish_rollout(client, plan, log.written(), log, concurrency=2)
    assert len(first) + len(rest) == len(accounts)
    assert posts_per_account(sim, "/api/v2/agent/publish") == Counter(a.id for a in accounts)
    assert all(sim.live[a.id]["speakingTimeout"] == 922 for a in accounts)


# ------------------------------------------------------------------- saved plans, CSV


async def test_save_plan_is_private_and_idempotent(tmp_path: Path) -> None:
    import os

    from vagent_tui.services.bulk import plan_id
    from vagent_tui.services.rollout_apply import save_plan

    client = demo_client("demo-partner")
    plan = await plan_rollout(client, (await agents(client))[:2],
                              Change.of_settings({"speakingTimeout": 930}))  # fmt: skip
    folder = tmp_path / "rollouts"
    path = save_plan(plan, folder)
    assert path == folder / f"{plan_id(plan)}.plan.json"
    assert (path.stat().st_mode & 0o777) == 0o600
    assert (folder.stat().st_mode & 0o077) == 0
    assert RolloutPlan.from_json(path.read_text(encoding="utf-8")) == plan
    before = path.read_bytes()
    os.utime(path, (1_000_000, 1_000_000))
    loaded = RolloutPlan.from_json(before.decode("utf-8"))
    assert save_plan(loaded, folder) == path  # the same plan, loaded again: the same file
    assert save_plan(plan, folder) == path
    assert path.read_bytes() == before
    assert path.stat().st_mtime == 1_000_000  # left alone: its place in the list is kept
    meta = path.name.replace(".plan.json", ".meta.json")
    assert sorted(p.name for p in folder.iterdir()) == [meta, path.name]  # no temporary left


async def test_saved_rollouts_newest_first_with_progress_from_the_log(tmp_path: Path) -> None:
    import os

    from vagent_tui.services.bulk import RolloutLog
    from vagent_tui.services.rollout_apply import (
        apply_rollout,
        publish_rollout,
        save_plan,
        saved_rollouts,
    )

    client = demo_client("demo-partner")
    no_drafts(client.sim_app.state.sim)  # see test_drafts_are_noted_in_the_plan...
    accounts = await agents(client)
    older = await plan_rollout(client, accounts[:3], Change.of_settings({"speakingTimeout": 931}))
    newer = await plan_rollout(client, accounts[3:5],
                               Change.of_settings({"speakingTimeout": 932}))  # fmt: skip
    older_path, newer_path = save_plan(older, tmp_path), save_plan(newer, tmp_path)
    os.utime(older_path, (1_000_000, 1_000_000))
    os.utime(newer_path, (2_000_000, 2_000_000))
    (tmp_path / "0123456789abcdef.plan.json").write_text("{not a plan", encoding="utf-8")
    (tmp_path / "fedcba9876543210.plan.json").write_text('{"version": 7}', encoding="utf-8")

    listed = saved_rollouts(tmp_path)
    assert [s.path for s in listed] == [newer_path, older_path]  # the corrupt ones skipped
    assert listed[1].read() == older and listed[1].modified == 1_000_000
    assert [(s.to_write, s.written, s.published, s.finished) for s in listed] == [
        (2, 0, 0, False), (3, 0, 0, False)]  # fmt: skip
    assert [s.path for s in saved_rollouts(tmp_path, limit=1)] == [newer_path]

    log = RolloutLog.for_plan(older, tmp_path)
    await apply_rollout(client, older, log)
    listed = saved_rollouts(tmp_path)
    assert [s.path for s in listed] == [older_path, newer_path]  # its log was just touched
    assert (listed[0].written, listed[0].published, listed[0].finished) == (3, 0, False)

    await publish_rollout(client, older, log.written()[:1], log)
    assert (saved_rollouts(tmp_path)[0].published, saved_rollouts(tmp_path)[0].finished) == (
        1, False)  # fmt: skip
    await publish_rollout(client, older, log.written(), log)
    done = saved_rollouts(tmp_path)[0]
    assert (done.written, done.published, done.finished) == (3, 3, True)


def test_saved_rollouts_of_no_folder_is_empty(tmp_path: Path) -> None:
    from vagent_tui.services.rollout_apply import saved_rollouts

    assert saved_rollouts(tmp_path / "missing") == []


async def test_results_csv_carries_each_accounts_write_and_publish(tmp_path: Path) -> None:
    from vagent_tui.services.bulk import RolloutLog
    from vagent_tui.services.rollout_apply import apply_rollout, publish_rollout, results_csv

    client = demo_client("demo-partner")
    no_drafts(client.sim_app.state.sim)  # see test_drafts_are_noted_in_the_plan...
    sim = client.sim_app.state.sim
    accounts = (await agents(client))[:3]
    plan = await plan_rollout(client, accounts, Change.of_settings({"speakingTimeout": 940}))
    first, second, moved = (a.id or 0 for a in accounts)
    sim.edit_staging(moved, speakingTimeout=7)
    log = RolloutLog.for_plan(plan, tmp_path)
    await apply_rollout(client, plan, log)
    await publish_rollout(client, plan, [first], log)
    rows = list(csv.reader(io.StringIO(results_csv(plan, log))))
    assert rows[0] == ["account_id", "account_name", "outcome", "changes", "reasons", "notes",
                       "write", "write_message", "publish", "publish_message"]  # fmt: skip
    by_id = {int(r[0]): r for r in rows[1:]}
    assert set(by_id) == {a.id for a in accounts}
    assert by_id[first][6] == "written" and by_id[first][8] == "published"
    assert by_id[first][9].startswith("version ")
    assert by_id[second][6:] == ["written", "", "", ""]
    assert by_id[moved][6:8] == ["changed-meanwhile",
                                 "staging changed since the plan: plan it again"]  # fmt: skip


def test_results_csv_quotes_formula_cells(tmp_path: Path) -> None:
    from vagent_tui.services.bulk import AccountResult, RolloutLog
    from vagent_tui.services.rollout import AccountPlan
    from vagent_tui.services.rollout_apply import results_csv

    plan = RolloutPlan(Change(voice="x"), [AccountPlan(5, "=SUM(A1)", "change"),
                                           AccountPlan(6, "Fine", "change")])  # fmt: skip
    log = RolloutLog(tmp_path / "log.jsonl")
    log.record(AccountResult(5, "write", "failed", '=HYPERLINK("http://x")'))
    log.record(AccountResult(5, "publish", "unknown", "-timeout"))
    rows = list(csv.reader(io.StringIO(results_csv(plan, log))))
    assert rows[1] == ["5", "'=SUM(A1)", "change", "", "", "", "failed",
                       "'=HYPERLINK(\"http://x\")", "unknown", "'-timeout"]  # fmt: skip
    assert rows[2] == ["6", "Fine", "change", "", "", "", "", "", "", ""]


def test_log_count_counts_results_per_step(tmp_path: Path) -> None:
    from vagent_tui.services.bulk import AccountResult, RolloutLog

    log = RolloutLog(tmp_path / "log.jsonl")
    for result in (
        AccountResult(1, "write", "written"),
        AccountResult(2, "write", "failed"),
        AccountResult(3, "write", "written"),
        AccountResult(1, "publish", "published"),
        AccountResult(2, "write", "written"),  # a later success replaces a failure
        AccountResult(1, "write", "failed"),
    ):  # a done result stays done
        log.record(result)  # fmt: skip
    for again in (log, RolloutLog(log.path)):
        assert again.count("write", "written") == 3
        assert again.count("write", "failed") == 0
        assert again.count("publish", "published") == 1
        assert again.count("publish", "written") == 0


async def test_drafts_are_noted_in_the_plan_and_never_published(tmp_path: Path) -> None:
    from vagent_tui.services.bulk import RolloutLog
    from vagent_tui.services.rollout_apply import apply_rollout, publish_rollout

    client = demo_client("demo-partner")
    sim = client.sim_app.state.sim
    accounts = await agents(client)
    drafted = [id_of(a) for a in accounts if sim.staging.get(a.id)]
    assert drafted  # the seed keeps unpublished drafts in some agents
    plan = await plan_rollout(client, accounts, Change.of_settings({"speakingTimeout": 911}))
    by_id = {p.account_id: p for p in plan.accounts}
    assert all("other unpublished change" in " ".join(by_id[a].notes) for a in drafted)
    log = RolloutLog.for_plan(plan, tmp_path)
    await apply_rollout(client, plan, log)
    live_before = {a: dict(sim.live[a]) for a in drafted}
    results = {r.account_id: r for r in await publish_rollout(client, plan, log.written(), log)}
    for a in drafted:
        assert results[a].result == "changed-meanwhile"
        assert "more than the rollout's change" in results[a].message
        assert sim.live[a] == live_before[a]  # nobody's draft went live unreviewed
    clean = [id_of(a) for a in accounts if a.id not in drafted]
    assert all(results[a].result == "published" for a in clean)


async def test_publish_refuses_when_live_moved_since_the_write(tmp_path: Path) -> None:
    from vagent_tui.services.bulk import RolloutLog
    from vagent_tui.services.rollout_apply import apply_rollout, publish_rollout

    client = demo_client("demo-partner")
    sim = client.sim_app.state.sim
    no_drafts(sim)
    accounts = (await agents(client))[:2]
    plan = await plan_rollout(client, accounts, Change.of_settings({"speakingTimeout": 912}))
    log = RolloutLog.for_plan(plan, tmp_path)
    await apply_rollout(client, plan, log)
    moved = id_of(accounts[0])
    sim.live[moved]["welcomeMessage"] = "published by someone else meanwhile"
    results = {r.account_id: r.result for r in await publish_rollout(
        client, plan, log.written(), log)}  # fmt: skip
    assert results[moved] == "changed-meanwhile"  # publishing would have undone theirs
    assert sim.live[moved]["welcomeMessage"] == "published by someone else meanwhile"
