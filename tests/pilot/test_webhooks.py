"""Webhooks screen: destinations (add, remove) and relay configurations (delete outcomes)."""

from __future__ import annotations

import io
from typing import Any

import pytest
from rich.console import Console
from textual.pilot import Pilot
from textual.widgets import Button, Input, Label, Select, Static, TextArea

from tests.helpers import MakeApp, fail_once, known, settle, shown, sim_of
from vagent_tui.api.errors import ApiError
from vagent_tui.ui.dialogs import ConfirmModal
from vagent_tui.ui.screens.base import BaseScreen
from vagent_tui.ui.screens.webhooks import WebhooksScreen
from vagent_tui.ui.widgets.entry_forms import WebhookForm
from vagent_tui.ui.widgets.form import FormField
from vagent_tui.ui.widgets.relay_form import RelayForm
from vagent_tui.ui.widgets.relays import EXPLAIN

OWNER = 1000  # demo-partner: premium
NON_PREMIUM = 1200


def _urls(app: Any, account: int = OWNER) -> list[str]:
    return [h["url"] for h in sim_of(app).webhooks[account]]


def _status(app: Any) -> str:
    return str(shown(app, BaseScreen).status.content)


def _count(app: Any, method: str, path_end: str) -> int:
    return sum(1 for r in sim_of(app).requests if r.method == method and r.path.endswith(path_end))


async def _open_form(pilot: Pilot[None]) -> WebhookForm:
    await pilot.press("a")
    await settle(pilot)
    form = pilot.app.screen
    assert isinstance(form, WebhookForm)
    return form


async def _submit(pilot: Pilot[None], form: Any, via: str = "#form-url") -> None:
    """Enter on a form widget (no mouse: a click could land before a re-layout)."""
    form.query_one(via).focus()
    await pilot.pause()
    await pilot.press("enter")


async def _fill(
    pilot: Pilot[None], form: WebhookForm, url: str, kind: str | None, label: str = ""
) -> None:
    form.query_one("#form-url", Input).value = url
    select = form.query_one("#form-type", Select)
    if kind is None:
        select.clear()
    else:
        select.value = kind
    form.query_one("#form-label", Input).value = label
    await pilot.pause()


async def _relays_tab(pilot: Pilot[None]) -> WebhooksScreen:
    await pilot.press("t")
    await settle(pilot)
    screen = shown(pilot.app, WebhooksScreen)
    assert screen.tabs.active == "tab-relays"
    assert pilot.app.focused is screen.relay_table
    return screen


async def _highlight_relay(pilot: Pilot[None], name: str) -> None:
    screen = shown(pilot.app, WebhooksScreen)
    screen.relay_table.move_cursor(row=[r.name for r in screen.relays].index(name))
    await pilot.pause()
    relay = screen.highlighted_relay
    assert relay is not None and relay.name == name


async def _delete_relay(pilot: Pilot[None], name: str) -> None:
    await _highlight_relay(pilot, name)
    await pilot.press("d")
    await settle(pilot)
    modal = pilot.app.screen
    assert isinstance(modal, ConfirmModal) and name in modal.body_text
    await pilot.click("#confirm")
    await settle(pilot)


# ---------------------------------------------------------------------- destinations


async def test_lists_destinations_and_relays(make_app: MakeApp) -> None:
    app = make_app("webhooks")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, WebhooksScreen)
        assert [h.url for h in screen.hooks] == _urls(app)
        configured = {r.name for r in screen.relays if r.configured}
        assert configured == set(sim_of(app).relays[OWNER])
        assert {"stripe", "hubspot"} <= {r.name for r in screen.relays if not r.configured}
        assert "2 destinations" in _status(app) and "3 of 6 relay types" in _status(app)


async def test_add_destination_refreshes_and_highlights(make_app: MakeApp) -> None:
    app = make_app("webhooks")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        form = await _open_form(pilot)
        await _fill(pilot, form, "https://hooks.example.com/agent", "agent", "Agent events")
        await _submit(pilot, form)
        await settle(pilot)
        assert "https://hooks.example.com/agent" in _urls(app)
        stored = sim_of(app).webhooks[OWNER][-1]
        assert (stored["type"], stored["label"]) == ("agent", "Agent events")
        screen = shown(app, WebhooksScreen)
        assert known(screen.highlighted_hook).url == "https://hooks.example.com/agent"
        assert "created" in _status(app)


