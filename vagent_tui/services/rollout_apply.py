"""Applying a rollout plan (`vagent_tui.services.rollout`): staging writes, then publishes.

`apply_rollout` writes the staging of the ``change`` accounts, reading each again first:
one that moved since the plan is skipped as ``changed-meanwhile``, one an earlier run
wrote before it was cut off is recorded as written. `publish_rollout` publishes a wave of
the written ones, only where staging still holds what the rollout wrote. Both are steps
of the bulk engine (`vagent_tui.services.bulk`): each account's result is recorded in its
`RolloutLog` on disk (locked per plan, a done result stays done), so a rerun of the same
plan skips what is done; neither resends a write whose reply was lost: it is read back.
Also here: the plans kept on disk to resume (`save_plan`, `saved_rollouts`).
"""

from __future__ import annotations

import asyncio
import json
import os
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from vagent_tui.api.client import PlatformClient
from vagent_tui.config import state_dir
from vagent_tui.services.bulk import (
    DEFAULT_CONCURRENCY,
    AccountResult,
    Attempt,
    RolloutLog,
    apply_each,
    plan_id,
)
from vagent_tui.services.diff import diff_configs, holds
from vagent_tui.services.masking import Redact
from vagent_tui.services.reread import read_again
from vagent_tui.services.rollout import AccountPlan, RolloutPlan


async def _base_now(client: PlatformClient, account_id: int) -> dict[str, Any] | None:
    """Staging, or live when staging is empty: both asked at once (one round trip), and
    only the one returned checked against the model (`PlatformClient.slot_as_sent`)."""
    staging, live = await asyncio.gather(
        client.get_slot("staging", target=account_id, checked=False),
        client.get_slot("default", target=account_id, checked=False),
    )
    base = staging if staging is not None else live
    return None if base is None else client.slot_as_sent(base)


async def apply_rollout(
    client: PlatformClient,
    plan: RolloutPlan,
    log: RolloutLog,
    *,
    concurrency: int = DEFAULT_CONCURRENCY,
    on_result: Callable[[AccountResult], object] | None = None,
    stop: Callable[[], bool] | None = None,
) -> list[AccountResult]:
    """Write the staging of every ``change`` account not done yet (by ``log``), through
    the bulk engine (`vagent_tui.services.bulk.apply_each`).

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
    changing = [p for p in plan.accounts if p.outcome == "change"]
    return await apply_each(changing, log, "write", _account_id, lambda p, _: _write_one(client, p),
                            concurrency=concurrency, on_result=on_result, stop=stop)  # fmt: skip


def _account_id(p: AccountPlan) -> int:
    return p.account_id


def _holds(config: Mapping[str, Any] | None, p: AccountPlan, base: Mapping[str, Any]) -> bool:
    """Whether ``config`` is what the plan's write makes of its ``base`` (``p.base``)."""
    return not diff_configs({**base, **p.body}, config or {})


async def _write_one(client: PlatformClient, p: AccountPlan) -> AccountResult | Attempt:
    now = await read_again(client, lambda: _base_now(client, p.account_id))
    base = p.base or {}
    if _holds(now, p, base):
        return AccountResult(p.account_id, "write", "written", "found written (an earlier run)")
    if diff_configs(base, now or {}):
        return AccountResult(p.account_id, "write", "changed-meanwhile",
                             "staging changed since the plan: plan it again")  # fmt: skip

    async def send() -> str:
        await client.write_staging(p.body, target=p.account_id)
        return ""

    async def read_back() -> bool:
        staging = await read_again(client, lambda: client.get_slot("staging", target=p.account_id))
        return holds(staging or {}, p.body)

    return Attempt(send, read_back, noun="the change")


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
    """Publish the staging of ``account_ids`` (one wave) not published yet, through the
    bulk engine (`vagent_tui.services.bulk.apply_each`).

    Only staging that still holds what the rollout wrote is published: staging that
    someone changed since is ``changed-meanwhile`` (it would put their unreviewed edit
    live), empty staging is ``nothing`` (already published, or reverted). A lost reply
    is read back: ``published`` only if live now is what staging was.

    Raises:
        RolloutBusy: another run of this plan is under way.
    """
    by_id = {p.account_id: p for p in plan.accounts}
    wave = [by_id[a] for a in account_ids if a in by_id]
    return await apply_each(wave, log, "publish", _account_id,
                            lambda p, _: _publish_one(client, p),
                            concurrency=concurrency, on_result=on_result, stop=stop)  # fmt: skip


