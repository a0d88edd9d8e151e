"""Pilot flows of the Scope screen: lazy tree, filter, picking, cancelling, restricted keys."""

from __future__ import annotations

import io
from typing import Any

import pytest
from rich.console import Console
from textual.app import App
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Input, OptionList, Static
from textual.widgets.tree import TreeNode

from tests.helpers import MakeApp, fail_once, settle, shown, sim_of, wait_for
from vagent_tui.api.errors import ApiError
from vagent_tui.api.models import Account
from vagent_tui.ui.screens.scope import ScopeScreen
from vagent_tui.ui.widgets.account_tree import AccountMatches

ACCOUNT = "/api/v2/account"
SEARCH = "/api/v2/searchAccounts"
LISTS = ("/api/v2/listResellers", "/api/v2/listOrganizations", "/api/v2/listAccounts")


def list_requests(app: App[Any]) -> list[str]:
    sim = sim_of(app)
    keys = ("targetPartnerId", "targetResellerId", "targetOrganizationId")
    return [next(r.query[k] for k in keys if k in r.query) for r in sim.requests if r.path in LISTS]


def node_of(screen: Screen[Any], account_id: int) -> TreeNode[Account] | None:
    assert isinstance(screen, ScopeScreen), f"{type(screen).__name__} on show, not the scope"

    def walk(node: TreeNode[Account]) -> TreeNode[Account] | None:
        if node.data is not None and node.data.id == account_id:
            return node
        for child in node.children:
            found = walk(child)
            if found is not None:
                return found
        return None

    return walk(screen.account_tree.root)


def node_at(screen: ScopeScreen, account_id: int) -> TreeNode[Account]:
    """The tree's node of ``account_id``, which the test expects is there."""
    node = node_of(screen, account_id)
    assert node is not None, f"node {account_id} is not in the tree"
    return node


def data_of(node: TreeNode[Account]) -> Account:
    """The account a node of the tree shows."""
    assert node.data is not None, f"node {node.label} has no account"
    return node.data


async def expand(pilot: Pilot[None], screen: ScopeScreen, account_id: int) -> None:
    node = node_at(screen, account_id)
    screen.account_tree.move_cursor(node)
    await pilot.press("space")
    await settle(pilot)


def text_of(screen: Screen[Any], selector: str) -> str:
    """The plain text a Static shows (a Text or a rich table), on one wide console."""
    console = Console(width=300, file=io.StringIO(), record=True)
    console.print(screen.query_one(selector, Static).content)
    return console.export_text()


async def test_owner_scope_and_lazy_tree(make_app: MakeApp) -> None:
    app = make_app("scope")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, ScopeScreen)
        info = text_of(screen, "#scope-info")
        assert "Northwind Voice Partners" in info
        assert "Partner Admin" in info and "rule 1 of 4: accountType is partner" in info
        # Only the root's children are listed at first: one request.
        assert list_requests(app) == ["1000"]
        await expand(pilot, screen, 1100)
        await expand(pilot, screen, 1110)
        assert list_requests(app) == ["1000", "1100", "1110"]
        agent = node_of(screen, 1111)
        assert agent is not None and not agent.allow_expand
        # Collapsing and expanding again asks nothing more.
        await expand(pilot, screen, 1110)
        await expand(pilot, screen, 1110)
        assert list_requests(app) == ["1000", "1100", "1110"]
        # The detail pane follows the highlighted node.
        screen.account_tree.move_cursor(node_of(screen, 1111))
        await pilot.pause()
        detail = text_of(screen, "#scope-detail")
        assert "Acme Dental Front Desk" in detail and "1111" in detail and "agent" in detail
        assert "Premium" in detail and "✓ yes" in detail


async def test_pick_target_updates_header_and_agent_screen(make_app: MakeApp) -> None:
    app = make_app("scope")
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settle(pilot)
        screen = shown(app, ScopeScreen)
        await expand(pilot, screen, 1100)
        await expand(pilot, screen, 1110)
        screen.account_tree.move_cursor(node_of(screen, 1111))
        await pilot.press("enter")
        await settle(pilot)
        assert app.connection.target_id == 1111
        header = text_of(screen, "#context-bar")
        assert "acting as Acme Dental Front Desk (#1111) via key of Northwind" in header
        assert "● " in str(node_at(screen, 1111).label)
        assert "✓ Now acting as Acme Dental Front Desk" in text_of(screen, "#status")
        # The agent screen follows the target.
        await pilot.press("2")
        await settle(pilot)
        assert app.screen.TITLE == "Agent"
        assert "cfg-1111" in text_of(app.screen, "#agent-slot")
        # Back on scope: o acts as the key owner again.
        await pilot.press("1")
        await settle(pilot)
        await pilot.press("o")
        await settle(pilot)
        assert app.connection.target is None
        assert "acting as key owner" in text_of(app.screen, "#context-bar")


