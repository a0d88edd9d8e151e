"""Scope: who the key belongs to, which scope rule matched, and the target account picker.

The child accounts load lazily: expanding a node of the tree lists its children once
(one list request per node, cached by the `AccountDirectory`). The filter asks
``searchAccounts`` for each text typed (`AccountDirectory.search`: debounced, a newer
key cancels a search not sent yet, an answer for an older text is dropped), merged with the
accounts already known whose id or kind holds the text; a key that cannot search walks the tree
instead, and says when that walk stopped short. Until the answer for the text typed
shows, the list says it is searching: enter then waits for it and picks its top match.
Enter (in the field or the list) picks the highlighted match; a click only highlights.
"""

from __future__ import annotations

import asyncio
import time
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
from vagent_tui.services.accounts import AccountDirectory, Matches
from vagent_tui.services.session import Connection
from vagent_tui.ui.caps import left_out
from vagent_tui.ui.screens.base import BaseScreen
from vagent_tui.ui.text import inert
from vagent_tui.ui.widgets.account_info import account_detail, label_for, scope_info, selectable
from vagent_tui.ui.widgets.account_tree import AccountMatches, AccountTree
from vagent_tui.words import counted

SEARCH_DEBOUNCE = 0.03
"""Seconds a key that follows another this closely waits for the next before its search
goes out (a newer key cancels it); a key on its own searches at once."""


def match_count(found: Matches) -> str:
    """``1,234 accounts match “fleet”``: the line above an answer."""
    walked = " in the accounts walked so far" if found.partial else ""
    if not found.total:
        return f"No account matches “{inert(found.query)}”{walked}"
    verb = "account matches" if found.total == 1 else "accounts match"
    shown = f", the best {len(found.accounts)} shown" if found.more else ""
    return f"{found.total:,} {verb} “{inert(found.query)}”{shown}{walked}"


