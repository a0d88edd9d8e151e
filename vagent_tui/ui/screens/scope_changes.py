"""Changing the tree on the Scope screen: create, edit and delete accounts.

``a`` creates under the highlighted account what fits its level (a reseller under a
partner, an organization under a reseller, an agent account under an organization),
``e`` edits an organization's or agent account's name, status and external ids (reviewed
as a diff; the platform may apply some settings and refuse others, and the status line
names both), ``d`` deletes one after its name is typed. Each goes through the write path
(`vagent_tui.ui.writes`) and changes the tree in place.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.widgets.tree import TreeNode

from vagent_tui.api.errors import PlatformError
from vagent_tui.api.models import Account
from vagent_tui.services.account_text import account_kind
from vagent_tui.services.session import Connection
from vagent_tui.ui.screens.scope_find import ScopeFindScreen
from vagent_tui.ui.screens.scope_state import delete_parent, edited
from vagent_tui.ui.text import inert
from vagent_tui.ui.widgets.status import describe_error
from vagent_tui.words import counted

if TYPE_CHECKING:
    from vagent_tui.api.models import Envelope, Member, Request, SettingsChange
    from vagent_tui.ui.writes import Written


class ScopeChangesScreen(ScopeFindScreen):
    """The tree's changes: ``a``, ``e`` and ``d`` on the highlighted account."""

    def _tree_node(self, verb: str) -> TreeNode[Account] | None:
        """The highlighted node of the tree, the one a change acts on (not a match of
        the filter: esc leaves the filter, then the tree shows where the change goes)."""
        if self.filtering:
            self.status.info(f"esc leaves the filter; then highlight in the tree what to {verb}")
            return None
        node = self.account_tree.cursor_node
        if node is None or node.data is None or node.data.id is None or self.directory is None:
            self.status.info(f"No account highlighted: nothing to {verb}")
            return None
        return node

    def action_add(self) -> None:
        from vagent_tui.ui.widgets.account_forms import LEVEL_BELOW, LEVEL_NAMES, NewAccountForm

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
        if parent.id in self.tree_state.loaded:
            child = self.account_tree.add_account(node, made)
            node.expand()
            # The tree lays out its new line on the next refresh: the cursor goes there then.
            self.call_after_refresh(self.account_tree.move_cursor, child)
        else:
            node.expand()  # lists the children, the new one with them

    def action_edit(self) -> None:
        from vagent_tui.ui.widgets.account_forms import AccountEditForm

        node = self._tree_node("edit")
        if node is None or node.data is None or node.data.id is None:
            return
        account, account_id = node.data, node.data.id
        kind = account_kind(account)
        if self._not_here(kind, "changed", "updates"):
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
        result = edited(was, request.model_dump(by_alias=True, exclude_unset=True), change)
        now = result.account
        if self.directory is not None:
            self.directory.replaced(now)
        node.data = now
        self.account_tree.mark(node)
        self._show_detail(now)
        if change.failed_settings:
            self.status.error(
                f"{now.display_name}: saved {result.saved}; NOT saved: {result.refused}",
                retry_key="e",
            )
        else:
            self.status.ok(f"{now.display_name}: saved {result.saved}")

    def _not_here(self, kind: str, done: str, does: str) -> bool:
        """Whether ``kind`` is one the platform does not change or delete (said why)."""
        if kind in ("account", "organization"):
            return False
        self.status.info(
            f"A {kind or 'this kind of'} account is not {done} here: the platform {does} "
            "organizations and agent accounts"
        )
        return True

    def _read_account_again(self, node: TreeNode[Account]) -> None:
        if node.parent is not None:
            self._read_children_again(node.parent)

    def action_delete(self) -> None:
        from vagent_tui.ui.dialogs import PromptModal
        from vagent_tui.ui.writes import Write  # at the first write, not at start-up

        node = self._tree_node("delete")
        if node is None or node.data is None or node.data.id is None or self.directory is None:
            return
        account, account_id = node.data, node.data.id
        name = inert(account.display_name)
        kind = account_kind(account)
        if self._not_here(kind, "deleted", "deletes"):
            return
        parent_id = delete_parent(account, node.parent.data if node.parent is not None else None)
        if parent_id is None:
            self.status.info(f"The parent of {name} is not known: r reads the tree again")
            return
        level = "organization" if kind == "organization" else "agent account"
        directory, members = self.directory, self.tree_state.members.get(account_id)

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
