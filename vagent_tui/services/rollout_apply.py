"""Applying a rollout plan (`vagent_tui.services.rollout`): staging writes, then publishes.

`apply_rollout` writes the staging of the ``change`` accounts, reading each again first:
one that moved since the plan is skipped as ``changed-meanwhile``, one an earlier run
wrote before it was cut off is recorded as written. `publish_rollout` publishes a wave of
the written ones, only where staging still holds what the rollout wrote. Both record each
account's result in a `RolloutLog` on disk (locked per plan, a done result stays done),
so a rerun of the same plan skips what is done; neither resends a write whose reply was
lost: it is read back.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import hashlib
import json
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from vagent_tui.api.client import PlatformClient
from vagent_tui.api.errors import PlatformError, outcome_unknown
from vagent_tui.config import state_dir
from vagent_tui.services.diff import diff_configs, holds
from vagent_tui.services.fleet import describe
from vagent_tui.services.reread import read_again
from vagent_tui.services.rollout import DEFAULT_CONCURRENCY, AccountPlan, RolloutPlan, in_pool

Step = Literal["write", "publish"]
Result = Literal["written", "published", "changed-meanwhile", "failed", "unknown", "nothing"]
DONE: frozenset[str] = frozenset({"written", "published"})


@dataclass(frozen=True)
class AccountResult:
    """How one account's write or publish ended (``message``: the platform's, or why)."""

    account_id: int
    step: Step
    result: Result
    message: str = ""


def plan_id(plan: RolloutPlan) -> str:
    """A stable name of a plan: the same plan, saved and loaded again, has the same id
    (its data with sorted keys, whatever the layout of the file it was read from)."""
    canonical = json.dumps(plan.to_data(), sort_keys=True, separators=(",", ":"))
    digest = hashlib.sha256(canonical.encode("utf-8")).hexdigest()
    return digest[:16]


class RolloutBusy(RuntimeError):
    """Another run (another console, or another task) holds this plan's log."""


class RolloutLog:
    """What has been done for one plan, on disk next to the journal (one JSON line each).

    A rerun of the same plan (after a cancel, a crash, a dropped SSH session) reads it
    and skips what is done; a done result is never replaced by a later one. A line cut
    by a crash is skipped (that account is looked at again: its staging tells). The file
    is mode 0600 and holds no token. `hold` takes an exclusive lock, so that two runs of
    one plan never write the same accounts twice.
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
    def for_plan(cls, plan: RolloutPlan, directory: Path | None = None) -> RolloutLog:
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


async def _base_now(client: PlatformClient, account_id: int) -> dict[str, Any] | None:
    """Staging, or live when staging is empty: both asked at once (one round trip), and
    only the one returned checked against the model (`PlatformClient.slot_as_sent`)."""
    staging, live = await asyncio.gather(
        client.get_slot("staging", target=account_id, checked=False),
        client.get_slot("default", target=account_id, checked=False),
    )
    base = staging if staging is not None else live
    return None if base is None else client.slot_as_sent(base)


def _settle(
    log: RolloutLog,
    result: AccountResult,
    sink: list[AccountResult],
    on_result: Callable[[AccountResult], object] | None,
) -> None:
    """Record a result; a callback's failure never stops the other accounts."""
    log.record(result)  # a failed record stops the run: what follows would go unrecorded
    sink.append(result)
    if on_result is not None:
        with contextlib.suppress(Exception):  # a progress display's failure is its own
            on_result(result)


async def apply_rollout(
    client: PlatformClient,
    plan: RolloutPlan,
    log: RolloutLog,
    *,
    concurrency: int = DEFAULT_CONCURRENCY,
    on_result: Callable[[AccountResult], object] | None = None,
    stop: Callable[[], bool] | None = None,
) -> list[AccountResult]:
    """Write the staging of every ``change`` account not done yet (by ``log``).

    Each account's staging is read again first. Already holding the change (an earlier
    run wrote it and was cut off before recording it): ``written``. Moved otherwise
    since the plan: nothing is written, ``changed-meanwhile``. A write is never retried:
    when its reply is lost, staging is read back (``written`` if the change is there,
    else ``unknown``). One account is written once, even if listed twice. Once ``stop()``
    is true no account is started and those under way finish (a gentle cancel: every
    write sent gets its result). Cancelling the awaiting task abandons the writes in
    flight too (a rerun finds them by reading staging); what was written is in ``log``.

    Raises:
        RolloutBusy: another run of this plan is under way.
    """
    log.hold()
    results: list[AccountResult] = []
    seen: set[int] = set()
    todo: list[AccountPlan] = []
    for p in plan.accounts:
        if (
            p.outcome == "change"
            and p.account_id not in seen
            and not log.done(p.account_id, "write")
        ):
            seen.add(p.account_id)
            todo.append(p)

    async def each(p: AccountPlan) -> None:
        _settle(log, await _write_one(client, p), results, on_result)

    await in_pool(todo, concurrency, each, stop=stop)
    return results


