"""``vagent-tui tasks plan``/``apply``: the Tasks screen's CSV upload from the command
line: the platform's dry run per row in its shape, a bad file's line and column, exit
codes, a plan queued once (a killed apply is never sent again), read-only refusals."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.unit.commands.conftest import RunCli
from vagent_tui.commands.shapes_onboard import TasksRowItem

AGENT = "1111"
FILE = (
    "target,type,message,scheduledFor\n"
    "+15551239001,call,,\n"
    "+15551239002,text,Your appointment is tomorrow,\n"
    "+15551239003,call,,soon\n"
)
UPLOAD = "/api/v2/tasks/csv"


def uploads(sim_app: Any) -> list[Any]:
    return [r for r in sim_app.state.sim.requests if r.path == UPLOAD]


def queued(sim_app: Any) -> int:
    """Tasks the simulator holds for the file's numbers."""
    return sum(1 for t in sim_app.state.sim.outbound.values()
               if str(t.get("target", "")).startswith("+155512390"))  # fmt: skip


@pytest.fixture
def calls(tmp_path: Path) -> Path:
    path = tmp_path / "calls.csv"
    path.write_text(FILE)
    return path


@pytest.mark.parametrize("verb", [("plan",), ("plan", "--dry-run"), ("apply", "--dry-run")])
def test_the_dry_run_says_each_row_exits_2_and_queues_nothing(
    cli: RunCli, sim_app: Any, calls: Path, verb: tuple[str, ...]
) -> None:
    ran = cli("tasks", verb[0], str(calls), *verb[1:], "--account", AGENT, "-o", "json")
    assert ran.code == 2, ran.err
    items = ran.items("tasks-row")
    for item in items:
        TasksRowItem.model_validate(item)
    assert [(i["row"], i["outcome"]) for i in items] == [
        (2, "would-queue"), (3, "would-queue"), (4, "refused"),
    ]  # fmt: skip
    assert items[2]["column"] == "scheduledFor"
    assert "calls.csv: line 4, column 4 (scheduledFor): scheduledFor must be" in ran.err
    assert queued(sim_app) == 0


def test_a_file_with_no_row_to_queue_exits_1(cli: RunCli, tmp_path: Path) -> None:
    path = tmp_path / "bad.csv"
    path.write_text("target,type\n+15551239001,fax\n")
    ran = cli("tasks", "plan", str(path), "--account", AGENT)
    assert ran.code == 1
    assert "line 2, column 2 (type): type must be call or text" in ran.err


def test_a_header_without_target_exits_1_and_sends_nothing(
    cli: RunCli, sim_app: Any, tmp_path: Path
) -> None:
    path = tmp_path / "bad.csv"
    path.write_text("number,type\n+15551239001,call\n")
    ran = cli("tasks", "plan", str(path), "--account", AGENT)
    assert ran.code == 1
    assert "bad.csv: line 1: the header names no target column" in ran.err
    assert uploads(sim_app) == []


def test_a_plan_is_queued_once(cli: RunCli, sim_app: Any, calls: Path, tmp_path: Path) -> None:
    plan = tmp_path / "plan.json"
    assert cli("tasks", "plan", str(calls), "--account", AGENT, "--out", str(plan)).code == 2
    ran = cli("tasks", "apply", str(plan), "--account", AGENT, "-o", "json")
    assert ran.code == 3, ran.err  # done; a row refused
    items = ran.items("tasks-row")
    for item in items:
        TasksRowItem.model_validate(item)
    assert [i["outcome"] for i in items] == ["queued", "queued", "refused"]
    assert queued(sim_app) == 2
    again = cli("tasks", "apply", str(plan), "--account", AGENT)
    assert again.code == 0 and "an earlier apply of this plan queued it" in again.err
    assert queued(sim_app) == 2
    once_more = cli("tasks", "apply", str(plan), "--account", AGENT, "--again")
    assert once_more.code == 3 and queued(sim_app) == 4


