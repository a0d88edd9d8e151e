"""The one bulk engine: many writes, each applied once, recorded on disk, resumable.

Rollout (`vagent_tui.services.rollout_apply`: staging writes, then publishes) and
onboarding (`vagent_tui.services.onboard_apply`: organizations, accounts, members) both
apply a plan here; the command line drives the same `apply_each`. What they share:

* a pool (`in_pool`): at most ``concurrency`` items in flight, taken by that many workers
  from one shared iterator; once ``stop()`` is true nothing more is started and what is
  under way finishes (a gentle cancel: every write sent gets its result);
* a log on disk per plan (`RolloutLog`, one JSON line per result, mode 0600, locked per
  plan): a rerun of the same plan skips what is done (a done result stays done);
* each item applied once (`apply_each`): its ``prepare`` reads what the platform holds
  and either settles the item without a write (found done by an earlier run, moved
  meanwhile, its parent missing) or gives the `Attempt` to send; the write is sent once,
  and when its reply is lost (`vagent_tui.api.errors.outcome_unknown`) it is read back,
  never resent: done when it is there, else ``unknown``. Each write is journaled by the
  client's transport observer, as every write of the console is.

Nothing here knows rollouts or spreadsheets: an item is anything with an ``int`` key
(an account id, a file's line), a result is an `AccountResult` under that key.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import hashlib
import json
import os
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Protocol, TypeVar

from vagent_tui.api.errors import PlatformError, outcome_unknown
from vagent_tui.config import state_dir
from vagent_tui.services.fleet import describe

T = TypeVar("T")
Step = Literal["write", "publish"]
Result = Literal["written", "published", "changed-meanwhile", "failed", "unknown", "nothing"]
DONE: frozenset[str] = frozenset({"written", "published"})
DONE_AS: dict[Step, Result] = {"write": "written", "publish": "published"}
"""The result of a step's item that is done."""
DEFAULT_CONCURRENCY = 32
"""Items in flight at once (1,000 accounts at 50 ms plan in about 1.6 s)."""
CONCURRENCY_VARIABLE = "VAGENT_ROLLOUT_CONCURRENCY"
SENT = "sent: no reply yet"
"""The message of the mark an item gets before its write goes out (`apply_each`'s
``mark_sent``)."""


@dataclass(frozen=True)
class AccountResult:
    """How one item's step ended (``message``: the platform's, or why).

    ``account_id`` is the item's key: an account's id in a rollout, the file's line in an
    onboarding."""

    account_id: int
    step: Step
    result: Result
    message: str = ""


class Refused(Exception):
    """An item that cannot be sent, or that the platform made in part: it is ``failed``
    with this message (raised by a ``prepare``, a send or a read back)."""


@dataclass(frozen=True)
class Attempt:
    """One write, ready to go out."""

    send: Callable[[], Awaitable[str]]
    """Sends it once; its success line. Raises `PlatformError` as the client does."""
    read_back: Callable[[], Awaitable[bool]]
    """Whether the platform holds it now (asked only when the reply was lost)."""
    noun: str = ""
    """What the read-back line names (``the change``: ``read back: the change is there``)."""


Prepare = Callable[[T, AccountResult | None], Awaitable[AccountResult | Attempt]]
"""An item and its earlier result in the log (never a done one) -> a result that settles
it without a write, or the write to send."""


async def in_pool(
    items: Sequence[T],
    concurrency: int,
    each: Callable[[T], Awaitable[None]],
    *,
    stop: Callable[[], bool] | None = None,
) -> None:
    """``each(item)`` for every item, at most ``concurrency`` at a time: a pool of that
    many workers takes items from one shared iterator (no parked task per item).

    Once ``stop()`` is true no item is taken any more; those under way finish.
    """
    pending = iter(items)

    async def worker() -> None:
        for item in pending:  # shared: each item is taken by exactly one worker
            if stop is not None and stop():
                return
            await each(item)

    if items:
        async with asyncio.TaskGroup() as group:
            for _ in range(max(1, min(concurrency, len(items)))):
                group.create_task(worker())