def _holds(config: Mapping[str, Any] | None, p: AccountPlan, base: Mapping[str, Any]) -> bool:
    """Whether ``config`` is what the plan's write makes of its ``base`` (``p.base``)."""
    return not diff_configs({**base, **p.body}, config or {})


async def _write_one(client: PlatformClient, p: AccountPlan) -> AccountResult:
    try:
        now = await read_again(client, lambda: _base_now(client, p.account_id))
    except PlatformError as exc:
        return AccountResult(p.account_id, "write", "failed", describe(exc))
    base = p.base or {}
    if _holds(now, p, base):
        return AccountResult(p.account_id, "write", "written", "found written (an earlier run)")
    if diff_configs(base, now or {}):
        return AccountResult(p.account_id, "write", "changed-meanwhile",
                             "staging changed since the plan: plan it again")  # fmt: skip
    try:
        await client.write_staging(p.body, target=p.account_id)
    except PlatformError as exc:
        if not outcome_unknown(exc):
            return AccountResult(p.account_id, "write", "failed", describe(exc))
        try:
            staging = await read_again(
                client, lambda: client.get_slot("staging", target=p.account_id)
            )
            after = staging or {}
        except PlatformError:
            return AccountResult(p.account_id, "write", "unknown", describe(exc))
        there = holds(after, p.body)
        why = f"{describe(exc)}; read back: the change is {'there' if there else 'not there'}"
        return AccountResult(p.account_id, "write", "written" if there else "unknown", why)
    return AccountResult(p.account_id, "write", "written")


def other_edits(
    live: Mapping[str, Any] | None, staging: Mapping[str, Any], body: Mapping[str, Any]
) -> list[str]:
    """The fields in which publishing ``staging`` would change live beyond ``body``."""
    return sorted({d.path.split("[")[0].split(".")[0]
                   for d in diff_configs({**(live or {}), **body}, staging)})  # fmt: skip


async def publish_rollout(
    client: PlatformClient,
    plan: RolloutPlan,
    account_ids: Sequence[int],
    log: RolloutLog,
    *,
    concurrency: int = DEFAULT_CONCURRENCY,
    on_result: Callable[[AccountResult], object] | None = None,
    stop: Callable[[], bool] | None = None,
) -> list[AccountResult]:
    """Publish the staging of ``account_ids`` (one wave) not published yet.

    Only staging that still holds what the rollout wrote is published: staging that
    someone changed since is ``changed-meanwhile`` (it would put their unreviewed edit
    live), empty staging is ``nothing`` (already published, or reverted). A lost reply
    is read back: ``published`` only if live now is what staging was.

    Raises:
        RolloutBusy: another run of this plan is under way.
    """
    log.hold()
    by_id = {p.account_id: p for p in plan.accounts}
    results: list[AccountResult] = []
    todo = [a for a in dict.fromkeys(account_ids) if a in by_id and not log.done(a, "publish")]

    async def each(account_id: int) -> None:
        _settle(log, await _publish_one(client, by_id[account_id]), results, on_result)

    await in_pool(todo, concurrency, each, stop=stop)
    return results


async def _publish_one(client: PlatformClient, p: AccountPlan) -> AccountResult:
    account_id = p.account_id

    async def slots() -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
        staging, live = await asyncio.gather(
            client.get_slot("staging", target=account_id),
            client.get_slot("default", target=account_id),
        )
        return staging, live

    try:
        staging, live = await read_again(client, slots)
    except PlatformError as exc:
        return AccountResult(account_id, "publish", "failed", describe(exc))
    base = p.base or {}
    if staging is None:
        if _holds(live, p, base):  # an earlier run published it and was cut off before recording
            return AccountResult(account_id, "publish", "published", "found published")
        return AccountResult(account_id, "publish", "nothing", "staging is empty")
    if not _holds(staging, p, base):
        why = "staging changed since the rollout wrote it: not published"
        return AccountResult(account_id, "publish", "changed-meanwhile", why)
    others = other_edits(live, staging, p.body)
    if others:  # publishing would put them live too, unreviewed (or undo a newer live)
        why = (f"staging differs from live in more than the rollout's change "
               f"({', '.join(others[:4])}{'…' if len(others) > 4 else ''}): not published; "
               "review it on the Agent screen")  # fmt: skip
        return AccountResult(account_id, "publish", "changed-meanwhile", why)
    try:
        reply = await client.publish_staging(target=account_id)
    except PlatformError as exc:
        if not outcome_unknown(exc):
            return AccountResult(account_id, "publish", "failed", describe(exc))
        try:
            now_live = await read_again(
                client, lambda: client.get_slot("default", target=account_id)
            )
        except PlatformError:
            return AccountResult(account_id, "publish", "unknown", describe(exc))
        done = not diff_configs(staging, now_live or {})
        result: Result = "published" if done else "unknown"
        return AccountResult(account_id, "publish", result, f"{describe(exc)}; read back")
    saved = f"version {reply.version_id} saved" if reply.version_id else ""
    return AccountResult(account_id, "publish", "published", saved)


