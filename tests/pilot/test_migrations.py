"""Pilot flows of the migration monitor: dry run, confirmed real run watched to completion,
cancelling sends nothing, type-the-id for forced overrides, ``{success}`` alone, several
tasks at once, watching while another screen shows, errors.

The simulator's clock is moved by hand (`SimClock`): a task is queued, running or over
because the test says so, never because of how fast a loaded machine runs the test.
Waits are for a condition (`until`), bounded generously, never for a fixed time.
"""

from __future__ import annotations

import io
from typing import Any

import pytest
from rich.console import Console
from rich.text import Text
from textual.app import App
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Checkbox, DataTable, Input, Label, OptionList, SelectionList, Static

from tests.helpers import MakeApp, settle, shown, sim_of, wait_for
from vagent_tui.api.errors import ApiError
from vagent_tui.ui.app import VagentApp
from vagent_tui.ui.screens.migrations import MigrationsScreen
from vagent_tui.ui.widgets.migration_rows import TasksTable

DENTAL = "tpl-dental-reception"


def text_of(screen: Any, selector: str) -> str:
    console = Console(width=300, file=io.StringIO(), record=True)
    console.print(screen.query_one(selector, Static).content)
    return console.export_text()


def posts(app: Any) -> list[Any]:
    return [r for r in sim_of(app).requests if r.method == "POST"]


def notes(app: Any) -> list[str]:
    """Every toast the app has shown (kept: a toast on screen expires after seconds)."""
    return list(app.said)


def keep_notes(app: Any) -> None:
    app.said = []
    notify = app.notify

    def recording(message: str, **kwargs: Any) -> None:
        app.said.append(message)
        notify(message, **kwargs)

    app.notify = recording


def cell(screen: Screen[Any], task_id: str, column: str) -> str:
    text: Text = screen.query_one("#mig-tasks", DataTable).get_cell(task_id, column)
    return text.plain


async def until(pilot: Pilot[None], check: Any, timeout: float = 30.0) -> None:
    await wait_for(pilot, check, timeout)


class SimClock:
    """The simulator's clock; tasks take `TASK_SECONDS` of it, running after a tenth."""

    def __init__(self) -> None:
        self.now = 1_763_600_000.0

    def __call__(self) -> float:
        return self.now


TASK_SECONDS = 10.0


def clock_of(app: App[Any]) -> SimClock:
    """The hand-moved clock of the app's simulator (`reseller_app`)."""
    clock = sim_of(app).clock
    assert isinstance(clock, SimClock)
    return clock


def announced(app: Any, *tasks: Any) -> bool:
    """Every task's watch has ended (its final notification has been posted)."""
    groups = {f"watch-{task.task_id}" for task in tasks}
    return not any(w.group in groups and w.is_running for w in app.workers)


async def run_through(pilot: Pilot[None], app: Any, *tasks: Any) -> None:
    """Move the clock so ``tasks`` (started together) run, then end; wait for each step."""
    await until(pilot, lambda: all(t.status == "queued" for t in tasks))
    clock_of(app).now += TASK_SECONDS / 2
    await until(pilot, lambda: all(t.status == "running" for t in tasks))
    clock_of(app).now += TASK_SECONDS
    await until(pilot, lambda: all(t.final for t in tasks) and announced(app, *tasks))


async def start(pilot: Pilot[None]) -> None:
    await pilot.press("s")
    await pilot.pause()
    await pilot.pause()


def reseller_app(make_app: MakeApp, **options: Any) -> VagentApp:
    clock = SimClock()
    app = make_app(
        "migrations", token="demo-reseller", task_seconds=TASK_SECONDS, clock=clock, **options
    )
    keep_notes(app)
    app.watcher.min_interval = 0.02
    app.watcher.max_interval = 0.05  # a frozen clock must not make the polls back off
    return app


async def test_templates_sections_and_safe_defaults(make_app: MakeApp) -> None:
    app = reseller_app(make_app)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, MigrationsScreen)
        assert type(screen).__name__ == "MigrationsScreen"
        options = screen.query_one("#mig-templates", OptionList)
        labels = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        assert labels[0] == "Dental reception · rev 4 · 2 agents"
        assert len(labels) == 3
        sections = screen.query_one("#mig-sections", SelectionList)
        assert sections.option_count == 6 and sections.selected == []
        assert screen.query_one("#mig-dry-run", Checkbox).value is True
        assert screen.query_one("#mig-force", Checkbox).value is False
        assert "dry run · all sections" in text_of(screen, "#mig-plan")


