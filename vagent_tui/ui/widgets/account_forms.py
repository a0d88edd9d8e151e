"""The account tree's forms (Scope), as dialogs: a new reseller, organization or agent
account under the highlighted account, and the edit of an organization or agent account
(its name, status and external ids, reviewed as a diff).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError
from rich.text import Text
from textual.widgets import Select

from vagent_tui.api.models import (
    Account,
    AccountUpdate,
    NewAgentAccount,
    NewOrganization,
    NewReseller,
    OrganizationUpdate,
    Request,
)
from vagent_tui.ui.dialogs import ReviewModal
from vagent_tui.ui.text import inert
from vagent_tui.ui.widgets.entry_forms import FormErrors, FormModal, Send, build, text_input
from vagent_tui.ui.widgets.form import FormField, errors_by_field
from vagent_tui.ui.writes import Confirm

if TYPE_CHECKING:
    pass


LEVEL_BELOW = {"partner": "reseller", "reseller": "organization", "organization": "account"}
"""What the Scope screen creates under an account of each kind."""

LEVEL_NAMES = {"reseller": "reseller", "organization": "organization", "account": "agent account"}

EXTERNAL_HINT = "optional: your CRM's id for it (unique)"
BILLING_HINT = "optional: your billing system's id for it"


def _choice(name: str, options: Iterable[str], current: str) -> Select[str]:
    return Select([(o, o) for o in options], value=current, allow_blank=False,
                  id=f"form-{name.replace('_', '-')}", compact=True)  # fmt: skip


class NewAccountForm(FormModal):
    """A reseller under a partner, an organization under a reseller or an agent account
    under an organization: the fields of that level."""

    CONFIRM = "Create"

    def __init__(self, kind: str, send: Send, **kwargs: Any) -> None:
        super().__init__(send, **kwargs)
        self.kind = kind

    @property
    def title_text(self) -> Text:
        return Text(f"New {LEVEL_NAMES[self.kind]}")

    def make_fields(self) -> Iterable[FormField]:
        if self.kind == "reseller":
            yield FormField(
                "Name", text_input("reseller_name", "Orbit Voice"), name="reseller_name"
            )
            yield FormField("Admin email", text_input("email", "admin@reseller.example"),
                            name="email", hint="optional")  # fmt: skip
            status = _choice("reseller_status", ("enabled", "disabled"), "enabled")
            yield FormField("Status", status, name="reseller_status")
            return
        if self.kind == "organization":
            yield FormField("Name", text_input("org_name", "Acme Solar"), name="org_name")
            yield FormField("Admin email", text_input("email", "admin@customer.example"),
                            name="email", hint="optional")  # fmt: skip
            yield FormField("First agent", text_input("account_name", "Acme Support"),
                            name="account_name",
                            hint="optional: creates its first agent account")  # fmt: skip
            kinds = _choice("org_account_type", ("customer", "internal"), "customer")
            yield FormField("Type", kinds, name="org_account_type",
                            hint="internal: billed through your usage")  # fmt: skip
        else:
            yield FormField("Name", text_input("account_name", "Front desk"), name="account_name")
        yield FormField("External id", text_input("external_account_id", "AC_12345"),
                        name="external_account_id", hint=EXTERNAL_HINT)  # fmt: skip
        yield FormField("Billing id", text_input("external_billing_id", "billing-6789"),
                        name="external_billing_id", hint=BILLING_HINT)  # fmt: skip

    def build_request(self) -> Request:
        names = {
            "reseller": ("reseller_name", "email", "reseller_status"),
            "organization": ("org_name", "email", "account_name", "org_account_type",
                             "external_account_id", "external_billing_id"),
            "account": ("account_name", "external_account_id", "external_billing_id"),
        }[self.kind]  # fmt: skip
        values = {name: self.value(name) for name in names}
        if self.kind == "reseller":
            return build(NewReseller, values, names[0])
        if self.kind == "organization":
            return build(NewOrganization, values, names[0])
        return build(NewAgentAccount, values, names[0])


EDITED = {"name": "Name", "active": "Active", "external_account_id": "External id",
          "external_billing_id": "Billing id"}  # fmt: skip
"""The fields an edit changes, as the review names them."""


def edit_diff(account: Account, request: AccountUpdate | OrganizationUpdate) -> Text:
    """The review of an edit: each setting sent, as it is and as it will be."""
    sent = request.model_dump(exclude_unset=True)
    now = {"name": account.display_name, "active": account.active,
           "external_account_id": account.external_account_id,
           "external_billing_id": account.external_billing_id}  # fmt: skip
    text = Text()
    for key, value in sent.items():
        field = "name" if key in ("account_name", "org_name") else key
        before, after = now.get(field), value
        label = EDITED.get(field, field)
        text.append(inert(f"{label}: "), style="bold")
        text.append(inert(_shown(before)), style="strike dim")
        text.append(" → ")
        text.append(inert(_shown(after)) + "\n")
    return text


def _shown(value: object) -> str:
    if value is None or value == "":
        return "(none)"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


class AccountEditForm(FormModal):
    """An agent account's or an organization's name, status and external ids; only what
    changed is sent, after a review of the change (an empty id removes it)."""

    TITLE_TEXT = "Edit an account"
    CONFIRM = "Review"

    def __init__(self, account: Account, send: Send, **kwargs: Any) -> None:
        super().__init__(send, **kwargs)
        self.account = account
        self.organization = (account.account_type or "").lower() == "organization"

    @property
    def title_text(self) -> Text:
        what = "an organization" if self.organization else "an agent account"
        return Text(f"Edit {what}")

    def make_fields(self) -> Iterable[FormField]:
        acc = self.account
        yield FormField("Name", text_input("name", "", acc.display_name), name="name")
        active = _choice("active", ("yes", "no"), "no" if acc.active is False else "yes")
        yield FormField("Active", active, name="active",
                        hint="no: calls and messages are not answered")  # fmt: skip
        yield FormField("External id", text_input("external_account_id", "AC_12345",
                                              acc.external_account_id or ""),
                        name="external_account_id", hint="empty: removes it")  # fmt: skip
        yield FormField("Billing id", text_input("external_billing_id", "billing-6789",
                                             acc.external_billing_id or ""),
                        name="external_billing_id", hint="empty: removes it")  # fmt: skip

    def build_request(self) -> AccountUpdate | OrganizationUpdate:
        acc = self.account
        values: dict[str, Any] = {}
        name = self.value("name").strip()
        if name != acc.display_name:
            values["org_name" if self.organization else "account_name"] = name
        active = self.value("active") == "yes"
        if active != (acc.active is not False):
            values["active"] = active
        for key in ("external_account_id", "external_billing_id"):
            typed = self.value(key).strip()
            if typed != (getattr(acc, key) or ""):
                values[key] = typed or None
        if not values:
            raise FormErrors({"": "Nothing changed: nothing to send"})
        model: type[AccountUpdate | OrganizationUpdate] = (
            OrganizationUpdate if self.organization else AccountUpdate
        )
        try:
            return model(**values)
        except ValidationError as exc:
            errors = errors_by_field(exc)
        raise FormErrors({("name" if k in ("account_name", "org_name") else k): v
                          for k, v in errors.items()})  # fmt: skip

    def confirm_for(self, request: Request) -> Confirm:
        assert isinstance(request, AccountUpdate | OrganizationUpdate)
        return ReviewModal(
            f"Change {self.account.display_name}",
            "The platform applies each setting on its own: some may fail while the others "
            "are saved; the status line says which.",
            edit_diff(self.account, request),
            confirm_label="Save",
        )
