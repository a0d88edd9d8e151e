"""``vagent-tui tasks plan FILE.csv`` and ``tasks apply PLAN.json``: tasks queued from a
CSV file, as the Tasks screen's ``u`` queues them (`vagent_tui.services.tasks_csv`).

``plan`` is the platform's dry run of the file (``POST /tasks/csv`` with ``dryRun``: its
checks of each row, the number, the time, the account, the limits; nothing queued), one
item per row; ``--out`` keeps it as a plan file. ``apply PLAN.json`` runs the dry run
again (the plan is refused when the platform answers otherwise now), then queues the
file, once: the plan's log on disk (`vagent_tui.services.bulk.RolloutLog`) marks it sent
before it goes, and a second apply of the same plan sends nothing. ``apply FILE.csv
--yes`` asks nothing: the dry run, then the upload, as the screen after its question;
once too: its log is the file content's (with the platform and the account), so a job
run again sends nothing and exits 1. ``--again`` sends either once more.

Exit codes of ``plan``: 2 when a row would be queued (refused rows are said on stderr
with their line), 1 when none would be or the file is refused, 0 never (a file has rows).
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from vagent_tui.commands.contract import CHANGES, DONE, ERROR, PARTIAL, CommandError, Refused
from vagent_tui.words import counted

if TYPE_CHECKING:
    from pathlib import Path

    from vagent_tui.api.models import CsvRow, CsvUpload
    from vagent_tui.commands.runner import Context
    from vagent_tui.services.bulk import RolloutLog

PLAN_KIND = "tasks-plan"
COLUMNS = ("row", "target", "type", "outcome", "reason", "task_id")


def add_parser(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser
) -> None:
    parser = sub.add_parser(
        "tasks", parents=[common], help="queue calls and texts from a CSV file (dry run first)",
        description="Tasks from a CSV file, as the Tasks screen's u: a header row naming "
        "target (type, message, context, scheduledFor, accountId... optional); the "
        "platform checks each row in a dry run first. Acts as the voice agent account "
        "--account names (or the profile's target).",
    )  # fmt: skip
    verbs = parser.add_subparsers(dest="verb", required=True, metavar="plan|apply")
    plan = verbs.add_parser(
        "plan", parents=[common], help="the platform's dry run of FILE.csv: what would be queued",
        description="The platform's dry run of FILE.csv (nothing is queued): one item per "
        "row, would-queue or refused and why. Exit 2 when a row would be queued, 1 when "
        "none would (or the file is refused).",
    )  # fmt: skip
    plan.add_argument("file", metavar="FILE.csv")
    plan.add_argument(
        "--dry-run", action="store_true",
        help="say it: a plan is always the platform's dry run (nothing is queued)",
    )  # fmt: skip
    plan.add_argument(
        "--out", metavar="PLAN.json",
        help="keep the plan (and the file) for `tasks apply`, mode 0600: it holds FILE.csv "
        "as read, unmasked (phone numbers, messages). - : stdout, the plan only, for a pipe "
        "(refused when stdout is a terminal)",
    )  # fmt: skip
    plan.set_defaults(run="tasks:plan")
    apply = verbs.add_parser(
        "apply", parents=[common], help="queue a plan's tasks (phones ring)",
        description="Queue the tasks of PLAN.json (made by `tasks plan --out`): the dry "
        "run is asked again and must answer as the plan says; the file is sent once (a "
        "second apply of the plan sends nothing). FILE.csv with --yes: the dry run, then "
        "the upload, without a plan, once: a second apply of the same content to the same "
        "account (a job run again after a lost reply) sends nothing and exits 1, unless "
        "--again. --dry-run: the dry run only (as `tasks plan`).",
    )  # fmt: skip
    apply.add_argument("plan_file", metavar="PLAN.json", help="a plan file, or FILE.csv with --yes")
    apply.add_argument("--yes", action="store_true", help="queue FILE.csv without a plan file")
    apply.add_argument(
        "--again", action="store_true",
        help="send it even though an earlier apply of the same plan (or file, to the same "
        "account) sent it: its rows are queued once more (phones ring again)",
    )  # fmt: skip
    apply.add_argument("--dry-run", action="store_true", help="the dry run only: nothing queued")
    apply.set_defaults(run="tasks:apply")


# ------------------------------------------------------------------------------ plan


async def plan(ctx: Context) -> int:
    from pathlib import Path

    out: str | None = getattr(ctx.args, "out", None)
    ctx.plan_to_stdout(out)  # refused on a terminal before any read
    path = Path(ctx.args.file).expanduser()
    content, header = _read(path)
    result = await _dry_run(ctx, path.name, content)
    if out == "-":
        ctx.write_document(_dumps(plan_data(ctx, path.name, content, result)))
        ctx.stdout.flush()
    else:
        with ctx.output("tasks-row", COLUMNS) as output:
            for row in result.rows:
                output.write(row_item(row, header, dry_run=True))
        if out:
            ctx.write_plan(out, _dumps(plan_data(ctx, path.name, content, result)))
    return _said(ctx, path.name, result, header, out)


def _said(
    ctx: Context, name: str, result: CsvUpload, header: dict[str, int], out: str | None
) -> int:
    from vagent_tui.services.tasks_csv import what_it_queues

    for row in result.refused_rows():
        ctx.messages.error(f"{name}: {where(row, header)}: {_text(row.reason)}")
    queued = result.queued_rows()
    if not queued:
        ctx.messages.error(f"{name}: no row would be queued ({len(result.rows)} refused)")
        return ERROR
    _calls, what = what_it_queues(queued)
    ctx.messages.say(
        f"{name}: {len(queued)} of {counted(len(result.rows), 'row')} would be queued "
        f"({what}); nothing was queued"
        + (f". vagent-tui tasks apply {out} queues them" if out and out != "-" else "")
    )
    return CHANGES


def where(row: CsvRow, header: dict[str, int]) -> str:
    """``line 3, column 2 (target)``: the row's line, and the column its reason names."""
    column = column_of(row, header)
    line = f"line {_text(row.row)}"
    return f"{line}, column {header[column]} ({column})" if column else line


