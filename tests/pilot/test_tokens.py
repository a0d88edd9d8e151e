"""Pilot flows of the Tokens screen: masked list, create (value shown once), delete.

Create and delete go through the write path: the form is a `TokenForm` dialog (errors
at their fields, the server's message under them), a token deleted elsewhere is said
to be gone, a delete whose reply was lost is read back and never resent, and a delete
confirmed after the target account changed is not sent.
"""

from __future__ import annotations

import asyncio
import html
from typing import Any

from textual.screen import Screen
from textual.widgets import Input, Label, TextArea

from tests.helpers import fail_once, settle, shown, sim_of
from vagent_tui.api.errors import ApiError, RequestTimeout
from vagent_tui.api.models import mask_secret
from vagent_tui.ui.dialogs import ConfirmModal
from vagent_tui.ui.screens.tokens import TokensScreen
from vagent_tui.ui.widgets.entry_forms import TokenForm
from vagent_tui.ui.widgets.form import FormField
from vagent_tui.ui.widgets.new_token import NewTokenModal
from vagent_tui.ui.widgets.record_table import RecordTable

PATH = "/api/v2/tokens"


def tokens_of(app: Any, account_id: int) -> dict[str, dict[str, Any]]:
    return {k: v for k, v in sim_of(app).tokens.items() if v["userId"] == account_id}


def cells(screen: Any) -> list[list[str]]:
    table = screen.query_one("#tokens-table", RecordTable)
    return [[str(c) for c in table.get_row_at(i)] for i in range(table.row_count)]


def status_text(screen: Any) -> str:
    return str(screen.status.content)


def notes(app: Any) -> list[str]:
    return [n.message for n in app._notifications]


def screen_text(app: Any) -> str:
    """What the terminal shows (the SVG export, with its entities decoded)."""
    return html.unescape(app.export_screenshot()).replace("\xa0", " ")


def field(screen: Screen[Any], name: str) -> FormField:
    return screen.query_one(f"#field-{name}", FormField)


def form_error(form: Any) -> str:
    return str(form.query_one("#form-error", Label).content)


async def highlight(screen: Any, token: str) -> None:
    row = [r[0] for r in cells(screen)].index(mask_secret(token))
    screen.query_one("#tokens-table", RecordTable).move_cursor(row=row)


async def test_list_is_masked_and_complete(make_app: Any) -> None:
    app = make_app("tokens")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, TokensScreen)
        assert type(screen).__name__ == "TokensScreen"
        mine = tokens_of(app, 1000)
        rows = cells(screen)
        assert len(rows) == len(mine) == 2
        masked = {row[0] for row in rows}
        assert masked == {mask_secret(t) for t in mine}
        for row in rows:
            assert row[2] == "admin" and row[4] == "1000"
            assert row[3].endswith("UTC")
        assert {row[1] for row in rows} == {"Demo token", "CRM sync"}
        rendered = screen_text(app)
        for token in mine:  # (the header names the demo profile, "demo · demo-partner")
            assert token not in rendered.replace("demo · demo-partner", "")
        [request] = [r for r in sim_of(app).requests if r.path == PATH]
        assert request.method == "GET" and "targetAccountId" not in request.query
        assert "2 tokens" in status_text(screen)


async def test_create_shows_the_value_once_then_forgets_it(make_app: Any) -> None:
    app = make_app("tokens")
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settle(pilot)
        screen = shown(app, TokensScreen)
        before = set(tokens_of(app, 1000))
        await pilot.press("a")
        await pilot.pause()
        form = app.screen
        assert isinstance(form, TokenForm)
        assert form.focused is form.query_one("#form-description", Input)
        await pilot.press(*"Nightly export", "enter")
        await settle(pilot)
        [value] = set(tokens_of(app, 1000)) - before
        assert sim_of(app).tokens[value]["description"] == "Nightly export"
        assert sim_of(app).tokens[value]["type"] == "admin"
        [post] = [r for r in sim_of(app).requests if r.method == "POST" and r.path == PATH]
        assert post.body == {"type": "admin", "description": "Nightly export"}

        modal = app.screen
        assert isinstance(modal, NewTokenModal)
        assert modal.query_one("#new-token-value", TextArea).text == value
        text = screen_text(app)
        assert "will not be shown again" in text
        assert value in text  # so the sentinel below can see a value when one is shown
        await pilot.press("y")
        await pilot.pause()
        assert app.clipboard == value
        assert "Copied new token to the clipboard" in notes(app)
        await pilot.press("escape")
        await settle(pilot)

        assert shown(app, TokensScreen) is screen
        # The list refreshed: the new token is there, masked.
        rows = cells(screen)
        assert len(rows) == 3
        assert [mask_secret(value), "Nightly export"] in [row[:2] for row in rows]
        assert sim_of(app).count("GET", PATH) == 2
        # Sentinel: the full value is nowhere any more but in the list's records.
        for text in [screen_text(app), status_text(screen), *notes(app)]:
            assert value not in text
            assert value[:12] not in text
        assert app.clipboard != value
        assert modal._value == ""
        held = [k for k, v in vars(screen).items() if isinstance(v, str) and value in v]
        assert held == []


