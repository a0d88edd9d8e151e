"""Pilot flows of the ADR export form: save, validation, port defaults, server errors."""

from __future__ import annotations

import html
import time
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, Select

from tests.helpers import MakeApp, settle, shown, sim_of
from vagent_tui import crash
from vagent_tui.api.errors import ApiError
from vagent_tui.ui.dialogs import ConfirmModal
from vagent_tui.ui.screens.billing import BillingScreen
from vagent_tui.ui.widgets.form import FormField

PATH = "/api/v2/billing/adrExportConfig"
SECRET = "s3cret-Pa55"


def posts(app: Any) -> int:
    return sim_of(app).count("POST", PATH)


def value(screen: BillingScreen, name: str) -> str:
    return screen.query_one(f"#billing-{name}", Input).value


def error(screen: BillingScreen, field_id: str) -> str:
    return screen.query_one(f"#field-{field_id}", FormField).error


def status_text(screen: Any) -> str:
    return str(screen.status.content)


def screen_text(app: Any) -> str:
    return html.unescape(app.export_screenshot()).replace("\xa0", " ")


def fill(screen: Any, **values: str) -> None:
    for name, text in values.items():
        screen.query_one(f"#billing-{name}", Input).value = text


async def answer_replace(pilot: Pilot[None]) -> None:
    """The question before the export is replaced (write-only: asked every time): yes."""
    if isinstance(pilot.app.screen, ConfirmModal):
        assert "replaces whatever is configured" in pilot.app.screen.body_text
        await pilot.press("y")
        await settle(pilot)


async def save(pilot: Pilot[None], key: str = "ctrl+s") -> None:
    await pilot.press(key)
    await settle(pilot)
    await answer_replace(pilot)


async def set_protocol(pilot: Pilot[None], screen: Any, protocol: str) -> None:
    screen.query_one("#billing-protocol", Select).value = protocol
    await pilot.pause()


async def test_valid_submission_is_saved(make_app: MakeApp) -> None:
    app = make_app("billing")
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settle(pilot)
        screen = shown(app, BillingScreen)
        assert type(screen).__name__ == "BillingScreen"
        text = screen_text(app)
        assert "the platform does not return the current settings" in text
        assert "02:00 UTC" in text and "ADR_<accountId>_YYYY_MM_DD_HHmmss.csv.gz" in text
        assert "partner, reseller or organization level" in text
        assert posts(app) == 0  # nothing to read: the screen sends nothing on its own
        fill(screen, host="files.example.com", username="adr", password=SECRET, path="/exp")
        await pilot.press("ctrl+s")  # asked first: esc only cancels, nothing sent
        await settle(pilot)
        assert isinstance(app.screen, ConfirmModal) and "/exp" in app.screen.body_text
        await pilot.press("escape")
        await settle(pilot)
        assert posts(app) == 0 and value(screen, "password") == SECRET
        await save(pilot)
        assert sim_of(app).adr[1000] == {
            "deliveryProtocol": "sftp",
            "rotationMinutes": "60",
            "host": "files.example.com",
            "port": 22,
            "username": "adr",
            "password": SECRET,
            "path": "/exp",
        }
        [request] = [r for r in sim_of(app).requests if r.path == PATH]
        assert request.body["rotationMinutes"] == "60"  # text, not a number
        assert "targetAccountId" not in request.query
        assert "ADR export configuration saved successfully" in status_text(screen)
        assert "sftp://adr@files.example.com:22 /exp" in screen_text(app)
        # The password is dropped after a success and shown nowhere.
        assert value(screen, "password") == ""
        assert value(screen, "host") == "files.example.com"
        for text in [
            screen_text(app),
            status_text(screen),
            *(n.message for n in app._notifications),
        ]:
            assert SECRET not in text


async def test_protocols_are_sent_lower_case_and_path_is_optional(make_app: MakeApp) -> None:
    app = make_app("billing")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, BillingScreen)
        await set_protocol(pilot, screen, "ftp")
        fill(screen, host="10.0.0.5", username="u", password=SECRET)
        await save(pilot, "ctrl+o")  # the second save key
        saved = sim_of(app).adr[1000]
        assert saved["deliveryProtocol"] == "ftp" and saved["port"] == 21
        [request] = [r for r in sim_of(app).requests if r.path == PATH]
        assert "path" not in request.body  # empty: the server uses the home folder
        assert "(home folder)" in screen_text(app)


