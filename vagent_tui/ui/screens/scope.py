"""Scope: who the key belongs to, which scope rule matched, and the target account picker.

The child accounts load lazily: expanding a node of the tree lists its children once
(one list request per node, cached by the `AccountDirectory`). The fuzzy filter walks
the whole tree once (``load_all``) the first time it is used, then filters in memory.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widget import Widget
from textual.widgets import Input, OptionList, Static, Tree
from textual.widgets.option_list import Option
from textual.widgets.tree import TreeNode
from textual.worker import Worker, WorkerCancelled, WorkerFailed

from vagent_tui.api.errors import PlatformError
from vagent_tui.api.models import Account
from vagent_tui.services.accounts import AccountDirectory, filter_accounts, has_children
from vagent_tui.services.session import Connection
from vagent_tui.ui.caps import left_out
from vagent_tui.ui.css import stylesheet
from vagent_tui.ui.screens.base import BaseScreen
from vagent_tui.ui.text import inert
from vagent_tui.ui.widgets.account_info import account_detail, label_for, scope_info, selectable
from vagent_tui.ui.widgets.account_tree import AccountMatches, AccountTree


class ScopeScreen(BaseScreen):
    """Key owner, scope verdict, the tree of child accounts and the target picker."""

    TITLE = "Scope"
    AUTO_FOCUS = "#scope-tree"
    DEFAULT_CSS = stylesheet(__file__)
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "pick", "Pick", show=False, id="scope.pick-any", tooltip="Act as it"),
        Binding("slash", "focus_filter", "Filter", id="scope.filter", tooltip="Fuzzy filter"),
        Binding("o", "act_as_owner", "Key owner", id="scope.owner", tooltip="Act as the key owner"),
        Binding("escape", "escape", "Cancel", show=False, id="scope.cancel",
                tooltip="Cancel a switch under way, or leave the filter"),
    ]  # fmt: skip

    def __init__(self) -> None:
        super().__init__()
        self.directory: AccountDirectory | None = None
        self._loaded: set[int] = set()
        self._all_loaded = False

    def compose_body(self) -> Iterable[Widget]:
        yield Static(Text("Connecting…", style="italic"), id="scope-info")
        with Horizontal(id="scope-main"):
            with Vertical(id="scope-left"):
                yield Input(placeholder="/ filter accounts (fuzzy)", id="scope-filter")
                yield AccountTree(self.label, id="scope-tree")
                yield AccountMatches(id="scope-matches")
            yield Static("", id="scope-detail")

    def on_mount(self) -> None:
        self.query_one("#scope-filter", Input).cursor_blink = False
        self.watch(self.app, "connection", self._show_info, init=True)

    @property
    def account_tree(self) -> AccountTree:
        return self.query_one("#scope-tree", AccountTree)

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
        if self.directory is not None and self.directory.client is not self.connection.client:
            self.directory = None  # another profile: another key, another tree
        if self.directory is None and self.connection.scope and self.connection.owner:
            self._build_tree()
        else:
            self._refresh_labels()
            self.status.info(self.connection.context_line())

    def action_reload(self) -> None:
        self.directory = None  # an explicit refresh lists everything again
        super().action_reload()

    def _build_tree(self) -> None:
        conn = self.connection
        assert conn.scope is not None and conn.owner is not None
        self.directory = AccountDirectory(conn.api, conn.scope, conn.owner)
        self._loaded.clear()
        self._all_loaded = False
        owner = self.directory.root()
        tree = self.account_tree
        tree.start_at(owner, expandable=has_children(owner) or bool(self.directory.root_kind()))
        self._show_detail(owner)
        if tree.root.allow_expand:
            tree.root.expand()
        else:
            self.status.info("This key acts on its own account only: there is nothing below it.")
        self._apply_filter()

    def on_tree_node_expanded(self, event: Tree.NodeExpanded[Account]) -> None:
        event.stop()
        account = event.node.data
        if account is None or account.id is None or account.id in self._loaded:
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

        def failed(exc: PlatformError) -> None:
            if directory is self.directory:  # not a tree rebuilt meanwhile
                self.account_tree.mark(node, " ✗ failed")  # never "loading…" after it
                self.status.error(exc)

        try:
            ok, children = await self.load(
                lambda _c: directory.children(account),
                note=f"Loading the accounts under {account.display_name}",
                on_error=failed,
                follows_target=False,  # the key's own tree, whatever the target
            )
        except Exception:
            if directory is self.directory:
                self.account_tree.mark(node, " ✗ failed")
            raise  # shown by `load_failed`, like any failure of a worker
        if not ok or children is None or directory is not self.directory:
            return  # the tree was rebuilt meanwhile
        if account.id in self._loaded:
            return
        assert account.id is not None
        self._loaded.add(account.id)
        self.account_tree.populate(node, children)
        noun = "account" if len(children) == 1 else "accounts"
        shown = left_out(len(children), "accounts")
        self.status.info(f"{len(children):,} {noun} under {account.display_name}{shown}")
        scope_id = directory.scope_account_id()
        if node is self.account_tree.root and scope_id is not None:
            # A user-shaped admin: open the account its rule names, where it acts.
            for child in node.children:
                if child.data is not None and child.data.id == scope_id and child.allow_expand:
                    child.expand()

    # ------------------------------------------------------------------ labels, detail

    def _refresh_labels(self) -> None:
        self.account_tree.relabel()
        if self.has_class("-filtering"):
            self._apply_filter()

    def _show_detail(self, account: Account | None) -> None:
        path = (
            self.directory.path_of(account.id) if self.directory and account and account.id else []
        )
        permits = account is not None and selectable(self.connection, account)
        self.query_one("#scope-detail", Static).update(account_detail(account, path, permits))

    def on_tree_node_highlighted(self, event: Tree.NodeHighlighted[Account]) -> None:
        if event.node.data is not None:  # (a cleared tree highlights a bare root)
            self._show_detail(event.node.data)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self._show_detail(self._account_of(event.option))

    # ------------------------------------------------------------------ filter

    def action_focus_filter(self) -> None:
        self.query_one("#scope-filter", Input).focus()

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        if event.value.strip() and not self._all_loaded and self.directory is not None:
            self.run_worker(
                self._load_all(self.directory), group="scope-load-all", exclusive=True,
                exit_on_error=False,
            )  # fmt: skip
        self._apply_filter()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        target = self.query_one("#scope-matches" if self.has_class("-filtering") else "#scope-tree")
        target.focus()

    async def _load_all(self, directory: AccountDirectory) -> None:
        def failed(exc: PlatformError) -> None:
            if directory is self.directory:
                self.status.error(exc)

        ok, accounts = await self.load(
            lambda _c: directory.load_all(),
            note="Listing every account for the filter",
            on_error=failed,
            follows_target=False,
        )
        if ok and accounts is not None and directory is self.directory:
            self._all_loaded = True
            self.status.info(f"{len(accounts)} accounts known")
            self._apply_filter()

    def _apply_filter(self) -> None:
        query = self.query_one("#scope-filter", Input).value.strip()
        self.set_class(bool(query), "-filtering")
        matches = self.query_one("#scope-matches", AccountMatches)
        if not query or self.directory is None:
            matches.clear_options()
            return
        found = filter_accounts(list(self.directory.known.values()), query)
        matches.show(found, self._match_text)

    def _match_text(self, account: Account) -> Text:
        text = label_for(self.connection, account)
        assert self.directory is not None and account.id is not None
        parents = self.directory.path_of(account.id)[:-1]
        if parents:
            text.append(f"  in {inert(parents[-1].display_name)}", style="dim")
        return text

    def _account_of(self, option: Option | None) -> Account | None:
        if option is None or option.id is None or self.directory is None:
            return None
        return self.directory.known.get(int(option.id))

    # ------------------------------------------------------------------ picking

    def on_tree_node_selected(self, event: Tree.NodeSelected[Account]) -> None:
        event.stop()
        self._pick(event.node.data)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self._pick(self._account_of(event.option))

    def action_pick(self) -> None:
        if self.has_class("-filtering"):
            self._pick(self._account_of(self.query_one(OptionList).highlighted_option))
        else:
            node = self.account_tree.cursor_node
            self._pick(node.data if node is not None else None)

    def _pick(self, account: Account | None) -> None:
        if account is None or account.id is None:
            return
        conn = self.connection
        if not selectable(self.connection, account):
            ids = ", ".join(map(str, conn.scope.permitted_account_ids if conn.scope else ()))
            self.status.error(
                f"{account.display_name} is not selectable: this key may act only on {ids}",
                retry_key=None,
            )
            return
        if conn.acting_id == account.id:
            self.status.info(f"Already acting as {account.display_name}")
            return
        self._switch(account.id, account.display_name)

    def action_act_as_owner(self) -> None:
        if self.connection.target is None:
            self.status.info("Already acting as the key owner")
            return
        self._switch(None, "the key owner")

    def _switch(self, account_id: int | None, name: str) -> None:
        self.status.busy(f"Switching to {name} (esc cancels)")
        worker = self.vapp.select_target(account_id)
        self.run_worker(
            self._follow_switch(worker, account_id, name), group="scope-switch", exclusive=True,
            exit_on_error=False,
        )  # fmt: skip

    async def _follow_switch(self, worker: Worker[None], account_id: int | None, name: str) -> None:
        try:
            await worker.wait()
        except WorkerCancelled:
            self.status.info(f"Switch to {name} cancelled; {self.connection.context_line()}")
            return
        except WorkerFailed as exc:
            self.status.error(exc.error, retry_key=None)
            return
        owner = self.connection.owner
        expected = account_id if account_id is not None else (owner.id if owner else None)
        if self.connection.acting_id == expected:
            self.status.ok(f"Now {self.connection.context_line()}")
        else:
            self.status.error(
                f"Could not switch to {name}; the target is unchanged "
                f"({self.connection.context_line()})",
                retry_key=None,
            )

    def action_escape(self) -> None:
        if self.vapp.cancel_switch():
            return
        field = self.query_one("#scope-filter", Input)
        if field.value:
            field.value = ""
        self.account_tree.focus()
