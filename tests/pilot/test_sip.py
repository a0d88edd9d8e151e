"""SIP screen: the whitelist (list, add validated, remove confirmed, server errors), an
outbound route added and removed, the agent registered with a password seen nowhere."""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Button, Input, Label, Static

from tests.helpers import MakeApp, fail_once, settle, shown, sim_of
from vagent_tui import crash
from vagent_tui.api.errors import ApiError
from vagent_tui.ui.dialogs import ConfirmModal
from vagent_tui.ui.screens.base import BaseScreen
from vagent_tui.ui.screens.sip import SipScreen
from vagent_tui.ui.widgets.entry_forms import SipEntryForm
from vagent_tui.ui.widgets.form import FormField
from vagent_tui.ui.widgets.record_table import RecordTable
from vagent_tui.ui.widgets.sip_forms import SipRegistrationForm, SipRouteForm

PATH = "/api/v2/sip/ipWhitelist"
OWNER = 1000  # demo-partner's own account


def _ips(app: Any, account: int = OWNER) -> list[str]:
    return [e["ip"] for e in sim_of(app).sip[account]]


def _status(app: Any) -> str:
    return str(shown(app, BaseScreen).status.content)


async def _open_form(pilot: Pilot[None]) -> SipEntryForm:
    await pilot.press("a")
    await settle(pilot)
    form = pilot.app.screen
    assert isinstance(form, SipEntryForm)
    return form


async def _submit(pilot: Pilot[None], form: Any, via: str = "#form-ip") -> None:
    """Enter on a form widget (no mouse: a click could land before a re-layout)."""
    form.query_one(via).focus()
    await pilot.pause()
    await pilot.press("enter")


async def _fill(pilot: Pilot[None], form: SipEntryForm, ip: str, label: str = "") -> None:
    form.query_one("#form-ip", Input).value = ip
    form.query_one("#form-label", Input).value = label
    await pilot.pause()


def _path_count(app: Any, method: str) -> int:
    return sum(1 for r in sim_of(app).requests if r.method == method and r.path.endswith(PATH))


async def test_lists_entries_of_the_acting_account(make_app: MakeApp) -> None:
    app = make_app("sip")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, SipScreen)
        assert [e.ip for e in screen.entries] == _ips(app)
        assert screen.table.row_count == len(_ips(app))
        assert "whitelisted addresses" in _status(app)


async def test_add_valid_entry_refreshes_and_highlights(make_app: MakeApp) -> None:
    app = make_app("sip")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        form = await _open_form(pilot)
        await _fill(pilot, form, "2001:DB8::42", "Lab trunk")
        await pilot.press("enter")
        await settle(pilot)
        screen = shown(app, SipScreen)
        assert screen.__class__.__name__ == "SipScreen"
        assert "2001:db8::42" in _ips(app)  # normalised before sending
        entry = next(e for e in sim_of(app).sip[OWNER] if e["ip"] == "2001:db8::42")
        assert entry["label"] == "Lab trunk"
        assert screen.highlighted is not None and screen.highlighted.ip == "2001:db8::42"
        assert "created" in _status(app)


async def test_duplicate_shows_server_message_and_keeps_input(make_app: MakeApp) -> None:
    app = make_app("sip")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        existing = _ips(app)[0]
        form = await _open_form(pilot)
        await _fill(pilot, form, existing, "again")
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen is form  # still open
        error = str(form.query_one("#form-error", Label).content)
        assert "409" in error and "IP entry already exists" in error
        assert form.query_one("#form-ip", Input).value == existing
        assert form.query_one("#form-label", Input).value == "again"
        assert not form.query_one("#form-submit", Button).disabled
        assert _ips(app).count(existing) == 1


async def test_server_error_keeps_input_then_retry_succeeds(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app("sip")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        fail_once(monkeypatch, app.connection.api, "add_sip_entry", ApiError(500, "boom"))
        form = await _open_form(pilot)
        await _fill(pilot, form, "192.0.2.77", "Retry me")
        await pilot.press("enter")
        await settle(pilot)
        assert "HTTP 500: boom" in str(form.query_one("#form-error", Label).content)
        assert form.query_one("#form-ip", Input).value == "192.0.2.77"
        assert "192.0.2.77" not in _ips(app)
        await _submit(pilot, form, "#form-submit")
        await settle(pilot)
        assert app.screen is not form
        assert "192.0.2.77" in _ips(app)


async def test_escape_cancels_the_form(make_app: MakeApp) -> None:
    app = make_app("sip")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        before = len(sim_of(app).requests)
        form = await _open_form(pilot)
        await _fill(pilot, form, "192.0.2.5")
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, SipEntryForm)
        assert len(sim_of(app).requests) == before


