"""``vagent-tui onboard plan``/``apply``: the Onboard screen's plan and apply from the
command line: its shapes, a bad file's line and column, exit codes, a plan written
once, a killed apply resumed (command then command, command then console, console then
command) with each row created once, phone numbers only with a flag naming the cost."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from tests.unit.commands.conftest import RunCli
from vagent_tui.commands.shapes_onboard import OnboardResultItem, OnboardRowItem
from vagent_tui.services.bulk import AccountResult, RolloutLog

ORG = 1110
FILE = (
    "type,external_id,name,parent,billing_id,active,email,role,accounts,phone_number\n"
    "organization,cli-org,Orbit Clinic,,bill-1,,admin@orbit.example,,,\n"
    "account,cli-acc-1,Orbit Front Desk,cli-org,,,,,,\n"
    "account,cli-acc-2,Orbit Night Line,cli-org,,,,,,\n"
    f"account,cli-acc-3,Dental extra line,#{ORG},,,,,,\n"
    "member,,,cli-org,,,dana@orbit.example,member,cli-acc-1 cli-acc-2,\n"
)
CREATES = ("/api/v2/createOrganization", "/api/v2/createAccount", "/api/v2/member")
BRING = "/api/v2/phoneNumber/byo/assign"


class Killed(BaseException):
    """The process dies here (as a SIGKILL would end it: nothing after runs)."""


def killed(exc: BaseException) -> bool:
    """``exc`` is `Killed` (the pool's task group wraps it in a group)."""
    if isinstance(exc, BaseExceptionGroup):
        return exc.subgroup(Killed) is not None
    return isinstance(exc, Killed)


def writes(sim_app: Any, path: str | None = None) -> int:
    return sum(1 for r in sim_app.state.sim.requests
               if r.method != "GET" and (path is None or r.path == path))  # fmt: skip


def created(sim_app: Any) -> int:
    return sum(writes(sim_app, p) for p in CREATES)


@pytest.fixture
def rows_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("VAGENT_ROLLOUT_CONCURRENCY", "1")  # rows in the file's order
    path = tmp_path / "customers.csv"
    path.write_text(FILE)
    return path


def test_a_plan_says_each_row_in_its_shape_exits_2_and_writes_nothing(
    cli: RunCli, sim_app: Any, rows_file: Path, tmp_path: Path
) -> None:
    out = tmp_path / "plan.json"
    ran = cli("onboard", "plan", str(rows_file), "--out", str(out), "-o", "json",
              token="demo-reseller")  # fmt: skip
    assert ran.code == 2, ran.err
    items = ran.items("onboard-row")
    for item in items:
        OnboardRowItem.model_validate(item)
    assert [(i["line"], i["outcome"]) for i in items] == [
        (2, "create"), (3, "create"), (4, "create"), (5, "create"), (6, "create"),
    ]  # fmt: skip
    assert writes(sim_app) == 0
    assert json.loads(out.read_text())["kind"] == "onboard-plan"
    assert "apply" in ran.err and str(out) in ran.err


def test_a_plan_written_to_stdout_is_the_plan_only(cli: RunCli, rows_file: Path) -> None:
    ran = cli("onboard", "plan", str(rows_file), "--out", "-", token="demo-reseller")
    assert ran.code == 2
    assert json.loads(ran.out)["kind"] == "onboard-plan"


@pytest.mark.parametrize(
    ("row", "said"),
    [
        ("account,x-1,X,#1110,,maybe,,,,", "line 3, column 6 (active)"),
        ("account,x-1,X,#1110,,,,,,555-1234", "line 3, column 10 (phone_number)"),
        ("account,,No id,#1110,,,,,,", "line 3, column 2 (external_id)"),
        ("account,x-9,Nowhere,crm-missing,,,,,,", "line 3, column 4 (parent)"),
        ("wizard,x-1,X,#1110,,,,,,", "line 3, column 1 (type)"),
    ],
)
def test_a_bad_row_exits_1_naming_its_line_and_column(
    cli: RunCli, sim_app: Any, tmp_path: Path, row: str, said: str
) -> None:
    path = tmp_path / "bad.csv"
    path.write_text(FILE.splitlines()[0] + "\naccount,ok-1,Fine,#1110,,,,,,\n" + row + "\n")
    ran = cli("onboard", "plan", str(path), "-o", "json", token="demo-reseller")
    assert ran.code == 1, ran.err
    assert f"bad.csv: {said}:" in ran.err
    bad = ran.items("onboard-row")[1]
    OnboardRowItem.model_validate(bad)
    problem = bad["problems"][0]
    assert (problem["line"], problem["column"]) == (3, said.split("(")[1].rstrip(")"))
    assert writes(sim_app) == 0


def test_a_file_that_is_not_rows_exits_1_and_plans_nothing(cli: RunCli, tmp_path: Path) -> None:
    path = tmp_path / "typo.csv"
    path.write_text("type,external_id,nmae\naccount,a,b\n")
    ran = cli("onboard", "plan", str(path), token="demo-reseller")
    assert ran.code == 1
    assert "unknown column 'nmae'" in ran.err and ran.out == ""


def test_apply_writes_each_row_once_and_a_second_apply_sends_nothing(
    cli: RunCli, sim_app: Any, rows_file: Path, tmp_path: Path
) -> None:
    plan = tmp_path / "plan.json"
    assert (
        cli("onboard", "plan", str(rows_file), "--out", str(plan), token="demo-reseller").code == 2
    )
    ran = cli("onboard", "apply", str(plan), "-o", "json", token="demo-reseller")
    assert ran.code == 0, ran.err
    items = ran.items("onboard-result")
    for item in items:
        OnboardResultItem.model_validate(item)
    assert [i["result"] for i in items] == ["written"] * 5
    assert created(sim_app) == 5
    again = cli("onboard", "apply", str(plan), "-o", "json", token="demo-reseller")
    assert again.code == 0
    assert all(i["earlier"] for i in again.items("onboard-result"))
    assert created(sim_app) == 5
    replanned = cli("onboard", "plan", str(rows_file), "-o", "json", token="demo-reseller")
    assert replanned.code == 0
    assert {i["outcome"] for i in replanned.items()} == {"already"}


def test_apply_of_a_rows_file_needs_yes(cli: RunCli, sim_app: Any, rows_file: Path) -> None:
    assert cli("onboard", "apply", str(rows_file), token="demo-reseller").code == 4
    assert writes(sim_app) == 0
    ran = cli("onboard", "apply", str(rows_file), "--yes", token="demo-reseller")
    assert ran.code == 0, ran.err
    assert created(sim_app) == 5


@pytest.mark.parametrize("how", ["read-only", "org-key", "other-platform"])
def test_refused_applies_exit_4_and_write_nothing(
    cli: RunCli, sim_app: Any, rows_file: Path, tmp_path: Path, how: str
) -> None:
    plan = tmp_path / "plan.json"
    assert (
        cli("onboard", "plan", str(rows_file), "--out", str(plan), token="demo-reseller").code == 2
    )
    args, token = ["onboard", "apply", str(plan)], "demo-reseller"
    if how == "read-only":
        args.append("--read-only")
    elif how == "org-key":
        token = "demo-org"
    else:
        data = json.loads(plan.read_text())
        data["origin"] = "elsewhere.example · key of account 1100"
        plan.write_text(json.dumps(data))
    ran = cli(*args, token=token)
    assert ran.code == 4, ran.err
    assert writes(sim_app) == 0


def _kill_after(monkeypatch: pytest.MonkeyPatch, written: int) -> None:
    """The next apply dies when its ``written``-th write has reached the platform, before
    its result is recorded (the log holds that row as sent, no reply)."""
    real = RolloutLog.record
    seen = 0

    def record(self: RolloutLog, result: AccountResult) -> None:
        nonlocal seen
        if result.result == "written":
            seen += 1
            if seen == written:
                monkeypatch.setattr(RolloutLog, "record", real)
                raise Killed
        real(self, result)

    monkeypatch.setattr(RolloutLog, "record", record)


async def _console_applies(sim_app: Any, text: str) -> None:
    """What the Onboard screen does with the file (`OnboardScreen._plan` and `_apply`)."""
    from vagent_tui.services.bulk import rollout_concurrency
    from vagent_tui.services.connect import demo_client
    from vagent_tui.services.onboard import default_parent, plan_onboarding
    from vagent_tui.services.onboard_apply import apply_onboarding
    from vagent_tui.services.onboard_rows import log_for, read_rows
    from vagent_tui.services.session import open_connection, origin_of

    client = demo_client("demo-reseller", sim_app=sim_app)
    connection = await open_connection(client, label="console")
    rows = read_rows(text)
    origin = origin_of(connection)
    plan = await plan_onboarding(client, rows, default_parent=default_parent(connection),
                                 origin=origin, concurrency=rollout_concurrency())  # fmt: skip
    log = await asyncio.to_thread(log_for, rows, origin)
    try:
        await apply_onboarding(client, plan, log, concurrency=rollout_concurrency())
    finally:
        log.release()
        await client.aclose()


@pytest.mark.parametrize(
    ("first", "then"), [("cli", "cli"), ("cli", "console"), ("console", "cli")]
)
def test_a_killed_apply_is_resumed_and_creates_each_row_once(
    cli: RunCli,
    sim_app: Any,
    rows_file: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    first: str,
    then: str,
) -> None:

    plan = tmp_path / "plan.json"
    assert (
        cli("onboard", "plan", str(rows_file), "--out", str(plan), token="demo-reseller").code == 2
    )
    _kill_after(monkeypatch, 2)  # the organization written, the first account sent
    with pytest.raises(BaseException) as caught:
        if first == "cli":
            cli("onboard", "apply", str(plan), token="demo-reseller")
        else:
            asyncio.run(_console_applies(sim_app, FILE))
    assert killed(caught.value)
    assert created(sim_app) == 2
    if then == "cli":
        ran = cli("onboard", "apply", str(plan), "-o", "json", token="demo-reseller")
        assert ran.code == 0, ran.err
        results = {i["line"]: i for i in ran.items("onboard-result")}
        assert results[3]["result"] == "written"  # read back, not sent again
        assert "earlier run" in results[3]["message"]
    else:
        asyncio.run(_console_applies(sim_app, FILE))
    assert created(sim_app) == 5  # each row once
    assert writes(sim_app, "/api/v2/createAccount") == 3


NUMBERS = FILE.replace("cli-acc-1,Orbit Front Desk,cli-org,,,,,,", "cli-acc-1,Orbit Front "
                       "Desk,cli-org,,,,,,+15557770001")  # fmt: skip


@pytest.mark.parametrize(
    ("flags", "code"),
    [
        ((), 4),
        (("--bring-numbers", "0"), 4),
        (("--spend-up-to", "0.49"), 4),
        (("--spend-up-to", "0.50"), 0),
        (("--bring-numbers", "1"), 0),
    ],
)
def test_bringing_numbers_needs_a_flag_that_names_the_cost(
    cli: RunCli, sim_app: Any, rows_file: Path, tmp_path: Path, flags: tuple[str, ...], code: int
) -> None:
    rows_file.write_text(NUMBERS)
    plan = tmp_path / "plan.json"
    ran = cli("onboard", "plan", str(rows_file), "--out", str(plan), token="demo-reseller")
    assert "0.5 USD a month each" in ran.err and "--bring-numbers 1" in ran.err
    ran = cli("onboard", "apply", str(plan), *flags, token="demo-reseller")
    assert ran.code == code, ran.err
    assert writes(sim_app, BRING) == (1 if code == 0 else 0)
    assert created(sim_app) == (5 if code == 0 else 0)


def test_a_resumed_apply_never_brings_a_number_twice(
    cli: RunCli, sim_app: Any, rows_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rows_file.write_text(NUMBERS)
    plan = tmp_path / "plan.json"
    cli("onboard", "plan", str(rows_file), "--out", str(plan), token="demo-reseller")
    _kill_after(monkeypatch, 2)  # the account bringing the number sent, its reply not kept
    with pytest.raises(BaseException) as caught:
        cli("onboard", "apply", str(plan), "--bring-numbers", "1", token="demo-reseller")
    assert killed(caught.value)
    assert writes(sim_app, BRING) == 1
    ran = cli("onboard", "apply", str(plan), "--bring-numbers", "1", token="demo-reseller")
    assert ran.code == 0, ran.err
    assert writes(sim_app, BRING) == 1
    assert created(sim_app) == 5
