"""Watching template migration tasks: polling with backoff that stops at a final state.

The platform publishes no status values, so any string is accepted; the known final
ones (`vagent_tui.api.models.FINAL_STATUSES`) stop the watch. A poll failure does not
end the watch: the interval doubles (up to ``max_interval``), the error is kept for
display, and the first answer after a failure brings the normal pace back. A task the
platform answers 404 for `GONE_AFTER` times in a row is marked `GONE` and no longer
polled: the platform does not know it (any more), and asking forever would not change
that.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from vagent_tui.api.client import PlatformClient
from vagent_tui.api.errors import ApiError, PlatformError
from vagent_tui.api.models import FINAL_STATUSES, MigrationCounts, MigrationTask
from vagent_tui.api.targets import Target


@dataclass
class WatchedTask:
    """A task started in this session, and what has been seen of it."""

    task_id: str
    template_id: str
    template_name: str
    dry_run: bool
    endpoint: str
    target: Target | None
    """The reseller the task was started for (``targetResellerId``), as its status is read."""
    started: float
    status: str = "queued"
    message: str = ""
    counts: MigrationCounts | None = None
    history: list[tuple[str, float]] = field(default_factory=list)
    error: str | None = None
    finished: float | None = None
    interval: float = 0.0
    missing: int = 0
    """Consecutive polls answered 404."""

    @property
    def final(self) -> bool:
        return self.status.lower() in FINAL_STATUSES or self.status == GONE

    def elapsed(self, now: float) -> float:
        return (self.finished or now) - self.started


GONE = "gone"
"""The status of a task the platform no longer knows (final: it is not polled again)."""
GONE_AFTER = 3
"""Consecutive 404 answers after which a task is taken as gone."""

Sleep = Callable[[float], Awaitable[None]]


class MigrationWatcher:
    """Holds every watched task; `watch` polls one until it reaches a final state."""

    def __init__(
        self,
        client: PlatformClient | None,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Sleep = asyncio.sleep,
        min_interval: float = 1.0,
        max_interval: float = 15.0,
        growth: float = 1.5,
    ) -> None:
        self.client = client
        self.clock = clock
        self.sleep = sleep
        self.min_interval = min_interval
        self.max_interval = max_interval
        self.growth = growth
        self.tasks: dict[str, WatchedTask] = {}
        self.listeners: list[Callable[[WatchedTask], None]] = []

    def add(
        self, reply: MigrationTask, *, template_name: str = "", target: Target | None = None
    ) -> WatchedTask:
        """Start keeping a task the platform queued."""
        assert reply.task_id, "a reply without taskId is not a task"
        now = self.clock()
        status = reply.status or "queued"
        task = WatchedTask(
            task_id=reply.task_id,
            template_id=reply.template_id or "",
            template_name=template_name or reply.template_id or "",
            dry_run=bool(reply.dry_run) if reply.dry_run is not None else True,
            endpoint=reply.status_endpoint or f"/api/v2/templates/migrations/{reply.task_id}",
            target=target,
            started=now,
            status=status,
            message=reply.message or "",
            counts=reply.counts,
            history=[(status, now)],
            interval=self.min_interval,
        )
        self.tasks[task.task_id] = task
        self._tell(task)
        return task

    def _tell(self, task: WatchedTask) -> None:
        for listener in list(self.listeners):
            listener(task)

    async def poll_once(self, task: WatchedTask) -> WatchedTask:
        """Read the task's status endpoint once and fold the reply in."""
        if self.client is None:
            raise RuntimeError("no connection: nothing to poll")
        try:
            reply = await self.client.migration_status(task.endpoint, target=task.target)
        except PlatformError as exc:
            task.error = exc.message
            task.missing = (
                task.missing + 1 if isinstance(exc, ApiError) and exc.status == 404 else 0
            )
            if task.missing >= GONE_AFTER:
                task.status, task.finished = GONE, self.clock()
                task.message = "The platform no longer knows this task: it is not polled any more"
                task.history.append((GONE, task.finished))
            task.interval = min(self.max_interval, max(task.interval, self.min_interval) * 2)
            self._tell(task)
            return task
        task.missing = 0
        recovered = task.error is not None
        task.error = None
        now = self.clock()
        status = reply.status or task.status
        if reply.dry_run is not None:
            task.dry_run = reply.dry_run
        if status != task.status or recovered:
            if status != task.status:
                task.status = status
                task.history.append((status, now))
            task.interval = self.min_interval
        else:
            task.interval = min(self.max_interval, task.interval * self.growth)
        task.message = reply.message or task.message
        task.counts = reply.counts or task.counts
        if task.final and task.finished is None:
            task.finished = now
        self._tell(task)
        return task

    async def watch(self, task: WatchedTask) -> WatchedTask:
        """Poll until the task is final, re-arming after each reply (never overlapping)."""
        while not task.final:
            await self.sleep(task.interval or self.min_interval)
            await self.poll_once(task)
        return task

    @property
    def active(self) -> list[WatchedTask]:
        return [t for t in self.tasks.values() if not t.final]