async def test_port_follows_the_protocol_until_typed(make_app: MakeApp) -> None:
    app = make_app("billing")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, BillingScreen)
        assert value(screen, "port") == "22" and not screen.port_touched
        await set_protocol(pilot, screen, "ftps")
        assert value(screen, "port") == "990"
        await set_protocol(pilot, screen, "ftp")
        assert value(screen, "port") == "21"
        await set_protocol(pilot, screen, "sftp")
        assert value(screen, "port") == "22"
        # The user types a port: it no longer follows.
        screen.query_one("#billing-port", Input).focus()
        await pilot.press("ctrl+u", *"2202")
        assert screen.port_touched
        await set_protocol(pilot, screen, "ftps")
        assert value(screen, "port") == "2202"
        # Emptying the field hands it back: empty means the protocol's default.
        await pilot.press("ctrl+u")
        assert not screen.port_touched
        await set_protocol(pilot, screen, "ftp")
        assert value(screen, "port") == ""
        assert screen.query_one("#billing-port", Input).placeholder == "21"
        fill(screen, host="h.example", username="u", password=SECRET)
        await save(pilot)
        assert sim_of(app).adr[1000]["port"] == 21


async def test_each_invalid_field_is_refused_and_nothing_sent(make_app: MakeApp) -> None:
    app = make_app("billing")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, BillingScreen)
        # Everything empty but the defaults: host, username, password are required.
        await save(pilot)
        assert "host name or an IP address" in error(screen, "host")
        assert error(screen, "username") == "required"
        assert error(screen, "password") == "required"
        assert error(screen, "port") == "" and error(screen, "rotation-minutes") == ""
        assert screen.focused is screen.query_one("#billing-host", Input)
        assert "3 fields to fix: nothing was sent" in status_text(screen)
        cases = [
            ({"host": "bad host!"}, "host", "host name"),
            ({"host": "300.1.1.1"}, "host", "host name"),
            ({"port": "0"}, "port", "between 1 and 65535"),
            ({"port": "70000"}, "port", "between 1 and 65535"),
            ({"rotation": "0"}, "rotation-minutes", "whole number of minutes"),
            ({"rotation": "-5"}, "rotation-minutes", "1 or more"),
            ({"rotation": ""}, "rotation-minutes", "whole number of minutes"),
            ({"username": "   "}, "username", "required"),
        ]
        good = {"host": "files.example.com", "port": "22", "username": "adr", "rotation": "60"}
        for change, field_id, expected in cases:
            fill(screen, **{**good, "password": SECRET, **change})
            await pilot.press("ctrl+s")
            await settle(pilot)
            assert expected in error(screen, field_id), (change, error(screen, field_id))
            assert posts(app) == 0, change
            # What was typed is kept.
            name, text = next(iter(change.items()))
            assert value(screen, name) == text
        # Fixed: the errors go away and the request is sent.
        fill(screen, **good, password=SECRET)
        await save(pilot)
        assert posts(app) == 1
        assert all(not f.error for f in screen.query(FormField).results(FormField))


async def test_enter_moves_on_and_submits_on_the_last_field(make_app: MakeApp) -> None:
    app = make_app("billing")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = shown(app, BillingScreen)
        screen.query_one("#billing-host", Input).focus()
        await pilot.press(*"files.example.com", "enter")
        assert screen.focused is screen.query_one("#billing-username", Input)
        await pilot.press(*"adr", "enter", *SECRET, "enter", *"/adr", "enter")
        assert screen.focused is screen.query_one("#billing-rotation", Input)
        assert posts(app) == 0
        await pilot.press("enter")
        await settle(pilot)
        await answer_replace(pilot)
        assert posts(app) == 1
        assert sim_of(app).adr[1000]["path"] == "/adr"


async def test_server_error_keeps_every_field(make_app: MakeApp) -> None:
    app = make_app("billing")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, BillingScreen)
        typed = {
            "host": "files.example.com",
            "username": "adr",
            "password": SECRET,
            "path": "/x",
            "rotation": "1440",
        }
        fill(screen, **typed)
        faults = sim_of(app).faults
        faults.set("503", methods=frozenset({"POST"}), path_contains="adrExportConfig", remaining=1)
        await save(pilot)
        assert "HTTP 503: Service temporarily unavailable (simulated)" in status_text(screen)
        # a gateway's 503: the export may be saved; no blind retry is offered
        assert "may have been made" in status_text(screen)
        for name, text in typed.items():
            assert value(screen, name) == text
        assert 1000 not in sim_of(app).adr
        await save(pilot)  # the fault was for one request only
        assert sim_of(app).adr[1000]["rotationMinutes"] == "1440"


async def test_agent_account_gets_the_servers_403(make_app: MakeApp) -> None:
    app = make_app("billing", token="demo-agent")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, BillingScreen)
        assert "is an agent account" in screen_text(app)
        fill(screen, host="files.example.com", username="adr", password=SECRET)
        await save(pilot)
        assert posts(app) == 1
        assert (
            "HTTP 403: ADR export is configured at partner, reseller or organization level"
            in status_text(screen)
        )
        assert value(screen, "password") == SECRET
        assert sim_of(app).adr == {}


