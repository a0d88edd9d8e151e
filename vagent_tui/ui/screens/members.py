"""Members: who can act where, for the selected account's organization.

``a`` invites someone (email, role, the accounts they are limited to), ``e`` changes a
member's email, role and accounts (clearing the accounts lifts the restriction), ``d``
removes a member after a confirmation whose default is cancel. A restricted member's
reach is the list of its accounts (rule 5: those accounts only, not its organization).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from typing import TYPE_CHECKING, ClassVar, cast

from rich.text import Text
from textual import work
from textual.binding import BindingType
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Static

from vagent_tui.api.models import (
    Envelope,
    Member,
    MemberInvite,
    MemberUpdate,
    OneTimeLoginRequest,
)
from vagent_tui.services.member_reach import Choices
from vagent_tui.services.session import Connection
from vagent_tui.ui.caps import ROW_CAP, left_out
from vagent_tui.ui.dialogs import ConfirmModal
from vagent_tui.ui.safety import DESTRUCTIVE, WRITES, Key
from vagent_tui.ui.screens.base import BaseScreen, who_of
from vagent_tui.ui.text import inert, safe
from vagent_tui.ui.widgets.member_forms import MemberEditForm, MemberInviteForm, PickLoader
from vagent_tui.ui.widgets.members_pane import home_of, reach_text
from vagent_tui.ui.widgets.new_token import NewTokenModal
from vagent_tui.ui.widgets.record_table import RecordTable, record_table
from vagent_tui.ui.widgets.status import describe_error
from vagent_tui.ui.widgets.table_filter import filter_binding
from vagent_tui.ui.writes import Write, Written, listed
from vagent_tui.words import counted

if TYPE_CHECKING:
    from vagent_tui.api.client import OneTimeLogin


LOGIN_WARNING = (
    "Hand this token to its owner now, over a safe channel: whoever holds it can sign in "
    "once as this email. It will not be shown again; ask for a new one if it is lost."
)


class MembersScreen(BaseScreen):
    """The members of the acting account's organization: list, invite, change, remove."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Key("a", "add", "Invite", id="members.add", tooltip="Invite a member by email",
            does=WRITES),
        Key("e", "edit", "Change", id="members.edit",
            tooltip="Change the highlighted member's email, role and accounts", does=WRITES),
        Key("d", "delete", "Remove", id="members.remove",
            tooltip="Remove the highlighted member", does=DESTRUCTIVE),
        Key("L", "login", "Login token", id="members.login", does=WRITES,
            tooltip="A one-time login token for the highlighted member's email (a reseller "
                    "or partner key; it may add a member)"),
        filter_binding("members"),  # last: the footer drops it first
    ]  # fmt: skip
    CSS_PATH = "members.tcss"

    class ShowFor(Message):
        """Scope's ``m``: the members of this account's organization (with ``client``'s
        key); None: the key owner's."""

        def __init__(self, account_id: int | None, name: str, *, client: object) -> None:
            super().__init__()
            self.account_id = account_id
            self.name = name
            self.client = client

    def __init__(self) -> None:
        super().__init__()
        self.asked: tuple[int, str] | None = None
        """The account Scope asked for (`ShowFor`), until the target changes."""
        self._asked_under: int | None = None

    def on_members_screen_show_for(self, message: ShowFor) -> None:
        if message.client is not self.connection.client:
            return
        aid = message.account_id
        self.asked = None if aid is None else (aid, message.name)
        self._asked_under = self.connection.target_id
        self.load_members()

    def where(self) -> Callable[[Connection], int | None]:
        """Whose members, as at the key press: the account Scope asked for, else the
        target (the key owner's); a question answered later still means that one."""
        asked = self.asked
        return lambda c: asked[0] if asked is not None else c.target_id

    def who(self) -> str:
        """The account whose organization is shown, in words (with its id); outside text,
        made inert where it is shown, as `who_of`'s."""
        if self.asked is not None:
            return f"{self.asked[1]} (#{self.asked[0]})"
        return who_of(self, with_id=True)

    # ------------------------------------------------------------------ layout

    def compose_body(self) -> Iterable[Widget]:
        yield Static("", id="members-header", markup=False)
        yield record_table(
            "members-table",
            (("Email", "email"), ("Name", "name"), ("Role", "role"), ("Reach", "reach"),
             ("Status", "status")),
            key=lambda member: str(member.id),
        )  # fmt: skip
        yield Static("", id="members-reach")
        yield Static(
            "No member is listed for this organization. Press a to invite one.",
            id="members-empty",
            markup=False,
        )

    @property
    def table(self) -> RecordTable[Member]:
        return cast("RecordTable[Member]", self.query_one("#members-table", RecordTable))

    def on_mount(self) -> None:
        self.table.focus()

    # ------------------------------------------------------------------ loading

    def reload(self) -> None:
        if self.asked is not None and self._asked_under != self.connection.target_id:
            self.asked = None  # another target picked since: its members
        self.load_members()

    @work(exclusive=True, group="members-load", exit_on_error=False)
    async def load_members(self, highlight: str | None = None, *, quiet: bool = False) -> None:
        """Fetch the list; ``quiet`` leaves the status line to the action that asked."""
        if not quiet:
            self.status.busy("Loading the members")
        at = self.where()
        ok, members = await self.load(lambda c: c.api.list_members(target=at(c)), busy=self.table)
        if not ok or members is None:
            return
        self.show_members(members, highlight)
        if not quiet:
            more, who = left_out(len(members), "member"), self.who()
            self.status.ok(f"{counted(len(members), 'member')} of the organization of {who}{more}")

    def show_members(self, members: list[Member], highlight: str | None = None) -> None:
        shown = members[:ROW_CAP]  # the status line says how many more
        self.table.show(shown, member_cells, keep=highlight)
        self._show_reach(self.highlighted)
        self.set_class(not shown, "-empty")
        restricted = sum(1 for m in shown if m.restricted)
        self.query_one("#members-header", Static).update(
            safe(
                f"{counted(len(shown), 'member')} of the organization of "
                f"{self.who()}; {restricted} limited to accounts"
            )
        )

    def on_record_table_highlighted(self, event: RecordTable.Highlighted) -> None:
        self._show_reach(self.highlighted)

    def _show_reach(self, member: Member | None) -> None:
        """The highlighted member's reach, as Scope explains a key's (rule 5)."""
        line = Text()
        if member is not None:
            directory = self.connection.directory

            def name_of(account_id: int) -> str | None:
                known = directory.known.get(account_id) if directory is not None else None
                return known.display_name if known is not None else None

            line.append(inert(member.email or f"member #{member.id}"), style="bold")
            line.append(": ")
            line.append_text(reach_text(member, name_of))
        self.query_one("#members-reach", Static).update(line)

    @property
    def members(self) -> list[Member]:
        return self.table.records

    @property
    def highlighted(self) -> Member | None:
        return self.table.highlighted_record

    # ------------------------------------------------------------------ invite

    def action_add(self) -> None:
        at = self.where()

        async def send(c: Connection, request: MemberInvite) -> str:
            reply = await c.api.invite_member(request, target=at(c))
            return reply.message or "Invitation sent"

        def read_back(c: Connection, request: MemberInvite) -> Awaitable[str]:
            email = request.email.lower()
            return listed(
                c.api.list_members(target=at(c)), lambda m: m.email.lower() == email,
                present=f"{email} is a member now.", absent=f"{email} is not a member.",
            )  # fmt: skip

        self._open(MemberInviteForm(
            send, subtitle=f"For the organization of {self.who()}",
            read_back=read_back, after_unknown=lambda: self.load_members(quiet=True),
            pick=self.picker(),
        ))  # fmt: skip

    # ------------------------------------------------------------------ change

    def action_edit(self) -> None:
        member = self.highlighted
        if member is None or member.id is None:
            self.status.info("No member highlighted: nothing to change")
            return
        member_id, at = member.id, self.where()

        async def send(c: Connection, request: MemberUpdate) -> str:
            reply = await c.api.update_member(request, target=at(c))
            return reply.message or "Member updated"

        async def read_back(c: Connection, request: MemberUpdate) -> str:
            now = await c.api.get_member(member_id, target=at(c))
            return f"The platform holds {now.email or '?'} as {now.role or '?'}, {reach(now)}."

        self._open(MemberEditForm(
            member, send, subtitle=f"{member.email} ({member.name or 'no name'}); "
            "clear Accounts to give every account of the organization",
            read_back=read_back, after_unknown=lambda: self.load_members(quiet=True),
            pick=self.picker(),
        ))  # fmt: skip

    def home_id(self) -> int | None:
        """The organization (reseller, partner) whose members are shown: the members'
        own, else that of the account asked for, the target or the key owner."""
        home = next((m.organization_id for m in self.members if m.organization_id), None)
        if home is not None:
            return home
        conn = self.connection
        known = conn.directory.known if conn.directory is not None else {}
        acting = known.get(self.asked[0]) if self.asked is not None else conn.acting_as
        return home_of(acting, None) if acting is not None else None

    def picker(self) -> PickLoader | None:
        """Reads the agent accounts the member may be limited to: those below the
        organization whose members are shown (the members' own, else the one asked
        for's, else the target's or the key owner's), from the key's tree."""
        home_id = self.home_id()
        if home_id is None:
            return None

        async def read(c: Connection) -> Choices:
            from vagent_tui.services.accounts import AccountDirectory
            from vagent_tui.services.member_reach import choices_below

            directory = c.directory
            if directory is None or directory.client is not c.api:
                assert c.scope is not None and c.owner is not None
                directory = AccountDirectory(c.api, c.scope, c.owner)
            return await choices_below(directory, home_id)

        return read

    def _open(self, form: MemberInviteForm | MemberEditForm) -> None:
        target = self.connection.target_id

        def done(result: tuple[MemberInvite | MemberUpdate, str] | None) -> None:
            if result is None or target != self.connection.target_id:
                return
            request, message = result
            self.status.ok(f"{message}: {request.email}")
            keep = str(request.target_member_id) if isinstance(request, MemberUpdate) else None
            self.load_members(keep, quiet=True)

        self.app.push_screen(form, done)

    # ------------------------------------------------------------------ one-time login

    def action_login(self) -> None:
        """``L``: a one-time login token for the highlighted member's email (or another),
        asked through the write path: the question says whether it adds a member."""
        from vagent_tui.ui.widgets.member_forms import OneTimeLoginForm

        member, at, home = self.highlighted, self.where(), self.home_id()
        directory = self.connection.directory
        known = directory.known.get(home) if directory is not None and home is not None else None
        org = self.who()

        async def send(c: Connection, request: OneTimeLoginRequest) -> OneTimeLogin:
            return await c.api.one_time_login(
                request.email, external_account_id=request.external_account_id
            )

        async def read_back(c: Connection, request: OneTimeLoginRequest) -> str:
            email = request.email.lower()
            listed = await c.api.list_members(target=at(c))
            now = "is a member" if any(m.email.lower() == email for m in listed) else "is no member"
            return (
                f"{request.email} {now} of the organization now. A token may have been issued "
                "without reaching you (unusable): L asks for a new one."
            )

        def done(result: tuple[OneTimeLoginRequest, OneTimeLogin] | None) -> None:
            if result is None:
                return
            request, login = result
            self.app.push_screen(NewTokenModal(
                login.token, description=f"Sign-in for {request.email}", account=org,
                title="One-time login token", warning=LOGIN_WARNING, what="login token",
            ))  # fmt: skip
            line = f"One-time login token issued for {request.email} (shown once)"
            if login.member_added:
                line += f"; the platform added {request.email} as a member"
            self.status.ok(line)
            if login.member_added is not False:  # added, or the reply did not say
                self.load_members(quiet=True)

        self.app.push_screen(
            OneTimeLoginForm(
                send, email=member.email if member is not None else "",
                external_id=(known.external_account_id or "") if known is not None else "",
                members=frozenset(m.email.lower() for m in self.members), organization=org,
                subtitle=f"For a member of the organization of {org}; a reseller or partner "
                "key is required",
                read_back=read_back, after_unknown=lambda: self.load_members(quiet=True),
            ),
            done,
        )  # fmt: skip

    # ------------------------------------------------------------------ remove

    def action_delete(self) -> None:
        member = self.highlighted
        if member is None or member.id is None:
            self.status.info("No member highlighted: nothing to remove")
            return
        member_id, email = member.id, member.email or f"member {member.id}"
        at = self.where()
        body = (
            f"Remove {email} ({member.name or 'no name'}, {member.role or 'no role'}, "
            f"{reach(member)}) from the organization of {self.who()}?\n"
            "They lose access at once; inviting them again starts over."
        )
        self.write(
            Write[Envelope](
                "members-remove",
                f"Removing {email}",
                lambda c: c.api.delete_member(member_id, target=at(c)),
                confirm=ConfirmModal("Remove a member", body, confirm_label="Remove"),
                done=lambda reply: f"{reply.message or 'Member removed'}: {email}",
                gone=f"{email} was already gone; the list is refreshed",
                read_back=lambda c: listed(
                    c.api.list_members(target=at(c)),
                    lambda m: m.id == member_id,
                    present=f"{email} is still a member.",
                    absent=f"{email} is no longer a member.",
                ),
                failed=lambda exc: f"Could not remove {email}: {describe_error(exc)}",
                retry_key="d",
                after=self._after_remove,
            )
        )

    def _after_remove(self, written: Written[object]) -> None:
        if written.stale:  # done, already gone, or unknown: show what the platform holds
            self.load_members(quiet=True)


def reach(member: Member) -> str:
    """Where a member may act: every account, or the accounts it is limited to (rule 5)."""
    ids = member.permitted_account_ids
    if not ids:
        return "every account"
    return f"only {counted(len(ids), 'account')}: {', '.join(str(i) for i in ids)}"


def member_cells(member: Member) -> tuple[Text, Text, Text, Text, Text]:
    status = member.status or ""
    return (
        safe(member.email, style="bold"),
        safe(member.name or ""),
        safe(member.role or ""),
        Text(inert(reach(member)), style="" if member.restricted else "dim"),
        safe(status, style="italic" if status == "invited" else ""),
    )