async def test_duplicate_destination_shows_409_and_keeps_input(make_app: MakeApp) -> None:
    app = make_app("webhooks")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        existing = _urls(app)[0]
        form = await _open_form(pilot)
        await _fill(pilot, form, existing, "incoming", "dup")
        await pilot.press("enter")  # focus is on the URL input
        await settle(pilot)
        assert app.screen is form
        assert "HTTP 409: Webhook already exists" in str(
            form.query_one("#form-error", Label).content
        )
        assert form.query_one("#form-url", Input).value == existing
        assert form.query_one("#form-type", Select).value == "incoming"
        assert form.query_one("#form-label", Input).value == "dup"
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, WebhookForm)
        assert _urls(app).count(existing) == 1


async def test_remove_destination_confirmed_and_cancelled(make_app: MakeApp) -> None:
    app = make_app("webhooks")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        first = _urls(app)[0]
        await pilot.press("d")
        await settle(pilot)
        modal = app.screen
        assert isinstance(modal, ConfirmModal) and first in modal.body_text
        assert app.focused is modal.query_one("#cancel", Button)
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("d")
        await settle(pilot)
        await pilot.press("enter")  # the default button: cancel
        await settle(pilot)
        assert _count(app, "DELETE", "/webhooks") == 0 and first in _urls(app)
        await pilot.press("d")
        await settle(pilot)
        await pilot.click("#confirm")
        await settle(pilot)
        assert first not in _urls(app)
        assert first not in [h.url for h in shown(app, WebhooksScreen).hooks]
        assert "deleted" in _status(app)


# ---------------------------------------------------------------------- relays


async def test_relay_detail_follows_highlight(make_app: MakeApp) -> None:
    app = make_app("webhooks")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = await _relays_tab(pilot)
        await _highlight_relay(pilot, "chargebee")
        detail = str(screen.query_one("#relay-detail-text", Static).render())
        config = sim_of(app).relays[OWNER]["chargebee"]
        chargebee = known(known(screen.highlighted_relay).config)
        assert chargebee.url == config["url"]
        assert chargebee.timeout == config["timeout"]
        assert detail  # rendered
        await _highlight_relay(pilot, "stripe")
        assert known(screen.highlighted_relay).config is None


async def test_relay_delete_200(make_app: MakeApp) -> None:
    app = make_app("webhooks")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = await _relays_tab(pilot)
        await _delete_relay(pilot, "twilioSMS")
        assert "twilioSMS" not in sim_of(app).relays[OWNER]
        assert screen.last_outcome == (200, "Webhook Relay type 'twilioSMS' removed successfully.")
        assert "removed successfully" in _status(app) and EXPLAIN[200] in _status(app)
        row = next(r for r in screen.relays if r.name == "twilioSMS")
        assert not row.configured  # the list refreshed


async def test_relay_delete_cancelled_sends_nothing(make_app: MakeApp) -> None:
    app = make_app("webhooks")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await _relays_tab(pilot)
        await _highlight_relay(pilot, "chargebee")
        await pilot.press("d")
        await settle(pilot)
        await pilot.press("escape")
        await settle(pilot)
        assert _count(app, "DELETE", "/webhookRelay/chargebee") == 0
        assert "chargebee" in sim_of(app).relays[OWNER]


async def test_relay_delete_unconfigured_is_not_offered(make_app: MakeApp) -> None:
    app = make_app("webhooks")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await _relays_tab(pilot)
        await _highlight_relay(pilot, "stripe")
        await pilot.press("d")
        await settle(pilot)
        assert not isinstance(app.screen, ConfirmModal)
        assert "not configured" in _status(app)
        assert _count(app, "DELETE", "/webhookRelay/stripe") == 0


async def test_relay_delete_404_after_removal_behind_the_back(make_app: MakeApp) -> None:
    app = make_app("webhooks")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = await _relays_tab(pilot)
        del sim_of(app).relays[OWNER]["chargebee"]
        await _delete_relay(pilot, "chargebee")
        assert known(screen.last_outcome)[0] == 404
        assert "HTTP 404: Webhook Relay type 'chargebee' was not configured." in _status(app)
        assert EXPLAIN[404] in _status(app)
        assert not next(r for r in screen.relays if r.name == "chargebee").configured


