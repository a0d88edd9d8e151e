"""Asking one question of every agent account below the key (the fleet view).

Three questions (`QUESTIONS`), each one request per account:

* ``functions``: ``GET /agent/functions`` -> allowed / total, and the unavailable names;
* ``voice``: ``GET /agentEventRules/default`` -> voice, TTS, S2S and STT engines, language;
* ``junk``: ``GET /junkConversations?unread=true&pageSize=1`` -> ``totalRooms`` (unread).

`ask_fleet` runs them with at most ``concurrency`` requests in flight: a pool of that many
workers takes account ids from one shared iterator (a semaphore without a parked task
per account). Each answer is handed to ``on_answer`` as it arrives; a failing account
becomes an answer with ``error`` set and the others go on. Cancelling the task that
awaits `ask_fleet` cancels the requests in flight and asks nothing more. `iter_fleet`
is the same as an async iterator. No per-call work beyond the client's own parsing.
"""

from __future__ import annotations

import asyncio
import csv
import io
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from vagent_tui.api.client import PlatformClient
from vagent_tui.api.errors import PlatformError, redact_text
from vagent_tui.api.models import Account
from vagent_tui.services.accounts import AccountDirectory, account_kind

DEFAULT_CONCURRENCY = 8

Values = dict[str, Any]


@dataclass(frozen=True)
class Question:
    """One fleet question: its name, label, answer columns and how to ask one account."""

    name: str
    label: str
    columns: tuple[tuple[str, str], ...]
    """``(key, header)`` of each answer value, in display order."""
    ask: Callable[[PlatformClient, int], Awaitable[Values]]

    @property
    def keys(self) -> tuple[str, ...]:
        return tuple(key for key, _ in self.columns)


@dataclass(slots=True)
class FleetAnswer:
    """The answer of one account: ``values`` by column key, or ``error`` (a message)."""

    account_id: int
    values: Values = field(default_factory=dict)
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None


async def _functions(client: PlatformClient, account_id: int) -> Values:
    functions = await client.list_functions(account_id)
    unavailable = tuple(f.name for f in functions if not f.allowed)
    return {
        "allowed": len(functions) - len(unavailable),
        "total": len(functions),
        "unavailable": unavailable,
    }


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
    )
}


def describe(exc: BaseException) -> str:
    """One line for a failed account: ``HTTP 403: <server message>``; never the token."""
    if isinstance(exc, PlatformError):
        status = getattr(exc, "status", 0)
        return f"HTTP {status}: {exc.message}" if status else exc.message
    return redact_text(f"{type(exc).__name__}: {exc}")


async def ask_fleet(
    client: PlatformClient,
    account_ids: Iterable[int],
    question: str | Question,
    *,
    concurrency: int = DEFAULT_CONCURRENCY,
    on_answer: Callable[[FleetAnswer], object] | None = None,
) -> list[FleetAnswer]:
    """Ask ``question`` of every account, at most ``concurrency`` at a time.

    Returns the answers in arrival order (also given one by one to ``on_answer``).
    An account whose request fails gets an answer with ``error``; the others go on.
    """
    ask = (QUESTIONS[question] if isinstance(question, str) else question).ask
    ids = list(account_ids)
    pending = iter(ids)
    answers: list[FleetAnswer] = []

    async def worker() -> None:
        for account_id in pending:  # shared: each id is taken by exactly one worker
            try:
                answer = FleetAnswer(account_id, await ask(client, account_id))
            except Exception as exc:  # one account's failure is its answer
                answer = FleetAnswer(account_id, error=describe(exc))
            answers.append(answer)
            if on_answer is not None:
                on_answer(answer)

    workers = max(1, min(concurrency, len(ids)))
    if ids:
        async with asyncio.TaskGroup() as group:
            for _ in range(workers):
                group.create_task(worker())
    return answers


async def iter_fleet(
    client: PlatformClient,
    account_ids: Iterable[int],
    question: str | Question,
    *,
    concurrency: int = DEFAULT_CONCURRENCY,
) -> AsyncIterator[FleetAnswer]:
    """`ask_fleet` as an async iterator of answers in arrival order.

    Leaving the loop early (``break``, or closing the iterator) cancels what is in flight.
    """
    ids = list(account_ids)
    queue: asyncio.Queue[FleetAnswer] = asyncio.Queue()
    task = asyncio.ensure_future(
        ask_fleet(client, ids, question, concurrency=concurrency, on_answer=queue.put_nowait)
    )
    try:
        for _ in ids:
            getter = asyncio.ensure_future(queue.get())
            await asyncio.wait({getter, task}, return_when=asyncio.FIRST_COMPLETED)
            if not getter.done():
                getter.cancel()
                task.result()  # the run failed outside any one account: raise it
                break
            yield getter.result()
        await task
    finally:
        if not task.done():
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)


# ---------------------------------------------------------------------------- accounts


def is_agent_account(account: Account) -> bool:
    """A voice agent account (``accountType`` account, not a Computer Agent)."""
    computer = account.computer_agent or account.scope_field("computerAgent")
    return account_kind(account) == "account" and not computer


async def fleet_accounts(directory: AccountDirectory, *, limit: int = 100_000) -> list[Account]:
    """The agent accounts the key may act on, sorted by id (walks the whole tree).

    A restricted member gets only its permitted accounts.
    """
    accounts = await directory.load_all(limit=limit)
    scope = directory.scope
    out = [
        a
        for a in accounts
        if a.id is not None
        and is_agent_account(a)
        and (not scope.restricted or scope.permits(a.id))
    ]
    out.sort(key=lambda a: a.id or 0)
    return out


# ---------------------------------------------------------------------------- output


def cell_text(value: Any) -> str:
    """A value as text for the matrix and the CSV (names joined, None empty)."""
    if value is None:
        return ""
    if isinstance(value, tuple | list):
        return ", ".join(str(v) for v in value)
    return str(value)


def to_csv(
    question: str | Question,
    accounts: Sequence[Account],
    answers: dict[int, FleetAnswer],
) -> str:
    """The matrix as CSV: one header row, then one row per account (in the given order).

    Columns: ``account_id, account_name``, the question's columns, ``status``
    (``ok``/``error``/``not asked``) and ``error``. Nothing of the key is written.
    """
    q = QUESTIONS[question] if isinstance(question, str) else question
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["account_id", "account_name", *q.keys, "status", "error"])
    for account in accounts:
        answer = answers.get(account.id or 0)
        values = answer.values if answer else {}
        status = "not asked" if answer is None else ("ok" if answer.ok else "error")
        writer.writerow(
            [
                account.id,
                account.display_name,
                *(cell_text(values.get(key)) for key in q.keys),
                status,
                (answer.error if answer else None) or "",
            ]
        )
    return out.getvalue()
