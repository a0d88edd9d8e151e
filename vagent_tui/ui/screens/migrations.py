"""Migration monitor: start a template migration and watch every task of the session.

The template is the id in the field at the top (``t`` goes there): typed, or filled by
picking a template in the list under it. The spec lists no templates, so the list is a
help where the platform offers one (the simulator does, ``GET /templates``); when the
list fails or the route is absent, a typed id still starts a migration, with its
sections typed too. Ids a migration was started from are remembered per platform
(`vagent_tui.services.migrations.RecentTemplates`) and offered under the list.

The app keeps the watching (`VagentApp.watch_task`): polling goes on while other screens
show, and the app calls `MigrationsScreen.task_changed` on every update. This screen
only starts tasks and shows them. The templates offered are `migrations_state`'s
`TemplateChoices`, tested without an app.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from rich.text import Text
from textual import work
from textual.binding import Binding, BindingType
from textual.containers import Container, Horizontal, Vertical, VerticalScroll
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import (
    Button,
    Checkbox,
    DataTable,
    Input,
    OptionList,
    SelectionList,
    Static,
)
from textual.widgets.option_list import Option

from vagent_tui.api.errors import ApiError, PlatformError
from vagent_tui.api.models import MigrationRequest, MigrationTask, Template
from vagent_tui.api.scope import ScopeLevel
from vagent_tui.api.targets import Target, target_param
from vagent_tui.services.migrations import (
    TEMPLATE_ID_LIMIT,
    RecentTemplates,
    WatchedTask,
    template_id_problem,
)
from vagent_tui.ui.colours import FAILED_STRONG, WARN_STRONG
from vagent_tui.ui.safety import DESTRUCTIVE, Key
from vagent_tui.ui.screens.base import BaseScreen
from vagent_tui.ui.screens.migrations_state import (
    NO_LIST,
    TemplateChoices,
    detail_shape,
    typed_sections,
)
from vagent_tui.ui.text import safe
from vagent_tui.ui.widgets.migration_rows import (
    TasksTable,
    elapsed_line,
    force_modal,
    real_run_modal,
    task_detail,
)
from vagent_tui.ui.widgets.status import describe_error
from vagent_tui.ui.widgets.table_filter import filter_binding
from vagent_tui.ui.writes import Write, Written
from vagent_tui.words import counted


class MigrationsScreen(BaseScreen):
    """Template migrations: start (dry run by default), watch, review."""

    TITLE = "Migrations"
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (140, "-wide")]
    CSS_PATH = "migrations.tcss"
    AUTO_FOCUS = "#mig-templates"  # keys s, t, f work at once; i goes to the id field
    BINDINGS: ClassVar[list[BindingType]] = [
        Key(
            "s",
            "start",
            "Start",
            id="migrations.start",
            tooltip="Start the migration",
            does=DESTRUCTIVE,
        ),
        Binding(
            "t",
            "toggle_dry_run",
            "Dry run",
            id="migrations.dry-run",
            tooltip="Dry run on/off (t: try first)",
        ),
        Binding(
            "f",
            "toggle_force",
            "Force",
            id="migrations.force",
            tooltip="Replace customer overrides on/off",
        ),
        Binding("i", "type_id", "Type id", id="migrations.type-id", tooltip="Type a template id"),
        Binding(
            "escape",
            "leave_field",
            "Leave field",
            id="migrations.leave",
            tooltip="Leave the field for the template list",
        ),
        filter_binding("migrations"),  # last: the footer drops it first
    ]

    def __init__(self) -> None:
        super().__init__()
        self.choices = TemplateChoices()
        self.recent_store = RecentTemplates()
        self.starting = False
        self._ticker: Timer | None = None
        self._detail_shape: tuple[object, ...] | None = None
        self._detail_elapsed: str | None = None
        """The elapsed line the detail pane shows (a tick that would not change it skips)."""
        self._sections_for: tuple[str | None] | None = None
        """The template whose sections the list shows (a 1-tuple; None: not filled yet)."""

    @property
    def templates(self) -> list[Template]:
        """The templates the platform lists (empty when it lists none)."""
        return self.choices.templates

    @property
    def templates_error(self) -> str | None:
        return self.choices.error

    def compose_body(self) -> Iterable[Widget]:
        with Horizontal(id="mig-form"):
            with Vertical(id="mig-templates-pane"):
                yield Static("Template id (i)", classes="pane-title")
                yield Input(
                    placeholder="type an id, or pick one below",
                    id="mig-template-id",
                    compact=True,
                    max_length=TEMPLATE_ID_LIMIT,
                )
                yield OptionList(id="mig-templates", compact=True, markup=False)
            with Vertical(id="mig-sections-pane"):
                yield Static("Sections (none=all)", classes="pane-title")
                yield SelectionList[str](id="mig-sections", compact=True)
                yield Input(placeholder="a, b (empty: all)", id="mig-sections-typed", compact=True)
            with Vertical(id="mig-options"):
                yield Checkbox("Dry run", True, id="mig-dry-run", compact=True)
                yield Checkbox("Force overrides", False, id="mig-force", compact=True)
                yield Static("", id="mig-plan", markup=False)
                yield Button("Start (s)", id="mig-start", variant="primary", compact=True)
        with Container(id="mig-tasks-body"):
            yield TasksTable(id="mig-tasks", cursor_type="row", zebra_stripes=True)
            with VerticalScroll(id="mig-task-detail"):
                yield Static("", id="mig-task-elapsed", markup=False)
                yield Static(task_detail(None), id="mig-task-detail-text", markup=False)

    def on_mount(self) -> None:
        # Immediate: the row of a task the screen has just started exists before it
        # moves its cursor there (the default posts the callback for later).
        self.query_one("#mig-tasks", TasksTable).clock = self.vapp.watcher.clock
        self.vapp.task_changed_signal.subscribe(self, self.task_changed, immediate=True)
        for task in self.vapp.watcher.tasks.values():
            self.task_changed(task)
        self.apply_breakpoints()
        self._plan()
        self._ticker = self.set_interval(1.0, self._tick)

    def on_screen_resume(self) -> None:
        if self._ticker is not None:
            self._ticker.resume()
            self._tick()

    def on_screen_suspend(self) -> None:
        if self._ticker is not None:
            self._ticker.pause()

    # ------------------------------------------------------------------ templates

    def reload(self) -> None:
        self.choices.recent = self.recent_store.load(self.connection.api.host)
        self._load_templates()

    @work(exclusive=True, group="migrations-templates", exit_on_error=False)
    async def _load_templates(self) -> None:
        options = self.query_one("#mig-templates", OptionList)

        def failed(exc: PlatformError) -> None:
            if isinstance(exc, ApiError) and exc.status == 404:
                # No list route on this platform (the spec has none): ids are typed.
                self.choices.not_listed(NO_LIST)
                self._fill_options()
                why = describe_error(exc)
                # The focus stays on the list: keys (1-0 to the screens, s, t, f) stay keys
                # until the user chooses the field (i, a click, tab).
                self.status.info(f"{NO_LIST}; enter there starts a dry run ({why})")
                return
            self.choices.not_listed(exc.message)
            self._fill_options()
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
        self.choices.listed_now(templates)
        if first := self.choices.to_fill(self.query_one("#mig-template-id", Input).value):
            self._fill(first)  # the first listed, unless an id was typed
        self._fill_options()
        count = len(self.templates)
        self.status.info(
            f"{counted(count, 'template')}. Pick one or type an id (i), set the options, s."
        )

    def _fill_options(self) -> None:
        """The listed templates (or why there are none), then the recent ids not listed."""
        options = self.query_one("#mig-templates", OptionList)
        items = [Option(e.label, id=e.option_id, disabled=e.option_id is None)
                 for e in self.choices.entries()]  # fmt: skip
        options.clear_options()
        options.add_options(items)
        self._sync_template()

    @property
    def typed_id(self) -> str:
        return self.query_one("#mig-template-id", Input).value.strip()

    @property
    def selected_template(self) -> Template | None:
        """The template the id field names: listed (name, revision, sections), or only typed."""
        return self.choices.selected(self.typed_id)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        choice = self.choices.choice(event.option_index)
        if choice is not None and self.typed_id != choice:
            self._fill(choice)

    def _fill(self, template_id: str) -> None:
        """Put a picked id in the field (its Changed event shows the template's sections).

        An input shows its value as it is, escape sequences included: an id holding
        control characters (which no template id can hold, `template_id_problem`) goes in
        as its inert picture, which names no listed template.
        """
        self.query_one("#mig-template-id", Input).value = self.choices.fill(template_id)

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        if event.input.id == "mig-template-id":
            self._sync_template()
        else:
            self._plan()

    async def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter in a field starts (a dry run unless switched off), as ``s`` does: through
        the app, which refuses it on a read-only profile."""
        event.stop()
        await self.app.run_action("start", self)

    def _sync_template(self) -> None:
        """The list's highlight and the sections follow the id in the field."""
        typed = self.typed_id
        template = self.choices.listed(typed)
        self.set_class(template is None and bool(typed), "-typed")
        options = self.query_one("#mig-templates", OptionList)
        if typed in self.choices.choices:
            index = self.choices.choices.index(typed)
            if options.highlighted != index:
                options.highlighted = index
        elif options.highlighted is not None:
            options.highlighted = None
        self._show_sections(template)

    def _show_sections(self, template: Template | None) -> None:
        sections = self.query_one("#mig-sections", SelectionList)
        wanted = template.id if template else None
        if self._sections_for == (wanted,):
            self._plan()
            return
        self._sections_for = (wanted,)
        sections.clear_options()
        for name in template.sections if template else []:
            sections.add_option((safe(name), name))
        if sections.option_count:
            sections.highlighted = 0
        self._plan()

    def _sections(self) -> list[str]:
        """The sections to migrate: ticked for a listed template, typed for another."""
        if not self.has_class("-typed"):
            return list(self.query_one("#mig-sections", SelectionList).selected)
        typed = self.query_one("#mig-sections-typed", Input).value
        return typed_sections(typed)

    def action_type_id(self) -> None:
        self.query_one("#mig-template-id", Input).focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "leave_field":  # shown (and run) only from a field
            return isinstance(self.focused, Input)
        return super().check_action(action, parameters)

    def action_leave_field(self) -> None:
        if isinstance(self.focused, Input):
            self.query_one("#mig-templates", OptionList).focus()

    # ------------------------------------------------------------------ options

    def _plan(self) -> None:
        dry = self.query_one("#mig-dry-run", Checkbox).value
        force = self.query_one("#mig-force", Checkbox).value
        picked = self._sections()
        text = Text("dry run" if dry else "REAL RUN", style="" if dry else WARN_STRONG)
        text.append(f" · {counted(len(picked), 'section')}" if picked else " · all sections")
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
        problem = template_id_problem(self.typed_id)
        template = self.selected_template
        if problem is not None or template is None:
            self.status.error(problem or "Pick a template first", retry_key=None)
            return
        if self.starting:
            self.status.info("A start is already under way")
            return
        self.starting = True
        self._start(
            template,
            self._sections(),
            self.query_one("#mig-dry-run", Checkbox).value,
            self.query_one("#mig-force", Checkbox).value,
            self.connection.target_at(ScopeLevel.RESELLER),
        )

    def _start(
        self,
        template: Template,
        sections: list[str],
        dry_run: bool,
        force: bool,
        target: Target | None,
    ) -> None:
        """A real run asks first (and again, typed, to replace customer overrides); a
        dry run changes nothing and is sent at once. Through the write path."""
        name = template.name or template.id
        kind = "Dry run" if dry_run else "Migration"
        request = MigrationRequest(
            dry_run=dry_run, sections_to_migrate=sections, force_migrate_overridden_fields=force
        )

        async def confirm() -> bool:
            tried = any(t.template_id == template.id and t.dry_run for t in self._tasks())
            if not await self.app.push_screen_wait(real_run_modal(template, sections, tried)):
                self.status.info("Migration cancelled; nothing was sent.")
                return False
            if force and await self.app.push_screen_wait(force_modal(template)) is None:
                self.status.info("Migration cancelled; nothing was sent.")
                return False
            return True

        def failed(exc: PlatformError) -> str:
            if isinstance(exc, ApiError) and exc.status == 404:
                # Sending the same id again will not find it: the id is what to change.
                return f"{describe_error(exc)}: check the id (i)"
            return describe_error(exc)

        def after(written: Written[MigrationTask]) -> None:
            self.starting = False
            reply = written.result
            if reply is None:
                return
            self._remember(template.id, target_param(target)[1] if target is not None else None)
            if not reply.is_task:
                message = f"Nothing to migrate: every agent of {name} is up to date."
                self.status.ok(message)
                self.notify_if_away(message)
                return
            if reply.dry_run is None:
                reply.dry_run = dry_run
            task = self.vapp.watch_task(reply, name)
            self.status.ok(reply.message or f"{kind} of {name} queued ({task.task_id})")
            table = self.query_one("#mig-tasks", DataTable)
            table.move_cursor(row=table.get_row_index(task.task_id))

        worker = self.write(
            Write[MigrationTask](
                "migrations-start",
                f"Starting the {kind.lower()} of {name}",
                lambda c: c.api.migrate(template.id, request, target=target),
                confirm=None if dry_run else confirm,
                # A real run may be queued now; the platform lists no tasks to check.
                unsure=f"— a migration of {name} may be running: check its agents (or ask "
                "the platform) before starting it again"
                if not dry_run
                else "A dry run changes nothing: s starts it again.",
                failed=failed,
                retry_key=lambda exc: (
                    None if isinstance(exc, ApiError) and exc.status == 404 else "s"
                ),  # a dry run changes nothing: safe again
                after=after,
            )
        )
        if worker is None:
            self.starting = False

    def _remember(self, template_id: str, target: int | None) -> None:
        """The platform took the id: offer it again (here and in later sessions)."""
        host = self.connection.api.host
        self.recent_store.remember(host, template_id, target)
        if self.recent_store.error:
            self.notify(self.recent_store.error, severity="warning", markup=False)
        self.choices.recent = self.recent_store.load(host)
        self._fill_options()

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
        """Once a second, while showing: the elapsed times on screen that changed."""
        if not self.is_current:
            return
        table = self.query_one("#mig-tasks", TasksTable)
        table.tick(self.vapp.watcher.clock())
        task = self.vapp.watcher.tasks.get(table.highlighted_id or "")
        if task is not None and not task.final:
            self._show_elapsed(task)

    def _show_elapsed(self, task: WatchedTask | None) -> None:
        """The detail pane's first line (a widget of its own: a tick draws only it)."""
        line = elapsed_line(task, self.vapp.watcher.clock())
        if line.plain != self._detail_elapsed:
            self._detail_elapsed = line.plain
            elapsed = self.query_one("#mig-task-elapsed", Static)
            if elapsed.display != (task is not None):
                # Set only when it changes: setting it lays the whole screen out again.
                elapsed.display = task is not None
            elapsed.update(line, layout=False)

    def _show_detail(self, *, layout: bool | None = True) -> None:
        """Show the highlighted task; ``layout=None``: only if its lines may have changed."""
        task_id = self.query_one("#mig-tasks", TasksTable).highlighted_id
        task = self.vapp.watcher.tasks.get(task_id or "")
        shape = detail_shape(task)  # a poll that changed only values needs no layout
        if layout is None:
            layout = shape != self._detail_shape
        self._detail_shape = shape
        self._show_elapsed(task)
        detail = task_detail(task)
        self.query_one("#mig-task-detail-text", Static).update(detail, layout=layout)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        self._show_detail()
