"""Journal screen: what the console changed, filtered, detailed, copied as curl."""

from __future__ import annotations

import contextlib
import json
import os
import stat
from typing import Any

from textual.widgets import Input, Select, Static

from tests.helpers import MakeApp, known, settle, shown
from vagent_tui.api.errors import ApiError
from vagent_tui.config import state_dir
from vagent_tui.services.journal import JournalEntry
from vagent_tui.ui.dialogs import ConfirmModal
from vagent_tui.ui.screens.base import BaseScreen
from vagent_tui.ui.screens.journal import JournalScreen
from vagent_tui.ui.screens.sip import SipScreen


def _status(app: Any) -> str:
    return str(shown(app, BaseScreen).status.content)


def _lines() -> list[dict[str, Any]]:
    path = state_dir() / "journal.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines()]


async def _changes(app: Any) -> None:
    """Three changes through the client, as a screen would make them."""
    client = app.connection.client
    await client.add_sip_entry("203.0.113.9", "office", target=1111)
    await client.add_webhook("https://hooks.example.com/x", "incoming", target=1111)
    with contextlib.suppress(ApiError):
        await client.delete_sip_entry("198.51.100.77", target=1111)  # not there: 404


async def test_every_mutating_request_is_journaled(make_app: MakeApp) -> None:
    app = make_app("sip")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert _lines() == []  # reads are never journaled
        await _changes(app)
        # and one through the screen itself: remove the highlighted entry
        screen = shown(app, SipScreen)
        ip = known(screen.highlighted).ip
        await pilot.press("d")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmModal)
        app.screen.dismiss(True)
        await settle(pilot)
    lines = _lines()
    assert [(line["method"], line["status"]) for line in lines] == [
        ("POST", 201),
        ("POST", 201),
        ("DELETE", 404),
        ("DELETE", 200),
    ]
    assert lines[0]["path"] == "/api/v2/sip/ipWhitelist"
    assert lines[0]["target"] == 1111
    assert lines[0]["body"] == {"ip": "203.0.113.9", "label": "office"}
    assert lines[0]["profile"] == "demo · demo-partner"
    assert lines[2]["message"]
    assert lines[3]["body"] == {"ip": ip}
    assert all("token" not in json.dumps(line).lower() for line in lines)
    path = state_dir() / "journal.jsonl"
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600


async def test_empty_journal_says_so(make_app: MakeApp) -> None:
    app = make_app("journal")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = shown(app, JournalScreen)
        assert isinstance(screen, JournalScreen)
        assert screen.has_class("-empty")
        assert "No change journaled yet" in str(screen.query_one("#journal-empty", Static).content)


async def test_table_filters_detail_and_live_update(make_app: MakeApp) -> None:
    app = make_app("journal")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await _changes(app)
        await settle(pilot)
        screen = shown(app, JournalScreen)
        assert isinstance(screen, JournalScreen)
        assert screen.table.row_count == 3  # appeared while showing
        assert screen.shown[0].method == "DELETE"  # newest first
        detail = str(screen.query_one("#journal-detail", Static).render())
        assert "198.51.100.77" in detail and "404" in detail

        method: Select[str] = screen.query_one("#journal-method", Select)
        method.value = "POST"
        await settle(pilot)
        assert [e.method for e in screen.shown] == ["POST", "POST"]
        screen.query_one("#journal-status", Select).value = "failed"
        await settle(pilot)
        assert screen.shown == []
        assert "No entry matches" in str(screen.query_one("#journal-detail", Static).render())
        await pilot.press("x")
        await settle(pilot)
        assert len(screen.shown) == 3

        await pilot.press("slash")
        await pilot.press(*"hooks")
        await settle(pilot)
        assert [e.path for e in screen.shown] == ["/api/v2/webhooks"]
        await pilot.press("escape")
        await pilot.press("x")
        screen.query_one("#journal-status", Select).value = "failed"
        await settle(pilot)
        assert [e.status for e in screen.shown] == [404]


async def test_profile_filter(make_app: MakeApp) -> None:
    app = make_app("journal")
    journal = app.journal
    for profile in ("work", "prod", "work"):
        journal.append(
            JournalEntry(
                "2025-11-20T11:00:00.000+00:00",
                profile,
                "POST",
                "/api/v2/tokens",
                None,
                {"type": "admin", "description": "x"},
                200,
                "ok",
            )
        )
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, JournalScreen)
        choice: Select[str] = screen.query_one("#journal-profile", Select)
        assert len(screen.shown) == 3
        choice.value = "prod"
        await settle(pilot)
        assert [e.profile for e in screen.shown] == ["prod"]


async def test_copy_as_curl(make_app: MakeApp) -> None:
    app = make_app("journal")
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settle(pilot)
        with contextlib.suppress(ApiError):
            await app.connection.api.delete_sip_entry("203.0.113.9", target=1111)
        await settle(pilot)
        await pilot.press("y")
        await pilot.pause()
        assert app.clipboard == (
            'curl -X DELETE "$VAGENT_BASE_URL/api/v2/sip/ipWhitelist?token=$VAGENT_TOKEN'
            "&targetAccountId=1111\" -H 'Content-Type: application/json' "
            '--data \'{"ip":"203.0.113.9"}\''
        )
        assert "Copied as curl" in _status(app)
        assert "demo-partner?" not in app.clipboard


async def test_secrets_stay_masked_in_table_detail_and_curl(make_app: MakeApp) -> None:
    app = make_app("journal")
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settle(pilot)
        record = await app.connection.api.create_token("journal test")
        await app.connection.api.delete_token(record.token)
        from vagent_tui.api.models import AdrExportConfig

        adr = AdrExportConfig(
            delivery_protocol="sftp", host="sftp.example.com", port=22,
            username="u", password="pa55-SECRET-word",
        )  # fmt: skip
        await app.connection.api.set_adr_export(adr, target=1110)
        await settle(pilot)
        screen = shown(app, JournalScreen)
        text = json.dumps([e.body for e in screen.entries])
        assert record.token not in text and "pa55-SECRET-word" not in text
        assert record.token not in (state_dir() / "journal.jsonl").read_text()
        assert screen.shown[0].path.endswith("adrExportConfig")
        detail = str(screen.query_one("#journal-detail", Static).render())
        assert "secrets masked" in detail and "pa55" not in detail
        await pilot.press("y")
        await pilot.pause()
        assert '"password":"***"' in app.clipboard
        assert "masked secrets" in _status(app)
        # the deleted token is named by its last four characters at most
        delete = screen.shown[1]
        assert delete.method == "DELETE" and delete.body["token"].endswith(record.token[-4:])
        assert record.token not in app.clipboard


async def test_text_filter_input_keeps_typed_text(make_app: MakeApp) -> None:
    app = make_app("journal")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"[bold]x")
        await settle(pilot)
        assert app.screen.query_one("#journal-text", Input).value == "[bold]x"
