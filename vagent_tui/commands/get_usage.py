"""``vagent-tui get usage``: what the Usage screen shows, as data.

As on the screen, the account acted as decides (``--account``, or the profile's target,
else the key owner): an agent account gives its usage rows (kind ``usage``: one item per
key the platform sent, `vagent_tui.services.usage.read_usage`, each value exact, its
series with it); a partner, reseller or organization gives the fleet below it (kind
``usage-fleet``: one item per agent account, asked through Fleet's fan-out with its
adaptive limit, `vagent_tui.services.usage_fleet`; an account that fails is its item's
error and the command exits 3). The period options are the screen's keys: ``--period``
(``b``), ``--since``/``--until`` (From/To), ``--frequency`` (``f``), ``--no-costs``
(``c``). Numbers are written as exact decimal text (``"12.5000"``), as the screen's CSV
writes them.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from vagent_tui.words import counted

if TYPE_CHECKING:
    from vagent_tui.api.usage_models import UsageQuery
    from vagent_tui.commands.runner import Context
    from vagent_tui.services.usage import UsageReport, UsageRow
    from vagent_tui.services.usage_fleet import FleetUsage, UsageLine

KIND = "usage"
FLEET_KIND = "usage-fleet"
COLUMNS = ("account_id", "key", "kind", "value", "unit", "currency", "period", "summed", "series")
FLEET_HEAD = ("account_id", "name", "plan")
FLEET_TAIL = ("cost_total", "currency", "status", "error")
LEVELS = ("partner", "reseller", "organization")
"""An account of these types has accounts below it: the fleet's usage (as the screen)."""


def add_usage(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser
) -> None:
    """Add ``get usage`` to ``get``'s subcommands."""
    parser = sub.add_parser(
        "usage", parents=[common], help="usage and costs of an account, or of the fleet below it",
        description="What the Usage screen shows. Acting as an agent account (--account, or "
        "the profile's target): its usage, one item per key the platform sent (kind usage), "
        "values exact, with their series. Acting as a partner, reseller or organization: "
        "one item per agent account below it (kind usage-fleet), asked a few at a time as "
        "the platform keeps up; an account that fails is its item's error (exit 3). "
        "Default: the current billing period.",
    )  # fmt: skip
    when = parser.add_argument_group("period")
    when.add_argument(
        "--period", choices=("current", "previous"), default="current",
        help="the billing period (the screen's b; default current)",
    )  # fmt: skip
    when.add_argument(
        "--since", metavar="YYYY-MM-DD",
        help="a date range instead of the period, from this day (the screen's From)",
    )  # fmt: skip
    when.add_argument("--until", metavar="YYYY-MM-DD", help="to this day (the screen's To)")
    when.add_argument(
        "--frequency", choices=("day", "month", "year"), default="day",
        help="one account's series by day, month or year (the screen's f)",
    )  # fmt: skip
    when.add_argument(
        "--no-costs", action="store_true", help="do not ask for costs (the screen's c)"
    )
    parser.set_defaults(run="get_usage:run")


def query_of(args: argparse.Namespace) -> UsageQuery:
    """The screen's question from the options (ValueError: a date it cannot send)."""
    from pydantic import ValidationError

    from vagent_tui.api.usage_models import UsageQuery

    try:
        return UsageQuery.model_validate({
            "billing_period": args.period, "start_date": args.since, "end_date": args.until,
            "frequency": args.frequency, "give_costs": not args.no_costs,
        })  # fmt: skip
    except ValidationError as exc:
        fields = {str(e["loc"][0]) for e in exc.errors() if e["loc"]}
        if "end_date" in fields and "the end is before" in str(exc):
            raise ValueError("--until is before --since") from None
        names = ", ".join(sorted("--since" if f == "start_date" else "--until" for f in fields))
        raise ValueError(f"{names or 'a date'}: a date as YYYY-MM-DD") from None


def period_label(query: UsageQuery) -> str:
    """``current``, ``previous``, or the range ``2025-11-01..2025-11-30`` (an end left
    open is the platform's default: the period's start, today)."""
    if query.ranged:
        start = query.start_date.isoformat() if query.start_date else ""
        end = query.end_date.isoformat() if query.end_date else ""
        return f"{start}..{end}"
    return query.billing_period


async def run(ctx: Context) -> int:
    from vagent_tui.commands.contract import CommandError

    try:
        query = query_of(ctx.args)
    except ValueError as exc:
        raise CommandError(str(exc)) from None
    if ctx.connection.acting_type in LEVELS:
        return await _fleet(ctx, query)
    return await _one(ctx, query)


# --------------------------------------------------------------------------- one account


async def _one(ctx: Context, query: UsageQuery) -> int:
    """One account's rows: the usage read the screen makes (`read_reply` of ``GET
    /stats/usage``), what it could not read said on stderr."""
    from vagent_tui.services.usage import read_reply

    connection = ctx.connection
    reply = await connection.api.get_usage(query, target=connection.target_id)
    report = read_reply(reply)
    label = period_label(query)
    table = ctx.format == "table"
    # A person reads how many points a series has (the screen's Points); a CSV has them.
    columns = (*COLUMNS[:-1], "points") if table else COLUMNS
    with ctx.output(KIND, columns) as out:
        for row in report.rows:
            item = row_item(connection.acting_id, row, report, label)
            out.write({**item, "points": len(row.series)} if table else item)
    _say_left_out(ctx, report)
    return 0