async def test_remove_after_confirmation(make_app: MakeApp) -> None:
    app = make_app("sip")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        first = _ips(app)[0]
        await pilot.press("d")
        await settle(pilot)
        modal = app.screen
        assert isinstance(modal, ConfirmModal)
        assert first in modal.body_text and "Office PBX" in modal.body_text
        assert app.focused is modal.query_one("#cancel", Button)  # default is cancel
        await pilot.click("#confirm")
        await settle(pilot)
        assert first not in _ips(app)
        assert first not in [e.ip for e in shown(app, SipScreen).entries]
        assert "deleted" in _status(app)


async def test_follows_target_change_and_shows_list_errors(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app("sip")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.select_target(1111)
        await settle(pilot)
        assert [e.ip for e in shown(app, SipScreen).entries] == _ips(app, 1111)
        fail_once(monkeypatch, app.connection.api, "list_sip_whitelist", ApiError(500, "boom"))
        await pilot.press("r")
        await settle(pilot)
        assert "HTTP 500: boom" in _status(app) and "press r to retry" in _status(app)
        await pilot.press("r")
        await settle(pilot)
        assert "whitelisted addresses" in _status(app)


async def test_added_column_shows_a_date_for_a_number_or_text(make_app: MakeApp) -> None:
    """api-facts: ``timestamp`` is a number of epoch seconds; text and a fraction read too."""
    app = make_app("sip")
    entries = sim_of(app).sip[OWNER]
    assert isinstance(entries[1]["timestamp"], int)  # as seeded: a number
    entries[0]["timestamp"] = 1678829072.25
    entries.append({"userId": OWNER, "label": "", "timestamp": "1678915472", "ip": "192.0.2.5"})
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        table = app.screen.query_one(RecordTable)
        cells = [str(c) for i in range(table.row_count) for c in table.get_row_at(i)]
        assert "2023-03-14 21:24 UTC" in cells and "2023-03-15 21:24 UTC" in cells
        assert "2025-11-08 00:00 UTC" in cells


# ---------------------------------------------------------------------- the write path


async def test_remove_confirmed_after_the_target_changed_is_not_sent(make_app: Any) -> None:
    app = make_app("sip")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        ips = _ips(app)
        await pilot.press("d")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmModal)
        app.select_target(1111)  # another account while the question is open
        await settle(pilot)
        await pilot.click("#confirm")
        await settle(pilot)
        assert _path_count(app, "DELETE") == 0
        assert _ips(app) == ips and _ips(app, 1111)
        assert "target account changed meanwhile; nothing was sent" in _status(app)


async def test_remove_is_journaled(make_app: Any) -> None:
    app = make_app("sip")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        first = _ips(app)[0]
        await pilot.press("d")
        await settle(pilot)
        await pilot.click("#confirm")
        await settle(pilot)
        [entry] = app.journal.read()
        assert (entry.method, entry.status, entry.target) == ("DELETE", 200, None)
        assert entry.path.endswith(PATH) and first in str(entry.body)
        assert "⚠" not in _status(app)  # the journal was written


# ---------------------------------------------------------------------- outbound routes

ROUTES = "/api/v2/sip/outboundRoutes"
PASSWORD = "Pbx-Secret-7c1e"
EVEN_AGENT = 1112  # a voice agent without a registration (the seed's odd ones have one)


def _routes(app: Any, account: int = OWNER) -> list[str]:
    return list(sim_of(app).sip_trunk[account]["routes"])


def _form_error(form: Any) -> str:
    return str(form.query_one("#form-error", Label).content)