async def test_create_server_error_keeps_the_input(make_app: Any, monkeypatch: Any) -> None:
    app = make_app("tokens")
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settle(pilot)
        screen = shown(app, TokensScreen)

        async def boom(*_args: Any, **_kwargs: Any) -> Any:
            raise ApiError(500, "boom")

        monkeypatch.setattr(app.connection.api, "create_token", boom)
        count = len(sim_of(app).tokens)
        await pilot.press("a", *"Nightly export", "enter")
        await settle(pilot)
        form = app.screen
        assert isinstance(form, TokenForm)  # the form stays, with the server's message
        assert "HTTP 500: boom" in form_error(form)
        assert form.query_one("#form-description", Input).value == "Nightly export"
        assert len(sim_of(app).tokens) == count
        # Enter again retries with what was typed.
        monkeypatch.undo()
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, NewTokenModal)
        await pilot.press("escape")
        await settle(pilot)
        assert shown(app, TokensScreen) is screen
        assert len(sim_of(app).tokens) == count + 1


async def test_create_unknown_outcome_reads_back_and_never_resends(
    make_app: Any, monkeypatch: Any
) -> None:
    app = make_app("tokens")
    original = app.connection.api.create_token

    async def lost(*args: Any, **kwargs: Any) -> Any:
        await original(*args, **kwargs)  # made on the platform; the reply never came
        raise RequestTimeout("The platform did not answer in time", method="POST", url=PATH)

    monkeypatch.setattr(app.connection.api, "create_token", lost)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("a", *"lost reply", "enter")
        await settle(pilot)
        form = app.screen
        assert isinstance(form, TokenForm)
        error = form_error(form)
        assert "did not answer" in error and "Read back" in error
        assert "a token with this description exists now" in error
        assert sim_of(app).count("POST", PATH) == 1  # never resent
        assert sim_of(app).count("GET", PATH) >= 2  # read back (and the list reloaded)


async def test_escape_cancels_the_form(make_app: Any) -> None:
    app = make_app("tokens")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = shown(app, TokensScreen)
        await pilot.press("a", *"draft", "escape")
        await settle(pilot)
        assert shown(app, TokensScreen) is screen
        assert screen.focused is screen.query_one("#tokens-table")
        assert sim_of(app).count("POST", PATH) == 0


async def test_delete_after_confirmation(make_app: Any) -> None:
    app = make_app("tokens")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, TokensScreen)
        [crm] = [t for t, v in tokens_of(app, 1000).items() if v["description"] == "CRM sync"]
        row = [r[0] for r in cells(screen)].index(mask_secret(crm))
        screen.query_one("#tokens-table", RecordTable).move_cursor(row=row)
        await pilot.press("d")
        await pilot.pause()
        modal = app.screen
        assert isinstance(modal, ConfirmModal)
        assert mask_secret(crm) in modal.body_text and "CRM sync" in modal.body_text
        assert crm not in modal.body_text
        assert "console is using" not in modal.body_text
        await pilot.press("y")  # y goes ahead, as the confirm button does
        await settle(pilot)
        assert crm not in sim_of(app).tokens
        [delete] = [r for r in sim_of(app).requests if r.method == "DELETE"]
        assert delete.path == PATH
        assert len(cells(screen)) == 1
        assert "Token deleted successfully" in status_text(screen)
        assert "1 token" in status_text(screen)