class ScopeScreen(BaseScreen):
    """Key owner, scope verdict, the tree of child accounts and the target picker."""

    TITLE = "Scope"
    AUTO_FOCUS = "#scope-tree"
    CSS_PATH = "scope.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "pick", "Pick", show=False, id="scope.pick-any", tooltip="Act as it"),
        Binding("slash", "focus_filter", "Filter", id="scope.filter", tooltip="Find an account"),
        Binding("o", "act_as_owner", "Key owner", id="scope.owner", tooltip="Act as the key owner"),
        Binding("down", "match_next", "Next match", show=False, id="scope.match-next",
                tooltip="From the filter: highlight the next match"),
        Binding("up", "match_previous", "Previous match", show=False, id="scope.match-previous",
                tooltip="From the filter: highlight the previous match"),
        Binding("escape", "escape", "Cancel", show=False, id="scope.cancel",
                tooltip="Cancel a switch under way, or leave the filter"),
    ]  # fmt: skip

    def __init__(self) -> None:
        super().__init__()
        self.directory: AccountDirectory | None = None
        self._loaded: set[int] = set()
        self._fresh = False
        """The next tree is read afresh (r), not from what the connection has read."""
        self._answer: Matches | None = None
        self._pick_pending: str | None = None
        self._last_key = 0.0

    def compose_body(self) -> Iterable[Widget]:
        yield Static(Text("Connecting…", style="italic"), id="scope-info")
        with Horizontal(id="scope-main"):
            with Vertical(id="scope-left"):
                yield Input(
                    placeholder="/ find an account by name, username or id", id="scope-filter"
                )
                yield Static("", id="scope-answer")
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
        # (not connected: r connects, and the new connection's first level is fresh)
        self._fresh = self.connection.connected
        super().action_reload()

    def _build_tree(self) -> None:
        conn = self.connection
        assert conn.scope is not None and conn.owner is not None
        shared = conn.directory
        if self._fresh or shared is None or shared.client is not conn.api:
            shared = AccountDirectory(conn.api, conn.scope, conn.owner)
        self._fresh = False
        self.directory = shared
        self._loaded.clear()
        self._answer = None
        self._pick_pending = None
        owner = self.directory.root()
        tree = self.account_tree
        tree.start_at(owner, expandable=self.directory.root_has_children())
        self._show_detail(owner)
        if tree.root.allow_expand:
            read = self.directory.cached_children(owner)
            if read is not None:  # read by the connection (start-up): shown in this frame
                self._show_children(tree.root, owner, read)
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
        self._show_children(node, account, children)

    def _show_children(
        self, node: TreeNode[Account], account: Account, children: list[Account]
    ) -> None:
        if account.id in self._loaded:
            return
        assert account.id is not None
        self._loaded.add(account.id)
        self.account_tree.populate(node, children)
        noun = "account" if len(children) == 1 else "accounts"
        shown = left_out(len(children), "account")
        self.status.info(f"{len(children):,} {noun} under {account.display_name}{shown}")
        scope_id = self.directory.scope_account_id() if self.directory else None
        if node is self.account_tree.root and scope_id is not None:
            # A user-shaped admin: open the account its rule names, where it acts.
            for child in node.children:
                if child.data is not None and child.data.id == scope_id and child.allow_expand:
                    child.expand()

    # ------------------------------------------------------------------ labels, detail

    def _refresh_labels(self) -> None:
        self.account_tree.relabel()
        if self._answer is not None and self.matches.answered == self._answer.query:
            self.matches.show(self._answer, self._match_text, keep=True)

    def _show_detail(self, account: Account | None) -> None:
        path = (
            self.directory.path_of(account.id) if self.directory and account and account.id else []
        )
        permits = account is not None and selectable(self.connection, account)
        detail = account_detail(account, path, permits)
        self.query_one("#scope-detail", Static).update(detail, layout=False)  # a fixed pane

    def on_tree_node_highlighted(self, event: Tree.NodeHighlighted[Account]) -> None:
        if event.node.data is not None:  # (a cleared tree highlights a bare root)
            self._show_detail(event.node.data)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self._show_detail(self._account_of(event.option))

    # ------------------------------------------------------------------ filter

    def action_focus_filter(self) -> None:
        self.query_one("#scope-filter", Input).focus()

    @property
    def matches(self) -> AccountMatches:
        return self.query_one("#scope-matches", AccountMatches)

    def filter_text(self) -> str:
        return self.query_one("#scope-filter", Input).value.strip()

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        self._apply_filter()

    def _apply_filter(self) -> None:
        """Ask for the answer for the text typed; until it comes, say so (nothing to pick)."""
        text = self.filter_text()
        self.set_class(bool(text), "-filtering")
        if self._pick_pending is not None and self._pick_pending != text:
            self._pick_pending = None  # enter was for a text since changed
        if not text or self.directory is None:
            self.workers.cancel_group(self, "scope-search")
            self._answer = None
            self.matches.clear()
            self._say("")
            return
        if self._answer is not None and self._answer.query == text:
            if self.matches.answered != text:  # back to the text shown before the last key
                self.matches.show(self._answer, self._match_text, keep=True)
                self._say(match_count(self._answer))
            self.workers.cancel_group(self, "scope-search")
            return
        self.matches.waiting()
        self._say(f"Searching for “{inert(text)}”…")
        self.run_worker(
            self._search(self.directory, text, self._debounce()), group="scope-search",
            exclusive=True,
            exit_on_error=False,
        )  # fmt: skip

    def _say(self, line: str) -> None:
        """The line above the matches: what they answer, or what is awaited."""
        self.query_one("#scope-answer", Static).update(line, layout=False)

    def _debounce(self) -> float:
        """How long this text's search waits: at once, unless the keys come in a burst."""
        now = time.monotonic()
        burst = now - self._last_key < SEARCH_DEBOUNCE
        self._last_key = now
        return SEARCH_DEBOUNCE if burst else 0.0

    async def _search(self, directory: AccountDirectory, text: str, delay: float) -> None:
        """One text's answer. A newer key cancels this worker; an answer for an older
        text or another tree is dropped, never shown."""
        if delay:
            await asyncio.sleep(delay)  # keys typed together send one search

        def walked(count: int) -> None:
            if self._wanted(directory, text):
                self._say(
                    f"Searching for “{inert(text)}”: walking the tree, {counted(count, 'account')}…"
                )

        def failed(exc: PlatformError) -> None:
            if self._wanted(directory, text):
                self._pick_pending = None
                self.matches.clear()
                self._say(f"The search for “{inert(text)}” failed: r retries")
                self.status.error(exc)

        # Sent, a search is let finish even when a newer key cancels this worker: cutting
        # a request short drops its connection (a new TLS handshake for the next key).
        # Its answer is then dropped; the side effect (accounts it made known) is kept.
        sent = asyncio.ensure_future(directory.search(text, progress=walked))
        sent.add_done_callback(lambda task: task.cancelled() or task.exception())
        ok, found = await self.load(
            lambda _c: asyncio.shield(sent),
            on_error=failed,
            follows_target=False,  # the key's accounts, whatever the target
        )
        if not ok or found is None or not self._wanted(directory, text):
            return
        self._answer = found
        self.matches.show(found, self._match_text)
        self._say(match_count(found))
        if found.fallback or found.partial:
            self.status.info(" · ".join(p for p in (found.fallback, found.partial) if p))
        if self._pick_pending == text:
            self._pick_pending = None
            self._pick_highlighted()

    def _wanted(self, directory: AccountDirectory, text: str) -> bool:
        return directory is self.directory and text == self.filter_text()

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

    def action_match_next(self) -> None:
        """Down in the filter field moves the highlight among the matches."""
        if self.has_class("-filtering"):
            self.matches.action_cursor_down()

    def action_match_previous(self) -> None:
        if self.has_class("-filtering"):
            self.matches.action_cursor_up()

    # ------------------------------------------------------------------ picking

    def on_tree_node_selected(self, event: Tree.NodeSelected[Account]) -> None:
        event.stop()
        self._pick(event.node.data)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self._pick_highlighted()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter in the filter picks the highlighted match (once it is the current text's)."""
        event.stop()
        if self.has_class("-filtering"):
            self._pick_highlighted()

    def action_pick(self) -> None:
        if self.has_class("-filtering"):
            self._pick_highlighted()
        else:
            node = self.account_tree.cursor_node
            self._pick(node.data if node is not None else None)

    def _pick_highlighted(self) -> None:
        """The match the user sees highlighted, for the text typed; never a stale list's.

        While the answer for the text is on its way, enter waits for it and then picks
        its top match (the status line says so; typing or esc drops the wait).
        """
        text = self.filter_text()
        matches = self.matches
        if matches.answered != text or self._answer is None or self._answer.query != text:
            self._pick_pending = text
            self.status.busy(
                f"Searching for “{inert(text)}”: enter picks the top match when it shows "
                "(esc cancels)"
            )
            return
        account = self._account_of(matches.highlighted_option)
        if account is None:
            self.status.info(f"No account to pick: nothing matches “{inert(text)}”")
            return
        self._pick(account)

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
        worker = self.vapp.select_target(account_id, announce=False)
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
            # Picked from the filter field: the field lets go, so the next key is a
            # screen key (3 opens Voices), not more text for the filter.
            if self.focused is self.query_one("#scope-filter", Input):
                if self.has_class("-filtering"):
                    self.matches.focus()
                else:
                    self.account_tree.focus()
        else:
            self.status.error(
                f"Could not switch to {name}; the target is unchanged "
                f"({self.connection.context_line()})",
                retry_key=None,
            )

    def action_escape(self) -> None:
        if self.vapp.cancel_switch():
            return
        if self._pick_pending is not None:
            self._pick_pending = None
            self.status.info("No pick: esc")
            return
        field = self.query_one("#scope-filter", Input)
        if field.value:
            field.value = ""
        self.account_tree.focus()