async def test_a_route_is_checked_at_its_field_added_and_removed_saying_calls_stop(
    make_app: MakeApp,
) -> None:
    app = make_app("sip")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("t")
        await settle(pilot)
        screen = shown(app, SipScreen)
        assert screen.route_pane.routes == _routes(app)
        await pilot.press("a")
        await settle(pilot)
        form = app.screen
        assert isinstance(form, SipRouteForm)
        before = len(sim_of(app).requests)
        await pilot.press(*"pbx.example.com;transport=tls", "enter")
        await settle(pilot)
        field = form.query_one("#field-route", FormField)
        assert "tcp or udp" in field.error and len(sim_of(app).requests) == before
        form.query_one("#form-route", Input).value = "pbx.example.com:5070;transport=tcp"
        await _submit(pilot, form, "#form-route")
        await settle(pilot)
        assert app.screen is screen
        assert _routes(app)[-1] == "pbx.example.com:5070;transport=tcp"
        assert screen.route_pane.highlighted == "pbx.example.com:5070;transport=tcp"
        assert "Route added successfully" in _status(app)

        await pilot.press("d")
        await settle(pilot)
        modal = app.screen
        assert isinstance(modal, ConfirmModal)
        assert "pbx.example.com:5070;transport=tcp" in modal.body_text
        assert "stop" in modal.body_text
        await pilot.click("#confirm")
        await settle(pilot)
        assert "pbx.example.com:5070;transport=tcp" not in _routes(app)
        [delete] = [r for r in sim_of(app).requests if r.method == "DELETE"]
        assert delete.path == ROUTES and delete.body == {
            "route": "pbx.example.com:5070;transport=tcp"
        }
        assert "Route removed successfully" in _status(app)


# ---------------------------------------------------------------------- registration


async def test_the_agent_registered_with_a_password_that_appears_nowhere(
    make_app: MakeApp, tmp_path: Any
) -> None:
    app = make_app("sip", account=EVEN_AGENT)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("t", "t")
        await settle(pilot)
        screen = shown(app, SipScreen)
        assert screen.registration_pane.loaded and screen.registration_pane.registration is None
        await pilot.press("a")
        await settle(pilot)
        form = app.screen
        assert isinstance(form, SipRegistrationForm)
        long_aor = "x" * 300 + "@pbx.acme.example.com"
        form.query_one("#form-aor", Input).value = long_aor
        await form.check_aor().wait()
        said = str(form.query_one("#aor-check", Static).content)
        assert form.checked is not None and "x" * 50 in said
        assert len(said) < 160 and "characters)" in said  # cut: a line or two, not 300
        held = sim_of(app).sip_trunk[1111]["registration"]["aor"]
        form.query_one("#form-aor", Input).value = held
        form.query_one("#form-password", Input).value = PASSWORD
        assert form.query_one("#form-password", Input).password  # typed masked
        await form.check_aor().wait()
        assert form.checked is not None and form.checked[1] is False  # asked as typed
        assert "taken" in str(form.query_one("#aor-check", Static).content)
        await _submit(pilot, form, "#form-aor")
        await settle(pilot)
        assert app.screen is form  # refused: 409, the AOR named
        assert "409" in _form_error(form) and held in _form_error(form)
        assert "held by another account" in _form_error(form)

        form.query_one("#form-aor", Input).value = "2112@pbx.acme.example.com"
        await _submit(pilot, form, "#form-aor")
        await settle(pilot)
        assert shown(app, SipScreen) is screen
        assert "created (201)" in _status(app)
        assert screen.registration_pane.registration is not None
        assert screen.registration_pane.registration.aor == "2112@pbx.acme.example.com"

        await pilot.press("a")  # change it: the form starts from what is held
        await settle(pilot)
        again = app.screen
        assert isinstance(again, SipRegistrationForm)
        assert again.query_one("#form-aor", Input).value == "2112@pbx.acme.example.com"
        assert again.query_one("#form-password", Input).value == ""  # never read back
        again.query_one("#form-password", Input).value = PASSWORD
        await _submit(pilot, again, "#form-aor")
        await settle(pilot)
        assert "updated (200)" in _status(app)

        svg = app.export_screenshot()
        journal = app.journal.path.read_text()
        assert PASSWORD not in svg and PASSWORD not in journal
        assert '"password":"***"' in journal
        assert PASSWORD not in crash.redact(f"a crash report holding {PASSWORD}")

        await pilot.press("d")
        await settle(pilot)
        modal = app.screen
        assert isinstance(modal, ConfirmModal)
        assert "2112@pbx.acme.example.com" in modal.body_text and "stop" in modal.body_text
        await pilot.click("#confirm")
        await settle(pilot)
        assert sim_of(app).sip_trunk[EVEN_AGENT]["registration"] is None
        assert "Registration deleted successfully" in _status(app)
        assert PASSWORD not in repr(screen.__dict__) and PASSWORD not in repr(app.journal.read())
