"""Rendering watched migration tasks (table cells with glyph + colour, the detail pane)
and the dialogs that guard a real run."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.coordinate import Coordinate
from textual.widgets import DataTable
from textual.widgets.data_table import ColumnKey, RowKey

from vagent_tui.api.models import Template
from vagent_tui.services.migrations import WatchedTask
from vagent_tui.ui.dialogs import ConfirmModal, PromptModal
from vagent_tui.ui.format import fmt_duration
from vagent_tui.ui.palette import FAILED, OK, RUNNING, UNKNOWN, WARN, WARN_STRONG
from vagent_tui.ui.text import safe
from vagent_tui.ui.textual_compat import refresh_cell

COLUMNS: tuple[tuple[str, str], ...] = (
    ("template", "Template"),
    ("run", "Run"),
    ("status", "Status"),
    ("elapsed", "Elapsed"),
    ("done", "Done"),
    ("changed", "Chg"),
    ("skipped", "Skip"),
    ("kept", "Kept"),
    ("replaced", "Repl"),
    ("error", "Last error"),
)

_STATUS = {
    "queued": ("◷", WARN),
    "running": ("⟳", RUNNING),
    "completed": ("✓", OK),
    "succeeded": ("✓", OK),
    "success": ("✓", OK),
    "done": ("✓", OK),
    "failed": ("✗", FAILED),
    "error": ("✗", FAILED),
    "cancelled": ("⊘", FAILED),
    "canceled": ("⊘", FAILED),
    "gone": ("⊘", WARN),  # the platform no longer knows the task: not polled any more
}


def status_text(status: str) -> Text:
    """Glyph + word + colour; an unknown status reads ``? <status>`` (palette.UNKNOWN)."""
    glyph, colour = _STATUS.get(status.lower(), ("?", UNKNOWN))
    return safe(f"{glyph} {status}", style=colour)


def run_text(dry_run: bool) -> Text:
    return Text("dry run", style="dim") if dry_run else Text("REAL", style=WARN_STRONG)


def template_label(template: Template) -> Text:
    """``Dental reception · rev 4 · 2 agents``: the name as the server sent it."""
    text = safe(template.name or template.id)
    if template.revision is not None:
        text.append(f" · rev {template.revision}", style="dim")
    if template.agent_count is not None:
        noun = "agent" if template.agent_count == 1 else "agents"
        text.append(f" · {template.agent_count} {noun}", style="dim")
    return text


def _count(value: int | None) -> str:
    return "—" if value is None else str(value)


def task_cells(task: WatchedTask, now: float) -> dict[str, Text]:
    counts = task.counts
    done = "—"
    if counts is not None and counts.processed is not None:
        done = f"{counts.processed}/{_count(counts.total)}"
    error = safe(f"⚠ {task.error}", style=FAILED) if task.error else Text("")
    return {
        "template": safe(task.template_name or task.template_id),
        "run": run_text(task.dry_run),
        "status": status_text(task.status),
        "elapsed": Text(fmt_duration(task.elapsed(now))),
        "done": Text(done),
        "changed": Text(_count(counts.changed if counts else None)),
        "skipped": Text(_count(counts.skipped if counts else None)),
        "kept": Text(_count(counts.overrides_kept if counts else None)),
        "replaced": Text(_count(counts.overrides_replaced if counts else None)),
        "error": error,
    }


def task_detail(task: WatchedTask | None, now: float) -> RenderableType:
    """Everything seen of a task: status, message, counts, the history of status changes."""
    if task is None:
        return Text(
            "No migration started in this session. Type a template id (i) or pick one, then s.",
            "dim",
        )
    grid = Table.grid(padding=(0, 1), expand=True)
    grid.add_column(style="bold", no_wrap=True)
    grid.add_column(ratio=1, overflow="fold")
    grid.add_row("Task", safe(task.task_id))
    grid.add_row("Template", safe(f"{task.template_name} ({task.template_id})"))
    grid.add_row("Run", run_text(task.dry_run))
    grid.add_row("Status", status_text(task.status))
    grid.add_row("Message", safe(task.message or "—"))
    grid.add_row("Elapsed", Text(fmt_duration(task.elapsed(now))))
    c = task.counts
    if c is not None:
        grid.add_row(
            "Counts",
            Text(
                f"processed {_count(c.processed)}/{_count(c.total)} · changed {_count(c.changed)}"
                f" · skipped {_count(c.skipped)} · overrides kept {_count(c.overrides_kept)}"
                f" · replaced {_count(c.overrides_replaced)}"
            ),
        )
    if task.error:
        grid.add_row("Last error", safe(f"⚠ {task.error} (still polling)", style=FAILED))
    grid.add_row("Endpoint", safe(task.endpoint))
    history = Table.grid(padding=(0, 1))
    history.add_column(justify="right", style="dim")
    history.add_column()
    for status, moment in task.history:
        history.add_row(f"+{moment - task.started:.1f}s", status_text(status))
    return Group(grid, Text("History", style="bold"), history)


def real_run_modal(template: Template, sections: list[str], dry_run_seen: bool) -> ConfirmModal:
    """Confirmation of a real run, naming the template; the cancel button has the focus."""
    name = template.name or template.id
    scope = ", ".join(sections) if sections else "every section"
    note = "" if dry_run_seen else "\nNo dry run of this template was run in this session."
    # A typed id names no revision: the platform migrates to the template's current one.
    revision = (
        "its current revision" if template.revision is None else f"revision {template.revision}"
    )
    body = (
        f"Migrate the agents of template {name} ({template.id}) to {revision} for real: "
        f"{scope}. This changes live agent configurations.{note}"
    )
    return ConfirmModal(f"Run the migration of {name}?", body, confirm_label="Migrate")


def force_modal(template: Template) -> PromptModal:
    """Type-to-confirm before customer overrides are replaced."""
    name = template.name or template.id
    return PromptModal(
        "Replace customer overrides?",
        f"Fields customers changed on their agents will be overwritten by {name}. "
        f"Type the template id {template.id} to confirm.",
        placeholder=template.id,
        confirm_label="Replace overrides",
        expected=template.id,
    )


class TasksTable(DataTable[Text]):
    """One keyed row per watched task; an update touches only the cells that changed."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._seen: dict[str, dict[str, tuple[str, str]]] = {}
        for key, label in COLUMNS:
            self.add_column(label, key=key)

    @property
    def highlighted_id(self) -> str | None:
        if not self.row_count:
            return None
        return self.coordinate_to_cell_key(Coordinate(self.cursor_row, 0)).row_key.value

    def upsert(self, task: WatchedTask, now: float) -> bool:
        """Add the task's row, or update its changed cells; True when the row is new."""
        cells = task_cells(task, now)
        seen = self._seen.get(task.task_id)
        if seen is None:
            self.add_row(*(cells[key] for key, _ in COLUMNS), key=task.task_id)
        else:
            for key, value in cells.items():
                if seen.get(key) != (value.plain, str(value.style)):
                    # A wider column costs a layout of the whole screen: only when needed.
                    wider = value.cell_len > self.columns[ColumnKey(key)].content_width
                    self.set_cell(task.task_id, key, value, update_width=wider)
        self._seen[task.task_id] = {k: (v.plain, str(v.style)) for k, v in cells.items()}
        return seen is None

    def tick(self, tasks: list[WatchedTask], now: float) -> None:
        """Only the elapsed cells of ``tasks``."""
        for task in tasks:
            seen = self._seen.get(task.task_id)
            if seen is None:
                continue
            value = task_cells(task, now)["elapsed"]
            if seen["elapsed"][0] != value.plain:
                wider = value.cell_len > self.columns[ColumnKey("elapsed")].content_width
                self.set_cell(task.task_id, "elapsed", value, update_width=wider)
                seen["elapsed"] = (value.plain, str(value.style))

    def set_cell(self, row: str, column: str, value: Text, *, update_width: bool = False) -> None:
        """Replace one cell; a wider value lays the columns out again (every row moves).

        The monitor changes a cell or two per tick or poll: `refresh_cell` renders only
        that cell again (most of the monitor's idle CPU otherwise, bench/idle.py).
        """
        if update_width:
            self.update_cell(row, column, value, update_width=True)
        else:
            refresh_cell(self, RowKey(row), ColumnKey(column), value)
