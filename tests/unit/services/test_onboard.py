"""Onboarding from a spreadsheet: reading the file, each outcome of the plan, applying
in order, a lost reply read back, a marked row read back before anything is sent, the
results as spreadsheet-safe CSV."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest

from vagent_tui.services.bulk import SENT, AccountResult
from vagent_tui.services.connect import demo_client
from vagent_tui.services.onboard import OnboardPlan, plan_onboarding
from vagent_tui.services.onboard_apply import apply_onboarding, results_csv
from vagent_tui.services.onboard_rows import SourceError, log_for, read_rows, source_id

HEADER = "type,external_id,name,parent,billing_id,active,email,role,accounts\n"
FILE = HEADER + (
    "organization,crm-org-1,Orbit Clinic,,bill-1,,admin@orbit.example,,\n"
    "account,crm-acc-1,Orbit Front Desk,crm-org-1,bill-1,,,,\n"
    "account,crm-acc-2,Orbit Night Line,crm-org-1,,,,,\n"
    "member,,,crm-org-1,,,dana@orbit.example,member,crm-acc-1 crm-acc-2\n"
    "account,crm-acc-3,=HYPERLINK(1),#1110,,,,,\n"
    "account,crm-acc-4,Nowhere,crm-missing,,,,,\n"
    "account,,No id,#1110,,,,,\n"
    "bogus,x,,,,,,,\n"
)


def sim(client: Any) -> Any:
    return client.sim_app.state.sim


def creates(client: Any) -> int:
    return sum(
        1 for r in sim(client).requests
        if r.method != "GET" and r.path.endswith(("/createOrganization", "/createAccount",
                                                  "/member"))
    )  # fmt: skip


async def plan_of(client: Any, text: str = FILE) -> OnboardPlan:
    return await plan_onboarding(client, read_rows(text), default_parent=1100, origin="here")


def test_reading_refuses_an_unknown_column_and_takes_json() -> None:
    with pytest.raises(SourceError, match="unknown column 'nmae'"):
        read_rows("type,external_id,nmae\naccount,x,y\n")
    with pytest.raises(SourceError, match="no rows"):
        read_rows(HEADER)
    entry = {"type": "account", "external_id": 12, "name": "A", "parent": "#1110",
             "accounts": ["a", "b"]}  # fmt: skip
    rows = read_rows(json.dumps([entry]), json_file=True)
    assert rows[0].external_id == "12" and rows[0].line == 1 and rows[0].accounts == "a b"
    with pytest.raises(SourceError, match="list of objects"):
        read_rows('{"type": "account"}', json_file=True)
    assert read_rows("\ufeff" + HEADER + "account,x,y,#1110,,,,,\n")[0].line == 2


def test_the_log_is_named_after_the_rows_and_the_platform() -> None:
    rows = read_rows(FILE)
    assert source_id(rows, "a") == source_id(read_rows(FILE), "a")
    assert source_id(rows, "a") != source_id(rows, "b")
    assert source_id(rows, "a") != source_id(read_rows(FILE.replace("Orbit", "Orb")), "a")


async def test_the_plan_gives_each_row_its_outcome_and_writes_nothing() -> None:
    client = demo_client("demo-reseller")
    sim(client).clear_log()
    plan = await plan_of(client)
    assert not [r for r in sim(client).requests if r.method != "GET"]
    outcome = {p.row.line: p.outcome for p in plan.rows}
    assert outcome == {2: "create", 3: "create", 4: "create", 5: "create", 6: "create",
                       7: "unknown-parent", 8: "refused", 9: "refused"}  # fmt: skip
    by_line = {p.row.line: p for p in plan.rows}
    assert "crm-missing" in by_line[7].reasons[0]
    assert "external_id is required" in by_line[8].reasons[0]
    assert any("created by row 2" in c for c in by_line[3].changes)
    assert plan.what_it_writes() == "create 1 organization, 3 accounts, 1 member"


async def test_a_row_naming_the_same_thing_twice_is_refused() -> None:
    client = demo_client("demo-reseller")
    text = HEADER + "account,dup,A,#1110,,,,,\naccount,dup,B,#1110,,,,,\n"
    plan = await plan_of(client, text)
    assert [p.outcome for p in plan.rows] == ["create", "refused"]
    assert "the same account as row 2" in plan.rows[1].reasons[0]


async def test_apply_creates_in_order_then_the_plan_finds_everything_already_so(
    tmp_path: Path,
) -> None:
    client = demo_client("demo-reseller")
    plan = await plan_of(client)
    log = log_for(read_rows(FILE), "here", tmp_path)
    results = await apply_onboarding(client, plan, log, concurrency=4)
    assert {r.account_id: r.result for r in results} == dict.fromkeys((2, 3, 4, 5, 6), "written")
    org = await client.account_by_external_id("crm-org-1")
    account = await client.account_by_external_id("crm-acc-1")
    assert account.parent_id == org.id and account.external_billing_id == "bill-1"
    members = await client.list_members(target=org.id)
    dana = [x for x in members if x.email == "dana@orbit.example"]
    assert dana and dana[0].role == "member" and len(dana[0].permitted_account_ids) == 2
    again = await plan_of(client)
    assert {p.row.line: p.outcome for p in again.rows if p.row.line <= 6} == dict.fromkeys(
        (2, 3, 4, 5, 6), "already"
    )
    # A second apply of the same plan sends nothing: every row is done in its log.
    sim(client).clear_log()
    assert await apply_onboarding(client, plan, log) == [] and creates(client) == 0
    log.release()


async def test_an_update_shows_the_diff_and_sends_only_what_differs(tmp_path: Path) -> None:
    client = demo_client("demo-reseller")
    first = HEADER + "account,crm-u,Old name,#1110,b-1,,,,\n"
    plan = await plan_of(client, first)
    await apply_onboarding(client, plan, log_for(plan_rows(plan), "x", tmp_path))
    second = HEADER + "account,crm-u,New name,#1110,,no,,,\n"
    plan = await plan_of(client, second)
    p = plan.rows[0]
    assert p.outcome == "update"
    assert p.changes == ('name: "Old name" → "New name"', "active: true → false")
    sim(client).clear_log()
    log = log_for(plan_rows(plan), "x", tmp_path)
    [result] = await apply_onboarding(client, plan, log)
    assert result.result == "written"
    [sent] = [r for r in sim(client).requests if r.path.endswith("/updateAccount")]
    assert sent.body == {"accountName": "New name", "active": False}
    now = await client.account_by_external_id("crm-u")
    assert now.name == "New name" and now.active is False and now.external_billing_id == "b-1"


def plan_rows(plan: OnboardPlan) -> list[Any]:
    return [p.row for p in plan.rows]


async def test_an_account_under_another_organization_is_refused_not_moved() -> None:
    client = demo_client("demo-reseller")
    await client.create_account(1110, _new("Moved?", "crm-m"))
    plan = await plan_of(client, HEADER + "account,crm-m,Moved?,#1120,,,,,\n")
    assert plan.rows[0].outcome == "refused"
    assert "not under #1120: a move is not offered" in plan.rows[0].reasons[0]
    plan = await plan_of(client, HEADER + "organization,crm-m,Org?,,,,,,\n")
    assert plan.rows[0].outcome == "refused" and "not an organization" in plan.rows[0].reasons[0]


async def test_a_lost_reply_is_read_back_never_sent_again(tmp_path: Path) -> None:
    client = demo_client("demo-reseller")
    text = HEADER + "account,crm-lost,Lost reply,#1110,,,,,\n"
    plan = await plan_of(client, text)
    state = sim(client)
    state.clear_log()
    state.faults.set("cut", path_contains="/createAccount", methods=frozenset({"POST"}))
    [result] = await apply_onboarding(client, plan, log_for(plan_rows(plan), "l", tmp_path))
    state.faults.lift()
    assert result.result == "written" and "read back: there" in result.message
    assert state.count("POST", "/api/v2/createAccount") == 1


async def test_a_row_marked_sent_by_a_killed_run_is_read_back_first(tmp_path: Path) -> None:
    client = demo_client("demo-reseller")
    text = HEADER + "account,crm-k1,Killed one,#1110,,,,,\naccount,crm-k2,Never sent,#1110,,,,,\n"
    plan = await plan_of(client, text)
    rows = plan_rows(plan)
    # The killed run: row 2's create went out (and was made), its reply never came.
    await client.create_account(1110, _new("Killed one", "crm-k1"))
    log = log_for(rows, "k", tmp_path)
    log.record(AccountResult(2, "write", "unknown", SENT))
    log.release()
    state = sim(client)
    state.clear_log()
    results = await apply_onboarding(client, plan, log_for(rows, "k", tmp_path))
    got = {r.account_id: r for r in results}
    assert got[2].result == "written" and "earlier run" in got[2].message
    assert got[3].result == "written"
    assert state.count("POST", "/api/v2/createAccount") == 1  # row 3's only


def _new(name: str, external: str) -> Any:
    from vagent_tui.api.models import NewAgentAccount

    return NewAgentAccount(account_name=name, external_account_id=external)


async def test_results_export_is_spreadsheet_safe(tmp_path: Path) -> None:
    client = demo_client("demo-reseller")
    plan = await plan_of(client)
    log = log_for(plan_rows(plan), "e", tmp_path)
    await apply_onboarding(client, plan, log)
    table = list(csv.reader(io.StringIO(results_csv(plan, log))))
    assert table[0][:2] == ["line", "type"] and table[0][-2:] == ["result", "message"]
    row6 = next(r for r in table if r[0] == "6")
    assert row6[3] == "'=HYPERLINK(1)" and row6[-2] == "written"
    row7 = next(r for r in table if r[0] == "7")
    assert row7[table[0].index("plan")] == "unknown-parent" and row7[-2] == ""


async def test_a_write_the_platform_refuses_is_failed_with_its_message(tmp_path: Path) -> None:
    client = demo_client("demo-org")
    text = HEADER + "account,crm-o,Org made,#1110,,,,,\naccount,crm-o2,Other,#1111,,,,,\n"
    plan = await plan_onboarding(client, read_rows(text), origin="o")
    assert plan.rows[0].outcome == "create"
    results = await apply_onboarding(client, plan, log_for(plan_rows(plan), "o", tmp_path))
    got = {r.account_id: r for r in results}
    assert got[2].result == "written" and got[3].result == "failed"
    assert got[3].message.startswith("HTTP 400")


async def test_a_member_and_an_organization_updated_with_their_diff(tmp_path: Path) -> None:
    client = demo_client("demo-reseller")
    await client.update_organization(1110, _org_update("crm-acme"))
    text = HEADER + (
        "organization,crm-acme,Acme Dental Care,,,,,,\n"
        "member,,,crm-acme,,,DANA.WHITFIELD@example.com,member,#1112\n"
        "member,,,#1110,,,sam.okafor@example.com,admin,\n"
    )
    plan = await plan_of(client, text)
    org, dana, sam = plan.rows
    assert org.outcome == "update" and org.changes == (
        'name: "Acme Dental Group" → "Acme Dental Care"',
    )
    assert dana.outcome == "update" and dana.changes == ("accounts: 1112 1113 → 1112",)
    assert sam.outcome == "already"
    state = sim(client)
    state.clear_log()
    results = await apply_onboarding(client, plan, log_for(plan_rows(plan), "u", tmp_path))
    assert [r.result for r in results] == ["written", "written"]
    [put] = [r for r in state.requests if r.method == "PUT"]
    assert put.body["targetMemberId"] == 1119 and put.body["permittedAccountIds"] == [1112]
    assert put.body["email"] == "dana.whitfield@example.com"  # its own spelling kept
    members = {m.id: m for m in await client.list_members(target=1110)}
    assert members[1119].permitted_account_ids == [1112]


def _org_update(external: str) -> Any:
    from vagent_tui.api.models import OrganizationUpdate

    return OrganizationUpdate(external_account_id=external)


async def test_a_member_update_marked_sent_that_never_landed_is_sent(tmp_path: Path) -> None:
    """Read back, a member counts as written only with the accounts the row gives too:
    its email and role alone are already so before the update."""
    client = demo_client("demo-reseller")
    text = HEADER + "member,,,#1110,,,dana.whitfield@example.com,member,#1112\n"
    plan = await plan_of(client, text)
    [dana] = plan.rows
    assert dana.outcome == "update"  # 1112 1113 → 1112: only the accounts differ
    log = log_for(plan_rows(plan), "m", tmp_path)
    log.record(AccountResult(2, "write", "unknown", SENT))  # killed before it went out
    log.release()
    state = sim(client)
    state.clear_log()
    results = await apply_onboarding(client, plan, log_for(plan_rows(plan), "m", tmp_path))
    assert [(r.result, "earlier run" in r.message) for r in results] == [("written", False)]
    assert len([r for r in state.requests if r.method == "PUT"]) == 1
    members = {m.id: m for m in await client.list_members(target=1110)}
    assert members[1119].permitted_account_ids == [1112]


async def test_a_resumed_organization_created_now_takes_its_accounts(tmp_path: Path) -> None:
    """A row marked sent by a killed run but not on the platform is looked up (404), then
    created: the accounts under it find it, not the 404 read before."""
    client = demo_client("demo-reseller")
    text = HEADER + (
        "organization,crm-new-org,New Clinic,,,,,,\naccount,crm-new-acc,Desk,crm-new-org,,,,,\n"
    )
    plan = await plan_of(client, text)
    log = log_for(plan_rows(plan), "r", tmp_path)
    log.record(AccountResult(2, "write", "unknown", SENT))  # the create never went out
    log.release()
    results = await apply_onboarding(client, plan, log_for(plan_rows(plan), "r", tmp_path))
    assert [(r.account_id, r.result) for r in results] == [(2, "written"), (3, "written")]
    found = await client.account_by_external_id("crm-new-acc")
    org = await client.account_by_external_id("crm-new-org")
    assert found.parent_id == org.id


NUMBERED = "type,external_id,name,parent,phone_number\n"


def held(client: Any, account_id: int) -> list[str]:
    return [n["number"] for n in sim(client).numbers.get(account_id, [])]


async def test_a_number_brought_is_planned_applied_once_and_then_already_so(
    tmp_path: Path,
) -> None:
    client = demo_client("demo-reseller")
    text = NUMBERED + (
        "account,crm-n1,With a number,#1110,+13035550101\n"
        "account,crm-n2,Bad number,#1110,303 555\n"
        "organization,crm-n3,Org,,+13035550102\n"
    )
    plan = await plan_of(client, text)
    first, bad, org = plan.rows
    assert first.outcome == "create" and first.bring == "+13035550101"
    assert "phone_number: bring +13035550101 (a fee)" in first.changes
    assert bad.outcome == org.outcome == "refused"
    assert "phone_number" in bad.reasons[0] and "agent account's" in org.reasons[0]
    assert plan.what_it_writes() == "create 1 account; bring 1 phone number (a fee each)"
    rows = plan_rows(plan)
    [result] = await apply_onboarding(client, plan, log_for(rows, "n", tmp_path))
    made = await client.account_by_external_id("crm-n1")
    assert result.result == "written" and result.message.endswith("brought +13035550101")
    assert made.id is not None and held(client, made.id) == ["+13035550101"]
    again = await plan_of(client, text)
    assert again.rows[0].outcome == "already" and not again.rows[0].bring
    assert sim(client).count("POST", "/api/v2/phoneNumber/byo/assign") == 1


async def test_an_account_without_its_number_is_an_update_that_only_brings_it(
    tmp_path: Path,
) -> None:
    client = demo_client("demo-reseller")
    state = sim(client)
    text = NUMBERED + "account,crm-n4,Front,#1110,+13035550104\n"
    await client.create_account(1110, _new("Front", "crm-n4"))
    plan = await plan_of(client, text)
    [p] = plan.rows
    assert p.outcome == "update" and p.changes == ("phone_number: bring +13035550104 (a fee)",)
    state.clear_log()
    [result] = await apply_onboarding(client, plan, log_for(plan_rows(plan), "u", tmp_path))
    assert result.result == "written" and result.message == "brought +13035550104"
    assert not [r for r in state.requests if r.path.endswith("/updateAccount")]
    assert p.target_id is not None and held(client, p.target_id) == ["+13035550104"]


async def test_a_refused_number_fails_its_row_saying_what_was_written(tmp_path: Path) -> None:
    client = demo_client("demo-reseller")
    taken = held(client, 1111)[0]  # held by another account: the platform refuses it
    text = NUMBERED + f"account,crm-n5,Taken,#1110,{taken}\n"
    plan = await plan_of(client, text)
    [result] = await apply_onboarding(client, plan, log_for(plan_rows(plan), "t", tmp_path))
    assert result.result == "failed" and result.message.startswith("created ")
    assert f"{taken} not brought: HTTP 404" in result.message
    again = await plan_of(client, text)
    assert again.rows[0].outcome == "update" and again.rows[0].bring == taken


async def test_a_lost_bring_is_read_back_and_a_killed_one_brought_on_the_rerun(
    tmp_path: Path,
) -> None:
    client = demo_client("demo-reseller")
    state = sim(client)
    text = NUMBERED + "account,crm-n6,Lost,#1110,+13035550106\n"
    plan = await plan_of(client, text)
    rows = plan_rows(plan)
    state.faults.set("cut", path_contains="/byo/assign", methods=frozenset({"POST"}))
    [result] = await apply_onboarding(client, plan, log_for(rows, "b", tmp_path))
    state.faults.lift()
    assert result.result == "written" and "read back: there" in result.message
    # a killed run: the account made, the mark left, the number never sent
    text = NUMBERED + "account,crm-n7,Killed,#1110,+13035550107\n"
    plan = await plan_of(client, text)
    rows = plan_rows(plan)
    made = await client.create_account(1110, _new("Killed", "crm-n7"))
    log = log_for(rows, "k", tmp_path)
    log.record(AccountResult(2, "write", "unknown", SENT))
    log.release()
    state.clear_log()
    [result] = await apply_onboarding(client, plan, log_for(rows, "k", tmp_path))
    assert result.result == "written" and result.message == "brought +13035550107"
    assert state.count("POST", "/api/v2/createAccount") == 0
    assert made is not None and made.id is not None
    assert held(client, made.id) == ["+13035550107"]


def test_a_file_without_numbers_keeps_the_name_of_its_log() -> None:
    """The name FILE's log had before the phone_number column (a dropped session's log
    is found again after the upgrade); a number in the file names it anew."""
    assert source_id(read_rows(FILE), "a") == "3c51a3a3c03f597e"
    numbered = FILE.replace("accounts\n", "accounts,phone_number\n", 1)
    numbered = numbered.replace(
        "Orbit Night Line,crm-org-1,,,,,", "Orbit Night Line,crm-org-1,,,,,,+13035550100"
    )
    assert source_id(read_rows(numbered), "a") != "3c51a3a3c03f597e"