def searches(app: App[Any]) -> list[str]:
    """The ``queryText`` of every ``searchAccounts`` request so far."""
    sim = sim_of(app)
    return [r.query.get("queryText", "") for r in sim.requests if r.path == SEARCH]


def match_lines(screen: Screen[Any]) -> list[str]:
    """The lines of the matches list, as shown."""
    matches = screen.query_one("#scope-matches", OptionList)
    return [str(matches.get_option_at_index(i).prompt) for i in range(matches.option_count)]


def highlighted_id(screen: Screen[Any]) -> int | None:
    option = screen.query_one("#scope-matches", OptionList).highlighted_option
    return int(option.id) if option is not None and option.id is not None else None


async def test_filter_searches_and_one_enter_picks_the_top_match(make_app: MakeApp) -> None:
    app = make_app("scope")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, ScopeScreen)
        await pilot.press("slash")
        assert isinstance(app.focused, Input)
        await pilot.press(*"lakeside bil")
        await settle(pilot)
        matches = screen.query_one("#scope-matches", OptionList)
        assert screen.has_class("-filtering") and matches.display
        assert highlighted_id(screen) == 1212  # Lakeside Billing, the top match
        # The answer is the whole text's: asked, or narrowed from a whole answer for a
        # text it holds (services: test_account_search); the tree is not walked.
        assert searches(app) and all(q in "lakeside bil" for q in searches(app))
        assert list_requests(app) == ["1000"]
        await pilot.press("enter")  # from the field: one enter picks
        await settle(pilot)
        assert app.connection.target_id == 1212
        # Escape leaves the filter and shows the tree again.
        await pilot.press("escape")
        await pilot.pause()
        assert not screen.has_class("-filtering")
        assert screen.query_one("#scope-filter", Input).value == ""


async def test_pine_enter_picks_pinecrest_not_the_key_owner(make_app: MakeApp) -> None:
    """The owner matches "pine" fuzzily (p-artners northw-i-nd …) but is not the top."""
    app = make_app("scope")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        toasts: list[str] = []
        shown_toast = app.notify

        def notify(message: str, **kw: Any) -> None:
            toasts.append(message)
            shown_toast(message, **kw)

        app.notify = notify  # type: ignore[method-assign]
        await pilot.press("slash", *"pine")
        await settle(pilot)
        assert highlighted_id(app.screen) == 1310  # Pinecrest Law
        await pilot.press("enter")
        await settle(pilot)
        assert app.connection.target_id == 1310
        assert "Already acting" not in text_of(app.screen, "#status")
        # The status line says it; no toast repeats it.
        assert "Now acting as Pinecrest Law" in text_of(app.screen, "#status")
        assert not [t for t in toasts if "Now acting" in t]
        # The field let go of the keys: 3 is the Voices screen, not more filter text.
        assert not isinstance(app.focused, Input)
        await pilot.press("3")
        await settle(pilot)
        assert app.screen.TITLE == "Voices"


async def test_enter_typed_fast_waits_for_the_answer_for_the_text(make_app: MakeApp) -> None:
    """``/metro`` + enter before the answer came: nothing is picked from an older list;
    the top match of the answer for "metro" is, once it shows."""
    app = make_app("scope")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, ScopeScreen)
        await pilot.press("slash", *"sum")
        await settle(pilot)
        assert "Summit Reseller Group" in match_lines(screen)[0]
        # long enough to look before the answer, even on a busy machine
        sim_of(app).latency_ms = 4000
        await pilot.press("backspace", "backspace", "backspace", *"metro", "enter")
        await pilot.pause(0.1)
        assert app.connection.target is None  # not Summit, not anything yet
        assert text_of(screen, "#scope-answer").strip() == "Searching for “metro”…"
        # Summit, dimmed once the answer takes a moment
        await wait_for(pilot, lambda: screen.query_one(AccountMatches).has_class("-waiting"))
        assert app.connection.target is None
        assert "enter picks the top match when it shows" in text_of(screen, "#status")
        await wait_for(pilot, lambda: app.connection.target is not None)
        await settle(pilot)
        assert screen.query_one(AccountMatches).answered == "metro"
        picked = app.connection.target_id
        assert picked == highlighted_id(screen)
        assert app.connection.target is not None
        assert "Metro" in app.connection.target.display_name