def rollout_concurrency() -> int:
    """``VAGENT_ROLLOUT_CONCURRENCY`` (1..64), else `DEFAULT_CONCURRENCY`: the items in
    flight of a rollout or an onboarding, in the console and on the command line."""
    raw = os.environ.get(CONCURRENCY_VARIABLE, "")
    return int(raw) if raw.isdecimal() and 1 <= int(raw) <= 64 else DEFAULT_CONCURRENCY


# --------------------------------------------------------------------------- the log


class _Planned(Protocol):
    def to_data(self) -> dict[str, Any]: ...


def plan_id(plan: _Planned) -> str:
    """A stable name of a plan: the same plan, saved and loaded again, has the same id
    (its data with sorted keys, whatever the layout of the file it was read from)."""
    canonical = json.dumps(plan.to_data(), sort_keys=True, separators=(",", ":"))
    digest = hashlib.sha256(canonical.encode("utf-8")).hexdigest()
    return digest[:16]


class RolloutBusy(RuntimeError):
    """Another run (another console, or another task) holds this plan's log."""


class RolloutLog:
    """What has been done for one plan, on disk next to the journal (one JSON line each).

    Named after the rollout, its first user; onboarding keeps one per file. A rerun of
    the same plan (after a cancel, a crash, a dropped SSH session) reads it and skips what
    is done; a done result is never replaced by a later one. A line cut by a crash is
    skipped (that item is looked at again: the platform tells). The file is mode 0600
    and holds no token. `hold` takes an exclusive lock, so that two runs of one plan
    never write the same items twice.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.results: dict[tuple[int, str], AccountResult] = {}
        self._lock_fd: int | None = None
        self._folder_made = False
        self._load()

    def _load(self) -> None:
        if not self.path.exists():
            return
        for raw in self.path.read_bytes().split(b"\n"):
            try:
                result = AccountResult(**json.loads(raw.decode("utf-8")))
            except (TypeError, ValueError):
                continue  # empty, or cut by a crash
            self._keep(result)

    @classmethod
    def for_plan(cls, plan: _Planned, directory: Path | None = None) -> RolloutLog:
        """A rollout plan's log (under the state folder's ``rollouts``)."""
        folder = directory or (state_dir() / "rollouts")
        return cls(folder / f"{plan_id(plan)}.jsonl")

    def _keep(self, result: AccountResult) -> None:
        key = (result.account_id, result.step)
        old = self.results.get(key)
        if old is None or old.result not in DONE:  # done stays done
            self.results[key] = result

    def hold(self) -> None:
        """Take this plan's lock for the life of the process (or until `release`).

        Raises:
            RolloutBusy: another run of this plan holds it.
        """
        if self._lock_fd is not None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd = os.open(self.path.with_suffix(".lock"), os.O_WRONLY | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            os.close(fd)
            raise RolloutBusy("another run of this plan is under way") from exc
        self._lock_fd = fd
        self._load()  # what another console did while it held the lock

    @property
    def held(self) -> bool:
        """Whether this object holds the plan's lock (between `hold` and `release`)."""
        return self._lock_fd is not None

    def release(self) -> None:
        if self._lock_fd is not None:
            os.close(self._lock_fd)  # closing drops the lock
            self._lock_fd = None

    def done(self, account_id: int, step: Step) -> bool:
        result = self.results.get((account_id, step))
        return result is not None and result.result in DONE

    def record(self, result: AccountResult) -> None:
        """Keep ``result`` and append it; a failed append is raised (disk full...)."""
        self._keep(result)
        if not self._folder_made:  # once: a record per account is on the hot path
            self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            self._folder_made = True
        fields = {"account_id": result.account_id, "step": result.step,
                  "result": result.result, "message": result.message}  # fmt: skip
        line = (json.dumps(fields, ensure_ascii=False) + "\n").encode("utf-8")
        fd = os.open(self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            size = os.fstat(fd).st_size
            if size and os.pread(fd, 1, size - 1) != b"\n":
                line = b"\n" + line  # a line cut by a crash stays apart from this one
            view = memoryview(line)
            while view:
                view = view[os.write(fd, view) :]
        finally:
            os.close(fd)

    def count(self, step: Step, result: Result) -> int:
        return sum(1 for (_, s), r in self.results.items() if s == step and r.result == result)

    def written(self) -> list[int]:
        """Accounts whose staging write is done (what a publish goes over)."""
        return [a for (a, step), r in self.results.items() if step == "write" and r.result in DONE]


# --------------------------------------------------------------------------- the engine


async def apply_each(
    items: Iterable[T],
    log: RolloutLog,
    step: Step,
    key: Callable[[T], int],
    prepare: Prepare[T],
    *,
    mark_sent: bool = False,
    concurrency: int = DEFAULT_CONCURRENCY,
    on_result: Callable[[AccountResult], object] | None = None,
    stop: Callable[[], bool] | None = None,
) -> list[AccountResult]:
    """Apply ``step`` to every item not done yet by ``log``, each once, at most
    ``concurrency`` at a time; the results, in the order they came.

    An item listed twice (the same key) is applied once. Each result is recorded in
    ``log`` before ``on_result`` hears it (a failed record stops the run: what followed
    would go unrecorded; a failing ``on_result`` stops nothing). ``mark_sent``: each
    item is recorded as ``unknown`` (`SENT`) before its write goes out, so that a run
    killed mid-way leaves a mark its rerun's ``prepare`` sees as the earlier result.
    Once ``stop()`` is true no item is started and those under way finish. Cancelling
    the awaiting task abandons the writes in flight too (a rerun finds them by reading
    back); what was done is in ``log``.

    Raises:
        RolloutBusy: another run of this plan is under way.
    """
    log.hold()
    results: list[AccountResult] = []
    todo: list[T] = []
    seen: set[int] = set()
    for item in items:
        k = key(item)
        if k not in seen and not log.done(k, step):
            seen.add(k)
            todo.append(item)

    async def each(item: T) -> None:
        k = key(item)
        result = await _apply_one(k, step, prepare(item, log.results.get((k, step))), log,
                                  mark_sent)  # fmt: skip
        log.record(result)
        results.append(result)
        if on_result is not None:
            with contextlib.suppress(Exception):  # a progress display's failure is its own
                on_result(result)

    await in_pool(todo, concurrency, each, stop=stop)
    return results


async def _apply_one(
    k: int,
    step: Step,
    prepared: Awaitable[AccountResult | Attempt],
    log: RolloutLog,
    mark_sent: bool,
) -> AccountResult:
    try:
        ready = await prepared
    except PlatformError as exc:
        return AccountResult(k, step, "failed", describe(exc))
    except Refused as exc:
        return AccountResult(k, step, "failed", str(exc))
    if isinstance(ready, AccountResult):
        return ready
    if mark_sent:
        log.record(AccountResult(k, step, "unknown", SENT))  # before it goes out
    try:
        message = await ready.send()
    except Refused as exc:
        return AccountResult(k, step, "failed", str(exc))
    except PlatformError as exc:
        if not outcome_unknown(exc):
            return AccountResult(k, step, "failed", describe(exc))
        try:
            there = await ready.read_back()
        except (PlatformError, Refused):
            return AccountResult(k, step, "unknown", describe(exc))
        said = f"{ready.noun} is " if ready.noun else ""
        why = f"{describe(exc)}; read back: {said}{'there' if there else 'not there'}"
        return AccountResult(k, step, DONE_AS[step] if there else "unknown", why)
    return AccountResult(k, step, DONE_AS[step], message)
