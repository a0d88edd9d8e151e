"""Pilot flows of the Voices browser: filters, text filter, detail, copy, target, errors."""

from __future__ import annotations

import io
from typing import Any

import pytest
from rich.console import Console
from textual.widgets import DataTable, Input, Select, Static

from tests.helpers import MakeApp, fail_once, focus_of, settle, shown, sim_of
from vagent_tui.api.errors import ApiError
from vagent_tui.ui.colours import FAILED
from vagent_tui.ui.screens.voices import VoicesScreen

ADVANCED = {"elevenlabs", "cartesia"}  # need a pro or enterprise plan in the simulator


def text_of(screen: Any, selector: str) -> str:
    console = Console(width=300, file=io.StringIO(), record=True)
    console.print(screen.query_one(selector, Static).content)
    return console.export_text()


def row_ids(screen: Any) -> list[str]:
    table = screen.query_one("#voices-table", DataTable)
    return [str(key.value) for key in table.rows]


def voices_requests(app: Any) -> list[Any]:
    sim = app.connection.api.sim_app.state.sim
    return [r for r in sim.requests if r.path == "/api/v2/agent/voices"]


async def test_table_lists_every_voice_with_count_and_detail(make_app: MakeApp) -> None:
    app = make_app("voices")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, VoicesScreen)
        assert type(screen).__name__ == "VoicesScreen"
        ids = row_ids(screen)
        assert len(ids) == 34 and ids[0] == "openai-alloy"
        assert text_of(screen, "#voices-count").strip() == "34 of 34 voices"
        # One request, without targetAccountId while acting as the key owner.
        [request] = voices_requests(app)
        assert "targetAccountId" not in request.query
        detail = text_of(screen, "#voices-detail")
        for expected in (
            "openai-alloy",
            "Alloy",
            "Neutral and balanced",
            "https://cdn.example.com/voices/openai-alloy.mp3",
            "https://cdn.example.com/voices/openai-alloy.png",
            "en-US, multi",
            "✓ available",
        ):
            assert expected in detail
        await pilot.press("j", "j")
        assert "openai-ballad" in text_of(screen, "#voices-detail")


async def test_each_filter_narrows(make_app: MakeApp) -> None:
    app = make_app("voices", account=1113)  # starter plan: advanced voices unavailable
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, VoicesScreen)
        voices = {v.id: v for v in screen.voices}

        language = screen.query_one("#voices-language", Select)
        assert ("es-MX", "es-MX") in [(str(p), v) for p, v in language._options]
        language.value = "es-MX"
        await pilot.pause()
        ids = row_ids(screen)
        assert ids and all("es-MX" in voices[i].languages for i in ids)
        assert len(ids) < 34
        assert text_of(screen, "#voices-count").strip() == f"{len(ids)} of 34 voices"
        language.clear()

        engine = screen.query_one("#voices-engine", Select)
        engine.value = "gemini"
        await pilot.pause()
        ids = row_ids(screen)
        assert ids == [i for i, v in voices.items() if "gemini" in v.compatible_s2_s_engines]
        assert "cartesia-sonic-sarah" in ids
        engine.clear()

        tts = screen.query_one("#voices-tts", Select)
        tts.value = False
        await pilot.pause()
        ids = row_ids(screen)
        assert ids and all(voices[i].supports_standard_tts is False for i in ids)
        tts.clear()

        avail = screen.query_one("#voices-avail", Select)
        avail.value = False
        await pilot.pause()
        ids = row_ids(screen)
        assert len(ids) == 6
        assert {voices[i].provider for i in ids} == ADVANCED
        # The reason is shown literally in the detail pane, with the glyph.
        detail = text_of(screen, "#voices-detail")
        assert "advanced_voice_required" in detail and "✗ unavailable" in detail
        # Filters combine: unavailable and Spanish.
        language.value = "es-US"
        await pilot.pause()
        assert row_ids(screen) == ["cartesia-sonic-mateo"]

        await pilot.press("x")  # clear every filter
        await pilot.pause()
        assert len(row_ids(screen)) == 34
        assert language.is_blank() and avail.is_blank()


