"""Pilot flows of typed template ids: the spec lists no templates, so an id is typed
(with its sections), remembered per platform in the state folder, and offered again;
the simulator's list stays a help where it answers."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from rich.console import Console
from textual.widgets import Input, OptionList, Static

from tests.helpers import MakeApp, settle, wait_for
from vagent_tui.api.errors import ApiError
from vagent_tui.config import state_dir

DENTAL = "tpl-dental-reception"


def text_of(screen: Any, selector: str) -> str:
    console = Console(width=300, file=io.StringIO(), record=True)
    console.print(screen.query_one(selector, Static).content)
    return console.export_text()


def posts(app: Any) -> list[Any]:
    sim = app.connection.api.sim_app.state.sim
    return [r for r in sim.requests if r.method == "POST"]


def labels(screen: Any) -> list[str]:
    options = screen.query_one("#mig-templates", OptionList)
    return [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]


def no_list_route(app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The real platform: ``GET /templates`` is not in the spec (404 there)."""

    async def absent(**kwargs: Any) -> Any:
        raise ApiError(404, "Not found")

    monkeypatch.setattr(app.connection.api, "list_templates", absent)


def reseller_app(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch, *, listed: bool = False
) -> Any:
    app = make_app("migrations", token="demo-reseller", task_seconds=0.2)
    app.watcher.min_interval = 0.02
    if not listed:
        no_list_route(app, monkeypatch)
    return app


