"""The account tree below one account, in the order the Scope screen shows it.

The tree is read level by level through the `AccountDirectory` (the lists the Scope
screen's tree and its export read: ``listResellers``, ``listOrganizations``,
``listAccounts``, all pages, each read again while it fails transiently), then laid out
depth first: each account followed by its children, in the platform's order. An account
whose children cannot be read does not end the walk: the others are read, and that
account's `TreeNode.error` says why its children are missing.

``depth`` stops the walk that many levels below the start; ``down_to`` stops it at the
deepest kind asked for (a list of the resellers never reads an organization's agents).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Collection
from dataclasses import dataclass

from vagent_tui.api.errors import PlatformError
from vagent_tui.api.models import Account
from vagent_tui.services.account_text import account_kind
from vagent_tui.services.accounts import AccountDirectory, has_children

KIND_DEPTH = {"partner": 0, "reseller": 1, "organization": 2, "account": 3}
"""How deep each kind sits in a full tree: the kinds below the deepest one asked for
are not read."""
TREE_LIMIT = 1_000_000
"""About how many accounts a walk reads at most (checked between levels, as
`AccountDirectory.walk`); `AccountTree.complete` says when it stopped short."""


@dataclass(frozen=True)
class TreeNode:
    """One account of the tree: how deep below the start, its parent, the names from the
    start down to it, and why its children could not be read ("" when they were, or
    were not asked for)."""

    account: Account
    depth: int
    parent_id: int | None
    path: tuple[str, ...]
    error: str = ""


@dataclass(frozen=True)
class AccountTree:
    """The accounts of a walk, each after its parent; whether it reached the tree's end
    (the ``depth`` or the kinds asked for stop it on purpose: that is complete)."""

    nodes: tuple[TreeNode, ...]
    complete: bool

    @property
    def failed(self) -> int:
        """Accounts whose children could not be read."""
        return sum(1 for node in self.nodes if node.error)


def _descends(account: Account, depth: int, max_depth: int | None, down_to: int | None) -> bool:
    """Whether the walk lists the children of ``account`` (``depth`` below the start)."""
    if account.id is None or (max_depth is not None and depth >= max_depth):
        return False
    return down_to is None or KIND_DEPTH.get(account_kind(account), -1) < down_to


async def walk_tree(
    directory: AccountDirectory,
    start: Account | None = None,
    *,
    depth: int | None = None,
    kinds: Collection[str] = (),
    limit: int = TREE_LIMIT,
    progress: Callable[[int], None] | None = None,
) -> AccountTree:
    """The tree below ``start`` (the key owner when None), ``start`` first.

    Args:
        directory: the key's accounts (what it has read already is not read again).
        start: the account at the top; its parent is the one the directory knows.
        depth: levels below ``start`` to read (0: ``start`` alone); None: all.
        kinds: the kinds wanted (`account_kind` words); the walk does not read below
            the deepest of them. Empty: every kind.
        limit: stop between levels once about this many accounts are known.
        progress: hears the number of accounts read after each level.
    """
    top = directory.owner if start is None else start
    wanted = [KIND_DEPTH[k] for k in kinds if k in KIND_DEPTH]
    down_to = max(wanted) if wanted and len(wanted) == len(kinds) else None
    children: dict[int, list[Account]] = {}
    errors: dict[int, str] = {}

    async def read(account: Account) -> None:
        assert account.id is not None
        try:
            children[account.id] = await directory.children(account)
        except PlatformError as exc:
            errors[account.id] = str(exc)

    frontier, level, count = [top], 0, 1
    placed = {top.id}  # an account is placed once: a platform listing one below its own
    while frontier and count < limit:  # descendant must not make the walk go round
        wide = [a for a in frontier if _descends(a, level, depth, down_to)]
        wide = [a for a in wide if has_children(a) or a is directory.owner]
        await asyncio.gather(*(read(a) for a in wide))
        frontier = []
        for parent in wide:
            kept = [c for c in children.get(parent.id or 0, ()) if c.id is not None
                    and c.id not in placed]  # fmt: skip
            placed.update(c.id for c in kept)
            if parent.id is not None and parent.id in children:
                children[parent.id] = kept
            frontier.extend(kept)
        count += len(frontier)
        level += 1
        if progress is not None:
            progress(count)
    unread = [a for a in frontier if _descends(a, level, depth, down_to) and has_children(a)]
    return AccountTree(tuple(_laid_out(directory, top, children, errors)), complete=not unread)


def _laid_out(
    directory: AccountDirectory,
    top: Account,
    children: dict[int, list[Account]],
    errors: dict[int, str],
) -> list[TreeNode]:
    """Depth first from ``top``: each account, then its children's subtrees."""
    nodes: list[TreeNode] = []
    parent = directory.parents.get(top.id) if top.id is not None else None
    stack: list[tuple[Account, int, int | None, tuple[str, ...]]] = [(top, 0, parent, ())]
    seen: set[int] = set()
    while stack:
        account, depth, parent, above = stack.pop()
        if account.id is None or account.id in seen:
            continue  # a platform that lists an account under two parents: once
        seen.add(account.id)
        path = (*above, account.display_name)
        nodes.append(TreeNode(account, depth, parent, path, errors.get(account.id, "")))
        below = children.get(account.id, ())
        stack.extend((child, depth + 1, account.id, path) for child in reversed(below))
    return nodes
