"""Snapshots of the ADR export form at 80x24 and 120x40: defaults, and field errors."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from tests.helpers import MakeApp, SnapCompare, settle
from tests.snapshots.sizes import Size, size_id, sizes
from vagent_tui.ui.screens.billing import BillingScreen
from vagent_tui.ui.widgets.entry_forms import FormModal


async def run_before(pilot: Pilot[None]) -> None:
    await settle(pilot)


async def run_before_errors(pilot: Pilot[None]) -> None:
    await settle(pilot)
    await pilot.press("ctrl+s")  # host, username and password are required
    await settle(pilot)


@pytest.mark.parametrize("size", sizes(BillingScreen), ids=size_id)
def test_billing(snap_compare: SnapCompare, make_app: MakeApp, size: Size) -> None:
    assert snap_compare(make_app("billing"), terminal_size=size, run_before=run_before)


def test_billing_errors_120x40(snap_compare: SnapCompare, make_app: MakeApp) -> None:
    app = make_app("billing")
    assert snap_compare(app, terminal_size=(120, 40), run_before=run_before_errors)


async def run_before_review(pilot: Pilot[None]) -> None:
    """The billing system's form filled and sent to its review: keys never shown."""
    await settle(pilot)
    await pilot.press("ctrl+g")
    await settle(pilot)
    form = pilot.app.screen
    assert isinstance(form, FormModal)
    for name, text in (("api-key", "sk_x"), ("publishable-key", "pk_1"),
                       ("webhook-signing-key", "whsec_x")):  # fmt: skip
        form.query_one(f"#form-{name}", Input).value = text
    form.submit()
    await settle(pilot)


def test_billing_system_review_80x24(snap_compare: SnapCompare, make_app: MakeApp) -> None:
    app = make_app("billing")
    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before_review)