async def test_relay_delete_500_legacy_crm(make_app: MakeApp) -> None:
    app = make_app("webhooks")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = await _relays_tab(pilot)
        await _delete_relay(pilot, "legacyCrm")
        assert screen.last_outcome == (500, "Internal error")
        assert "HTTP 500: Internal error" in _status(app) and EXPLAIN[500] in _status(app)
        assert "press d to retry" in _status(app)
        assert "legacyCrm" in sim_of(app).relays[OWNER]


async def test_relay_delete_403_when_premium_lost(make_app: MakeApp) -> None:
    app = make_app("webhooks")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = await _relays_tab(pilot)
        sim_of(app).accounts[OWNER].vida_premium = False
        await _delete_relay(pilot, "chargebee")
        assert known(screen.last_outcome)[0] == 403
        status = _status(app)
        assert "Webhook Relay is a premium feature" in status and EXPLAIN[403] in status
        assert screen.premium is False  # the relay part was refreshed: notice shown
        notice = str(screen.query_one("#relay-notice", Static).render())
        assert "Relay configurations refused: Webhook Relay is a premium feature" in notice


@pytest.mark.parametrize(
    ("status", "message"),
    [(400, "type path parameter is required and must be a string"), (401, "Unauthorized Request")],
)
async def test_relay_delete_other_outcomes(make_app: MakeApp, status: int, message: str) -> None:
    app = make_app("webhooks")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = await _relays_tab(pilot)

        async def refuse(*args: Any, **kwargs: Any) -> Any:
            raise ApiError(status, message)

        app.connection.api.delete_relay = refuse  # type: ignore[method-assign]
        await _delete_relay(pilot, "chargebee")
        assert screen.last_outcome == (status, message)
        assert f"HTTP {status}: {message}" in _status(app) and EXPLAIN[status] in _status(app)


async def test_non_premium_target_relays_403_destinations_work(make_app: MakeApp) -> None:
    app = make_app("webhooks", account=NON_PREMIUM)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = shown(app, WebhooksScreen)
        assert [h.url for h in screen.hooks] == _urls(app, NON_PREMIUM)
        assert screen.premium is False
        assert "relays: refused (HTTP 403)" in _status(app)
        notice = str(screen.query_one("#relay-notice", Static).render())
        assert "Webhook Relay is a premium feature" in notice
        assert len(screen.relays) == 6  # the types list is open to all
        await _relays_tab(pilot)
        await pilot.press("d")
        await settle(pilot)
        assert not isinstance(app.screen, ConfirmModal)
        assert sum(1 for r in sim_of(app).requests if r.method == "DELETE") == 0
        await pilot.press("t")
        await settle(pilot)
        form = await _open_form(pilot)
        await _fill(pilot, form, "https://hooks.example.com/np", "contact")
        await _submit(pilot, form)
        await settle(pilot)
        assert "https://hooks.example.com/np" in _urls(app, NON_PREMIUM)


