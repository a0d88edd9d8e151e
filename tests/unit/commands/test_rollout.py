"""``rollout plan|apply|publish`` and ``agent diff|publish``: the Rollout and Agent screens'
changes from the command line, on the screens' services and the screen's log."""

from __future__ import annotations

import asyncio
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tests.unit.commands.conftest import Ran, RunCli
from vagent_tui.commands import contract
from vagent_tui.commands.shapes_rollout import SHAPES
from vagent_tui.services.connect import SimClient
from vagent_tui.services.rollout import RolloutPlan

CLEAN = "1113,1122,1212,1222,1312"
"""Agent accounts whose staging is live's: a rollout publishes every one of them."""
CLEAN_IDS = [1113, 1122, 1212, 1222, 1312]
WRITE = "/api/v2/agent"
PUBLISH = "/api/v2/agent/publish"


def posts(sim_app: Any, path: str = WRITE) -> Counter[int]:
    """The POSTs to ``path`` per target account (the simulator's request log)."""
    return Counter(int(r.query["targetAccountId"]) for r in sim_app.state.sim.requests
                   if r.method == "POST" and r.path == path)  # fmt: skip


def checked(ran: Ran, kind: str) -> list[dict[str, Any]]:
    """The run's items, each valid by its kind's model."""
    items = ran.items(kind)
    for item in items:
        SHAPES[kind].model_validate(item)
    return items


def plan_file(cli: RunCli, tmp_path: Path, *more: str) -> Path:
    out = tmp_path / "plan.json"
    ran = cli("rollout", "plan", "--set", "speakingTimeout=920", "--accounts", CLEAN,
              "--out", str(out), "-o", "json", *more)  # fmt: skip
    assert ran.code == contract.CHANGES, ran.err
    return out


async def _connection(sim_app: Any) -> Any:
    from vagent_tui.services.connect import demo_client
    from vagent_tui.services.session import open_connection

    return await open_connection(demo_client("demo-partner", sim_app=sim_app), label="console")


def console_resume(sim_app: Any) -> list[Any]:
    """What the Rollout screen does after a dropped session: ``l`` lists the kept plans
    (`saved_rollouts`), one of this platform and key is resumed with its log, ``A``
    writes the rest (`RolloutRuns._apply`)."""
    from vagent_tui.services.rollout_apply import apply_rollout, save_plan, saved_rollouts
    from vagent_tui.services.session import origin_of

    async def resume() -> list[Any]:
        connection = await _connection(sim_app)
        mine = [s for s in saved_rollouts() if s.origin == origin_of(connection)]
        assert len(mine) == 1 and not mine[0].finished
        plan, log = mine[0].read(connection.api.redact), mine[0].log
        save_plan(plan, log=log)
        log.hold()
        try:
            return await apply_rollout(connection.api, plan, log, concurrency=1)
        finally:
            log.release()

    return asyncio.run(resume())


def console_apply_killed(sim_app: Any, path: Path) -> None:
    """The screen opens the plan file (``l``, a file: `RolloutPlan.from_json`, the log of
    its plan) and applies it; the process dies after a write went out, unrecorded."""
    from vagent_tui.services.bulk import RolloutLog
    from vagent_tui.services.rollout_apply import apply_rollout, save_plan

    async def apply() -> None:
        connection = await _connection(sim_app)
        plan = RolloutPlan.from_json(path.read_text(encoding="utf-8"))
        log = RolloutLog.for_plan(plan)
        save_plan(plan, log=log)
        log.hold()
        try:
            await apply_rollout(connection.api, plan, log, concurrency=1)
        finally:
            log.release()

    with pytest.raises(KeyboardInterrupt):
        asyncio.run(apply())


def kill_after(monkeypatch: pytest.MonkeyPatch, writes: int) -> None:
    """The ``writes``-th staging write goes out, and the process is interrupted before its
    reply is recorded (as a job killed mid-run leaves its log)."""
    real = SimClient.write_staging
    sent = 0

    async def write_then_die(self: SimClient, *args: Any, **kwargs: Any) -> Any:
        nonlocal sent
        reply = await real(self, *args, **kwargs)
        sent += 1
        if sent == writes:
            monkeypatch.setattr(SimClient, "write_staging", real)
            raise KeyboardInterrupt
        return reply

    monkeypatch.setattr(SimClient, "write_staging", write_then_die)


# --------------------------------------------------------------------------- plan


