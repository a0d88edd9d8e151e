"""The Scope screen's tree and what shows beside it: the header, the tree read level by
level, the highlighted account's detail and its members.

`ScopeTreeScreen` is the base of `vagent_tui.ui.screens.scope.ScopeScreen`: it draws
what `TreeState` holds (`vagent_tui.ui.screens.scope_state`). The child accounts load
lazily: expanding a node of the tree lists its children once (one list request per
node, cached by the `AccountDirectory`).
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from rich.text import Text
from textual import work
from textual.widgets import OptionList, Static, Tree
from textual.widgets.option_list import Option
from textual.widgets.tree import TreeNode

from vagent_tui.api.errors import PlatformError
from vagent_tui.api.models import Account
from vagent_tui.services.accounts import AccountDirectory
from vagent_tui.services.session import Connection
from vagent_tui.ui.caps import left_out
from vagent_tui.ui.screens.base import BaseScreen
from vagent_tui.ui.screens.scope_state import FilterState, TreeState
from vagent_tui.ui.text import inert
from vagent_tui.ui.widgets.account_info import account_detail, label_for, scope_info, selectable
from vagent_tui.ui.widgets.account_tree import AccountMatches, AccountTree
from vagent_tui.ui.widgets.fitted import FittedStatic
from vagent_tui.ui.widgets.members_pane import MembersPane, members_view
from vagent_tui.ui.widgets.status import describe_error

if TYPE_CHECKING:
    from vagent_tui.api.models import Member

MEMBERS_SETTLE = 0.15
"""Seconds the highlight stays on an account before the members pane reads its members."""


class ScopeTreeScreen(BaseScreen):
    """The header, the tree of the key's accounts, the detail and the members pane."""

    def __init__(self) -> None:
        super().__init__()
        self.tree_state = TreeState()
        self.filter_state = FilterState()
        self._detail_of: Account | None = None
        """The account the detail pane shows (this very value: an edit makes another)."""

    @property
    def directory(self) -> AccountDirectory | None:
        """The accounts read for the tree (None: no tree yet)."""
        return self.tree_state.directory

    @property
    def account_tree(self) -> AccountTree:
        return self.query_one("#scope-tree", AccountTree)

    @property
    def matches(self) -> AccountMatches:
        return self.query_one("#scope-matches", AccountMatches)

    @property
    def filtering(self) -> bool:
        """Text is typed in the filter: the matches show instead of the tree."""
        return self.has_class("-filtering")

    def _apply_filter(self) -> None:
        """The filter's answer for the text typed, for a new tree (`ScopeFindScreen`)."""

    def _tree_changed(self, _: None) -> None:
        """Accounts were created or changed elsewhere (Onboard's apply): the tree is read
        afresh, as ``r`` reads it, at once on show, else when Scope is shown next."""
        self.tree_state.directory = None
        self.tree_state.fresh = self.connection.connected
        self.load_when_shown()
        if self.is_current:
            self._maybe_reload()

    # ------------------------------------------------------------------ header part

    def label(self, account: Account, suffix: str = "") -> Text:
        """The tree line of ``account`` for the connection in force."""
        return label_for(self.connection, account, suffix)

    def _show_info(self, connection: Connection | None = None) -> None:
        connection = connection or self.connection
        info = self.query_one("#scope-info", Static)
        info.set_class(connection.error is not None, "-error")
        info.update(scope_info(connection, connection.error))

    # ------------------------------------------------------------------ loading

    def reload(self) -> None:
        self._show_info()
        state = self.tree_state
        if state.directory is not None and state.directory.client is not self.connection.client:
            state.directory = None  # another profile: another key, another tree
        if state.directory is None and self.connection.scope and self.connection.owner:
            self._build_tree()
        else:
            self._refresh_labels()
            self.status.info(self.connection.context_line())

    def action_reload(self) -> None:
        self.tree_state.directory = None  # an explicit refresh lists everything again
        # (not connected: r connects, and the new connection's first level is fresh)
        self.tree_state.fresh = self.connection.connected
        super().action_reload()

    def _build_tree(self) -> None:
        conn = self.connection
        assert conn.scope is not None and conn.owner is not None
        shared = conn.directory
        if self.tree_state.fresh or shared is None or shared.client is not conn.api:
            shared = AccountDirectory(conn.api, conn.scope, conn.owner)
        self.tree_state.start(shared)
        self.filter_state.clear()
        owner = shared.root()
        tree = self.account_tree
        tree.start_at(owner, expandable=shared.root_has_children())
        self._show_detail(owner)
        if tree.root.allow_expand:
            read = shared.cached_children(owner)
            if read is not None:  # read by the connection (start-up): shown in this frame
                self._show_children(tree.root, owner, read)
            tree.root.expand()
        else:
            self.status.info("This key acts on its own account only: there is nothing below it.")
        self._apply_filter()

    def on_tree_node_expanded(self, event: Tree.NodeExpanded[Account]) -> None:
        event.stop()
        account = event.node.data
        if account is None or account.id is None or account.id in self.tree_state.loaded:
            return
        self.run_worker(
            self._load_children(event.node, account),
            group=f"scope-children-{account.id}",
            exclusive=True,
            exit_on_error=False,
        )

    async def _load_children(self, node: TreeNode[Account], account: Account) -> None:
        directory = self.directory
        assert directory is not None
        self.account_tree.mark(node, " ⟳ loading…")
        quiet = account.id in self.tree_state.quiet

        def failed(exc: PlatformError) -> None:
            if directory is self.directory:  # not a tree rebuilt meanwhile
                self.account_tree.mark(node, " ✗ failed")  # never "loading…" after it
                self.status.error(exc)

        try:
            ok, children = await self.load(
                lambda _c: directory.children(account),
                note="" if quiet else f"Loading the accounts under {account.display_name}",
                on_error=failed,
                follows_target=False,  # the key's own tree, whatever the target
            )
        except Exception:
            if directory is self.directory:
                self.account_tree.mark(node, " ✗ failed")
            raise  # shown by `load_failed`, like any failure of a worker
        if not ok or children is None or directory is not self.directory:
            return  # the tree was rebuilt meanwhile
        self._show_children(node, account, children)

    def _show_children(
        self, node: TreeNode[Account], account: Account, children: list[Account]
    ) -> None:
        assert account.id is not None
        if not self.tree_state.shown(account.id):
            return
        self.account_tree.populate(node, children)
        if self.tree_state.announced(account.id):  # not read again after a change
            noun = "account" if len(children) == 1 else "accounts"
            shown = left_out(len(children), "account")
            self.status.info(f"{len(children):,} {noun} under {account.display_name}{shown}")
        scope_id = self.directory.scope_account_id() if self.directory else None
        if node is self.account_tree.root and scope_id is not None:
            # A user-shaped admin: open the account its rule names, where it acts.
            for child in node.children:
                if child.data is not None and child.data.id == scope_id and child.allow_expand:
                    child.expand()

    def _read_children_again(self, node: TreeNode[Account]) -> None:
        """After a change of unknown outcome: the children of ``node`` as they are now."""
        account = node.data
        if account is None or account.id is None or self.directory is None:
            return
        self.tree_state.read_again(account.id)
        node.remove_children()
        if node.is_expanded:
            self.run_worker(
                self._load_children(node, account), group=f"scope-children-{account.id}",
                exclusive=True, exit_on_error=False,
            )  # fmt: skip
        else:
            node.expand()

    # ------------------------------------------------------------------ labels, detail

    def _refresh_labels(self) -> None:
        self.account_tree.relabel()
        answer = self.filter_state.answer
        if answer is not None and self.matches.answered == answer.query:
            self.matches.show(answer, self._match_text, keep=True)

    def _match_text(self, account: Account) -> Text:
        text = label_for(self.connection, account)
        assert self.directory is not None and account.id is not None
        parents = self.directory.path_of(account.id)[:-1]
        if parents:
            text.append(f"  in {inert(parents[-1].display_name)}", style="dim")
        elif (parent := self.directory.parents.get(account.id)) is not None:
            text.append(f"  in #{inert(parent)}", style="dim")
        return text

    def _account_of(self, option: Option | None) -> Account | None:
        if option is None or option.id is None or self.directory is None:
            return None
        return self.directory.known.get(int(option.id))

    def _show_detail(self, account: Account | None) -> None:
        self._detail_of = account
        path = (
            self.directory.path_of(account.id) if self.directory and account and account.id else []
        )
        permits = account is not None and selectable(self.connection, account)
        detail = account_detail(account, path, permits)
        self.query_one("#scope-detail", FittedStatic).show(detail)
        self._ask_members(account)

    def _highlighted(self) -> Account | None:
        """The account the detail shows: the highlighted match while filtering, else
        the tree's cursor."""
        if self.filtering:
            return self._account_of(self.matches.highlighted_option)
        node = self.account_tree.cursor_node
        return node.data if node is not None else None

    def on_tree_node_highlighted(self, event: Tree.NodeHighlighted[Account]) -> None:
        if event.node.data is not None:  # (a cleared tree highlights a bare root)
            self._show_detail(event.node.data)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        account = self._account_of(event.option)
        if account is None or account is not self._detail_of:  # (an answer showed it)
            self._show_detail(account)

    # ------------------------------------------------------------------ members pane

    @property
    def members_pane(self) -> MembersPane:
        return self.query_one("#scope-members", MembersPane)

    def _ask_members(self, account: Account | None) -> None:
        """Show who can act on ``account``: from what was read, else read it (a worker:
        the keys never wait; a cursor moving on cancels a read not yet answered)."""
        home = self.tree_state.home(account)
        if account is None or home is None:
            self.workers.cancel_group(self, "scope-members")
            self.members_pane.nothing("" if account is None else "Members: no organization")
            return
        read = self.tree_state.members.get(home)
        if read is not None:
            self.workers.cancel_group(self, "scope-members")
            self._draw_members(account, home, read)
            return
        self.members_pane.waiting(account)
        self._read_members(account, home)

    @work(exclusive=True, group="scope-members", exit_on_error=False)
    async def _read_members(self, account: Account, home: int) -> None:
        await asyncio.sleep(MEMBERS_SETTLE)  # arrows held down read only where they stop
        directory = self.directory
        name = self.tree_state.name_of(home) or f"#{home}"

        def failed(exc: PlatformError) -> None:
            if directory is self.directory and self.tree_state.home(self._highlighted()) == home:
                self.members_pane.failed(name, describe_error(exc))

        target = self._members_target(account, home)
        ok, members = await self.load(
            lambda c: c.api.list_members(target=target), on_error=failed,
            follows_target=False,  # the tree's accounts, whatever the target
        )  # fmt: skip
        if not ok or members is None or directory is not self.directory:
            return
        self.tree_state.members[home] = members
        now = self._highlighted()
        if now is not None and now.id == account.id:
            self._draw_members(account, home, members)

    def on_screen_resume(self) -> None:
        """Back on Scope: the members may have changed meanwhile (Members, a login that
        added one), and leaving cancelled a read under way: the pane reads again."""
        self.tree_state.members.clear()
        if self.directory is not None:
            self._ask_members(self._highlighted())

    def _members_target(self, account: Account, home: int) -> int | None:
        """The target that asks for the members of ``home`` (`TreeState.members_target`)."""
        conn = self.connection
        permitted = conn.scope.permitted_account_ids if conn.scope is not None else ()
        return self.tree_state.members_target(account, home, conn.owner, permitted)

    def _draw_members(self, account: Account, home: int, members: list[Member]) -> None:
        name = self.tree_state.name_of(home) or f"#{home}"
        self.members_pane.show(members_view(account, name, members, self.tree_state.name_of))
