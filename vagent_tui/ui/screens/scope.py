"""Scope: who the key belongs to, which scope rule matched, and the target account picker.

The child accounts load lazily: expanding a node of the tree lists its children once
(one list request per node, cached by the `AccountDirectory`). The filter asks
``searchAccounts`` for each text typed (`AccountDirectory.search`: debounced, a newer
key cancels a search not sent yet, an answer for an older text is dropped), merged with the
accounts already known whose id or kind holds the text; a key that cannot search walks the tree
instead, and says when that walk stopped short. Until the answer for the text typed
shows, the list says it is searching: enter then waits for it and picks its top match.
Enter (in the field or the list) picks the highlighted match; a click only highlights.

The tree changes here too: ``a`` creates under the highlighted account what fits its
level (a reseller under a partner, an organization under a reseller, an agent account
under an organization), ``e`` edits an organization's or agent account's name, status
and external ids (reviewed as a diff; the platform may apply some settings and refuse
others, and the status line names both), ``d`` deletes one after its name is typed.
Each goes through the write path (`vagent_tui.ui.writes`) and changes the tree in place.
``i`` finds an account by its external id and opens the tree down to it.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import work
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widget import Widget
from textual.widgets import Input, OptionList, Static, Tree
from textual.widgets.option_list import Option
from textual.widgets.tree import TreeNode
from textual.worker import Worker, WorkerCancelled, WorkerFailed

from vagent_tui.api.errors import ApiError, PlatformError
from vagent_tui.api.models import Account
from vagent_tui.services.accounts import AccountDirectory, Matches, account_kind
from vagent_tui.services.session import Connection
from vagent_tui.ui.caps import left_out
from vagent_tui.ui.safety import DESTRUCTIVE, WRITES, Key
from vagent_tui.ui.screens.base import BaseScreen
from vagent_tui.ui.text import inert
from vagent_tui.ui.widgets.account_info import account_detail, label_for, scope_info, selectable
from vagent_tui.ui.widgets.account_tree import AccountMatches, AccountTree
from vagent_tui.ui.widgets.fitted import FittedStatic
from vagent_tui.ui.widgets.members_pane import MembersPane, home_of, members_view
from vagent_tui.ui.widgets.status import describe_error
from vagent_tui.ui.writes import Write, Written
from vagent_tui.words import counted

if TYPE_CHECKING:
    from vagent_tui.api.models import Envelope, Member, Request, SettingsChange

SEARCH_DEBOUNCE = 0.03
"""Seconds a key that follows another this closely waits for the next before its search
goes out (a newer key cancels it); a key on its own searches at once."""

MEMBERS_SETTLE = 0.15
"""Seconds the highlight stays on an account before the members pane reads its members."""


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
        Key("a", "add", "New", id="scope.add", does=WRITES,
            tooltip="Create an account under the highlighted one"),
        Key("e", "edit", "Edit", id="scope.edit", does=WRITES,
            tooltip="Edit the highlighted account's name, status and external ids"),
        Key("d", "delete", "Delete", id="scope.delete", does=DESTRUCTIVE,
            tooltip="Delete the highlighted account (type its name to confirm)"),
        Binding("i", "find_external", "Ext. id", id="scope.external",
                tooltip="Find an account by its external id (your CRM's)"),
        Binding("w", "export", "Export", id="scope.export",
                tooltip="Write the tree (accounts, external ids, status, members) to a CSV file"),
        Binding("m", "members", "Members", id="scope.members",
                tooltip="Open the members of the highlighted account's organization"),
        Binding("O", "onboard", "Onboard", id="scope.onboard",
                tooltip="Organizations, accounts and members from a CSV file: plan, apply"),
    ]  # fmt: skip

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """``i`` and ``O`` look accounts up by external id (``getAccountByExternalId``),
        which the platform answers a reseller or partner key only: hidden for others."""
        if action in ("find_external", "onboard") and not self.connection.reseller_or_partner_key:
            return False
        return super().check_action(action, parameters)

    def __init__(self) -> None:
        super().__init__()
        self.directory: AccountDirectory | None = None
        self._loaded: set[int] = set()
        self._fresh = False
        """The next tree is read afresh (r), not from what the connection has read."""
        self._answer: Matches | None = None
        self._pick_pending: str | None = None
        self._last_key = 0.0
        self._quiet: set[int] = set()
        """Accounts whose children are read again after a change: the change's line
        stays on the status line, not the count of children."""
        self._members: dict[int, list[Member]] = {}
        self._detail_of: Account | None = None
        """The account the detail pane shows (this very value: an edit makes another)."""
        """The members of each home read for the pane, until the tree is read again."""

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
            with Vertical(id="scope-side"):
                yield FittedStatic("", id="scope-detail")
                yield MembersPane("", id="scope-members")

    def on_mount(self) -> None:
        self.query_one("#scope-filter", Input).cursor_blink = False
        self.watch(self.app, "connection", self._show_info, init=True)
        self.vapp.tree_changed_signal.subscribe(self, self._tree_changed)

    def _tree_changed(self, _: None) -> None:
        """Accounts were created or changed elsewhere (Onboard's apply): the tree is read
        afresh, as ``r`` reads it, at once on show, else when Scope is shown next."""
        self.directory = None
        self._fresh = self.connection.connected
        self.load_when_shown()
        if self.is_current:
            self._maybe_reload()

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
        self._members.clear()
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
        quiet = account.id in self._quiet

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
        if account.id in self._loaded:
            return
        assert account.id is not None
        self._loaded.add(account.id)
        self.account_tree.populate(node, children)
        if account.id in self._quiet:  # read again after a change: its line stays
            self._quiet.discard(account.id)
        else:
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
        self._detail_of = account
        path = (
            self.directory.path_of(account.id) if self.directory and account and account.id else []
        )
        permits = account is not None and selectable(self.connection, account)
        detail = account_detail(account, path, permits)
        self.query_one("#scope-detail", FittedStatic).show(detail)
        self._ask_members(account)

    # ------------------------------------------------------------------ members pane

    @property
    def members_pane(self) -> MembersPane:
        return self.query_one("#scope-members", MembersPane)

    def _home(self, account: Account | None) -> int | None:
        if account is None or account.id is None or self.directory is None:
            return None
        return home_of(account, self.directory.parents.get(account.id))

    def _name_of(self, account_id: int) -> str | None:
        known = self.directory.known.get(account_id) if self.directory else None
        return known.display_name if known is not None else None

    def _ask_members(self, account: Account | None) -> None:
        """Show who can act on ``account``: from what was read, else read it (a worker:
        the keys never wait; a cursor moving on cancels a read not yet answered)."""
        home = self._home(account)
        if account is None or home is None:
            self.workers.cancel_group(self, "scope-members")
            self.members_pane.nothing("" if account is None else "Members: no organization")
            return
        read = self._members.get(home)
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
        name = self._name_of(home) or f"#{home}"

        def failed(exc: PlatformError) -> None:
            if directory is self.directory and self._home(self._highlighted()) == home:
                self.members_pane.failed(name, describe_error(exc))

        target = self._members_target(account, home)
        ok, members = await self.load(
            lambda c: c.api.list_members(target=target), on_error=failed,
            follows_target=False,  # the tree's accounts, whatever the target
        )  # fmt: skip
        if not ok or members is None or directory is not self.directory:
            return
        self._members[home] = members
        now = self._highlighted()
        if now is not None and now.id == account.id:
            self._draw_members(account, home, members)

    def on_screen_resume(self) -> None:
        """Back on Scope: the members may have changed meanwhile (Members, a login that
        added one), and leaving cancelled a read under way: the pane reads again."""
        self._members.clear()
        if self.directory is not None:
            self._ask_members(self._highlighted())

    def _members_target(self, account: Account, home: int) -> int | None:
        """The target that asks for the members of ``home``: an agent account names
        itself (the members of its organization answer); the key owner's own home is
        the key's (no target), or for a key restricted to accounts (rule 5, which must
        name one) its first permitted account; any other home names itself."""
        if account_kind(account) == "account":
            return account.id
        conn = self.connection
        if conn.owner is None or self._home(conn.owner) != home:
            return home
        permitted = conn.scope.permitted_account_ids if conn.scope is not None else ()
        return permitted[0] if permitted else None

    def _draw_members(self, account: Account, home: int, members: list[Member]) -> None:
        name = self._name_of(home) or f"#{home}"
        self.members_pane.show(members_view(account, name, members, self._name_of))

    def _highlighted(self) -> Account | None:
        """The account the detail shows: the highlighted match while filtering, else
        the tree's cursor."""
        if self.has_class("-filtering"):
            return self._account_of(self.matches.highlighted_option)
        node = self.account_tree.cursor_node
        return node.data if node is not None else None

    def action_members(self) -> None:
        """``m``: the Members screen for the highlighted account's organization (asked
        with the target the pane asks with)."""
        account = self._highlighted()
        home = self._home(account)
        if account is None or home is None:
            self.status.info("No account highlighted: highlight one to see its members")
            return
        target = self._members_target(account, home)
        self._open_members(target, (self._name_of(target) or f"#{target}") if target else "")

    @work(exclusive=True, group="scope-open-members", exit_on_error=False)
    async def _open_members(self, target: int | None, name: str) -> None:
        from vagent_tui.ui.screens.members import MembersScreen

        client = self.connection.client
        await self.app.run_action("app.show('members')")
        # Switching screens is synchronous: the screen shown now is the Members screen.
        self.app.screen.post_message(MembersScreen.ShowFor(target, name, client=client))

    def on_tree_node_highlighted(self, event: Tree.NodeHighlighted[Account]) -> None:
        if event.node.data is not None:  # (a cleared tree highlights a bare root)
            self._show_detail(event.node.data)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        account = self._account_of(event.option)
        if account is None or account is not self._detail_of:  # (an answer showed it)
            self._show_detail(account)

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
        top = self._highlighted()
        if top is not None and top is not self._detail_of:
            # In the frame that shows the list, not one later (its highlight's message):
            # one layout for the answer instead of two or three.
            self._show_detail(top)
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

    # ------------------------------------------------------------------ changing the tree

    def _tree_node(self, verb: str) -> TreeNode[Account] | None:
        """The highlighted node of the tree, the one a change acts on (not a match of
        the filter: esc leaves the filter, then the tree shows where the change goes)."""
        if self.has_class("-filtering"):
            self.status.info(f"esc leaves the filter; then highlight in the tree what to {verb}")
            return None
        node = self.account_tree.cursor_node
        if node is None or node.data is None or node.data.id is None or self.directory is None:
            self.status.info(f"No account highlighted: nothing to {verb}")
            return None
        return node

    def action_add(self) -> None:
        from vagent_tui.ui.widgets.entry_forms import LEVEL_BELOW, LEVEL_NAMES, NewAccountForm

        node = self._tree_node("create under")
        if node is None or node.data is None or node.data.id is None:
            return
        parent, parent_id = node.data, node.data.id
        kind = LEVEL_BELOW.get(account_kind(parent))
        if kind is None:
            self.status.info(
                f"Nothing is created under {inert(parent.display_name)}: highlight a partner "
                "(a reseller), a reseller (an organization) or an organization (an agent account)"
            )
            return

        async def send(c: Connection, request: Any) -> Account | None:
            if kind == "reseller":
                return await c.api.create_reseller(parent_id, request)
            if kind == "organization":
                return await c.api.create_organization(parent_id, request)
            return await c.api.create_account(parent_id, request)

        async def read_back(c: Connection, request: Request) -> str:
            name = _created_name(request)
            found = [a for a in await _listed(c, kind, parent_id) if a.display_name == name]
            if not found:
                return f"no {LEVEL_NAMES[kind]} named {name} under {parent.display_name}."
            ids = ", ".join(f"#{a.id}" for a in found)
            return f"{name} is under {parent.display_name} now ({ids})."

        def done(result: tuple[Any, Any] | None) -> None:
            if result is not None:
                self._created(node, result[0], result[1])

        form = NewAccountForm(
            kind, send, subtitle=f"Under {parent.display_name} (#{parent_id})",
            read_back=read_back, after_unknown=lambda: self._read_children_again(node),
        )  # fmt: skip
        self.app.push_screen(form, done)

    def _created(self, node: TreeNode[Account], request: Request, made: Account | None) -> None:
        parent = node.data
        if parent is None or parent.id is None or self.directory is None:
            return
        name = _created_name(request)
        if made is None or made.id is None:  # the reply did not show it: list them again
            self.status.ok(f"Created {name} under {parent.display_name}")
            self._read_children_again(node)
            return
        self.directory.added(parent, made)
        self.status.ok(f"Created {made.display_name} (#{made.id}) under {parent.display_name}")
        if parent.id in self._loaded:
            child = self.account_tree.add_account(node, made)
            node.expand()
            # The tree lays out its new line on the next refresh: the cursor goes there then.
            self.call_after_refresh(self.account_tree.move_cursor, child)
        else:
            node.expand()  # lists the children, the new one with them

    def _read_children_again(self, node: TreeNode[Account]) -> None:
        """After a change of unknown outcome: the children of ``node`` as they are now."""
        account = node.data
        if account is None or account.id is None or self.directory is None:
            return
        self.directory.forget_children(account.id)
        self._loaded.discard(account.id)
        self._quiet.add(account.id)
        node.remove_children()
        if node.is_expanded:
            self.run_worker(
                self._load_children(node, account), group=f"scope-children-{account.id}",
                exclusive=True, exit_on_error=False,
            )  # fmt: skip
        else:
            node.expand()

    def action_edit(self) -> None:
        from vagent_tui.ui.widgets.entry_forms import AccountEditForm

        node = self._tree_node("edit")
        if node is None or node.data is None or node.data.id is None:
            return
        account, account_id = node.data, node.data.id
        kind = account_kind(account)
        if kind not in ("account", "organization"):
            self.status.info(
                f"A {kind or 'this kind of'} account is not changed here: the platform updates "
                "organizations and agent accounts"
            )
            return

        async def send(c: Connection, request: Any) -> SettingsChange:
            if kind == "organization":
                return await c.api.update_organization(account_id, request)
            return await c.api.update_account(account_id, request)

        async def read_back(c: Connection, _request: Request) -> str:
            now = await c.api.get_account(target=account_id)
            return _described(now)

        def done(result: tuple[Any, Any] | None) -> None:
            if result is not None:
                self._edited(node, account, result[0], result[1])

        form = AccountEditForm(
            account, send, subtitle=f"{account.display_name} (#{account_id})",
            read_back=read_back, after_unknown=lambda: self._read_account_again(node),
        )  # fmt: skip
        self.app.push_screen(form, done)

    def _edited(
        self, node: TreeNode[Account], was: Account, request: Request, change: SettingsChange
    ) -> None:
        sent = request.model_dump(by_alias=True, exclude_unset=True)
        applied = [s for s in change.updated_settings if s in sent] or (
            [] if change.failed_settings else list(sent)  # a reply naming nothing: all of it
        )
        update = {FIELD_OF[s]: sent[s] for s in applied if s in FIELD_OF}
        now = was.model_copy(update=update)
        if self.directory is not None:
            self.directory.replaced(now)
        node.data = now
        self.account_tree.mark(node)
        self._show_detail(now)
        saved = ", ".join(SETTING_NAMES.get(s, s) for s in applied) or "nothing"
        if change.failed_settings:
            failed = "; ".join(_failed_setting(change, s) for s in change.failed_settings)
            self.status.error(
                f"{now.display_name}: saved {saved}; NOT saved: {failed}", retry_key="e"
            )
        else:
            self.status.ok(f"{now.display_name}: saved {saved}")

    def _read_account_again(self, node: TreeNode[Account]) -> None:
        if node.parent is not None:
            self._read_children_again(node.parent)

    def action_delete(self) -> None:
        from vagent_tui.ui.dialogs import PromptModal

        node = self._tree_node("delete")
        if node is None or node.data is None or node.data.id is None or self.directory is None:
            return
        account, account_id = node.data, node.data.id
        name = inert(account.display_name)
        kind = account_kind(account)
        parent = node.parent.data if node.parent is not None else None
        if kind == "account":
            parent_id = _int(account.organization_id) or (parent.id if parent else None)
        elif kind == "organization":
            parent_id = _int(account.reseller_id) or (parent.id if parent else None)
        else:
            self.status.info(
                f"A {kind or 'this kind of'} account is not deleted here: the platform deletes "
                "organizations and agent accounts"
            )
            return
        if parent_id is None:
            self.status.info(f"The parent of {name} is not known: r reads the tree again")
            return
        level = "organization" if kind == "organization" else "agent account"
        directory, members = self.directory, self._members.get(account_id)

        async def ask() -> bool:
            """The question, with what goes with the account: an organization's accounts
            are read first (its tree may not be open), so the question counts them."""
            if kind == "organization":
                try:
                    below = await directory.children(account)
                except PlatformError as exc:
                    self.status.error(
                        f"Could not read what {name} holds ({describe_error(exc)}): nothing "
                        "was sent", retry_key="d",
                    )  # fmt: skip
                    return False
                what = organization_goes(below, members)
            else:
                what = (
                    "Its configuration, its versions, its tasks (a running one is stopped) and "
                    "its keys go with it; calls and messages to it are no longer answered. "
                    "Members restricted to it lose it."
                )
            body = (f"Delete the {level} {name} (#{account_id})? This cannot be undone.\n"
                    f"{what}\nType {name} to confirm.")  # fmt: skip
            question = PromptModal(f"Delete {name}", body, placeholder="its name",
                                   confirm_label="Delete", expected=name)  # fmt: skip
            if await self.app.push_screen_wait(question):
                return True
            self.status.info("Cancelled; nothing was sent.")
            return False

        async def send(c: Connection) -> Envelope:
            if kind == "organization":
                return await c.api.delete_organization(parent_id, account_id)
            return await c.api.delete_account(parent_id, account_id)

        async def read_back(c: Connection) -> str:
            listed = await _listed(c, kind, parent_id)
            still = any(a.id == account_id for a in listed)
            return f"{name} is still there." if still else f"{name} is gone."

        self.write(
            Write[Any](
                "scope-delete", f"Deleting {name}", send,
                confirm=ask,
                done=lambda _r: f"Deleted {name} (#{account_id})",
                gone=f"{name} was already gone; it is off the tree",
                read_back=read_back,
                retry_key="d",
                after=lambda written: self._deleted(node, account_id, written),
            )
        )  # fmt: skip

    def _deleted(self, node: TreeNode[Account], account_id: int, written: Written[Any]) -> None:
        if written.outcome in ("done", "gone"):
            if self.directory is not None:
                self.directory.removed(account_id)
            tree = self.account_tree
            if node.tree is tree and node.parent is not None:
                if tree.cursor_node is node:
                    # To its parent first: a tree whose cursor node is removed keeps it as
                    # its cursor node (the detail pane would go on showing the deleted one).
                    tree.move_cursor(node.parent, animate=False)
                node.remove()
            cursor = tree.cursor_node
            self._show_detail(cursor.data if cursor is not None else None)
        elif written.outcome == "unknown" and node.parent is not None:
            self._read_children_again(node.parent)

    async def action_onboard(self) -> None:
        """``O``: the Onboard screen (a file planned, then applied there)."""
        await self.app.run_action("app.show('onboard')")

    # ------------------------------------------------------------------ export

    def action_export(self) -> None:
        from vagent_tui.ui.dialogs import PromptModal

        if self.directory is None:
            self.status.info("No tree to export yet: r reads it")
            return
        stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M")

        def asked(text: str | None) -> None:
            if text and text.strip():
                self.export_tree(Path(text.strip()).expanduser())

        prompt = PromptModal(
            "Export the tree as CSV",
            "Every account this key reaches (the whole tree is read first), with its path, "
            "status and external ids, and the members of each organization, reseller and "
            "partner (email, role, the accounts they are limited to). The file is readable "
            "by you alone (0600); an existing file is replaced.",
            value=f"accounts-{stamp}.csv", confirm_label="Export",
            validate=lambda t: None if t.strip() else "Type a file name",
        )  # fmt: skip
        self.app.push_screen(prompt, asked)

    @work(exclusive=True, group="scope-export", exit_on_error=False)
    async def export_tree(self, path: Path) -> None:
        from vagent_tui.services.tree_export import export_tree

        directory = self.directory
        if directory is None:
            return
        try:
            ok, result = await self.load(
                lambda _c: export_tree(directory, path),
                note=f"Reading the tree to write {path}", follows_target=False,
            )  # fmt: skip
        except OSError as exc:
            self.status.error(f"Export failed: {path}: {exc.strerror or exc}", retry_key="w")
            return
        if not ok or result is None:
            return
        short = "" if result.complete else " (the tree is larger: the walk stopped short)"
        written = f"{counted(result.rows, 'account')} and {counted(result.members, 'member')}"
        if result.members_missing:
            self.status.error(
                f"{written} written to {path}{short}; the members of "
                f"{counted(result.members_missing, 'account')} could not be read "
                f"({inert(result.why)}) and are not in it", retry_key="w",
            )  # fmt: skip
            return
        self.status.ok(f"{written} written to {path}{short}")

    # ------------------------------------------------------------------ external id

    def action_find_external(self) -> None:
        from vagent_tui.ui.dialogs import PromptModal

        def asked(text: str | None) -> None:
            if text and text.strip():
                self.find_external(text.strip())

        prompt = PromptModal(
            "Find an account by external id",
            "The id your own system gave it (externalAccountId).",
            placeholder="AC_12345", confirm_label="Find",
            validate=lambda t: None if t.strip() else "Type an external id",
        )  # fmt: skip
        self.app.push_screen(prompt, asked)

    @work(exclusive=True, group="scope-external", exit_on_error=False)
    async def find_external(self, external_id: str) -> None:
        shown = inert(external_id)

        def missing(exc: PlatformError) -> None:
            if isinstance(exc, ApiError) and exc.status == 404:
                self.status.error(
                    f"No account this key reaches has the external id {shown}", retry_key=None
                )
            else:
                self.status.error(exc, retry_key="i")

        ok, found = await self.load(
            lambda c: c.api.account_by_external_id(external_id),
            note=f"Looking for the external id {shown}", on_error=missing, follows_target=False,
        )  # fmt: skip
        if not ok or found is None or found.id is None:
            return
        field = self.query_one("#scope-filter", Input)
        if field.value:
            field.value = ""  # the tree shows, not the matches
        node = await self._reveal(found)
        if node is None:
            self.status.info(
                f"{inert(found.display_name)} (#{found.id}) has the external id {shown}, "
                "but it is not in the tree this key shows"
            )
            return
        self.account_tree.focus()
        self.call_after_refresh(self._land_on, node)  # once the opened lines are laid out
        self.status.ok(f"{inert(found.display_name)} (#{found.id}) has the external id {shown}")

    def _land_on(self, node: TreeNode[Account]) -> None:
        self.account_tree.move_cursor(node)
        self.account_tree.scroll_to_node(node, animate=False)
        self._show_detail(node.data)

    async def _reveal(self, account: Account) -> TreeNode[Account] | None:
        """Open the tree down to ``account`` (its ancestors' children read as needed)."""
        chain: list[int] = []
        for value in (account.partner_id, account.reseller_id, account.organization_id,
                      account.id):  # fmt: skip
            found = _int(value)
            if found is not None and found not in chain:
                chain.append(found)
        node = self.account_tree.root
        top = node.data.id if node.data is not None else None
        rest = chain[chain.index(top) + 1 :] if top is not None and top in chain else chain
        while rest:
            here = node.data
            if here is None or here.id is None:
                return None
            if here.id not in self._loaded:
                await self._load_children(node, here)
            node.expand()
            # The deepest of the chain among the children: a restricted member's tree
            # shows its permitted accounts right under its own line.
            below = [n for n in node.children if n.data is not None and n.data.id in rest]
            if not below:
                return None
            node = max(below, key=lambda n: rest.index(n.data.id or 0 if n.data else 0))
            assert node.data is not None and node.data.id is not None
            rest = rest[rest.index(node.data.id) + 1 :]
        return node if node.data is not None and node.data.id == account.id else None


