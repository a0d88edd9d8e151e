"""The questions of the Usage plans panel's money keys, before their money question: the
plan and term to subscribe to, and why a subscription is cancelled (both optional)."""

from __future__ import annotations

from collections.abc import Sequence

from textual.app import ComposeResult
from textual.widget import Widget
from textual.widgets import Input, Static

from vagent_tui.services.plan_offers import PlanOffer, choose
from vagent_tui.ui.dialogs import PromptModal, Question
from vagent_tui.ui.text import safe


def plan_question(offers: Sequence[PlanOffer], current: str) -> PromptModal:
    """Which plan and term: the plans listed with their catalog prices; a plan not
    listed is refused in the dialog."""
    listed = "\n".join(f"  {offer.label}" for offer in offers)
    body = (
        f"On {current or 'a plan the reply does not name'}. The plans listed:\n{listed}\n\n"
        "Type a plan id, then month or year (month when left out). What it costs is "
        "asked next."
    )

    def problem(text: str) -> str | None:
        found = choose(text, offers)
        return found if isinstance(found, str) else None

    return PromptModal(
        "Subscribe to a plan",
        body,
        placeholder=f"{offers[0].id} month" if offers else "",
        confirm_label="Next",
        validate=problem,
    )


class CancelReasons(Question[tuple[str, str] | None]):
    """Why the subscription is cancelled: a reason and details, both optional."""

    def __init__(self, plan: str) -> None:
        super().__init__("Cancel the subscription", confirm_label="Next")
        self.plan = plan

    def compose_question(self) -> ComposeResult:
        yield Static(
            safe(
                f"Cancel {self.plan}: the reason and details go to the platform with it "
                "(both optional). What stops is asked next.",
                multiline=True,
            )
        )
        yield Input(placeholder="reason (optional)", id="cancel-reason")
        yield Input(placeholder="details (optional)", id="cancel-details")

    def first_focus(self) -> Widget:
        return self.query_one("#cancel-reason", Input)

    def action_confirm(self) -> None:
        reason = self.query_one("#cancel-reason", Input).value
        details = self.query_one("#cancel-details", Input).value
        self.dismiss((reason, details))

    def no_answer(self) -> tuple[str, str] | None:
        return None

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if event.input.id == "cancel-reason":
            self.focus_next()
        else:
            self.action_confirm()
