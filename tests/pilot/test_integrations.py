"""The Integrations screen, wired: a slug opened (and offered again), its data shown
with secrets masked, an edit reviewed before the PUT, secrets never on screen."""

from __future__ import annotations

import html
import json
from typing import Any

from textual.widgets import Input, TextArea

from tests.helpers import MakeApp, settle, shown, sim_of
from vagent_tui import crash
from vagent_tui.ui.dialogs import EditorModal, PromptModal, ReviewModal
from vagent_tui.ui.screens.integrations import IntegrationsScreen

AGENT = 1111
SECRETS = ("sk_test_1111", "whsec_1111")


def _text(app: Any) -> str:
    return html.unescape(app.export_screenshot()).replace("\xa0", " ")


def _puts(app: Any) -> list[Any]:
    return [r.body for r in sim_of(app).requests if r.method == "PUT"]


async def test_open_show_masked_edit_review_and_offer_the_slug_again(make_app: MakeApp) -> None:
    app = make_app("integrations", account=AGENT)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("e")  # nothing opened: says so, sends nothing
        assert "Open an integration" in str(shown(app, IntegrationsScreen).status.content)
        await pilot.press("o")
        await settle(pilot)
        assert isinstance(app.screen, PromptModal)
        app.screen.query_one(Input).value = "pay/ments"
        await pilot.press("enter")
        assert isinstance(app.screen, PromptModal)  # refused in the dialog
        app.screen.query_one(Input).value = "payments"
        await pilot.press("enter")
        await settle(pilot)
        said = _text(app)
        assert "secretKey" in said and "••••••••" in said and "https://pay.example/1111" in said
        assert not any(secret in said for secret in SECRETS)

        await pilot.press("e")
        await settle(pilot)
        assert isinstance(app.screen, EditorModal)
        area = app.screen.query_one(TextArea)
        assert not any(secret in area.text for secret in SECRETS)
        edited = json.loads(area.text)
        edited["currency"] = "EUR"
        area.text = json.dumps(edited)
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, ReviewModal) and _puts(app) == []
        said = _text(app)
        assert "- USD" in said and "+ EUR" in said
        rotated = "sk_ROTATED_1111"  # the key rotated meanwhile: read again before the PUT
        sim_of(app).integrations[AGENT]["payments/v1"]["secretKey"] = rotated
        await pilot.press("y")
        await settle(pilot)
        assert isinstance(app.screen, ReviewModal) and _puts(app) == []  # asked again
        said = _text(app)
        assert "Changed meanwhile" in said and "secretKey" in said and "(changed)" in said
        assert rotated not in said and "+ EUR" in said
        await pilot.press("y")
        await settle(pilot)
        data = sim_of(app).integrations[AGENT]["payments/v1"]
        assert data["currency"] == "EUR" and data["secretKey"] == rotated  # kept as held now
        assert len(_puts(app)) == 1 and "EUR" in _text(app)
        report = crash.redact(f"a crash report holding {rotated}")
        assert rotated not in report  # the secrets sent, kept or typed, are remembered

        await pilot.press("o")  # the slug used is offered again
        await settle(pilot)
        assert "Used before here: payments v1" in _text(app)
        assert app.screen.query_one(Input).value == "payments v1"


async def test_an_edit_refused_or_reviewed_no_opens_again_with_the_text_typed(
    make_app: MakeApp,
) -> None:
    """Text that is not JSON is said in the editor, which opens again on what was typed;
    a review answered no opens it again too. Nothing is sent until the review's yes."""
    app = make_app("integrations", account=AGENT)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("o")
        await settle(pilot)
        app.screen.query_one(Input).value = "payments"
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("e")
        await settle(pilot)
        edited = json.loads(app.screen.query_one(TextArea).text)
        edited["currency"] = "EUR"
        fixed = json.dumps(edited, indent=2)
        broken = fixed.rstrip()[:-1]  # the closing brace deleted
        app.screen.query_one(TextArea).text = broken
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, EditorModal), "the editor closed on text not JSON"
        assert app.screen.query_one(TextArea).text == broken
        assert "Not sent: not JSON" in _text(app) and _puts(app) == []

        app.screen.query_one(TextArea).text = fixed
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, ReviewModal)
        await pilot.press("n")
        await settle(pilot)
        assert isinstance(app.screen, EditorModal), "a review answered no lost the text"
        assert app.screen.query_one(TextArea).text == fixed
        assert "Your text is kept" in _text(app) and _puts(app) == []

        await pilot.press("ctrl+s")
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot)
        assert sim_of(app).integrations[AGENT]["payments/v1"]["currency"] == "EUR"
        assert len(_puts(app)) == 1

        await pilot.press("e")  # then escape: nothing sent, said
        await settle(pilot)
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, EditorModal) and len(_puts(app)) == 1
        assert "Cancelled" in str(shown(app, IntegrationsScreen).status.content)
