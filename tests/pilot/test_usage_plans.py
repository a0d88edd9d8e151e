"""Pilot flows of the Usage screen's plans panel (``p``): the account's plan, the plan
offered to it, the plans available, the catalog and the add-ons, each read shown as the
keys and values the platform sends (CONTRACT choices 39 and 50 to 54 in the simulator;
the tests also give other shapes and replies with nothing usable)."""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets import Static

from tests.helpers import MakeApp, settle, shown, sim_of
from vagent_tui.api.errors import ApiError
from vagent_tui.api.usage_models import OpenReply
from vagent_tui.ui.screens.base import BaseScreen
from vagent_tui.ui.screens.usage import UsageScreen

NOW = 1_763_640_000.0  # 2025-11-20T12:00:00Z
AGENT = 1111
READS = ("/api/v2/product/currentPlan", "/api/v2/product/offeredPlan",
         "/api/v2/product/allAvailablePlans", "/api/v2/product/productCatalog",
         "/api/v2/addon/available")  # fmt: skip


def _panel(app: Any) -> str:
    return str(shown(app, UsageScreen).query_one("#usage-plans-text", Static).render())


def _status(app: Any) -> str:
    return str(shown(app, BaseScreen).status.content)


def _asked(app: Any, path: str) -> list[str | None]:
    return [r.query.get("targetAccountId") for r in sim_of(app).requests if r.path == path]


async def test_p_shows_every_plan_read_of_the_account_and_esc_closes(make_app: MakeApp) -> None:
    app = make_app("usage", account=AGENT, clock=lambda: NOW)
    sim_of(app).accounts[AGENT].plan = "pro"
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, UsageScreen)
        await pilot.press("p")
        await settle(pilot)
        assert screen.plans_shown and screen.has_class("-plans")
        for path in READS:
            assert _asked(app, path)[-1] == str(AGENT)  # each asked of the account
        text = _panel(app)
        for title in ("Current plan", "Offered", "Available plans", "Catalog", "Add-ons"):
            assert title in text
        assert "name: Pro" in text  # the plan
        assert "offeredPlan.name: Enterprise" in text  # the next one up
        assert "plans[3]  id: enterprise · name: Enterprise · price: 499" in text
        # a reseller's or partner's read: refused for an agent account, said at its part
        assert "not read: The product catalog needs a reseller or partner account" in text
        assert "addons[2]  id: numbers-5 · name: 5 more phone numbers · price: 10" in text
        assert "4 plan reads" in _status(app) and "not read: Catalog" in _status(app)
        assert not screen.query_one("#usage-body").display
        await pilot.press("escape")
        await settle(pilot)
        assert not screen.plans_shown and screen.query_one("#usage-body").display
        assert screen.table.has_focus
        assert app.connection.target_id == AGENT


async def test_at_a_partner_the_catalog_reads(make_app: MakeApp) -> None:
    app = make_app("usage", clock=lambda: NOW)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, rounds=200)
        await pilot.press("p")
        await settle(pilot)
        text = _panel(app)
        assert "catalog.currency: USD" in text
        assert "overage.minutes: 0.05" in text
        assert "not read" not in text and "5 plan reads" in _status(app)
        await pilot.press("p")  # p again closes it too
        await settle(pilot)
        screen = shown(app, UsageScreen)
        assert not screen.plans_shown and screen.fleet_mode and screen.fleet.matrix.has_focus


@pytest.mark.parametrize("broken", ["other", "nothing"])
async def test_replies_of_another_shape_or_with_nothing_usable(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch, broken: str
) -> None:
    app = make_app("usage", account=AGENT, clock=lambda: NOW)
    api = app.connection.api
    if broken == "other":
        bodies: dict[str, dict[str, Any]] = {
            "get_offered_plan": {"success": True, "data": {"offer": [
                {"planName": "Gold [b]", "monthly": "99.00", "perks": ["sms", "voice"]}]}},
            "get_available_plans": {"success": True, "items": {"gold": {"cost": 99}}},
            "get_available_addons": {"success": True, "addOns": [], "count": 0},
        }  # fmt: skip
    else:
        bodies = {
            "get_offered_plan": {"success": True},
            "get_available_plans": {"success": True},
            "get_available_addons": {"success": True},
        }

    def reply(body: dict[str, Any]) -> Any:
        async def read(*, target: int | None = None) -> OpenReply:
            return OpenReply.model_validate(body)

        return read

    for method, body in bodies.items():
        monkeypatch.setattr(api, method, reply(body))

    async def failing(*, target: int | None = None) -> Any:
        raise ApiError(500, "catalog down")

    monkeypatch.setattr(api, "get_product_catalog", failing)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("p")
        await settle(pilot)
        text = _panel(app)
        assert "not read: catalog down" in text
        assert "name: Enterprise" in text  # the current plan, from the simulator
        if broken == "other":
            # the keys as sent (less the `data` wrapper), a list of records a line each,
            # markup shown as text, an empty list as nothing
            assert "offer[1]  planName: Gold [b] · monthly: 99.00 · perks: sms, voice" in text
            assert "items.gold.cost: 99" in text
            assert "addOns: —" in text and "count: 0" in text
        else:
            assert text.count("(the reply has no field)") == 3
        assert "not read: Catalog" in _status(app)
