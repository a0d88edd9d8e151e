"""Outbound work: a call or a text placed from the agent, and the tasks they queue
(``/agent/outboundCall``, ``/agent/outboundSms``, ``/tasks``; CONTRACT choices 60-67)."""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import quote

from vagent_tui.api import models as m
from vagent_tui.api.replies import Json, no_list
from vagent_tui.api.streaming import StreamingTransport
from vagent_tui.api.transport import as_bool

if TYPE_CHECKING:
    from vagent_tui.api.task_models import TaskUpdate


class OutboundApi(StreamingTransport):
    """Calls and texts from the agent, and the tasks they queue."""

    async def place_call(
        self, call: m.OutboundCallRequest, *, target: int | None = None
    ) -> m.QueuedTasks:
        """``POST /agent/outboundCall``: queue a real call from the selected agent."""
        payload = await self.request("POST", "/agent/outboundCall", target=target,
                                     json=call.wire())  # fmt: skip
        return self._parse(m.QueuedTasks, payload, method="POST", url="/agent/outboundCall")

    async def send_text(
        self, text: m.OutboundSmsRequest, *, target: int | None = None
    ) -> m.QueuedTasks:
        """``POST /agent/outboundSms``: queue a real text from the selected agent."""
        payload = await self.request("POST", "/agent/outboundSms", target=target,
                                     json=text.wire())  # fmt: skip
        return self._parse(m.QueuedTasks, payload, method="POST", url="/agent/outboundSms")

    async def list_tasks(
        self, query: m.TaskQuery | None = None, *, target: int | None = None
    ) -> m.TaskPage:
        """``GET /tasks``: one page of tasks (the reply must hold its ``tasks`` list)."""
        params = (query or m.TaskQuery()).params()

        def parse(payload: Json) -> m.TaskPage:
            if payload.get("tasks") is None:
                raise no_list("tasks", "/tasks")
            return self._parse(m.TaskPage, payload, url="/tasks")

        return await self.get("/tasks", parse, target=target, params=params)

    async def get_task_stats(self, *, target: int | None = None) -> m.TaskStats:
        """``GET /tasks/stats``: how many tasks are in each state (``byState``)."""
        return await self.get(
            "/tasks/stats", lambda p: self._parse(m.TaskStats, p, url="/tasks/stats"),
            target=target,
        )  # fmt: skip

    async def get_task(self, task_id: str, *, target: int | None = None) -> m.OutboundTask:
        """``GET /tasks/{taskId}``: one task (``task`` in the reply, or the reply itself)."""
        path = f"/tasks/{quote(task_id, safe='')}"

        def parse(payload: Json) -> m.OutboundTask:
            task = payload.get("task")
            return self._parse(m.OutboundTask, task if isinstance(task, dict) else payload,
                               url=path)  # fmt: skip

        return await self.get(path, parse, target=target)

    async def create_task(
        self, task: m.TaskRequest, *, target: int | None = None
    ) -> m.OutboundTask:
        """``POST /tasks``: a call or text task (the task in the reply when it says one)."""
        payload = await self.request("POST", "/tasks", target=target, json=task.wire())
        made = payload.get("task")
        return self._parse(m.OutboundTask, made if isinstance(made, dict) else payload,
                           method="POST", url="/tasks")  # fmt: skip

    async def upload_tasks_csv(
        self,
        content: bytes,
        *,
        dry_run: bool,
        filename: str = "tasks.csv",
        target: int | None = None,
    ) -> m.CsvUpload:
        """``POST /tasks/csv`` (multipart ``csv`` and ``dryRun``): a dry run checks each
        row and queues nothing; without it the valid rows are queued (real calls)."""
        data = {"dryRun": as_bool(dry_run)}
        payload = await self.request(
            "POST", "/tasks/csv", target=target, data=data,
            files={"csv": (filename, content, "text/csv")},
            journal_body={**data, "csv": f"<{len(content)} bytes>"},
        )  # fmt: skip
        return self._parse(m.CsvUpload, payload, method="POST", url="/tasks/csv")

    async def update_task(
        self, task_id: str, update: TaskUpdate, *, target: int | None = None
    ) -> m.OutboundTask:
        """``POST /tasks/{taskId}``: change a pending task, or cancel it (``state``
        ``canceled``); the task as it now is when the reply carries it."""
        path = f"/tasks/{quote(task_id, safe='')}"
        payload = await self.request("POST", path, target=target, json=update.wire())
        task = payload.get("task")
        return self._parse(m.OutboundTask, task if isinstance(task, dict) else payload,
                           method="POST", url=path)  # fmt: skip

    async def delete_task(self, task_id: str, *, target: int | None = None) -> m.Envelope:
        """``DELETE /tasks/{taskId}`` (a 404: already gone)."""
        return await self._envelope("DELETE", f"/tasks/{quote(task_id, safe='')}", target=target)
