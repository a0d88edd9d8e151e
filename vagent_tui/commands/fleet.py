"""``vagent-tui fleet ask QUESTION`` and ``vagent-tui fleet questions``: the Fleet screen's
questions, asked from a script.

``fleet ask`` asks one question of every agent account below the key (or of those below
``--below ID``, or of a chosen set: ``--accounts 1111,1112``, ``--accounts-file FILE``,
read as every command reads them: `vagent_tui.commands.options`) with the screen's
engine: the same listing of the agent accounts
(`vagent_tui.services.agent_listing.list_agents`), the same question
(`vagent_tui.services.fleet.QUESTIONS`) and the same adaptive limit of requests in
flight (`vagent_tui.services.fleet.AdaptiveLimit`, ceiling ``--concurrency`` or
``VAGENT_FLEET_CONCURRENCY``, default 100), on the connection's one client.

Each account is an item of kind ``fleet-QUESTION`` written as its answer arrives: its id,
its name, the question's values (the screen's columns) and ``error`` (null when it
answered). A chosen id that is not an agent account below the key is not asked: its item
says so. Exit 0 when every account answered, 3 when some did not (their items say why).
The default output is the contract's (a table on a terminal, one JSON document on a
pipe); ``-o jsonl`` gives a line per account the moment it answers.

``fleet questions`` lists the questions (id, title, columns, the kind of their items).

Cheap to import (argparse only): the services are imported when the command runs.
"""

from __future__ import annotations

import argparse
import time
from typing import TYPE_CHECKING, Any

from vagent_tui.commands.contract import DONE, PARTIAL, CommandError, Refused
from vagent_tui.commands.options import (
    FLEET_DEFAULT,
    FLEET_MOST,
    add_account_set,
    add_concurrency,
    chosen_ids,
)
from vagent_tui.words import counted

if TYPE_CHECKING:
    from collections.abc import Iterable

    from vagent_tui.commands.runner import Context
    from vagent_tui.services.agent_listing import AgentListing
    from vagent_tui.services.fleet import FleetAnswer, Question

QUESTION_NAMES: tuple[str, ...] = ("functions", "voice", "junk", "calls", "usage", "numbers")
"""The questions of `vagent_tui.services.fleet.QUESTIONS`, named here so that building the
parser imports no service (a test checks they are the same)."""
NOT_ASKED = "not an agent account below this key: not asked"
"""The error of a chosen id the listing of the key's agent accounts does not hold."""


def kind_of(question: str) -> str:
    """The kind (schema name) of the items of ``question``."""
    return f"fleet-{question}"


def add_parser(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser
) -> None:
    parser = sub.add_parser(
        "fleet", parents=[common], help="ask the Fleet screen's questions of many accounts",
        description="Ask one of the Fleet screen's questions of every agent account below "
        "the key, below one account, or of a chosen set, a line per account as it answers.",
    )  # fmt: skip
    fleet = parser.add_subparsers(dest="fleet_command", metavar="COMMAND", required=True)
    ask = fleet.add_parser(
        "ask", parents=[common], help="ask one question of many accounts",
        description="Ask QUESTION of every agent account below the key (or --below ID, or "
        "the accounts of --accounts / --accounts-file), as the Fleet screen does: many at "
        "once, more while the platform keeps its pace, fewer when it says it is busy "
        "(429/503). Each account is one item as it answers: account_id, name, the "
        "question's values, error (null when it answered). Exit 0: every account "
        "answered; 3: some did not (their items say why). -o jsonl writes each line at "
        "once; `vagent-tui fleet questions` lists the questions and their values.",
        epilog="example: vagent-tui fleet ask functions -o jsonl | "
        "jq -c 'select(.item.unavailable | length > 0)'",
    )  # fmt: skip
    ask.add_argument("question", choices=QUESTION_NAMES, metavar="QUESTION",
                     help=f"one of: {', '.join(QUESTION_NAMES)}")  # fmt: skip
    chosen = ask.add_argument_group("which accounts (default: every agent account below the key)")
    chosen.add_argument(
        "--below", type=int, metavar="ID",
        help="the agent accounts below this reseller or organization",
    )  # fmt: skip
    add_account_set(chosen, "accounts")
    add_concurrency(ask, "most requests", FLEET_MOST, FLEET_DEFAULT)
    ask.set_defaults(run="fleet:ask")
    questions = fleet.add_parser(
        "questions", parents=[common], help="the questions fleet ask knows",
        description="The questions `fleet ask` knows: id, title, the values of each "
        "account's item (columns) and the kind of those items (vagent-tui schema KIND).",
    )  # fmt: skip
    questions.set_defaults(run="fleet:questions", connects=False)


# ---------------------------------------------------------------------------- questions


async def questions(ctx: Context) -> int:
    from vagent_tui.services.fleet import QUESTIONS

    with ctx.output("fleet-questions", ("id", "title", "columns", "kind")) as out:
        for question in QUESTIONS.values():
            out.write(
                {
                    "id": question.name,
                    "title": question.label,
                    "columns": [*question.keys, *(("exact",) if question.exact else ())],
                    "kind": kind_of(question.name),
                }
            )
    return DONE


# ---------------------------------------------------------------------------- the ids


def wanted_ids(args: argparse.Namespace) -> list[int] | None:
    """The ids ``--accounts`` and ``--accounts-file`` name (`chosen_ids`), in order, each
    once; None when neither is given (every account below the key, or below ``--below``)."""
    if args.below is not None and (args.accounts or args.accounts_file):
        raise CommandError("--below and --accounts/--accounts-file choose alike: give one")
    return chosen_ids(args)


