"""Watching template migration tasks: polling with backoff that stops at a final state.

The platform publishes no status values, so any string is accepted; the known final
ones (`vagent_tui.api.models.FINAL_STATUSES`) stop the watch. A poll failure does not
end the watch: the interval doubles (up to ``max_interval``), the error is kept for
display, and the first answer after a failure brings the normal pace back. A task the
platform answers 404 for `GONE_AFTER` times in a row is marked `GONE` and no longer
polled: the platform does not know it (any more), and asking forever would not change
that.

`RecentTemplates` remembers the template ids migrations were started from, per platform,
in the state folder: the spec lists no templates, so on the real platform an id is
typed, and typed once is enough.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from vagent_tui.api.client import PlatformClient
from vagent_tui.api.errors import ApiError, PlatformError
from vagent_tui.api.models import FINAL_STATUSES, MigrationCounts, MigrationTask
from vagent_tui.api.targets import Target
from vagent_tui.config import state_dir


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


# --------------------------------------------------------------------------- recent ids

RECENT_NAME = "recent-templates.json"
RECENT_READ_LIMIT = 256 * 1024
"""Bytes of the file read at most: a few hundred short ids, never a surprise."""
TEMPLATE_ID_LIMIT = 200


def template_id_problem(text: str) -> str | None:
    """Why ``text`` (stripped already) cannot be a template id; None when it can be.

    Only what no id can hold is refused; whether the id exists is the platform's to say.
    """
    if not text:
        return "Pick a template first, or type its id (i)"
    if len(text) > TEMPLATE_ID_LIMIT:
        return f"A template id has at most {TEMPLATE_ID_LIMIT} characters"
    if any(c.isspace() or not c.isprintable() for c in text):
        return "A template id has no spaces or control characters"
    return None


@dataclass(frozen=True)
class RecentTemplate:
    """A template id a migration was started from, where and when."""

    template_id: str
    host: str
    """The platform's host (and port): never a base URL's ``user:password@``."""
    target: int | None
    used_at: str
    """ISO 8601, UTC."""

    def to_json(self) -> dict[str, Any]:
        return {"templateId": self.template_id, "host": self.host, "target": self.target,
                "usedAt": self.used_at}  # fmt: skip

    @classmethod
    def from_json(cls, data: Any) -> RecentTemplate | None:
        """An entry from the file; None for anything that is not one of ours."""
        if not isinstance(data, dict):
            return None
        template_id, host = data.get("templateId"), data.get("host")
        target, used_at = data.get("target"), data.get("usedAt")
        if not isinstance(template_id, str) or template_id_problem(template_id) is not None:
            return None
        if not isinstance(host, str) or not isinstance(used_at, str):
            return None
        if target is not None and (not isinstance(target, int) or isinstance(target, bool)):
            target = None
        return cls(template_id, host, target, used_at)


@dataclass
class RecentTemplates:
    """The template ids migrations were started from, newest first, per platform host.

    Kept in ``<state dir>/recent-templates.json`` (mode 0600, next to the journal): ids,
    hosts, target account ids and times only; no token, no base URL. A file that cannot
    be read is taken as empty (and never overwritten by a failed read: the next write
    replaces it whole, atomically); a write that fails is said in `error`.
    """

    path: Path = field(default_factory=lambda: state_dir() / RECENT_NAME)
    keep: int = 10
    """Ids kept per host."""
    clock: Callable[[], datetime] = field(default=lambda: datetime.now(UTC))
    error: str | None = None

    def _read(self) -> list[RecentTemplate]:
        try:
            with self.path.open("rb") as handle:
                raw = handle.read(RECENT_READ_LIMIT + 1)
        except OSError:
            return []
        if len(raw) > RECENT_READ_LIMIT:
            return []
        try:
            data = json.loads(raw)
        except (ValueError, RecursionError):
            return []
        items = data.get("recent") if isinstance(data, dict) else None
        if not isinstance(items, list):
            return []
        entries = [RecentTemplate.from_json(item) for item in items]
        return [entry for entry in entries if entry is not None]

    def load(self, host: str) -> list[RecentTemplate]:
        """The ids used on ``host``, the most recent first."""
        return [entry for entry in self._read() if entry.host == host][: self.keep]

    def remember(self, host: str, template_id: str, target: int | None) -> None:
        """Put ``template_id`` first for ``host`` (once: an id used again moves up)."""
        now = self.clock().astimezone(UTC).isoformat(timespec="seconds")
        entry = RecentTemplate(template_id, host, target, now)
        others = [e for e in self._read() if (e.host, e.template_id) != (host, template_id)]
        mine = [entry, *(e for e in others if e.host == host)][: self.keep]
        kept = mine + [e for e in others if e.host != host][: self.keep * 20]
        self._write({"version": 1, "recent": [e.to_json() for e in kept]})

    def _write(self, data: dict[str, Any]) -> None:
        raw = json.dumps(data, ensure_ascii=False, indent=1).encode("utf-8")
        tmp: str | None = None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            fd, tmp = tempfile.mkstemp(prefix=".recent-", dir=self.path.parent)
            with os.fdopen(fd, "wb") as handle:  # mkstemp makes it 0600 already
                handle.write(raw)
            os.replace(tmp, self.path)  # whole or not at all: a reader never sees half
            self.error = None
        except OSError as exc:
            if tmp is not None:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
            self.error = f"The recent template ids could not be kept ({self.path}): {exc.strerror}"