FIELD_OF = {"accountName": "name", "orgName": "name", "active": "active",
            "externalAccountId": "external_account_id",
            "externalBillingId": "external_billing_id"}  # fmt: skip
"""The account field each setting of an update changes."""

SETTING_NAMES = {"accountName": "name", "orgName": "name", "active": "status",
                 "externalAccountId": "external id", "externalBillingId": "billing id",
                 "email": "email"}  # fmt: skip


def _failed_setting(change: SettingsChange, setting: str) -> str:
    why = change.reason(setting)
    return SETTING_NAMES.get(setting, setting) + (f" ({why})" if why else "")


def _int(value: object) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and value.isdecimal():
        return int(value)
    return None


def _created_name(request: Request) -> str:
    body = request.wire()
    for key in ("resellerName", "orgName", "accountName"):
        if isinstance(body.get(key), str):
            return str(body[key])
    return "the new account"


async def _listed(c: Connection, kind: str, parent_id: int) -> list[Account]:
    """The accounts of ``kind`` under ``parent_id`` as the platform lists them now."""
    if kind == "reseller":
        page = await c.api.list_resellers(parent_id)
    elif kind == "organization":
        page = await c.api.list_organizations(parent_id)
    else:
        page = await c.api.list_accounts(parent_id)
    return page.items


