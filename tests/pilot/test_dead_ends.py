"""Dead ends and untrue words (issue 24, section 5): each found by trying the console.

`all` in the rollout's accounts field, typing kept while a listing lands, ``r`` offered
only where a retry can help, digits that go to screens, a reply without its list, the
footer's way-around hint, and counted words.
"""

from __future__ import annotations

from typing import Any

from textual.widgets import Input, Static

from tests.helpers import known, settle, shown, sim_of, wait_for
from tests.pilot.test_rollout import AGENTS, VOICE, fill_form, planned, status_text
from vagent_tui.ui.screens.rollout import RolloutScreen
from vagent_tui.ui.screens.settings import SettingsScreen
from vagent_tui.ui.widgets.form import FormField
from vagent_tui.ui.widgets.rollout_form import RolloutForm


def status_of(app: Any) -> str:
    return str(app.screen.query_one("#status", Static).content)


# --------------------------------------------------------------------------- rollout: all


async def test_all_in_the_accounts_field_is_every_account_in_any_case(make_app: Any) -> None:
    app = make_app("rollout")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("c")
        await wait_for(pilot, lambda: isinstance(app.screen, RolloutForm))
        form_hint = app.screen.query_one("#rollout-accounts", Input).placeholder
        assert form_hint.startswith("all;")
        await pilot.press("escape")
        for said in ("all", "ALL", " All "):
            plan = await planned(pilot, voice=VOICE, accounts=said)
            assert [p.account_id for p in plan.accounts] == AGENTS, said
            assert "matching" not in str(plan.chosen)
            assert "press r" not in status_text(app)


async def test_all_beside_other_words_is_refused_at_the_field(make_app: Any) -> None:
    app = make_app("rollout")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await fill_form(pilot, voice=VOICE, accounts="all acme")
        form = app.screen
        assert isinstance(form, RolloutForm)
        errors = {f.name: f.error for f in form.query(FormField)}
        assert "all means every account" in str(errors["accounts"])


# --------------------------------------------------------------------------- r where it helps


async def test_no_account_matching_is_not_offered_a_retry(make_app: Any) -> None:
    app = make_app("rollout")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await fill_form(pilot, voice=VOICE, accounts="no-such-account-anywhere")
        await wait_for(pilot, lambda: "matches" in status_text(app))
        line = status_text(app)
        assert "press r" not in line and "retry" not in line
        assert "c changes the accounts field" in line


async def test_a_route_the_platform_lacks_says_so_and_offers_no_retry(
    make_app: Any, monkeypatch: Any
) -> None:
    app = make_app("computer", account=1110)
    client = app.connection.api

    async def absent(**_kwargs: Any) -> Any:
        # The platform's own answer to a route it does not have (the sim's 404).
        return await client.request("GET", "/computer/no-such-route")

    monkeypatch.setattr(client, "list_computer_accounts", absent)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await wait_for(pilot, lambda: "404" in status_of(app))
        line = status_of(app)
        assert "press r" not in line
        assert "no such route or record" in line and "a retry gets the same answer" in line


async def test_a_fault_of_a_moment_is_offered_a_retry(make_app: Any, monkeypatch: Any) -> None:
    from vagent_tui.api.errors import ApiError, RequestTimeout

    app = make_app("voices", account=1111)
    client = app.connection.api
    errors = iter([ApiError(503, "Service Unavailable"), RequestTimeout("timed out"),
                   ApiError(429, "Too many requests"), ApiError(403, "Forbidden")])  # fmt: skip

    async def failing(**_kwargs: Any) -> Any:
        raise next(errors)

    monkeypatch.setattr(client, "list_voices", failing)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        for _ in range(3):
            await wait_for(pilot, lambda: "✗" in status_of(app))
            assert status_of(app).endswith("press r to retry"), status_of(app)
            app.screen.status.clear()
            await pilot.press("r")
            await settle(pilot)
        assert "Forbidden" in status_of(app) and "press r" not in status_of(app)
        assert "Scope (1) selects another account" in status_of(app)


# ------------------------------------------------------------------ a reply without its list


class Without:
    """The simulator, but ``path`` answers ``{"success": true}`` and no list."""

    def __init__(self, inner: Any, path: str) -> None:
        self.inner, self.path, self.state = inner, path, inner.state

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["path"] != self.path:
            await self.inner(scope, receive, send)
            return
        body = b'{"success": true, "message": "ok"}'
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-type", b"application/json")]})  # fmt: skip
        await send({"type": "http.response.body", "body": body})