async def test_typing_on_drops_a_waiting_enter_and_an_older_answer(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    import asyncio

    from vagent_tui.services.accounts import AccountDirectory

    app = make_app("scope")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, ScopeScreen)
        real = AccountDirectory.search
        release = asyncio.Event()
        pine_answered = asyncio.Event()

        async def held_for_pine(self: AccountDirectory, text: str, **kw: Any) -> Any:
            if text == "pine":
                await release.wait()  # the answer for "pine" comes only when let go
                found = await real(self, text, **kw)
                pine_answered.set()
                return found
            return await real(self, text, **kw)

        monkeypatch.setattr(AccountDirectory, "search", held_for_pine)
        await pilot.press("slash", *"pine", "enter")  # enter waits for "pine"…
        await pilot.pause(0.1)
        assert app.connection.target is None
        await pilot.press(*"xx")  # … and is dropped: the text changed
        await pilot.press(*["backspace"] * 5, *"etro")
        await settle(pilot)
        await wait_for(pilot, lambda: screen.query_one(AccountMatches).answered == "petro")
        release.set()  # now the answer for "pine" comes: too late, dropped
        await wait_for(pilot, pine_answered.is_set)
        await settle(pilot)
        assert screen.query_one(AccountMatches).answered == "petro"
        assert app.connection.target is None
        answer = screen.filter_state.answer
        assert answer is not None and answer.query == "petro"  # the one for "pine" never showed


async def test_no_answer_is_given_while_the_search_is_on_its_way(make_app: MakeApp) -> None:
    app = make_app("scope")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, ScopeScreen)
        # far longer than typing the five keys, even on a busy machine
        sim_of(app).latency_ms = 4000
        await pilot.press("slash", *"zzzz")
        await pilot.pause(0.1)
        assert text_of(screen, "#scope-answer").strip() == "Searching for “zzzz”…"
        assert "No account" not in text_of(screen, "#scope-answer")
        await wait_for(pilot, lambda: screen.query_one(AccountMatches).answered == "zzzz")
        assert text_of(screen, "#scope-answer").strip() == "No account matches “zzzz”"
        assert match_lines(screen) == []


async def test_down_in_the_field_moves_the_highlight_and_enter_picks_it(make_app: MakeApp) -> None:
    app = make_app("scope")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, ScopeScreen)
        await pilot.press("slash", *"pinecrest")
        await settle(pilot)
        first = highlighted_id(screen)
        await pilot.press("down")
        second = highlighted_id(screen)
        assert isinstance(app.focused, Input) and second not in (None, first)
        await pilot.press("enter")
        await settle(pilot)
        assert app.connection.target_id == second


async def test_a_click_highlights_and_a_double_click_picks(make_app: MakeApp) -> None:
    app = make_app("scope")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, ScopeScreen)
        await pilot.press("slash", *"pinecrest")
        await settle(pilot)
        assert highlighted_id(screen) == 1310
        await pilot.click("#scope-matches", offset=(4, 1))  # the second match
        await settle(pilot)
        second = highlighted_id(screen)
        assert second in (1311, 1312) and app.connection.target is None
        await pilot.click("#scope-matches", offset=(4, 1), times=2)
        await settle(pilot)
        assert app.connection.target_id == second
        # In the tree too: a click moves the cursor, a double click picks.
        await pilot.press("escape")
        await settle(pilot)
        await pilot.click("#scope-tree", offset=(6, 1))  # Bluebird Telecom
        await settle(pilot)
        cursor = screen.account_tree.cursor_node
        assert cursor is not None and data_of(cursor).id == 1100
        assert app.connection.target_id == second
        await pilot.click("#scope-tree", offset=(6, 1), times=2)
        await settle(pilot)
        assert app.connection.target_id == 1100


