"""Hostile platform text on Tokens, SIP, Webhooks, Computer Agents, Migrations and Tasks.

The same planted strings as tests/pilot/test_hostile_display.py: escape sequences,
markup that would run an action or end the app, a bidi override, a newline. Each screen
shows them inert, no raw escape character from the data reaches the screen, no action
runs, the app keeps running, and repeated keys keep every row.
"""

from __future__ import annotations

from textual.widgets import Select

from tests.helpers import MakeApp, settle, shown, sim_of
from tests.pilot.test_hostile_display import (
    HOSTILE,
    SHOWN,
    no_raw_controls,
    screen_text,
    watch_actions,
)
from vagent_tui.ui.screens.base import BaseScreen
from vagent_tui.ui.screens.webhooks import WebhooksScreen

PARTNER = 1000
COMPUTER_AGENT = 1118


async def test_sip_labels_are_inert_and_a_repeated_ip_keeps_both_rows(make_app: MakeApp) -> None:
    app = make_app("sip")
    entries = sim_of(app).sip.setdefault(PARTNER, [])
    for label in (HOSTILE, "second"):
        entries.append(
            {"userId": PARTNER, "label": label, "timestamp": 1750194180, "ip": "192.0.2.77"}
        )
    calls = watch_actions(app)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(pilot)
        text = screen_text(app)
        assert SHOWN in text
        no_raw_controls(text)
        assert text.count("192.0.2.77") >= 2, "one of the two entries of one IP is missing"
        assert "Loading" not in str(shown(app, BaseScreen).status.content)
        assert calls == [] and app.is_running


async def test_webhook_labels_and_urls_are_inert_and_repeated_urls_kept(make_app: MakeApp) -> None:
    app = make_app("webhooks")
    hooks = sim_of(app).webhooks.setdefault(PARTNER, [])
    for label in (HOSTILE, "twin"):
        url = "https://x.example/[/]\x1b]0;pwned\x07"
        hooks.insert(
            0,
            {"userId": PARTNER, "label": label, "timestamp": 1, "url": url, "type": "incoming"},
        )  # fmt: skip
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(pilot)
        text = screen_text(app)
        assert SHOWN in text
        assert "␛]0;pwned" in text
        no_raw_controls(text)
        assert shown(app, WebhooksScreen).hooks_table.row_count == len(hooks)
        assert app.is_running


async def test_token_descriptions_are_inert(make_app: MakeApp) -> None:
    app = make_app("tokens")
    for record in sim_of(app).tokens.values():
        if record["userId"] == PARTNER:
            record["description"] = HOSTILE
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(pilot)
        text = screen_text(app)
        assert SHOWN in text
        no_raw_controls(text)
        assert app.is_running


async def test_a_computer_agent_named_with_markup_loads_and_is_counted_once(
    make_app: MakeApp,
) -> None:
    app = make_app("computer", account=COMPUTER_AGENT)
    sim_of(app).accounts[COMPUTER_AGENT].name = "[/] " + HOSTILE
    calls = watch_actions(app)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(pilot)
        select = app.screen.query_one("#computer-account", Select)
        assert select.value == COMPUTER_AGENT, "the Computer Agent was not loaded"
        assert "Loading" not in str(shown(app, BaseScreen).status.content)
        text = screen_text(app)
        no_raw_controls(text)
        assert calls == [] and app.is_running


async def test_template_names_are_inert(make_app: MakeApp) -> None:
    app = make_app("migrations", account=1100)
    template = next(iter(sim_of(app).templates.values()))
    template["name"] = HOSTILE
    calls = watch_actions(app)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(pilot)
        text = screen_text(app)
        no_raw_controls(text)
        assert "[@click=app.screenshot()]x[/]" in text
        assert calls == [] and app.is_running


async def test_relay_headers_and_form_are_inert(make_app: MakeApp) -> None:
    """A relay whose header name, value and URL carry escape sequences and markup."""
    from textual.widgets import Input, TextArea

    from vagent_tui.ui.widgets.relay_form import RelayForm

    app = make_app("webhooks")
    relay = sim_of(app).relays[PARTNER]["chargebee"]
    relay["headers"] = [{HOSTILE: HOSTILE}, {"X-Ok": "fine"}]
    relay["url"] = "https://x.example/[/]\x1b]0;pwned\x07"
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(pilot)
        await pilot.press("t")
        await settle(pilot)
        screen = shown(app, WebhooksScreen)
        screen.relay_table.move_cursor(row=[r.name for r in screen.relays].index("chargebee"))
        await pilot.pause()
        text = screen_text(app)
        assert "␛]52;c;SGFja2Vk␇" in text and "X-Ok: fine" in text  # (the pane folds lines)
        no_raw_controls(text)
        await pilot.press("a")
        await settle(pilot)
        form = app.screen
        assert isinstance(form, RelayForm)
        fields = form.query_one("#form-url", Input).value + form.query_one(TextArea).text
        no_raw_controls(fields)
        assert "cannot be shown as they are" in form.subtitle
        no_raw_controls(screen_text(app))
        assert app.is_running


async def test_task_targets_results_and_detail_are_inert(make_app: MakeApp) -> None:
    from vagent_tui.sim import outbound
    from vagent_tui.ui.dialogs import TextModal

    app = make_app("tasks", account=1111)
    sim = sim_of(app)
    outbound.queue(sim, sim.accounts[1111], [{"target": "+15551230001"}], "call")
    for task in sim.outbound.values():
        task["target"] = HOSTILE  # what a platform could send back
        task["context"] = HOSTILE
    calls = watch_actions(app)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(pilot)
        text = screen_text(app)
        assert SHOWN in text
        no_raw_controls(text)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, TextModal)
        assert calls == [] and app.is_running