async def test_unavailable_rows_have_a_glyph(make_app: MakeApp) -> None:
    app = make_app("voices", account=1113)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        table = app.screen.query_one("#voices-table", DataTable)
        cell = table.get_cell("elevenlabs-rachel", "avail")
        assert cell.plain.startswith("✗") and str(cell.style) == FAILED
        assert table.get_cell("openai-alloy", "avail").plain.startswith("✓")


async def test_text_filter_with_slash(make_app: MakeApp) -> None:
    app = make_app("voices")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, VoicesScreen)
        await pilot.press("slash")
        assert screen.focused is screen.query_one("#voices-text", Input)
        await pilot.press(*"spanish")
        await pilot.pause()
        ids = row_ids(screen)
        assert set(ids) == {
            "google-neural2-b",
            "azure-elvira",
            "azure-paloma",
            "cartesia-sonic-mateo",
            "deepgram-aura-celeste",
            "azure-dalia",
            "google-neural2-a",
        }  # the descriptions say "Spanish" (matching ignores case)
        assert text_of(screen, "#voices-count").strip() == "7 of 34 voices"
        await pilot.press("enter")
        assert focus_of(screen) is screen.query_one("#voices-table", DataTable)


async def test_copy_voice_id(make_app: MakeApp) -> None:
    app = make_app("voices")
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settle(pilot)
        await pilot.press("j", "y")
        await pilot.pause()
        assert app.clipboard == "openai-ash"
        assert any("Copied voice id" in n.message for n in app._notifications)


async def test_follows_the_target_account(make_app: MakeApp) -> None:
    app = make_app("voices")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, VoicesScreen)
        assert all(v.available for v in screen.voices)  # enterprise partner
        app.select_target(1113)  # starter plan
        await settle(pilot)
        unavailable = [v for v in screen.voices if not v.available]
        assert {v.provider for v in unavailable} == ADVANCED and len(unavailable) == 6
        assert voices_requests(app)[-1].query.get("targetAccountId") == "1113"
        app.select_target(1112)  # pro plan: everything available again
        await settle(pilot)
        assert all(v.available for v in screen.voices)


async def test_api_error_shown_and_retry(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app("voices")
    fail_once(monkeypatch, app.connection.api, "list_voices", ApiError(500, "boom"))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, VoicesScreen)
        status = text_of(screen, "#status")
        assert "HTTP 500: boom" in status and "press r to retry" in status
        assert row_ids(screen) == []
        await pilot.press("r")
        await settle(pilot)
        assert len(row_ids(screen)) == 34
        assert "boom" not in text_of(screen, "#status")


async def test_failed_load_after_a_switch_shows_no_stale_rows(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app("voices")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, VoicesScreen)
        assert len(row_ids(screen)) == 34

        async def refused(**kwargs: Any) -> Any:
            raise ApiError(403, "Target account is outside your hierarchy")

        monkeypatch.setattr(app.connection.api, "list_voices", refused)
        app.select_target(1113)
        await settle(pilot)
        assert row_ids(screen) == []
        assert "HTTP 403: Target account is outside your hierarchy" in text_of(screen, "#status")
        assert text_of(screen, "#voices-count").strip() == "0 of 0 voices"


async def test_connect_failure_is_explained_on_the_screen_and_r_reconnects(
    make_app: MakeApp,
) -> None:
    app = make_app("voices", token="not-a-key")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, VoicesScreen)
        status = text_of(screen, "#status")
        assert "Not connected: HTTP 401: Unauthorized Request" in status
        assert "needs replacing, not a retry" in status  # r would be refused the same way
        assert "Voices · not connected" in str(screen.query_one("#context-bar", Static).content)
        assert voices_requests(app) == []
        sim = sim_of(app)
        sim.tokens["not-a-key"] = sim.tokens["demo-partner"]  # the platform takes it now
        await pilot.press("r")
        await settle(pilot)
        assert app.connection.connected
        assert len(row_ids(screen)) == 34
        assert "34 voices" in text_of(screen, "#status")
