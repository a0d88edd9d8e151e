"""Members' one-time login token (L): asked first, with the side effect said (a member
added or not); sent once through the write path; the token shown once, never in the
status line or the journal; an unknown outcome read back, not resent; read-only: refused."""

from __future__ import annotations

from typing import Any

from textual.widgets import Input, TextArea

from tests.helpers import MakeApp, settle, shown, sim_of
from vagent_tui.ui.dialogs import ConfirmModal
from vagent_tui.ui.screens.members import MembersScreen
from vagent_tui.ui.widgets.member_forms import OneTimeLoginForm
from vagent_tui.ui.widgets.new_token import NewTokenModal

PATH = "/api/v2/auth/account/oneTimeAuthToken"
ORG = 1110


def _sent(app: Any) -> list[Any]:
    return [r for r in sim_of(app).requests if r.path == PATH]


def _status(app: Any) -> str:
    return str(shown(app, MembersScreen).status.content)


async def _form(pilot: Any, member_id: int | None = None) -> OneTimeLoginForm:
    screen = shown(pilot.app, MembersScreen)
    if member_id is not None:
        screen.table.move_cursor(row=[m.id for m in screen.members].index(member_id))
        await pilot.pause()
    await pilot.press("L")
    await settle(pilot)
    form = pilot.app.screen
    assert isinstance(form, OneTimeLoginForm)
    return form


async def test_a_members_token_is_asked_first_shown_once_and_never_journaled(
    make_app: MakeApp,
) -> None:
    app = make_app("members", token="demo-reseller", account=ORG)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        form = await _form(pilot, 1119)
        assert form.query_one("#form-email", Input).value == "dana.whitfield@example.com"
        form.submit()
        await settle(pilot)
        question = app.screen
        assert isinstance(question, ConfirmModal)
        assert "nobody is added" in question.body_text and "sent once" in question.body_text
        assert _sent(app) == []  # nothing before the answer
        await pilot.click("#confirm")
        await settle(pilot)
        shown_token = app.screen
        assert isinstance(shown_token, NewTokenModal)
        token = shown_token.query_one("#new-token-value", TextArea).text
        assert token.startswith("ott_")
        assert len(_sent(app)) == 1
        await pilot.press("escape")
        await settle(pilot)
        status = _status(app)
        assert "One-time login token issued for dana.whitfield@example.com" in status
        assert token not in status
        [entry] = app.journal.read()
        assert entry.method == "GET" and entry.path.endswith(PATH)
        assert entry.body == {"email": "dana.whitfield@example.com"}
        assert token not in app.journal.path.read_text(encoding="utf-8")


async def test_an_unknown_email_with_an_external_id_is_said_to_be_added(
    make_app: MakeApp,
) -> None:
    app = make_app("members", token="demo-reseller", account=ORG)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        sim_of(app).accounts[ORG].external_account_id = "crm-acme"
        form = await _form(pilot)
        form.query_one("#form-email", Input).value = "owner@acme.test"
        form.query_one("#form-external-account-id", Input).value = "crm-acme"
        form.submit()
        await settle(pilot)
        question = app.screen
        assert isinstance(question, ConfirmModal)
        assert "ADDS owner@acme.test as a member" in question.body_text
        await pilot.click("#confirm")
        await settle(pilot)
        assert isinstance(app.screen, NewTokenModal)
        await pilot.press("escape")
        await settle(pilot)
        assert "the platform added owner@acme.test as a member" in _status(app)
        assert "owner@acme.test" in [m.email for m in shown(app, MembersScreen).members]


async def test_a_lost_reply_is_read_back_and_not_sent_again(make_app: MakeApp) -> None:
    app = make_app("members", token="demo-reseller", account=ORG)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        sim_of(app).faults.set("truncated", path_contains="oneTimeAuthToken", methods={"GET"})
        form = await _form(pilot, 1119)
        form.submit()
        await settle(pilot)
        await pilot.click("#confirm")
        await settle(pilot)
        assert len(_sent(app)) == 1  # a GET, yet never asked again
        assert not isinstance(app.screen, NewTokenModal)
        error = str(form.query_one("#form-error").render())
        assert "dana.whitfield@example.com is a member of the organization now" in error, error


async def test_a_key_below_a_reseller_is_refused_with_the_platforms_message(
    make_app: MakeApp,
) -> None:
    app = make_app("members", token="demo-org", account=ORG)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        form = await _form(pilot, 1119)
        form.submit()
        await settle(pilot)
        await pilot.click("#confirm")
        await settle(pilot)
        assert app.screen is form
        error = str(form.query_one("#form-error").render())
        assert "403" in error and "Reseller/Partner account required" in error
