"""Members screen: list, invite (validated at the field), change, remove (confirmed), 404,
an unknown outcome read back, a restricted member refused, a read-only profile."""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot
from textual.widgets import Button, Input, Label, Select

from tests.helpers import MakeApp, settle, shown, sim_of
from vagent_tui.ui.app import VagentApp
from vagent_tui.ui.dialogs import ConfirmModal, ReviewModal
from vagent_tui.ui.screens.base import BaseScreen
from vagent_tui.ui.screens.members import MembersScreen
from vagent_tui.ui.widgets.member_forms import MemberEditForm, MemberInviteForm

PATH = "/api/v2/member"
ORG = 1110


def _app(make_app: MakeApp, token: str = "demo-org", account: int | None = ORG) -> VagentApp:
    return make_app("members", token=token, account=account)


def _members(app: Any, org: int = ORG) -> dict[int, Any]:
    sim = sim_of(app)
    return {a.id: a for a in sim.children(org) if a.account_type == "user"}


def _status(app: Any) -> str:
    return str(shown(app, BaseScreen).status.content)


def _sent(app: Any, method: str) -> int:
    return sum(1 for r in sim_of(app).requests if r.method == method and r.path == PATH)


def _screen(app: Any) -> MembersScreen:
    screen = app.screen
    assert isinstance(screen, MembersScreen)
    return screen


async def _highlight(pilot: Pilot[None], member_id: int) -> None:
    screen = _screen(pilot.app)
    ids = [m.id for m in screen.members]
    screen.table.move_cursor(row=ids.index(member_id))
    await pilot.pause()


async def test_lists_members_with_their_reach(make_app: MakeApp) -> None:
    app = _app(make_app)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = _screen(app)
        assert [m.id for m in screen.members] == [1117, 1119]
        cells = [str(c) for c in screen.table.get_row_at(1)]
        assert "only 2 accounts: 1112, 1113" in cells and "member" in cells
        assert "2 members of the organization of Acme Dental Group" in _status(app)


async def test_invite_sends_once_and_lists_the_new_member(make_app: MakeApp) -> None:
    app = _app(make_app)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("a")
        await settle(pilot)
        form = app.screen
        assert isinstance(form, MemberInviteForm)
        form.query_one("#form-email", Input).value = "front@acme.test"
        form.query_one("#form-role", Select).value = "member"
        form.query_one("#form-permitted-account-ids", Input).value = "1111"
        form.query_one("#form-send-welcome-email", Select).value = "no"
        form.submit()
        await settle(pilot)
        assert isinstance(app.screen, MembersScreen)
        [request] = [r for r in sim_of(app).requests if r.method == "POST" and r.path == PATH]
        assert request.body == {"email": "front@acme.test", "role": "member",
                                "permittedAccountIds": [1111],
                                "sendWelcomeEmail": False}  # fmt: skip
        new = next(m for m in _members(app).values() if m.email == "front@acme.test")
        assert new.permitted_ids == [1111] and new.invited
        assert any(m.email == "front@acme.test" for m in _screen(app).members)
        assert "Invitation sent: front@acme.test" in _status(app)


async def test_change_lifts_a_restriction_with_an_empty_list(make_app: MakeApp) -> None:
    app = _app(make_app)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await _highlight(pilot, 1119)
        await pilot.press("e")
        await settle(pilot)
        form = app.screen
        assert isinstance(form, MemberEditForm)
        ids = form.query_one("#form-permitted-account-ids", Input)
        assert ids.value == "1112, 1113"  # what the member holds now
        ids.value = ""
        form.submit()
        await settle(pilot)
        review = app.screen  # an access right: the change is reviewed, nothing sent yet
        assert isinstance(review, ReviewModal)
        said = str(review.diff)
        assert "1112, 1113" in said and "every account (no limit)" in said
        assert "will reach every account" in said
        assert _members(app)[1119].permitted_ids == [1112, 1113]
        await pilot.press("y")
        await settle(pilot)
        assert isinstance(app.screen, MembersScreen)
        assert _members(app)[1119].permitted_ids is None
        assert "Member updated" in _status(app)
        highlighted = _screen(app).highlighted
        assert highlighted is not None and highlighted.id == 1119 and not highlighted.restricted


async def test_a_refused_change_keeps_the_form_and_says_why(make_app: MakeApp) -> None:
    app = _app(make_app)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("e")  # Sam, the last unrestricted admin
        await settle(pilot)
        form = app.screen
        assert isinstance(form, MemberEditForm)
        form.submit()  # nothing changed: said at the form, nothing sent
        await settle(pilot)
        assert form.is_current and "Nothing changed" in str(
            form.query_one("#form-error", Label).content
        )
        form.query_one("#form-role", Select).value = "member"
        form.submit()
        await settle(pilot)
        assert isinstance(app.screen, ReviewModal) and "- admin" in str(app.screen.diff)
        await pilot.press("y")
        await settle(pilot)
        assert form.is_current
        error = str(form.query_one("#form-error", Label).content)
        assert "409" in error and "last unrestricted admin" in error
        assert not form.query_one("#form-submit", Button).disabled
        assert _members(app)[1117].role == "admin"


async def test_remove_asks_first_then_removes(make_app: MakeApp) -> None:
    app = _app(make_app)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await _highlight(pilot, 1119)
        await pilot.press("d")
        await settle(pilot)
        modal = app.screen
        assert isinstance(modal, ConfirmModal)
        assert "dana.whitfield@example.com" in modal.body_text
        assert "only 2 accounts" in modal.body_text
        assert app.focused is modal.query_one("#cancel", Button)  # default is cancel
        await pilot.press("escape")
        await settle(pilot)
        assert _sent(app, "DELETE") == 0
        await pilot.press("d")
        await settle(pilot)
        await pilot.press("y")  # y goes ahead, as the confirm button does
        await settle(pilot)
        assert 1119 not in _members(app)
        assert [m.id for m in _screen(app).members] == [1117]
        [entry] = app.journal.read()
        assert entry.method == "DELETE" and entry.path.endswith(PATH)


async def test_a_restricted_member_reads_but_may_not_invite(make_app: MakeApp) -> None:
    app = _app(make_app, token="demo-member", account=1112)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert [m.id for m in _screen(app).members] == [1117, 1119]
        await pilot.press("a")
        await settle(pilot)
        form = app.screen
        assert isinstance(form, MemberInviteForm)
        form.query_one("#form-email", Input).value = "x@acme.test"
        form.submit()
        await settle(pilot)
        error = str(form.query_one("#form-error", Label).content)
        assert "403" in error and "restricted to accounts" in error