def results_csv(plan: RolloutPlan, log: RolloutLog) -> str:
    """The plan as CSV, with each account's write and publish result and message."""

    def results(p: AccountPlan) -> list[str]:
        cells: list[str] = []
        for step in ("write", "publish"):
            result = log.results.get((p.account_id, step))
            cells += [result.result, result.message] if result else ["", ""]
        return cells

    return plan.to_csv(("write", "write_message", "publish", "publish_message"), results)


# --------------------------------------------------------------------------- saved plans


def rollouts_dir() -> Path:
    return state_dir() / "rollouts"


def save_plan(
    plan: RolloutPlan, directory: Path | None = None, *, log: RolloutLog | None = None
) -> Path:
    """Keep ``plan`` next to its log (``<plan id>.plan.json``, mode 0600; beside ``log``
    and named alike when given), so that a console started again after a crash or a
    dropped session can finish it; a small ``.meta.json`` beside it says what it is, so
    that listing the kept plans never reads them whole."""
    folder = log.path.parent if log is not None else (directory or rollouts_dir())
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    name = log.path.stem if log is not None else plan_id(plan)
    path = folder / f"{name}.plan.json"
    if path.exists():
        return path
    meta = {
        "origin": plan.origin,
        "change": plan.change.describe(),
        "chosen": plan.chosen,
        "to_write": len(plan.changing()),
    }
    _write_private(folder / f"{name}.meta.json", json.dumps(meta, ensure_ascii=False))
    _write_private(path, plan.to_json())  # last: a plan file always has its meta
    return path


def _write_private(path: Path, text: str) -> None:
    """Write ``text`` whole or not at all (a temporary file renamed), mode 0600."""
    partial = path.with_suffix(".tmp")
    fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(text)
    os.replace(partial, path)


@dataclass
class SavedRollout:
    """A plan kept by `save_plan`, and how far its log says it went (the plan itself is
    read only when asked for: `plan`)."""

    path: Path
    log: RolloutLog
    """Its log: the one beside the plan file (named alike), whatever id the plan has now."""
    modified: float
    origin: str
    change: str
    """The change, described in one line."""
    to_write: int
    written: int
    published: int
    settled: int
    """Accounts with any write result (done, skipped, failed)."""
    publish_settled: int
    _plan: RolloutPlan | None = None

    @property
    def plan(self) -> RolloutPlan:
        """The plan, read from its file on first use.

        Raises:
            ValueError: the file no longer reads as a plan.
            OSError: the file cannot be read.
        """
        if self._plan is None:
            self._plan = RolloutPlan.from_json(self.path.read_text(encoding="utf-8"))
        return self._plan

    @property
    def finished(self) -> bool:
        """Every account to change has a write result, every written one a publish result."""
        return self.settled >= self.to_write and self.publish_settled >= self.written


def _meta(path: Path) -> tuple[dict[str, Any], RolloutPlan | None] | None:
    """The plan file's meta (from its ``.meta.json``, else from the plan read whole)."""
    meta_path = path.with_name(path.name.removesuffix(".plan.json") + ".meta.json")
    try:
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        if isinstance(meta, dict) and isinstance(meta.get("to_write"), int):
            return meta, None
    except (OSError, ValueError):
        pass
    try:
        plan = RolloutPlan.from_json(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    to_write = len(plan.changing())
    return {"origin": plan.origin, "change": plan.change.describe(), "to_write": to_write}, plan


def saved_rollouts(directory: Path | None = None, *, limit: int = 30) -> list[SavedRollout]:
    """The kept plans, the most recently touched first (a plan file that does not read
    back is skipped). Plans are not read whole: their meta and logs are."""
    folder = directory or rollouts_dir()
    if not folder.is_dir():
        return []
    touched: list[tuple[float, Path]] = []
    for path in folder.glob("*.plan.json"):
        log_path = folder / (path.name.removesuffix(".plan.json") + ".jsonl")
        try:
            when = max(path.stat().st_mtime, log_path.stat().st_mtime if log_path.exists() else 0)
        except OSError:
            continue
        touched.append((when, path))
    touched.sort(key=lambda pair: -pair[0])
    found: list[SavedRollout] = []
    for when, path in touched:
        if len(found) >= limit:
            break
        got = _meta(path)
        if got is None:
            continue
        meta, plan = got
        log = RolloutLog(folder / (path.name.removesuffix(".plan.json") + ".jsonl"))
        writes = {a for (a, step) in log.results if step == "write"}
        publishes = {a for (a, step) in log.results if step == "publish"}
        found.append(SavedRollout(
            path, log, when, str(meta.get("origin", "")), str(meta.get("change", "")),
            int(meta["to_write"]), len(log.written()), log.count("publish", "published"),
            len(writes), len(publishes), plan,
        ))  # fmt: skip
    return found
