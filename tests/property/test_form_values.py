"""The entry forms' own mapping of typed values to a request, without the app.

What a form sends is its `build_request` of the values in its fields: a request model
built from them (`vagent_tui.ui.widgets.entry_forms.build`) or the errors at the fields.
Hypothesis draws the values here, thousands of times cheaper than typing them into a
running console; tests/property/test_forms.py drives each form in the app with a few
examples (the wiring: an error shown at its field and nothing sent, or exactly the
request built here sent once).
"""

from __future__ import annotations

from typing import Any, TypeVar

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.property import strategies as s
from vagent_tui.api.requests import Request, SipEntryRequest, TokenRequest, WebhookRequest
from vagent_tui.ui.widgets.entry_forms import (
    FormErrors,
    FormModal,
    SipEntryForm,
    TokenForm,
    WebhookForm,
)

F = TypeVar("F", bound=FormModal)


async def _unsent(*_: Any) -> None:
    raise AssertionError("a form is only built here, never sent")


def _built(form_class: type[F], values: dict[str, str]) -> Request | FormErrors:
    """What ``form_class`` makes of ``values`` typed into its fields."""
    form = form_class(_unsent)
    setattr(form, "value", values.__getitem__)  # noqa: B010  # its fields, as typed
    try:
        return form.build_request()
    except FormErrors as exc:
        return exc


def _model(model: type[Request], **values: Any) -> Request | None:
    try:
        return model(**values)
    except ValueError:
        return None


@given(ip=s.ips | s.bad_ips, label=s.labels)
def test_the_sip_form_sends_the_model_of_its_fields_or_says_why_at_the_ip(
    ip: str, label: str
) -> None:
    built = _built(SipEntryForm, {"ip": ip, "label": label})
    expected = _model(SipEntryRequest, ip=ip, label=label)
    if expected is None:
        assert isinstance(built, FormErrors) and built.errors.get("ip")
    else:
        assert isinstance(built, SipEntryRequest) and built.wire() == expected.wire()


@given(url=s.urls | s.bad_urls, kind=st.just("") | s.webhook_types, label=s.labels)
def test_the_webhook_form_sends_the_model_of_its_fields_or_says_why_at_one(
    url: str, kind: str, label: str
) -> None:
    built = _built(WebhookForm, {"url": url, "type": kind, "label": label})
    expected = _model(WebhookRequest, url=url, type=kind, label=label) if kind else None
    if expected is None:
        assert isinstance(built, FormErrors)
        assert built.errors.get("url") or built.errors.get("type")
        assert bool(built.errors.get("type")) or kind  # no type chosen: said at the type
    else:
        assert isinstance(built, WebhookRequest) and built.wire() == expected.wire()


@given(description=s.descriptions)
def test_the_token_form_sends_whatever_description_is_typed(description: str) -> None:
    """An empty description included (CONTRACT.md); the type is the form's default."""
    built = _built(TokenForm, {"description": description, "type": "admin"})
    assert isinstance(built, TokenRequest)
    assert built.wire() == TokenRequest(description=description).wire()


@pytest.mark.parametrize("form_class", [SipEntryForm, WebhookForm])
def test_a_blank_required_field_reads_required(form_class: type[FormModal]) -> None:
    built = _built(form_class, {"ip": " ", "url": "", "type": "", "label": ""})
    assert isinstance(built, FormErrors) and "required" in built.errors.values()
