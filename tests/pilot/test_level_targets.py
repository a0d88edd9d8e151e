"""A resource scoped at a level is reached with that level's parameter (issue 15, point 12).

A partner key acting for reseller 1100 lists its templates, starts a migration and
watches it with ``targetResellerId`` (spec rule 9), never ``targetAccountId``; the ADR
export of a reseller or an organization goes with the parameter of its level.
"""

from __future__ import annotations

from typing import Any

from textual.widgets import Input, OptionList

from tests.helpers import MakeApp, settle, shown, sim_of, wait_for
from vagent_tui.ui.screens.billing import BillingScreen
from vagent_tui.ui.screens.migrations import MigrationsScreen

RESELLER = 1100


def requests(app: Any, path_part: str) -> list[Any]:
    return [r for r in sim_of(app).requests if path_part in r.path]


async def test_a_partner_reaches_a_resellers_templates_by_target_reseller_id(
    make_app: MakeApp,
) -> None:
    app = make_app("migrations", account=RESELLER, task_seconds=0.2)
    app.watcher.min_interval = 0.02
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, MigrationsScreen)
        assert screen.query_one("#mig-templates", OptionList).option_count == 3
        await pilot.press("s")  # a dry run of the first template
        await settle(pilot)
        await wait_for(pilot, lambda: all(t.final for t in app.watcher.tasks.values()))
        sent = requests(app, "/templates")
        assert {r.method for r in sent} == {"GET", "POST"}
        assert any("/templates/migrations/" in r.path for r in sent)  # the watch polled
        for request in sent:
            assert request.query.get("targetResellerId") == str(RESELLER), request
            assert "targetAccountId" not in request.query, request
            assert request.status == 200, request


async def test_the_adr_export_goes_with_the_parameter_of_its_level(make_app: MakeApp) -> None:
    app = make_app("billing", account=RESELLER)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, BillingScreen)
        for name, text in {"host": "files.example.com", "username": "adr",
                           "password": "pw-1"}.items():  # fmt: skip
            screen.query_one(f"#billing-{name}", Input).value = text
        await pilot.press("ctrl+s")
        await settle(pilot)
        await pilot.press("y")  # replacing the export is asked (write-only)
        await settle(pilot)
        [request] = requests(app, "/billing/adrExportConfig")
        assert request.query.get("targetResellerId") == str(RESELLER)
        assert "targetAccountId" not in request.query
        assert set(sim_of(app).adr) == {RESELLER}
