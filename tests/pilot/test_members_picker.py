"""Members' accounts picked from the tree: the picker offers the organization's agent
accounts with checkboxes (the member's own checked), fills the field; a typed id that is
not one of them is refused at the field and nothing is sent."""

from __future__ import annotations

from typing import Any

from textual.widgets import Button, Input, SelectionList

from tests.helpers import MakeApp, settle, shown, sim_of
from vagent_tui.ui.screens.members import MembersScreen
from vagent_tui.ui.widgets.account_picker import AccountPickerModal
from vagent_tui.ui.widgets.form import FormField
from vagent_tui.ui.widgets.member_forms import MemberEditForm, MemberInviteForm

ORG = 1110


def _posts(app: Any) -> list[Any]:
    return [r for r in sim_of(app).requests if r.path == "/api/v2/member" and r.method != "GET"]


async def test_invite_picks_accounts_from_the_tree(make_app: MakeApp) -> None:
    app = make_app("members", token="demo-org", account=ORG)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("a")
        await settle(pilot)
        form = app.screen
        assert isinstance(form, MemberInviteForm)
        assert not form.query_one("#form-pick-accounts", Button).disabled
        await pilot.click("#form-pick-accounts")
        await settle(pilot)
        picker = app.screen
        assert isinstance(picker, AccountPickerModal)
        listed = picker.query_one(SelectionList)
        assert [c.id for c in picker.choices.accounts] == [1111, 1112, 1113, 1118]
        assert listed.selected == []
        await pilot.press("down", "space", "down", "space")
        await pilot.click("#picker-keep")
        await settle(pilot)
        assert app.screen is form and isinstance(form, MemberInviteForm)
        assert form.query_one("#form-permitted-account-ids", Input).value == "1112, 1113"
        form.query_one("#form-email", Input).value = "desk@acme.test"
        form.submit()
        await settle(pilot)
        shown(app, MembersScreen)
        [sent] = _posts(app)
        assert sent.body["permittedAccountIds"] == [1112, 1113]


async def test_a_typed_id_not_below_the_organization_is_refused_at_its_field(
    make_app: MakeApp,
) -> None:
    app = make_app("members", token="demo-org", account=ORG)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("a")
        await settle(pilot)
        form = app.screen
        assert isinstance(form, MemberInviteForm)
        form.query_one("#form-email", Input).value = "desk@acme.test"
        form.query_one("#form-permitted-account-ids", Input).value = "1112, 1121"
        form.submit()
        await settle(pilot)
        error = form.query_one("#field-permitted-account-ids", FormField).error
        assert error == "not an agent account of Acme Dental Group: 1121"
        assert app.screen is form and _posts(app) == []


async def test_change_opens_the_picker_with_the_members_accounts_checked(
    make_app: MakeApp,
) -> None:
    app = make_app("members", token="demo-org", account=ORG)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, MembersScreen)
        screen.table.move_cursor(row=[m.id for m in screen.members].index(1119))
        await pilot.press("e")
        await settle(pilot)
        form = app.screen
        assert isinstance(form, MemberEditForm)
        await pilot.click("#form-pick-accounts")
        await settle(pilot)
        picker = app.screen
        assert isinstance(picker, AccountPickerModal)
        assert sorted(picker.query_one(SelectionList).selected) == [1112, 1113]
        await pilot.press("escape")  # esc keeps the field as it was
        await settle(pilot)
        assert form.query_one("#form-permitted-account-ids", Input).value == "1112, 1113"