NAMED = 3
"""Accounts named in the organization's delete question (the rest are counted)."""


def organization_goes(below: list[Account], members: list[Member] | None) -> str:
    """What deleting an organization takes with it, in words for its question.

    The vendor's reference says the platform deletes an organization "immediately" and
    names nothing it keeps, so the question names everything under it: the agent
    accounts and Computer Agents ``below`` it (its accounts as listed) and what each
    holds, and its members (``members``: as the members pane read them, None when not
    read), whose keys stop."""
    agents = [a for a in below if account_kind(a) == "account" and a.computer_agent is not True]
    computers = [a for a in below if account_kind(a) == "account" and a.computer_agent is True]
    parts = []
    for accounts, noun in ((agents, "agent account"), (computers, "Computer Agent")):
        if accounts:
            names = ", ".join(inert(a.display_name) for a in accounts[:NAMED])
            more = f" and {len(accounts) - NAMED:,} more" if len(accounts) > NAMED else ""
            parts.append(f"{counted(len(accounts), noun)} ({names}{more})")
    if members is None:
        people = "its members lose access and their keys stop working"
    elif members:
        verb = "loses" if len(members) == 1 else "lose"
        people = f"its {counted(len(members), 'member')} {verb} access, their keys stop working"
    else:
        people = "it has no member"
    if not parts:
        return f"It goes at once: it has no agent account; {people}."
    return (
        f"It goes at once with everything under it: {' and '.join(parts)}, each with its "
        "configuration, versions, tasks and conversations (calls and messages to them are no "
        f"longer answered); {people}."
    )


def _described(account: Account) -> str:
    active = "active" if account.active is not False else "switched off"
    ids = ", ".join(
        f"{label} {value}"
        for label, value in (("external id", account.external_account_id),
                             ("billing id", account.external_billing_id))
        if value
    ) or "no external ids"  # fmt: skip
    return f"{account.display_name} is {active}, {ids}."
