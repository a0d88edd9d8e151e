"""Scope's members pane: who can act on the highlighted account (email, role, reach), read
in a worker once per organization, a failure shown in the pane; ``m`` opens Members there."""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot
from textual.widgets.tree import TreeNode

from tests.helpers import MakeApp, settle, shown, sim_of
from vagent_tui.api.errors import ApiError
from vagent_tui.api.models import Account
from vagent_tui.ui.screens.members import MembersScreen
from vagent_tui.ui.screens.scope import ScopeScreen

RESELLER, ORG, SPANISH, HARBOR_AGENT, HARBOR = 1100, 1110, 1112, 1121, 1120


def _pane(app: Any) -> str:
    return str(shown(app, ScopeScreen).members_pane.content)


def _member_reads(app: Any) -> list[Any]:
    return [r for r in sim_of(app).requests if r.path == "/api/v2/members"]


def _node(app: Any, account_id: int) -> TreeNode[Account]:
    def walk(node: TreeNode[Account]) -> TreeNode[Account] | None:
        if node.data is not None and node.data.id == account_id:
            return node
        for child in node.children:
            if (found := walk(child)) is not None:
                return found
        return None

    found = walk(shown(app, ScopeScreen).account_tree.root)
    assert found is not None, account_id
    return found


async def _highlight(pilot: Pilot[None], account_id: int) -> None:
    shown(pilot.app, ScopeScreen).account_tree.move_cursor(_node(pilot.app, account_id))
    await settle(pilot)


async def _open(pilot: Pilot[None], account_id: int) -> None:
    _node(pilot.app, account_id).expand()
    await settle(pilot)


async def test_pane_lists_who_can_act_on_an_agent_account(make_app: MakeApp) -> None:
    app = make_app("scope", token="demo-reseller")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await _open(pilot, ORG)
        await _highlight(pilot, SPANISH)
        pane = _pane(app)
        assert "Members of Acme Dental Group (2)" in pane
        assert "sam.okafor@example.com" in pane and "admin · every account" in pane
        # Dana is restricted to 1112 and 1113: she acts on 1112, named from the tree.
        assert "member · acts here · only Acme Dental Spanish Line #1112" in pane
        # The agent account names itself: the platform answers its organization's members.
        assert _member_reads(app)[-1].query.get("targetAccountId") == str(SPANISH)


async def test_pane_reads_an_organization_once_and_says_not_here(make_app: MakeApp) -> None:
    app = make_app("scope", token="demo-reseller")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await _open(pilot, ORG)
        await _highlight(pilot, ORG)
        reads = len(_member_reads(app))
        await _highlight(pilot, 1111)  # another agent of the same organization
        assert "member · not here · only" in _pane(app)
        await _highlight(pilot, ORG)
        assert len(_member_reads(app)) == reads  # the organization's members, read once
        assert "Members of Acme Dental Group (2)" in _pane(app)


async def test_a_restricted_member_sees_its_own_reach_as_rule_5(make_app: MakeApp) -> None:
    app = make_app("scope", token="demo-member")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        pane = _pane(app)
        assert "dana.whitfield@example.com · member" in pane
        assert "restricted by permittedAccountIds to Acme Dental Spanish Line #1112" in pane
        assert "(rule 5)" in pane
        # A key restricted to accounts names one of them (it may not name its organization).
        assert _member_reads(app)[-1].query.get("targetAccountId") == str(SPANISH)


async def test_a_failed_read_shows_in_the_pane_and_keys_still_work(
    make_app: MakeApp, monkeypatch: Any
) -> None:
    app = make_app("scope", token="demo-reseller")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)

        async def refused(*_a: Any, **_k: Any) -> list[Any]:
            raise ApiError(403, "Members are not yours to read", method="GET", url="/members")

        monkeypatch.setattr(app.connection.api, "list_members", refused)
        await _highlight(pilot, HARBOR)
        assert "Members of Harbor Realty" in _pane(app)
        assert "Members are not yours to read" in _pane(app)
        await pilot.press("down")  # the tree still moves
        await settle(pilot)
        assert shown(app, ScopeScreen).account_tree.cursor_node is not None


async def test_m_opens_members_of_the_highlighted_organization(make_app: MakeApp) -> None:
    app = make_app("scope", token="demo-reseller")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await _highlight(pilot, ORG)
        await pilot.press("m")
        await settle(pilot)
        screen = shown(app, MembersScreen)
        assert [m.email for m in screen.members] == [
            "sam.okafor@example.com",
            "dana.whitfield@example.com",
        ]
        assert "Acme Dental Group (#1110)" in str(screen.status.content)
        assert app.connection.target is None  # the target is not changed by m


async def test_back_on_scope_the_pane_reads_again(make_app: MakeApp) -> None:
    app = make_app("scope", token="demo-reseller")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await _highlight(pilot, ORG)
        await pilot.press("m")
        await settle(pilot)
        sim_of(app).accounts[1117].email_address = "sam.new@acme.test"  # changed meanwhile
        await pilot.press("1")
        await settle(pilot)
        assert "sam.new@acme.test" in _pane(app)
