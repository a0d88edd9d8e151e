"""``vagent-tui rollout plan|apply|publish``: the Rollout screen's change, from a pipeline.

``plan`` chooses the accounts and plans the change exactly as the screen's form and its
``p`` do (`vagent_tui.services.rollout_pick.check_request`, `pick_accounts`,
`vagent_tui.services.rollout_planning.plan_rollout`), nothing written, and saves the plan in the
screen's JSON (`RolloutPlan.to_json`: the screen's ``l`` opens it). ``apply`` writes the
staging of its accounts to change (`vagent_tui.services.rollout_apply.apply_rollout`),
``publish`` publishes them wave by wave (`publish_rollout`): both record each account's
result in the log the screen keeps for the same plan (`RolloutLog.for_plan`, under the
state folder's ``rollouts``; the plan is kept beside it, `save_plan`, so the screen's
``l`` lists it), so that a run cut off in either is finished by the other, each account
written once.

Exit codes: ``plan`` 2 when some account would change, 0 when none does; ``apply`` and
``publish`` 0 when every account is done, 3 when some is not (its item says why), 4 when
the profile is read-only or the plan belongs to another platform or key.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from vagent_tui.commands.contract import CHANGES, DONE, PARTIAL, CommandError, Refused
from vagent_tui.commands.options import add_account_set, add_concurrency, chosen_ids

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable, Sequence
    from pathlib import Path

    from vagent_tui.commands.runner import Context
    from vagent_tui.services.agent_listing import AgentListing
    from vagent_tui.services.bulk import AccountResult, RolloutLog, Step
    from vagent_tui.services.rollout import AccountPlan, RolloutPlan

PLAN_KIND = "rollout-plan"
PLAN_COLUMNS = ("account_id", "name", "outcome", "changes", "reasons", "notes")
RESULT_KIND = "rollout-result"
RESULT_COLUMNS = ("account_id", "name", "step", "outcome", "result", "earlier", "message")
FIELD_OPTIONS = {"voice": "--voice", "functions": "--functions", "settings": "--set",
                 "accounts": "--filter", "": "the change"}  # fmt: skip
"""The form's fields (`check_request`'s messages) and the options that fill them."""
DEFAULT_WAVE_SIZE = 10
"""Accounts in a wave when ``--wave N`` comes without ``--wave-size``: a canary's size. A
change gone wrong reaches the callers of few accounts, yet enough of them that one of
their calls shows it before the next wave; a fleet of 1,000 is then 100 waves, so a job
that wants fewer gives a bigger size (the same for every wave of one plan: the waves are
numbered by it)."""


def add_parser(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser
) -> None:
    parser = sub.add_parser(
        "rollout", parents=[common],
        help="plan, apply and publish one change over many agent accounts",
        description="The Rollout screen without a person at the keys: plan a change (a "
        "voice, functions on or off, settings) for many agent accounts into a plan file, "
        "apply the file (staging writes), then publish it in waves. The console's Rollout "
        "screen opens the same plan files and shares their progress: what one has done, "
        "the other skips.",
    )  # fmt: skip
    verbs = parser.add_subparsers(dest="rollout_verb", required=True, metavar="VERB")

    plan = verbs.add_parser(
        "plan", parents=[common], help="plan a change: what it would do to each account",
        description="Read every chosen agent account and say what the change would do to "
        "it (change, already so, refused and why, could not be read); nothing is written. "
        "The accounts: every agent account below the key (or below --account), or below "
        "--below, or those of --accounts, narrowed by --filter. Exit 2 when some account "
        "would change, 0 when none would (as terraform plan -detailed-exitcode).",
    )  # fmt: skip
    change = plan.add_argument_group("the change (as the Rollout form takes it)")
    change.add_argument("--voice", metavar="ID", default="", help="the voice id to set")
    change.add_argument(
        "--functions", metavar="SWITCHES", action="append", default=[],
        help="functions on or off: 'bookAppointment on, transferCall off' (repeatable)",
    )  # fmt: skip
    change.add_argument(
        "--set", dest="settings", metavar="NAME=VALUE", action="append", default=[],
        help="a setting, checked as the Settings screen checks it: speakingTimeout=900 "
        "(repeatable)",
    )  # fmt: skip
    which = plan.add_argument_group("the accounts")
    which.add_argument(
        "--below", type=int, metavar="ID",
        help="the agent accounts below this account (default: below --account, or the key)",
    )  # fmt: skip
    add_account_set(which)
    which.add_argument(
        "--filter", metavar="TEXT", default="",
        help="the form's accounts field: words matched against names (and the accounts "
        "above), voice:ID, engine:NAME, lang:CODE matched against the configuration",
    )  # fmt: skip
    plan.add_argument(
        "--out", metavar="PLAN.json",
        help="save the plan (the Rollout screen's JSON) to apply later, mode 0600: it holds "
        "each account's configuration as read, unmasked (secrets included), to find what "
        "moved before a write; keep it out of version control. '-' writes it to stdout "
        "instead of the accounts, for a pipe (refused when stdout is a terminal)",
    )  # fmt: skip
    _concurrency(plan)
    plan.set_defaults(run="rollout:run_plan")

    apply = verbs.add_parser(
        "apply", parents=[common], help="write the staging of a plan's accounts to change",
        description="Apply a plan file without asking (the plan is the question): write "
        "the staging of each account the plan changes, once. Each account's staging is "
        "read again first: one that moved since the plan is skipped (changed-meanwhile). "
        "Nothing goes live until publish. Progress is kept with the plan: a run cut off, "
        "here or in the console, is finished by the next, which skips what is done. Exit "
        "3 when some account was not written.",
    )  # fmt: skip
    apply.add_argument("plan", metavar="PLAN.json", help="the plan file ('-': stdin)")
    _concurrency(apply)
    apply.set_defaults(run="rollout:run_apply")

    publish = verbs.add_parser(
        "publish", parents=[common], help="publish the written accounts of a plan, in waves",
        description="Publish the staging that apply wrote, only where it still holds "
        "exactly the rollout's change (no one else's unpublished edit goes live). Waves "
        "are runs of accounts in plan order, as the Rollout screen's P publishes a first "
        "wave and then the rest: --wave N publishes the N-th run of --wave-size accounts "
        f"the plan changes ({DEFAULT_WAVE_SIZE} unless given; numbered: a job run again "
        "publishes the same ones, so give every wave of a plan the same size), --all "
        "every written one. Exit 3 when some account of the wave was not published.",
    )  # fmt: skip
    publish.add_argument("plan", metavar="PLAN.json", help="the plan file ('-': stdin)")
    waves = publish.add_mutually_exclusive_group(required=True)
    waves.add_argument("--wave", type=_positive, metavar="N", help="the wave's number, from 1")
    waves.add_argument("--all", action="store_true", help="every written account")
    publish.add_argument(
        "--wave-size", type=_positive, metavar="S",
        help=f"accounts in a wave (with --wave; default {DEFAULT_WAVE_SIZE}: a first wave "
        "few callers meet if the change is wrong, enough that someone does before the next)",
    )  # fmt: skip
    _concurrency(publish)
    publish.set_defaults(run="rollout:run_publish")


def _positive(text: str) -> int:
    if not (text.isascii() and text.isdecimal()) or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a whole number from 1")
    return int(text)


def _concurrency(parser: argparse.ArgumentParser) -> None:
    add_concurrency(parser, "accounts")


# --------------------------------------------------------------------------- plan


async def run_plan(ctx: Context) -> int:
    from vagent_tui.services.bulk import rollout_concurrency
    from vagent_tui.services.rollout_pick import Catalog, check_request, pick_accounts
    from vagent_tui.services.rollout_planning import catalog_of, plan_rollout
    from vagent_tui.services.session import origin_of
    from vagent_tui.words import counted

    args, connection = ctx.args, ctx.connection
    ctx.plan_to_stdout(args.out)  # refused on a terminal before any read
    texts = (args.voice, ", ".join(args.functions), "; ".join(args.settings), args.filter)
    errors, request = check_request(*texts, Catalog())  # the form's syntax, before any read
    _refuse_fields(errors)
    assert request is not None
    marked = _given_ids(args)
    listing = await _listing(ctx)
    if marked is not None:
        strangers = sorted(marked - {a.id for a in listing.accounts})
        if strangers:
            raise Refused(f"not an agent account below this key: {_ids(strangers)}")
    under = args.below if args.below is not None else connection.target_id
    if under is not None and not listing.path_of(under):
        raise Refused(f"account {under} is not below this key (or has no agent account below it)")
    picked = pick_accounts(listing.accounts, path_of=listing.path_of, under=under,
                           marked=marked, account_filter=request.account_filter)  # fmt: skip
    chosen = _chosen(ctx, listing, under, marked, str(request.account_filter))
    if not picked:
        raise CommandError(f"no agent account matches: {chosen}")
    sample = picked[0].id or 0
    try:  # the names the change gives, against the lists of one account (as the form)
        voices, functions, models = await catalog_of(connection.api, sample)
        catalog = Catalog(tuple(v.id for v in voices if v.id),
                          tuple(f.name for f in functions if f.name), f"account {sample}",
                          models)  # fmt: skip
    except Exception as exc:  # the form then checks syntax only; planning says the rest
        ctx.messages.warn(f"the voices and functions of account {sample} could not be read "
                          f"({type(exc).__name__}): each account's plan checks them")  # fmt: skip
        catalog = Catalog()
    errors, request = check_request(*texts, catalog)
    _refuse_fields(errors)
    assert request is not None
    account_filter = request.account_filter
    total, planned = len(picked), 0
    ctx.messages.say(f"planning {request.change.describe()} for {counted(total, 'account')}: "
                     f"{chosen}")  # fmt: skip

    def heard(_: object) -> None:
        nonlocal planned
        planned += 1
        ctx.messages.progress(planned, total, "accounts planned")

    try:
        plan = await plan_rollout(
            connection.api, picked, request.change,
            concurrency=args.concurrency or rollout_concurrency(), on_plan=heard,
            keep=account_filter.matches_config if account_filter.reads_config else None,
            origin=origin_of(connection), chosen=chosen,
        )  # fmt: skip
    except ValueError as exc:
        raise CommandError(f"nothing to plan: {exc}") from None
    ctx.messages.done()
    ctx.messages.say(f"plan: {plan.summary()}")
    out: str | None = args.out
    if out == "-":
        ctx.write_document(plan.to_json() + "\n")
        ctx.stdout.flush()
    else:
        if out is not None:
            ctx.write_plan(out, plan.to_json())
            ctx.messages.say(f"plan written to {out}: vagent-tui rollout apply {out}")
        with ctx.output(PLAN_KIND, PLAN_COLUMNS) as items:
            items.write_all(_plan_item(p) for p in plan.accounts)
    return CHANGES if plan.changing() else DONE


def _refuse_fields(errors: dict[str, str]) -> None:
    if errors:
        said = "; ".join(f"{FIELD_OPTIONS.get(k, k)}: {m}" for k, m in errors.items())
        raise CommandError(said)


def _given_ids(args: argparse.Namespace) -> set[int] | None:
    """The ids of ``--accounts`` and ``--accounts-file`` (None: neither given)."""
    ids = chosen_ids(args)
    return None if ids is None else set(ids)


async def _listing(ctx: Context) -> AgentListing:
    """The agent accounts below the key, listed as Fleet and Rollout list them."""
    from vagent_tui.services.accounts import AccountDirectory
    from vagent_tui.services.agent_listing import list_agents

    connection = ctx.connection
    directory = connection.directory
    if directory is None:
        assert connection.scope is not None and connection.owner is not None
        directory = AccountDirectory(connection.api, connection.scope, connection.owner)
    ctx.messages.say("listing the agent accounts below the key")
    return await list_agents(connection.api, directory)


def _chosen(
    ctx: Context, listing: AgentListing, under: int | None, marked: set[int] | None, words: str
) -> str:
    """How the accounts were chosen, in the words the screen keeps in a plan."""
    from vagent_tui.words import counted

    if under is None:
        owner = ctx.connection.owner
        name = owner.display_name if owner is not None else "the key"
    else:
        path = listing.path_of(under)
        name = path[-1].display_name if path and path[-1].id == under else f"account {under}"
    parts = [f"below {name}"]
    if marked is not None:
        parts.append(f"the {counted(len(marked), 'account')} given")
    if words:
        parts.append(f"matching {words}")
    return ", ".join(parts)


def _ids(ids: Sequence[int]) -> str:
    shown = ", ".join(str(i) for i in ids[:10])
    return shown + (f" and {len(ids) - 10:,} more" if len(ids) > 10 else "")


def _plan_item(p: AccountPlan) -> dict[str, Any]:
    return {"account_id": p.account_id, "name": p.name, "outcome": p.outcome,
            "changes": list(p.changes), "reasons": list(p.reasons),
            "notes": list(p.notes)}  # fmt: skip


# --------------------------------------------------------------------------- apply, publish


def read_plan(
    source: str, stdin: Any = None, redact: Callable[[str], str] | None = None
) -> tuple[RolloutPlan, Path | None]:
    """The plan of file ``source`` (``-``: stdin), as the screen's ``l`` reads one, and
    its path (None: stdin). ``redact``: the connection's (`RolloutPlan.from_json`).

    Raises:
        CommandError: the file cannot be read, or is not a plan.
    """
    import sys
    from pathlib import Path

    from vagent_tui.services.rollout import RolloutPlan

    path = None if source == "-" else Path(source).expanduser()
    try:
        text = (stdin or sys.stdin).read() if path is None else path.read_text(encoding="utf-8")
        return RolloutPlan.from_json(text, redact), path
    except OSError as exc:
        raise CommandError(f"could not read {source}: {exc.strerror or exc}") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise CommandError(f"{source}: {exc}") from None


def log_of(plan: RolloutPlan, path: Path | None) -> RolloutLog:
    """The plan's log, the screen's for the same plan: a plan kept by the console
    (``<id>.plan.json`` in the rollouts folder) has its own beside it, as the screen's
    ``l`` resumes it; any other file, the log of its plan (`RolloutLog.for_plan`: the
    one the screen keeps when it opens that file)."""
    from vagent_tui.services.bulk import RolloutLog
    from vagent_tui.services.rollout_apply import rollouts_dir

    if path is not None and path.name.endswith(".plan.json"):
        kept = rollouts_dir().resolve()
        if path.resolve().parent == kept:
            return RolloutLog(kept / (path.name.removesuffix(".plan.json") + ".jsonl"))
    return RolloutLog.for_plan(plan)


async def _checked(ctx: Context, plan: RolloutPlan) -> None:
    """Refuse (exit 4) a plan of another platform or key, or one naming accounts the key
    does not reach (the screen's checks before ``A`` and ``P``)."""
    from vagent_tui.services.session import origin_of

    here = origin_of(ctx.connection)
    if plan.origin != here:
        raise Refused(f"this plan was made for {plan.origin or 'an unknown platform'}; this "
                      f"is {here}: plan it again here")  # fmt: skip
    listing = await _listing(ctx)
    strangers = sorted(plan.changing() - {a.id for a in listing.accounts})
    if strangers:
        raise Refused(f"the plan names accounts this key does not reach ({_ids(strangers)}): "
                      "nothing is sent; plan it again")  # fmt: skip


def _order(plan: RolloutPlan) -> list[AccountPlan]:
    """The accounts the plan changes, in plan order, each once."""
    seen: set[int] = set()
    out = []
    for p in plan.accounts:
        if p.outcome == "change" and p.account_id not in seen:
            seen.add(p.account_id)
            out.append(p)
    return out


async def run_apply(ctx: Context) -> int:
    from vagent_tui.services.rollout_apply import apply_rollout

    plan, path = read_plan(ctx.args.plan, redact=ctx.connection.api.redact)
    ctx.may_write(planned=True)
    await _checked(ctx, plan)

    def write(client: Any, log: RolloutLog, **kw: Any) -> Awaitable[list[AccountResult]]:
        return apply_rollout(client, plan, log, **kw)

    return await _run_step(ctx, plan, path, "write", _order(plan), write)


async def run_publish(ctx: Context) -> int:
    from vagent_tui.services.rollout_apply import publish_rollout
    from vagent_tui.words import counted

    args = ctx.args
    plan, path = read_plan(args.plan, redact=ctx.connection.api.redact)
    ctx.may_write(planned=True)
    order = _order(plan)
    if args.wave is not None:
        size = args.wave_size or DEFAULT_WAVE_SIZE
        wave = order[(args.wave - 1) * size : args.wave * size]
        waves = counted(-(-len(order) // size), "wave")
        if not wave:
            raise CommandError(f"the plan changes {counted(len(order), 'account')}: {waves} "
                               f"of {size:,}, no wave {args.wave}")  # fmt: skip
        first, last = (args.wave - 1) * size + 1, (args.wave - 1) * size + len(wave)
        ctx.messages.say(f"wave {args.wave}: accounts {first:,} to {last:,} of the "
                         f"{len(order):,} the plan changes ({waves} of {size:,})")  # fmt: skip
    else:
        if args.wave_size is not None:
            raise CommandError("--wave-size goes with --wave N")
        wave = order
    await _checked(ctx, plan)

    def publish(client: Any, log: RolloutLog, **kw: Any) -> Awaitable[list[AccountResult]]:
        ids = [p.account_id for p in wave if log.done(p.account_id, "write")]
        return publish_rollout(client, plan, ids, log, **kw)

    return await _run_step(ctx, plan, path, "publish", wave, publish)


async def _run_step(
    ctx: Context,
    plan: RolloutPlan,
    path: Path | None,
    step: Step,
    accounts: list[AccountPlan],
    run: Callable[..., Awaitable[list[AccountResult]]],
) -> int:
    """Apply ``step`` (``write``, ``publish``) to ``accounts`` through ``run`` (the
    service), with the plan's log held as the screen holds it during a run; one item per
    account of the plan."""
    import asyncio

    from vagent_tui.services.bulk import RolloutBusy
    from vagent_tui.services.rollout_apply import save_plan

    log = log_of(plan, path)
    await asyncio.to_thread(save_plan, plan, log=log)  # the screen's l lists it, resumes it
    try:
        log.hold()  # as the screen does before a run: the log as read now is the whole of it
    except RolloutBusy as exc:
        raise CommandError(f"{exc} (a console or another job): wait for it") from None
    try:
        return await _each(ctx, plan, log, step, accounts, run)
    finally:
        log.release()  # also when cut off: the console, or the next job, may take the plan


async def _each(
    ctx: Context,
    plan: RolloutPlan,
    log: RolloutLog,
    step: Step,
    accounts: list[AccountPlan],
    run: Callable[..., Awaitable[list[AccountResult]]],
) -> int:
    from vagent_tui.services.bulk import DONE as DONE_RESULTS
    from vagent_tui.services.bulk import AccountResult, rollout_concurrency
    from vagent_tui.words import counted

    earlier = {p.account_id for p in accounts if log.done(p.account_id, step)}
    by_id = {p.account_id: p for p in plan.accounts}
    total = len(accounts) - len(earlier)
    verb = "writing the staging of" if step == "write" else "publishing"
    more = f" ({len(earlier):,} done by an earlier run are skipped)" if earlier else ""
    ctx.messages.say(f"{verb} {counted(total, 'account')}: {plan.describe()}{more}")
    trouble = 0
    seen = 0

    def item(p: AccountPlan, result: AccountResult | None, *, before: bool = False) -> None:
        nonlocal trouble
        if result is not None and result.result not in DONE_RESULTS:
            trouble += 1
        items.write({
            "account_id": p.account_id, "name": p.name, "step": step, "outcome": p.outcome,
            "result": result.result if result else None, "earlier": before,
            "message": result.message if result else "; ".join(p.reasons),
        })  # fmt: skip

    done_as = "written" if step == "write" else "published"

    def heard(result: AccountResult) -> None:
        nonlocal seen
        seen += 1
        item(by_id[result.account_id], result)
        ctx.messages.progress(seen, total, f"accounts {done_as}")

    with ctx.output(RESULT_KIND, RESULT_COLUMNS) as items:
        got = await run(ctx.connection.api, log,
                        concurrency=ctx.args.concurrency or rollout_concurrency(),
                        on_result=heard)  # fmt: skip
        ctx.messages.done()
        settled = {r.account_id for r in got}
        for p in accounts:
            if p.account_id in settled:
                continue
            if p.account_id in earlier:
                item(p, log.results.get((p.account_id, step)), before=True)
            elif step == "publish" and not log.done(p.account_id, "write"):
                item(p, AccountResult(p.account_id, step, "nothing", "not written: apply first"))
        if step == "write":
            for p in plan.accounts:
                if p.outcome != "change":
                    item(p, None)
    done = len(accounts) - trouble
    not_done = f", {trouble:,} not: see their items" if trouble else ""
    ctx.messages.say(f"{done:,} of {counted(len(accounts), 'account')} {done_as}{not_done}")
    return PARTIAL if trouble else DONE