def row_item(
    account_id: int | None, row: UsageRow, report: UsageReport, period: str
) -> dict[str, Any]:
    """One usage key as the ``usage`` item (`vagent_tui.commands.shapes_exports`)."""
    from vagent_tui.services.usage import exact, unit_of

    return {
        "account_id": account_id,
        "key": row.key,
        "kind": "cost" if row.cost else "usage",
        "value": exact(row.value) if row.value is not None else None,
        "unit": "" if row.cost else unit_of(row.key),
        "currency": report.currency if row.cost else None,
        "period": period,
        "summed": row.summed,
        "series": [{"label": label, "value": exact(value)} for label, value in row.series],
    }


def _say_left_out(ctx: Context, report: UsageReport) -> None:
    if report.unread:
        ctx.messages.warn("not read as numbers: " + ", ".join(report.unread[:20]))
    if report.left_out.entries:
        held = counted(report.left_out.entries, "entry", "entries")
        ctx.messages.warn(f"the reply held {held} past what is read")
    if not report.rows:
        ctx.messages.say("no number in the usage reply")


# --------------------------------------------------------------------------- the fleet


async def _fleet(ctx: Context, query: UsageQuery) -> int:
    """The Usage screen's fleet table: every agent account below the level acted as,
    asked through `ask_fleet` (its adaptive limit); json and jsonl written as the answers
    arrive, csv and a table once every account answered (their columns are the keys
    met: the screen's CSV)."""
    from vagent_tui.commands.contract import ERROR, PARTIAL, CommandError
    from vagent_tui.commands.get_calls import shows_progress
    from vagent_tui.services.accounts import AccountDirectory
    from vagent_tui.services.agent_listing import list_agents
    from vagent_tui.services.fleet import (
        AdaptiveLimit,
        FleetAnswer,
        ask_fleet,
        default_concurrency,
    )
    from vagent_tui.services.usage_fleet import FleetUsage, accounts_below, usage_question

    connection = ctx.connection
    api = connection.api
    if connection.scope is None or connection.owner is None:
        raise CommandError("not connected")
    ctx.messages.say(f"listing the agent accounts below {_who(ctx)}")
    listing = await list_agents(api, AccountDirectory(api, connection.scope, connection.owner))
    accounts = accounts_below(listing.accounts, listing.parents, connection.target_id)
    usage = FleetUsage(accounts)
    progress = shows_progress(ctx)
    streamed = ctx.format in ("json", "jsonl")
    out = ctx.output(FLEET_KIND, FLEET_HEAD + FLEET_TAIL) if streamed else None

    def take(answer: FleetAnswer) -> None:
        usage.take(answer)
        if out is not None:
            at = usage.index.get(answer.account_id)
            if at is not None:
                out.write(fleet_item(usage.lines[at], usage))
        if progress:
            ctx.messages.progress(usage.answered, len(usage), "accounts answered")

    ids = [line.account_id for line in usage.lines]
    limit = AdaptiveLimit(default_concurrency())  # VAGENT_FLEET_CONCURRENCY, as the screen
    ctx.messages.say(f"asking the usage of {counted(len(ids), 'account')}")
    try:
        await ask_fleet(api, ids, usage_question(query), limiter=limit, on_answer=take)
    except* OSError as failed_writes:  # stdout closed (| head): the run stops there
        raise failed_writes.exceptions[0] from None
    ctx.messages.done()
    if out is None:
        columns = (*FLEET_HEAD, *usage.keys, *FLEET_TAIL)
        out = ctx.output(FLEET_KIND, columns)
        for line in usage.lines:
            out.write(_flat(fleet_item(line, usage)))
    out.close()
    failed = usage.failed
    if not ids:
        ctx.messages.say(f"no agent account below {_who(ctx)}")
    if failed and len(failed) == len(ids):
        first = next(line for line in usage.lines if line.error is not None)
        ctx.messages.error(f"every account failed ({len(failed):,}): {first.error}")
        return ERROR
    if failed:
        ctx.messages.warn(
            f"{len(failed):,} of {counted(len(ids), 'account')} failed (their items say why)"
        )
        return PARTIAL
    return 0


def _who(ctx: Context) -> str:
    account = ctx.connection.acting_as
    if account is None:
        return "the key"
    return f"{account.display_name} (#{account.id})"


def fleet_item(line: UsageLine, usage: FleetUsage) -> dict[str, Any]:
    """One account of the fleet as the ``usage-fleet`` item."""
    from vagent_tui.services.usage import exact

    failed = line.error is not None
    return {
        "account_id": line.account_id,
        "name": line.name,
        "plan": line.plan or None,
        "status": "error" if failed else ("ok" if line.answered else "not asked"),
        "error": line.error,
        "values": {key: exact(value) for key, value in line.values.items()},
        "cost_total": exact(line.total) if line.total is not None else None,
        "currency": line.currency,
        "not_shown": line.not_shown,
        "unread": line.unread,
    }


def _flat(item: dict[str, Any]) -> dict[str, Any]:
    """A fleet item as a CSV or table row: a column per usage key."""
    values: dict[str, Any] = item["values"]
    return {**item, **values}
