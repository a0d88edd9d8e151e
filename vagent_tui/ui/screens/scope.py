"""Scope: who the key belongs to, which scope rule matched, and the target account picker.

The screen is cut by job: `scope_tree` draws the header, the tree (read lazily, level by
level), the detail and the members pane; `scope_find` the filter, the pick of a target
and ``i`` (an account by its external id); `scope_changes` the tree's changes (``a``,
``e``, ``d``); what they hold between keys is in `scope_state` (typed, no Textual).
This module binds the keys and composes the screen, and opens Members, Onboard and the
export (``w``).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import work
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widget import Widget
from textual.widgets import Input, Static

from vagent_tui.ui.safety import DESTRUCTIVE, WRITES, Key
from vagent_tui.ui.screens.scope_changes import ScopeChangesScreen
from vagent_tui.ui.text import inert
from vagent_tui.ui.widgets.account_tree import AccountMatches, AccountTree
from vagent_tui.ui.widgets.fitted import FittedStatic
from vagent_tui.ui.widgets.members_pane import MembersPane
from vagent_tui.words import counted


class ScopeScreen(ScopeChangesScreen):
    """Key owner, scope verdict, the tree of child accounts and the target picker."""

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

    def action_members(self) -> None:
        """``m``: the Members screen for the highlighted account's organization (asked
        with the target the pane asks with)."""
        account = self._highlighted()
        home = self.tree_state.home(account)
        if account is None or home is None:
            self.status.info("No account highlighted: highlight one to see its members")
            return
        target = self._members_target(account, home)
        name = (self.tree_state.name_of(target) or f"#{target}") if target else ""
        self._open_members(target, name)

    @work(exclusive=True, group="scope-open-members", exit_on_error=False)
    async def _open_members(self, target: int | None, name: str) -> None:
        from vagent_tui.ui.screens.members import MembersScreen

        client = self.connection.client
        await self.app.run_action("app.show('members')")
        # Switching screens is synchronous: the screen shown now is the Members screen.
        self.app.screen.post_message(MembersScreen.ShowFor(target, name, client=client))

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
