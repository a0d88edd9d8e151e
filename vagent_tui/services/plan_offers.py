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
from vagent_tui.services.plans import PlanPart, plan_id, plan_lines, plan_name, record_groups
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


def _year_line(offer: PlanOffer) -> str:
    """What a year of ``offer`` costs: a monthly price times 12, said as such (a yearly
    price as it is; a price or cycle the catalog does not say, said so)."""
    cycle = offer.cycle.strip().lower()
    if cycle in ("year", "yearly", "annual", "annually"):
        return f"by the year: {offer.price_line}"
    price = as_number(offer.price)
    if price is None or cycle not in ("month", "monthly"):
        return (
            f"by the year: the catalog's price ({offer.price_line}) is not said by the "
            "month, so a year's amount is not worked out"
        )
    money = f"{price * 12:f} {_short(offer.currency)}".strip()
    return f"by the year: {money} a year ({offer.price_line} per the catalog x 12)"


def subscribe_cost(offer: PlanOffer, term: str, current: PlanOffer | None) -> str:
    """What subscribing to ``offer`` costs, in the catalog's words, and when it is charged
    (the reference: an upgrade is charged at once, prorated); by the year, the amount a
    year (a monthly price times 12)."""
    said = f"{_short(offer.name or offer.id)} at {offer.price_line} per the catalog"
    if term == "year":
        said += f"; {_year_line(offer)}"
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


def cancel_cost(current: PlanOffer | None, held: Held) -> str:
    """What cancelling stops: the plan held, by the term the current plan says; the
    catalog's price only when the catalog lists it by that term (a plan bought by the
    year is not "49 USD a month")."""
    if current is not None and (not held.term or term_of(current.cycle) == held.term):
        what = current.label
    else:
        what = (held.shown or "the current plan") + held.by
    return f"{what} stops; the platform does not say what is refunded"


TERMS = ("month", "year")
_TERM_WORDS = {"monthly": "month", "annual": "year", "annually": "year", "yearly": "year"}


def term_of(cycle: str) -> str:
    """A catalog's billing cycle as a term (``Monthly``: ``month``), else "" ."""
    word = cycle.strip().lower()
    word = _TERM_WORDS.get(word, word)
    return word if word in TERMS else ""


def held_term(reply: OpenReply | None) -> str:
    """The term the account's plan is held by (``month``, ``year``) where the current
    plan's reply says it (``term``, else ``billingCycle``), else ""."""
    if reply is None:
        return ""
    lines = dict(plan_lines(reply))
    for key in ("term", "billingCycle"):
        said = lines.get(key, "").strip().lower()
        if said:
            return said if said in TERMS else ""
    return ""


@dataclass(frozen=True)
class Held:
    """The plan the account is on, as the current plan's reply said it: its catalog id,
    the term ("" when not said) and its name."""

    id: str = ""
    term: str = ""
    name: str = ""

    @staticmethod
    def of(reply: OpenReply | None) -> Held:
        """What ``reply`` (the current plan's) says the account holds."""
        return Held(plan_id(reply), held_term(reply), plan_name(reply))

    @property
    def shown(self) -> str:
        """``Pro (pro)``, the name alone, or the id alone."""
        name, ident = _short(self.name), _short(self.id)
        return f"{name} ({ident})" if name and ident and name != ident else (name or ident)

    @property
    def by(self) -> str:
        """`` by the month``, or "" when the term is not said."""
        return f" by the {self.term}" if self.term else ""


def subscribed_back(reply: OpenReply, offer: PlanOffer, term: str, before: Held) -> str:
    """A lost subscribe's read-back: whether the account is on ``offer`` by ``term`` now,
    the current plan read again against what was asked and what it held before."""
    now = Held.of(reply)
    asked = f"{_short(offer.name or offer.id)} ({term})"
    if not (now.id or now.name):
        return (
            f"The current plan's reply names no plan: whether {asked} was bought is not "
            "known; look at the plans panel (p) before asking again."
        )
    if now.id != offer.id:
        if now.id == before.id:
            return f"Still on {now.shown}{now.by}: nothing was bought ({asked} was asked)."
        return f"Not subscribed to {asked}: the account is on {now.shown}{now.by} now."
    if now.term == term:
        return f"Subscribed: on {now.shown} ({term})."
    if not now.term:
        if before.id != offer.id:
            return (
                f"Subscribed: on {now.shown}; the reply does not say the term ({term} was asked)."
            )
        return (
            f"On {now.shown}, as before; the reply does not say the term, so whether the "
            f"{term} term was bought is not known: look at the plans panel (p)."
        )
    if before.id == offer.id and before.term == now.term:
        return f"Still on {now.shown} by the {now.term}: nothing was bought ({asked} was asked)."
    return f"Subscribed: on {now.shown}, but by the {now.term}, not the {term} asked."


def cancelled_back(reply: OpenReply, before: Held) -> str:
    """A lost cancel's read-back: whether the subscription is cancelled, the current plan
    read again against the one held when it was asked."""
    now = Held.of(reply)
    if not (now.id or now.name):
        return (
            "The current plan's reply names no plan: whether the subscription is cancelled "
            "is not known; look at the plans panel (p) before asking again."
        )
    if (now.id or now.name) != (before.id or before.name):
        return f"Cancelled: the account is on {now.shown} now, not {before.shown}."
    return (
        f"Not cancelled: still on {now.shown}{now.by} (the platform may keep a plan to the "
        "end of its period: look at the plans panel, p, before asking again)."
    )


def choose(
    text: str, offers: Sequence[PlanOffer], held: Held | None = None
) -> tuple[PlanOffer, str] | str:
    """The plan and term typed as ``<plan id> [month|year]`` (month when left out), or
    why not (a plan the reads did not list is refused before anything is asked; so is
    the plan and term the account ``held`` already)."""
    words = text.split()
    if not words or len(words) > 2:
        return "Type a plan id, then month or year (month when left out)"
    term = words[1].lower() if len(words) == 2 else "month"
    if term not in TERMS:
        return "The term is month or year"
    offer = next((o for o in offers if o.id == words[0]), None)
    if offer is None:
        return f"Not a plan listed: {', '.join(o.id for o in offers)}"
    if held is not None and held.id == offer.id and held.term == term:
        return f"Already on {held.shown or offer.id} by the {term}: nothing to buy, nothing sent"
    return offer, term