def column_of(row: CsvRow, header: dict[str, int]) -> str | None:
    """The file's column the platform's reason names first (``scheduledFor must be Unix
    seconds``: scheduledFor), else None."""
    import re

    words: list[str] = re.findall(r"[A-Za-z_]+", _text(row.reason))
    return next((word for word in words if word in header), None)


def _text(value: Any) -> str:
    return "" if value is None else str(value)


def _read(path: Path) -> tuple[bytes, dict[str, int]]:
    """The file's bytes and its header's columns (numbered from 1), checked as the screen
    checks them, and for a header naming ``target`` (else nothing is sent)."""
    import csv
    import io

    from vagent_tui.services.tasks_csv import csv_problem

    problem = csv_problem(str(path))
    if problem is not None:
        raise CommandError(problem)
    try:
        content = path.read_bytes()
        text = content.decode("utf-8-sig")
        # What is sent, planned and hashed is the text without a byte-order mark
        # (a spreadsheet's "CSV UTF-8" has one): the plan stores that text, and its hash
        # must be of the same bytes, or the plan could never be applied.
        content = text.encode("utf-8")
    except OSError as exc:
        raise CommandError(f"could not read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise CommandError(f"{path.name}: not UTF-8 text (byte {exc.start})") from None
    first = next(csv.reader(io.StringIO(text)), [])
    header = {name.strip(): n for n, name in enumerate(first, start=1)}
    if "target" not in header:
        raise CommandError(f"{path.name}: line 1: the header names no target column")
    return content, header


def _need_agent(ctx: Context) -> int | None:
    if not ctx.connection.is_agent_selected:
        raise CommandError("tasks are an agent account's: name it with --account ID")
    return ctx.connection.target_id


async def _dry_run(ctx: Context, name: str, content: bytes) -> CsvUpload:
    from vagent_tui.services.tasks_csv import not_a_dry_run

    target = _need_agent(ctx)
    ctx.messages.say(f"Checking {name} (a dry run: nothing is queued)")
    result = await ctx.connection.api.upload_tasks_csv(
        content, dry_run=True, filename=name, target=target
    )
    if not_a_dry_run(result):
        raise CommandError(
            f"the platform did not answer {name} as a dry run (inserted {result.inserted!r}): "
            "its rows may be queued already; nothing more was sent (vagent-tui get tasks)"
        )
    return result


def row_item(row: CsvRow, header: dict[str, int], *, dry_run: bool) -> dict[str, Any]:
    """One row of the platform's answer, as ``tasks-row``."""
    outcome = ("would-queue" if dry_run else "queued") if row.ok is True else "refused"
    number = row.row
    return {
        "row": number if isinstance(number, int) and not isinstance(number, bool) else None,
        "target": _text(row.target), "type": _text(row.type) or None, "outcome": outcome,
        "reason": _text(row.reason) or None, "column": column_of(row, header),
        "task_id": _text(row.task_id) or None,
    }  # fmt: skip


# ------------------------------------------------------------------------------ plan files


def plan_data(ctx: Context, name: str, content: bytes, result: CsvUpload) -> dict[str, Any]:
    """A plan file: where it was made, the file itself, and the rows the dry run queued."""
    import hashlib

    from vagent_tui.commands.contract import CONTRACT_VERSION
    from vagent_tui.services.session import origin_of

    text = content.decode("utf-8-sig")
    return {
        "version": CONTRACT_VERSION, "kind": PLAN_KIND, "origin": origin_of(ctx.connection),
        "account": ctx.connection.target_id, "file": name,
        # the hash of what is stored (as `_load` checks it), not of the file's bytes
        "sha256": hashlib.sha256(text.encode("utf-8")).hexdigest(), "csv": text,
        "would_queue": sorted(_rows(result.queued_rows())),
        "refused": sorted(_rows(result.refused_rows())),
    }  # fmt: skip


def _rows(rows: list[CsvRow]) -> set[int]:
    return {r.row for r in rows if isinstance(r.row, int) and not isinstance(r.row, bool)}


def _dumps(data: dict[str, Any]) -> str:
    import json

    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


def _load(path: Path) -> dict[str, Any]:
    import hashlib
    import json

    from vagent_tui.commands.contract import CONTRACT_VERSION

    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise CommandError(f"could not read {path}: {exc.strerror or exc}") from None
    except ValueError as exc:
        raise CommandError(f"{path}: not JSON ({exc})") from None
    if not isinstance(data, dict) or data.get("kind") != PLAN_KIND:
        raise CommandError(f"{path}: not a tasks plan (made by `vagent-tui tasks plan --out`)")
    if data.get("version") != CONTRACT_VERSION:
        raise CommandError(f"{path}: a plan of version {data.get('version')!r}: plan it again")
    text = data.get("csv")
    if not isinstance(text, str) or not isinstance(data.get("would_queue"), list):
        raise CommandError(f"{path}: the plan is damaged: plan it again")
    if hashlib.sha256(text.encode("utf-8")).hexdigest() != data.get("sha256"):
        raise CommandError(f"{path}: its file was changed after the plan: plan it again")
    return data


# ------------------------------------------------------------------------------ apply


async def apply(ctx: Context) -> int:
    from pathlib import Path

    path = Path(ctx.args.plan_file).expanduser()
    if ctx.args.dry_run:
        ctx.args.file, ctx.args.out = ctx.args.plan_file, None
        return await plan(ctx)
    if path.suffix.lower() != ".json":  # a CSV: --yes is the question
        ctx.may_write()
        content, header = _read(path)
        return await _queue(ctx, _file_log(ctx, content), path.name, content, header, None)
    data = _load(path)
    return await _apply_plan(ctx, data)


async def _apply_plan(ctx: Context, data: dict[str, Any]) -> int:
    import csv
    import io

    from vagent_tui.services.session import origin_of

    here = origin_of(ctx.connection)
    if data.get("origin") != here:
        raise Refused(f"this plan was made for {data.get('origin')}; this is {here}: plan it here")
    if data.get("account") != ctx.connection.target_id:
        raise Refused(f"this plan was made for account {data.get('account')}: "
                      f"give --account {data.get('account')}")  # fmt: skip
    ctx.may_write(planned=True)
    content = data["csv"].encode("utf-8")
    name = str(data.get("file") or "tasks.csv")
    first = next(csv.reader(io.StringIO(data["csv"])), [])
    header = {h.strip(): n for n, h in enumerate(first, start=1)}
    return await _queue(ctx, _log_of(data), name, content, header, data)


async def _queue(
    ctx: Context,
    log: RolloutLog,
    name: str,
    content: bytes,
    header: dict[str, int],
    data: dict[str, Any] | None,
) -> int:
    """The upload for real, once (``--again``: once more). The log (of the plan ``data``,
    or of the file's content: None) says whether an earlier apply sent it: then nothing is
    sent. The dry run is asked first (a plan's must answer as it says), and the log marks
    the file sent before it goes."""
    from vagent_tui.services.bulk import RolloutBusy

    try:
        log.hold()
    except RolloutBusy as exc:
        raise CommandError(f"{exc}: nothing sent") from None
    try:
        earlier = log.results.get((0, "write"))
        if earlier is not None and earlier.result in ("written", "unknown") and not ctx.args.again:
            if data is not None and earlier.result == "written":
                ctx.messages.say(f"an earlier apply of this plan queued it: {earlier.message}")
                return DONE
            raise CommandError(_sent_before(ctx, name, earlier.result, earlier.message, data))
        again = await _dry_run(ctx, name, content)
        if data is None:
            if not again.queued_rows():
                return _said(ctx, name, again, header, None)
        else:
            now = sorted(_rows(again.queued_rows()))
            if now != data["would_queue"]:
                raise CommandError(
                    f"the platform's dry run answers otherwise now (rows {now} would be "
                    f"queued, the plan says {data['would_queue']}): plan it again; nothing "
                    "was queued"
                )
        return await _send(ctx, log, name, content, header)
    finally:
        log.release()


def _sent_before(
    ctx: Context, name: str, result: str, message: str, data: dict[str, Any] | None
) -> str:
    """Why an apply sends nothing: an earlier one sent the same plan (or file)."""
    what = "this plan" if data is not None else f"the same {name} to this account"
    check = f"vagent-tui get tasks --account {ctx.connection.target_id}"
    if result == "unknown":
        said = f"an earlier apply of {what} sent it and has no answer ({message})"
        said += ": its tasks may be queued"
    else:
        said = f"an earlier apply of {what} queued it ({message})"
    return f"{said}; it is not sent again: see {check}, or give --again to send it once more"


async def _send(
    ctx: Context, log: RolloutLog, name: str, content: bytes, header: dict[str, int]
) -> int:
    """The upload, its outcome recorded in ``log`` (marked sent before it goes)."""
    from vagent_tui.api.errors import PlatformError, outcome_unknown
    from vagent_tui.services.bulk import SENT, AccountResult
    from vagent_tui.services.fleet import describe

    log.record(AccountResult(0, "write", "unknown", SENT))  # before it goes
    ctx.messages.say(f"Queuing the tasks of {name}")
    try:
        reply = await ctx.connection.api.upload_tasks_csv(
            content, dry_run=False, filename=name, target=ctx.connection.target_id
        )
    except PlatformError as exc:
        unknown = outcome_unknown(exc)
        log.record(AccountResult(0, "write", "unknown" if unknown else "failed", describe(exc)))
        if unknown:
            raise CommandError(
                f"{name}: {describe(exc)}; its tasks may be queued (vagent-tui get "
                "tasks): it is not sent again"
            ) from None
        raise
    said = f"{_text(reply.inserted)} queued from {name}; {_text(reply.refused)} refused"
    log.record(AccountResult(0, "write", "written", said))
    with ctx.output("tasks-row", COLUMNS) as output:
        for row in reply.rows:
            output.write(row_item(row, header, dry_run=False))
    ctx.messages.say(said)
    return PARTIAL if reply.refused_rows() else DONE


def _tasks_dir() -> Path:
    from vagent_tui.config import state_dir

    return state_dir() / "tasks"


def _file_log(ctx: Context, content: bytes) -> RolloutLog:
    """The log of a file applied with ``--yes``: its content, the platform and the account
    name it, so that a job run again (a cron after a lost reply) does not queue the same
    rows twice; another file, platform or account has its own."""
    import hashlib

    from vagent_tui.services.bulk import RolloutLog
    from vagent_tui.services.session import origin_of

    file = hashlib.sha256(content).hexdigest()
    key = f"{origin_of(ctx.connection)}\n{ctx.connection.target_id}\n{file}"
    return RolloutLog(_tasks_dir() / f"file-{hashlib.sha256(key.encode()).hexdigest()[:16]}.jsonl")


def _log_of(data: dict[str, Any]) -> RolloutLog:
    """The log of one plan (its content names it): what its applies sent."""
    import hashlib
    import json

    from vagent_tui.services.bulk import RolloutLog

    canonical = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return RolloutLog(_tasks_dir() / f"{hashlib.sha256(canonical.encode()).hexdigest()[:16]}.jsonl")
