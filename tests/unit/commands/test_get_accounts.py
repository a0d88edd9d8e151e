"""``vagent-tui get accounts``: the tree below the key, as Scope shows it, as data."""

from __future__ import annotations

import io
from typing import Any

import pytest

from tests.unit.commands.conftest import RunCli
from vagent_tui.api.transport import ApiTransport
from vagent_tui.commands.contract import PARTIAL, REFUSED
from vagent_tui.commands.shapes_accounts import AccountItem


def _checked(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each item of its shape, after its parent, its path ending with itself."""
    seen: set[int] = set()
    for item in items:
        AccountItem.model_validate(item)
        assert item["parent_id"] is None or item["parent_id"] in seen or item["depth"] == 0
        assert item["path_ids"][-1] == item["id"]
        assert item["depth"] == len(item["path_ids"]) - 1 == item["path"].count(" › ")
        seen.add(item["id"])
    return items


def test_the_tree_below_the_partner_key_each_account_after_its_parent(cli: RunCli) -> None:
    ran = cli("get", "accounts", "-o", "json")
    assert ran.code == 0, ran.err
    items = _checked(ran.items("accounts"))
    ids = [i["id"] for i in items]
    # Depth first, in the platform's order: a reseller's organizations and their agents
    # before the next reseller.
    assert ids[:5] == [1000, 1100, 1110, 1111, 1112]
    assert ids.index(1122) < ids.index(1200) < ids.index(1228) < ids.index(1300)
    assert 9000 not in ids and 1119 not in ids  # another partner's; a member is no account
    first = items[0]
    assert (first["type"], first["parent_id"], first["depth"]) == ("partner", None, 0)
    by_id = {i["id"]: i for i in items}
    assert by_id[1118]["type"] == "agent" and by_id[1118]["computer_agent"] is True
    assert by_id[1122]["active"] is False
    assert by_id[1111]["path"] == (
        "Northwind Voice Partners › Bluebird Telecom › Acme Dental Group › Acme Dental Front Desk"
    )
    assert ran.out.count("\n") == len(items) + 2  # one line per item: a script may grep


def test_below_an_account_to_a_depth(cli: RunCli) -> None:
    ran = cli("get", "accounts", "--below", "1100", "--depth", "1", "-o", "jsonl")
    assert ran.code == 0, ran.err
    items = _checked(ran.lines("accounts"))
    assert [(i["id"], i["depth"]) for i in items] == [(1100, 0), (1110, 1), (1120, 1)]
    assert items[0]["path_ids"] == [1100]


def test_the_target_is_the_start_without_below(cli: RunCli) -> None:
    ran = cli("get", "accounts", "--account", "1120", "-o", "json")
    assert [i["id"] for i in ran.items("accounts")] == [1120, 1121, 1122]


def test_a_type_keeps_its_accounts_and_reads_nothing_deeper(cli: RunCli, sim_app: Any) -> None:
    # Agent lists fail: a listing of organizations never asks for them.
    sim_app.state.sim.faults.set("malformed", path_contains="/listAccounts")
    ran = cli("get", "accounts", "--type", "organization,reseller", "-o", "csv")
    assert ran.code == 0, ran.err
    rows = ran.out.splitlines()
    assert rows[0] == "id,name,type,parent_id,depth,path,active"
    assert [r.split(",")[2] for r in rows[1:]] == ["reseller", "organization", "organization"] * 3
    assert sim_app.state.sim.faults.count() == 0


def test_accounts_whose_children_fail_say_so_and_the_others_are_listed(
    cli: RunCli, sim_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Asked again as the screens ask, without the waits between (seconds in all).
    monkeypatch.setattr(ApiTransport, "backoff_delay", lambda *_: 0.0)
    sim_app.state.sim.faults.set("malformed", path_contains="/listAccounts")
    ran = cli("get", "accounts", "-o", "json")
    assert ran.code == PARTIAL
    items = _checked(ran.items("accounts"))
    failed = [i["id"] for i in items if i["error"]]
    assert failed == [1110, 1120, 1210, 1220, 1310, 1320]  # every organization
    assert all(i["type"] != "agent" for i in items)
    assert "could not be read" in ran.err


@pytest.mark.parametrize(
    ("args", "token"),
    [(("--below", "1200"), "demo-reseller"), (("--below", "1111"), "demo-member")],
)
def test_below_an_account_the_key_does_not_reach_is_refused(
    cli: RunCli, args: tuple[str, ...], token: str
) -> None:
    ran = cli("get", "accounts", *args, "-o", "json", token=token)
    assert ran.code == REFUSED
    assert ran.out == ""


def test_a_restricted_member_sees_its_permitted_accounts(cli: RunCli) -> None:
    ran = cli("get", "accounts", "--type", "agent", "-o", "json", token="demo-member")
    assert [i["id"] for i in ran.items("accounts")] == [1112, 1113]


@pytest.mark.parametrize("bad", [("--depth", "-1"), ("--type", "agents"), ("--below", "x")])
def test_a_bad_option_is_a_usage_error(cli: RunCli, bad: tuple[str, ...]) -> None:
    ran = cli("get", "accounts", *bad)
    assert ran.code == 1
    assert ran.out == ""


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_progress_line_is_off_the_terminal_before_the_table(
    cli: RunCli, monkeypatch: pytest.MonkeyPatch
) -> None:
    terminal = _Terminal()  # stdout and stderr on one terminal, as a person sees them
    monkeypatch.setattr("sys.stdout", terminal)
    monkeypatch.setattr("sys.stderr", terminal)
    assert cli("get", "accounts", "--type", "reseller").code == 0
    shown = terminal.getvalue()
    progress = shown.index("accounts read")
    assert shown.index("\r\x1b[K", progress) < shown.index("ID  ")


def test_an_account_listed_below_its_own_descendant_is_placed_once(
    cli: RunCli, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A platform listing a reseller again below one of its organizations: without a
    guard the walk would go round, level after level, up to its limit."""
    from vagent_tui.services.accounts import AccountDirectory

    children = AccountDirectory.children
    calls: list[int] = []

    async def with_a_loop(self: AccountDirectory, account: Any) -> Any:
        calls.append(account.id)
        assert len(calls) < 100, "the walk goes round"
        got = list(await children(self, account))
        if account.id == 1110:
            got.append(await self.client.get_account(target=1100))  # its own parent
        return got

    monkeypatch.setattr(AccountDirectory, "children", with_a_loop)
    ran = cli("get", "accounts", "--below", "1100", "-o", "json")
    assert ran.code == 0, ran.err
    ids = [i["id"] for i in _checked(ran.items("accounts"))]
    assert len(ids) == len(set(ids)) and ids[0] == 1100
