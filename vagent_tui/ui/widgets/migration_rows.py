"""Rendering watched migration tasks (table cells with glyph + colour, the detail pane)
and the dialogs that guard a real run."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from rich.console import Group, RenderableType
from rich.segment import Segment
from rich.table import Table
from rich.text import Text
from textual.coordinate import Coordinate
from textual.strip import Strip
from textual.widgets.data_table import ColumnKey, RowKey

from vagent_tui.api.models import Template
from vagent_tui.services.migrations import WatchedTask
from vagent_tui.ui.colours import FAILED, OK, RUNNING, UNKNOWN, WARN, WARN_STRONG
from vagent_tui.ui.dialogs import ConfirmModal, PromptModal
from vagent_tui.ui.format import fmt_counting, fmt_duration
from vagent_tui.ui.text import inert, safe
from vagent_tui.ui.widgets.tables import SafeTable

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
    """Glyph + word + colour; an unknown status reads ``? <status>`` (colours.UNKNOWN)."""
    glyph, colour = _STATUS.get(status.lower(), ("?", UNKNOWN))
    return safe(f"{glyph} {status}", style=colour)


def run_text(dry_run: bool) -> Text:
    return Text("dry run", style="dim") if dry_run else Text("REAL", style=WARN_STRONG)


def template_label(template: Template) -> Text:
    """``Dental reception · rev 4 · 2 agents``: the name as the server sent it.

    A revision may come as text (the model takes ``int | str``): inert like the name.
    """
    text = safe(template.name or template.id)
    if template.revision is not None:
        text.append(f" · rev {inert(template.revision)}", style="dim")
    if template.agent_count is not None:
        noun = "agent" if template.agent_count == 1 else "agents"
        text.append(f" · {inert(template.agent_count)} {noun}", style="dim")
    return text


def _count(value: int | None) -> str:
    return "—" if value is None else str(value)


def task_cells(task: WatchedTask, now: float) -> dict[str, Text]:
    counts = task.counts
    done = "—"
    if counts is not None and counts.processed is not None:
        done = f"{_count(counts.processed)}/{_count(counts.total)}"
    error = safe(f"⚠ {task.error}", style=FAILED) if task.error else Text("")
    return {
        "template": safe(task.template_name or task.template_id),
        "run": run_text(task.dry_run),
        "status": status_text(task.status),
        "elapsed": Text(elapsed_cell(task, now)),
        "done": Text(done),
        "changed": Text(_count(counts.changed if counts else None)),
        "skipped": Text(_count(counts.skipped if counts else None)),
        "kept": Text(_count(counts.overrides_kept if counts else None)),
        "replaced": Text(_count(counts.overrides_replaced if counts else None)),
        "error": error,
    }


LABEL_WIDTH = len("Last error")
"""The detail's label column: as wide whatever the rows, so the elapsed line above it
(`elapsed_line`, a widget of its own that ticks alone) lines up with it."""


def elapsed_cell(task: WatchedTask, now: float) -> str:
    """A task's elapsed time: while it runs, to the second in its first minute and then
    to the minute (`fmt_counting`), so that a monitor left open over running tasks
    draws once a minute, not every second; a task that ended, its total to the second.
    The task's status and counts still change as soon as a poll sees them."""
    elapsed = task.elapsed(now)
    return fmt_duration(elapsed) if task.final else fmt_counting(elapsed)


def elapsed_line(task: WatchedTask | None, now: float) -> Text:
    """``Elapsed    12m``: the first line of the detail pane (empty without a task)."""
    if task is None:
        return Text("")
    text = Text("Elapsed".ljust(LABEL_WIDTH) + " ", style="bold")
    text.append(elapsed_cell(task, now), style="")
    return text


