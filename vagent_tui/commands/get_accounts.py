"""``vagent-tui get accounts``: the account tree below the key, as the Scope screen shows it.

One item per account, each after its parent (depth first, the platform's order): id,
name, type (the screen's words: partner, reseller, organization, agent), parent id,
depth and path from the top of the listing. ``--below ID`` starts at another account
(the target given with ``--account`` otherwise, else the key owner), ``--depth N``
stops N levels below it, ``--type`` keeps some kinds (and reads no deeper than the
deepest of them). An account whose children cannot be read is listed with an
``error``, the others are read, and the command exits 3.

Cheap to import (argparse only): the services are imported when the command runs.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from vagent_tui.commands.contract import PARTIAL, Refused
from vagent_tui.commands.registry import completes, nothing
from vagent_tui.words import counted

if TYPE_CHECKING:
    from vagent_tui.api.models import Account
    from vagent_tui.commands.runner import Context
    from vagent_tui.services.account_tree import TreeNode

KIND = "accounts"
COLUMNS = ("id", "name", "type", "parent_id", "depth", "path", "active")
TYPES = {"partner": "partner", "reseller": "reseller", "organization": "organization",
         "agent": "account"}  # fmt: skip
"""``--type`` words (the screen's) and the platform's ``accountType`` each means."""
_TYPE_WORDS = {"account": "agent", "user": "member"}
PATH_SEPARATOR = " › "


def _depth(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError("must be 0 or more")
    return value


def _types(text: str) -> list[str]:
    words = [w.strip() for w in text.split(",") if w.strip()]
    unknown = [w for w in words if w not in TYPES]
    if unknown or not words:
        raise argparse.ArgumentTypeError(
            f"{', '.join(unknown) or 'nothing'}: one or more of {', '.join(TYPES)}, comma-separated"
        )
    return words


def complete_types(prefix: str = "", **_context: object) -> list[str]:
    """The ``--type`` words, the one after the last comma typed so far."""
    head, comma, last = prefix.rpartition(",")
    chosen = set(head.split(",")) if comma else set()
    start = head + comma
    return [start + word for word in TYPES if word.startswith(last) and word not in chosen]


def add_accounts(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser
) -> None:
    """Add ``get accounts`` to ``get``'s subcommands."""
    parser = sub.add_parser(
        "accounts", parents=[common], help="the account tree below the key",
        description="The accounts the key reaches, as the Scope screen's tree: each after "
        "its parent, with its type, parent id, depth and path. Starts at the key owner, "
        "or at the --account target, or at --below ID.",
    )  # fmt: skip
    completes(parser.add_argument(
        "--below", type=int, metavar="ID",
        help="start at this account (it and the accounts below it)",
    ), nothing)  # fmt: skip
    completes(parser.add_argument(
        "--depth", type=_depth, metavar="N",
        help="at most N levels below the start (0: the start alone)",
    ), nothing)  # fmt: skip
    completes(parser.add_argument(
        "--type", type=_types, dest="types", metavar="TYPE[,TYPE]",
        help=f"only these kinds of account: {', '.join(TYPES)} (comma-separated)",
    ), complete_types)  # fmt: skip
    parser.set_defaults(run="get_accounts:run")


def type_word(account: Account) -> str:
    """The kind of ``account`` in the screen's words (``agent`` for an agent account)."""
    from vagent_tui.services.account_text import account_kind

    kind = account_kind(account)
    return _TYPE_WORDS.get(kind, kind)


def item_of(node: TreeNode, ids: tuple[int, ...]) -> dict[str, Any]:
    """The ``accounts`` item of one node of the tree (``ids``: its path's ids)."""
    account = node.account
    active = account.scope_field("active")
    return {
        "id": account.id,
        "name": account.display_name,
        "username": account.username,
        "type": type_word(account),
        "computer_agent": account.scope_field("computerAgent") is True,
        "parent_id": node.parent_id,
        "depth": node.depth,
        "path": PATH_SEPARATOR.join(node.path),
        "path_ids": list(ids),
        "active": active if isinstance(active, bool) else None,
        "external_account_id": account.external_account_id,
        "external_billing_id": account.external_billing_id,
        "error": node.error or None,
    }


async def _start(ctx: Context) -> Account | None:
    """The account the listing starts at: ``--below``, the target, or None (the owner)."""
    from vagent_tui.api.errors import ApiError

    below: int | None = ctx.args.below
    connection = ctx.connection
    if below is None:
        return connection.target
    directory = connection.directory
    if directory is not None and below in directory.known:
        return directory.known[below]
    scope = connection.scope
    if scope is not None and scope.restricted and not scope.permits(below):
        raise Refused(f"the key may not act on account {below}")
    try:
        return await connection.resolve(below)
    except ApiError as exc:
        if exc.status in (403, 404):
            raise Refused(f"account {below} is not below the key ({exc.describe()})") from None
        raise


async def run(ctx: Context) -> int:
    from vagent_tui.services.account_tree import walk_tree

    directory = ctx.connection.directory
    assert directory is not None
    start = await _start(ctx)
    wanted: list[str] = ctx.args.types or []
    messages = ctx.messages
    tree = await walk_tree(
        directory, start, depth=ctx.args.depth, kinds=[TYPES[w] for w in wanted],
        progress=lambda n: messages.progress(n, None, "accounts read"),
    )  # fmt: skip
    messages.done()  # the progress line off the terminal before the table is on it
    ids: dict[int, tuple[int, ...]] = {}
    with ctx.output(KIND, COLUMNS) as out:
        for node in tree.nodes:
            assert node.account.id is not None
            mine = (*ids.get(node.parent_id or 0, ()), node.account.id)
            ids[node.account.id] = mine
            if wanted and type_word(node.account) not in wanted:
                continue
            out.write(item_of(node, mine))
    if not tree.complete:
        messages.warn("the tree is larger than a listing reads: it stopped short")
    if tree.failed:
        messages.warn(f"the accounts below {counted(tree.failed, 'account')} could not be read")
        return PARTIAL
    return 0
