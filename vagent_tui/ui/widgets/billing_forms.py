"""The Billing screen's forms of a reseller's or partner's billing settings: the billing
system's configuration (``POST /billing/billingSystemConfig``, which replaces all of it:
reviewed whole before it is sent, its keys typed masked and never shown) and a new
billing period of an organization (``POST /billing/billingPeriod``, checked at its
fields: the notes say it is set on the day the current period ends, so it starts today).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError
from rich.text import Text
from textual import on
from textual.widgets import Select

from vagent_tui import crash
from vagent_tui.api.billing_models import (
    SECRET_FIELDS,
    BillingPeriodRequest,
    BillingSystemConfig,
    parse_day,
)
from vagent_tui.api.models import Request
from vagent_tui.ui.dialogs import ConfirmModal, ReviewModal
from vagent_tui.ui.text import inert
from vagent_tui.ui.widgets.entry_forms import FormErrors, FormModal, Send, text_input
from vagent_tui.ui.widgets.form import FormField, errors_by_field
from vagent_tui.ui.widgets.secret_input import SecretInput
from vagent_tui.ui.widgets.status import StatusReport
from vagent_tui.ui.writes import CANCELLED, Confirm

if TYPE_CHECKING:
    from vagent_tui.services.session import Connection

ReadStored = Callable[["Connection"], Awaitable[list[str]]]
"""Reads the stored configuration again (the platform's redacted read, as lines)."""

SYSTEMS = [("Stripe", "stripe"), ("Chargebee", "chargebee")]
LABELS = {
    "api_key": "API key",
    "publishable_key": "Publishable key",
    "webhook_signing_key": "Webhook signing key",
    "site": "Site",
    "webhook_username": "Webhook user name",
    "webhook_password": "Webhook password",
}
HINTS = {"site": "without chargebee.com"}


class BillingSystemForm(FormModal):
    """Stripe's or Chargebee's keys; the keys and the webhook password typed masked."""

    TITLE_TEXT = "Replace the billing system configuration"
    CONFIRM = "Review"

    def __init__(
        self,
        send: Send,
        *,
        stored: list[str],
        who: str,
        read_stored: ReadStored | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(send, subtitle=f"For {who}", **kwargs)
        self.stored = stored
        """What is stored, as the screen last read it."""
        self.who = who
        self.read_stored = read_stored
        """Reads it again before the review and just before the POST (None: not read)."""

    def make_fields(self) -> Iterable[FormField]:
        kinds: Select[str] = Select(
            SYSTEMS, value="stripe", allow_blank=False, id="form-billing-system-type", compact=True
        )
        yield FormField("Billing system", kinds, name="billing_system_type")
        for name, label in LABELS.items():
            ident = name.replace("_", "-")
            widget = (SecretInput(id=f"form-{ident}") if name in SECRET_FIELDS
                      else text_input(ident, ""))  # fmt: skip
            yield FormField(label, widget, name=name, hint=HINTS.get(name, ""))

    def on_mount(self) -> None:
        self._only_its_fields("stripe")

    @on(Select.Changed, "#form-billing-system-type")
    def _kind_changed(self, event: Select.Changed) -> None:
        event.stop()
        self._only_its_fields(str(event.value))

    def _only_its_fields(self, kind: str) -> None:
        """Only the fields the chosen system takes show (only they are sent)."""
        wanted = BillingSystemConfig.REQUIRED.get(kind, ())
        for field in self.fields:
            if field.name in LABELS:
                field.display = field.name in wanted

    def build_request(self) -> BillingSystemConfig:
        values = {name: self.value(name) for name in ("billing_system_type", *LABELS)}
        for name in SECRET_FIELDS:
            crash.remember_secret(values.get(name))  # masked in any crash report from now on
        kind = values["billing_system_type"]
        errors = dict.fromkeys(BillingSystemConfig.missing(kind, values), f"required for {kind}")
        if errors:
            raise FormErrors(errors)
        try:
            return BillingSystemConfig.model_validate(values)
        except ValidationError as exc:  # hide_input_in_errors: no key in the text
            raise FormErrors(errors_by_field(exc)) from None

    def confirm_for(self, request: Request) -> Confirm:
        assert isinstance(request, BillingSystemConfig)
        read_stored = self.read_stored
        if read_stored is None:
            return self._review(request, self.stored, moved=False)

        async def confirm() -> bool:
            """Stored now read again before the review and once more before the POST:
            when it moved meanwhile the review says so and asks again with it."""
            from vagent_tui.api.errors import PlatformError

            shown, asked = self.stored, False
            while True:
                try:
                    now = await read_stored(self.start)
                except PlatformError as exc:
                    again = f"Not sent: stored now could not be read again: {exc.message}"
                    self._say(StatusReport.error(again))
                    return False
                if now == shown and asked:
                    return True
                # The screen's own read failed or never came: a first read is no move.
                unread = any(line.startswith("not read") for line in shown)
                moved, shown = now != shown and (asked or not unread), now
                if not await self.app.push_screen_wait(self._review(request, now, moved=moved)):
                    self._say(StatusReport.info(CANCELLED))
                    return False
                asked = True

        return confirm

    def _review(
        self, request: BillingSystemConfig, stored: list[str], *, moved: bool
    ) -> ReviewModal:
        review = Text()
        review.append("Stored now (the platform's redacted read):\n", style="bold")
        for line in stored:
            review.append(f"  {inert(line)}\n")
        review.append("\nStored after (all of it; nothing of the above is kept):\n", style="bold")
        for key, value in request.journal().items():
            review.append(f"  {inert(key)}: {inert(str(value))}\n")
        meanwhile = (
            Text("The stored configuration changed meanwhile: stored now is as read again.")
            if moved
            else None
        )
        return ReviewModal(
            f"Replace the billing system of {self.who}",
            f"A POST replaces the whole configuration with {request.kind}'s. Keys are sent "
            "as typed, never shown, and the journal says only that they were set.",
            review,
            meanwhile=meanwhile,
            confirm_label="Replace",
            expected=request.billing_system_type,
        )


def _today() -> str:
    return datetime.now(UTC).date().isoformat()


class BillingPeriodForm(FormModal):
    """A new period of an organization: it starts today (UTC), it ends after that."""

    TITLE_TEXT = "Start a new billing period"
    CONFIRM = "Next"

    def __init__(self, send: Send, *, who: str, today: str = "", **kwargs: Any) -> None:
        super().__init__(
            send,
            subtitle=(
                f"For {who}. The platform sets it on the day the current period ends: "
                "the new one starts today (UTC). Reseller or partner keys only."
            ),
            **kwargs,
        )
        self.today = today or _today()
        self.who = who

    def make_fields(self) -> Iterable[FormField]:
        yield FormField(
            "Starts",
            text_input("start", "YYYY-MM-DD", self.today),
            name="start_date_timestamp",
            hint="today, UTC",
        )
        yield FormField(
            "Ends",
            text_input("end", "YYYY-MM-DD"),
            name="end_date_timestamp",
            hint="its last day, UTC",
        )

    def build_request(self) -> BillingPeriodRequest:
        errors: dict[str, str] = {}
        raw = {"start_date_timestamp": self.value("start_date_timestamp"), "end_date_timestamp": ""}
        raw["end_date_timestamp"] = self.value("end_date_timestamp")
        days: dict[str, int] = {}
        for name, text in raw.items():
            if not text.strip():
                errors[name] = "required"
                continue
            try:
                days[name] = parse_day(text, end=name == "end_date_timestamp")
            except ValueError as exc:
                errors[name] = str(exc)
        start = days.get("start_date_timestamp")
        if start is not None and BillingPeriodRequest.day_of(start) != self.today:
            errors["start_date_timestamp"] = (
                f"the day the current period ends: today, {self.today} (UTC)"
            )
        if errors:
            raise FormErrors(errors)
        try:
            return BillingPeriodRequest.model_validate(days)
        except ValidationError as exc:
            raise FormErrors({"end_date_timestamp": "after the start"}) from exc

    def confirm_for(self, request: Request) -> Confirm:
        assert isinstance(request, BillingPeriodRequest)
        start = BillingPeriodRequest.day_of(request.start_date_timestamp)
        end = BillingPeriodRequest.day_of(request.end_date_timestamp)
        return ConfirmModal(
            f"A new billing period for {self.who}?",
            f"From {start} to {end} (UTC; {request.start_date_timestamp} to "
            f"{request.end_date_timestamp} in seconds). The platform starts it now, in "
            "place of the period that ends today.",
            confirm_label="Start it",
        )
