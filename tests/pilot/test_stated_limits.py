"""The console checks what the spec states, not limits of its own (issue 15, point 14).

A value past a limit the simulator chose (CONTRACT.md) is sent, and the platform's
answer is shown; a token may be created with an empty description (client and
simulator agree); a version title has no length limit of the console's own.
"""

from __future__ import annotations

from textual.widgets import Input

from tests.helpers import MakeApp, settle, shown, sim_of
from vagent_tui.ui.dialogs import PromptModal
from vagent_tui.ui.screens.billing import BillingScreen
from vagent_tui.ui.screens.tokens import TokensScreen
from vagent_tui.ui.widgets.new_token import NewTokenModal
from vagent_tui.ui.widgets.record_table import RecordTable

ADR = "/api/v2/billing/adrExportConfig"
TOKENS = "/api/v2/tokens"


async def test_a_long_adr_rotation_is_sent_and_the_platforms_answer_shown(
    make_app: MakeApp,
) -> None:
    app = make_app("billing")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, BillingScreen)
        typed = {"host": "files.example.com", "username": "adr", "password": "pw-1",
                 "rotation": "2880"}  # fmt: skip
        for name, text in typed.items():
            screen.query_one(f"#billing-{name}", Input).value = text
        await pilot.press("ctrl+s")
        await settle(pilot)
        await pilot.press("y")  # replacing the export is asked (write-only)
        await settle(pilot)
        sim = sim_of(app)
        assert sim.count("POST", ADR) == 1
        [save] = [r for r in sim.requests if r.path == ADR]
        assert save.body["rotationMinutes"] == "2880" and save.status == 400
        status = str(screen.status.content)
        assert "rotationMinutes must be a number of minutes between 1 and 1440" in status
        assert screen.query_one("#billing-rotation", Input).value == "2880"  # kept
        assert 1000 not in sim.adr


async def test_a_token_with_an_empty_description_is_created(make_app: MakeApp) -> None:
    app = make_app("tokens")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, TokensScreen)
        sim = sim_of(app)
        await pilot.press("a", "enter")  # the description left empty
        await settle(pilot)
        assert sim.count("POST", TOKENS) == 1
        [create] = [r for r in sim.requests if r.method == "POST" and r.path == TOKENS]
        assert create.body == {"type": "admin", "description": ""}
        modal = app.screen
        assert isinstance(modal, NewTokenModal)
        await pilot.press("escape")
        await settle(pilot)
        table = screen.query_one("#tokens-table", RecordTable)
        descriptions = [str(table.get_row_at(k)[1]) for k in range(table.row_count)]
        assert "—" in descriptions


async def test_a_long_version_title_is_sent(make_app: MakeApp) -> None:
    app = make_app("agent", account=1111)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("e")
        await pilot.pause()
        modal = app.screen
        assert isinstance(modal, PromptModal)
        modal.query_one(Input).value = "x" * 300
        await pilot.press("enter")
        await settle(pilot)
        sim = sim_of(app)
        [rename] = [r for r in sim.requests if r.method == "PUT"]
        assert rename.body == {"title": "x" * 300}
        # The simulator's own limit (CONTRACT.md) answers; the prompt opens again with it.
        assert rename.status == 400
        modal = app.screen
        assert isinstance(modal, PromptModal)
        assert "title must be at most 120 characters" in modal.body_text
        assert modal.query_one(Input).value == "x" * 300