async def _publish_one(client: PlatformClient, p: AccountPlan) -> AccountResult | Attempt:
    account_id = p.account_id

    async def slots() -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
        staging, live = await asyncio.gather(
            client.get_slot("staging", target=account_id),
            client.get_slot("default", target=account_id),
        )
        return staging, live

    staging, live = await read_again(client, slots)
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
    published = staging

    async def send() -> str:
        reply = await client.publish_staging(target=account_id)
        return f"version {reply.version_id} saved" if reply.version_id else ""

    async def read_back() -> bool:
        now_live = await read_again(client, lambda: client.get_slot("default", target=account_id))
        return not diff_configs(published, now_live or {})

    return Attempt(send, read_back)


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
        "change": plan.describe(),
        "chosen": plan.chosen,
        "to_write": len(plan.changing()),
    }
    write_private(folder / f"{name}.meta.json", json.dumps(meta, ensure_ascii=False))
    write_private(path, plan.to_json())  # last: a plan file always has its meta
    return path


def write_private(path: Path, text: str) -> None:
    """Write a plan file (any kind: rollout, folder, onboarding, tasks) whole or not at
    all, readable by its owner only (0600): a plan holds what was read, unmasked (each
    account's configuration, the rows of a file). A temporary file of a name of its own
    beside ``path`` is written, then renamed over it (a file there before, of any mode,
    is replaced by this one); nothing is left behind when the write fails.

    Raises:
        OSError: the folder is missing or not writable, or the disk is full.
    """
    fd, partial = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.fchmod(fd, 0o600)  # mkstemp makes it so; said, not assumed
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(partial, path)
    except BaseException:
        Path(partial).unlink(missing_ok=True)
        raise


@dataclass
class SavedRollout:
    """A plan kept by `save_plan`, and how far its log says it went (the plan itself is
    read only when asked for: `read`)."""

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

    def read(self, redact: Redact | None = None) -> RolloutPlan:
        """The plan, read from its file now and checked as any plan file is (a folder
        plan writing back what the key's ``redact`` masked is refused, as everywhere).

        Raises:
            ValueError: the file no longer reads as a plan.
            OSError: the file cannot be read.
        """
        return RolloutPlan.from_json(self.path.read_text(encoding="utf-8"), redact)

    @property
    def finished(self) -> bool:
        """Every account to change has a write result, every written one a publish result."""
        return self.settled >= self.to_write and self.publish_settled >= self.written


def _meta(path: Path) -> dict[str, Any] | None:
    """The plan file's meta (from its ``.meta.json``, else from the plan read whole)."""
    meta_path = path.with_name(path.name.removesuffix(".plan.json") + ".meta.json")
    try:
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        if isinstance(meta, dict) and isinstance(meta.get("to_write"), int):
            return meta
    except (OSError, ValueError):
        pass
    try:
        plan = RolloutPlan.from_json(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    to_write = len(plan.changing())
    return {"origin": plan.origin, "change": plan.describe(), "to_write": to_write}


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
        meta = _meta(path)
        if meta is None:
            continue
        log = RolloutLog(folder / (path.name.removesuffix(".plan.json") + ".jsonl"))
        writes = {a for (a, step) in log.results if step == "write"}
        publishes = {a for (a, step) in log.results if step == "publish"}
        found.append(SavedRollout(
            path, log, when, str(meta.get("origin", "")), str(meta.get("change", "")),
            int(meta["to_write"]), len(log.written()), log.count("publish", "published"),
            len(writes), len(publishes),
        ))  # fmt: skip
    return found