# ---------------------------------------------------------------------------- ask


def columns_of(question: Question) -> tuple[str, ...]:
    """The fields of an item of ``question``, in order (the CSV's and the table's columns)."""
    return ("account_id", "name", *question.keys, *(("exact",) if question.exact else ()), "error")


def item_of(question: Question, name: str, answer: FleetAnswer) -> dict[str, Any]:
    """One account's item: plain JSON values (a tuple of names is a list), every column
    present (null when the account did not answer)."""
    item: dict[str, Any] = {"account_id": answer.account_id, "name": name}
    values = answer.values
    for key in question.keys:
        value = values.get(key)
        item[key] = list(value) if isinstance(value, tuple) else value
    if question.exact is not None:
        item["exact"] = question.exact(values) if answer.ok else None
    item["error"] = answer.error
    return item


async def ask(ctx: Context) -> int:
    from vagent_tui.services.fleet import QUESTIONS, AdaptiveLimit, FleetAnswer, ask_fleet

    question = QUESTIONS[ctx.args.question]
    from vagent_tui.services.fleet import default_concurrency

    wanted = wanted_ids(ctx.args)
    concurrency: int = ctx.args.concurrency or default_concurrency()
    listing = await _listing(ctx)
    names: dict[int, str] = {}
    ids: list[int] = []
    refused: list[int] = []
    for account_id, name in _accounts(ctx, listing, wanted):
        if name is None:
            refused.append(account_id)
        else:
            names[account_id] = name
            ids.append(account_id)
    total = len(ids) + len(refused)
    failed = 0
    started = time.monotonic()
    messages = ctx.messages
    out = ctx.output(kind_of(question.name), columns_of(question))
    shared = _is_terminal(ctx.stdout)  # the progress line's terminal: cleared before a row
    messages.done()  # the listing's
    for account_id in refused:
        out.write(item_of(question, "", FleetAnswer(account_id, error=NOT_ASKED)))

    def take(answer: FleetAnswer) -> None:
        nonlocal failed
        failed += not answer.ok
        if shared:
            messages.done()
        out.write(item_of(question, names.get(answer.account_id, ""), answer))
        messages.progress(out.count, total, f"accounts answered ({question.label})")

    limit = AdaptiveLimit(concurrency)
    try:
        await ask_fleet(ctx.connection.api, ids, question, limiter=limit, on_answer=take)
    except BaseException as exc:
        if isinstance(exc, BaseExceptionGroup):
            # An answer's writing failed (the reader closed the pipe: ``| head``), which
            # stopped the run: that failure, as the runner knows it, not the group.
            raise _first_of(exc) from None
        # Interrupted: a JSON document stays open (a script must not read the accounts
        # answered so far as the whole fleet); a person's table shows what came.
        if out.fmt == "table":
            messages.done()
            out.close()
        raise
    messages.done()
    out.close()
    failed += len(refused)
    if total == 0:
        messages.say("no agent account to ask")
        return DONE
    said = f"{total - failed:,} of {counted(total, 'account')} answered in "
    said += f"{time.monotonic() - started:.1f} s" + (f", {failed:,} did not" if failed else "")
    if limit.backoffs:
        times = "once" if limit.backoffs == 1 else f"{limit.backoffs:,} times"
        said += f" (the platform asked to slow down {times})"
    messages.say(said)
    return PARTIAL if failed else DONE


def _first_of(group: BaseExceptionGroup[BaseException]) -> BaseException:
    """The first exception of ``group`` that is not a group itself."""
    first = group.exceptions[0]
    return _first_of(first) if isinstance(first, BaseExceptionGroup) else first


def _is_terminal(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


async def _listing(ctx: Context) -> AgentListing:
    """The agent accounts below the key, listed as the Fleet screen lists them (on a
    terminal, how many are listed so far on the progress line)."""
    import asyncio

    from vagent_tui.services.accounts import AccountDirectory
    from vagent_tui.services.agent_listing import ListingProgress, list_agents

    connection = ctx.connection
    if connection.scope is None or connection.owner is None:  # pragma: no cover - connected
        raise CommandError("not connected")
    directory = connection.directory or AccountDirectory(
        connection.api, connection.scope, connection.owner
    )
    progress = ListingProgress(directory)
    listing = asyncio.ensure_future(list_agents(connection.api, directory, progress=progress))
    messages = ctx.messages
    try:
        while messages.live and not listing.done():
            messages.progress(len(progress.rows), None, "agent accounts listed", force=True)
            await asyncio.wait([listing], timeout=0.2)
        return await listing
    finally:
        listing.cancel()  # nothing when it is done; interrupted: no listing left running


def _accounts(
    ctx: Context, listing: AgentListing, wanted: list[int] | None
) -> Iterable[tuple[int, str | None]]:
    """``(id, name)`` of each account to ask, in the order asked; name None: a chosen id
    the listing does not hold (not asked)."""
    from vagent_tui.services.usage_fleet import accounts_below

    rows = listing.accounts
    if wanted is not None:
        for account_id in wanted:
            row = rows.get(account_id)
            yield account_id, None if row is None else row.display_name
        return
    below: int | None = ctx.args.below
    if below is None:
        for row in rows:
            yield row.id, row.display_name
        return
    if rows.get(below) is None and below not in listing.above:
        raise Refused(f"account {below} is not below this key")
    for account in accounts_below(rows, listing.parents, below):
        if account.id is not None:
            yield account.id, account.display_name
