"""Dead ends and untrue words (issue 24, section 5): each found by trying the console.

`all` in the rollout's accounts field, typing kept while a listing lands, ``r`` offered
only where a retry can help, digits that go to screens, a reply without its list, the
footer's way-around hint, and counted words.
"""

from __future__ import annotations

from typing import Any

from textual.widgets import Input, Static

from tests.helpers import settle, wait_for
from tests.pilot.test_rollout import AGENTS, VOICE, fill_form, planned, status_text
from vagent_tui.ui.widgets.rollout_form import RolloutForm


def status_of(app: Any) -> str:
    return str(app.screen.query_one("#status", Static).content)


# --------------------------------------------------------------------------- rollout: all


async def test_all_in_the_accounts_field_is_every_account_in_any_case(make_app: Any) -> None:
    app = make_app("rollout")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("c")
        await wait_for(pilot, lambda: isinstance(app.screen, RolloutForm))
        form_hint = app.screen.query_one("#rollout-accounts", Input).placeholder
        assert form_hint.startswith("all;")
        await pilot.press("escape")
        for said in ("all", "ALL", " All "):
            plan = await planned(pilot, voice=VOICE, accounts=said)
            assert [p.account_id for p in plan.accounts] == AGENTS, said
            assert "matching" not in str(plan.chosen)
            assert "press r" not in status_text(app)


async def test_all_beside_other_words_is_refused_at_the_field(make_app: Any) -> None:
    app = make_app("rollout")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await fill_form(pilot, voice=VOICE, accounts="all acme")
        form = app.screen
        assert isinstance(form, RolloutForm)
        errors = {f.name: f.error for f in form.query("FormField")}
        assert "all means every account" in str(errors["accounts"])
