"""Migration monitor: start a template migration and watch every task of the session.

The app keeps the watching (`VagentApp.watch_task`): polling goes on while other screens
show, and the app calls `MigrationsScreen.task_changed` on every update. This screen
only starts tasks and shows them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from rich.text import Text
from textual import events, work
from textual.binding import Binding, BindingType
from textual.containers import Container, Horizontal, Vertical, VerticalScroll
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Button, Checkbox, DataTable, OptionList, SelectionList, Static
from textual.widgets.option_list import Option

from vagent_tui.api.errors import PlatformError
from vagent_tui.api.models import MigrationRequest, Template
from vagent_tui.api.scope import ScopeLevel
from vagent_tui.api.targets import Target
from vagent_tui.services.migrations import WatchedTask
from vagent_tui.ui.caps import ROW_CAP
from vagent_tui.ui.palette import FAILED, FAILED_STRONG, WARN_STRONG
from vagent_tui.ui.screens.base import BaseScreen
from vagent_tui.ui.text import safe
from vagent_tui.ui.widgets.migration_rows import (
    TasksTable,
    force_modal,
    real_run_modal,
    task_detail,
    template_label,
)
from vagent_tui.ui.widgets.status import describe_error, outcome_unknown

WIDE = 140


class MigrationsScreen(BaseScreen):
    """Template migrations: start (dry run by default), watch, review."""

    TITLE = "Migrations"
    CSS_PATH = "migrations.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "start", "Start", id="migrations.start", tooltip="Start the migration"),
        Binding(
            "d", "toggle_dry_run", "Dry run", id="migrations.dry-run", tooltip="Dry run on/off"
        ),
        Binding(
            "f",
            "toggle_force",
            "Force",
            id="migrations.force",
            tooltip="Replace customer overrides on/off",
        ),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.templates: list[Template] = []
        self.templates_error: str | None = None
        self.starting = False
        self._ticker: Timer | None = None
        self._detail_shape: tuple[object, ...] | None = None
        self._sections_for: tuple[str | None] | None = None
        """The template whose sections the list shows (a 1-tuple; None: not filled yet)."""

    def compose_body(self) -> Iterable[Widget]:
        with Horizontal(id="mig-form"):
            with Vertical(id="mig-templates-pane"):
                yield Static("Template", classes="pane-title")
                yield OptionList(id="mig-templates", compact=True, markup=False)
            with Vertical(id="mig-sections-pane"):
                yield Static("Sections (none=all)", classes="pane-title")
                yield SelectionList[str](id="mig-sections", compact=True)
            with Vertical(id="mig-options"):
                yield Checkbox("Dry run", True, id="mig-dry-run", compact=True)
                yield Checkbox("Force overrides", False, id="mig-force", compact=True)
                yield Static("", id="mig-plan", markup=False)
                yield Button("Start (s)", id="mig-start", variant="primary", compact=True)
        with Container(id="mig-tasks-body"):
            yield TasksTable(id="mig-tasks", cursor_type="row", zebra_stripes=True)
            with VerticalScroll(id="mig-task-detail"):
                yield Static(task_detail(None, 0.0), id="mig-task-detail-text", markup=False)

    def on_mount(self) -> None:
        # Immediate: the row of a task the screen has just started exists before it
        # moves its cursor there (the default posts the callback for later).
        self.vapp.task_changed_signal.subscribe(self, self.task_changed, immediate=True)
        for task in self.vapp.watcher.tasks.values():
            self.task_changed(task)
        self._layout(self.size.width)
        self._plan()
        self._ticker = self.set_interval(1.0, self._tick)
        self.query_one("#mig-templates", OptionList).focus()

    def on_screen_resume(self) -> None:
        if self._ticker is not None:
            self._ticker.resume()
            self._tick()

    def on_screen_suspend(self) -> None:
        if self._ticker is not None:
            self._ticker.pause()

    def on_resize(self, event: events.Resize) -> None:
        self._layout(event.size.width)

    def _layout(self, width: int) -> None:
        self.set_class(width >= WIDE, "-wide")

    # ------------------------------------------------------------------ templates

    def reload(self) -> None:
        self._load_templates()

    @work(exclusive=True, group="migrations-templates", exit_on_error=False)
    async def _load_templates(self) -> None:
        options = self.query_one("#mig-templates", OptionList)

        def failed(exc: PlatformError) -> None:
            self.templates, self.templates_error = [], exc.message
            options.clear_options()
            options.add_option(Option(safe(exc.message, style=FAILED), disabled=True))
            self._show_sections(None)
            self.status.error(exc)

        ok, templates = await self.load(
            # A reseller's resource: a reseller target goes by targetResellerId (rule 9).
            lambda c: c.api.list_templates(target=c.target_at(ScopeLevel.RESELLER)),
            note="Loading templates",
            busy=options,
            on_error=failed,
        )
        if not ok or templates is None:
            return
        keep = self.selected_template
        # One option per template id (an option list refuses a repeated id), capped.
        by_id: dict[str, Template] = {}
        for template in templates:
            by_id.setdefault(template.id, template)
        templates = list(by_id.values())[:ROW_CAP]
        self.templates, self.templates_error = templates, None
        options.clear_options()
        options.add_options(Option(template_label(t), id=t.id) for t in templates)
        if not templates:
            options.add_option(Option(Text("No templates for this account", "dim"), disabled=True))
            self._show_sections(None)
        else:
            ids = [t.id for t in templates]
            options.highlighted = ids.index(keep.id) if keep and keep.id in ids else 0
        self.status.info(f"{len(templates)} template(s). Pick one, set the options, press s.")

    @property
    def selected_template(self) -> Template | None:
        options = self.query_one("#mig-templates", OptionList)
        index = options.highlighted
        if index is None or self.templates_error or not 0 <= index < len(self.templates):
            return None
        return self.templates[index]

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        self._show_sections(self.selected_template)

    def _show_sections(self, template: Template | None) -> None:
        sections = self.query_one("#mig-sections", SelectionList)
        wanted = template.id if template else None
        if self._sections_for == (wanted,):
            return
        self._sections_for = (wanted,)
        sections.clear_options()
        for name in template.sections if template else []:
            sections.add_option((safe(name), name))
        if sections.option_count:
            sections.highlighted = 0
        self._plan()

    # ------------------------------------------------------------------ options

    def _plan(self) -> None:
        dry = self.query_one("#mig-dry-run", Checkbox).value
        force = self.query_one("#mig-force", Checkbox).value
        picked = self.query_one("#mig-sections", SelectionList).selected
        text = Text("dry run" if dry else "REAL RUN", style="" if dry else WARN_STRONG)
        text.append(f" · {len(picked)} section(s)" if picked else " · all sections")
        if force:
            text.append(" · replaces overrides", style=FAILED_STRONG)
        self.query_one("#mig-plan", Static).update(text)

    def on_checkbox_changed(self, event: Checkbox.Changed) -> None:
        event.stop()
        self._plan()

    def on_selection_list_selected_changed(self, event: SelectionList.SelectedChanged[str]) -> None:
        event.stop()
        self._plan()

    def action_toggle_dry_run(self) -> None:
        self.query_one("#mig-dry-run", Checkbox).toggle()

    def action_toggle_force(self) -> None:
        self.query_one("#mig-force", Checkbox).toggle()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "mig-start":
            event.stop()
            self.action_start()

    # ------------------------------------------------------------------ starting

    def action_start(self) -> None:
        template = self.selected_template
        if template is None:
            self.status.error(self.templates_error or "Pick a template first", retry_key=None)
            return
        if self.starting:
            self.status.info("A start is already under way")
            return
        self.starting = True
        self._start(
            template,
            list(self.query_one("#mig-sections", SelectionList).selected),
            self.query_one("#mig-dry-run", Checkbox).value,
            self.query_one("#mig-force", Checkbox).value,
            self.connection.target_at(ScopeLevel.RESELLER),
        )

    @work(group="write-migrations-start", exit_on_error=False)
    async def _start(
        self,
        template: Template,
        sections: list[str],
        dry_run: bool,
        force: bool,
        target: Target | None,
    ) -> None:
        if self.busy_writing():
            return
        try:
            await self._confirm_and_send(template, sections, dry_run, force, target)
        finally:
            self.starting = False

    async def _confirm_and_send(
        self,
        template: Template,
        sections: list[str],
        dry_run: bool,
        force: bool,
        target: Target | None,
    ) -> None:
        name = template.name or template.id
        if not dry_run:
            tried = any(t.template_id == template.id and t.dry_run for t in self._tasks())
            if not await self.app.push_screen_wait(real_run_modal(template, sections, tried)):
                self.status.info("Migration cancelled; nothing was sent.")
                return
            if force and await self.app.push_screen_wait(force_modal(template)) is None:
                self.status.info("Migration cancelled; nothing was sent.")
                return
        if target != self.connection.target_at(ScopeLevel.RESELLER):
            self.status.info("The target account changed meanwhile; nothing was sent.")
            return
        request = MigrationRequest(
            dry_run=dry_run, sections_to_migrate=sections, force_migrate_overridden_fields=force
        )
        kind = "Dry run" if dry_run else "Migration"
        self.status.busy(f"Starting the {kind.lower()} of {name}")
        try:
            reply = await self.connection.api.migrate(template.id, request, target=target)
        except PlatformError as exc:
            if outcome_unknown(exc) and not dry_run:
                # A real run may be queued now; the platform lists no tasks to check.
                self.status.error(
                    f"{describe_error(exc)} — a migration of {name} may be running: check its "
                    "agents (or ask the platform) before starting it again",
                    retry_key=None,
                )
                return
            self.status.error(exc, retry_key="s")  # a dry run changes nothing: safe again
            return
        if not reply.is_task:
            message = f"Nothing to migrate: every agent of {name} is up to date."
            self.status.ok(message)
            self.notify(message, markup=False)
            return
        if reply.dry_run is None:
            reply.dry_run = dry_run
        task = self.vapp.watch_task(reply, name)
        self.status.ok(reply.message or f"{kind} of {name} queued ({task.task_id})")
        table = self.query_one("#mig-tasks", DataTable)
        table.move_cursor(row=table.get_row_index(task.task_id))

    # ------------------------------------------------------------------ tasks

    def _tasks(self) -> list[WatchedTask]:
        return list(self.vapp.watcher.tasks.values())

    def task_changed(self, task: WatchedTask) -> None:
        """Called by the app on every update of a watched task: changed cells only."""
        if not self.is_mounted:
            return
        table = self.query_one("#mig-tasks", TasksTable)
        with self.app.batch_update():
            added = table.upsert(task, self.vapp.watcher.clock())
        if added or table.highlighted_id == task.task_id:
            self._show_detail(layout=added or None)

    def _tick(self) -> None:
        """Once a second, while showing: the elapsed time of running tasks."""
        running = [t for t in self._tasks() if not t.final]
        if not self.is_current or not running:
            return
        self.query_one("#mig-tasks", TasksTable).tick(running, self.vapp.watcher.clock())
        # Only the elapsed time (one short line) changed: no layout of the screen needed.
        self._show_detail(layout=False)

    def _show_detail(self, *, layout: bool | None = True) -> None:
        """Show the highlighted task; ``layout=None``: only if its lines may have changed."""
        task_id = self.query_one("#mig-tasks", TasksTable).highlighted_id
        task = self.vapp.watcher.tasks.get(task_id or "")
        # What decides the pane's lines: a poll that changed only the values of the
        # counts (not how many digits they have) needs no layout of the screen.
        shape = None
        if task is not None:
            c = task.counts
            digits = None
            if c is not None:
                values: tuple[int | None, ...] = (c.total, c.processed, c.changed, c.skipped)
                values += (c.overrides_kept, c.overrides_replaced)
                digits = tuple(len(str(v)) for v in values)
            shape = (task.task_id, len(task.history), task.error, task.message, digits)
        if layout is None:
            layout = shape != self._detail_shape
        self._detail_shape = shape
        detail = task_detail(task, self.vapp.watcher.clock())
        self.query_one("#mig-task-detail-text", Static).update(detail, layout=layout)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        self._show_detail()