async def test_without_a_list_an_id_and_its_sections_are_typed_and_remembered(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = reseller_app(make_app, monkeypatch)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        status = str(screen.status.content)
        assert "This platform lists no templates: type a template id (i)" in status
        assert not screen.status.has_class("-error")
        field = screen.query_one("#mig-template-id", Input)
        # The focus stays on the list: 1-0 stay the screen keys until i (issue 24).
        assert app.focused is not field and field.value == ""
        assert labels(screen) == ["This platform lists no templates: type a template id (i)"]
        await pilot.press("i", "s")  # typed into the field: nothing sent
        await pilot.press("backspace")
        await pilot.press(*DENTAL)
        await settle(pilot)
        assert screen.has_class("-typed")  # sections are typed for an id not listed
        sections = screen.query_one("#mig-sections-typed", Input)
        assert sections.display
        sections.value = "voice, instructions ,, voice"
        await pilot.pause()
        assert "2 sections" in text_of(screen, "#mig-plan")
        field.focus()
        await pilot.press("enter")  # Enter in the field starts a dry run, as s does
        await settle(pilot)
        assert len(posts(app)) == 1
        sent = posts(app)[0]
        assert sent.path == f"/api/v2/templates/{DENTAL}/migrate"
        assert sent.body == {"dryRun": True, "sectionsToMigrate": ["voice", "instructions"],
                             "forceMigrateOverriddenFields": False}  # fmt: skip
        (task,) = app.watcher.tasks.values()
        assert task.template_id == DENTAL and task.dry_run
        assert labels(screen)[1:] == ["Recent ids (not listed)", DENTAL]
        # Kept next to the journal: ids, host, target, time; no token, no base URL.
        raw = (state_dir() / "recent-templates.json").read_text()
        (entry,) = json.loads(raw)["recent"]
        assert entry["templateId"] == DENTAL and entry["target"] is None
        assert entry["host"] == app.connection.api.host
        assert "demo-reseller" not in raw and "token" not in raw.lower()
        await wait_for(pilot, lambda: task.final, 30)


async def test_a_recent_id_is_offered_to_the_next_console(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = reseller_app(make_app, monkeypatch)
    async with first.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        first.screen.query_one("#mig-template-id", Input).value = "tpl-after-hours"
        await pilot.press("i", "s")  # the focus is in the field: typed, not pressed
        first.screen.query_one("#mig-template-id", Input).value = "tpl-after-hours"
        await pilot.press("escape", "s")  # esc leaves the field; s starts
        await settle(pilot)
        assert [p.path for p in posts(first)] == ["/api/v2/templates/tpl-after-hours/migrate"]
    second = reseller_app(make_app, monkeypatch)
    async with second.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = second.screen
        assert labels(screen)[1:] == ["Recent ids (not listed)", "tpl-after-hours"]
        field = screen.query_one("#mig-template-id", Input)
        assert field.value == ""
        screen.query_one("#mig-templates", OptionList).focus()
        await pilot.press("down", "down")  # past the note and the heading: the recent id
        await settle(pilot)
        assert field.value == "tpl-after-hours"
        await pilot.press("s")
        await settle(pilot)
        assert [p.path for p in posts(second)] == ["/api/v2/templates/tpl-after-hours/migrate"]


async def test_an_id_the_platform_does_not_know_is_said_and_not_remembered(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = reseller_app(make_app, monkeypatch)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        await pilot.press("i", *"tpl-nowhere", "enter")
        await settle(pilot)
        assert len(posts(app)) == 1
        status = str(screen.status.content)
        assert "Template not found: check the id (i)" in status
        assert "press r to retry" not in status  # a 404 comes back the same
        assert app.watcher.tasks == {}
        assert not (state_dir() / "recent-templates.json").exists()
        assert labels(screen) == ["This platform lists no templates: type a template id (i)"]


async def test_what_no_id_can_hold_is_refused_before_sending(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = reseller_app(make_app, monkeypatch)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        await pilot.press("i", "enter")
        await settle(pilot)
        assert "Pick a template first, or type its id (i)" in str(screen.status.content)
        await pilot.press(*"tpl dental", "enter")
        await settle(pilot)
        assert "no spaces or control characters" in str(screen.status.content)
        assert posts(app) == []


async def test_a_real_run_of_a_typed_id_names_no_revision(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = reseller_app(make_app, monkeypatch)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        await pilot.press("i", *DENTAL, "escape", "t", "s")
        await settle(pilot)
        modal = app.screen
        assert type(modal).__name__ == "ConfirmModal"
        body = text_of(modal, "#confirm-body")
        assert f"{DENTAL} ({DENTAL}) to its current revision for real" in body
        assert "every section" in body and "None" not in body
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is screen and posts(app) == []


async def test_with_the_list_typing_a_listed_id_picks_it_and_picking_fills_the_field(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = reseller_app(make_app, monkeypatch, listed=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        options = screen.query_one("#mig-templates", OptionList)
        field = screen.query_one("#mig-template-id", Input)
        assert app.focused is options and field.value == DENTAL  # the first listed
        await pilot.press("down")
        await settle(pilot)
        assert field.value == "tpl-realty-inbound" and options.highlighted == 1
        await pilot.press("i")
        assert app.focused is field
        field.value = ""
        await pilot.press(*"tpl-after-hours")
        await settle(pilot)
        assert options.highlighted == 2 and not screen.has_class("-typed")
        assert screen.query_one("#mig-sections").display  # the listed template's sections
        await pilot.press("backspace")
        await settle(pilot)
        assert options.highlighted is None and screen.has_class("-typed")
        # Another reseller's template: the platform answers, the console shows it.
        field.value = "tpl-clinic-intake"
        await pilot.press("enter")
        await settle(pilot)
        assert posts(app)[-1].path == "/api/v2/templates/tpl-clinic-intake/migrate"
        assert "Template not found" in str(screen.status.content)


async def test_a_failed_list_other_than_absent_is_an_error_and_typing_still_works(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = reseller_app(make_app, monkeypatch, listed=True)

    async def broken(**kwargs: Any) -> Any:
        raise ApiError(500, "boom")

    monkeypatch.setattr(app.connection.api, "list_templates", broken)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert "boom" in str(screen.status.content) and screen.status.has_class("-error")
        assert labels(screen) == ["boom"]
        await pilot.press("i", *DENTAL, "enter")
        await settle(pilot)
        assert [p.path for p in posts(app)] == [f"/api/v2/templates/{DENTAL}/migrate"]
        assert len(app.watcher.tasks) == 1


async def test_enter_in_the_field_is_refused_on_a_read_only_profile(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from vagent_tui.services.connect import demo_client
    from vagent_tui.ui.app import VagentApp

    app = VagentApp(demo_client("demo-reseller"), initial_screen="migrations", read_only=True)
    said: list[str] = []
    notify = app.notify

    def recording(message: str, **kwargs: Any) -> None:
        said.append(str(message))
        notify(message, **kwargs)

    monkeypatch.setattr(app, "notify", recording)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert screen.query_one("#mig-template-id", Input).value == DENTAL  # the first listed
        await pilot.press("i", "enter")
        await settle(pilot)
        assert posts(app) == [] and app.watcher.tasks == {}
        assert any("read-only" in message.lower() for message in said), said