def test_a_killed_apply_is_never_sent_again(
    cli: RunCli, sim_app: Any, calls: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from vagent_tui.services.bulk import AccountResult, RolloutLog

    plan = tmp_path / "plan.json"
    cli("tasks", "plan", str(calls), "--account", AGENT, "--out", str(plan))
    real = RolloutLog.record

    def record(self: RolloutLog, result: AccountResult) -> None:
        if result.result == "written":  # the upload went; the process dies before this
            raise KeyboardInterrupt
        real(self, result)

    monkeypatch.setattr(RolloutLog, "record", record)
    assert cli("tasks", "apply", str(plan), "--account", AGENT).code == 130
    monkeypatch.setattr(RolloutLog, "record", real)
    assert queued(sim_app) == 2
    ran = cli("tasks", "apply", str(plan), "--account", AGENT)
    assert ran.code == 1 and "it is not sent again" in ran.err
    assert queued(sim_app) == 2


def test_a_plan_the_platform_answers_otherwise_now_is_refused(
    cli: RunCli, sim_app: Any, calls: Path, tmp_path: Path
) -> None:
    plan = tmp_path / "plan.json"
    cli("tasks", "plan", str(calls), "--account", AGENT, "--out", str(plan))
    data = json.loads(plan.read_text())
    data["would_queue"] = [2]  # as if row 3 had been refused when it was planned
    plan.write_text(json.dumps(data))
    ran = cli("tasks", "apply", str(plan), "--account", AGENT)
    assert ran.code == 1 and "plan it again" in ran.err
    assert queued(sim_app) == 0


@pytest.mark.parametrize(
    "args",
    [
        ("apply", "{csv}"),  # no --yes
        ("apply", "{csv}", "--yes", "--read-only"),
        ("apply", "{plan}", "--read-only"),
        ("plan", "{csv}", "--read-only"),  # the dry run is a POST: a read-only key sends none
        ("apply", "{plan}", "--account", "1112"),  # planned for another account
    ],
)
def test_refusals_exit_4_and_queue_nothing(
    cli: RunCli, sim_app: Any, calls: Path, tmp_path: Path, args: tuple[str, ...]
) -> None:
    plan = tmp_path / "plan.json"
    cli("tasks", "plan", str(calls), "--account", AGENT, "--out", str(plan))
    sent = len(uploads(sim_app))
    argv = [a.format(csv=calls, plan=plan) for a in args]
    if "--account" not in argv:
        argv += ["--account", AGENT]
    ran = cli("tasks", *argv)
    assert ran.code == 4, ran.err
    assert len(uploads(sim_app)) == sent and queued(sim_app) == 0


def test_a_file_with_yes_is_checked_then_queued(cli: RunCli, sim_app: Any, calls: Path) -> None:
    ran = cli("tasks", "apply", str(calls), "--yes", "--account", AGENT, "-o", "json")
    assert ran.code == 3, ran.err
    assert len(uploads(sim_app)) == 2  # the dry run, then the upload
    assert queued(sim_app) == 2


def test_a_file_with_a_byte_order_mark_is_planned_then_applied(
    cli: RunCli, sim_app: Any, tmp_path: Path
) -> None:
    """A spreadsheet's "CSV UTF-8" starts with a byte-order mark: its plan applies."""
    path = tmp_path / "bom.csv"
    path.write_bytes(b"\xef\xbb\xbftarget,type,message\r\n+15551239001,text,hello\r\n")
    plan = tmp_path / "plan.json"
    assert cli("tasks", "plan", str(path), "--account", AGENT, "--out", str(plan)).code == 2
    ran = cli("tasks", "apply", str(plan), "--account", AGENT, "-o", "json")
    assert ran.code == 0, ran.err
    assert [i["outcome"] for i in ran.items("tasks-row")] == ["queued"]
    assert queued(sim_app) == 1


def test_a_file_applied_with_yes_twice_is_queued_once_unless_again(
    cli: RunCli, sim_app: Any, calls: Path
) -> None:
    """A job run again (a cron) with the same content sends nothing: exit 1, saying how to
    check; --again queues it once more; another account has its own log."""
    first = cli("tasks", "apply", str(calls), "--yes", "--account", AGENT)
    assert first.code == 3 and queued(sim_app) == 2
    sent = len(uploads(sim_app))
    twice = cli("tasks", "apply", str(calls), "--yes", "--account", AGENT, "-o", "json")
    assert twice.code == 1 and twice.out == ""
    assert "an earlier apply of the same calls.csv to this account queued it" in twice.err
    assert "vagent-tui get tasks --account 1111" in twice.err and "--again" in twice.err
    assert len(uploads(sim_app)) == sent and queued(sim_app) == 2
    again = cli("tasks", "apply", str(calls), "--yes", "--again", "--account", AGENT)
    assert again.code == 3 and queued(sim_app) == 4
    elsewhere = cli("tasks", "apply", str(calls), "--yes", "--account", "1112")
    assert elsewhere.code == 3, elsewhere.err


def test_a_file_applied_with_yes_whose_reply_is_lost_is_not_sent_again(
    cli: RunCli, sim_app: Any, calls: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from vagent_tui.api.errors import TransportError
    from vagent_tui.services.connect import SimClient

    real = SimClient.upload_tasks_csv

    async def lost(self: SimClient, content: bytes, **kwargs: Any) -> Any:
        answer = await real(self, content, **kwargs)
        if not kwargs.get("dry_run"):
            raise TransportError("the connection dropped", method="POST", url=UPLOAD)
        return answer

    monkeypatch.setattr(SimClient, "upload_tasks_csv", lost)
    first = cli("tasks", "apply", str(calls), "--yes", "--account", AGENT)
    assert first.code == 1 and "its tasks may be queued" in first.err
    monkeypatch.setattr(SimClient, "upload_tasks_csv", real)
    assert queued(sim_app) == 2
    sent = len(uploads(sim_app))
    retried = cli("tasks", "apply", str(calls), "--yes", "--account", AGENT)
    assert retried.code == 1 and "sent it and has no answer" in retried.err
    assert "it is not sent again" in retried.err
    assert len(uploads(sim_app)) == sent and queued(sim_app) == 2
