"""The plans the account may subscribe to, as the plan reads list them, and what a
change of plan costs in the catalog's words (no Textual: the Usage screen's plans panel
asks it before its money keys).

Nothing is guessed of a plan's shape beyond `plans.plan_lines`: a plan is a record of
the "Available plans" or "Catalog" reply with an ``id``; its ``name``, ``price``,
``currency`` and ``billingCycle`` are said where the reply has them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from vagent_tui.api.usage_models import OpenReply
from vagent_tui.services.plans import PlanPart, plan_id, plan_name, record_groups
from vagent_tui.services.usage import as_number

SHORT = 40
"""Characters of a plan's name, price or currency said in a question at most: a reply's
text may be any length, and the question has to fit."""


def _short(text: str) -> str:
    return text if len(text) <= SHORT else f"{text[: SHORT - 1]}…"


OFFER_PARTS = ("Available plans", "Catalog")
"""The plan reads whose records are plans one may subscribe to, in order of trust."""


@dataclass(frozen=True)
class PlanOffer:
    """One plan of the catalog, as its reply says it (texts as sent)."""

    id: str
    name: str = ""
    price: str = ""
    currency: str = ""
    cycle: str = ""

    @property
    def price_line(self) -> str:
        """``49 USD a month``; "price not given" when the reply has none."""
        if not self.price:
            return "price not given"
        money = f"{_short(self.price)} {_short(self.currency)}".strip()
        return f"{money} a {_short(self.cycle)}" if self.cycle else money

    @property
    def label(self) -> str:
        named = f" ({_short(self.name)})" if self.name else ""
        return f"{_short(self.id)}{named}: {self.price_line}"


def plan_offers(parts: Sequence[PlanPart]) -> list[PlanOffer]:
    """The plans listed by the reads in ``parts`` (each id once, the first read's)."""
    found: dict[str, PlanOffer] = {}
    for part in parts:
        if part.title not in OFFER_PARTS or part.reply is None:
            continue
        for record, fields in record_groups(part.lines):
            values = dict(fields)
            offer_id = values.get("id") or values.get("productPlanId") or ""
            if not record or not offer_id or offer_id in found:
                continue
            found[offer_id] = PlanOffer(
                offer_id,
                values.get("name", ""),
                values.get("price", ""),
                values.get("currency", ""),
                values.get("billingCycle", ""),
            )
    return list(found.values())


def current_of(parts: Sequence[PlanPart]) -> OpenReply | None:
    """The reply of the "Current plan" read, when it was read."""
    return next((p.reply for p in parts if p.title == "Current plan"), None)


def subscribe_cost(offer: PlanOffer, term: str, current: PlanOffer | None) -> str:
    """What subscribing to ``offer`` costs, in the catalog's words, and when it is charged
    (the reference: an upgrade is charged at once, prorated)."""
    said = f"{_short(offer.name or offer.id)} at {offer.price_line} per the catalog"
    if term == "year":
        said += "; by the year (the catalog's price is for the cycle it says)"
    if current is None:
        return said + "; an upgrade is charged at once, prorated for the rest of the period"
    new, old = as_number(offer.price), as_number(current.price)
    if new is not None and old is not None and new > old:
        return (
            f"{said}; an upgrade from {current.label}: charged at once, prorated for the "
            "rest of the period"
        )
    if new is not None and old is not None and new < old:
        return f"{said}; down from {current.label}"
    return f"{said}; now on {current.label}"


def cancel_cost(current: PlanOffer | None, name: str) -> str:
    """What cancelling stops, in the catalog's words."""
    what = current.label if current is not None else (name or "the current plan")
    return f"{what} stops; the platform does not say what is refunded"


def on_plan(reply: OpenReply) -> str:
    """A read-back sentence: the plan the account is on now."""
    name, ident = plan_name(reply), plan_id(reply)
    if not (name or ident):
        return "The current plan's reply names no plan: look at the plans panel (p)."
    shown = f"{name} ({ident})" if name and ident and name != ident else (name or ident)
    return f"The account is on {shown} now."


def choose(text: str, offers: Sequence[PlanOffer]) -> tuple[PlanOffer, str] | str:
    """The plan and term typed as ``<plan id> [month|year]`` (month when left out), or
    why not (a plan the reads did not list is refused before anything is asked)."""
    words = text.split()
    if not words or len(words) > 2:
        return "Type a plan id, then month or year (month when left out)"
    term = words[1].lower() if len(words) == 2 else "month"
    if term not in ("month", "year"):
        return "The term is month or year"
    offer = next((o for o in offers if o.id == words[0]), None)
    if offer is None:
        return f"Not a plan listed: {', '.join(o.id for o in offers)}"
    return offer, term