def app_without(path: str, screen: str) -> Any:
    from vagent_tui.services.connect import demo_client
    from vagent_tui.sim import create_app
    from vagent_tui.ui.app import VagentApp

    client = demo_client(sim_app=Without(create_app(), path))
    return VagentApp(client, profile_label="demo", initial_screen=screen, initial_account=1111)


async def test_voices_without_a_list_say_so_not_zero_voices() -> None:
    app = app_without("/api/v2/agent/voices", "voices")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await wait_for(pilot, lambda: "✗" in status_of(app))
        line = status_of(app)
        assert "holds no 'voices' list" in line and "0 voices" not in line


async def test_functions_without_a_list_say_so_not_zero_functions() -> None:
    app = app_without("/api/v2/agent/functions", "functions")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await wait_for(pilot, lambda: "✗" in status_of(app))
        line = status_of(app)
        assert "holds no 'functions' list" in line and "0 functions" not in line


# --------------------------------------------------------------------------- 1-0 go to screens


def no_template_list(app: Any, monkeypatch: Any) -> None:
    from vagent_tui.api.errors import ApiError

    async def absent(**_kwargs: Any) -> Any:
        raise ApiError(404, "Not found")

    monkeypatch.setattr(app.connection.api, "list_templates", absent)


async def test_with_no_template_list_7_goes_to_tokens_and_i_to_the_field(
    make_app: Any, monkeypatch: Any
) -> None:
    app = make_app("migrations", token="demo-reseller")
    no_template_list(app, monkeypatch)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert "type a template id (i)" in status_of(app)
        field = app.screen.query_one("#mig-template-id", Input)
        assert app.focused is not field
        await pilot.press("7")
        await wait_for(pilot, lambda: app.current_mode == "tokens")
        assert field.value == ""
        await pilot.press("6")
        await wait_for(pilot, lambda: app.current_mode == "migrations")
        await pilot.press("i", "7")  # i: the user chose the field, digits are typed
        assert field.value == "7" and app.current_mode == "migrations"


async def test_no_screen_leaves_the_focus_in_a_text_field_after_its_load(
    make_app: Any, monkeypatch: Any
) -> None:
    """The focus rule: 1-0 go to the screens until the user chooses a field. Every
    screen loaded with a template list, and the settings form; then, without a template
    list (another key, the list's route absent), the screens whose load read it: only
    there does the list's absence change what a load does."""
    from textual.widgets import TextArea

    from vagent_tui.ui.app import VagentApp
    from vagent_tui.ui.registry import SCREENS

    read_templates: list[str] = []
    for list_route in (True, False):
        app = make_app("scope", token="demo-reseller" if list_route else "demo-partner",
                       account=1111)  # fmt: skip
        if not list_route:
            no_template_list(app, monkeypatch)
        sim = sim_of(app)
        names = [info.name for info in SCREENS] if list_route else read_templates
        async with app.run_test(size=(120, 40)) as pilot:
            for name in names:  # the registry's order
                before = len(sim.requests)
                await app.run_action(f"show('{name}')")
                await settle(pilot)
                assert not isinstance(app.focused, Input | TextArea), (name, app.focused)
                if list_route and any(r.path.endswith("/templates") for r in sim.requests[before:]):
                    read_templates.append(name)
            if not list_route:
                assert read_templates, "no screen read the template list"
                continue
            await app.run_action("show('agent')")
            await settle(pilot)
            await pilot.press("E")  # the settings form

            def on_settings(a: VagentApp = app) -> bool:
                return type(a.screen).__name__ == "SettingsScreen"

            def built(a: VagentApp = app) -> bool:
                return shown(a, SettingsScreen).built

            await wait_for(pilot, on_settings)
            await wait_for(pilot, built)
            await settle(pilot)
            assert not isinstance(app.focused, Input | TextArea), app.focused


# ------------------------------------------------------------------ typing kept while a load lands