def test_plan_writes_the_screens_plan_file_says_each_account_and_exits_2(
    cli: RunCli, sim_app: Any, tmp_path: Path
) -> None:
    out = tmp_path / "plan.json"
    ran = cli("rollout", "plan", "--voice", "openai-ash", "--filter", "acme", "--out", str(out),
              "-o", "json")  # fmt: skip
    assert ran.code == contract.CHANGES
    items = checked(ran, "rollout-plan")
    assert [i["account_id"] for i in items] == [1111, 1112, 1113]
    assert {i["outcome"] for i in items} == {"change"}
    assert all(i["changes"][0].startswith("agentVoice: ") for i in items)
    plan = RolloutPlan.from_json(out.read_text(encoding="utf-8"))  # what the screen's l reads
    assert [(p.account_id, p.outcome, p.changes) for p in plan.accounts] == [
        (i["account_id"], i["outcome"], tuple(i["changes"])) for i in items
    ]
    assert plan.change.voice == "openai-ash" and plan.chosen.endswith("matching acme")
    assert not posts(sim_app)  # nothing written


def test_plan_is_the_one_the_screens_services_make(cli: RunCli, sim_app: Any) -> None:
    """The same accounts picked (`pick_accounts`), planned (`plan_rollout`), the same origin."""
    from vagent_tui.services.agent_listing import list_agents
    from vagent_tui.services.rollout_pick import Catalog as FormCatalog
    from vagent_tui.services.rollout_pick import check_request, pick_accounts
    from vagent_tui.services.rollout_planning import plan_rollout
    from vagent_tui.services.session import origin_of

    switches = "bookAppointment on, transferCall off"
    ran = cli("rollout", "plan", "--functions", switches, "--out", "-")
    assert ran.code == contract.CHANGES
    made = RolloutPlan.from_json(ran.out)

    async def screens() -> RolloutPlan:
        connection = await _connection(sim_app)
        assert connection.directory is not None
        listing = await list_agents(connection.api, connection.directory)
        _, request = check_request("", switches, "", "", FormCatalog())
        assert request is not None
        picked = pick_accounts(listing.accounts, path_of=listing.path_of)
        return await plan_rollout(connection.api, picked, request.change,
                                  origin=origin_of(connection), chosen=made.chosen)  # fmt: skip

    assert asyncio.run(screens()).to_data() == made.to_data()


def test_plan_of_no_change_exits_0_and_bad_options_say_which(cli: RunCli) -> None:
    none = cli("rollout", "plan", "--voice", "openai-ash", "--accounts", "1211,1311", "-o", "json")
    assert none.code == contract.DONE
    assert {i["outcome"] for i in checked(none, "rollout-plan")} == {"refused"}
    bad = cli("rollout", "plan", "--set", "nope=1", "-o", "json")
    assert bad.code == contract.ERROR and bad.out == "" and "--set: nope is not" in bad.err
    unknown = cli("rollout", "plan", "--voice", "no-such-voice", "-o", "json")
    assert unknown.code == contract.ERROR and "--voice: no voice has this id" in unknown.err
    stranger = cli("rollout", "plan", "--voice", "openai-ash", "--accounts", "1111,4242")
    assert stranger.code == contract.REFUSED and "4242" in stranger.err
    elsewhere = cli("rollout", "plan", "--voice", "openai-ash", "--below", "4242")
    assert elsewhere.code == contract.REFUSED and "not below this key" in elsewhere.err


# --------------------------------------------------------------------------- apply, publish


def test_apply_writes_each_account_once_and_publish_goes_wave_by_wave(
    cli: RunCli, sim_app: Any, tmp_path: Path
) -> None:
    path = plan_file(cli, tmp_path)
    applied = cli("rollout", "apply", str(path), "-o", "json")
    assert applied.code == contract.DONE, applied.err
    items = checked(applied, "rollout-result")
    assert {(i["account_id"], i["result"], i["earlier"]) for i in items} == {
        (a, "written", False) for a in CLEAN_IDS
    }
    assert posts(sim_app) == Counter(CLEAN_IDS)
    again = cli("rollout", "apply", str(path), "-o", "json")
    assert again.code == contract.DONE
    assert {i["earlier"] for i in checked(again, "rollout-result")} == {True}
    assert posts(sim_app) == Counter(CLEAN_IDS)  # nothing sent twice

    first = cli("rollout", "publish", str(path), "--wave", "1", "--wave-size", "2", "-o", "json")
    assert first.code == contract.DONE, first.err
    assert [i["account_id"] for i in checked(first, "rollout-result")] == CLEAN_IDS[:2]
    assert posts(sim_app, PUBLISH) == Counter(CLEAN_IDS[:2])
    rerun = cli("rollout", "publish", str(path), "--wave", "1", "--wave-size", "2", "-o", "json")
    assert {i["earlier"] for i in checked(rerun, "rollout-result")} == {True}
    rest = cli("rollout", "publish", str(path), "--all", "-o", "json")
    assert rest.code == contract.DONE
    assert posts(sim_app, PUBLISH) == Counter(CLEAN_IDS)  # each published once
    assert all(sim_app.state.sim.live[a]["speakingTimeout"] == 920 for a in CLEAN_IDS)
    beyond = cli("rollout", "publish", str(path), "--wave", "4", "--wave-size", "2")
    assert beyond.code == contract.ERROR and "3 waves of 2" in beyond.err


