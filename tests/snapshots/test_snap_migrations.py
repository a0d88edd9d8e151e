"""Snapshots of the migration monitor at 80x24 and 120x40: the start form, a dry run
watched to completion with the watcher's clock frozen (elapsed times read 0s), and a
typed template id with typed sections on a platform that lists no templates."""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from tests.helpers import MakeApp, SnapCompare, console, settle, shown, sim_of, wait_for
from tests.snapshots.sizes import Size, size_id, sizes
from vagent_tui.ui.app import VagentApp
from vagent_tui.ui.screens.migrations import MigrationsScreen


class SimClock:
    """The simulator's clock, moved by hand so the task's history is always the same."""

    def __init__(self) -> None:
        self.now = 1_763_600_000.0

    def __call__(self) -> float:
        return self.now


def sim_clock(app: VagentApp) -> SimClock:
    clock = sim_of(app).clock
    assert isinstance(clock, SimClock)
    return clock


def reseller_app(make_app: MakeApp) -> VagentApp:
    clock = SimClock()
    app = make_app("migrations", token="demo-reseller", task_seconds=10, clock=clock)
    app.watcher.min_interval = 0.05
    app.watcher.max_interval = 0.1
    app.watcher.clock = lambda: 1000.0
    return app


async def _until(pilot: Pilot[None], status: str) -> None:
    def seen() -> bool:
        tasks = list(console(pilot).watcher.tasks.values())
        return bool(tasks) and tasks[0].status == status

    await wait_for(pilot, seen, 30.0)


async def run_before(pilot: Pilot[None]) -> None:
    # the templates, not a bounded settle: a loaded machine may take longer to list them
    screen = shown(pilot.app, MigrationsScreen)
    await wait_for(pilot, lambda: screen.templates or screen.templates_error, 30.0)
    await settle(pilot)


async def run_before_dry_run(pilot: Pilot[None]) -> None:
    await settle(pilot)
    await pilot.press("s")
    app = console(pilot)
    await _until(pilot, "queued")
    sim_clock(app).now += 5  # running, half of the agents processed
    await _until(pilot, "running")
    sim_clock(app).now += 10  # past the end: completed
    await _until(pilot, "completed")
    # The watch announces the end after its last poll: let it finish before clearing the
    # toasts, or a loaded machine shows the toast in the picture.
    await settle(pilot)
    app.clear_notifications()
    await settle(pilot)


@pytest.mark.parametrize("size", sizes(MigrationsScreen), ids=size_id)
def test_migrations(snap_compare: SnapCompare, make_app: MakeApp, size: Size) -> None:
    app = reseller_app(make_app)
    assert snap_compare(app, terminal_size=size, run_before=run_before_dry_run)


def test_migrations_partner_key_80x24(snap_compare: SnapCompare, make_app: MakeApp) -> None:
    app = make_app("migrations")
    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


def no_list_app(make_app: MakeApp, monkeypatch: pytest.MonkeyPatch) -> Any:
    """The real platform's case: no template list (404), two ids used before."""
    from vagent_tui.api.errors import ApiError
    from vagent_tui.services.migrations import RecentTemplates

    app = make_app("migrations", token="demo-reseller")
    store = RecentTemplates()
    for template_id in ("tpl-after-hours", "tpl-dental-reception"):
        store.remember(app.connection.api.host, template_id, None)

    async def absent(**kwargs: Any) -> Any:
        raise ApiError(404, "Not found")

    monkeypatch.setattr(app.connection.api, "list_templates", absent)
    return app


async def run_before_typed(pilot: Pilot[None]) -> None:
    await settle(pilot)
    await pilot.press("i", *"tpl-dental-reception")  # i: the user chooses the field
    focused = pilot.app.focused
    assert isinstance(focused, Input)
    focused.cursor_blink = False  # the cursor shown, whatever the time taken
    await settle(pilot)
    pilot.app.screen.query_one("#mig-sections-typed", Input).value = "voice, instructions"
    await settle(pilot)


@pytest.mark.parametrize("size", sizes(MigrationsScreen), ids=size_id)
def test_migrations_typed_id(
    snap_compare: SnapCompare, make_app: MakeApp, monkeypatch: pytest.MonkeyPatch, size: Size
) -> None:
    app = no_list_app(make_app, monkeypatch)
    assert snap_compare(app, terminal_size=size, run_before=run_before_typed)
