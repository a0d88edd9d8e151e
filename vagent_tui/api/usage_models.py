"""Usage and plan replies (``/stats/usage``, ``/product/*``, ``/tasks/dailyCounts``,
``/tasks/limits``) and the usage query.

The vendor publishes these replies only as "an object" (``success`` at most): no model
here names a field beyond that. `OpenReply` keeps every field as sent; reading numbers
out of it is `vagent_tui.services.usage`'s job, which guesses no shape.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any, Literal, Self

from pydantic import (
    ModelWrapValidatorHandler,
    PrivateAttr,
    ValidationInfo,
    field_validator,
    model_validator,
)

from vagent_tui.api.base import Resource
from vagent_tui.api.bounded import LeftOut, bounded
from vagent_tui.api.requests import Request


class OpenReply(Resource):
    """A reply whose shape is not published: ``success`` and everything else as sent,
    bounded (`vagent_tui.api.bounded`: the first entries of each object and list, the
    start of each long string); `left_out` says what was not kept."""

    success: Any = None
    _left_out: LeftOut = PrivateAttr(default_factory=LeftOut)

    @model_validator(mode="wrap")
    @classmethod
    def _bounded(cls, value: Any, handler: ModelWrapValidatorHandler[Self]) -> Self:
        left = LeftOut()
        if isinstance(value, Mapping):
            value, left = bounded(value)
        reply = handler(value)
        reply._left_out = left
        return reply

    @property
    def left_out(self) -> LeftOut:
        """What the reply held beyond the bounds: entries left out, strings cut."""
        return self._left_out

    def body(self) -> dict[str, Any]:
        """Every field as the platform spelt it, ``success`` and ``message`` left out."""
        sent = self.model_dump(by_alias=True, exclude_unset=True)
        return {k: v for k, v in sent.items() if k not in ("success", "message")}


class UsageQuery(Request):
    """``GET /stats/usage``'s query: a billing period or a date range, and how to cut it.

    A range (``start_date``, ``end_date``: either may be left out; the platform defaults
    them to the period's start and today) replaces the period. ``end_date`` before
    ``start_date`` is refused at ``end_date``.
    """

    billing_period: Literal["current", "previous"] = "current"
    start_date: date | None = None
    end_date: date | None = None
    frequency: Literal["day", "month", "year"] = "day"
    give_costs: bool = True
    timeseries: bool = True

    @field_validator("end_date")
    @classmethod
    def _ordered(cls, value: date | None, info: ValidationInfo) -> date | None:
        start = info.data.get("start_date")
        if value is not None and start is not None and value < start:
            raise ValueError("the end is before the start")
        return value

    @property
    def ranged(self) -> bool:
        return self.start_date is not None or self.end_date is not None

    def params(self) -> dict[str, Any]:
        """The query parameters (booleans as the transport writes them)."""
        out: dict[str, Any] = {
            "frequency": self.frequency,
            "giveCosts": self.give_costs,
            "timeseries": self.timeseries,
        }
        if self.start_date is not None:
            out["startDate"] = f"{self.start_date.isoformat()}T00:00:00.000Z"
        if self.end_date is not None:
            out["endDate"] = f"{self.end_date.isoformat()}T23:59:59.999Z"
        if not self.ranged:
            out["billingPeriod"] = self.billing_period
        return out