async def test_the_change_typed_while_the_accounts_are_listed_is_kept_and_planned(
    make_app: Any, monkeypatch: Any
) -> None:
    import asyncio

    app = make_app("rollout")
    gate = asyncio.Event()
    listings = app.agent_listings
    real_get = listings.get

    async def slow_get(*args: Any, **kwargs: Any) -> Any:
        await gate.wait()  # a slow platform: the listing lands when the test says
        return await real_get(*args, **kwargs)

    monkeypatch.setattr(listings, "get", slow_get)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: "Listing the agent accounts" in status_of(app))
        screen = shown(app, RolloutScreen)
        await pilot.press("c")  # while "⟳ Listing the agent accounts…"
        await wait_for(pilot, lambda: isinstance(app.screen, RolloutForm))
        await pilot.press(*"elevenlabs-ant")
        voice = app.screen.query_one("#rollout-voice", Input)
        assert voice.value == "elevenlabs-ant"
        gate.set()  # the listing lands, then the sample's catalog
        await wait_for(pilot, lambda: screen.accounts is not None)
        await wait_for(pilot, lambda: screen.catalog.voices)
        await settle(pilot)
        assert isinstance(app.screen, RolloutForm) and app.focused is voice
        assert voice.value == "elevenlabs-ant"  # nothing typed is dropped
        await pilot.press(*"oni")
        assert voice.value == "elevenlabs-antoni"
        assert app.screen.catalog.voices  # the open form checks against the catalog now
        await pilot.press("enter")
        await wait_for(pilot, lambda: screen.plan is not None and not screen.phase)
        plan = known(screen.plan)
        assert [p.account_id for p in plan.accounts] == AGENTS
        assert plan.change.voice == VOICE


async def test_a_change_submitted_before_the_listing_lands_is_planned_once_listed(
    make_app: Any, monkeypatch: Any
) -> None:
    import asyncio

    app = make_app("rollout")
    gate = asyncio.Event()
    listings = app.agent_listings
    real_get = listings.get

    async def slow_get(*args: Any, **kwargs: Any) -> Any:
        await gate.wait()
        return await real_get(*args, **kwargs)

    monkeypatch.setattr(listings, "get", slow_get)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: "Listing the agent accounts" in status_of(app))
        screen = shown(app, RolloutScreen)
        await fill_form(pilot, voice=VOICE)
        await wait_for(pilot, lambda: not isinstance(app.screen, RolloutForm))
        assert "planned once listed" in status_of(app)
        gate.set()
        await wait_for(pilot, lambda: screen.plan is not None and not screen.phase)
        assert [p.account_id for p in known(screen.plan).accounts] == AGENTS


async def test_a_listing_landing_leaves_the_focus_in_the_field_being_typed_in(
    make_app: Any, monkeypatch: Any
) -> None:
    """The mechanism: a load that gives the focus back to its list (`focus_after_load`)
    never takes it from a text field the user is typing in (Fleet's filter here)."""
    import asyncio

    app = make_app("fleet")
    gate = asyncio.Event()
    listings = app.agent_listings
    real_get = listings.get

    async def slow_get(*args: Any, **kwargs: Any) -> Any:
        await gate.wait()
        return await real_get(*args, **kwargs)

    monkeypatch.setattr(listings, "get", slow_get)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: "Listing the agent accounts" in status_of(app))
        await pilot.press("slash")
        await wait_for(pilot, lambda: isinstance(app.focused, Input))
        field = app.focused
        await pilot.press(*"acm")
        gate.set()
        await wait_for(pilot, lambda: app.screen.accounts is not None)
        await settle(pilot)
        await pilot.press("e")
        assert app.focused is field and field.value == "acme"


# ------------------------------------------------------------------ counted words


async def test_one_address_and_one_destination_are_singular(make_app: Any) -> None:
    """Issue 24: "1 whitelisted addresses", "1 destinations"."""
    app = make_app("sip", account=1111)
    sim = app.connection.api.sim_app.state.sim
    sim.sip[1111] = [{"ip": "203.0.113.7", "label": "office", "timestamp": 1_763_600_000}]
    sim.webhooks[1111] = [{"url": "https://hooks.example.com/a", "type": "conversation",
                           "timestamp": 1_763_600_000}]  # fmt: skip
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await wait_for(pilot, lambda: "whitelisted" in status_of(app))
        assert "1 whitelisted address for" in status_of(app)
        header = str(app.screen.query_one("#sip-header", Static).content)
        assert header.startswith("1 address allowed")
        await app.run_action("show('webhooks')")
        await settle(pilot)
        await wait_for(pilot, lambda: "destination" in status_of(app))
        assert "1 destination" in status_of(app) and "1 destinations" not in status_of(app)