async def test_a_key_that_cannot_search_walks_and_says_how_far(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app("scope")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, ScopeScreen)

        async def refuse(*args: Any, **kwargs: Any) -> Any:
            raise ApiError(404, "Not found")

        monkeypatch.setattr(app.connection.api, "search_accounts", refuse)
        directory = screen.directory
        assert directory is not None
        directory.walk_limit = 3  # the root's children, then it stops
        await pilot.press("slash", *"pinecrest intake")
        await settle(pilot)
        lines = match_lines(screen)
        assert "No account matches “pinecrest intake”" in text_of(screen, "#scope-answer")
        assert "only the first" in lines[-1] and "others may match" in lines[-1]
        assert "HTTP 404" in text_of(screen, "#status")
        directory.walk_limit = 5000
        await pilot.press("backspace")
        await settle(pilot)
        assert "Pinecrest Intake" in match_lines(screen)[0]
        assert not any("only the first" in line for line in match_lines(screen))


async def test_failed_switch_keeps_old_target(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app("scope", account=1111)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settle(pilot)
        screen = shown(app, ScopeScreen)
        assert app.connection.target_id == 1111

        async def refuse(*, target: int | None = None) -> Any:
            raise ApiError(500, "boom")

        monkeypatch.setattr(app.connection.api, "get_account", refuse)
        screen.account_tree.move_cursor(node_of(screen, 1100))
        await pilot.press("enter")
        await settle(pilot)
        assert app.connection.target_id == 1111
        status = text_of(screen, "#status")
        assert "Could not switch to Bluebird Telecom; the target is unchanged" in status
        assert any("boom" in n.message for n in app._notifications)


async def test_escape_cancels_a_slow_switch(make_app: MakeApp) -> None:
    app = make_app("scope")
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settle(pilot)
        screen = shown(app, ScopeScreen)
        sim_of(app).latency_ms = 3000
        screen.account_tree.move_cursor(node_of(screen, 1200))
        await pilot.press("enter")
        await wait_for(pilot, lambda: "Switching to Cascade" in text_of(screen, "#status"))
        await pilot.press("escape")
        await wait_for(pilot, lambda: "cancelled" in text_of(screen, "#status"))
        assert app.connection.target is None
        assert "Switch to Cascade Cloud Voice cancelled" in text_of(screen, "#status")
        assert not [w for w in app.workers if w.group == "target" and w.is_running]


async def test_restricted_member(make_app: MakeApp) -> None:
    app = make_app("scope", token="demo-member")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, ScopeScreen)
        info = text_of(screen, "#scope-info")
        assert "Organization Admin" in info and "rule 4" in info
        assert "restricted by permittedAccountIds to 1112, 1113" in info
        assert "restricted by permittedAccountIds to 1112, 1113 (rule 5)" in info
        assert "pick a permitted account" in info  # without a target it acts on nothing
        # Rule 5: the member may not list its organization; each permitted account is
        # read as a target instead.
        assert list_requests(app) == []
        sim = sim_of(app)
        reads = {r.query.get("targetAccountId") for r in sim.requests if r.path == ACCOUNT}
        assert reads == {None, "1112", "1113"}
        ids = [data_of(child).id for child in screen.account_tree.root.children]
        assert ids == [1112, 1113]
        screen.account_tree.move_cursor(node_of(screen, 1113))
        await pilot.press("enter")
        await settle(pilot)
        assert app.connection.target_id == 1113
        # A non-permitted account is refused before anything is sent.
        from vagent_tui.api.models import Account

        screen._pick(Account(id=1111, name="Acme Dental Front Desk", account_type="account"))
        await settle(pilot)
        assert app.connection.target_id == 1113
        assert "may act only on 1112, 1113" in text_of(screen, "#status")


