"""What the command line keeps and shows of secrets: plan files readable by their owner
only, never a plan on a terminal, every configuration and every difference it prints
masked by one rule (`vagent_tui.services.masking.public_config`, the key's redaction
too), a masked text never written back, a CSV header on a terminal made inert."""

from __future__ import annotations

import io
import json
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.unit.commands.conftest import RunCli
from tests.unit.commands.test_onboard import FILE as ROWS
from tests.unit.commands.test_tasks_cli import FILE as TASKS
from vagent_tui.commands.contract import CHANGES, DONE, ERROR
from vagent_tui.commands.output import Output
from vagent_tui.services.diff import diff_configs
from vagent_tui.services.masking import SECRET_CHANGED, shown_diffs
from vagent_tui.services.rollout import change_lines
from vagent_tui.services.rollout_apply import write_private


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture
def umask_022() -> Iterator[None]:
    """The usual umask, under which a file written plainly is readable by all (0644)."""
    before = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(before)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


# ------------------------------------------------------------------ S1: the plan files


def _plan_command(kind: str, tmp_path: Path, out: str) -> tuple[tuple[str, ...], str]:
    """The argv of a command that plans into ``out``, and the key it runs with."""
    if kind == "rollout":
        return ("rollout", "plan", "--set", "speakingTimeout=920", "--accounts", "1113",
                "--out", out), "demo-partner"  # fmt: skip
    if kind == "onboard":
        rows = tmp_path / "customers.csv"
        rows.write_text(ROWS, encoding="utf-8")
        return ("onboard", "plan", str(rows), "--out", out), "demo-reseller"
    if kind == "tasks":
        calls = tmp_path / "calls.csv"
        calls.write_text(TASKS, encoding="utf-8")
        return ("tasks", "plan", str(calls), "--account", "1111", "--out", out), "demo-partner"
    folder = tmp_path / "fleet"
    return ("plan-from", str(folder), "--out", out), "demo-partner"


KINDS = ("rollout", "onboard", "tasks", "plan-from")


@pytest.mark.usefixtures("umask_022")
@pytest.mark.parametrize("kind", KINDS)
def test_every_plan_file_is_written_whole_readable_by_its_owner_only(
    cli: RunCli, tmp_path: Path, kind: str
) -> None:
    if kind == "plan-from":
        cli("pull", str(tmp_path / "fleet"), "--accounts", "1113", "-o", "json")
    plan = tmp_path / "plan.json"
    plan.write_text("an older plan, readable by all", encoding="utf-8")
    plan.chmod(0o644)
    argv, token = _plan_command(kind, tmp_path, str(plan))

    ran = cli(*argv, "-o", "json", token=token)

    assert ran.code in (DONE, CHANGES), ran.err
    assert _mode(plan) == 0o600
    assert json.loads(plan.read_text(encoding="utf-8"))["version"] == 1
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []


def test_write_private_replaces_whole_and_leaves_nothing_when_it_fails(
    tmp_path: Path, umask_022: None
) -> None:
    path = tmp_path / "p.json"
    write_private(path, "one")
    assert (path.read_text(encoding="utf-8"), _mode(path)) == ("one", 0o600)
    with pytest.raises(OSError):
        write_private(tmp_path / "missing" / "p.json", "two")
    assert [p.name for p in tmp_path.iterdir()] == ["p.json"]


