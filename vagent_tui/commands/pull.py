"""Configuration as code: ``vagent-tui pull DIR`` and ``vagent-tui plan-from DIR``.

``pull`` writes every agent account's staging and live configuration below the key (or
``--below ID``, ``--accounts``) to DIR, one file per account, nothing secret
(`vagent_tui.services.config_folder` documents the layout). ``plan-from`` makes a plan
of the folder once edited: per account, the staging write its file asks for, checked
against the platform's staging now; ``vagent-tui rollout apply PLAN.json`` and
``rollout publish PLAN.json --wave N`` apply it as any rollout (and the Rollout screen
opens it). ``plan-from`` exits 2 when the plan has changes, as ``terraform plan
-detailed-exitcode``.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from vagent_tui.commands.contract import CHANGES, DONE, PARTIAL, CommandError, Refused
from vagent_tui.commands.options import add_account_set, add_concurrency, chosen_ids
from vagent_tui.words import counted

if TYPE_CHECKING:
    from pathlib import Path

    from vagent_tui.commands.runner import Context
    from vagent_tui.services.accounts import NamedAccount
    from vagent_tui.services.agent_listing import AgentListing
    from vagent_tui.services.rollout import FolderPlan

PULLED_COLUMNS = ("account_id", "name", "file", "result", "message")
PLANNED_COLUMNS = ("account_id", "name", "file", "outcome", "changes", "reasons", "notes")


def add_parser(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser
) -> None:
    pull = sub.add_parser(
        "pull", parents=[common],
        help="write every agent's staging and live configuration to a folder",
        description="Write each agent account's configuration below the key (or --below ID, "
        "or --accounts) to DIR: one file per account, <id>-<name>.json, holding its staging "
        "(what a write starts from: live when staging is empty) and its live configuration, "
        "keys sorted, nothing secret (masked as ***). A file whose account did not change "
        "is not rewritten. A file for an account no longer below the key is reported "
        "(stale), deleted only with --prune. Edit the files, then: vagent-tui plan-from DIR.",
    )  # fmt: skip
    pull.add_argument("folder", metavar="DIR", help="the folder (made if need be)")
    _choice(pull)
    pull.add_argument("--prune", action="store_true",
                      help="delete the files of accounts no longer below the key")  # fmt: skip
    pull.set_defaults(run="pull:pull")
    plan = sub.add_parser(
        "plan-from", parents=[common],
        help="plan the staging writes an edited pulled folder asks for",
        description="Compare each file of DIR (made by vagent-tui pull, then edited) with the "
        "platform's staging now, and plan, per account, the write that makes staging what "
        "the file says. Only what the console writes may change: settings, agentVoice, "
        "actions; a file that edits anything else, or names an account not below the key, "
        "fails the whole plan (exit 1, each problem named). Nothing is written to the "
        "platform: --out PLAN.json keeps the plan for vagent-tui rollout apply PLAN.json "
        "and rollout publish PLAN.json --wave N (or the Rollout screen: l, Open a plan "
        "file). Exit 2: the plan has changes; 3: some accounts could not be read or refuse "
        "their file's change; 0: nothing to write.",
    )  # fmt: skip
    plan.add_argument("folder", metavar="DIR", help="a folder pulled by vagent-tui pull")
    plan.add_argument(
        "--out", metavar="PLAN.json",
        help="write the plan there, mode 0600: it holds each account's configuration as "
        "read, unmasked (secrets included), to find what moved before a write; keep it "
        "out of version control (commit the folder, not the plan). - writes it on stdout "
        "instead of the accounts' lines, for a pipe (refused when stdout is a terminal)",
    )  # fmt: skip
    add_concurrency(plan, "accounts read")
    plan.set_defaults(run="pull:plan_from")


def _choice(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("accounts")
    group.add_argument("--below", type=int, metavar="ID",
                       help="only the agent accounts below this account (or it)")  # fmt: skip
    add_account_set(group)
    add_concurrency(group, "accounts read")


async def _listing(ctx: Context) -> AgentListing:
    from vagent_tui.services.agent_listing import list_agents

    directory = ctx.connection.directory
    assert directory is not None
    ctx.messages.say("listing the agent accounts below the key…")
    return await list_agents(ctx.connection.api, directory)


def _chosen(ctx: Context, listing: AgentListing, marked: list[int] | None) -> list[NamedAccount]:
    from vagent_tui.services.rollout_pick import pick_accounts

    below: int | None = ctx.args.below
    if below is not None and listing.accounts.get(below) is None and below not in listing.above:
        raise Refused(f"--below {below}: no account below the key has this id")
    if marked is not None:
        missing = [i for i in marked if listing.accounts.get(i) is None]
        if missing:
            raise Refused(f"--accounts: {', '.join(map(str, missing))}: not an agent account "
                          "below the key")  # fmt: skip
    return pick_accounts(
        listing.accounts, path_of=listing.path_of, under=below,
        marked=set(marked) if marked is not None else None,
    )  # fmt: skip


async def pull(ctx: Context) -> int:
    """``vagent-tui pull DIR``."""
    from pathlib import Path

    from vagent_tui.services.bulk import rollout_concurrency
    from vagent_tui.services.config_folder import PullResult, pull_folder

    folder = Path(ctx.args.folder).expanduser()
    marked = chosen_ids(ctx.args)  # a bad id is said before anything is read
    listing = await _listing(ctx)
    accounts = _chosen(ctx, listing, marked)
    total = len(accounts)
    done = 0
    with ctx.output("pulled", PULLED_COLUMNS) as out:

        def each(result: PullResult) -> None:
            nonlocal done
            if result.result in ("stale", "pruned"):
                ctx.messages.warn(f"{result.file}: {result.message}")
            else:
                done += 1
                ctx.messages.progress(done, total, "accounts pulled")
            out.write({"account_id": result.account_id, "name": result.name,
                       "file": result.file, "result": result.result,
                       "message": result.message})  # fmt: skip

        try:
            results = await pull_folder(
                ctx.connection.api, accounts, folder, parents=listing.parents,
                below_key=(row.id for row in listing.accounts), prune=bool(ctx.args.prune),
                concurrency=ctx.args.concurrency or rollout_concurrency(), on_result=each,
            )  # fmt: skip
        except OSError as exc:
            raise CommandError(f"{folder}: {exc.strerror or exc}") from None
    ctx.messages.done()
    counts = {r: sum(1 for x in results if x.result == r) for r in
              ("written", "unchanged", "failed", "stale", "pruned")}  # fmt: skip
    ctx.messages.say(", ".join(f"{n:,} {r}" for r, n in counts.items() if n) or "no account")
    return PARTIAL if counts["failed"] else DONE


async def plan_from(ctx: Context) -> int:
    """``vagent-tui plan-from DIR``."""
    from pathlib import Path

    from vagent_tui.services.bulk import rollout_concurrency
    from vagent_tui.services.config_folder import FolderError, plan_folder, read_folder
    from vagent_tui.services.rollout import AccountPlan
    from vagent_tui.services.session import origin_of

    ctx.plan_to_stdout(ctx.args.out)  # refused on a terminal before any read
    folder = Path(ctx.args.folder).expanduser()
    try:
        files = read_folder(folder)
    except FolderError as exc:
        for problem in exc.problems:
            ctx.messages.error(problem)
        raise _no_plan(folder, exc.problems) from None
    listing = await _listing(ctx)
    accounts = {row.id: row for row in listing.accounts}
    total, done = len(files), 0

    def each(_plan: AccountPlan) -> None:
        nonlocal done
        done += 1
        ctx.messages.progress(done, total, "accounts planned")

    try:
        plan = await plan_folder(
            ctx.connection.api, files, accounts,
            concurrency=ctx.args.concurrency or rollout_concurrency(), on_plan=each,
            origin=origin_of(ctx.connection), chosen=f"folder {folder.name or folder}",
        )  # fmt: skip
    except FolderError as exc:
        ctx.messages.done()
        for problem in exc.problems:
            ctx.messages.error(problem)
        raise _no_plan(folder, exc.problems) from None
    ctx.messages.done()
    out_path: str | None = ctx.args.out
    text = _plan_text(plan)
    if out_path == "-":
        ctx.write_document(text)
        ctx.stdout.flush()
    else:
        if out_path is not None:
            ctx.write_plan(out_path, text)
        file_of = {f.account_id: f.path.name for f in files}
        with ctx.output("folder-plan", PLANNED_COLUMNS) as out:
            for p in plan.accounts:
                out.write({"account_id": p.account_id, "name": p.name,
                           "file": file_of.get(p.account_id, ""), "outcome": p.outcome,
                           "changes": list(p.changes), "reasons": list(p.reasons),
                           "notes": list(p.notes)})  # fmt: skip
    ctx.messages.say(plan.summary())
    if out_path not in (None, "-"):
        ctx.messages.say(f"plan written to {out_path}: vagent-tui rollout apply {out_path}, "
                         f"then vagent-tui rollout publish {out_path} --wave 1")  # fmt: skip
    counts = plan.counts()
    if counts["unreadable"] or counts["refused"]:
        return PARTIAL
    return CHANGES if counts["change"] else DONE


def _no_plan(folder: Path, problems: tuple[str, ...]) -> CommandError:
    return CommandError(f"{folder}: no plan made (the {counted(len(problems), 'problem')} above)")


def _plan_text(plan: FolderPlan) -> str:
    import json

    return json.dumps(plan.to_data(), ensure_ascii=False, indent=2, sort_keys=True) + "\n"
