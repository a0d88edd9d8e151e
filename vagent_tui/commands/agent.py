"""``vagent-tui agent diff|publish``: one agent's staging against live, and its publish.

``diff`` is the Agent screen's ``D`` (`vagent_tui.services.diff.diff_configs` of live
and staging, as `vagent_tui.services.staging.read_slots` reads them): one item per field
that differs; exit 2 when some does, 0 when staging is live's (as ``kubectl diff``).
``publish`` is its ``P``: both slots read first (an empty staging has nothing to
publish), then staging published once; a reply that never came is never resent: live is
read back and the item says whether it holds what was published (``unknown`` if not).
It asks nothing: ``--yes`` is the answer (without it, exit 4).
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from vagent_tui.commands.contract import CHANGES, DONE, ERROR, CommandError

if TYPE_CHECKING:
    from vagent_tui.commands.runner import Context
    from vagent_tui.services.diff import FieldDiff

DIFF_KIND = "agent-diff"
DIFF_COLUMNS = ("path", "kind", "old", "new")
PUBLISH_KIND = "agent-publish"
PUBLISH_COLUMNS = ("account_id", "result", "version_id", "changes", "message")


def add_parser(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser
) -> None:
    parser = sub.add_parser(
        "agent", parents=[common], help="one agent account: staging against live, publish",
        description="The Agent screen's diff and publish for one agent account (--account "
        "ID, or the profile's target).",
    )  # fmt: skip
    verbs = parser.add_subparsers(dest="agent_verb", required=True, metavar="VERB")
    diff = verbs.add_parser(
        "diff", parents=[common], help="what publishing staging would change in live",
        description="Staging against live, field by field (an entry of a list by its name, "
        "long text line by line): what publishing would change. Exit 2 when they differ, "
        "0 when staging is live's (an empty staging is).",
    )  # fmt: skip
    diff.set_defaults(run="agent:run_diff")
    publish = verbs.add_parser(
        "publish", parents=[common], help="publish staging to live (needs --yes)",
        description="Publish the staging of the agent to live: callers get it at once, and "
        "the platform saves a version of it. Both slots are read first; the item lists "
        "what changed. A lost reply is read back, never sent again. Needs --yes (exit 4 "
        "without it, or on a read-only profile).",
    )  # fmt: skip
    publish.add_argument("--yes", action="store_true", help="publish without asking")
    publish.set_defaults(run="agent:run_publish")


def _agent(ctx: Context) -> int | None:
    """The agent account the command is about (its target; None: the key's own).

    Raises:
        CommandError: neither the target nor the key owner is an agent account.
    """
    from vagent_tui.services.agent_listing import is_agent_account

    acting = ctx.connection.acting_as
    if acting is None or not is_agent_account(acting):
        raise CommandError("give --account ID: an agent account (the key's own is none)")
    return ctx.connection.target_id


def _diff_item(d: FieldDiff) -> dict[str, Any]:
    return {"path": d.path, "kind": d.kind, "old": d.old, "new": d.new, "lines": list(d.lines)}


async def run_diff(ctx: Context) -> int:
    from vagent_tui.services.diff import diff_configs, summary
    from vagent_tui.services.masking import shown_diffs
    from vagent_tui.services.staging import read_slots

    slots = await read_slots(ctx.connection.api, _agent(ctx))
    if slots.staging is None:
        ctx.messages.say("staging is empty: it is the live configuration")
    diffs = diff_configs(slots.live, slots.staging or slots.live)
    with ctx.output(DIFF_KIND, DIFF_COLUMNS) as out:
        out.write_all(_diff_item(d) for d in shown_diffs(diffs, ctx.connection.api.redact))
    ctx.messages.say(f"live → staging: {summary(diffs)}")
    return CHANGES if diffs else DONE


async def run_publish(ctx: Context) -> int:
    from vagent_tui.api.errors import PlatformError, outcome_unknown
    from vagent_tui.services.diff import diff_configs, summary
    from vagent_tui.services.fleet import describe
    from vagent_tui.services.rollout import change_lines
    from vagent_tui.services.staging import read_slots

    ctx.may_write()
    target = _agent(ctx)
    client, acting = ctx.connection.api, ctx.connection.acting_as
    account = acting.id if acting is not None else None
    slots = await read_slots(client, target)
    item: dict[str, Any] = {
        "account_id": account, "result": "nothing", "version_id": None, "changes": [],
        "message": "staging is empty: nothing to publish",
    }  # fmt: skip
    code = DONE
    if slots.staging is not None:
        published = slots.staging
        diffs = diff_configs(slots.live, published)
        item["changes"] = list(change_lines(diffs, client.redact))
        ctx.messages.say(f"publishing the staging of account {account}: {summary(diffs)}")
        lost: str | None = None
        after: dict[str, Any] | None
        unread = ""
        try:
            reply = await client.publish_staging(target=target)
        except PlatformError as exc:
            if not outcome_unknown(exc):
                raise  # refused: nothing changed (the runner says the platform's message)
            lost = describe(exc)  # the reply never came: live is read, never the publish resent
        try:
            after = (await read_slots(client, target)).live or {}
        except PlatformError as exc:
            # The publish is said either way: exit 1 with no item would hide one that
            # happened (and invite a rerun that publishes again).
            after, unread = None, f"live could not be read back ({describe(exc)})"
        if lost is not None:
            there = after is not None and not diff_configs(published, after)
            item["result"] = "published" if there else "unknown"
            if after is None:
                item["message"] = (f"{lost}; {unread}: it may be published (vagent-tui agent "
                                   f"diff --account {account} says)")  # fmt: skip
            else:
                holds = "holds" if there else "does not hold"
                item["message"] = f"{lost}; read back: live {holds} the staging published"
            code = DONE if there else ERROR
        else:
            item["result"] = "published"
            item["version_id"] = reply.version_id
            item["message"] = (
                f"version {reply.version_id} saved" if reply.version_id else "published"
            )
            if after is None:
                item["message"] += f"; {unread}"
            elif moved := diff_configs(published, after):  # what the platform holds now
                item["message"] += (f"; read back: live differs from what was published in "
                                    f"{summary(moved)} (another change meanwhile?)")  # fmt: skip
    with ctx.output(PUBLISH_KIND, PUBLISH_COLUMNS) as out:
        out.write(item)
    (ctx.messages.say if code == DONE else ctx.messages.error)(item["message"])
    return code