async def test_500_is_shown_and_follows_the_target(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app("billing")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, BillingScreen)
        original = app.connection.api.set_adr_export

        async def boom(*_args: Any, **_kwargs: Any) -> Any:
            raise ApiError(500, "boom")

        monkeypatch.setattr(app.connection.api, "set_adr_export", boom)
        fill(screen, host="files.example.com", username="adr", password=SECRET)
        await save(pilot)
        assert "HTTP 500: boom" in status_text(screen)
        assert value(screen, "password") == SECRET
        monkeypatch.setattr(app.connection.api, "set_adr_export", original)
        # Another organization: the request carries its id, by the parameter of its level
        # (spec rule 9); the warning stays hidden.
        app.select_target(1110)
        await settle(pilot)
        assert "Acme Dental Group" in status_text(screen)
        assert screen.query_one("#billing-level").has_class("-hidden")
        await save(pilot)
        [request] = [r for r in sim_of(app).requests if r.path == PATH]
        assert request.query.get("targetOrganizationId") == "1110"
        assert "targetAccountId" not in request.query
        assert sim_of(app).adr[1110]["host"] == "files.example.com"
        # An agent target shows the level warning.
        app.select_target(1111)
        await settle(pilot)
        assert not screen.query_one("#billing-level").has_class("-hidden")
        assert "Saved in this session" not in screen_text(app)  # that was for 1110


# ---------------------------------------------------------------------- billing settings

SYSTEM = "/api/v2/billing/billingSystemConfig"
KEY, SIGNING = "sk_live_NEVERSHOWN1", "whsec_NEVERSHOWN2"


async def test_the_billing_system_is_reviewed_whole_and_its_keys_never_shown(
    make_app: MakeApp,
) -> None:
    from vagent_tui.ui.dialogs import ReviewModal
    from vagent_tui.ui.widgets.billing_forms import BillingSystemForm

    app = make_app("billing", account=1100, clock=time.time)  # a reseller without one
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert "none configured (the read answered 404)" in screen_text(app)
        await pilot.press("ctrl+g")
        await settle(pilot)
        form = app.screen
        assert isinstance(form, BillingSystemForm)
        form.submit()  # empty: refused at Stripe's fields, nothing sent
        await settle(pilot)
        assert error(form, "api-key") == "required for stripe"  # type: ignore[arg-type]
        values = {"api-key": KEY, "publishable-key": "pk_1", "webhook-signing-key": SIGNING}
        for name, text in values.items():
            field = form.query_one(f"#form-{name}", Input)
            field.value = text
            assert field.password == (name != "publishable-key")  # typed masked
        form.submit()
        await settle(pilot)
        review = app.screen
        assert isinstance(review, ReviewModal)
        said = screen_text(app)
        assert "none configured" in said and "apiKey: ***" in said and "pk_1" in said
        assert KEY not in said and SIGNING not in said
        report = crash.redact(f"a crash report holding {KEY} and {SIGNING}")
        assert KEY not in report and SIGNING not in report  # remembered as read
        await pilot.press("enter")  # the system's name not typed: not sent
        await settle(pilot)
        assert sim_of(app).count("POST", SYSTEM) == 0
        # Someone configures one meanwhile: read again before the POST, said, asked again.
        sim_of(app).billing_systems[1100] = {
            "billingSystemType": "chargebee", "site": "acme", "apiKey": "cb_NEVERSHOWN3"
        }  # fmt: skip
        review.query_one(Input).value = "stripe"
        await pilot.press("enter")
        await settle(pilot)
        assert sim_of(app).count("POST", SYSTEM) == 0 and app.screen is not review
        assert isinstance(app.screen, ReviewModal)
        said = screen_text(app)
        assert "changed meanwhile" in said and "site: acme" in said
        assert "none configured" not in said
        assert "cb_NEVERSHOWN3" not in said
        app.screen.query_one(Input).value = "stripe"
        await pilot.press("enter")
        await settle(pilot)
        assert sim_of(app).count("POST", SYSTEM) == 1
        stored = sim_of(app).billing_systems[1100]
        assert stored["apiKey"] == KEY and stored["webhookSigningKey"] == SIGNING
        said = screen_text(app)
        assert "apiKey: set (not shown)" in said and KEY not in said and SIGNING not in said


async def test_a_new_billing_period_starts_today_checked_at_the_field(make_app: MakeApp) -> None:
    from vagent_tui.ui.dialogs import ConfirmModal

    path = "/api/v2/billing/billingPeriod"
    app = make_app("billing", account=1110, clock=time.time)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+n")
        await settle(pilot)
        form = app.screen
        today = datetime.now(UTC).date()
        form.query_one("#form-start", Input).value = (today - timedelta(days=1)).isoformat()
        form.query_one("#form-end", Input).value = (today + timedelta(days=30)).isoformat()
        await pilot.press("enter")
        await settle(pilot)
        said = error(form, "start-date-timestamp")  # type: ignore[arg-type]
        assert said == f"the day the current period ends: today, {today.isoformat()} (UTC)"
        assert sim_of(app).count("POST", path) == 0
        form.query_one("#form-start", Input).value = today.isoformat()
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmModal)
        await pilot.press("y")
        await settle(pilot)
        assert sim_of(app).count("POST", path) == 1
        assert "Billing period updated" in status_text(shown(app, BillingScreen))
