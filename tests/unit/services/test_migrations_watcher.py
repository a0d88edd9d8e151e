"""The migration watcher: backoff, final states, tolerance of unknown statuses and errors."""

from __future__ import annotations

from typing import Any

from vagent_tui.api.errors import ApiError
from vagent_tui.api.models import MigrationTask
from vagent_tui.services.migrations import MigrationWatcher


class FakeClient:
    def __init__(self, replies: list[Any]) -> None:
        self.replies = replies
        self.calls: list[str] = []

    async def migration_status(self, endpoint: str, *, target: int | None = None) -> MigrationTask:
        self.calls.append(endpoint)
        reply = self.replies.pop(0)
        if isinstance(reply, Exception):
            raise reply
        return MigrationTask.model_validate(reply)


class Clock:
    def __init__(self) -> None:
        self.now = 100.0
        self.sleeps: list[float] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds


def _queued() -> MigrationTask:
    return MigrationTask.model_validate(
        {
            "success": True,
            "taskId": "t1",
            "status": "queued",
            "statusEndpoint": "/api/v2/templates/migrations/t1",
            "message": "Queued",
        }
    )


async def test_watch_until_final_with_history_and_backoff() -> None:
    client = FakeClient(
        [
            {"taskId": "t1", "status": "queued"},
            {"taskId": "t1", "status": "running", "counts": {"processed": 1, "total": 4}},
            {"taskId": "t1", "status": "running", "counts": {"processed": 2, "total": 4}},
            ApiError(503, "Service unavailable"),
            {"taskId": "t1", "status": "completed", "counts": {"processed": 4, "total": 4}},
        ]
    )
    clock = Clock()
    watcher = MigrationWatcher(
        client,  # type: ignore[arg-type]
        clock=clock,
        sleep=clock.sleep,
        min_interval=1.0,
        max_interval=8.0,
    )
    seen: list[str] = []
    watcher.listeners.append(lambda task: seen.append(task.status))
    task = watcher.add(_queued(), template_name="Dental v3")
    await watcher.watch(task)
    assert task.final and task.status == "completed"
    assert [s for s, _ in task.history] == ["queued", "running", "completed"]
    assert task.counts is not None and task.counts.processed == 4
    assert task.error is None
    assert len(client.calls) == 5
    # unchanged status grows the interval, a failure doubles it, a change resets it
    assert clock.sleeps == [1.0, 1.5, 1.0, 1.5, 3.0]
    assert task.finished is not None and task.elapsed(10_000) == task.finished - task.started
    assert watcher.active == []


async def test_unknown_status_is_kept_and_watching_goes_on() -> None:
    client = FakeClient(
        [
            {"taskId": "t1", "status": "rebalancing", "extra": {"x": 1}},
            {"taskId": "t1", "status": "failed", "message": "Agent 12 is locked"},
        ]
    )
    clock = Clock()
    watcher = MigrationWatcher(client, clock=clock, sleep=clock.sleep)  # type: ignore[arg-type]
    task = watcher.add(_queued())
    await watcher.watch(task)
    assert [s for s, _ in task.history] == ["queued", "rebalancing", "failed"]
    assert task.message == "Agent 12 is locked"


async def test_poll_error_is_recorded_then_cleared() -> None:
    client = FakeClient([ApiError(500, "Internal error"), {"taskId": "t1", "status": "running"}])
    clock = Clock()
    watcher = MigrationWatcher(client, clock=clock, sleep=clock.sleep)  # type: ignore[arg-type]
    task = watcher.add(_queued())
    await watcher.poll_once(task)
    assert task.error == "Internal error" and task.status == "queued"
    await watcher.poll_once(task)
    assert task.error is None and task.status == "running"


async def test_a_task_the_platform_no_longer_knows_is_marked_gone_and_left() -> None:
    from vagent_tui.services.migrations import GONE, GONE_AFTER

    missing = [ApiError(404, "Task not found") for _ in range(GONE_AFTER)]
    client = FakeClient([ApiError(404, "Task not found"), ApiError(503, "busy"), *missing])
    clock = Clock()
    watcher = MigrationWatcher(client, clock=clock, sleep=clock.sleep)  # type: ignore[arg-type]
    task = watcher.add(_queued())
    await watcher.watch(task)  # returns: it does not poll forever
    assert task.status == GONE and task.final and task.finished is not None
    assert len(client.calls) == 2 + GONE_AFTER, "a 503 between 404s starts the count again"
    assert "no longer knows" in task.message
