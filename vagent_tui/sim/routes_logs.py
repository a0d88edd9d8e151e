"""Conversation logs and the conversations behind them (the vendor's OpenAPI reference;
not in the spec): ``GET /logs``, ``POST /conversation/batch``, ``GET /messages/recent``.

The entries are computed (`vagent_tui.sim.calls`); what this module adds is the wire:

* ``GET /logs`` covers the voice agent accounts at or below the selected account
  (``targetAccountId``, else the key owner) that the key may select: an agent account
  its own history, an organization, reseller or partner every agent below it. Query:
  ``start``/``end`` (Unix seconds, inclusive; default the 7 days up to now), ``fields``
  (comma-separated, dotted names allowed), ``format`` ``json``/``csv``, ``pageSize``
  1..10,000 (default 20), ``page`` from 1, ``includeFields``; every other parameter but
  the credential and the target parameters is a filter ``key=value`` on a top-level or
  dotted field, compared as text (`call_entries.text_of`; several are ANDed).
* ``format=csv`` streams the whole query (``page``/``pageSize`` do not apply): a header
  row (``fields`` in their order, else `call_entries.CSV_COLUMNS`), then one row per entry,
  newest first (the JSON pages' order), CRLF line ends, RFC 4180 quoting, nested values
  as JSON text; 404 ``No logs found for CSV export`` when nothing matches.
* ``POST /conversation/batch``: ``{items: [{roomId, uuid}]}``, 1..200 items, each
  answered on its own (``Conversation not found`` for an entry outside the selected
  account's reach or its retention, no existence leak). The vendor's request requires
  both of every item as strings, and its results carry them as strings: an item that is
  not an object with text ``roomId`` and ``uuid`` is an invalid request body (400,
  naming the item), nothing is looked up; ``results`` echo the text sent.
* ``GET /messages/recent``: the newest `RECENT` conversations of the last 7 days of the
  same accounts, as message records (``callDialog`` for calls, ``chatDialog`` for SMS).
"""

from __future__ import annotations

import csv
import io
import itertools
from collections.abc import AsyncIterator, Iterator
from datetime import datetime
from typing import Any

from starlette.responses import StreamingResponse

from vagent_tui.sim import call_entries, calls
from vagent_tui.sim.agent_extras import received_for
from vagent_tui.sim.common import SimError, bad, parse_bool, parse_int
from vagent_tui.sim.endpoint import Ctx, Reply, route

MAX_PAGE_SIZE = 10_000
MAX_BATCH = 200
RECENT = 50
CSV_ROWS_PER_CHUNK = 500
RESERVED = frozenset({
    "token", "targetAccountId", "targetPartnerId", "targetResellerId",
    "targetOrganizationId", "start", "end", "fields", "format", "pageSize", "page",
    "includeFields",
})  # fmt: skip
"""Query parameters that are not filters."""


def _ended_tasks(ctx: Ctx, query: calls.Query) -> list[dict[str, Any]]:
    """The conversations ended outbound tasks left (`vagent_tui.sim.outbound`) that the
    query matches, newest first (`_placed` puts them among the computed entries)."""
    if not ctx.state.outbound:
        return []
    from vagent_tui.sim import outbound

    f = query.filters
    pairs = (*f.patterned, *f.accounts, *f.named, *f.generic)
    accounts = {a.id for a in query.agents}
    lookup, text_of = call_entries.lookup, call_entries.text_of
    out = []
    for log in outbound.ended_logs(ctx.state, accounts, query.lo, query.hi):
        if all(text_of(lookup(log, k)[1]) == v and lookup(log, k)[0]
               for k, v in pairs):  # fmt: skip
            out.append(log)
    return out


def _moment(log: dict[str, Any]) -> int:
    """An ended task's entry's time, epoch seconds (its ``timestamp`` is ISO text)."""
    return int(datetime.fromisoformat(log["timestamp"]).timestamp())


def _placed(query: calls.Query, ended: list[dict[str, Any]]) -> list[tuple[int, dict[str, Any]]]:
    """Each ended task's entry with its place among all the query's matches, newest
    first: after every computed entry newer than it, before those of its second."""
    return [(n + calls.Query(query.group, _moment(log) + 1, query.hi, query.step,
                             query.filters).total(), log)
            for n, log in enumerate(ended)]  # fmt: skip