@pytest.mark.parametrize(
    ("token", "verdict", "reason", "scope_account", "below"),
    [
        ("demo-partner-user", "Partner Admin", "rule 1 of 4: a user account whose "
         "organizationId equals partnerId (1000)", ("partner", 1000), [1100, 1200, 1300]),
        ("demo-reseller-user", "Reseller Admin", "rule 2 of 4: a user account whose "
         "organizationId equals resellerId (1100)", ("reseller", 1100), [1110, 1120]),
        ("demo-org-user", "Organization Admin", "rule 4 of 4: a user account with "
         "organizationId 1110", ("organization", 1110), [1111, 1112, 1113, 1118]),
    ],
)  # fmt: skip
async def test_user_shaped_admin_keys(
    make_app: MakeApp,
    token: str,
    verdict: str,
    reason: str,
    scope_account: tuple[str, int],
    below: list[int],
) -> None:
    """A user whose fields make it an admin: the rule that matched, why, and where it acts.

    The account its rule names is the owner's one child, opened at once: picking it
    sends that id as ``targetAccountId``, whatever the platform does without one.
    """
    level, scope_id = scope_account
    app = make_app("scope", token=token)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, ScopeScreen)
        info = text_of(screen, "#scope-info")
        assert f"{verdict} — {reason}" in info
        assert f"every child account of {level} #{scope_id}" in info
        assert f"to act as {level} #{scope_id}, pick it below" in info
        assert "restricted" not in info
        (child,) = screen.account_tree.root.children
        assert data_of(child).id == scope_id and child.is_expanded
        assert [data_of(c).id for c in child.children] == below
        screen.account_tree.move_cursor(child)
        await pilot.press("enter")
        await settle(pilot)
        assert app.connection.target_id == scope_id
        assert "pick it below" not in text_of(screen, "#scope-info")


async def test_agent_level_key(make_app: MakeApp) -> None:
    app = make_app("scope", token="demo-agent")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, ScopeScreen)
        info = text_of(screen, "#scope-info")
        assert "Agent account" in info and "rule 3 of 4: accountType is account" in info
        assert "its own agent account only" in info
        assert list_requests(app) == []
        assert not screen.account_tree.root.allow_expand
        assert "own account only" in text_of(screen, "#status")


async def test_connect_error_and_retry(make_app: MakeApp) -> None:
    app = make_app("scope", token="not-a-key")
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settle(pilot)
        screen = shown(app, ScopeScreen)
        assert "Could not connect: HTTP 401: Unauthorized Request" in text_of(screen, "#scope-info")
        # A refused token needs a new one, not a retry (r still reconnects, with one).
        assert "needs replacing, not a retry" in text_of(screen, "#status")
        assert "press r" not in text_of(screen, "#status")
        sim = sim_of(app)
        sim.tokens["not-a-key"] = sim.tokens["demo-org"]  # the platform takes the key now
        await pilot.press("r")
        await settle(pilot)
        info = text_of(screen, "#scope-info")
        assert "Acme Dental Group" in info and "Organization Admin" in info
        assert [data_of(c).id for c in screen.account_tree.root.children] == [
            1111,
            1112,
            1113,
            1118,
        ]


async def test_tree_load_error_and_retry(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app("scope")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, ScopeScreen)
        app.connection.api.get_retries = 0  # no retry of the service's: the failure shows
        fail_once(
            monkeypatch, app.connection.api, "list_organizations", ApiError(500, "Internal error")
        )
        await expand(pilot, screen, 1100)
        status = text_of(screen, "#status")
        assert "HTTP 500" in status and "Internal error" in status
        assert "failed" in str(node_at(screen, 1100).label)
        await pilot.press("r")
        await settle(pilot)
        await expand(pilot, screen, 1100)
        assert [data_of(c).id for c in node_at(screen, 1100).children] == [1110, 1120]


