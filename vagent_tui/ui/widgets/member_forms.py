"""The members' forms, as dialogs: invite a member, change one (its role and the accounts
it is limited to, picked from the tree or typed), and issue a one-time login token.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Iterable
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.message import Message
from textual.widgets import Button, Input, Label, Select

from vagent_tui.api.models import (
    MEMBER_ROLES,
    Member,
    MemberInvite,
    MemberUpdate,
    OneTimeLoginRequest,
    Request,
)
from vagent_tui.ui.dialogs import ConfirmModal
from vagent_tui.ui.diff_text import was_becomes_text
from vagent_tui.ui.text import safe
from vagent_tui.ui.widgets.entry_forms import FormErrors, FormModal, Send, build, text_input
from vagent_tui.ui.widgets.form import FormField
from vagent_tui.ui.widgets.status import describe_error
from vagent_tui.ui.writes import Confirm

if TYPE_CHECKING:
    from vagent_tui.api.errors import PlatformError
    from vagent_tui.services.member_reach import Choices
    from vagent_tui.services.session import Connection


def _roles(current: str = "admin") -> Select[str]:
    roles = list(MEMBER_ROLES) + ([current] if current not in MEMBER_ROLES else [])
    return Select([(safe(r), r) for r in roles], value=current, allow_blank=False,
                  id="form-role", compact=True)  # fmt: skip


ACCOUNTS_HINT = "Pick… or type ids; empty: every account"

PickLoader = Callable[["Connection"], Awaitable["Choices"]]
"""Reads the agent accounts a member may be limited to (`services.member_reach`)."""


class AccountsField(FormField):
    """The accounts a member is limited to: picked from the tree (``Pick…``), or typed."""

    class PickWanted(Message):
        """The ``Pick…`` button: the form opens the picker."""

    def compose(self) -> ComposeResult:
        yield Label(self.label_text, classes="field-label", markup=False)
        with Horizontal(classes="accounts-row"):
            yield self.widget
            yield Button("Pick…", id="form-pick-accounts", compact=True, disabled=True)
        yield Label("", classes="field-error", markup=False)

    @on(Button.Pressed, "#form-pick-accounts")
    def _pick(self, event: Button.Pressed) -> None:
        event.stop()
        self.post_message(self.PickWanted())


def _typed_ids(text: str) -> list[int]:
    """The ids in a field as typed (the rest is the model's to refuse)."""
    return [int(p) for p in re.split(r"[,\s]+", text) if p.isdecimal()]


class _MemberForm(FormModal):
    """What the invite and change forms share: the accounts, picked or typed and checked
    against the agent accounts below the member's home when those could be read."""

    def __init__(self, send: Send, *, pick: PickLoader | None = None, **kwargs: Any) -> None:
        super().__init__(send, **kwargs)
        self.pick = pick
        self.choices: Choices | None = None
        """The agent accounts offered (None: not read, or could not be)."""

    def accounts_field(self, value: str = "") -> AccountsField:
        return AccountsField(
            "Accounts", text_input("permitted_account_ids", "1112, 1113", value),
            name="permitted_account_ids", hint=ACCOUNTS_HINT,
        )  # fmt: skip

    def on_mount(self) -> None:
        super().on_mount()
        if self.pick is not None:
            self._read_choices(self.pick)

    @work(group="form-choices", exclusive=True, exit_on_error=False)
    async def _read_choices(self, pick: PickLoader) -> None:
        from vagent_tui.ui.failures import guarded_read

        def failed(exc: PlatformError) -> None:
            self.set_form_error(
                f"The accounts could not be read ({describe_error(exc)}): type their ids"
            )

        ok, choices = await guarded_read(
            pick(self.start), still_wanted=lambda: self.is_attached, on_error=failed
        )
        if not ok or choices is None:
            return
        self.choices = choices
        self.query_one("#form-pick-accounts", Button).disabled = False

    def on_accounts_field_pick_wanted(self, message: AccountsField.PickWanted) -> None:
        from vagent_tui.ui.widgets.account_picker import AccountPickerModal

        message.stop()
        if self.choices is None:
            return
        field = self.query_one("#form-permitted-account-ids", Input)

        def picked(ids: list[int] | None) -> None:
            if ids is not None:
                field.value = ", ".join(map(str, ids))
                field.focus()

        self.app.push_screen(AccountPickerModal(self.choices, _typed_ids(field.value)), picked)

    def check_accounts(self, ids: list[int]) -> None:
        """Typed ids that are not agent accounts below the home: refused at the field."""
        choices = self.choices
        if choices is None or not choices.complete:
            return  # not known here: the platform checks them
        offered = {c.id for c in choices.accounts}
        wrong = [i for i in ids if i not in offered]
        if wrong:
            which = ", ".join(map(str, wrong))
            raise FormErrors({
                "permitted_account_ids": f"not an agent account of {choices.home_name}: {which}"
            })  # fmt: skip


class MemberInviteForm(_MemberForm):
    """An invitation: email, role, the accounts it is limited to, redirect, welcome email."""

    TITLE_TEXT = "Invite a member"
    CONFIRM = "Invite"

    def make_fields(self) -> Iterable[FormField]:
        yield FormField("Email", text_input("email", "admin@customer.example"), name="email")
        yield FormField("Role", _roles(), name="role")
        yield self.accounts_field()
        yield FormField(
            "Redirect URL", text_input("redirect_url", "https://customer.example/welcome"),
            name="redirect_url", hint="optional: where accepting the invitation leads",
        )  # fmt: skip
        welcome: Select[str] = Select(
            [("yes", "yes"), ("no", "no")], value="yes", allow_blank=False,
            id="form-send-welcome-email", compact=True,
        )  # fmt: skip
        yield FormField("Welcome email", welcome, name="send_welcome_email")

    def build_request(self) -> MemberInvite:
        values = {
            "email": self.value("email"),
            "role": self.value("role"),
            "permitted_account_ids": self.value("permitted_account_ids"),
            "redirect_url": self.value("redirect_url"),
            "send_welcome_email": self.value("send_welcome_email"),
        }
        request = build(MemberInvite, values, "email")
        self.check_accounts(request.permitted_account_ids)
        return request


class MemberEditForm(_MemberForm):
    """A member's email, role and accounts; clearing the accounts lifts the restriction."""

    TITLE_TEXT = "Change a member"
    CONFIRM = "Save"

    def __init__(self, member: Member, send: Send, **kwargs: Any) -> None:
        super().__init__(send, **kwargs)
        self.member = member

    def make_fields(self) -> Iterable[FormField]:
        member = self.member
        yield FormField("Email", text_input("email", "", member.email), name="email")
        yield FormField("Role", _roles(member.role or "admin"), name="role")
        yield self.accounts_field(", ".join(str(i) for i in member.permitted_account_ids))

    def build_request(self) -> MemberUpdate:
        values = {
            "target_member_id": str(self.member.id),
            "email": self.value("email"),
            "role": self.value("role"),
            "permitted_account_ids": self.value("permitted_account_ids"),
        }
        request = build(MemberUpdate, values, "email")
        self.check_accounts(request.permitted_account_ids)
        if not member_changes(self.member, request):
            raise FormErrors({"": "Nothing changed: nothing to send."})
        return request

    def confirm_for(self, request: Request) -> Confirm:
        """What changes, reviewed first: a member's reach is an access right (accounts
        cleared lift the limit to every account)."""
        from vagent_tui.ui.dialogs import ReviewModal

        assert isinstance(request, MemberUpdate)
        return ReviewModal(
            f"Change {self.member.email or f'member #{self.member.id}'}",
            "What the member can reach and do changes as below.",
            changes_text(member_changes(self.member, request)),
            confirm_label="Save",
        )


def _reach(ids: Iterable[int]) -> str:
    listed = sorted(ids)
    return ", ".join(map(str, listed)) if listed else "every account (no limit)"


def member_changes(member: Member, request: MemberUpdate) -> list[tuple[str, str, str]]:
    """``(field, was, becomes)`` for each field the request changes on ``member``."""
    found = []
    if request.email != member.email:
        found.append(("Email", member.email or "—", request.email or "—"))
    if member.role and request.role != member.role:  # none held: the form's default
        found.append(("Role", member.role, request.role or "—"))
    if set(request.permitted_account_ids) != set(member.permitted_account_ids):
        was, becomes = member.permitted_account_ids, request.permitted_account_ids
        found.append(("Accounts", _reach(was), _reach(becomes)))
    return found


def changes_text(found: list[tuple[str, str, str]]) -> Text:
    """The changes as the review shows them; a limit lifted is said as a warning (the
    accounts come last of `member_changes`: the warning goes under them)."""
    out = was_becomes_text(found)
    if any(name == "Accounts" and becomes.startswith("every account")
           for name, _, becomes in found):  # fmt: skip
        out.append("  The member will reach every account of the organization.\n", style="bold")
    return out


class OneTimeLoginForm(FormModal):
    """A one-time login token for an email: the email and, optional, the external id of
    the account whose organization an email that is no member is added to. The question
    before it is sent says what the platform will do (it may add a member)."""

    TITLE_TEXT = "One-time login token"
    CONFIRM = "Get a token"

    def __init__(
        self, send: Send, *, email: str, external_id: str, members: frozenset[str],
        organization: str, **kwargs: Any,
    ) -> None:  # fmt: skip
        super().__init__(send, **kwargs)
        self.email = email
        self.external_id = external_id
        self.members = members
        """The emails (lower case) of the organization's members, as listed."""
        self.organization = organization

    def make_fields(self) -> Iterable[FormField]:
        yield FormField("Email", text_input("email", "admin@customer.example", self.email),
                        name="email")  # fmt: skip
        yield FormField(
            "External account id", text_input("external_account_id", "AC_12345", self.external_id),
            name="external_account_id",
            hint="optional; then an email that is no member is ADDED",
        )  # fmt: skip

    def build_request(self) -> OneTimeLoginRequest:
        values = {"email": self.value("email"),
                  "external_account_id": self.value("external_account_id")}  # fmt: skip
        return build(OneTimeLoginRequest, values, "email")

    def confirm_for(self, request: Request) -> Confirm:
        assert isinstance(request, OneTimeLoginRequest)
        email, ext = request.email, request.external_account_id
        if email.lower() in self.members:
            effect = f"{email} is a member of {self.organization}: nobody is added."
        elif ext:
            effect = (
                f"{email} is not a member of {self.organization} as listed: the platform ADDS "
                f"{email} as a member of the organization whose external id is {ext}, "
                "and that stays after the token is used or lost."
            )
        else:
            effect = (
                f"{email} is not a member of {self.organization} as listed: without an "
                "external id the platform adds nobody (it may answer that it knows no "
                "such account)."
            )
        body = (
            f"Ask the platform for a single-use login token for {email}? Whoever holds the "
            f"token can sign in as {email} once, so it is shown once, here, and never "
            f"logged or journaled.\n{effect}\nA GET that changes the platform: it is sent "
            "once (never retried) and journaled with the email and external id."
        )
        return ConfirmModal("Issue a one-time login token", body, confirm_label="Issue")
