"""Item shapes of the exports: ``get calls`` and ``get usage`` (`vagent_tui.commands.schemas`).

Values are as the platform sent them (a script gets the data; only a table makes it
inert). Usage numbers are exact decimal text (``"12.5000"``, every digit sent), as the
Usage screen's CSV writes them: a JSON number would be read as a float.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from vagent_tui.commands.schemas import Item


class CallItem(Item):
    """``get calls``: one entry of the call log, as the platform sent it (``GET /logs``,
    the Calls screen's JSON lines export).

    The platform publishes the entries as free-form: the fields below are those it sends
    (each may be absent, or only those ``--columns`` named are there), and any other field
    it sends is kept (the one shape here that allows more fields than it names).
    """

    model_config = ConfigDict(extra="allow", strict=True)

    id: Any = None
    timestamp: Any = None
    """When, as sent: ISO 8601 text, or epoch seconds or milliseconds."""
    account_id: Any = None
    org_id: Any = None
    eventType: Any = None
    type: Any = None
    """``call`` or ``sms``."""
    direction: Any = None
    """``inbound`` or ``outbound``."""
    status: Any = None
    agentOutcome: Any = None
    duration: Any = None
    """Seconds."""
    fromNumber: Any = None
    toNumber: Any = None
    contactName: Any = None
    roomId: Any = None
    uuid: Any = None
    summary: Any = None
    failureReason: Any = None
    metadata: Any = None


class SeriesPoint(Item):
    label: str
    """The point's period (``2025-11-03``, ``2025-11``) or its place (``1``)."""
    value: str
    """Exact decimal text."""


class UsageItem(Item):
    """``get usage`` of an agent account: one key of its usage reply (a row of the Usage
    screen's table)."""

    account_id: int | None
    """The account acted as (null: the key owner's own, when it was not read)."""
    key: str
    """The key's path in the reply, wrappers dropped (``minutes``, ``cost:minutes``)."""
    kind: Literal["usage", "cost"]
    value: str | None
    """Exact decimal text; the sum of the series when ``summed``."""
    unit: str
    """The unit the key's name states (``min``, ``s``, ``tokens``), or empty."""
    currency: str | None
    """A cost's currency, when the reply stated one."""
    period: str
    """``current``, ``previous``, or the range asked, ``2025-11-01..2025-11-30`` (an end
    left empty is the platform's default)."""
    summed: bool
    """The platform sent no total for the key: ``value`` is its series' sum."""
    series: list[SeriesPoint]


class UsageFleetItem(Item):
    """``get usage`` at a partner, reseller or organization: one agent account below it
    (a line of the Usage screen's fleet table)."""

    account_id: int
    name: str
    plan: str | None
    """The plan's name (``—`` when none; ``?`` when the plan could not be read)."""
    status: Literal["ok", "error", "not asked"]
    error: str | None
    values: dict[str, str]
    """Each usage key the platform sent, exact decimal text (a key named as one of the
    CSV's own columns reads ``KEY (usage key)``)."""
    cost_total: str | None
    currency: str | None
    not_shown: int
    """Keys of the reply left out (past the columns a fleet keeps)."""
    unread: int
    """Parts of the reply that could not be read as numbers."""


SHAPES: dict[str, type[BaseModel]] = {
    "calls": CallItem,
    "usage": UsageItem,
    "usage-fleet": UsageFleetItem,
}
