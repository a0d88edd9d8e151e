"""The rest of the Agent screen: the public link (``U``), asked only when asked, a new
slug lowercased and checked as it is typed, the old link said to stop working; a saved
version replaced with staging (``W``) after its diff; a test message (``M``), where its
answer goes and what the platform shows of it."""

from __future__ import annotations

from typing import Any

from textual.widgets import Input, Label

from tests.helpers import MakeApp, settle, sim_of, wait_for
from vagent_tui.ui.dialogs import ConfirmModal, ReviewModal, TextModal
from vagent_tui.ui.widgets.message_in_form import MessageInForm
from vagent_tui.ui.widgets.slug_prompt import SlugPrompt

AGENT = 1111


def _asked(app: Any, path: str) -> list[Any]:
    return [r for r in sim_of(app).requests if r.path.endswith(path)]


async def test_the_link_is_asked_for_then_replaced_after_the_question(make_app: MakeApp) -> None:
    app = make_app("agent", account=AGENT)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert _asked(app, "/agentUrl") == []  # never asked unless asked: it may make one
        await pilot.press("U")
        await settle(pilot)
        question = app.screen
        assert isinstance(question, ConfirmModal) and "makes one" in question.body_text
        await pilot.press("y")
        await settle(pilot)
        prompt = app.screen
        assert isinstance(prompt, SlugPrompt) and prompt.current == "acme-dental-front-desk"
        await pilot.press(*"New-Desk")
        await settle(pilot)
        assert prompt.query_one("#prompt-input", Input).value == "new-desk"  # as it is kept
        label = prompt.query_one("#slug-check", Label)
        await wait_for(pilot, lambda: "free" in str(label.content))  # after a pause in typing
        checks = _asked(app, "/checkAgentUrl")
        assert checks and all(c.query["slug"] == c.query["slug"].lower() for c in checks)
        assert checks[-1].query["slug"] == "new-desk"  # as it is sent
        await pilot.press("enter")
        await settle(pilot)
        question = app.screen
        assert isinstance(question, ConfirmModal)
        assert "acme-dental-front-desk, stops working" in question.body_text
        assert [r.method for r in _asked(app, "/agentUrl")] == ["GET"]
        await pilot.press("y")
        await settle(pilot)
        posts = [r for r in _asked(app, "/agentUrl") if r.method == "POST"]
        assert [r.body["slug"] for r in posts] == ["new-desk"]
        assert sim_of(app).agent_links[AGENT] == "new-desk"


async def test_a_saved_version_is_replaced_with_staging_after_its_diff(make_app: MakeApp) -> None:
    app = make_app("agent", account=AGENT)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("v", "s", "W")
        await settle(pilot)
        review = app.screen
        assert isinstance(review, ReviewModal) and "is lost" in review.intro
        await pilot.press("y")
        await settle(pilot)
        sim = sim_of(app)
        version = sim.versions[AGENT][0]
        assert version["snapshot"] == sim.staging[AGENT]


async def test_a_test_message_says_where_the_answer_goes_and_shows_it(make_app: MakeApp) -> None:
    app = make_app("agent", token="demo-reseller", account=AGENT)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("M")
        await settle(pilot)
        form = app.screen
        assert isinstance(form, MessageInForm)
        form.query_one("#form-source-address", Input).value = "+15551230001"
        form.query_one("#form-message", Input).value = "Open on Saturday?"
        form.submit()
        await settle(pilot)
        shown = app.screen
        assert isinstance(shown, TextModal)
        assert "the answer goes to the organization's default" in shown.text
        assert "Thanks for your message (“Open on Saturday?”)" in shown.text