async def test_children_still_arrive_when_the_target_changes_meanwhile(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The tree is the key's, not the target's: a new target does not drop its children."""
    import asyncio

    from vagent_tui.services.accounts import AccountDirectory

    app = make_app("scope")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, ScopeScreen)
        await expand(pilot, screen, 1100)
        real = AccountDirectory.children

        async def slow(self: AccountDirectory, account: Any, **kw: Any) -> Any:
            await asyncio.sleep(0.3)
            return await real(self, account, **kw)

        monkeypatch.setattr(AccountDirectory, "children", slow)
        node = node_at(screen, 1110)
        screen.account_tree.move_cursor(node)
        await pilot.press("space")
        await pilot.pause(0.05)
        app.select_target(1100)  # another target while the children load
        await wait_for(pilot, lambda: app.connection.target_id == 1100)
        await wait_for(pilot, lambda: len(node.children) == 4)
        assert "loading" not in str(node.label)


async def test_another_profile_rebuilds_the_tree(make_app: MakeApp) -> None:
    from vagent_tui.services.connect import demo_client

    app = make_app("scope")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert node_of(app.screen, 1100) is not None  # the partner's resellers
        assert await app.connect_profile(demo_client("demo-org"), None, label="org")
        await wait_for(
            pilot, lambda: app.connection.connected and node_of(app.screen, 1100) is None
        )
        await wait_for(pilot, lambda: node_of(app.screen, 1110) is not None)


async def test_the_first_level_is_read_while_the_screen_is_built_and_r_reads_afresh(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    from vagent_tui.ui.screens.scope import ScopeScreen

    tree_reads: list[int | None] = []
    read = ScopeScreen._load_children

    async def counted(screen: Any, node: Any, account: Any) -> None:
        tree_reads.append(account.id)
        await read(screen, node, account)

    monkeypatch.setattr(ScopeScreen, "_load_children", counted)
    app = make_app("scope")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert tree_reads == []  # the tree had its first level when it was built
        screen = shown(app, ScopeScreen)
        connection = app.connection
        assert connection.directory is not None and connection.owner is not None
        # Read once, by the connection, and shown from there: no second read by the tree.
        assert connection.directory.cached_children(connection.owner)
        assert screen.directory is connection.directory
        assert list_requests(app) == ["1000"]
        assert node_of(screen, 1100) is not None and screen.account_tree.root.is_expanded
        assert "loading" not in str(screen.account_tree.root.label)
        await pilot.press("r")  # an explicit refresh asks the platform again
        await settle(pilot)
        assert tree_reads == [1000]
        assert list_requests(app) == ["1000", "1000"]
        assert screen.directory is not connection.directory
        assert node_of(screen, 1100) is not None


async def test_another_first_screen_reads_no_tree(make_app: MakeApp) -> None:
    app = make_app("voices")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        connection = app.connection
        assert connection.connected and connection.owner is not None
        assert connection.directory is not None
        assert connection.directory.cached_children(connection.owner) is None
        assert list_requests(app) == []
        await pilot.press("1")  # Scope, later: its tree is read then, once
        await wait_for(pilot, lambda: node_of(app.screen, 1100) is not None)
        assert list_requests(app) == ["1000"]


async def test_a_further_key_with_the_same_matches_keeps_the_list(make_app: MakeApp) -> None:
    """``summi`` then ``t``: the same accounts match, the list shown is kept (its lines are
    not set and drawn again); ``acme`` answers with other lines, which replace it."""
    app = make_app("scope")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, ScopeScreen)
        matches = screen.query_one(AccountMatches)
        await pilot.press("slash", *"summi")
        await wait_for(pilot, lambda: matches.answered == "summi")
        before = [matches.get_option_at_index(i) for i in range(matches.option_count)]
        lines = match_lines(screen)
        await pilot.press("t")
        await wait_for(pilot, lambda: matches.answered == "summit")
        assert match_lines(screen) == lines
        assert [matches.get_option_at_index(i) for i in range(matches.option_count)] == before
        assert not matches.has_class("-waiting")
        await pilot.press(*["backspace"] * 6, *"acme")
        await wait_for(pilot, lambda: matches.answered == "acme")
        assert match_lines(screen) != lines
        assert matches.get_option_at_index(0) is not before[0]


async def test_the_first_screen_is_styled_once_at_start(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first screen's CSS is in the first parse of the stylesheet, and nothing parses
    it again while the console starts (adding the screen's CSS later made one reparse,
    Textual's restyle of a new mode's screen another: `textual_compat.styled_as_current`);
    a later screen loads its CSS as usual."""
    from textual.css.stylesheet import Stylesheet

    reparses: list[int] = []
    reparse = Stylesheet.reparse

    def counted(self: Stylesheet) -> None:
        reparses.append(1)
        reparse(self)

    monkeypatch.setattr(Stylesheet, "reparse", counted)
    app = make_app("scope")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, ScopeScreen)
        assert reparses == []
        assert any("scope.tcss" in str(path) for path in screen.css_path)
        assert any(str(path) == str(screen.css_path[0]) for path, _ in app.stylesheet.source)
        await pilot.press("2")  # a later screen loads its own CSS the usual way
        await settle(pilot)
        assert reparses
