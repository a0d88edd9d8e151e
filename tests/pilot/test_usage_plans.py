"""The Usage plans panel's money keys, wired: ``u`` subscribes to a plan the reads
listed, ``C`` cancels the subscription; each asks what it costs or stops, the plan id
typed, and sends once (the outcomes of a spend: tests/unit/ui/test_spends.py)."""

from __future__ import annotations

from typing import Any

from textual.widgets import Input, Static

from tests.helpers import MakeApp, settle, shown, sim_of
from vagent_tui.ui.dialogs import PromptModal
from vagent_tui.ui.screens.usage import UsageScreen

LEADS = 1121  # Harbor Realty Leads, on Pro (49 USD a month)


def _sent(app: Any, path: str) -> list[Any]:
    return [r.body for r in sim_of(app).requests if r.path == f"/api/v2{path}"]


def _said(app: Any) -> str:
    return " ".join(str(s.render()) for s in app.screen.query(Static))


async def _type(pilot: Any, text: str) -> None:
    pilot.app.screen.query_one(Input).value = text
    await pilot.press("enter")
    await settle(pilot)


async def test_subscribe_and_cancel_ask_the_cost_and_the_plan_typed_and_send_once(
    make_app: MakeApp,
) -> None:
    app = make_app("usage", account=LEADS)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot)
        await pilot.press("u")  # the panel is closed: says where plans change
        assert "press p, then u" in str(shown(app, UsageScreen).status.content)
        await pilot.press("p")
        await settle(pilot)
        await pilot.press("u")
        await settle(pilot)
        assert isinstance(app.screen, PromptModal)
        await _type(pilot, "gold")  # not a plan listed: refused in the dialog
        assert "Not a plan listed: starter, pro, enterprise" in _said(app)
        await _type(pilot, "pro")  # the plan and term held already: refused, nothing sent
        assert "Already on Pro (pro) by the month: nothing to buy" in _said(app)
        await _type(pilot, "enterprise year")
        said = _said(app)
        assert "Enterprise at 499 USD a month per the catalog; by the year: 5988 USD a" in said
        assert "(499 USD a month per the catalog x 12)" in said
        assert "an upgrade from pro (Pro): 49 USD a month: charged at once, prorated" in said
        await _type(pilot, "enterpris")  # the plan id typed wrong: nothing sent
        assert _sent(app, "/product/subscribe") == [] and isinstance(app.screen, PromptModal)
        await _type(pilot, "enterprise")
        assert _sent(app, "/product/subscribe") == [{"productPlanId": "enterprise", "term": "year"}]
        assert sim_of(app).accounts[LEADS].plan == "enterprise"
        assert "Subscribed to Enterprise" in str(shown(app, UsageScreen).status.content)

        await pilot.press("C")
        await settle(pilot)
        assert isinstance(app.screen, PromptModal)  # the reason, then the details
        app.screen.query_one(Input).value = "too dear"
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        said = _said(app)
        assert "Enterprise at 499 USD a month" not in said  # what stops, not a price
        # Held by the year: not the catalog's monthly price; the reason typed said too.
        assert "Enterprise (enterprise) by the year stops" in said and "a month" not in said
        assert "(reason: too dear)" in said
        assert "This stops a charge on the bill." in said and "spends money" not in said
        await pilot.press("escape")  # ESC only cancels: nothing sent
        await settle(pilot)
        assert _sent(app, "/product/cancel") == []
        await pilot.press("C")
        await settle(pilot)
        await _type(pilot, "")
        await _type(pilot, "moving")
        await _type(pilot, "enterprise")
        assert _sent(app, "/product/cancel") == [{"details": "moving"}]
        assert sim_of(app).accounts[LEADS].plan == "starter"