async def test_dry_run_then_confirmed_real_run_watched_to_completion(make_app: MakeApp) -> None:
    app = reseller_app(make_app)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settle(pilot)
        screen = shown(app, MigrationsScreen)
        sim = sim_of(app)
        await start(pilot)
        await settle(pilot)
        assert len(posts(app)) == 1
        assert posts(app)[0].path == f"/api/v2/templates/{DENTAL}/migrate"
        assert posts(app)[0].body == {"dryRun": True, "forceMigrateOverriddenFields": False}
        (dry,) = app.watcher.tasks.values()
        assert cell(screen, dry.task_id, "run") == "dry run"
        await run_through(pilot, app, dry)
        assert dry.status == "completed"
        assert cell(screen, dry.task_id, "status") == "✓ completed"
        assert cell(screen, dry.task_id, "done") == "2/2"
        assert cell(screen, dry.task_id, "changed") == "2"
        assert "Dry run of Dental reception completed" in notes(app)
        assert sim.live[1111]["templateRevision"] == 3  # a dry run changes nothing

        await pilot.press("t")  # dry run off: a real run
        assert "REAL RUN" in text_of(screen, "#mig-plan")
        await start(pilot)
        modal = app.screen
        assert type(modal).__name__ == "ConfirmModal"
        assert "Dental reception" in text_of(modal, "#confirm-body")
        assert DENTAL in text_of(modal, "#confirm-body")
        assert len(posts(app)) == 1  # nothing sent before confirming
        await pilot.click("#confirm")
        await settle(pilot)
        assert len(posts(app)) == 2 and posts(app)[1].body["dryRun"] is False
        real = next(t for t in app.watcher.tasks.values() if not t.dry_run)
        assert cell(screen, real.task_id, "run") == "REAL"
        await run_through(pilot, app, real)
        assert [status for status, _ in real.history] == ["queued", "running", "completed"]
        assert cell(screen, real.task_id, "status") == "✓ completed"
        assert "Migration of Dental reception completed" in notes(app)
        assert sim.live[1111]["templateRevision"] == 4
        table = screen.query_one("#mig-tasks", DataTable)
        table.move_cursor(row=table.get_row_index(real.task_id))
        await pilot.pause()
        detail = text_of(screen, "#mig-task-detail-text")
        assert "History" in detail and "queued" in detail and "running" in detail
        assert "Migration finished: 2 agent(s) changed" in detail

        # every agent is up to date now: the platform answers {success} alone
        await pilot.press("t")
        await start(pilot)
        await settle(pilot)
        assert len(posts(app)) == 3 and len(app.watcher.tasks) == 2
        assert "Nothing to migrate" in str(screen.status.content)


async def test_cancelling_the_confirmation_sends_nothing(make_app: MakeApp) -> None:
    app = reseller_app(make_app)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, MigrationsScreen)
        await pilot.press("t")
        for cancel in ("escape", "n", "enter"):  # enter: the cancel button has the focus
            await start(pilot)
            assert type(app.screen).__name__ == "ConfirmModal"
            await pilot.press(cancel)
            await settle(pilot)
            assert app.screen is screen, cancel
            assert posts(app) == [], cancel
            assert "nothing was sent" in str(screen.status.content)
        assert app.watcher.tasks == {}


async def test_forcing_overrides_requires_typing_the_template_id(make_app: MakeApp) -> None:
    app = reseller_app(make_app)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, MigrationsScreen)
        await pilot.press("t", "f")
        assert "replaces overrides" in text_of(screen, "#mig-plan")
        await start(pilot)
        await pilot.click("#confirm")
        await pilot.pause()
        prompt = app.screen
        assert type(prompt).__name__ == "PromptModal"
        await pilot.press(*"tpl-dental", "enter")
        await pilot.pause()
        assert app.screen is prompt and posts(app) == []
        assert "Type tpl-dental-reception exactly" in str(
            prompt.query_one("#prompt-error", Label).content
        )
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is screen and posts(app) == []

        await start(pilot)
        await pilot.click("#confirm")
        await pilot.pause()
        app.screen.query_one("#prompt-input", Input).value = ""
        await pilot.press(*DENTAL, "enter")
        await settle(pilot)
        assert len(posts(app)) == 1
        assert posts(app)[0].body == {"dryRun": False, "forceMigrateOverriddenFields": True}
        (task,) = app.watcher.tasks.values()
        await run_through(pilot, app, task)
        assert cell(screen, task.task_id, "replaced") == "4"
        assert cell(screen, task.task_id, "kept") == "0"


async def test_sections_selected_are_sent(make_app: MakeApp) -> None:
    app = reseller_app(make_app)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, MigrationsScreen)
        sections = screen.query_one("#mig-sections", SelectionList)
        sections.focus()
        await pilot.press("space", "down", "space")
        await pilot.pause()
        assert "2 sections" in text_of(screen, "#mig-plan")
        await start(pilot)
        await settle(pilot)
        assert posts(app)[0].body["sectionsToMigrate"] == ["instructions", "voice"]


async def test_success_alone_says_nothing_to_migrate(make_app: MakeApp) -> None:
    app = reseller_app(make_app)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settle(pilot)
        screen = shown(app, MigrationsScreen)
        await pilot.press("down")  # Realty inbound: its agent is up to date
        await start(pilot)
        await settle(pilot)
        assert len(posts(app)) == 1
        assert app.watcher.tasks == {}
        message = "Nothing to migrate: every agent of Realty inbound is up to date."
        assert message in str(screen.status.content)
        assert message not in notes(app)  # the status line says it: no toast repeats it
        assert screen.query_one("#mig-tasks", DataTable).row_count == 0