async def test_deleting_the_key_in_use_warns(make_app: Any) -> None:
    app = make_app("tokens")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, TokensScreen)
        row = [r[0] for r in cells(screen)].index(mask_secret("demo-partner"))
        screen.query_one("#tokens-table", RecordTable).move_cursor(row=row)
        await pilot.press("d")
        await pilot.pause()
        assert "This is the key this console is using" in app.screen.body_text
        await pilot.press("escape")


async def test_delete_server_error_offers_a_retry(make_app: Any, monkeypatch: Any) -> None:
    app = make_app("tokens")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, TokensScreen)
        fail_once(monkeypatch, app.connection.api, "delete_token", ApiError(500, "boom"))
        await pilot.press("d")
        await pilot.pause()
        await pilot.click("#confirm")
        await settle(pilot)
        assert "HTTP 500: boom" in status_text(screen) and "press d to retry" in status_text(screen)
        assert len(tokens_of(app, 1000)) == 2


async def test_delete_unknown_outcome_reads_back_and_never_resends(
    make_app: Any, monkeypatch: Any
) -> None:
    app = make_app("tokens")
    original = app.connection.api.delete_token

    async def lost(*args: Any, **kwargs: Any) -> Any:
        await original(*args, **kwargs)  # deleted on the platform; the reply never came
        raise RequestTimeout("The platform did not answer in time", method="DELETE", url=PATH)

    monkeypatch.setattr(app.connection.api, "delete_token", lost)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, TokensScreen)
        [crm] = [t for t, v in tokens_of(app, 1000).items() if v["description"] == "CRM sync"]
        await highlight(screen, crm)
        await pilot.press("d")
        await pilot.pause()
        await pilot.click("#confirm")
        await settle(pilot)
        status = status_text(screen)
        assert f"Read back now: token {mask_secret(crm)} is deleted." in status, status
        assert "press d to retry" not in status
        assert crm not in status
        assert sim_of(app).count("DELETE", PATH) == 1
        assert len(cells(screen)) == 1  # the list shows what the platform holds


async def test_no_token_highlighted_is_said_on_the_status_line(make_app: Any) -> None:
    app = make_app("tokens")
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settle(pilot)
        screen = shown(app, TokensScreen)
        screen.table.clear()
        await pilot.press("d")
        await pilot.pause()
        assert "No token highlighted" in status_text(screen)
        assert not isinstance(app.screen, ConfirmModal)
        assert notes(app) == []


async def test_follows_the_target_account(make_app: Any) -> None:
    app = make_app("tokens")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, TokensScreen)
        app.select_target(1111)
        await settle(pilot)
        theirs = tokens_of(app, 1111)
        assert {r[0] for r in cells(screen)} == {mask_secret(t) for t in theirs}
        assert {r[4] for r in cells(screen)} == {"1111"}
        last = [r for r in sim_of(app).requests if r.path == PATH][-1]
        assert last.query.get("targetAccountId") == "1111"
        # Create goes to the target too.
        await pilot.press("a", *"agent key", "enter")
        await settle(pilot)
        assert isinstance(app.screen, NewTokenModal)
        await pilot.press("escape")
        await settle(pilot)
        assert len(tokens_of(app, 1111)) == len(theirs) + 1
        assert len(cells(screen)) == len(theirs) + 1


async def test_list_error_then_retry(make_app: Any, monkeypatch: Any) -> None:
    app = make_app("tokens")
    fail_once(monkeypatch, app.connection.api, "list_tokens", ApiError(500, "boom"))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, TokensScreen)
        assert "HTTP 500: boom" in status_text(screen)
        assert "press r to retry" in status_text(screen)
        await pilot.press("r")
        await settle(pilot)
        assert len(cells(screen)) == 2
        assert "2 tokens" in status_text(screen)


async def test_a_second_enter_while_creating_does_not_lose_the_value(
    make_app: Any, monkeypatch: Any
) -> None:
    app = make_app("tokens")
    original = app.connection.api.create_token

    async def slow(*args: Any, **kwargs: Any) -> Any:
        record = await original(*args, **kwargs)
        await asyncio.sleep(0.3)  # created on the server, reply not yet shown
        return record

    monkeypatch.setattr(app.connection.api, "create_token", slow)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("a", *"twice", "enter")
        await pilot.pause(0.1)
        await pilot.press("enter")  # must not cancel the first request
        await pilot.pause(0.5)
        await settle(pilot)
        assert sim_of(app).count("POST", PATH) == 1
        assert isinstance(app.screen, NewTokenModal)
