"""``vagent-tui pull`` and ``plan-from``: agents' configurations as files, and the plan
an edited folder makes (applied through the rollout services, as ``rollout apply``
does: that command is another module's)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.unit.commands.conftest import RunCli
from vagent_tui.commands.contract import CHANGES, DONE, ERROR
from vagent_tui.commands.shapes_pull import FolderPlanItem, PulledItem
from vagent_tui.services.masking import public_config
from vagent_tui.services.rollout import FolderPlan, RolloutPlan

AGENTS = 13
"""The demo's agent accounts below the partner's key."""


def _file(folder: Path, account_id: int) -> Path:
    (path,) = folder.glob(f"{account_id}-*.json")
    return path


def _edit(folder: Path, account_id: int, **staging: Any) -> Path:
    path = _file(folder, account_id)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["staging"].update(staging)
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")
    return path


def test_pull_writes_a_sorted_file_per_account_and_a_second_pull_rewrites_nothing(
    cli: RunCli, tmp_path: Path
) -> None:
    folder = tmp_path / "fleet"
    ran = cli("pull", str(folder), "-o", "json")
    assert ran.code == DONE, ran.err
    items = ran.items("pulled")
    for item in items:
        PulledItem.model_validate(item)
    assert len(items) == AGENTS and {i["result"] for i in items} == {"written"}
    path = folder / "1111-acme-dental-front-desk.json"
    text = path.read_text(encoding="utf-8")
    data = json.loads(text)
    assert text == json.dumps(data, ensure_ascii=False, indent=2, sort_keys=True) + "\n"
    assert data["account"] == {"id": 1111, "name": "Acme Dental Front Desk", "parent": 1110}
    assert data["version"] == 1 and data["staging"]["id"] and data["live"]["agentVoice"]
    assert "allowed" not in data["live"]["actions"][0]  # the platform's, on every read
    before = {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in folder.iterdir()}

    again = cli("pull", str(folder), "-o", "json")

    assert {i["result"] for i in again.items("pulled")} == {"unchanged"}
    assert {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in folder.iterdir()} == before


def test_pull_below_an_account_writes_only_its_agents(cli: RunCli, tmp_path: Path) -> None:
    ran = cli("pull", str(tmp_path), "--below", "1110", "-o", "json")
    assert [i["account_id"] for i in ran.items("pulled")] == [1111, 1112, 1113]
    refused = cli("pull", str(tmp_path), "--accounts", "1111,4242", "-o", "json")
    assert refused.code == 4 and "4242" in refused.err


def test_no_pulled_file_holds_a_secret_planted_in_a_configuration(
    cli: RunCli, sim_app: Any, tmp_path: Path
) -> None:
    secrets = ["hunter2pass", "sk-planted-1", "sk-planted-2", "planted-3", "demo-partner"]
    sim = sim_app.state.sim
    planted = {
        "agentInstructions": "Post to https://bot:hunter2pass@crm.example.com/ with "
        "token=sk-planted-1; the key demo-partner is ours.",
        "heartbeatConfig": {"apiKey": "sk-planted-2", "session": "main"},
        "webhookSecret": "planted-3",
    }
    sim.live[1111].update(planted)
    sim.edit_staging(1111, **planted)

    ran = cli("pull", str(tmp_path), "-o", "json")

    assert ran.code == DONE, ran.err
    texts = "".join(p.read_text(encoding="utf-8") for p in tmp_path.iterdir())
    assert not [s for s in secrets if s in texts]
    staging = json.loads(_file(tmp_path, 1111).read_text(encoding="utf-8"))["staging"]
    assert staging["heartbeatConfig"] == {"apiKey": "***", "session": "main"}
    assert staging["webhookSecret"] == "***"


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("reportingFields", [{"key": "outcome", "label": "Outcome"}]),
        ("heartbeatConfig", {"isolatedSession": True, "password": "", "token": "t0ken"}),
        ("headers", [{"Authorization": "Bearer abc"}]),
    ],
)
def test_public_config_masks_secrets_and_keeps_what_only_reads_like_one(
    key: str, value: Any
) -> None:
    public = public_config({key: value})
    expected = {
        "reportingFields": [{"key": "outcome", "label": "Outcome"}],
        "heartbeatConfig": {"isolatedSession": True, "password": "", "token": "***"},
        "headers": [{"Authorization": "***"}],
    }[key]
    assert public == {key: expected}


def test_an_edited_file_is_planned_applied_and_published(
    cli: RunCli, sim_app: Any, tmp_path: Path
) -> None:

    folder, plan_path = tmp_path / "fleet", tmp_path / "plan.json"
    cli("pull", str(folder), "-o", "json")
    _edit(folder, 1113, speakingTimeout=900, welcomeMessage="Hola, from a pull request")

    ran = cli("plan-from", str(folder), "--out", str(plan_path), "-o", "json")

    assert ran.code == CHANGES, ran.err
    items = {i["account_id"]: i for i in ran.items("folder-plan")}
    for item in items.values():
        FolderPlanItem.model_validate(item)
    assert items[1113]["outcome"] == "change"
    assert any(line.startswith("speakingTimeout: ") for line in items[1113]["changes"])
    assert {i["outcome"] for a, i in items.items() if a != 1113} == {"already"}
    assert plan_path.stat().st_mode & 0o777 == 0o600
    plan = RolloutPlan.from_json(plan_path.read_text(encoding="utf-8"))
    assert isinstance(plan, FolderPlan) and plan.changing() == {1113}
    assert plan.accounts[2].body == {
        "speakingTimeout": 900, "welcomeMessage": "Hola, from a pull request"
    }  # fmt: skip

    applied = cli("rollout", "apply", str(plan_path), "-o", "json")  # the CI's step
    assert applied.code == DONE, applied.err
    assert [(i["account_id"], i["result"]) for i in applied.items("rollout-result")
            if i["result"] is not None] == [(1113, "written")]  # fmt: skip
    published = cli("rollout", "publish", str(plan_path), "--all", "-o", "json")
    assert published.code == DONE, published.err
    assert [(i["account_id"], i["result"]) for i in published.items("rollout-result")
            if i["result"] == "published"] == [(1113, "published")]  # fmt: skip
    live = sim_app.state.sim.live[1113]
    assert (live["speakingTimeout"], live["welcomeMessage"]) == (900, "Hola, from a pull request")
    cli("pull", str(folder), "-o", "json")
    assert cli("plan-from", str(folder), "-o", "json").code == DONE


@pytest.mark.parametrize(
    ("edit", "said"),
    [
        ({"keywords": ["cheap"]}, "staging.keywords: not something the console may write"),
        ({"speakingTimeout": "soon"}, "staging.speakingTimeout: a whole number is needed"),
        (
            {"actions": [{"name": "endCall", "allowed": True}]},
            "staging.actions: entry 1 holds allowed",
        ),
        ({"id": "cfg-other"}, "staging.id: not something the console may write"),
    ],
)
def test_a_file_editing_what_the_console_does_not_write_makes_no_plan(
    cli: RunCli, tmp_path: Path, edit: dict[str, Any], said: str
) -> None:
    folder, plan_path = tmp_path / "fleet", tmp_path / "plan.json"
    cli("pull", str(folder), "-o", "json")
    path = _edit(folder, 1112, **edit)

    ran = cli("plan-from", str(folder), "--out", str(plan_path), "-o", "json")

    assert ran.code == ERROR
    assert f"{path.name}: {said}" in ran.err
    assert ran.out == "" and not plan_path.exists()


def test_a_file_for_an_unknown_account_is_stale_to_pull_and_refused_by_a_plan(
    cli: RunCli, tmp_path: Path
) -> None:
    cli("pull", str(tmp_path), "-o", "json")
    data = json.loads(_file(tmp_path, 1111).read_text(encoding="utf-8"))
    data["account"]["id"] = 9999
    ghost = tmp_path / "9999-ghost.json"
    ghost.write_text(json.dumps(data), encoding="utf-8")

    planned = cli("plan-from", str(tmp_path), "-o", "json")
    pulled = cli("pull", str(tmp_path), "-o", "json")

    assert planned.code == ERROR
    assert "9999-ghost.json: account 9999 is not an agent account below the key" in planned.err
    assert pulled.code == DONE and ghost.exists()
    assert pulled.items("pulled")[-1] == {
        "account_id": 9999, "name": "", "file": ghost.name, "result": "stale",
        "message": "no agent account below the key has this id (--prune deletes the file)",
    }  # fmt: skip
    pruned = cli("pull", str(tmp_path), "--prune", "-o", "json")
    assert pruned.items("pulled")[-1]["result"] == "pruned" and not ghost.exists()


def _plan_data(**account: Any) -> dict[str, Any]:
    base = {"speakingTimeout": 1200, "agentVoice": "v1", "keywords": ["a"]}
    entry = {"account_id": 1111, "name": "A", "outcome": "change", "body": {},
             "changes": ["forged"], "reasons": [], "notes": [], "base": base}  # fmt: skip
    entry.update(account)
    return {"version": 1, "kind": "folder", "origin": "o", "chosen": "folder f",
            "left_out": 0, "accounts": [entry]}  # fmt: skip


def test_a_folder_plan_file_is_checked_on_load_and_its_changes_computed_again() -> None:
    plan = RolloutPlan.from_json(json.dumps(_plan_data(body={"speakingTimeout": 900})))
    assert plan.accounts[0].changes == ("speakingTimeout: 1200 → 900",)
    assert plan.describe() == "each account's edits in folder f"
    with pytest.raises(ValueError, match="account 1111: keywords is not something"):
        RolloutPlan.from_json(json.dumps(_plan_data(body={"keywords": ["b"]})))
    with pytest.raises(ValueError, match="account 1111: actions: entry 1 holds reason"):
        RolloutPlan.from_json(
            json.dumps(_plan_data(body={"actions": [{"name": "x", "reason": ""}]}))
        )


def test_a_plan_to_stdout_is_the_plan_file_alone(cli: RunCli, tmp_path: Path) -> None:
    cli("pull", str(tmp_path), "--accounts", "1113,1122", "-o", "json")

    ran = cli("plan-from", str(tmp_path), "--out", "-")

    assert ran.code == DONE, ran.err
    plan = RolloutPlan.from_json(ran.out)
    assert isinstance(plan, FolderPlan) and plan.counts()["already"] == 2
    assert "0 will change, 2 already so" in ran.err


def test_a_masked_secret_written_back_is_refused_where_the_platform_holds_one() -> None:
    secret = {"welcomeMessage": "Call https://bot:pw1234@crm.example.com/ now"}
    masked = {"welcomeMessage": "Call https://***@crm.example.com/ soon"}
    with pytest.raises(ValueError, match="welcomeMessage holds a masked secret"):
        RolloutPlan.from_json(json.dumps(_plan_data(body=masked, base=secret)))
    plain = _plan_data(body={"welcomeMessage": "***bold*** hello"})  # no secret there
    assert RolloutPlan.from_json(json.dumps(plain)).changing() == {1111}


def test_an_account_that_cannot_be_read_keeps_its_file_and_the_pull_exits_3(
    cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from vagent_tui.api.errors import ApiError
    from vagent_tui.commands.contract import PARTIAL
    from vagent_tui.services import config_folder, staging

    cli("pull", str(tmp_path), "--accounts", "1111,1113", "-o", "json")
    kept = _file(tmp_path, 1113).read_bytes()
    _edit(tmp_path, 1113, speakingTimeout=1)
    edited = _file(tmp_path, 1113).read_bytes()
    real = staging.read_slots

    async def failing(client: Any, target: int | None) -> Any:
        if target == 1113:
            raise ApiError(404, "no such agent", method="GET", url="/agentEventRules/staging")
        return await real(client, target)

    monkeypatch.setattr(config_folder, "read_slots", failing)
    ran = cli("pull", str(tmp_path), "--accounts", "1111,1113", "-o", "json")

    assert ran.code == PARTIAL
    results = {i["account_id"]: (i["result"], i["message"]) for i in ran.items("pulled")}
    assert results[1111] == ("unchanged", "")
    assert results[1113][0] == "failed" and "no such agent" in results[1113][1]
    assert _file(tmp_path, 1113).read_bytes() == edited != kept


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("{not json", "not JSON"),
        ('{"version": 1, "account": {"id": 1111}, "staging": {}}', "account.id is 1111 but"),
        ('{"version": 7}', "not an account's file of version 1"),
    ],
)
def test_a_file_that_is_not_a_pulled_one_is_named(
    cli: RunCli, tmp_path: Path, text: str, said: str
) -> None:
    cli("pull", str(tmp_path), "--accounts", "1113,1122", "-o", "json")
    path = _file(tmp_path, 1113)
    path.write_text(text, encoding="utf-8")

    ran = cli("plan-from", str(tmp_path), "-o", "json")

    assert ran.code == ERROR and f"{path.name}: {said}" in ran.err and ran.out == ""
