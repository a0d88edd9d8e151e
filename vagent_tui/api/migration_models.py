"""Models of migration templates and tasks (re-exported by `vagent_tui.api.models`)."""

from __future__ import annotations

from pydantic import Field

from vagent_tui.api.base import Items, NullAsEmpty, Resource


class Template(Resource):
    id: NullAsEmpty = ""
    name: str | None = None
    revision: int | str | None = None
    agent_count: int | None = None
    sections: Items[str] = Field(default_factory=list)
    updated_at: str | None = None


class MigrationCounts(Resource):
    total: int | None = None
    processed: int | None = None
    changed: int | None = None
    skipped: int | None = None
    overrides_kept: int | None = None
    overrides_replaced: int | None = None


class StatusChange(Resource):
    status: str | None = None
    at: str | float | int | None = None


class MigrationTask(Resource):
    """A migration reply: ``{success}`` alone (nothing queued) or a task.

    Status values are not published; the client tolerates any string.
    """

    success: bool | None = None
    task_id: str | None = None
    status: str | None = None
    status_endpoint: str | None = None
    message: str | None = None
    template_id: str | None = None
    dry_run: bool | None = None
    counts: MigrationCounts | None = None
    history: Items[StatusChange] = Field(default_factory=list)

    @property
    def is_task(self) -> bool:
        return bool(self.task_id)


FINAL_STATUSES = frozenset(
    {"completed", "failed", "succeeded", "success", "error", "cancelled", "canceled", "done"}
)
