"""Outbound tasks (calls and texts an agent places): their states over time, the daily
caps and business hours that hold them back, and the call log entry each ended task
leaves.

A task is stored once, when it is queued; its state is derived from the clock, like a
migration's (`vagent_tui.sim.migrations`). With ``T = state.task_seconds`` and
``start`` the first moment at or after ``scheduledFor`` (else its creation) that falls
in the organization's business hours:

* ``pending`` before ``start``;
* ``running`` during ``[start, start + T)``;
* ``finished`` from ``start + T`` on, or ``errored`` for a target whose digits end in
  ``666`` (`ERRORED_SUFFIX`: the carrier refuses it), so tests and the demo can see both;
* ``canceled`` from the moment ``POST /tasks/{taskId}`` set it (`cancel`), whatever
  the clock says after.

An ended task is a conversation in the call log (`log_entry`), which ``GET /logs``
serves before the computed history (`vagent_tui.sim.routes_logs`). The limits are the
organization's (the vendor: "the org's current task limits"): one set per organization
(`organization_of`; ``state.task_limits``, else `DEFAULT_LIMITS`), bounding the tasks
of all its agents together; the daily caps count what the organization's computed
usage says for the day (`vagent_tui.sim.routes_usage`) plus its tasks that run that day
(UTC).

This module is one thing: the life of an outbound task, every rule of which (state by
clock, caps, hours, the log entry it leaves) reads the others.
"""

from __future__ import annotations

import bisect
import re
import zlib
from datetime import UTC, date, datetime, time, timedelta
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from vagent_tui.sim.common import SimError, bad, iso

if TYPE_CHECKING:
    from vagent_tui.sim.account import Account
    from vagent_tui.sim.state import SimState

E164 = re.compile(r"^\+[1-9][0-9]{6,14}$")
USERNAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{1,63}$")
ERRORED_SUFFIX = "666"
KINDS = ("call", "text")
STATES = ("pending", "running", "finished", "errored", "canceled")
"""The states the simulator gives: the reference's four and ``canceled`` (its update
example; vida-skill's public states also name ``processing``, which no task here has)."""
ACTIVE = ("pending", "running")
"""The states a cancel stops."""
DEFAULT_LIMITS: dict[str, Any] = {
    "businessHours": {"timezone": "UTC", "days": [1, 2, 3, 4, 5, 6, 7],
                      "start": "00:00", "end": "24:00"},
    "daily": {"calls": 100, "texts": 200, "tasks": 300},
    "concurrencyPerRun": 10,
    "cooldowns": {"calls": 60, "texts": 30},
}  # fmt: skip
"""Every account's limits until ``state.task_limits`` says otherwise: the reference's
examples, but open around the clock and with cooldowns of a minute and half a minute
(the reference's day and five minutes would hold a demo's second test call to the same
phone until tomorrow)."""
LIMIT_FIELDS: dict[str, tuple[str, ...]] = {
    "businessHours": ("timezone", "days", "start", "end"),
    "cooldowns": ("calls", "texts"),
    "daily": ("calls", "texts", "tasks"),
    "concurrencyPerRun": (),
}
SUPER_ADMIN_ONLY = ("daily", "concurrencyPerRun")
MAX_COOLDOWN = 30 * 86400
MAX_CAP = 1_000_000
MAX_CONCURRENCY = 1000
_HHMM = re.compile(r"^([01][0-9]|2[0-3]):[0-5][0-9]$|^24:00$")


def organization_of(state: SimState, account_id: int) -> int:
    """Whose task limits bind ``account_id``: its organization (an agent's or a
    member's ``organizationId``, an organization itself); a reseller or partner, which
    belongs to no organization, is its own (an unknown id too)."""
    acc = state.accounts.get(account_id)
    if acc is None or acc.account_type in ("partner", "reseller", "organization"):
        return account_id
    return acc.organization_id if acc.organization_id is not None else account_id


def limits_of(state: SimState, account_id: int) -> dict[str, Any]:
    """The limits in force for ``account_id``: its organization's."""
    return state.task_limits.get(organization_of(state, account_id)) or DEFAULT_LIMITS


