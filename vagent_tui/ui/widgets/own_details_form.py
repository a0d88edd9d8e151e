"""The key owner's own details (``POST /account``), as a form of the Agent screen (``O``).

The form starts from the details ``GET /account`` answers now; only the fields changed
are sent, after a review of each one as it is and as it will be. No target is sent:
these are the details of whoever owns the key, whichever account is selected.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from pydantic.alias_generators import to_camel
from rich.text import Text

from vagent_tui.api.agent_extras_models import OWN_DETAILS, OwnDetails
from vagent_tui.api.models import Request
from vagent_tui.services.session import Connection
from vagent_tui.ui.dialogs import ReviewModal
from vagent_tui.ui.text import inert
from vagent_tui.ui.widgets.entry_forms import FormErrors, FormModal, build, text_input
from vagent_tui.ui.widgets.form import FormField
from vagent_tui.ui.writes import Confirm


def detail_text(details: Mapping[str, Any], name: str) -> str:
    """A detail as its field shows it (a value that is not text shows as nothing)."""
    value = details.get(to_camel(name))
    return inert(value) if isinstance(value, str) else ""


def changed(details: Mapping[str, Any], typed: Mapping[str, str]) -> dict[str, str]:
    """The fields whose typed text differs from the details now (stripped)."""
    return {name: text.strip() for name, text in typed.items()
            if text.strip() != detail_text(details, name)}  # fmt: skip


class OwnDetailsForm(FormModal):
    """The key owner's details; dismissed with ``(request, reply)`` once saved."""

    TITLE_TEXT = "Your account's details"
    CONFIRM = "Review"

    def __init__(self, details: Mapping[str, Any], who: str) -> None:
        super().__init__(
            _send,
            subtitle=f"The details of the key owner, {who} (POST /account): not the selected "
            "account's. Only the fields you change are sent, after a review.",
            read_back=_read_back,
        )
        self.details = dict(details)

    def make_fields(self) -> Iterable[FormField]:
        for name, label in OWN_DETAILS:
            yield FormField(label, text_input(name, "", detail_text(self.details, name)),
                            name=name)  # fmt: skip

    def build_request(self) -> OwnDetails:
        typed = {name: self.value(name) for name, _ in OWN_DETAILS}
        values = changed(self.details, typed)
        if not values:
            raise FormErrors({"": "Nothing changed: nothing to send"})
        return build(OwnDetails, values)

    def confirm_for(self, request: Request) -> Confirm:
        assert isinstance(request, OwnDetails)
        labels = dict(OWN_DETAILS)
        text = Text()
        for name, value in request.model_dump(exclude_none=True).items():
            text.append(inert(f"{labels[name]}: "), style="bold")
            text.append(inert(detail_text(self.details, name) or "(none)"), style="strike dim")
            text.append(" → ")
            text.append((inert(value) or "(none)") + "\n")
        return ReviewModal(
            "Change your account's details?",
            "The key owner's details, as they are and as they will be.",
            text,
            confirm_label="Save",
        )


async def _send(conn: Connection, request: OwnDetails) -> dict[str, Any]:
    return await conn.api.update_own_details(request)


async def _read_back(conn: Connection, request: OwnDetails) -> str:
    """No reply came: whether the key owner's details are as sent now."""
    account = await conn.api.get_account()
    details = account.details or {}
    sent = request.model_dump(exclude_none=True)
    there = all(details.get(to_camel(name)) == value for name, value in sent.items())
    return "your details ARE as sent." if there else "your details are NOT as sent."
