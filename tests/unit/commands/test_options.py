"""The options several commands share (`vagent_tui.commands.options`): a set of accounts
read in one syntax by every command that takes one, and ``--concurrency`` checked against
each engine's range, said in its help."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.commands.conftest import Ran, RunCli
from vagent_tui.commands import contract
from vagent_tui.commands.options import FLEET_MOST, ROLLOUT_MOST, ids_of_text

ACCOUNTS_TXT = "# the agents of this change\n1113\n1122, 1212  # two on a line\n\n1113\n"
"""README's accounts.txt: comments, a blank line, two ids on a line, one id twice."""

SET_TAKERS = {
    "fleet ask": ("fleet", "ask", "voice"),
    "rollout plan": ("rollout", "plan", "--set", "speakingTimeout=930"),
    "pull": ("pull", "{dir}"),
}
"""The commands that take a set of accounts, with what else they need."""


def argv(command: str, tmp_path: Path, *more: str) -> list[str]:
    return [a.format(dir=tmp_path / "pulled") for a in SET_TAKERS[command]] + [*more]


def ids_of(ran: Ran, command: str) -> list[int]:
    kind = {"fleet ask": "fleet-voice", "rollout plan": "rollout-plan", "pull": "pulled"}
    return [int(item["account_id"]) for item in ran.items(kind[command])]


@pytest.mark.parametrize("command", SET_TAKERS)
def test_every_command_reads_an_accounts_file_alike(
    cli: RunCli, tmp_path: Path, command: str
) -> None:
    accounts = tmp_path / "accounts.txt"
    accounts.write_text(ACCOUNTS_TXT)
    ran = cli(*argv(command, tmp_path, "--accounts-file", str(accounts), "-o", "json"))
    assert ran.code in (contract.DONE, contract.CHANGES), ran.err
    assert sorted(ids_of(ran, command)) == [1113, 1122, 1212]
    piped = cli(*argv(command, tmp_path, "--accounts", "1113", "--accounts-file", "-",
                      "-o", "json"), stdin="1122\n")  # fmt: skip
    assert sorted(ids_of(piped, command)) == [1113, 1122]


@pytest.mark.parametrize("command", SET_TAKERS)
@pytest.mark.parametrize("token", ["+5", "1_000", "-3", "acme"])
def test_every_command_refuses_a_token_that_is_not_an_id_naming_it(
    cli: RunCli, tmp_path: Path, command: str, token: str
) -> None:
    ran = cli(*argv(command, tmp_path, "--accounts", f"1111,{token}"))
    assert ran.code == contract.ERROR and ran.out == ""
    assert f"--accounts: {token!r} is not an account id" in ran.err
    assert "listing" not in ran.err  # said before the accounts are listed


def test_a_files_bad_token_is_named_with_its_line(tmp_path: Path) -> None:
    assert ids_of_text(ACCOUNTS_TXT, "accounts.txt") == [1113, 1122, 1212, 1113]
    with pytest.raises(contract.CommandError, match=r"accounts.txt line 2: '12x' is not"):
        ids_of_text("1111\n1112, 12x\n", "accounts.txt")


CONCURRENCY = [
    (("rollout", "plan", "--voice", "openai-ash"), ROLLOUT_MOST),
    (("rollout", "apply", "plan.json"), ROLLOUT_MOST),
    (("rollout", "publish", "plan.json", "--all"), ROLLOUT_MOST),
    (("pull", "pulled"), ROLLOUT_MOST),
    (("plan-from", "pulled"), ROLLOUT_MOST),
    (("onboard", "plan", "rows.csv"), ROLLOUT_MOST),
    (("onboard", "apply", "plan.json"), ROLLOUT_MOST),
    (("fleet", "ask", "voice"), FLEET_MOST),
]


@pytest.mark.parametrize(("command", "most"), CONCURRENCY)
def test_concurrency_is_bounded_alike_and_its_help_says_the_range(
    cli: RunCli, command: tuple[str, ...], most: int
) -> None:
    for given in ("0", str(most + 1), "+5"):
        ran = cli(*command, "--concurrency", given)
        assert ran.code == contract.ERROR, (given, ran.err)
        assert f"--concurrency: {given!r} is not a number from 1 to {most}" in ran.err
    helped = cli(*command[:2], "--help")
    assert f"at a time, 1 to {most} (default:" in " ".join(helped.out.split())


def test_the_bounds_are_the_services(monkeypatch: pytest.MonkeyPatch) -> None:
    from vagent_tui.services import bulk, fleet

    assert fleet.MAX_CAP == FLEET_MOST
    monkeypatch.setenv(bulk.CONCURRENCY_VARIABLE, str(ROLLOUT_MOST))
    assert bulk.rollout_concurrency() == ROLLOUT_MOST
    monkeypatch.setenv(bulk.CONCURRENCY_VARIABLE, str(ROLLOUT_MOST + 1))
    assert bulk.rollout_concurrency() == bulk.DEFAULT_CONCURRENCY