def test_a_wave_not_written_yet_is_said_and_exits_3(
    cli: RunCli, sim_app: Any, tmp_path: Path
) -> None:
    path = plan_file(cli, tmp_path)
    ran = cli("rollout", "publish", str(path), "--wave", "1", "--wave-size", "2", "-o", "json")
    assert ran.code == contract.PARTIAL
    items = checked(ran, "rollout-result")
    assert {(i["result"], i["message"]) for i in items} == {("nothing", "not written: apply first")}
    assert not posts(sim_app, PUBLISH)


def test_a_wave_without_its_size_is_of_the_default_size(
    cli: RunCli, sim_app: Any, tmp_path: Path
) -> None:
    """``rollout publish PLAN.json --wave N``, as the issue, plan-from's hint and README
    say it: waves of `DEFAULT_WAVE_SIZE` accounts."""
    from vagent_tui.commands.rollout import DEFAULT_WAVE_SIZE

    assert DEFAULT_WAVE_SIZE == 10
    path = plan_file(cli, tmp_path)
    assert cli("rollout", "apply", str(path), "-o", "json").code == contract.DONE
    beyond = cli("rollout", "publish", str(path), "--wave", "2")
    assert beyond.code == contract.ERROR and "1 wave of 10, no wave 2" in beyond.err
    first = cli("rollout", "publish", str(path), "--wave", "1", "-o", "json")
    assert first.code == contract.DONE, first.err
    assert "wave 1: accounts 1 to 5 of the 5 the plan changes (1 wave of 10)" in first.err
    assert [i["result"] for i in checked(first, "rollout-result")] == ["published"] * 5
    assert posts(sim_app, PUBLISH) == Counter(CLEAN_IDS)
    mixed = cli("rollout", "publish", str(path), "--all", "--wave-size", "2")
    assert mixed.code == contract.ERROR and "--wave-size goes with --wave N" in mixed.err


