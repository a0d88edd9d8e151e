"""Finding an account on the Scope screen and acting as it: the filter, picking, ``i``.

The filter asks ``searchAccounts`` for each text typed (`AccountDirectory.search`:
debounced, a newer key cancels a search not sent yet, an answer for an older text is
dropped), merged with the accounts already known whose id or kind holds the text; a key
that cannot search walks the tree instead, and says when that walk stopped short. Until
the answer for the text typed shows, the list says it is searching: enter then waits for
it and picks its top match. Enter (in the field or the list) picks the highlighted match;
a click only highlights. ``i`` finds an account by its external id and opens the tree
down to it.
"""

from __future__ import annotations

import asyncio
import time

from textual import work
from textual.widgets import Input, OptionList, Static, Tree
from textual.widgets.tree import TreeNode
from textual.worker import Worker, WorkerCancelled, WorkerFailed

from vagent_tui.api.errors import ApiError, PlatformError
from vagent_tui.api.models import Account
from vagent_tui.services.accounts import AccountDirectory
from vagent_tui.ui.screens.scope_state import chain_to, match_count
from vagent_tui.ui.screens.scope_tree import ScopeTreeScreen
from vagent_tui.ui.text import inert
from vagent_tui.ui.widgets.account_info import selectable
from vagent_tui.words import counted


class ScopeFindScreen(ScopeTreeScreen):
    """The filter and its matches, the pick of a target, the tree opened to an external id."""

    def action_focus_filter(self) -> None:
        self.query_one("#scope-filter", Input).focus()

    def filter_text(self) -> str:
        return self.query_one("#scope-filter", Input).value.strip()

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        self._apply_filter()

    def _apply_filter(self) -> None:
        """Ask for the answer for the text typed; until it comes, say so (nothing to pick)."""
        text = self.filter_text()
        self.set_class(bool(text), "-filtering")
        state = self.filter_state
        state.typed(text)  # an enter for a text since changed no longer waits
        if not text or self.directory is None:
            self.workers.cancel_group(self, "scope-search")
            state.answer = None
            self.matches.clear()
            self._say("")
            return
        if (answer := state.answer_for(text)) is not None:
            if self.matches.answered != text:  # back to the text shown before the last key
                self.matches.show(answer, self._match_text, keep=True)
                self._say(match_count(answer))
            self.workers.cancel_group(self, "scope-search")
            return
        self.matches.waiting()
        self._say(f"Searching for “{inert(text)}”…")
        self.run_worker(
            self._search(self.directory, text, state.debounce(time.monotonic())),
            group="scope-search", exclusive=True, exit_on_error=False,
        )  # fmt: skip

    def _say(self, line: str) -> None:
        """The line above the matches: what they answer, or what is awaited."""
        self.query_one("#scope-answer", Static).update(line, layout=False)

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
                self.filter_state.pick_pending = None
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
        self.filter_state.answer = found
        self.matches.show(found, self._match_text)
        self._say(match_count(found))
        top = self._highlighted()
        if top is not None and top is not self._detail_of:
            # In the frame that shows the list, not one later (its highlight's message):
            # one layout for the answer instead of two or three.
            self._show_detail(top)
        if found.fallback or found.partial:
            self.status.info(" · ".join(p for p in (found.fallback, found.partial) if p))
        if self.filter_state.take_pick(text):
            self._pick_highlighted()

    def _wanted(self, directory: AccountDirectory, text: str) -> bool:
        return directory is self.directory and text == self.filter_text()

    def action_match_next(self) -> None:
        """Down in the filter field moves the highlight among the matches."""
        if self.filtering:
            self.matches.action_cursor_down()

    def action_match_previous(self) -> None:
        if self.filtering:
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
        if self.filtering:
            self._pick_highlighted()

    def action_pick(self) -> None:
        if self.filtering:
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
        if matches.answered != text or self.filter_state.answer_for(text) is None:
            self.filter_state.pick_pending = text
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
                if self.filtering:
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
        if self.filter_state.pick_pending is not None:
            self.filter_state.pick_pending = None
            self.status.info("No pick: esc")
            return
        field = self.query_one("#scope-filter", Input)
        if field.value:
            field.value = ""
        self.account_tree.focus()

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
        node = self.account_tree.root
        rest = chain_to(account, node.data.id if node.data is not None else None)
        while rest:
            here = node.data
            if here is None or here.id is None:
                return None
            if here.id not in self.tree_state.loaded:
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
