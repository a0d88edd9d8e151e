"""Asking one question of every agent account below the key (the fleet view).

Six questions (`QUESTIONS`), each one request per account:

* ``functions``: ``GET /agent/functions`` -> allowed / total, and the unavailable names;
* ``voice``: ``GET /agentEventRules/default`` -> voice, TTS, S2S and STT engines, language;
* ``junk``: ``GET /junkConversations?unread=true&pageSize=1`` -> ``totalRooms`` (unread);
* ``usage``: ``GET /stats/usage`` of the current period with costs, then ``GET
  /product/currentPlan`` -> plan, costs, each usage key (`vagent_tui.services.account_usage`;
  the CSV has one exact column per key the platform sent);
* ``calls``: ``GET /logs`` of the last 24 hours (10,000 entries a request, only the
  fields it counts) -> calls, failed, and the count of each outcome
  (`vagent_tui.services.calls_summary.calls_last_24h`);
* ``numbers``: ``GET /phoneNumbers`` -> how many numbers the account holds, and which;
  the accounts that hold none are listed first (`Question.first`).

`ask_fleet` runs them with a limit on the requests in flight: a fixed ``concurrency``, or
an `AdaptiveLimit` (what the Fleet screen uses: the platform publishes no rate limit, so
the limit grows while the latency stays flat and backs off on 429/503, honouring
``Retry-After``, up to a ceiling). One dispatcher takes the account ids in order and
starts a request whenever the limit has room (no task parked per account). Each answer
is handed to ``on_answer`` as it arrives; a failing account becomes an answer with
``error`` set and the others go on. Cancelling the task that awaits `ask_fleet` cancels
the requests in flight and asks nothing more. No per-call work beyond the client's own
parsing.
"""

from __future__ import annotations

import asyncio
import csv
import io
import os
import sys
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from vagent_tui.api.client import PlatformClient
from vagent_tui.api.errors import PlatformError, redact_text
from vagent_tui.api.transport import listen_for_pressure
from vagent_tui.inert import csv_cell
from vagent_tui.services.accounts import (
    NamedAccount,
)
from vagent_tui.services.reread import read_again

DEFAULT_CONCURRENCY = 8
"""A fixed limit's default (`ask_fleet` without a `AdaptiveLimit`)."""
ADAPTIVE_FLOOR = 16
"""The least an adaptive run starts with (its ceiling permitting)."""
ADAPTIVE_CAP = 100
"""The adaptive limit's default ceiling (the default transport keeps 200 connections)."""
MAX_CAP = 200
CONCURRENCY_ENV = "VAGENT_FLEET_CONCURRENCY"


def default_concurrency() -> int:
    """The ceiling of requests in flight: ``VAGENT_FLEET_CONCURRENCY`` (1..200), else 100.

    The run starts below it and adapts (`AdaptiveLimit`). The Fleet screen's and the
    ``fleet ask`` command's default.
    """
    raw = os.environ.get(CONCURRENCY_ENV, "")
    return int(raw) if raw.isdecimal() and 1 <= int(raw) <= MAX_CAP else ADAPTIVE_CAP