async def test_follows_target_and_list_error_retry(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app("webhooks")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.select_target(1111)
        await settle(pilot)
        screen = shown(app, WebhooksScreen)
        assert [h.url for h in screen.hooks] == _urls(app, 1111)
        fail_once(monkeypatch, app.connection.api, "list_webhooks", ApiError(500, "boom"))
        await pilot.press("r")
        await settle(pilot)
        assert "Destinations: HTTP 500: boom" in _status(app)
        assert screen.relays  # the relay part still loaded
        await pilot.press("r")
        await settle(pilot)
        assert "destinations" in _status(app) and "boom" not in _status(app)


# ---------------------------------------------------------------------- relay form


def _detail(screen: Any) -> str:
    console = Console(width=200, file=io.StringIO(), record=True)
    console.print(screen.query_one("#relay-detail-text", Static).content)
    return console.export_text()


async def _open_relay_form(pilot: Pilot[None], name: str) -> RelayForm:
    await _highlight_relay(pilot, name)
    await pilot.press("a")
    await settle(pilot)
    form = pilot.app.screen
    assert isinstance(form, RelayForm)
    return form


async def test_relay_headers_shown_and_edited_as_published(make_app: MakeApp) -> None:
    """The headers are read from, and sent as, an array of single-key objects."""
    app = make_app("webhooks")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = await _relays_tab(pilot)
        await _highlight_relay(pilot, "twilioSMS")
        assert sim_of(app).relays[OWNER]["twilioSMS"]["headers"] == [{"X-Relay-Source": "vida"}]
        assert "X-Relay-Source: vida" in _detail(screen)
        form = await _open_relay_form(pilot, "twilioSMS")
        config = sim_of(app).relays[OWNER]["twilioSMS"]
        assert form.query_one("#form-url", Input).value == config["url"]
        assert form.query_one("#form-headers", TextArea).text == "X-Relay-Source: vida"
        assert form.query_one("#form-success-status-codes", Input).value == "200, 201, 202"
        form.query_one(
            "#form-headers", TextArea
        ).text = "Authorization: Bearer xyz\nX-Tag: a\nX-Tag: b"
        form.query_one("#form-timeout", Input).value = "7000"
        form.query_one("#form-success-status-codes", Input).value = "200 202"
        await _submit(pilot, form)
        await settle(pilot)
        assert not isinstance(app.screen, RelayForm)
        stored = sim_of(app).relays[OWNER]["twilioSMS"]
        assert stored["headers"] == [
            {"Authorization": "Bearer xyz"},
            {"X-Tag": "a"},
            {"X-Tag": "b"},
        ]
        assert (stored["timeout"], stored["successStatusCodes"]) == (7000, [200, 202])
        assert "Webhook Relay for type 'twilioSMS' configured successfully." in _status(app)
        assert known(screen.highlighted_relay).name == "twilioSMS"
        detail = _detail(screen)
        assert "Authorization: Bearer xyz" in detail and "X-Tag: b" in detail


async def test_relay_form_configures_a_new_type(make_app: MakeApp) -> None:
    app = make_app("webhooks")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = await _relays_tab(pilot)
        form = await _open_relay_form(pilot, "stripe")
        assert form.query_one("#form-url", Input).value == ""
        form.query_one("#form-url", Input).value = "https://relay.example.com/stripe"
        await _submit(pilot, form)
        await settle(pilot)
        assert sim_of(app).relays[OWNER]["stripe"]["headers"] == []
        assert next(r for r in screen.relays if r.name == "stripe").configured


async def test_relay_form_refuses_at_the_field_and_shows_the_servers_404(make_app: MakeApp) -> None:
    app = make_app("webhooks")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await _relays_tab(pilot)
        form = await _open_relay_form(pilot, "stripe")
        form.query_one("#form-url", Input).value = "https://relay.example.com/stripe"
        form.query_one("#form-headers", TextArea).text = "X-A: 1\nno colon"
        await _submit(pilot, form)
        await settle(pilot)
        assert "line 2" in form.query_one("#field-headers", FormField).error
        assert _count(app, "POST", "/webhookRelay/stripe") == 0
        # A type the platform stopped knowing: its 404 message, in the form, kept open.
        sim = sim_of(app)
        sim.relay_types[:] = [t for t in sim.relay_types if t["name"] != "stripe"]
        form.query_one("#form-headers", TextArea).text = "X-A: 1"
        await _submit(pilot, form)
        await settle(pilot)
        assert isinstance(app.screen, RelayForm)
        error = str(form.query_one("#form-error", Label).render())
        assert "HTTP 404: Webhook Relay type 'stripe' is not supported." in error


async def test_relay_form_not_offered_without_premium(make_app: MakeApp) -> None:
    app = make_app("webhooks", account=NON_PREMIUM)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await _relays_tab(pilot)
        await pilot.press("a")
        await settle(pilot)
        assert not isinstance(app.screen, RelayForm)
        assert "refused this account's relay configurations" in _status(app)


async def test_destination_added_date_from_a_number(make_app: MakeApp) -> None:
    app = make_app("webhooks")
    sim_of(app).webhooks[OWNER][0]["timestamp"] = 1678829072.5
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        table = shown(app, WebhooksScreen).hooks_table
        cells = [str(c) for i in range(table.row_count) for c in table.get_row_at(i)]
        assert "2023-03-14 21:24 UTC" in cells
        assert "2025-11-08 00:00 UTC" in cells
