"""Pilot flows of the Onboard screen (demo-reseller): a file planned row by row with
nothing written, a bad file refused with nothing planned, the review counting what
will be created, apply, a second console resuming the same file after a run killed
mid-way, refused rows, read-only profiles, and O on Scope."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.app import App
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Static

from tests.helpers import MakeApp, settle, sim_of, wait_for
from vagent_tui.services.bulk import SENT, AccountResult
from vagent_tui.services.connect import demo_client
from vagent_tui.services.onboard_rows import log_for, read_rows
from vagent_tui.services.session import origin_of
from vagent_tui.ui.app import VagentApp
from vagent_tui.ui.dialogs import PromptModal, ReviewModal, TextModal
from vagent_tui.ui.screens.onboard import OnboardScreen
from vagent_tui.ui.widgets.record_table import RecordTable

FILE = (
    "type,external_id,name,parent,billing_id,active,email,role,accounts\n"
    "organization,crm-org-1,Orbit Clinic,,bill-1,,admin@orbit.example,,\n"
    "account,crm-acc-1,Orbit Front Desk,crm-org-1,bill-1,,,,\n"
    "account,crm-acc-2,Orbit Night Line,crm-org-1,,,,,\n"
    "member,,,crm-org-1,,,dana@orbit.example,member,crm-acc-1 crm-acc-2\n"
    "account,crm-acc-3,Dental extra line,#1110,,,,,\n"
    "account,crm-acc-4,Nowhere,crm-missing,,,,,\n"
    "account,,No id,#1110,,,,,\n"
)
CREATES = ("/api/v2/createOrganization", "/api/v2/createAccount", "/api/v2/member")


def status_text(app: App[Any]) -> str:
    return str(app.screen.query_one("#status", Static).content)


def cell(app: App[Any], line: int, column: str) -> str:
    table: RecordTable[Any] = app.screen.query_one("#onboard-table", RecordTable)
    record = table.record(str(line))
    assert record is not None
    row = table.get_row_at(table.records.index(record))
    return row[list(table.columns).index(column)].plain


def writes(app: App[Any]) -> list[Any]:
    return [r for r in sim_of(app).requests if r.method != "GET"]


def created(app: App[Any]) -> list[Any]:
    return [r for r in writes(app) if r.path in CREATES]


async def open_file(pilot: Pilot[None], path: Path) -> None:
    await pilot.press("c")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, PromptModal))
    prompt = pilot.app.screen
    assert isinstance(prompt, PromptModal)
    prompt.query_one("Input").value = str(path)  # type: ignore[attr-defined]
    await pilot.press("enter")
    await settle(pilot)
    await wait_for(pilot, lambda: "Planned" in status_text(pilot.app) or "nothing planned"
                   in status_text(pilot.app))  # fmt: skip


async def test_a_file_is_planned_row_by_row_and_nothing_is_written(
    make_app: MakeApp, tmp_path: Path
) -> None:
    path = tmp_path / "customers.csv"
    path.write_text(FILE)
    app = make_app("onboard", token="demo-reseller")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await open_file(pilot, path)
        assert "5 will create, 1 refused, 1 unknown parent" in status_text(app)
        assert cell(app, 2, "plan") == "will create" and cell(app, 7, "plan") == "unknown parent"
        assert "external_id is required" in cell(app, 8, "detail")
        source = str(app.screen.query_one("#onboard-source", Static).content)
        assert "create 1 organization, 3 accounts, 1 member" in source
        assert not writes(app)
        await pilot.press("enter")  # the first row whole
        await wait_for(pilot, lambda: isinstance(app.screen, TextModal))


async def test_a_bad_file_is_refused_and_nothing_is_planned(
    make_app: MakeApp, tmp_path: Path
) -> None:
    path = tmp_path / "bad.csv"
    path.write_text("type,external_id,nmae\naccount,x,y\n")
    app = make_app("onboard", token="demo-reseller")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await open_file(pilot, path)
        assert "unknown column 'nmae'" in status_text(app)
        assert app.screen.query_one("#onboard-table", RecordTable).row_count == 0
        assert [r for r in sim_of(app).requests if "ExternalId" in r.path] == []


async def test_apply_is_reviewed_with_the_counts_then_creates_each_once(
    make_app: MakeApp, tmp_path: Path
) -> None:
    path = tmp_path / "customers.csv"
    path.write_text(FILE)
    app = make_app("onboard", token="demo-reseller")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await open_file(pilot, path)
        await pilot.press("A")
        await wait_for(pilot, lambda: isinstance(app.screen, ReviewModal))
        review = str(app.screen.query_one("#review-intro", Static).content)
        assert "create 1 organization, 3 accounts, 1 member (5 rows)" in review
        await pilot.press("escape")  # ESC only cancels
        await settle(pilot)
        assert not writes(app)
        await pilot.press("A")
        await wait_for(pilot, lambda: isinstance(app.screen, ReviewModal))
        await pilot.press("y")
        await settle(pilot)
        await wait_for(pilot, lambda: "Applied" in status_text(app))
        assert "5 written" in status_text(app)
        assert len(created(app)) == 5
        assert cell(app, 3, "result") == "written"
        await pilot.press("p")  # planned again: everything is already so
        await settle(pilot)
        await wait_for(pilot, lambda: "5 already so" in status_text(app))
        await pilot.press("A")
        await settle(pilot)
        assert not isinstance(app.screen, ReviewModal) and len(created(app)) == 5


async def test_a_second_console_resumes_a_killed_run_and_creates_nothing_twice(
    tmp_path: Path,
) -> None:
    """The first console died after sending row 3 (made, its reply lost) and row 2 (made,
    recorded): the second opens the same file, plans it and applies the rest."""
    path = tmp_path / "customers.csv"
    path.write_text(FILE)
    client = demo_client("demo-reseller")
    from vagent_tui.api.models import NewAgentAccount, NewOrganization

    org = await client.create_organization(1100, NewOrganization(
        org_name="Orbit Clinic", email="admin@orbit.example", external_account_id="crm-org-1",
        external_billing_id="bill-1"))  # fmt: skip
    assert org is not None and org.id is not None
    await client.create_account(org.id, NewAgentAccount(
        account_name="Orbit Front Desk", external_account_id="crm-acc-1",
        external_billing_id="bill-1"))  # fmt: skip
    app = VagentApp(client, initial_screen="onboard", profile_label="demo · demo-reseller")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        log = log_for(read_rows(FILE), origin_of(app.connection))
        log.record(AccountResult(2, "write", "written", "created"))
        log.record(AccountResult(3, "write", "unknown", SENT))
        sim_of(app).clear_log()
        await open_file(pilot, path)
        assert cell(app, 2, "plan") == "already so" and cell(app, 3, "plan") == "already so"
        assert "an earlier run of this file wrote 1" in status_text(app)
        await pilot.press("A")
        await wait_for(pilot, lambda: isinstance(app.screen, ReviewModal))
        await pilot.press("y")
        await settle(pilot)
        await wait_for(pilot, lambda: "Applied" in status_text(app))
        paths = [r.path for r in created(app)]
        assert paths.count("/api/v2/createOrganization") == 0
        assert paths.count("/api/v2/createAccount") == 2  # rows 4 and 6 only
        assert paths.count("/api/v2/member") == 1


async def test_read_only_profile_plans_but_cannot_apply(tmp_path: Path) -> None:
    path = tmp_path / "customers.csv"
    path.write_text(FILE)
    app = VagentApp(demo_client("demo-reseller"), initial_screen="onboard", read_only=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await open_file(pilot, path)
        screen = app.screen
        assert isinstance(screen, OnboardScreen)
        assert not screen.check_action("apply", ()) and screen.check_action("export", ())
        await pilot.press("A")
        await pilot.pause()
        assert not isinstance(app.screen, ReviewModal)
        assert not writes(app)


async def test_rows_the_platform_refuses_are_failed_with_its_message(tmp_path: Path) -> None:
    """An account under an agent account (#1111 is no organization): the platform says
    no (400), the row says so with its message; nothing else is tried for it."""
    path = tmp_path / "one.csv"
    path.write_text("type,external_id,name,parent\naccount,crm-m,Wrong parent,#1111\n")
    app = VagentApp(demo_client("demo-reseller"), initial_screen="onboard")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await open_file(pilot, path)
        await pilot.press("A")
        await wait_for(pilot, lambda: isinstance(app.screen, ReviewModal))
        await pilot.press("y")
        await settle(pilot)
        await wait_for(pilot, lambda: "Applied" in status_text(app))
        assert "1 failed" in status_text(app)
        assert cell(app, 2, "result") == "failed" and "HTTP 400" in cell(app, 2, "detail")
        assert len(created(app)) == 1


async def test_o_on_scope_opens_the_onboard_screen(make_app: MakeApp) -> None:
    app = make_app("scope", token="demo-reseller")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("O")
        await settle(pilot)
        assert isinstance(app.screen, OnboardScreen)


async def test_p_reads_the_file_again(make_app: MakeApp, tmp_path: Path) -> None:
    path = tmp_path / "customers.csv"
    path.write_text(FILE)
    app = make_app("onboard", token="demo-reseller")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await open_file(pilot, path)
        assert cell(app, 8, "plan") == "refused"
        path.write_text(FILE.replace("account,,No id,", "account,crm-acc-5,No id,"))
        await pilot.press("p")
        await settle(pilot)
        await wait_for(pilot, lambda: cell(app, 8, "plan") == "will create")
        assert not writes(app)


async def test_the_columns_fit_the_width_and_follow_it(make_app: MakeApp, tmp_path: Path) -> None:
    path = tmp_path / "customers.csv"
    path.write_text(FILE)
    app = make_app("onboard", token="demo-reseller")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await open_file(pilot, path)
        table: RecordTable[Any] = app.screen.query_one("#onboard-table", RecordTable)

        def used() -> int:
            return sum(c.render_width for c in table.columns.values())

        assert [str(c.label) for c in table.columns.values()][-2:] == ["Result", "Details"]
        assert "Name" in [str(c.label) for c in table.columns.values()]
        assert used() <= table.size.width and cell(app, 5, "key") == "dana@orbit.example"
        await pilot.press("down", "down")
        await pilot.resize_terminal(80, 24)
        await wait_for(pilot, lambda: table.size.width <= 80 and used() <= table.size.width)
        labels = [str(c.label) for c in table.columns.values()]
        assert labels == ["Line", "Type", "Key", "Plan", "Result", "Details"]
        assert table.row_count == 7 and cell(app, 8, "plan") == "refused"
        assert "external_id is required" in cell(app, 8, "detail")  # cut where drawn, not here
        assert table.cursor_row == 2  # the same row highlighted
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, TextModal))
        assert "“Orbit Night Line”" in str(app.screen.query_one(Static).content)


def _tree_names(scope: Screen[Any]) -> list[str]:
    from textual.widgets import Tree

    tree: Tree[Any] = scope.query_one("#scope-tree", Tree)
    names: list[str] = []
    todo = [tree.root]
    while todo:
        node = todo.pop()
        names.append(str(node.label))
        todo.extend(node.children)
    return names


async def test_scope_reads_its_tree_again_after_an_apply(make_app: MakeApp, tmp_path: Path) -> None:
    path = tmp_path / "customers.csv"
    path.write_text(FILE)
    app = make_app("scope", token="demo-reseller")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        scope = app.screen
        await wait_for(pilot, lambda: len(_tree_names(scope)) > 1)
        assert not any("Orbit Clinic" in name for name in _tree_names(scope))
        await pilot.press("O")
        await settle(pilot)
        assert isinstance(app.screen, OnboardScreen)
        await open_file(pilot, path)
        await pilot.press("A")
        await wait_for(pilot, lambda: isinstance(app.screen, ReviewModal))
        await pilot.press("y")
        await settle(pilot)
        await wait_for(pilot, lambda: "Applied" in status_text(app))
        await app.run_action("app.show('scope')")  # back on Scope, no r pressed
        await settle(pilot)
        assert app.screen is scope
        await wait_for(pilot, lambda: any("Orbit Clinic" in n for n in _tree_names(scope)))


async def test_a_plan_that_brings_numbers_says_their_price_and_wants_the_count_typed(
    make_app: MakeApp, tmp_path: Path
) -> None:
    """Bringing a number spends money: the apply question says the catalog's price of a
    number brought, refuses to go ahead until the count is typed, and brings it once."""
    path = tmp_path / "numbers.csv"
    path.write_text(
        "type,external_id,name,parent,phone_number\n"
        "account,crm-byo-1,Orbit Main Line,#1110,+15125550142\n"
    )
    app = make_app("onboard", token="demo-reseller")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await open_file(pilot, path)
        await pilot.press("A")
        await wait_for(pilot, lambda: isinstance(app.screen, ReviewModal))
        review = app.screen
        assert isinstance(review, ReviewModal) and review.expected == "1"
        intro = str(review.query_one("#review-intro", Static).content)
        assert "spends money: 0.5" in intro and "USD a month each, the catalog" in intro
        await pilot.press("enter")  # nothing typed: refused, nothing sent
        await settle(pilot)
        assert isinstance(app.screen, ReviewModal) and not writes(app)
        await pilot.press("1", "enter")
        await settle(pilot)
        await wait_for(pilot, lambda: "Applied" in status_text(app))
        brought = [r for r in writes(app) if r.path == "/api/v2/phoneNumber/byo/assign"]
        assert len(brought) == 1