@pytest.mark.parametrize("first", ["command line", "console"])
def test_an_apply_killed_half_way_is_finished_by_the_other_each_account_written_once(
    first: str, cli: RunCli, sim_app: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = plan_file(cli, tmp_path)
    kill_after(monkeypatch, 2)  # the second write goes out, its result is never recorded
    if first == "command line":
        killed = cli("rollout", "apply", str(path), "--concurrency", "1", "-o", "jsonl")
        assert killed.code == 130
        assert [i["result"] for i in killed.lines("rollout-result")] == ["written"]
        assert sum(posts(sim_app).values()) == 2
        rest = console_resume(sim_app)
        assert [r.result for r in rest] == ["written"] * 4
        assert "earlier run" in rest[0].message  # read, found written: not sent again
    else:
        console_apply_killed(sim_app, path)
        assert sum(posts(sim_app).values()) == 2
        resumed = cli("rollout", "apply", str(path), "-o", "json")
        assert resumed.code == contract.DONE, resumed.err
        items = checked(resumed, "rollout-result")
        assert sorted(i["earlier"] for i in items) == [False] * 4 + [True]
    assert posts(sim_app) == Counter(CLEAN_IDS)  # every account written exactly once


def test_a_plan_under_way_in_a_console_is_not_applied_at_once_by_a_job(
    cli: RunCli, sim_app: Any, tmp_path: Path
) -> None:
    from vagent_tui.services.bulk import RolloutLog

    path = plan_file(cli, tmp_path)
    console = RolloutLog.for_plan(RolloutPlan.from_json(path.read_text(encoding="utf-8")))
    console.hold()  # the screen holds its plan's log while it applies
    try:
        ran = cli("rollout", "apply", str(path), "-o", "json")
    finally:
        console.release()
    assert ran.code == contract.ERROR and "another run of this plan" in ran.err
    assert not posts(sim_app)


def test_a_read_only_profile_or_another_key_is_refused_and_nothing_is_sent(
    cli: RunCli, sim_app: Any, tmp_path: Path
) -> None:
    path = plan_file(cli, tmp_path)
    sim_app.state.sim.clear_log()
    read_only = cli("rollout", "apply", str(path), "--read-only")
    assert read_only.code == contract.REFUSED and read_only.out == ""
    other_key = cli("rollout", "apply", str(path), token="demo-reseller")
    assert other_key.code == contract.REFUSED and "plan it again here" in other_key.err
    published = cli("rollout", "publish", str(path), "--all", "--read-only")
    assert published.code == contract.REFUSED
    assert not [r for r in sim_app.state.sim.requests if r.method != "GET"]


# --------------------------------------------------------------------------- agent


def test_agent_diff_then_publish_with_its_read_back(cli: RunCli, sim_app: Any) -> None:
    no_agent = cli("agent", "diff")  # the partner's key, no target: no agent to compare
    assert no_agent.code == contract.ERROR and "--account" in no_agent.err
    diff = cli("agent", "diff", "--account", "1111", "-o", "json")
    assert diff.code == contract.CHANGES
    paths = [i["path"] for i in checked(diff, "agent-diff")]
    assert "welcomeMessage" in paths
    unasked = cli("agent", "publish", "--account", "1111")
    read_only = cli("agent", "publish", "--account", "1111", "--yes", "--read-only")
    assert unasked.code == read_only.code == contract.REFUSED
    assert not posts(sim_app, PUBLISH)

    published = cli("agent", "publish", "--account", "1111", "--yes", "-o", "json")
    assert published.code == contract.DONE, published.err
    (item,) = checked(published, "agent-publish")
    assert item["result"] == "published" and item["account_id"] == 1111
    assert len(item["changes"]) == len(paths)
    assert posts(sim_app, PUBLISH) == Counter([1111])
    same = cli("agent", "diff", "--account", "1111", "-o", "json")
    assert same.code == contract.DONE and same.items("agent-diff") == []
    empty = cli("agent", "publish", "--account", "1111", "--yes", "-o", "json")
    assert empty.code == contract.DONE and empty.items()[0]["result"] == "nothing"
    assert posts(sim_app, PUBLISH) == Counter([1111])


def test_agent_publish_whose_reply_is_lost_is_read_back_not_resent(
    cli: RunCli, sim_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from vagent_tui.api.errors import TransportError

    real = SimClient.publish_staging

    async def lost(self: SimClient, **kwargs: Any) -> Any:
        await real(self, **kwargs)
        raise TransportError("the connection dropped", method="POST", url="/agent/publish")

    monkeypatch.setattr(SimClient, "publish_staging", lost)
    ran = cli("agent", "publish", "--account", "1111", "--yes", "-o", "json")
    assert ran.code == contract.DONE, ran.err
    (item,) = checked(ran, "agent-publish")
    assert item["result"] == "published" and "read back: live holds" in item["message"]
    assert posts(sim_app, PUBLISH) == Counter([1111])


@pytest.mark.parametrize(
    ("reply", "result", "code"),
    [("answered", "published", contract.DONE), ("lost", "unknown", contract.ERROR)],
)
def test_agent_publish_whose_read_back_fails_still_says_the_publish(
    cli: RunCli,
    sim_app: Any,
    monkeypatch: pytest.MonkeyPatch,
    reply: str,
    result: str,
    code: int,
) -> None:
    """Live cannot be read after the publish went: the item says the publish (published,
    or unknown when its reply was lost too), and that live could not be read back."""
    from vagent_tui.api.errors import TransportError

    real_publish, real_slot = SimClient.publish_staging, SimClient.get_slot
    went: list[bool] = []

    async def publish(self: SimClient, **kwargs: Any) -> Any:
        answer = await real_publish(self, **kwargs)
        went.append(True)
        if reply == "lost":
            raise TransportError("the connection dropped", method="POST", url="/agent/publish")
        return answer

    async def get_slot(self: SimClient, *args: Any, **kwargs: Any) -> Any:
        if went:
            raise TransportError("the connection dropped", method="GET", url="/agent")
        return await real_slot(self, *args, **kwargs)

    monkeypatch.setattr(SimClient, "publish_staging", publish)
    monkeypatch.setattr(SimClient, "get_slot", get_slot)
    ran = cli("agent", "publish", "--account", "1111", "--yes", "-o", "json")
    assert ran.code == code, ran.err
    (item,) = checked(ran, "agent-publish")
    assert item["result"] == result and "live could not be read back" in item["message"]
    assert posts(sim_app, PUBLISH) == Counter([1111])  # never sent again


def test_a_rollout_against_the_hostile_simulator_is_planned_and_applied(
    cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Hostile names are the platform's data: a record read twice reads the same, so a
    plan made on one read is applied on the next (it was "changed meanwhile" when the
    simulator planted another string on each read)."""
    from vagent_tui.services import connect
    from vagent_tui.sim import create_app

    hostile = create_app(hostile=True)
    monkeypatch.setattr(
        connect, "demo_client", lambda token="demo-partner", **_: SimClient(hostile, token)
    )
    plan = tmp_path / "plan.json"
    planned = cli("rollout", "plan", "--set", "speakingTimeout=901", "--below", "1110",
                  "--out", str(plan), "-o", "json")  # fmt: skip
    assert planned.code == contract.CHANGES, planned.err
    applied = cli("rollout", "apply", str(plan), "-o", "json")
    assert applied.code == contract.DONE, applied.err
    results = {i["account_id"]: i["result"] for i in applied.items("rollout-result")}
    assert results and set(results.values()) == {"written"}