def start_of(cap: int) -> int:
    """Requests in flight an adaptive run under ``cap`` starts with: half of it, at least 16.

    One round trip to reach the ceiling when the platform keeps up. A start at 16 (the
    rule before) took two to three round trips at 50 to 100, about 6 % of a 1,000-account
    run at 50 in flight (``bench/fleet.py``); a platform that cannot take half the
    ceiling answers 429 and the limit halves from there.
    """
    return max(1, min(cap, max(ADAPTIVE_FLOOR, cap // 2)))


Values = dict[str, Any]


@dataclass(frozen=True)
class Question:
    """One fleet question: its name, label, answer columns and how to ask one account."""

    name: str
    label: str
    columns: tuple[tuple[str, str], ...]
    """``(key, header)`` of each answer value, in display order."""
    ask: Callable[[PlatformClient, int], Awaitable[Values]]
    exact: Callable[[Values], dict[str, str]] | None = None
    """More CSV columns from an answer, exact (usage: one per key the platform sent)."""
    first: Callable[[Values], bool] | None = None
    """Whether an answer puts its account first, once the run is over (an agent with no
    number: it cannot take a call)."""

    @property
    def keys(self) -> tuple[str, ...]:
        return tuple(key for key, _ in self.columns)


@dataclass(slots=True)
class FleetAnswer:
    """The answer of one account: ``values`` by column key, or ``error`` (a message)."""

    account_id: int
    values: Values = field(default_factory=dict)
    error: str | None = None
    cause: BaseException | None = None
    """The exception ``error`` tells of (its traceback dropped), for what to do next."""

    @property
    def ok(self) -> bool:
        return self.error is None


SAME_ANSWERS_KEPT = 4096
_same_answers: dict[tuple[int, int, tuple[str, ...]], Values] = {}
"""Answers to ``functions`` alike share one value (read only, as every answer's): most
accounts of a fleet answer alike, and at 100,000 accounts a dict and a tuple of names of
each account's own held about 35 MB."""


async def _functions(client: PlatformClient, account_id: int) -> Values:
    functions = await client.list_functions(account_id, shared=True)  # only read here
    unavailable = tuple(sys.intern(f.name) for f in functions if not f.allowed)
    key = (len(functions) - len(unavailable), len(functions), unavailable)
    shared = _same_answers.get(key)
    if shared is None:
        shared = {"allowed": key[0], "total": key[1], "unavailable": unavailable}
        if len(_same_answers) < SAME_ANSWERS_KEPT:  # a fleet of all different: no more
            _same_answers[key] = shared
    return shared


async def _voice(client: PlatformClient, account_id: int) -> Values:
    cfg = await client.get_live(target=account_id)
    if cfg is None:
        return dict.fromkeys(("voice", "tts", "s2s", "stt", "lang"))
    return {
        "voice": cfg.agent_voice,
        "tts": cfg.agent_tts_engine,
        "s2s": cfg.agent_s2s_engine,
        "stt": cfg.agent_stt_engine,
        "lang": cfg.agent_lang,
    }


async def _junk(client: PlatformClient, account_id: int) -> Values:
    page = await client.list_junk_rooms(unread=True, page_size=1, target=account_id)
    return {"unread": page.total_rooms}


async def _calls(client: PlatformClient, account_id: int) -> Values:
    from vagent_tui.services.calls_summary import calls_last_24h  # the log models, on first use

    summary = await calls_last_24h(client, account_id)
    return {"calls": summary.count, "failed": summary.failed,
            "outcomes": summary.outcome_texts()}  # fmt: skip


async def _usage(client: PlatformClient, account_id: int) -> Values:
    from vagent_tui.services.account_usage import fleet_usage  # the usage reader, on first use

    return await fleet_usage(client, account_id)


async def _numbers(client: PlatformClient, account_id: int) -> Values:
    held = await client.list_numbers(target=account_id)
    numbers = tuple(dict.fromkeys(n.number for n in held))  # a number listed twice is one
    return {"count": len(numbers), "numbers": numbers}


def _holds_none(values: Values) -> bool:
    return values.get("count") == 0


def first_order(
    question: Question, account_ids: Sequence[int | None], answers: dict[int, FleetAnswer]
) -> list[int] | None:
    """The rows (indexes of ``account_ids``) with the answers ``question.first`` picks
    first, the others after them, each part in its own order; None: no such question."""
    if question.first is None:
        return None
    pick = question.first
    first: list[int] = []
    rest: list[int] = []
    for index, account_id in enumerate(account_ids):
        answer = answers.get(account_id or 0)
        (first if answer is not None and answer.ok and pick(answer.values) else rest).append(index)
    return first + rest


def _usage_exact(values: Values) -> dict[str, str]:
    from vagent_tui.services.account_usage import fleet_usage_exact

    return fleet_usage_exact(values)


QUESTIONS: dict[str, Question] = {
    q.name: q
    for q in (
        Question(
            "functions",
            "Functions availability",
            (("allowed", "Allowed"), ("total", "Total"), ("unavailable", "Unavailable")),
            _functions,
        ),
        Question(
            "voice",
            "Live voice and engines",
            (("voice", "Voice"), ("tts", "TTS"), ("s2s", "S2S"), ("stt", "STT"), ("lang", "Lang")),
            _voice,
        ),
        Question("junk", "Junk inbox unread", (("unread", "Unread"),), _junk),
        Question(
            "calls",
            "Calls in the last 24 h",
            (("calls", "Calls"), ("failed", "Failed"), ("outcomes", "By outcome")),
            _calls,
        ),
        Question(
            "usage",
            "Usage this period",
            (("plan", "Plan"), ("costs", "Costs"), ("usage", "Usage"), ("unread", "Not read")),
            _usage,
            exact=_usage_exact,
        ),
        Question(
            "numbers",
            "Phone numbers",
            (("count", "Numbers"), ("numbers", "Held")),
            _numbers,
            first=_holds_none,
        ),
    )
}


def describe(exc: BaseException) -> str:
    """One line for a failed account: ``HTTP 403: <server message>``; never the token."""
    if isinstance(exc, PlatformError):
        status = getattr(exc, "status", 0)
        return f"HTTP {status}: {exc.message}" if status else exc.message
    return redact_text(f"{type(exc).__name__}: {exc}")


class AdaptiveLimit:
    """How many requests may be in flight: grows while latency stays flat, backs off on
    429/503.

    * Rounds: after every ``limit`` answers, the round's median latency is compared
      with the lowest round median seen (the latency of an unloaded platform). Within
      ``flat`` times that, the limit grows: it doubles until the first back-off, then
      grows by an eighth. Above ``2 * flat`` it shrinks by a fifth (the platform is
      queueing); in between it holds.
    * A 429 or 503 (any attempt, retried or not, heard through the transport's pressure
      hook) halves the limit, once per round trip: replies to requests that started
      before the last back-off do not halve it again. A ``Retry-After`` pauses every new
      request for that long (at most ``max_pause`` seconds).
    * It starts at ``start`` (default `start_of` the cap: half of it, at least 16).
    * Never above ``cap`` nor below 1.

    ``adapt=False`` makes it a fixed limit of ``cap`` (`ask_fleet`'s ``concurrency``).
    ``clock`` and ``sleep`` are injectable for tests. One instance serves one run.
    """

    def __init__(
        self,
        cap: int = ADAPTIVE_CAP,
        *,
        start: int | None = None,
        flat: float = 1.5,
        max_pause: float = 60.0,
        adapt: bool = True,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
    ) -> None:
        self.cap = max(1, cap)
        self.adapt = adapt
        if start is None:
            start = start_of(self.cap)
        self.limit = max(1, min(start, self.cap)) if adapt else self.cap
        self.flat = flat
        self.max_pause = max_pause
        self.clock = clock
        self.sleep = sleep
        self.in_flight = 0
        self.max_in_flight = 0
        self.history: list[int] = [self.limit]
        """Every limit in force, in order (for the screen's summary and for tests)."""
        self.backoffs = 0
        self.pauses: list[float] = []
        """The pauses started for a ``Retry-After``, in seconds (a later ``Retry-After``
        during one may extend it)."""
        self.resume_at = 0.0
        self._epoch = 0
        self._backoff_epoch = 0
        self._slow_start = True
        self._round: list[float] = []
        self._best: float | None = None
        self._room = asyncio.Event()

    # ------------------------------------------------------------- the dispatcher's side

    async def acquire(self) -> int:
        """Wait for room (and the end of a pause); take a slot. Returns the epoch."""
        while True:
            wait = self.resume_at - self.clock()
            if wait > 0:
                await self.sleep(wait)
                continue
            if self.in_flight < self.limit:
                self.in_flight += 1
                self.max_in_flight = max(self.max_in_flight, self.in_flight)
                return self._epoch
            self._room.clear()
            await self._room.wait()

    def release(self, epoch: int, latency: float | None) -> None:
        """A request ended: ``latency`` in seconds, None when it gave no usable sample."""
        self.in_flight -= 1
        if self.adapt and latency is not None and epoch >= self._backoff_epoch:
            self._round.append(latency)
            if len(self._round) >= self.limit:
                self._end_round()
        if self.in_flight < self.limit:
            self._room.set()

    # ------------------------------------------------------------- adapting

    def _set(self, limit: int) -> None:
        limit = max(1, min(self.cap, limit))
        if limit != self.limit:
            self.limit = limit
            self._epoch += 1
            self.history.append(limit)
        self._round = []
        if self.in_flight < self.limit:
            self._room.set()

    def _end_round(self) -> None:
        ordered = sorted(self._round)
        median = ordered[len(ordered) // 2]
        best = self._best = median if self._best is None else min(self._best, median)
        if median <= best * self.flat:
            grown = self.limit * 2 if self._slow_start else self.limit + max(1, self.limit // 8)
            self._set(grown)
        elif median > best * self.flat * 2:
            self._set(self.limit - max(1, self.limit // 5))
        else:
            self._round = []

    def throttled(self, epoch: int, status: int, retry_after: float | None) -> None:
        """A 429/503 to a request started in ``epoch``: back off (and pause)."""
        if not self.adapt:
            return
        if retry_after is not None and retry_after > 0:
            pause = min(retry_after, self.max_pause)
            now = self.clock()
            if self.resume_at <= now:
                self.pauses.append(pause)  # a new pause (not one under way, extended)
            self.resume_at = max(self.resume_at, now + pause)
        if epoch < self._backoff_epoch:
            return  # sent before the last back-off: already accounted for
        self._slow_start = False
        self.backoffs += 1
        self._set(self.limit // 2)
        self._epoch += 1
        self._backoff_epoch = self._epoch


async def ask_fleet(
    client: PlatformClient,
    account_ids: Iterable[int],
    question: str | Question,
    *,
    concurrency: int = DEFAULT_CONCURRENCY,
    limiter: AdaptiveLimit | None = None,
    on_answer: Callable[[FleetAnswer], object] | None = None,
) -> list[FleetAnswer]:
    """Ask ``question`` of every account: at most ``concurrency`` at a time, or as many
    as ``limiter`` allows (then ``concurrency`` is not used).

    Returns the answers in arrival order (also given one by one to ``on_answer``).
    An account whose request fails transiently is asked again (`read_again`); one that
    still fails gets an answer with ``error``; the others go on.
    """
    ask = (QUESTIONS[question] if isinstance(question, str) else question).ask
    ids = list(account_ids)
    answers: list[FleetAnswer] = []
    gate = limiter if limiter is not None else AdaptiveLimit(concurrency, adapt=False)
    clock = gate.clock

    async def one(account_id: int, epoch: int) -> None:
        if gate.adapt:
            listen_for_pressure(lambda status, after: gate.throttled(epoch, status, after))
        started = clock()
        latency: float | None = None
        asked_again: list[object] = []
        try:
            values = await read_again(
                client, lambda: ask(client, account_id), on_retry=asked_again.append
            )
            answer = FleetAnswer(account_id, values)
            # An answer asked again took its pauses too: no measure of the platform's pace.
            latency = None if asked_again else clock() - started
        except Exception as exc:  # one account's failure is its answer
            answer = FleetAnswer(account_id, error=describe(exc), cause=exc.with_traceback(None))
        finally:
            gate.release(epoch, latency)
        answers.append(answer)
        if on_answer is not None:
            on_answer(answer)

    if ids:
        async with asyncio.TaskGroup() as group:
            for account_id in ids:
                epoch = await gate.acquire()
                group.create_task(one(account_id, epoch))
    return answers


def cell_text(value: Any) -> str:
    """A value as text for the matrix and the CSV (names joined, None empty)."""
    if value is None:
        return ""
    if isinstance(value, tuple | list):
        return ", ".join(str(v) for v in value)
    return str(value)


def to_csv(
    question: str | Question,
    accounts: Sequence[NamedAccount],
    answers: dict[int, FleetAnswer],
) -> str:
    """The matrix as CSV: one header row, then one row per account (in the given order).

    Columns: ``account_id, account_name``, the question's columns, those its ``exact``
    adds (in the order first met), ``status`` (``ok``/``error``/``not asked``) and
    ``error``. Nothing of the key is written.
    """
    q = QUESTIONS[question] if isinstance(question, str) else question
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    more: dict[int, dict[str, str]] = {}
    if q.exact is not None:
        more = {i: q.exact(a.values) for i, a in answers.items() if a.ok}
    extra = list(dict.fromkeys(k for cells in more.values() for k in cells))
    header = ["account_id", "account_name", *q.keys, *(csv_cell(k) for k in extra)]
    writer.writerow([*header, "status", "error"])
    for account in accounts:
        answer = answers.get(account.id or 0)
        values = answer.values if answer else {}
        status = "not asked" if answer is None else ("ok" if answer.ok else "error")
        writer.writerow(
            [
                account.id,
                csv_cell(account.display_name),
                *(csv_cell(cell_text(values.get(key))) for key in q.keys),
                *(more.get(account.id or 0, {}).get(key, "") for key in extra),
                status,
                csv_cell((answer.error if answer else None) or ""),
            ]
        )
    return out.getvalue()
