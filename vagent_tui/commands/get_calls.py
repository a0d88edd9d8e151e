"""``vagent-tui get calls``: the call log, as the Calls screen's export writes it.

The query is the Calls screen's (`vagent_tui.services.calls.CallFilters`): the account
acted as (``--account``, or the profile's), or every account below the key
(``--all-accounts``, the screen's ``s``); a time range (``--last``, ``--since``,
``--until``, the screen's ``t`` and From/To); the event type, outcome, status and any
``key=value`` (the screen's ``F``); the fields (``--columns``). It is read through the
screen's export engine (`vagent_tui.services.calls_export`), streamed: ``-o csv`` is the
platform's CSV as it arrives (each cell written formula-safe), the other formats read
the query page by page (its end pinned when it starts), every item written as its page
arrives. An item is an entry as the platform sent it (kind ``calls``).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from vagent_tui.commands.output import Output
    from vagent_tui.commands.runner import Context
    from vagent_tui.services.calls import CallFilters

KIND = "calls"
TABLE_COLUMNS = (
    "timestamp", "account_id", "direction", "type", "fromNumber", "toNumber", "duration",
    "status", "agentOutcome", "summary",
)  # fmt: skip
"""The wire fields a table shows when ``--columns`` names none."""
PAGE_SIZE = 1_000
"""Entries per request of the paged read (the screen's JSON lines export reads as many)."""


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be 1 or more")
    return value


def add_calls(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser
) -> None:
    """Add ``get calls`` to ``get``'s subcommands."""
    parser = sub.add_parser(
        "calls", parents=[common], help="the call log (the Calls screen's query and export)",
        description="The call log of the account acted as (--account, or the profile's "
        "target) or of every account below the key, newest first, with the Calls screen's "
        "filters, streamed as it is read: -o csv is the platform's CSV (its columns, or "
        "--columns), each cell a spreadsheet would run as a formula quoted; json and jsonl "
        "hold every entry as the platform sent it. Without a time range: the platform's "
        "default, the last 7 days.",
    )  # fmt: skip
    where = parser.add_argument_group("whose calls")
    where.add_argument(
        "--all-accounts", action="store_true",
        help="every account below the key, whatever account is acted as (the screen's s)",
    )  # fmt: skip
    when = parser.add_argument_group("time range")
    when.add_argument(
        "--last", choices=("hour", "day", "week"), help="the last hour, day or week (t)"
    )
    when.add_argument(
        "--since", metavar="WHEN",
        help="from this moment: back from now (90m, 2h, 3d, 1w), ISO 8601 "
        "(2025-11-20T14:30, UTC unless it says) or Unix seconds",
    )  # fmt: skip
    when.add_argument("--until", metavar="WHEN", help="up to this moment (as --since)")
    what = parser.add_argument_group("filters (the platform filters)")
    what.add_argument("--event-type", metavar="TYPE", help="eventType (inbound-call…)")
    what.add_argument("--outcome", metavar="OUTCOME", help="agentOutcome (appointment_booked…)")
    what.add_argument("--status", metavar="STATUS", help="the call's status (completed, failed…)")
    what.add_argument("--direction", choices=("inbound", "outbound"), help="direction")
    what.add_argument("--type", dest="entry_type", metavar="TYPE", help="type (call, sms)")
    what.add_argument(
        "--filter", action="append", default=[], metavar="KEY=VALUE",
        help="any field, sent as given (repeatable; dotted names for nested fields)",
    )  # fmt: skip
    shape = parser.add_argument_group("what is written")
    shape.add_argument(
        "--columns", metavar="NAMES",
        help="comma-separated: the Calls screen's columns (time, account, direction, route, "
        "duration, outcome, summary: each the fields it shows) or any field the platform "
        "sends (metadata.tokens); the platform sends only these, in this order in a CSV",
    )  # fmt: skip
    shape.add_argument("--limit", type=_positive, metavar="N", help="at most N calls")
    shape.add_argument(
        "--page-size", type=_positive, default=PAGE_SIZE, metavar="N",
        help=f"entries per request of json, jsonl and table (default {PAGE_SIZE:,})",
    )  # fmt: skip
    parser.set_defaults(run="get_calls:run")


def fields_of(text: str | None) -> tuple[str, ...]:
    """The wire fields ``--columns`` names: a screen column's fields, or the name itself."""
    from vagent_tui.services.call_columns import BUILT_IN

    out: list[str] = []
    for name in (text or "").split(","):
        name = name.strip()
        if not name:
            continue
        known = BUILT_IN.get(name)
        for wire in known.reads if known is not None else (name,):
            if wire not in out:
                out.append(wire)
    return tuple(out)


def filters_of(args: argparse.Namespace, target_id: int | None, *, now: float) -> CallFilters:
    """The screen's query from the options (ValueError: a time or filter it cannot send)."""
    from vagent_tui.api.log_models import LogQuery
    from vagent_tui.services.calls import CallFilters, parse_time

    extra: list[tuple[str, str]] = []
    if args.direction:
        extra.append(("direction", args.direction))
    if args.entry_type:
        extra.append(("type", args.entry_type))
    for text in args.filter:
        extra.extend(LogQuery.parse_filters(text))
    account = None if args.all_accounts else target_id
    named: dict[str, Any] = {
        "account_id": account, "event_type": args.event_type or None,
        "outcome": args.outcome or None, "status": args.status or None,
        "extra": tuple(extra), "fields": fields_of(args.columns),
    }  # fmt: skip
    if args.last:
        if args.since or args.until:
            raise ValueError("--last is a time range of its own: not with --since or --until")
        filters = CallFilters.last(args.last, now=now, **named)
    else:
        start = parse_time(args.since, now=now) if args.since else None
        end = parse_time(args.until, now=now) if args.until else None
        filters = CallFilters(**named).with_range(start, end)
    filters.query()  # a filter the platform cannot be sent fails here, before a request
    return filters


async def run(ctx: Context) -> int:
    import time

    from vagent_tui.commands.contract import CommandError

    args = ctx.args
    try:
        filters = filters_of(args, ctx.connection.target_id, now=time.time())
    except ValueError as exc:
        raise CommandError(str(exc)) from None
    ctx.messages.say("calls of " + " · ".join(_described(filters)))
    if ctx.format == "csv":
        written = await _csv(ctx, filters, args.limit)
    else:
        written = await _paged(ctx, filters, args.limit, args.page_size)
    ctx.messages.done()
    if not written:
        ctx.messages.say("no call matches")
    return 0


def shows_progress(ctx: Context) -> bool:
    """A progress line on stderr when it is a terminal, unless stdout is one too: the
    rows coming are the progress there (and a progress line would sit among them)."""
    if not ctx.messages.live:
        return False
    try:
        return not ctx.stdout.isatty()
    except (AttributeError, ValueError):
        return True


def _described(filters: CallFilters) -> list[str]:
    words = filters.describe()
    if filters.account_id is None:
        words.insert(1, "every account below the key")
    return words


async def _paged(ctx: Context, filters: CallFilters, limit: int | None, page_size: int) -> int:
    """json, jsonl, table: the entries page by page (`EntryLines`), each page written as
    it arrives. On a failure the items written stay (a json document is left open: not
    valid, so never taken for the whole) and the failure ends the command."""
    from vagent_tui.services.calls_export import EntryLines

    columns = filters.fields or TABLE_COLUMNS
    out = ctx.output(KIND, columns)
    lines = EntryLines(ctx.connection.api, filters, min(page_size, limit or page_size))
    write = _table_rows(out) if out.fmt == "table" else out.write_json
    progress = shows_progress(ctx)
    async for page in lines.pages():
        if limit is not None and out.count + len(page) >= limit:
            write(page[: limit - out.count])
            break
        write(page)
        if progress:
            ctx.messages.progress(out.count, lines.expected, "calls")
    out.close()
    return out.count


def _table_rows(out: Output) -> Callable[[Sequence[str]], None]:
    """A table's rows from JSON lines: a dotted column (``metadata.tokens``) reads the
    nested field, as the platform's CSV has it."""
    import json

    from vagent_tui.api.log_models import LogEntry

    def write(texts: Sequence[str]) -> None:
        for text in texts:
            entry = LogEntry.model_validate(json.loads(text))
            out.write({name: entry.get(name) for name in out.columns})

    return write


async def _csv(ctx: Context, filters: CallFilters, limit: int | None) -> int:
    """csv: the platform's CSV (`csv_chunks`) as it arrives, each row written through
    `Output` (a cell a spreadsheet would run as a formula quoted, the header's too)."""
    from vagent_tui.services.calls_export import CsvRecords, csv_chunks, expected_count

    api = ctx.connection.api
    progress = shows_progress(ctx)
    expected = await expected_count(api, filters) if progress else None
    records = CsvRecords()
    rows = _CsvRows(ctx, limit)
    chunks = csv_chunks(api, filters)
    try:
        async for chunk in chunks:
            if not rows.take_text(records.feed_text(chunk)):
                break  # the limit: the rest is not read (the connection is closed)
            if progress:
                ctx.messages.progress(rows.count, expected, "calls")
        else:
            rows.take_text(records.end_text())
    finally:
        await chunks.aclose()
    return rows.close(filters.fields)


class _CsvRows:
    """The platform's CSV rows written through `Output`: the first is the header."""

    def __init__(self, ctx: Context, limit: int | None) -> None:
        self.ctx = ctx
        self.limit = limit
        self.out: Output | None = None
        self.header: list[str] = []

    @property
    def count(self) -> int:
        return self.out.count if self.out is not None else 0

    def take_text(self, text: str) -> bool:
        """Write the records of CSV ``text``; False once the limit is reached. Parsed
        for the header and under a limit; else `Output.write_csv_text`."""
        if self.out is None or self.limit is not None:
            from vagent_tui.csv_text import rows_of

            return self.take(rows_of(text))
        self.out.write_csv_text(text)
        return True

    def take(self, rows: list[list[str]]) -> bool:
        """Write ``rows``; False once the limit is reached."""
        from vagent_tui.inert import csv_cell

        if self.out is None:
            if not rows:
                return True
            # Made safe here: Output writes a header as given (its own names, usually).
            self.header = [csv_cell(name) for name in rows[0]]
            self.out = self.ctx.output(KIND, self.header)
            rows = rows[1:]
        if self.limit is not None:
            rows = rows[: max(self.limit - self.out.count, 0)]
        if rows:
            self.out.write_texts(rows)
        return self.limit is None or self.count < self.limit

    def close(self, fields: tuple[str, ...]) -> int:
        """End the CSV: when nothing matched, the header of the fields asked for (if
        any; the platform's own columns are not known then). Returns the rows written."""
        if self.out is None:
            if not fields:
                return 0
            self.out = self.ctx.output(KIND, fields)
        self.out.close()
        return self.out.count