async def test_several_tasks_at_once_and_watching_on_another_screen(make_app: MakeApp) -> None:
    app = reseller_app(make_app)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settle(pilot)
        screen = shown(app, MigrationsScreen)
        await start(pilot)  # Dental reception, dry run
        await pilot.press("down", "down")  # After-hours answering: a locked agent
        await start(pilot)
        await pilot.pause()
        assert len(app.watcher.tasks) == 2
        assert len(app.watcher.active) == 2
        assert screen.query_one("#mig-tasks", DataTable).row_count == 2
        await pilot.press("1")  # another screen; the app keeps watching
        await pilot.pause()
        assert app.screen is not screen
        dental, after = app.watcher.tasks.values()
        await run_through(pilot, app, dental, after)
        assert not app.watcher.active
        assert "Dry run of Dental reception completed" in notes(app)
        assert "Dry run of After-hours answering failed" in notes(app)
        await pilot.press("6")
        await pilot.pause()
        assert app.screen is screen
        assert cell(screen, dental.task_id, "status") == "✓ completed"
        assert cell(screen, after.task_id, "status") == "✗ failed"
        table = screen.query_one("#mig-tasks", DataTable)
        table.move_cursor(row=1)
        await pilot.pause()
        assert "is locked; migration stopped" in text_of(screen, "#mig-task-detail-text")


async def test_poll_error_shown_and_watching_goes_on(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = reseller_app(make_app)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, MigrationsScreen)
        original = app.connection.api.migration_status
        failing = {"on": True, "calls": 0}

        async def flaky(endpoint: str, **kwargs: Any) -> Any:
            if failing["on"]:
                failing["calls"] += 1
                raise ApiError(500, "boom")
            return await original(endpoint, **kwargs)

        monkeypatch.setattr(app.connection.api, "migration_status", flaky)
        await start(pilot)
        (task,) = app.watcher.tasks.values()
        await until(pilot, lambda: failing["calls"] >= 2)
        await pilot.pause()
        assert "⚠ boom" in cell(screen, task.task_id, "error")
        assert "boom" in text_of(screen, "#mig-task-detail-text")
        assert not task.final
        failing["on"] = False
        await run_through(pilot, app, task)
        assert cell(screen, task.task_id, "error") == ""
        assert cell(screen, task.task_id, "status") == "✓ completed"


async def test_only_changed_cells_are_updated(make_app: MakeApp) -> None:
    app = reseller_app(make_app)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, MigrationsScreen)
        await start(pilot)
        (task,) = app.watcher.tasks.values()
        await run_through(pilot, app, task)
        table = screen.query_one("#mig-tasks", TasksTable)
        updated: list[Any] = []
        original = table.set_cell  # every cell change goes through it

        def spy(*args: Any, **kwargs: Any) -> None:
            updated.append(args[:2])
            original(*args, **kwargs)

        table.set_cell = spy  # type: ignore[method-assign]
        screen.task_changed(task)
        assert updated == []
        task.error = "late"
        screen.task_changed(task)
        assert updated == [(task.task_id, "error")]
        await pilot.pause()
        assert table.get_cell(task.task_id, "error").plain == "⚠ late"
        # Only that cell's cached renders were dropped: the row shows the new value.
        assert "⚠ late" in table.render_line(1).text


async def test_partner_key_shows_the_server_message_then_follows_the_target(
    make_app: MakeApp,
) -> None:
    app = make_app("migrations")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, MigrationsScreen)
        status = str(screen.status.content)
        assert "Templates are a reseller feature; select a reseller account" in status
        assert "press r" not in status  # a refusal: a retry gets the same (issue 24)
        assert "Scope (1) selects another account" in status
        await start(pilot)
        assert posts(app) == []
        app.select_target(1100)
        await settle(pilot)
        options = screen.query_one("#mig-templates", OptionList)
        assert options.option_count == 3
        assert str(options.get_option_at_index(0).prompt).startswith("Dental reception")
        assert not screen.status.has_class("-error")


async def test_template_list_error_and_retry(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = reseller_app(make_app)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, MigrationsScreen)
        original = app.connection.api.list_templates

        async def broken(**kwargs: Any) -> Any:
            raise ApiError(500, "boom")

        monkeypatch.setattr(app.connection.api, "list_templates", broken)
        await pilot.press("r")
        await settle(pilot)
        assert "boom" in str(screen.status.content)
        assert "press r to retry" in str(screen.status.content)
        monkeypatch.setattr(app.connection.api, "list_templates", original)
        await pilot.press("r")
        await settle(pilot)
        assert screen.query_one("#mig-templates", OptionList).option_count == 3
        assert not screen.status.has_class("-error")
