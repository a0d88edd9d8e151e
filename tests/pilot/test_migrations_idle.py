"""The monitor's table draws only what changed and is on screen (issue 16, target 3).

A tick redraws the elapsed cells on screen whose text changed, a poll's counts redraw
their own cell, and nothing is drawn when nothing changed; counted by `TasksTable`
(``cells_drawn``: cells drawn over the table's lines, ``table_updates``: changes that
draw the whole table), never timed.
"""

from __future__ import annotations

import re
from typing import Any

from textual.app import App, ComposeResult

from tests.helpers import MakeApp, settle, shown, wait_for
from vagent_tui.api.models import MigrationCounts
from vagent_tui.services.migrations import WatchedTask
from vagent_tui.ui.screens.migrations import MigrationsScreen
from vagent_tui.ui.widgets.migration_rows import TasksTable

ROWS = 40


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def watched(index: int, started: float) -> WatchedTask:
    return WatchedTask(
        task_id=f"task-{index}",
        template_id="tpl",
        template_name=f"Template {index}",
        dry_run=True,
        endpoint=f"/api/v2/templates/migrations/task-{index}",
        target=None,
        started=started,
        status="running",
        counts=MigrationCounts(total=10, processed=1),
    )


class Monitor(App[None]):
    def __init__(self, clock: Clock) -> None:
        super().__init__()
        self.clock = clock
        self.tasks = [watched(i, clock.now - i) for i in range(ROWS)]

    def compose(self) -> ComposeResult:
        table = TasksTable(id="tasks", cursor_type="row", zebra_stripes=True)
        table.clock = self.clock
        for task in self.tasks:
            table.upsert(task, self.clock.now)
        yield table


def screen_text(app: App[Any]) -> str:
    svg = app.export_screenshot()
    return re.sub(r"&#160;|\s+", " ", " ".join(re.findall(r">([^<>]*)</text>", svg)))


async def test_a_tick_repaints_the_elapsed_column_only_when_a_time_on_screen_changed() -> None:
    clock = Clock()
    app = Monitor(clock)
    async with app.run_test(size=(120, 12)) as pilot:
        table = app.query_one(TasksTable)
        await pilot.pause()
        visible = table.size.height - table.header_height
        assert 0 < visible < ROWS
        drawn, updates = table.cells_drawn, table.table_updates
        clock.now += 3723
        assert table.tick(clock.now) == visible  # rows off screen are not touched
        await pilot.pause()
        assert "1h02m" in screen_text(app)
        assert table.get_cell("task-0", "elapsed").plain == "1h02m"
        assert table.cells_drawn - drawn == visible
        assert table.table_updates == updates
        # Nothing changed: a tick draws nothing.
        drawn = table.cells_drawn
        assert table.tick(clock.now) == 0
        await pilot.pause()
        await pilot.pause()
        assert table.cells_drawn == drawn


async def test_a_poll_redraws_one_cell_and_nothing_when_off_screen() -> None:
    clock = Clock()
    app = Monitor(clock)
    async with app.run_test(size=(120, 12)) as pilot:
        table = app.query_one(TasksTable)
        await pilot.pause()
        first, last = app.tasks[0], app.tasks[-1]
        drawn, updates = table.cells_drawn, table.table_updates
        first.counts = MigrationCounts(total=10, processed=7)
        table.upsert(first, clock.now)
        await pilot.pause()
        assert table.get_cell(first.task_id, "done").plain == "7/10"
        assert "7/10" in screen_text(app)
        assert table.table_updates == updates  # not a draw of the whole table
        # The elapsed cell of that row is drawn with it (its line is drawn again).
        assert table.cells_drawn > drawn
        drawn = table.cells_drawn
        last.counts = MigrationCounts(total=10, processed=9)
        table.upsert(last, clock.now)
        await pilot.pause()
        assert table.cells_drawn == drawn  # off screen: nothing drawn
        assert "9/10" not in screen_text(app)
        table.move_cursor(row=ROWS - 1)
        await pilot.pause()
        assert "9/10" in screen_text(app)


async def test_a_finished_task_is_not_redrawn_and_keeps_its_duration() -> None:
    clock = Clock()
    app = Monitor(clock)
    async with app.run_test(size=(120, 12)) as pilot:
        table = app.query_one(TasksTable)
        for task in app.tasks:
            task.status, task.finished = "completed", clock.now + 65
            table.upsert(task, clock.now)
        await pilot.pause()
        assert table.get_cell("task-0", "elapsed").plain == "1m05s"
        assert table.get_cell("task-0", "status").plain == "✓ completed"
        drawn = table.cells_drawn
        clock.now += 500
        assert table.tick(clock.now) == 0
        await pilot.pause()
        assert table.cells_drawn == drawn
        assert table.get_cell("task-0", "elapsed").plain == "1m05s"


async def test_the_screen_ticks_the_elapsed_times_and_nothing_else(make_app: MakeApp) -> None:
    """On the Migrations screen: a tick shows the new elapsed time in the table and in the
    detail pane's first line (seconds in the first minute, then minutes); a tick that
    would change no text draws nothing."""
    from textual.widgets import Static

    clock = Clock()
    app = make_app("migrations", token="demo-reseller", task_seconds=1000.0)
    app.watcher.clock = clock
    app.watcher.min_interval = app.watcher.max_interval = 3600.0  # no poll meanwhile
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, MigrationsScreen)
        await pilot.press("s")
        await wait_for(pilot, lambda: len(app.watcher.tasks) == 1)
        await settle(pilot)
        (task,) = app.watcher.tasks.values()
        table = screen.query_one("#mig-tasks", TasksTable)
        elapsed = screen.query_one("#mig-task-elapsed", Static)
        assert str(elapsed.content) == "Elapsed    0s"
        clock.now += 45
        screen._tick()
        await pilot.pause()
        assert str(elapsed.content) == "Elapsed    45s"  # seconds in the first minute
        assert table.get_cell(task.task_id, "elapsed").plain == "45s"
        clock.now += 20
        screen._tick()
        await pilot.pause()
        assert str(elapsed.content) == "Elapsed    1m"  # then whole minutes
        assert table.get_cell(task.task_id, "elapsed").plain == "1m"
        assert "1m" in screen_text(app)
        drawn, updates = table.cells_drawn, table.table_updates
        for _ in range(3):  # 30 seconds more: still 1m, nothing drawn
            clock.now += 10
            screen._tick()
            await pilot.pause()
        await pilot.pause()
        assert (table.cells_drawn, table.table_updates) == (drawn, updates)
        assert str(elapsed.content) == "Elapsed    1m"
        clock.now += 30
        screen._tick()
        await pilot.pause()
        assert str(elapsed.content) == "Elapsed    2m"
        assert table.get_cell(task.task_id, "elapsed").plain == "2m"