def _merged(
    query: calls.Query, placed: list[tuple[int, dict[str, Any]]], start: int
) -> Iterator[dict[str, Any]]:
    """The matches from the ``start``-th on, newest first: the computed entries with the
    ended tasks' in their places."""
    before = sum(1 for place, _ in placed if place < start)
    history = query.iter_from(start - before)
    waiting = [(place, log) for place, log in placed if place >= start]
    place = start
    while True:
        if waiting and waiting[0][0] <= place:
            yield waiting.pop(0)[1]
        else:
            match = next(history, None)
            if match is None:
                yield from (log for _, log in waiting)
                return
            yield call_entries.entry(*match, query.step)
        place += 1


def _query(ctx: Ctx) -> tuple[calls.Query, list[str] | None]:
    q = ctx.query
    now = int(ctx.state.now())
    end = parse_int("end", q.get("end"))
    end = now if end is None else end
    start = parse_int("start", q.get("start"))
    start = end - calls.DEFAULT_WINDOW if start is None else start
    kept_lo, kept_hi = calls.window(ctx.state)
    raw_fields = q.get("fields")
    fields = [f.strip() for f in raw_fields.split(",") if f.strip()] if raw_fields else None
    pairs = [(k, v) for k, v in q.multi_items() if k not in RESERVED]
    for key, _ in pairs:
        if not key.strip():
            raise bad("a filter needs a field name")
    agents = calls.agents_below(ctx.state, ctx.me, ctx.target)
    step = calls.step_of(calls.calls_per_account(ctx.state))
    query = calls.Query(agents, max(start, kept_lo), min(end, kept_hi), step,
                        calls.Filters.of(pairs))  # fmt: skip
    return query, fields


async def logs(ctx: Ctx) -> Reply:
    q = ctx.query
    fmt = q.get("format", "json")
    if fmt not in ("json", "csv"):
        raise bad("format must be json or csv")
    size = parse_int("pageSize", q.get("pageSize"))
    size = 20 if size is None else size
    if not 1 <= size <= MAX_PAGE_SIZE:
        raise bad(f"pageSize must be an integer between 1 and {MAX_PAGE_SIZE}")
    page = parse_int("page", q.get("page"))
    page = 1 if page is None else page
    if page < 1:
        raise bad("page must be an integer >= 1")
    include = parse_bool("includeFields", q.get("includeFields"), False)
    query, fields = _query(ctx)
    if fmt == "csv":
        return _csv(ctx, query, fields)
    ended = _ended_tasks(ctx, query)
    total = query.total() + len(ended)
    start = (page - 1) * size
    if ended:
        logs_ = [calls.project(log, fields)
                 for log in itertools.islice(_merged(query, _placed(query, ended), start),
                                             size)]  # fmt: skip
    else:
        logs_ = [calls.project(call_entries.entry(agent, n, query.step), fields)
                 for agent, n in query.page(start, size)]  # fmt: skip
    pages = (total + size - 1) // size
    reply: dict[str, Any] = {
        "success": True,
        "message": "Success",
        "logs": logs_,
        "count": len(logs_),
        "totalCount": total,
        "pagination": {
            "page": page,
            "pageSize": size,
            "totalPages": pages,
            "totalCount": total,
            "hasMore": page < pages,
            "pageCount": pages,
        },
    }
    if include:
        reply["schema"] = call_entries.schema_fields()
    return reply


