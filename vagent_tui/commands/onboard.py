"""``vagent-tui onboard plan FILE --out PLAN.json`` and ``onboard apply PLAN.json``.

The Onboard screen's plan of a file of organizations, agent accounts and members
(`vagent_tui.services.onboard`: the same planning, the same outcomes), one item per row;
then its apply (`vagent_tui.services.onboard_apply.apply_onboarding`) with the same log
on disk as the screen's (`vagent_tui.services.onboard_rows.log_for`: the file's rows and
the platform name it), so that a run killed mid-way is resumed by the console or by the
command line, each row written once.

Exit codes of ``plan``: 1 when a row has a problem (refused, an unknown parent: each said
on stderr with its line and column), else 3 when a row could not be read, else 2 when the
plan creates or updates something, else 0. A file bringing phone numbers (a fee each) is
applied only with ``--bring-numbers N`` or ``--spend-up-to AMOUNT``, as the screen asks
for the count typed after saying the catalog's price.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from vagent_tui.commands.contract import CHANGES, DONE, ERROR, PARTIAL, CommandError, Refused
from vagent_tui.commands.options import add_concurrency
from vagent_tui.words import counted

if TYPE_CHECKING:
    from decimal import Decimal
    from pathlib import Path

    from vagent_tui.commands.runner import Context
    from vagent_tui.services.bulk import AccountResult, RolloutLog
    from vagent_tui.services.onboard import OnboardPlan, RowPlan
    from vagent_tui.services.onboard_rows import Row

PLAN_KIND = "onboard-plan"
"""The ``kind`` of a plan file (its ``version``: the contract's)."""
ROW_COLUMNS = ("line", "type", "key", "name", "outcome", "detail")
RESULT_COLUMNS = ("line", "type", "key", "outcome", "result", "message")
TROUBLE = ("refused", "unknown-parent")
"""Outcomes of a row the file is wrong about (exit 1)."""


def add_parser(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser
) -> None:
    parser = sub.add_parser(
        "onboard", parents=[common],
        help="plan and apply a CSV of organizations, accounts and members (as the Onboard screen)",
        description="Onboarding from a spreadsheet, as the Onboard screen does it: `plan` "
        "matches each row by its external id (a member by email) and says what applying "
        "would do, nothing written; `apply` writes a plan file. A reseller's or partner's "
        "key (the rows are found with getAccountByExternalId).",
    )  # fmt: skip
    verbs = parser.add_subparsers(dest="verb", required=True, metavar="plan|apply")
    plan = verbs.add_parser(
        "plan", parents=[common], help="what applying FILE would do, row by row (nothing written)",
        description="Plan FILE (CSV with a header line, or a .json list of rows; columns: "
        "type, external_id, name, parent, billing_id, active, email, role, accounts, "
        "phone_number). One item per row: its outcome (create, update, already, refused, "
        "unknown-parent, unreadable), its changes, its problems with line and column. "
        "Exit 2 when it creates or updates something, 1 when a row has a problem, 3 when "
        "a row could not be read, 0 when there is nothing to do.",
    )  # fmt: skip
    plan.add_argument("file", metavar="FILE", help="the CSV (or .json) file of rows")
    plan.add_argument(
        "--out", metavar="PLAN.json",
        help="write the plan to this file for `onboard apply`, mode 0600: it holds the rows "
        "of FILE as read, unmasked (emails, phone numbers). - : stdout, the plan only, for "
        "a pipe (refused when stdout is a terminal)",
    )  # fmt: skip
    _concurrency(plan)
    plan.set_defaults(run="onboard:plan")
    apply = verbs.add_parser(
        "apply", parents=[common], help="apply a plan file (the plan is the question)",
        description="Create and update what PLAN.json (made by `onboard plan --out`) says: "
        "organizations first, then accounts, then members, with the same log as the "
        "Onboard screen: what an earlier run (killed, or the console's) wrote is skipped, a "
        "row sent without a reply is read back, never sent twice. A rows file instead of a "
        "plan is planned and applied with --yes. Exit 0 when every row is written, 3 when "
        "some failed (each item says why).",
    )  # fmt: skip
    apply.add_argument(
        "plan_file", metavar="PLAN.json", help="a plan file (or FILE.csv with --yes)"
    )
    apply.add_argument("--yes", action="store_true", help="apply a rows file without a plan file")
    money = apply.add_argument_group(
        "phone numbers (a fee each: one of these is needed when rows bring numbers)"
    )
    money.add_argument(
        "--bring-numbers", type=int, metavar="N",
        help="bring at most N phone numbers (the count the screen has typed)",
    )  # fmt: skip
    money.add_argument(
        "--spend-up-to", metavar="AMOUNT",
        help="bring numbers only while the catalog's fee of a number brought, times the "
        "numbers, stays at most AMOUNT (in the catalog's currency, each billing cycle)",
    )  # fmt: skip
    _concurrency(apply)
    apply.set_defaults(run="onboard:apply")


def _concurrency(parser: argparse.ArgumentParser) -> None:
    add_concurrency(parser, "rows in flight")


# ------------------------------------------------------------------------------ plan


async def plan(ctx: Context) -> int:
    from pathlib import Path

    ctx.plan_to_stdout(ctx.args.out)  # refused on a terminal before any read
    path = Path(ctx.args.file).expanduser()
    rows, header = _read(path)
    _need_external_ids(ctx)
    made = await _plan(ctx, rows, path.name)
    data = plan_data(made, rows)
    out = ctx.args.out
    if out == "-":
        ctx.write_document(_dumps(data))
        ctx.stdout.flush()
    else:
        with ctx.output("onboard-row", ROW_COLUMNS) as output:
            for p in made.rows:
                output.write(row_item(p, header))
        if out:
            ctx.write_plan(out, _dumps(data))
    return await _said(ctx, made, header, out)


async def _said(ctx: Context, made: OnboardPlan, header: dict[str, int], out: str | None) -> int:
    """The plan's problems and summary on stderr; its exit code."""
    messages = ctx.messages
    trouble = [p for p in made.rows if p.outcome in TROUBLE]
    for p in trouble:
        for problem in p.reasons:
            messages.error(f"{made.source}: {where(p.row.line, problem, header)}: {problem}")
    unreadable = [p for p in made.rows if p.outcome == "unreadable"]
    for p in unreadable:
        messages.warn(f"{made.source}: line {p.row.line}: could not be read: {p.reasons[0]}")
    writes = made.what_it_writes()
    does = f"it would {writes}" if made.writing() else "nothing to write"
    messages.say(f"Planned: {made.summary()}; {does}. Nothing written.")
    bring = sum(1 for p in made.rows if p.writes and p.bring)
    if bring:
        price = await _number_price(ctx)
        cost = f"{price[1]} each (the catalog)" if price else "a fee each (the catalog is silent)"
        messages.say(
            f"It brings {counted(bring, 'phone number')}: {cost}; "
            f"apply needs --bring-numbers {bring}"
            + (f" or --spend-up-to {price[0] * bring}" if price else "")
        )
    if made.writing() and out and out != "-" and not trouble:
        flags = f" --bring-numbers {bring}" if bring else ""
        messages.say(f"vagent-tui onboard apply {out}{flags} applies it")
    if trouble:
        return ERROR
    if unreadable:
        return PARTIAL
    return CHANGES if made.writing() else DONE


def where(line: int, problem: str, header: dict[str, int]) -> str:
    """``line 3, column 10 (phone_number)``: where a problem is (a JSON file: no number)."""
    from vagent_tui.services.onboard_rows import column_of

    column = column_of(problem)
    if not column:
        return f"line {line}"
    number = header.get(column)
    return f"line {line}, column {number} ({column})" if number else f"line {line}, {column}"


def _read(path: Path) -> tuple[list[Row], dict[str, int]]:
    """The file's rows and, for a CSV, its columns' numbers (from 1) by name."""
    import csv
    import io

    from vagent_tui.services.onboard_rows import MAX_BYTES, SourceError, read_rows

    try:
        if path.stat().st_size > MAX_BYTES:
            raise CommandError(f"{path}: larger than {MAX_BYTES // 2**20} MiB")
        text = path.read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise CommandError(f"could not read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise CommandError(f"{path}: not UTF-8 text") from None
    json_file = path.suffix.lower() == ".json"
    try:
        rows = read_rows(text, json_file=json_file)
    except SourceError as exc:
        raise CommandError(f"{path.name}: {exc}; nothing planned") from None
    header: dict[str, int] = {}
    if not json_file:
        first = next(csv.reader(io.StringIO(text)), [])
        header = {name.strip().lower(): n for n, name in enumerate(first, start=1)}
    return rows, header


def _need_external_ids(ctx: Context) -> None:
    connection = ctx.connection
    if not connection.reseller_or_partner_key:
        scope = connection.scope.label if connection.scope is not None else "not known"
        raise Refused(
            "onboarding matches each row by its external id (getAccountByExternalId), which "
            f"the platform answers a reseller's or partner's key only; this key: {scope}"
        )


async def _plan(ctx: Context, rows: list[Row], source: str) -> OnboardPlan:
    from vagent_tui.services.bulk import rollout_concurrency
    from vagent_tui.services.onboard import default_parent, plan_onboarding
    from vagent_tui.services.session import origin_of

    connection = ctx.connection
    done = 0

    def planned(_p: RowPlan) -> None:
        nonlocal done
        done += 1
        ctx.messages.progress(done, len(rows), "rows planned")

    return await plan_onboarding(
        connection.api, rows, default_parent=default_parent(connection),
        concurrency=ctx.args.concurrency or rollout_concurrency(), on_plan=planned,
        origin=origin_of(connection), source=source,
    )  # fmt: skip


def row_item(p: RowPlan, header: dict[str, int]) -> dict[str, Any]:
    """One row's plan, as ``onboard-row`` (`vagent_tui.commands.shapes_onboard`)."""
    from vagent_tui.services.onboard_rows import column_of

    row = p.row
    problems = [
        {"line": row.line, "column": column_of(r) or None,
         "column_number": header.get(column_of(r)), "message": str(r)}
        for r in p.reasons
    ]  # fmt: skip
    return {
        "line": row.line, "type": row.kind, "key": row.key, "name": row.name,
        "outcome": p.outcome, "changes": list(p.changes), "problems": problems,
        "detail": "; ".join(p.changes or p.reasons),
        "target_id": p.target_id, "parent_id": p.parent_id, "brings": p.bring or None,
    }  # fmt: skip


# ------------------------------------------------------------------------------ plan files


def plan_data(made: OnboardPlan, rows: list[Row]) -> dict[str, Any]:
    """A plan file's content: the rows as read (they name the log) and each row's plan."""
    from vagent_tui.commands.contract import CONTRACT_VERSION
    from vagent_tui.services.onboard_rows import COLUMNS, column_of, source_id

    return {
        "version": CONTRACT_VERSION, "kind": PLAN_KIND, "origin": made.origin,
        "source": made.source, "default_parent": made.default_parent,
        "log": source_id(rows, made.origin),
        "rows": [{"line": r.line, "type": r.kind, **{c: getattr(r, c) for c in COLUMNS[1:]}}
                 for r in rows],
        "plan": [
            {"line": p.row.line, "outcome": p.outcome, "changes": list(p.changes),
             "reasons": [{"message": str(r), "column": column_of(r)} for r in p.reasons],
             "target_id": p.target_id, "parent_id": p.parent_id, "body": p.body,
             "bring": p.bring}
            for p in made.rows
        ],
    }  # fmt: skip


def plan_from_data(data: Any) -> tuple[OnboardPlan, list[Row]]:
    """A plan file's plan and rows.

    Raises:
        CommandError: not a plan file of this version.
    """
    from vagent_tui.commands.contract import CONTRACT_VERSION
    from vagent_tui.services.onboard import OUTCOMES, OnboardPlan, RowPlan
    from vagent_tui.services.onboard_rows import COLUMNS, Problem, Row

    if not isinstance(data, dict) or data.get("kind") != PLAN_KIND:
        raise CommandError("not an onboarding plan file (made by `vagent-tui onboard plan --out`)")
    if data.get("version") != CONTRACT_VERSION:
        raise CommandError(f"a plan file of version {data.get('version')!r}: plan it again")
    try:
        rows = [
            Row(line=int(r["line"]), kind=str(r["type"]),
                **{c: str(r.get(c) or "") for c in COLUMNS[1:]})
            for r in data["rows"]
        ]  # fmt: skip
        by_line = {r.line: r for r in rows}
        plans = []
        for p in data["plan"]:
            if p["outcome"] not in OUTCOMES:
                raise ValueError(p["outcome"])
            plans.append(RowPlan(
                by_line[int(p["line"])], p["outcome"], changes=tuple(map(str, p["changes"])),
                reasons=tuple(Problem(str(r["message"]), str(r.get("column") or ""))
                              for r in p["reasons"]),
                target_id=_id(p.get("target_id")), parent_id=_id(p.get("parent_id")),
                body=dict(p.get("body") or {}), bring=str(p.get("bring") or ""),
            ))  # fmt: skip
        made = OnboardPlan(plans, origin=str(data["origin"]), source=str(data.get("source", "")),
                           default_parent=_id(data.get("default_parent")))  # fmt: skip
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise CommandError(f"the plan file is damaged ({exc!r}): plan it again") from None
    return made, rows


def _id(value: Any) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"not an id: {value!r}")
    return value


def _dumps(data: dict[str, Any]) -> str:
    import json

    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


# ------------------------------------------------------------------------------ apply


async def apply(ctx: Context) -> int:
    from pathlib import Path

    from vagent_tui.services.onboard_rows import log_for
    from vagent_tui.services.session import origin_of

    path = Path(ctx.args.plan_file).expanduser()
    loaded = _load_plan(path)
    _need_external_ids(ctx)
    if loaded is None:  # a rows file: planned here, --yes is the question
        ctx.may_write()
        rows, _header = _read(path)
        made = await _plan(ctx, rows, path.name)
    else:
        made, rows = loaded
        here = origin_of(ctx.connection)
        if made.origin != here:
            raise Refused(f"this plan was made for {made.origin}; this is {here}: plan it here")
        ctx.may_write(planned=True)
    log = log_for(rows, made.origin)
    todo = [p for p in made.writing() if not log.done(p.row.line, "write")]
    await _may_spend(ctx, [p for p in todo if p.bring])
    results = await _apply(ctx, made, log, len(todo))
    failed = 0
    with ctx.output("onboard-result", RESULT_COLUMNS) as output:
        for p in made.writing():
            result = results.get(p.row.line) or log.results.get((p.row.line, "write"))
            item = result_item(p, result, earlier=p.row.line not in results)
            failed += item["result"] != "written"
            output.write(item)
    counts = ", ".join(f"{n} {r}" for r, n in _tally(results.values()).items()) or "nothing sent"
    earlier = len(made.writing()) - len(results)
    more = f"; {earlier} written by an earlier run" if earlier else ""
    ctx.messages.say(f"Applied: {counts}{more} (of {counted(len(made.writing()), 'row')} to write)")
    return PARTIAL if failed else DONE


def _load_plan(path: Path) -> tuple[OnboardPlan, list[Row]] | None:
    """The plan ``path`` holds; None when it is a rows file (CSV, or a JSON list)."""
    import json

    if path.suffix.lower() != ".json":
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise CommandError(f"could not read {path}: {exc.strerror or exc}") from None
    except ValueError as exc:
        raise CommandError(f"{path}: not JSON ({exc})") from None
    if isinstance(data, list) or (isinstance(data, dict) and "rows" in data and "kind" not in data):
        return None  # a .json file of rows
    return plan_from_data(data)


async def _may_spend(ctx: Context, bringing: list[RowPlan]) -> None:
    """Refuse (exit 4) to bring numbers (a fee each) without a flag that allows it."""
    from decimal import Decimal, InvalidOperation

    if not bringing:
        return
    count = len(bringing)
    allowed: int | None = ctx.args.bring_numbers
    limit_text: str | None = ctx.args.spend_up_to
    price = await _number_price(ctx)
    said = f"{price[1]} each (the catalog)" if price else "a fee each (the catalog says no price)"
    what = f"this run brings {counted(count, 'phone number')}: {said}"
    if allowed is not None:
        if allowed < count:
            raise Refused(f"{what}; --bring-numbers {allowed} allows fewer: nothing written")
        return
    if limit_text is not None:
        try:
            limit = Decimal(limit_text.strip())
        except InvalidOperation:
            raise CommandError(f"--spend-up-to {limit_text!r}: not an amount") from None
        if price is None:
            raise Refused(f"{what}; the fee is not known, --spend-up-to cannot be checked: "
                          f"give --bring-numbers {count}")  # fmt: skip
        if price[0] * count > limit:
            raise Refused(f"{what}, {price[0] * count} in all, above --spend-up-to {limit}: "
                          "nothing written")  # fmt: skip
        return
    total = f" (--spend-up-to {price[0] * count})" if price else ""
    raise Refused(f"{what}: add --bring-numbers {count}{total} to spend it; nothing written")


async def _number_price(ctx: Context) -> tuple[Decimal, str] | None:
    """The catalog's fee of a number brought (its amount, its words), as the screen
    reads it before asking; None when the catalog is silent or unreadable."""
    from vagent_tui.api.errors import PlatformError
    from vagent_tui.api.number_models import number_prices

    try:
        catalog = await ctx.connection.api.get_product_catalog()
    except PlatformError:
        return None
    prices = number_prices(catalog.body())
    said = prices.says(byo=True)
    return (prices.byo, said) if prices.byo is not None and said else None


async def _apply(
    ctx: Context, made: OnboardPlan, log: RolloutLog, total: int
) -> dict[int, AccountResult]:
    from vagent_tui.services.bulk import RolloutBusy, rollout_concurrency
    from vagent_tui.services.onboard_apply import apply_onboarding

    results: dict[int, AccountResult] = {}

    def took(result: AccountResult) -> None:
        results[result.account_id] = result
        ctx.messages.progress(len(results), total, "rows applied")

    try:
        await apply_onboarding(ctx.connection.api, made, log,
                               concurrency=ctx.args.concurrency or rollout_concurrency(),
                               on_result=took)  # fmt: skip
    except RolloutBusy as exc:
        raise CommandError(f"{exc} (a console, or another command): nothing written") from None
    finally:
        log.release()
    return results


def result_item(p: RowPlan, result: AccountResult | None, *, earlier: bool) -> dict[str, Any]:
    """One written row's result, as ``onboard-result``."""
    return {
        "line": p.row.line, "type": p.row.kind, "key": p.row.key, "outcome": p.outcome,
        "result": result.result if result is not None else "not-sent",
        "message": result.message if result is not None else "not sent (stopped before it)",
        "earlier": earlier and result is not None,
    }  # fmt: skip


def _tally(results: Any) -> dict[str, int]:
    counts: dict[str, int] = {}
    for r in results:
        counts[r.result] = counts.get(r.result, 0) + 1
    return counts