@pytest.mark.parametrize("kind", KINDS)
def test_a_plan_is_never_written_to_a_terminal(
    cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    if kind == "plan-from":
        cli("pull", str(tmp_path / "fleet"), "--accounts", "1113", "-o", "json")
    argv, token = _plan_command(kind, tmp_path, "-")
    terminal = Terminal()
    monkeypatch.setattr("sys.stdout", terminal)

    ran = cli(*argv, token=token)

    assert ran.code == ERROR
    assert "stdout is a terminal" in ran.err and "secrets unmasked" in ran.err
    assert terminal.getvalue() == ""


@pytest.mark.parametrize(
    "argv",
    [("rollout", "plan"), ("plan-from",), ("onboard", "plan"), ("tasks", "plan")],
)
def test_each_plan_command_says_its_file_is_unmasked_and_0600(
    argv: tuple[str, ...], capsys: pytest.CaptureFixture[str]
) -> None:
    from vagent_tui.cli import main

    with pytest.raises(SystemExit):
        main([*argv, "--help"])
    said = " ".join(capsys.readouterr().out.split())
    assert "unmasked" in said and "0600" in said and "terminal" in said


# ------------------------------------------------------------------ S2: what is printed

SECRETS = ("SECRETPW", "sk-app-old", "sk-app-new", "hb-old", "hb-new", "demo-partner")


def _plant(sim: Any, account: int) -> None:
    """Live and staging of ``account`` each holding secrets, and differing in them."""
    live, staging = sim.live[account], dict(sim.staging.get(account) or sim.live[account])
    apps = [dict(a) for a in live["apps"]]
    live.update({
        "apps": [{**apps[0], "apiKey": "sk-app-old"}, *apps[1:]],
        "heartbeatConfig": {**live["heartbeatConfig"], "password": "hb-old"},
        "agentInstructions": "Post to https://bob:SECRETPW@crm.example.com/ after each "
        "call; the key demo-partner is ours.",
    })  # fmt: skip
    staging.update({
        "apps": [{**apps[0], "apiKey": "sk-app-new"}, *apps[1:]],
        "heartbeatConfig": {**live["heartbeatConfig"], "password": "hb-new"},
        "agentInstructions": "Post to https://bob:SECRETPW@crm.example.com/ after every "
        "call; the key demo-partner is ours.",
        "welcomeMessage": "Hello from demo-partner",
    })  # fmt: skip
    sim.edit_staging(account, **staging)


def _leaks(*texts: str) -> list[str]:
    return [s for s in SECRETS if any(s in t for t in texts)]


def test_no_command_prints_a_secret_of_a_configuration(
    cli: RunCli, sim_app: Any, tmp_path: Path
) -> None:
    _plant(sim_app.state.sim, 1111)

    config = cli("get", "config", "--account", "1111", "-o", "json")
    diff = cli("agent", "diff", "--account", "1111", "-o", "json")
    folder = tmp_path / "fleet"
    cli("pull", str(folder), "--accounts", "1111", "-o", "json")
    (path,) = folder.glob("1111-*.json")
    data = json.loads(path.read_text(encoding="utf-8"))
    data["staging"]["agentInstructions"] = "Rewritten whole in review."
    path.write_text(json.dumps(data), encoding="utf-8")
    planned = cli("plan-from", str(folder), "-o", "json")
    rollout = cli("rollout", "plan", "--accounts", "1111", "--set",
                  "agentInstructions=Rewritten by a rollout.", "-o", "json")  # fmt: skip
    published = cli("agent", "publish", "--account", "1111", "--yes", "-o", "json")

    ran = (config, diff, planned, rollout, published)
    assert [r.code for r in ran] == [DONE, CHANGES, CHANGES, CHANGES, DONE], [r.err for r in ran]
    assert _leaks(*(r.out for r in ran), *(r.err for r in ran)) == []
    # masked, never gone: each secret that changed is said so
    items = {i["path"]: i for i in diff.items("agent-diff")}
    app = items["apps[google-calendar]"]
    assert f'  apiKey: "***" → "***" {SECRET_CHANGED}' in app["lines"]
    assert (app["old"]["apiKey"], app["new"]["apiKey"]) == ("***", "***")
    assert f'  password: "***" → "***" {SECRET_CHANGED}' in items["heartbeatConfig"]["lines"]
    assert "https://***@crm.example.com/" in items["agentInstructions"]["old"]
    assert items["welcomeMessage"]["new"] == "Hello from ***"
    changes = published.items("agent-publish")[0]["changes"]
    assert any(line.startswith("apps[google-calendar]: ") for line in changes)
    assert config.items("config")[0]["config"]["heartbeatConfig"]["password"] == "***"
    (line,) = [c for c in rollout.items("rollout-plan")[0]["changes"]
               if c.startswith("agentInstructions")]  # fmt: skip
    assert "https://***@crm.example.com/" in line


def test_a_changed_secret_is_masked_and_never_disappears() -> None:
    diffs = diff_configs(
        {"apiKey": "old-1", "speakingTimeout": 1}, {"apiKey": "new-2", "speakingTimeout": 2}
    )
    assert change_lines(diffs) == (
        f'apiKey: "***" → "***" {SECRET_CHANGED}', "speakingTimeout: 1 → 2",
    )  # fmt: skip
    (shown,) = shown_diffs(diff_configs({"a": "key k3y!"}, {"a": "key k3y?"}),
                           lambda t: t.replace("k3y", "***"))  # fmt: skip
    assert (shown.old, shown.new) == ("key ***!", "key ***?")


# ------------------------------------------------------------------ S3: no *** written back


def test_a_folder_plan_never_writes_back_what_the_keys_redaction_masked(
    cli: RunCli, sim_app: Any, tmp_path: Path
) -> None:
    sim = sim_app.state.sim
    text = "Partner code demo-partner-2 for escalations.\nBe kind."
    sim.live[1113]["agentInstructions"] = text
    folder, plan = tmp_path / "fleet", tmp_path / "plan.json"
    cli("pull", str(folder), "--accounts", "1113", "-o", "json")
    (path,) = folder.glob("1113-*.json")
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["staging"]["agentInstructions"].startswith("Partner code ***-2 ")
    data["staging"]["agentInstructions"] += "\nBe brief."
    path.write_text(json.dumps(data), encoding="utf-8")

    planned = cli("plan-from", str(folder), "--out", str(plan), "-o", "json")

    assert planned.code == ERROR
    assert "agentInstructions holds a masked secret" in planned.err
    assert not plan.exists()
    # A plan that slipped through (made before the check, or by hand) is refused on load.
    data["staging"]["agentInstructions"] = text
    data["staging"]["speakingTimeout"] = 930
    path.write_text(json.dumps(data), encoding="utf-8")
    assert cli("plan-from", str(folder), "--out", str(plan), "-o", "json").code == CHANGES
    made = json.loads(plan.read_text(encoding="utf-8"))
    made["accounts"][0]["body"]["agentInstructions"] = "Partner code ***-2 for escalations."
    plan.write_text(json.dumps(made), encoding="utf-8")

    applied = cli("rollout", "apply", str(plan), "-o", "json")

    assert applied.code == ERROR
    assert "agentInstructions holds a masked secret" in applied.err
    assert "***" not in json.dumps(sim.staging.get(1113) or sim.live[1113])
    # Kept in the console's rollouts folder, the Rollout screen's list (`L`) refuses it too.
    from vagent_tui.api.errors import redact_text
    from vagent_tui.services.rollout_apply import saved_rollouts

    kept = tmp_path / "rollouts"
    kept.mkdir()
    (kept / "0123456789abcdef.plan.json").write_text(json.dumps(made), encoding="utf-8")
    (saved,) = saved_rollouts(kept)
    with pytest.raises(ValueError, match="agentInstructions holds a masked secret"):
        saved.read(lambda t: redact_text(t, "demo-partner"))


# ------------------------------------------------------------------ S4: the CSV header


def test_a_csv_header_on_a_terminal_is_inert() -> None:
    terminal = Terminal()
    with Output("k", ("a\x1b]0;owned\x07", "b"), "csv", terminal) as out:
        out.write({"b": "x\x1b[2J"})
    shown = terminal.getvalue()
    assert "\x1b" not in shown and "\x07" not in shown
    assert shown.splitlines()[0].endswith(",b")
