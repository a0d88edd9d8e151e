"""Pilot flows of the agent review: R asks the platform, each suggestion shows beside the
text it would replace, t types one into the settings form (written only after its diff
and confirmation), the review is a read (allowed read-only, never journaled), and its
failure is shown with a retry."""

from __future__ import annotations

import io

from rich.console import Console
from textual.widgets import Static, TextArea

from tests.helpers import MakeApp, settle, shown, sim_of, wait_for
from vagent_tui.sim.faults import Faults
from vagent_tui.ui.dialogs import ReviewModal
from vagent_tui.ui.screens.review import ReviewScreen
from vagent_tui.ui.screens.settings import SettingsScreen

REVIEW = "/api/v2/agent/autoReviewAgentConfiguration"


def text_of(screen: ReviewScreen, selector: str) -> str:
    console = Console(width=300, file=io.StringIO(), record=True)
    console.print(screen.query_one(selector, Static).content)
    return console.export_text()


async def test_r_shows_each_suggestion_beside_the_current_text(make_app: MakeApp) -> None:
    app = make_app("agent", account=1111)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("R")
        await settle(pilot)
        screen = shown(app, ReviewScreen)
        whats = [row.what for row in screen.table.records]
        assert whats[:2] == ["Instructions", "Greeting"]
        assert "Action transferCall" in whats
        detail = text_of(screen, "#review-detail-text")
        assert "Instructions — now" in detail and "Instructions — suggested" in detail
        (request,) = [r for r in sim_of(app).requests if r.path == REVIEW]
        assert request.body == {"mode": "agent", "agentId": "cfg-1111"}
        assert request.query["targetAccountId"] == "1111"


async def test_t_types_the_suggestion_into_the_form_and_writes_after_the_diff(
    make_app: MakeApp,
) -> None:
    app = make_app("agent", account=1111)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        sim = sim_of(app)
        await pilot.press("R")
        await settle(pilot)
        screen = shown(app, ReviewScreen)
        suggested = screen.table.records[0].suggested
        await pilot.press("t")
        await settle(pilot)
        form = shown(app, SettingsScreen)
        await wait_for(pilot, lambda: form.built)
        assert form.query_one("#set-agentInstructions", TextArea).text == suggested
        writes = sim.count("POST", "/api/v2/agent")
        await pilot.press("ctrl+s")
        await settle(pilot)
        shown(app, ReviewModal)
        assert sim.count("POST", "/api/v2/agent") == writes  # nothing before the answer
        await pilot.press("y")
        await settle(pilot)
        staging = sim.staging[1111]
        assert staging is not None and staging["agentInstructions"] == suggested


async def test_the_review_is_a_read_on_a_read_only_profile() -> None:
    from vagent_tui.services.connect import demo_client
    from vagent_tui.ui.app import VagentApp

    app = VagentApp(demo_client("demo-partner"), initial_screen="agent", initial_account=1111,
                    read_only=True)  # fmt: skip
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("R")
        await settle(pilot)
        screen = shown(app, ReviewScreen)
        assert screen.table.records  # asked and shown: a review changes nothing
        await pilot.press("t")  # taking one leads to a write: not on a read-only profile
        await settle(pilot)
        assert shown(app, ReviewScreen) is screen
        assert [r.path for r in sim_of(app).requests if r.method != "GET"] == [REVIEW]
        assert not [e for e in app.journal.read() if "autoReview" in e.path]


async def test_a_failed_review_says_so_and_r_asks_again(make_app: MakeApp) -> None:
    faults = Faults(kinds=["500"], path_contains="autoReview", remaining=3)
    app = make_app("agent", account=1111, faults=faults)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("R")
        await settle(pilot)
        screen = shown(app, ReviewScreen)
        assert "✗" in str(screen.status.content) and not screen.table.records
        await pilot.press("r")
        await settle(pilot)
        assert screen.table.records


async def test_r_in_the_publish_question_reviews_instead_and_sends_nothing(
    make_app: MakeApp,
) -> None:
    """Before publishing, R answers no and opens the platform's review of staging; the
    publish is asked again afterwards (P), never sent by R."""
    app = make_app("agent", account=1111)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        sim = sim_of(app)
        assert sim.staging[1111] is not None  # something to publish
        await pilot.press("P")
        await wait_for(pilot, lambda: isinstance(app.screen, ReviewModal))
        await pilot.press("R")
        await settle(pilot)
        shown(app, ReviewScreen)
        assert [r for r in sim.requests if r.path == REVIEW]
        assert not [r for r in sim.requests if r.path == "/api/v2/agent/publish"]
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("P")
        await wait_for(pilot, lambda: isinstance(app.screen, ReviewModal))
        await pilot.press("y")
        await wait_for(pilot, lambda: any(r.path == "/api/v2/agent/publish" for r in sim.requests))
        assert sim.staging[1111] is None


async def test_r_is_only_offered_in_the_publish_question(make_app: MakeApp) -> None:
    app = make_app("agent", account=1111)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("X")  # revert: the same question, without the review
        await wait_for(pilot, lambda: isinstance(app.screen, ReviewModal))
        modal = app.screen
        assert isinstance(modal, ReviewModal)
        assert modal.check_action("aside", ()) is False
        await pilot.press("R")
        await pilot.pause()
        assert app.screen is modal
        await pilot.press("escape")
        await settle(pilot)
        assert not [r for r in sim_of(app).requests if r.path == REVIEW]
