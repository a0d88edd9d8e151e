"""The questions of the Usage plans panel's money keys, before their money question: the
plan and term to subscribe to, and why a subscription is cancelled (a reason, then
details, both optional)."""

from __future__ import annotations

from collections.abc import Sequence

from vagent_tui.services.plan_offers import Held, PlanOffer, choose
from vagent_tui.ui.dialogs import PromptModal


def plan_question(offers: Sequence[PlanOffer], current: str, held: Held) -> PromptModal:
    """Which plan and term: the plans listed with their catalog prices; a plan not
    listed, and the plan and term ``held`` already, are refused in the dialog."""
    listed = "\n".join(f"  {offer.label}" for offer in offers)
    body = (
        f"On {current or 'a plan the reply does not name'}{held.by}. The plans listed:\n"
        f"{listed}\n\n"
        "Type a plan id, then month or year (month when left out). What it costs is "
        "asked next."
    )

    def problem(text: str) -> str | None:
        found = choose(text, offers, held)
        return found if isinstance(found, str) else None

    return PromptModal(
        "Subscribe to a plan",
        body,
        placeholder=f"{offers[0].id} month" if offers else "",
        confirm_label="Next",
        validate=problem,
    )


def why_question(plan: str, which: str) -> PromptModal:
    """The reason (``which`` "reason") or the details of cancelling ``plan``: optional,
    one at a time; what stops is asked next."""
    return PromptModal(
        f"Cancel {plan}: the {which}",
        f"The {which} go{'es' if which == 'reason' else ''} to the platform with the "
        "cancellation (optional: empty sends none). What stops is asked next.",
        placeholder=f"{which} (optional)",
        confirm_label="Next",
    )