def hours_text(limits: dict[str, Any]) -> str:
    """The business hours in words: ``days 1-5, 09:00-17:00 America/Chicago``."""
    hours = limits.get("businessHours") or {}
    days = ",".join(str(d) for d in hours.get("days") or [])
    return (f"days {days or 'none'}, {hours.get('start', '00:00')}-{hours.get('end', '24:00')} "
            f"{hours.get('timezone') or 'UTC'}")  # fmt: skip


def _whole(value: Any, name: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise bad(f"{name} must be an integer from {low} to {high}")
    return value


def _hours(value: dict[str, Any]) -> dict[str, Any]:
    """Business hours checked whole (after the fields sent were laid over the current)."""
    zone = value.get("timezone")
    if not isinstance(zone, str) or not zone:
        raise bad("businessHours.timezone must be a time zone name")
    try:
        ZoneInfo(zone)
    except (ZoneInfoNotFoundError, ValueError):
        raise bad(f"businessHours.timezone {zone!r} is not a known time zone") from None
    days = value.get("days")
    if not isinstance(days, list) or not days:
        raise bad("businessHours.days must be a nonempty array of weekdays (1..7)")
    for n, day in enumerate(days):
        _whole(day, f"businessHours.days[{n}]", 0, 7)
    for key in ("start", "end"):
        if not isinstance(value.get(key), str) or not _HHMM.match(value[key]):
            raise bad(f"businessHours.{key} must be HH:MM (00:00 to 24:00)")
    if value["end"] <= value["start"]:
        raise bad("businessHours.end must come after businessHours.start")
    return {**value, "days": sorted(set(days))}


def update_limits(current: dict[str, Any], body: dict[str, Any], *,
                  super_admin: bool) -> dict[str, Any]:  # fmt: skip
    """``current`` with ``body`` laid over it, group by group and field by field (a
    field not sent keeps its value), or the refusal: 403 for ``daily`` or
    ``concurrencyPerRun`` from a key that is not a super-admin's (checked first), 400
    for an unknown group or field or a bad value. All or nothing."""
    restricted = [name for name in SUPER_ADMIN_ONLY if name in body]
    if restricted and not super_admin:
        raise SimError(403, f"Only a super admin may edit {' and '.join(restricted)}")
    unknown = [name for name in body if name not in LIMIT_FIELDS]
    if unknown:
        raise bad(f"Unknown field: {unknown[0]} (send businessHours, cooldowns, daily, "
                  "concurrencyPerRun)")  # fmt: skip
    if not body:
        raise bad("Nothing to update: send businessHours, cooldowns, daily or concurrencyPerRun")
    out = {k: (dict(v) if isinstance(v, dict) else v) for k, v in current.items()}
    for group, fields in LIMIT_FIELDS.items():
        if group not in body:
            continue
        value = body[group]
        if not fields:
            out[group] = _whole(value, group, 1, MAX_CONCURRENCY)
            continue
        if not isinstance(value, dict):
            raise bad(f"{group} must be an object")
        extra = [k for k in value if k not in fields]
        if extra:
            raise bad(f"Unknown field: {group}.{extra[0]}")
        merged = {**(out.get(group) or {}), **value}
        if group == "businessHours":
            merged = _hours(merged)
        else:
            high = MAX_COOLDOWN if group == "cooldowns" else MAX_CAP
            for key in value:
                _whole(value[key], f"{group}.{key}", 0, high)
        out[group] = merged
    return out


def check_target(value: Any, name: str = "target") -> str:
    """A target: E.164 or a username, else 400."""
    if not isinstance(value, str) or not value.strip():
        raise bad(f"{name} is required")
    text = str(value).strip()
    if not (E164.match(text) or USERNAME.match(text)):
        raise bad(f"{name} must be a phone number in E.164 (+15551234567) or a username")
    return text


def _clock(text: Any, default: time) -> tuple[int, int]:
    if isinstance(text, str) and re.fullmatch(r"\d{1,2}:\d{2}", text):
        hours, minutes = (int(p) for p in text.split(":"))
        if 0 <= hours <= 24 and 0 <= minutes < 60:
            return hours, minutes
    return default.hour, default.minute


def opening(limits: dict[str, Any], at: float) -> float:
    """The first moment at or after ``at`` in the business hours (400 when they have
    no open day). Days are ISO weekdays (1 Monday .. 7 Sunday; 0 read as Sunday)."""
    hours = limits.get("businessHours") or {}
    try:
        zone: Any = ZoneInfo(str(hours.get("timezone") or "UTC"))
    except (ZoneInfoNotFoundError, ValueError):
        zone = UTC
    days = {7 if d == 0 else d for d in hours.get("days") or [] if isinstance(d, int)}
    if not hours:
        return at
    start_h, start_m = _clock(hours.get("start"), time(0, 0))
    end_h, end_m = _clock(hours.get("end"), time(23, 59))
    local = datetime.fromtimestamp(at, zone)
    for n in range(8):
        day = local.date() + timedelta(days=n)
        if day.isoweekday() not in days:
            continue
        midnight = datetime(day.year, day.month, day.day, tzinfo=zone)
        opens = midnight + timedelta(hours=start_h, minutes=start_m)
        closes = midnight + timedelta(hours=end_h, minutes=end_m)
        if at < opens.timestamp():
            return opens.timestamp()
        if at < closes.timestamp():
            return at
    raise bad("businessHours has no open hour: nothing can be scheduled")


def baseline(account_id: int, day: date) -> dict[str, int]:
    """The computed usage of ``day`` (`vagent_tui.sim.routes_usage`'s day function)."""
    seed = zlib.crc32(f"{account_id}:{day.isoformat()}".encode())
    return {"calls": seed % 40, "texts": (seed >> 12) % 60, "tasks": (seed >> 18) % 9}


def run_day(task: dict[str, Any]) -> date:
    return datetime.fromtimestamp(task["startAt"], UTC).date()


def placed(task: dict[str, Any]) -> bool:
    """Whether the task started (or will): one canceled before its start never does."""
    canceled = task.get("canceledAt")
    return canceled is None or canceled > task["startAt"]


def used(state: SimState, org_id: int, day: date) -> dict[str, int]:
    """Calls, texts and tasks of organization ``org_id`` counted against ``day``'s caps:
    its computed usage and the tasks of its agents placed that day."""
    counts = baseline(org_id, day)
    for task in state.outbound.values():
        if (run_day(task) == day and placed(task)
                and organization_of(state, task["accountId"]) == org_id):  # fmt: skip
            counts["calls" if task["type"] == "call" else "texts"] += 1
            counts["tasks"] += 1
    return counts


def status(state: SimState, task: dict[str, Any]) -> tuple[str, float]:
    """``(state, since)`` at the current clock."""
    if task.get("canceledAt") is not None:
        return "canceled", task["canceledAt"]
    now, start = state.now(), task["startAt"]
    end = start + state.task_seconds
    if now < start:
        return "pending", task["createdAt"]
    if now < end:
        return "running", start
    digits = re.sub(r"\D", "", task["target"])
    return ("errored" if digits.endswith(ERRORED_SUFFIX) else "finished"), end


SHOWN_FIELDS = ("context", "taskContext", "greeting", "content", "externalTaskId", "meta",
                "waitToGreet")  # fmt: skip
"""The optional fields a task's view carries when set."""


def view(state: SimState, task: dict[str, Any]) -> dict[str, Any]:
    """A task as ``GET /tasks`` serves it."""
    now_state, since = status(state, task)
    ended = now_state in ("finished", "errored")
    out = {
        "id": task["id"],
        "type": task["type"],
        "state": now_state,
        "target": task["target"],
        "accountId": task["accountId"],
        "createdAt": int(task["createdAt"]),
        "updatedAt": int(since),
        "scheduledFor": task["scheduledFor"],
        "startedAt": int(task["startAt"]) if task_started(state, task) else None,
        "finishedAt": int(since) if ended else None,
        "result": None,
        "error": None,
        "logId": f"task_{task['id']}" if ended else None,
    }
    for key in SHOWN_FIELDS:
        if task.get(key) is not None:
            out[key] = task[key]
    if now_state == "canceled":
        out["canceledAt"] = int(since)
    if now_state == "pending" and task.get("heldBy"):
        out["heldBy"] = task["heldBy"]
    if now_state == "finished":
        out["result"] = "answered" if task["type"] == "call" else "delivered"
    elif now_state == "errored":
        out["error"] = "The carrier refused the number"
        out["result"] = "failed"
    return out


def task_started(state: SimState, task: dict[str, Any]) -> bool:
    """Whether the task has started by now (a canceled one: before it was canceled)."""
    start: float = task["startAt"]
    canceled = task.get("canceledAt")
    if canceled is not None:
        return bool(canceled > start)
    return state.now() >= start


class Planner:
    """Tasks planned for one organization's agents against its limits: the counts of
    each day grow with every task planned, so a batch is checked as a whole."""

    def __init__(self, state: SimState, org_id: int) -> None:
        self.state = state
        self.org_id = org_id
        self.limits = state.task_limits.get(org_id) or DEFAULT_LIMITS
        self.counts: dict[date, dict[str, int]] = {}
        self.starts: list[float] = []
        """The starts of the organization's tasks (stored and planned), sorted."""
        self.by_target: dict[tuple[str, str], list[float]] = {}
        """The same per (kind, target), sorted: the cooldowns' question."""
        for task in state.outbound.values():
            if placed(task) and organization_of(state, task["accountId"]) == org_id:
                self._note(task["type"], task["target"], task["startAt"])

    def _note(self, kind: str, target: str, start: float) -> None:
        bisect.insort(self.starts, start)
        bisect.insort(self.by_target.setdefault((kind, target), []), start)

    def start_of(self, kind: str, target: str, at: float) -> tuple[float, str | None]:
        """The first moment at or after ``at`` when the task may start (choice 69), and
        what held it back (``businessHours``, ``cooldown``, ``concurrency``; None when
        nothing did): inside the business hours, ``cooldowns[calls|texts]`` seconds
        from any other start of that kind to that target in the organization, and fewer
        than ``concurrencyPerRun`` of the organization's tasks running."""
        wanted = at
        held: str | None = None
        T = self.state.task_seconds
        cooldowns = self.limits.get("cooldowns") or {}
        cool = cooldowns.get("calls" if kind == "call" else "texts")
        cool = cool if isinstance(cool, int | float) and not isinstance(cool, bool) else 0
        most = self.limits.get("concurrencyPerRun")
        most = most if isinstance(most, int) and not isinstance(most, bool) and most > 0 else 0
        same = self.by_target.get((kind, target), [])
        for _ in range(100_000):
            moved = at
            opened = opening(self.limits, at)
            if opened > at:
                at, held = opened, "businessHours"
            if cool > 0 and same:
                # The latest start of that kind to that target closer than the cooldown.
                near = bisect.bisect_left(same, at + cool) - 1
                if near >= 0 and same[near] > at - cool:
                    at, held = same[near] + cool, "cooldown"
            if most:
                first = bisect.bisect_right(self.starts, at - T)
                if bisect.bisect_right(self.starts, at) - first >= most:
                    at, held = self.starts[first] + T, "concurrency"
            if at == moved:
                return at, (held if at > wanted else None)
        raise bad("No start found within the limits")  # not reached: each pass moves on

    def plan(self, item: dict[str, Any], kind: str, account_id: int) -> dict[str, Any]:
        """The task of ``item`` for agent ``account_id`` (not stored), or 400: a
        ``scheduledFor`` outside the business hours (vida-skill: "an initial
        ``scheduledFor`` outside configured business hours is rejected"), or the daily
        cap it would pass."""
        caps = self.limits.get("daily") or {}
        now = self.state.now()
        scheduled = item.get("scheduledFor")
        asked = max(now, float(scheduled)) if scheduled is not None else now
        if scheduled is not None and opening(self.limits, asked) != asked:
            raise bad(f"scheduledFor {iso(asked)} ({item['target']}) is outside the business "
                      f"hours ({hours_text(self.limits)})")  # fmt: skip
        start, held = self.start_of(kind, item["target"], asked)
        day = datetime.fromtimestamp(start, UTC).date()
        counts = self.counts.get(day) or used(self.state, self.org_id, day)
        noun = "calls" if kind == "call" else "texts"
        for key in (noun, "tasks"):
            cap = caps.get(key)
            if isinstance(cap, int) and counts[key] >= cap:
                raise bad(f"Daily {key} limit reached for {day.isoformat()}: {cap} a day")
        counts = {**counts, noun: counts[noun] + 1, "tasks": counts["tasks"] + 1}
        self.counts[day] = counts
        self._note(kind, item["target"], start)
        return {**item, "id": "", "type": kind, "accountId": account_id, "createdAt": now,
                "scheduledFor": scheduled, "startAt": start, "heldBy": held}  # fmt: skip

    def store(self, task: dict[str, Any]) -> dict[str, Any]:
        task["id"] = f"task-{self.state.next_id():05d}"
        self.state.outbound[task["id"]] = task
        return view(self.state, task)


def queue(
    state: SimState, agent: Account, items: list[dict[str, Any]], kind: str
) -> list[dict[str, Any]]:
    """Queue ``items`` (each ``target`` and the optional fields) for ``agent``: all or
    none. 400 when one would pass a daily cap or asks for a time outside the business
    hours (the message names it)."""
    planner = Planner(state, organization_of(state, agent.id))
    planned = [planner.plan(item, kind, agent.id) for item in items]
    return [planner.store(task) for task in planned]


def find(state: SimState, caller_reach: set[int], task_id: str) -> dict[str, Any]:
    task = state.outbound.get(task_id)
    if task is None or task["accountId"] not in caller_reach:
        raise SimError(404, "Task not found")
    return task


UPDATABLE = ("state", "context", "waitToGreet", "scheduledFor", "greeting", "content")
"""The fields of ``POST /tasks/{taskId}``'s body: the reference's three, and the start,
a call's greeting and a text's message (choice 112)."""
_PENDING_ONLY = ("context", "waitToGreet", "scheduledFor", "greeting", "content")


def _edits(task: dict[str, Any], body: dict[str, Any]) -> dict[str, Any]:
    """The fields other than ``state`` that ``body`` changes, checked (400 names one)."""
    out: dict[str, Any] = {}
    for key in ("context", "greeting", "content"):
        if key in body:
            if not isinstance(body[key], str):
                raise bad(f"{key} must be a string")
            out[key] = body[key]
    if "waitToGreet" in body:
        if not isinstance(body["waitToGreet"], bool):
            raise bad("waitToGreet must be a boolean")
        out["waitToGreet"] = body["waitToGreet"]
    if "greeting" in out and task["type"] != "call":
        raise bad("greeting is a call's: this task is a text (send content)")
    if "content" in out:
        if task["type"] != "text":
            raise bad("content is a text's: this task is a call (send greeting)")
        if not out["content"].strip():
            raise bad("content must not be empty")
        if len(out["content"]) > 1600:
            raise bad("content holds more than 1600 characters")
    if "scheduledFor" in body:
        value = body["scheduledFor"]
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise bad("scheduledFor must be Unix seconds (an integer)")
        out["scheduledFor"] = value
    return out


def _rescheduled(state: SimState, task: dict[str, Any], at: int) -> dict[str, Any]:
    """``task``'s start and hold planned again from ``at`` as if it were queued now (the
    business hours, caps, cooldowns and concurrency of `Planner`, the task itself left
    out of them), not stored; 400 as a create would be."""
    others = {k: v for k, v in state.outbound.items() if k != task["id"]}
    kept, state.outbound = state.outbound, others
    try:
        planner = Planner(state, organization_of(state, task["accountId"]))
        planned = planner.plan({"target": task["target"], "scheduledFor": at},
                               task["type"], task["accountId"])  # fmt: skip
    finally:
        state.outbound = kept
    return {"scheduledFor": at, "startAt": planned["startAt"], "heldBy": planned["heldBy"]}


def update(state: SimState, task: dict[str, Any], body: dict[str, Any]) -> None:
    """``POST /tasks/{taskId}``: ``state`` may only become ``canceled`` (a pending or
    running task; one canceled already stays as it is; an ended one is 400); the other
    fields (`UPDATABLE`) change a pending task only, a new ``scheduledFor`` planned
    again as a new task would be. All checked before anything changes."""
    unknown = [key for key in body if key not in UPDATABLE]
    if unknown:
        raise bad(f"Unknown field: {unknown[0]} (send {', '.join(UPDATABLE)})")
    if not body:
        raise bad(f"Nothing to update: send {', '.join(UPDATABLE)}")
    now_state = status(state, task)[0]
    wanted = body.get("state")
    if "state" in body:
        if wanted != "canceled":
            raise bad("state may only be set to canceled")
        if now_state not in (*ACTIVE, "canceled"):
            raise bad(f"Task {task['id']} has ended ({now_state}): it cannot be canceled")
    edits = _edits(task, body)
    if edits and now_state != "pending":
        raise bad(f"Task {task['id']} is {now_state}: only a pending task's "
                  f"{', '.join(_PENDING_ONLY)} change")  # fmt: skip
    if wanted == "canceled" and edits:
        raise bad("Cancel alone: send state canceled without other fields")
    if "scheduledFor" in edits:
        edits.update(_rescheduled(state, task, edits["scheduledFor"]))
    task.update(edits)
    if wanted == "canceled" and now_state in ACTIVE:
        task["canceledAt"] = state.now()


# ---------------------------------------------------------------------- the call log


def _phone(account_id: int) -> str:
    return f"+1{200 + account_id % 800:03d}5550{account_id % 1000:03d}"


def log_entry(state: SimState, task: dict[str, Any]) -> dict[str, Any] | None:
    """The conversation an ended task left (``GET /logs``' shape), None before it ends."""
    now_state, at = status(state, task)
    if now_state not in ("finished", "errored"):
        return None
    acc = state.accounts.get(task["accountId"])
    org = None if acc is None else (acc.organization_id or acc.parent_id)
    call = task["type"] == "call"
    ok = now_state == "finished"
    hexed = f"{zlib.crc32(task['id'].encode()):08x}"
    stamp = int(at)
    summary = f"Outbound {'call' if call else 'text'} of task {task['id']} to {task['target']}" + (
        ": the agent spoke with the contact." if ok else " failed: carrier_error."
    )
    return {
        "id": f"task_{task['id']}",
        "timestamp": iso(at),
        "account_id": task["accountId"],
        "org_id": org,
        "eventType": "outbound-call" if call else "outbound-sms",
        "type": "call" if call else "sms",
        "direction": "outbound",
        "status": "completed" if ok else "failed",
        "agentOutcome": "question_answered" if ok else None,
        "duration": (int(state.task_seconds) if call else 0) if ok else 0,
        "fromNumber": _phone(task["accountId"]),
        "toNumber": task["target"],
        "contactName": task["target"],
        "roomId": f"{task['accountId']}:{task['id']}",
        "uuid": f"{hexed}-0000-4000-a000-{hexed}0000:{stamp}",
        "summary": summary,
        "failureReason": None if ok else "carrier_error",
        "usdRate": 0.0,
        "agentConfigId": f"cfg-{task['accountId']}",
        "metadata": {"convoId": f"c_task_{task['id']}", "taskId": task["id"]},
    }


def ended_logs(state: SimState, accounts: set[int], lo: int, hi: int) -> list[dict[str, Any]]:
    """The ended tasks' entries of ``accounts`` in ``[lo, hi]``, newest first."""
    out = []
    for task in state.outbound.values():
        if task["accountId"] not in accounts:
            continue
        entry = log_entry(state, task)
        if entry is not None and lo <= int(status(state, task)[1]) <= hi:
            out.append(entry)
    out.sort(key=lambda e: (e["timestamp"], e["id"]), reverse=True)
    return out


def conversation(state: SimState, room_id: str, uuid: str,
                 accounts: set[int]) -> dict[str, Any] | None:  # fmt: skip
    """The message record of an ended task's conversation (a batch item), or None."""
    _, _, task_id = room_id.partition(":")
    task = state.outbound.get(task_id)
    if task is None or task["accountId"] not in accounts:
        return None
    log = log_entry(state, task)
    if log is None or log["roomId"] != room_id or log["uuid"] != uuid:
        return None
    call = log["type"] == "call"
    ok = log["status"] == "completed"
    turns = [
        {"role": "assistant", "content": task.get("greeting") or "Hello, this is your agent."},
        {"role": "user", "content": "Hi, yes, I can hear you."},
    ] if ok else []  # fmt: skip
    return {
        "from": task["accountId"], "to": task["target"],
        "timestamp": int(status(state, task)[1]), "date": log["timestamp"],
        "message": turns[-1]["content"] if turns else log["summary"],
        "roomId": room_id, "uuid": uuid, "status": "success" if ok else "failed",
        "type": log["type"], "direction": "outbound", "duration": log["duration"],
        "fromNumber": log["fromNumber"], "toNumber": log["toNumber"],
        "summary": log["summary"], "agentOutcome": log["agentOutcome"],
        "callDialog": turns if call else [], "chatDialog": [] if call else turns,
        "eventType": log["eventType"], "source": "voice" if call else "sms",
    }  # fmt: skip
