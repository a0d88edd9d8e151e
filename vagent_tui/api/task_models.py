"""Outbound work: the tasks an agent's calls and texts become (``/tasks``,
``/agent/outboundCall``, ``/agent/outboundSms``) and what the console sends.

The reference shows a task's ``id``, ``type``, ``state``, ``target`` and ``createdAt``;
its stats name four states (pending, running, finished, errored), its update example
``canceled``, and vida-skill lists a communication task's public states: pending,
processing, running, finished, errored, canceled (`TASK_STATES`). Every other field is
read leniently (sim/CONTRACT.md, choices 60 to 66) and any state string is kept as sent.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any, Literal, Self
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import ConfigDict, Field, ValidationInfo, field_validator, model_validator

from vagent_tui.api.base import Items, Resource
from vagent_tui.api.requests import Request

TASK_STATES = ("pending", "processing", "running", "finished", "errored", "canceled")
"""The public states of a call or text task (vida-skill); a platform may send others:
kept as sent."""
ENDED_STATES = frozenset({"finished", "errored", "failed", "completed", "canceled",
                          "cancelled", "done", "error"})  # fmt: skip
"""States after which a task changes no more (the vendor's three and their kin)."""
ACTIVE_STATES = frozenset({"processing", "running"})
"""States of a task whose work is under way: deleting it stops that work first
(vida-skill: "deletion stops active work before removing the Task record")."""
SORTS = ("createdAt", "updatedAt", "scheduledFor")
HELD_BY = {"businessHours": "business hours", "cooldown": "cooldown",
           "concurrency": "concurrency"}  # fmt: skip
"""A pending task's ``heldBy`` (the simulator's; not in the reference) in words."""

_E164 = re.compile(r"^\+[1-9][0-9]{6,14}$")


def check_e164(value: str) -> str:
    """A phone number in E.164 (``+`` then 7 to 15 digits, no spaces), or ValueError."""
    if not _E164.match(value):
        raise ValueError("not a phone number in E.164 form, e.g. +15551234567")
    return value


def _epoch(value: Any) -> datetime | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    seconds = value / 1000 if value > 10**11 else value  # milliseconds, read alike
    try:
        return datetime.fromtimestamp(seconds, UTC)
    except (OverflowError, OSError, ValueError):
        return None


class OutboundTask(Resource):
    """One task: a call or text the agent places, now or at ``scheduledFor``."""

    id: Any = None
    type: Any = None
    state: Any = None
    target: Any = None
    account_id: Any = None
    created_at: Any = None
    updated_at: Any = None
    scheduled_for: Any = None
    started_at: Any = None
    finished_at: Any = None
    result: Any = None
    error: Any = None
    log_id: Any = None
    context: Any = None
    greeting: Any = None
    content: Any = None
    external_task_id: Any = None
    held_by: Any = None
    """What a pending task waits for (the simulator's ``heldBy``: not in the reference)."""

    @property
    def waits_for(self) -> str:
        """What a pending task waits for, in words ("" when it is not said)."""
        if not self.pending or not isinstance(self.held_by, str) or not self.held_by:
            return ""
        return HELD_BY.get(self.held_by, self.held_by)

    @property
    def key(self) -> str:
        """The id as text (empty when the platform sent none)."""
        return "" if self.id is None else str(self.id)

    @property
    def state_text(self) -> str:
        return self.state if isinstance(self.state, str) else ""

    @property
    def ended(self) -> bool:
        return self.state_text.lower() in ENDED_STATES

    @property
    def pending(self) -> bool:
        return self.state_text.lower() == "pending"

    @property
    def active(self) -> bool:
        """Under way (running, processing): a delete stops its work first."""
        return self.state_text.lower() in ACTIVE_STATES

    def when(self, name: str) -> datetime | None:
        """A time field (Unix seconds or milliseconds) as a UTC datetime."""
        return _epoch(getattr(self, name, None))


class TaskPage(Resource):
    """``GET /tasks``: one page of tasks and how many match."""

    total: Any = None
    tasks: Items[OutboundTask] = Field(default_factory=list)


class TaskStats(Resource):
    """``GET /tasks/stats``: how many tasks are in each state."""

    total: Any = None
    by_state: Any = None

    def counts(self) -> dict[str, int]:
        """The states with a whole number, as sent (anything else left out)."""
        if not isinstance(self.by_state, dict):
            return {}
        return {
            str(k): int(v) for k, v in self.by_state.items()
            if isinstance(v, int | float) and not isinstance(v, bool)
        }  # fmt: skip


class QueuedTasks(Resource):
    """The reply of ``outboundCall``/``outboundSms``: how many tasks were queued."""

    message: Any = None
    inserted: Any = None
    tasks: Items[OutboundTask] = Field(default_factory=list)


class CsvRow(Resource):
    """One row of a CSV upload's answer: its line, whether it is (or would be) queued,
    and why not."""

    row: Any = None
    target: Any = None
    type: Any = None
    ok: Any = None
    reason: Any = None
    task_id: Any = None


class CsvUpload(Resource):
    """``POST /tasks/csv``: what was (or, with ``dryRun``, would be) queued and refused."""

    message: Any = None
    dry_run: Any = None
    total: Any = None
    valid: Any = None
    refused: Any = None
    inserted: Any = None
    rows: Items[CsvRow] = Field(default_factory=list)
    tasks: Items[OutboundTask] = Field(default_factory=list)

    def queued_rows(self) -> list[CsvRow]:
        return [r for r in self.rows if r.ok is True]

    def refused_rows(self) -> list[CsvRow]:
        return [r for r in self.rows if r.ok is not True]


class TaskQuery(Request):
    """``GET /tasks``' query (``state`` is the simulator's, sent only when set)."""

    limit: int = Field(default=50, ge=1, le=1000)
    offset: int = Field(default=0, ge=0)
    since: int | None = Field(default=None, ge=0)
    until: int | None = Field(default=None, ge=0)
    sort: Literal["createdAt", "updatedAt", "scheduledFor"] = "createdAt"
    order: Literal["asc", "desc"] = "desc"
    state: str | None = None

    def params(self) -> dict[str, Any]:
        return {k: v for k, v in self.wire().items() if v is not None}


class _Outbound(Request):
    target: str
    context: str = ""
    scheduled_for: int | None = Field(default=None, ge=0)
    external_task_id: str = ""

    @field_validator("target")
    @classmethod
    def _target(cls, value: str) -> str:
        return check_e164(value)

    def wire(self) -> dict[str, Any]:
        """The body, without the optional fields left empty."""
        return {k: v for k, v in super().wire().items() if v not in (None, "")}


class OutboundCallRequest(_Outbound):
    """``POST /agent/outboundCall`` for one number (the console asks E.164 only)."""

    greeting: str = ""


class OutboundSmsRequest(_Outbound):
    """``POST /agent/outboundSms`` for one number: the text is required."""

    content: str = Field(min_length=1, max_length=1600)


class TaskRequest(_Outbound):
    """``POST /tasks``: a call or text task."""

    type: Literal["call", "text"] = "call"
    greeting: str = ""
    content: str = Field(default="", max_length=1600, validate_default=True)

    @field_validator("content")
    @classmethod
    def _content(cls, value: str, info: Any) -> str:
        if info.data.get("type") == "text" and not value:
            raise ValueError("a text needs its message")
        return value


class TaskUpdate(Request):
    """``POST /tasks/{taskId}``: what changes on a pending task (only the fields set are
    sent), or ``state`` ``canceled`` alone (choice 112: the reference names ``state``,
    ``context`` and ``waitToGreet``; the start, a call's greeting and a text's message
    are the simulator's additions). The texts are sent as typed."""

    model_config = ConfigDict(str_strip_whitespace=False)

    state: Literal["canceled"] | None = None
    context: str | None = None
    scheduled_for: int | None = Field(default=None, ge=0)
    greeting: str | None = None
    content: str | None = Field(default=None, min_length=1, max_length=1600)
    wait_to_greet: bool | None = None

    @model_validator(mode="after")
    def _one_kind(self) -> Self:
        edits = (self.context, self.scheduled_for, self.greeting, self.content,
                 self.wait_to_greet)  # fmt: skip
        if self.state is not None and any(v is not None for v in edits):
            raise ValueError("a cancel is sent alone")
        if self.state is None and all(v is None for v in edits):
            raise ValueError("nothing to change")
        return self

    def wire(self) -> dict[str, Any]:
        """The body: the fields set, nothing else."""
        return {k: v for k, v in super().wire().items() if v is not None}


_CLOCK = re.compile(r"^([01][0-9]|2[0-3]):[0-5][0-9]$|^24:00$")
LIMIT_GROUPS = {
    "businessHours": ("timezone", "days", "start", "end"),
    "cooldowns": ("cooldown_calls", "cooldown_texts"),
    "daily": ("daily_calls", "daily_texts", "daily_tasks"),
    "concurrencyPerRun": ("concurrency_per_run",),
}
"""Each group of ``POST /tasks/limits``' body and the request's fields that make it."""
MAX_COOLDOWN = 30 * 86400


class TaskLimitsUpdate(Request):
    """``POST /tasks/limits``: the groups that changed, each sent whole (``wire``).

    Flat fields so that a form's errors land at their field; a group is sent when one
    of its fields is set (the form sets every field of a group it sends). Days are the
    weekdays 1 (Monday) to 7 (Sunday), 0 read as Sunday as well; times ``HH:MM``, the
    end after the start (``24:00`` is midnight at the end of the day); cooldowns in
    seconds (at most 30 days); caps and the concurrency whole numbers.
    """

    timezone: str | None = None
    days: list[int] | None = None
    start: str | None = None
    end: str | None = None
    cooldown_calls: int | None = Field(default=None, ge=0, le=MAX_COOLDOWN)
    cooldown_texts: int | None = Field(default=None, ge=0, le=MAX_COOLDOWN)
    daily_calls: int | None = Field(default=None, ge=0, le=1_000_000)
    daily_texts: int | None = Field(default=None, ge=0, le=1_000_000)
    daily_tasks: int | None = Field(default=None, ge=0, le=1_000_000)
    concurrency_per_run: int | None = Field(default=None, ge=1, le=1000)

    @field_validator("timezone")
    @classmethod
    def _zone(cls, value: str | None) -> str | None:
        if value is None:
            return None
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError):
            raise ValueError("a time zone, e.g. UTC") from None
        return value

    @field_validator("days")
    @classmethod
    def _days(cls, value: list[int] | None) -> list[int] | None:
        if value is None:
            return None
        if not value:
            raise ValueError("at least one day")
        if any(d < 0 or d > 7 for d in value):
            raise ValueError("days 1 (Mon) to 7 (Sun)")
        return sorted(set(value))

    @field_validator("start", "end")
    @classmethod
    def _clock(cls, value: str | None, info: ValidationInfo) -> str | None:
        if value is None:
            return None
        if not _CLOCK.match(value):
            raise ValueError("a time of day as HH:MM, e.g. 09:00")
        start = info.data.get("start")
        if info.field_name == "end" and isinstance(start, str) and value <= start:
            raise ValueError("after the start (24:00 is the end of the day)")
        return value

    @model_validator(mode="after")
    def _hours(self) -> Self:
        hours = (self.timezone, self.days, self.start, self.end)
        if any(v is not None for v in hours) and any(v is None for v in hours):
            raise ValueError("business hours need a time zone, days, a start and an end")
        return self

    @property
    def groups(self) -> list[str]:
        """The body's groups this update sends."""
        return [name for name, fields in LIMIT_GROUPS.items()
                if any(getattr(self, f) is not None for f in fields)]  # fmt: skip

    def wire(self) -> dict[str, Any]:
        body: dict[str, Any] = {}
        if "businessHours" in self.groups:
            body["businessHours"] = {"timezone": self.timezone, "days": self.days,
                                     "start": self.start, "end": self.end}  # fmt: skip
        for group, prefix in (("cooldowns", "cooldown_"), ("daily", "daily_")):
            part = {f.removeprefix(prefix): getattr(self, f) for f in LIMIT_GROUPS[group]}
            part = {k: v for k, v in part.items() if v is not None}
            if part:
                body[group] = part
        if self.concurrency_per_run is not None:
            body["concurrencyPerRun"] = self.concurrency_per_run
        return body