def _csv(ctx: Ctx, query: calls.Query, fields: list[str] | None) -> StreamingResponse:
    ended = _ended_tasks(ctx, query)  # in their places, as the JSON pages have them
    matches = _merged(query, _placed(query, ended), 0)
    first = next(matches, None)
    if first is None:
        raise SimError(404, "No logs found for CSV export")
    columns = fields or list(call_entries.CSV_COLUMNS)
    planter = None
    if ctx.state.hostile:
        from vagent_tui.sim.hostile import Planter

        planter = Planter()

    def rows() -> Iterator[dict[str, Any]]:
        yield first
        yield from matches

    async def body() -> AsyncIterator[bytes]:
        out = io.StringIO()
        writer = csv.writer(out)  # RFC 4180: CRLF, quotes where needed
        writer.writerow(columns)
        for n, log in enumerate(rows(), 1):
            if planter is not None:
                log = planter.reply(log)
            writer.writerow(calls.flat_row(log, columns))
            if n % CSV_ROWS_PER_CHUNK == 0:
                yield out.getvalue().encode("utf-8")
                out.seek(0)
                out.truncate()
        if out.tell():
            yield out.getvalue().encode("utf-8")

    name = f"logs-{query.lo}-{query.hi}.csv"
    return StreamingResponse(
        body(),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


def _batch_item(n: int, item: object) -> tuple[str, str]:
    """Item ``n``'s ``(roomId, uuid)``; 400 ``Invalid request body`` unless both are text.

    The vendor's request schema requires both, typed strings, and its results carry them
    as strings: a value of another type cannot be answered as the reference says, so the
    request is refused whole (its 400 for an invalid request body) rather than echoed.
    """
    if not isinstance(item, dict):
        raise bad(f"Invalid request body: items[{n}] must be an object with roomId and uuid")
    for name in ("roomId", "uuid"):
        if name not in item:
            raise bad(f"Invalid request body: items[{n}].{name} is required")
        if not isinstance(item[name], str):
            raise bad(f"Invalid request body: items[{n}].{name} must be a string")
    return item["roomId"], item["uuid"]


async def batch(ctx: Ctx) -> Reply:
    body = await ctx.json()
    items = body.get("items")
    if not isinstance(items, list) or not items:
        raise bad("items array is required")
    if len(items) > MAX_BATCH:
        raise bad(f"items array holds more than {MAX_BATCH} items")
    pairs = [_batch_item(n, item) for n, item in enumerate(items)]
    agents = calls.agents_below(ctx.state, ctx.me, ctx.target)
    step = calls.step_of(calls.calls_per_account(ctx.state))
    results: list[dict[str, Any]] = []
    for room_id, uuid in pairs:
        if not room_id or not uuid:
            results.append({"success": False, "roomId": room_id, "uuid": uuid,
                            "message": "roomId and uuid are required"})  # fmt: skip
            continue
        found = calls.find(ctx.state, agents, room_id, uuid)
        if found is None and ctx.state.outbound:
            from vagent_tui.sim import outbound

            record = outbound.conversation(ctx.state, room_id, uuid, set(agents.by_id))
            if record is not None:
                results.append({"success": True, "roomId": room_id, "uuid": uuid,
                                "message": "Success", "conversation": [record]})  # fmt: skip
                continue
        if found is None:
            results.append({"success": False, "roomId": room_id, "uuid": uuid,
                            "message": "Conversation not found"})  # fmt: skip
            continue
        agent, n = found
        results.append({
            "success": True, "roomId": room_id, "uuid": uuid, "message": "Success",
            "conversation": [call_entries.conversation(agent, n, step)],
        })  # fmt: skip
    ok = sum(1 for r in results if r["success"])
    return {
        "success": True,
        "message": "Success",
        "stats": {"requested": len(items), "ok": ok, "failed": len(items) - ok},
        "results": results,
    }


async def recent(ctx: Ctx) -> Reply:
    agents = calls.agents_below(ctx.state, ctx.me, ctx.target)
    step = calls.step_of(calls.calls_per_account(ctx.state))
    lo, hi = calls.window(ctx.state)
    query = calls.Query(agents, max(lo, hi - calls.DEFAULT_WINDOW), hi, step, calls.Filters())
    # Messages sent by POST /agent/receiveMessage come first (CONTRACT choice 127).
    received = received_for(ctx.state, (i for i in ctx.state.messages_in if i in agents.by_id))
    return received + [
        call_entries.conversation(agent, n, step) for agent, n in query.page(0, RECENT)
    ]


ROUTES = [
    route("/logs", logs),
    route("/conversation/batch", batch, "POST"),
    route("/messages/recent", recent),
]
