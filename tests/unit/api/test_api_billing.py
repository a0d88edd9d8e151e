"""Plans and billing on the wire (`vagent_tui.api.billing`): the request models, the
billing system's secrets kept out of repr, errors and the journal, the redacted read."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from tests.unit.api.conftest import MakeClient
from vagent_tui.api import billing_models as b
from vagent_tui.api.listeners import Exchange

from .helpers import Recorder, ok

SECRETS = ("sk_live_abcdef123456", "whsec_abcdef123456", "cb-password-123456")


def stripe(**changes: Any) -> b.BillingSystemConfig:
    return b.BillingSystemConfig.model_validate(
        {
            "billing_system_type": "Stripe",
            "api_key": SECRETS[0],
            "publishable_key": "pk_1",
            "webhook_signing_key": SECRETS[1],
            **changes,
        }
    )


def test_a_stripe_configuration_sends_only_its_fields_and_journals_no_secret() -> None:
    config = stripe(site="ignored", webhook_username="ignored")
    assert config.wire() == {"billingSystemType": "stripe", "apiKey": SECRETS[0],
                             "publishableKey": "pk_1", "webhookSigningKey": SECRETS[1]}  # fmt: skip
    assert config.journal() == {"billingSystemType": "stripe", "apiKey": "***",
                                "publishableKey": "pk_1", "webhookSigningKey": "***"}  # fmt: skip
    assert not any(secret in repr(config) for secret in SECRETS)


@pytest.mark.parametrize(
    ("kind", "given", "missing"),
    [
        ("stripe", {"api_key": SECRETS[0]}, ["publishable_key", "webhook_signing_key"]),
        ("chargebee", {"api_key": "k", "publishable_key": "p", "site": "vida"},
         ["webhook_username", "webhook_password"]),
    ],
)  # fmt: skip
def test_each_system_requires_its_own_fields_and_the_error_holds_no_secret(
    kind: str, given: dict[str, str], missing: list[str]
) -> None:
    assert b.BillingSystemConfig.missing(kind, given) == missing
    with pytest.raises(ValidationError) as caught:
        b.BillingSystemConfig.model_validate({"billing_system_type": kind, **given})
    assert SECRETS[0] not in str(caught.value) and ", ".join(missing) in str(caught.value)


def test_the_plan_requests() -> None:
    assert b.CancelRequest(reason=" too dear ").wire() == {"reason": "too dear"}
    with pytest.raises(ValidationError):
        b.SubscribeRequest(product_plan_id="pro", term="week")  # type: ignore[arg-type]
    with pytest.raises(ValidationError, match="the end must be after the start"):
        b.BillingPeriodRequest(start_date_timestamp=20, end_date_timestamp=20)
    assert b.parse_day("2027-01-15") == 1_799_971_200
    assert b.parse_day("2027-01-15", end=True) == 1_799_971_200 + 86_399
    with pytest.raises(ValueError, match="YYYY-MM-DD"):
        b.parse_day("15/01/2027")


async def test_the_journal_hears_the_configuration_without_its_secrets(
    make_client: MakeClient,
) -> None:
    heard: list[Exchange] = []
    recorder = Recorder(ok())
    client = make_client(recorder)
    client.observers.append(heard.append)
    await client.set_billing_system(stripe(), target=1100)
    assert SECRETS[0].encode() in recorder.requests[0].content  # sent as typed
    assert not any(secret in repr(heard) for secret in SECRETS)
    assert heard[0].body["apiKey"] == "***"


async def test_the_read_takes_the_redacted_configuration(make_client: MakeClient) -> None:
    reply = {"success": True, "billingSystemConfig": {"billingSystemType": "stripe",
                                                      "apiKey": "********"}}  # fmt: skip
    client = make_client(Recorder(ok(reply)))
    read = await client.get_billing_system(target=1100)
    assert read.billing_system_type == "stripe" and read.wire()["apiKey"] == "********"