def task_detail(task: WatchedTask | None) -> RenderableType:
    """Everything seen of a task but its elapsed time (`elapsed_line`): status, message,
    counts, the history of status changes."""
    if task is None:
        return Text(
            "No migration started in this session. Type a template id (i) or pick one, then s.",
            "dim",
        )
    grid = Table.grid(padding=(0, 1), expand=True)
    grid.add_column(style="bold", no_wrap=True, min_width=LABEL_WIDTH)
    grid.add_column(ratio=1, overflow="fold")
    grid.add_row("Task", safe(task.task_id))
    grid.add_row("Template", safe(f"{task.template_name} ({task.template_id})"))
    grid.add_row("Run", run_text(task.dry_run))
    grid.add_row("Status", status_text(task.status))
    grid.add_row("Message", safe(task.message or "—"))
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


class TasksTable(SafeTable):
    """One keyed row per watched task; an update draws only the cells that changed.

    A running task's elapsed time is drawn from its start when its line is drawn (not
    stored in the table): a tick of the monitor redraws only the elapsed cells that are
    on screen and whose text changed, whatever the number of tasks. A plain cell that
    still fits its column (the counts of a poll) is drawn over the table's line the same
    way, so a poll of a task off screen costs no drawing at all, one on screen one cell.
    Everything else (a row added, a styled cell, a wider value) goes through
    `DataTable.update_cell`: the table is drawn again, as DataTable does.

    Rows are only ever added, at the end, one line high: the ``i``-th row given is
    ``_order[i]`` (shown row ``r`` is ``_order[source_index(r)]``: ``/`` filters them).
    """

    clock: Callable[[], float] = time.monotonic
    """The watcher's clock (tasks' ``started`` is on it); the screen sets it."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._seen: dict[str, dict[str, tuple[str, str]]] = {}
        self._tasks: dict[str, WatchedTask] = {}
        self._order: list[str] = []
        self._over: dict[str, dict[str, Text]] = {}
        """Per row, the plain cells newer than the table's own (drawn over its line)."""
        self._elapsed_drawn: dict[str, str] = {}
        """The elapsed text last drawn per row (a tick redraws only those that differ)."""
        self._drawn_lines: dict[str, tuple[Strip, tuple[object, ...], Strip]] = {}
        """Per row: the table's line, what was drawn over it, and the result."""
        self.cells_drawn = 0
        """Cells this class drew over the table's lines (tests: nothing when nothing changed)."""
        self.table_updates = 0
        """Cells changed through `DataTable.update_cell` (a draw of the whole table)."""
        for key, label in COLUMNS:
            self.add_column(label, key=key)
        self._elapsed_index = next(i for i, (k, _) in enumerate(COLUMNS) if k == "elapsed")

    @property
    def highlighted_id(self) -> str | None:
        if not self.row_count:
            return None
        return self.coordinate_to_cell_key(Coordinate(self.cursor_row, 0)).row_key.value

    def upsert(self, task: WatchedTask, now: float) -> bool:
        """Add the task's row, or update its changed cells; True when the row is new."""
        cells = task_cells(task, now)
        seen = self._seen.get(task.task_id)
        self._tasks[task.task_id] = task
        if seen is None:
            self.add_row(*(cells[key] for key, _ in COLUMNS), key=task.task_id)
            self._order.append(task.task_id)
        else:
            for key, value in cells.items():
                if key == "elapsed" and not task.final:
                    continue  # drawn from the task's start (`render_line`)
                if seen.get(key) != (value.plain, str(value.style)):
                    self.set_cell(task.task_id, key, value)
        self._seen[task.task_id] = {k: (v.plain, str(v.style)) for k, v in cells.items()}
        return seen is None

    def tick(self, now: float) -> int:
        """Repaint the elapsed column when an elapsed time on screen changed; how many did.

        The column is refreshed as one region (the whole column in view, finished rows
        included), not cell by cell: each refresh of a cell works out its region and
        marks the table dirty again, which cost more than the lines it redraws (the
        same lines are drawn either way).
        """
        first = self.scroll_offset.y
        last = min(self.row_count, first + max(0, self.size.height - self.header_height))
        redrawn = 0
        column_stale = False
        for index in range(first, last):
            source = self.source_index(index)
            if not 0 <= source < len(self._order):
                continue
            key = self._order[source]
            task = self._tasks[key]
            if task.final:
                continue
            text = elapsed_cell(task, now)
            if text == self._elapsed_drawn.get(key):
                continue
            if len(text) > self.columns[ColumnKey("elapsed")].content_width:
                self.set_cell(key, "elapsed", Text(text))  # the column widens
            else:
                column_stale = True
            redrawn += 1
        if column_stale:
            self.refresh_column(self._elapsed_index)
        return redrawn

    def set_cell(self, row: str, column: str, value: Text) -> None:
        """Replace one cell: drawn over the line when plain and narrow enough."""
        over = self._over.setdefault(row, {})
        fits = value.cell_len <= self.columns[ColumnKey(column)].content_width
        if fits and not value.style and not value.spans and self.fixed_rows == 0:
            over[column] = value
            if row not in self.rows:
                return  # not shown (filtered out): drawn when shown again
            index = self.get_row_index(row)
            self.refresh_coordinate(Coordinate(index, self._column_index(column)))
            return
        over.pop(column, None)
        self.table_updates += 1
        self.update_cell(row, column, value, update_width=not fits)

    def get_cell(self, row_key: RowKey | str, column_key: ColumnKey | str) -> Text:
        """The cell as shown (a cell drawn over the line included)."""
        row = row_key.value if isinstance(row_key, RowKey) else row_key
        column = column_key.value if isinstance(column_key, ColumnKey) else column_key
        task = self._tasks.get(row or "")
        if column == "elapsed" and task is not None and not task.final:
            return Text(elapsed_cell(task, self.clock()))
        over = self._over.get(row or "", {}).get(column or "")
        return over if over is not None else super().get_cell(row_key, column_key)

    def _column_index(self, column: str) -> int:
        return next(i for i, (k, _) in enumerate(COLUMNS) if k == column)

    def render_line(self, y: int) -> Strip:
        strip = super().render_line(y)
        if y < self.header_height or self.fixed_rows:
            return strip
        index = self.source_index(y - self.header_height + self.scroll_offset.y)
        if not 0 <= index < len(self._order):
            return strip
        key = self._order[index]
        over = self._over.get(key)
        if over:
            # The table's line is the same object while the table has not changed: the
            # cells drawn over it are drawn again only when they or it changed.
            shape = (tuple(over.values()), self.scroll_offset.x)
            kept = self._drawn_lines.get(key)
            if kept is not None and kept[0] is strip and kept[1] == shape:
                strip = kept[2]
            else:
                table_line = strip
                for column, value in over.items():
                    strip = self._draw_over(strip, column, value)
                self._drawn_lines[key] = (table_line, shape, strip)
        task = self._tasks[key]
        if not task.final:
            text = elapsed_cell(task, self.clock())
            if len(text) <= self.columns[ColumnKey("elapsed")].content_width:
                strip = self._draw_over(strip, "elapsed", Text(text))
                self._elapsed_drawn[key] = text
        return strip

    def _draw_over(self, strip: Strip, column: str, value: Text) -> Strip:
        """``strip`` with the cell of ``column`` showing ``value`` (plain, fits)."""
        pad = self.cell_padding
        x = -self.scroll_offset.x
        for key, col in self.columns.items():
            if key.value == column:
                break
            x += col.get_render_width(self)
        width = self.columns[ColumnKey(column)].get_render_width(self)
        visible = strip.cell_length
        left, right = max(0, x), min(visible, x + width)
        if right <= left:
            return strip
        before, old, after = strip.divide([left, right, visible])
        # The cell's padding carries the row's style (zebra, cursor, meta for the mouse).
        segments = list(old) if x >= 0 else list(old)[::-1]
        style = segments[0].style if segments else None
        content = " " * pad + value.plain.ljust(width - 2 * pad) + " " * pad
        self.cells_drawn += 1
        return Strip([*before, Segment(content[left - x : right - x], style), *after], visible)
