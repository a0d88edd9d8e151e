"""Plans and billing: what the console sends to subscribe to a plan, cancel it, start a
new billing period and replace the billing system's configuration, and the redacted
configuration the platform reads back (``/product/subscribe``, ``/product/cancel``,
``/billing/billingPeriod``, ``/billing/billingSystemConfig``).

A billing system's keys are secrets: never in ``repr``, never in a journal body
(`BillingSystemConfig.journal`), never shown once typed.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, ClassVar, Literal

from pydantic import ConfigDict, Field, field_validator, model_validator

from vagent_tui.api.base import NullAsEmpty, Resource
from vagent_tui.api.errors import REDACTED
from vagent_tui.api.requests import Request

TERMS = ("month", "year")


class SubscribeRequest(Request):
    """``POST /product/subscribe``: a plan of the catalog and its term."""

    product_plan_id: str = Field(min_length=1)
    term: Literal["month", "year"] = "month"


class CancelRequest(Request):
    """``DELETE /product/cancel``: why (both optional, sent only when typed)."""

    reason: str = ""
    details: str = ""

    def wire(self) -> dict[str, Any]:
        return {k: v for k, v in super().wire().items() if v}


class BillingPeriodRequest(Request):
    """``POST /billing/billingPeriod``: a new period, its ends in epoch seconds.

    The notes say it is set on the day the current period ends: `on_the_day` says
    whether ``today`` is that day (the field is checked against it before sending).
    """

    start_date_timestamp: int = Field(ge=0)
    end_date_timestamp: int = Field(ge=0)

    @model_validator(mode="after")
    def _ordered(self) -> BillingPeriodRequest:
        if self.end_date_timestamp <= self.start_date_timestamp:
            raise ValueError("the end must be after the start")
        return self

    @staticmethod
    def day_of(seconds: int) -> str:
        """The UTC day of epoch ``seconds`` (YYYY-MM-DD)."""
        return datetime.fromtimestamp(seconds, UTC).date().isoformat()


def parse_day(text: str, *, end: bool = False) -> int:
    """A day typed as YYYY-MM-DD (or epoch seconds) as epoch seconds, UTC: the start of
    the day, or its last second with ``end``. ValueError names what is wrong."""
    text = text.strip()
    if text.isascii() and text.isdecimal():
        return int(text)
    try:
        day = datetime.strptime(text, "%Y-%m-%d").replace(tzinfo=UTC)
    except ValueError:
        raise ValueError("a day as YYYY-MM-DD (UTC) or epoch seconds") from None
    return int(day.timestamp()) + (86_399 if end else 0)


SECRET_FIELDS = ("api_key", "webhook_signing_key", "webhook_password")
"""Fields never shown, logged or journaled: the journal says only that they were set."""


class BillingSystemConfig(Request):
    """``POST /billing/billingSystemConfig``: the whole configuration (it replaces what
    is stored). Stripe needs its API, publishable and webhook signing keys; Chargebee
    its API and publishable keys, site, webhook user name and password (the notes)."""

    # hide_input_in_errors: a refusal's text never carries a key that was typed
    model_config = ConfigDict(str_strip_whitespace=False, hide_input_in_errors=True)

    REQUIRED: ClassVar[dict[str, tuple[str, ...]]] = {
        "stripe": ("api_key", "publishable_key", "webhook_signing_key"),
        "chargebee": (
            "api_key",
            "publishable_key",
            "site",
            "webhook_username",
            "webhook_password",
        ),
    }

    billing_system_type: Literal["stripe", "chargebee"]
    api_key: str = Field(default="", repr=False)
    publishable_key: str = ""
    webhook_signing_key: str = Field(default="", repr=False)
    site: str = ""
    webhook_username: str = ""
    webhook_password: str = Field(default="", repr=False)

    @field_validator("billing_system_type", mode="before")
    @classmethod
    def _lower(cls, value: Any) -> Any:
        return value.strip().lower() if isinstance(value, str) else value

    @field_validator("publishable_key", "site", "webhook_username", mode="before")
    @classmethod
    def _trim(cls, value: Any) -> Any:
        return value.strip() if isinstance(value, str) else value

    @model_validator(mode="after")
    def _complete(self) -> BillingSystemConfig:
        missing = self.missing(self.billing_system_type, self.model_dump())
        if missing:
            raise ValueError(f"required for {self.kind}: {', '.join(missing)}")
        return self

    @classmethod
    def missing(cls, kind: str, values: dict[str, Any]) -> list[str]:
        """The fields ``kind`` requires that ``values`` leave empty (a form marks each)."""
        return [name for name in cls.REQUIRED.get(kind, ()) if not str(values.get(name) or "")]

    @property
    def kind(self) -> str:
        """The billing system's name as people write it."""
        return "Stripe" if self.billing_system_type == "stripe" else "Chargebee"

    @property
    def fields(self) -> tuple[str, ...]:
        """The fields of its type, in order: only these are sent."""
        return ("billing_system_type", *self.REQUIRED[self.billing_system_type])

    def wire(self) -> dict[str, Any]:
        every = self.model_dump(by_alias=True, mode="json")
        return {k: v for k, v in every.items() if _snake(k) in self.fields}

    def journal(self) -> dict[str, Any]:
        """The body as journaled and shown: a secret is `REDACTED` (``***``, as every secret in
        the journal: its curl copy says so), which says it was set."""
        return {k: (REDACTED if _snake(k) in SECRET_FIELDS else v) for k, v in self.wire().items()}


def _snake(name: str) -> str:
    return "".join(f"_{c.lower()}" if c.isupper() else c for c in name)


class BillingSystem(Resource):
    """``GET /billing/billingSystemConfig``: the stored configuration, its credential
    values redacted by the platform (presence indicators that cannot be sent back)."""

    billing_system_type: NullAsEmpty = ""
