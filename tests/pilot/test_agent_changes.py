"""Pilot flows of changing an agent: voice, functions, settings, diff, publish, revert,
save and restore, someone else's change meanwhile, and read-only profiles."""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot
from textual.widgets import DataTable, Input, Static, TextArea

from tests.helpers import MakeApp, known, settle, shown, wait_for
from vagent_tui.ui.dialogs import DiffModal, ReviewModal
from vagent_tui.ui.screens.agent import AgentScreen
from vagent_tui.ui.screens.settings import SettingsScreen
from vagent_tui.ui.widgets.form import FormField

AGENT = 1111  # elevenlabs-rachel, en-US, no S2S engine; staging set
EMPTY = 1113  # staging empty


def sim_of(app: Any) -> Any:
    return app.connection.api.sim_app.state.sim


def posts(app: Any, path: str = "/api/v2/agent") -> list[Any]:
    return [r for r in sim_of(app).requests if r.method == "POST" and r.path == path]


def status_text(app: Any) -> str:
    return str(app.screen.query_one("#status", Static).content)


def review_text(app: Any) -> str:
    return "\n".join(str(s.content) for s in app.screen.query(Static))


async def highlight(pilot: Pilot[None], table_id: str, key: str) -> None:
    table = pilot.app.screen.query_one(table_id, DataTable)
    keys = [str(k.value) for k in table.rows]
    table.move_cursor(row=keys.index(key))
    await pilot.pause()


async def until_review(pilot: Pilot[None]) -> Any:
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, ReviewModal | DiffModal))
    await pilot.pause()
    return pilot.app.screen


# --------------------------------------------------------------------------- voices


async def test_use_a_voice_shows_the_change_and_writes_staging(make_app: MakeApp) -> None:
    app = make_app("voices", account=AGENT)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await highlight(pilot, "#voices-table", "openai-ash")
        await pilot.press("u")
        await until_review(pilot)
        text = review_text(app)
        assert '"elevenlabs-rachel" (Rachel) → "openai-ash" (Ash)' in text
        assert not posts(app)  # nothing sent before the confirmation
        await pilot.press("y")
        await wait_for(pilot, lambda: posts(app))
        assert posts(app)[0].body == {"agentVoice": "openai-ash"}
        assert sim_of(app).staging[AGENT]["agentVoice"] == "openai-ash"
        assert sim_of(app).live[AGENT]["agentVoice"] == "elevenlabs-rachel"
        await wait_for(pilot, lambda: "saved" in status_text(app))


async def test_a_voice_that_does_not_fit_is_refused_with_its_reason(make_app: MakeApp) -> None:
    app = make_app("voices", account=AGENT)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await highlight(pilot, "#voices-table", "gemini-charon")
        await pilot.press("u")
        await wait_for(pilot, lambda: "Refused" in status_text(app))
        assert "has no standard TTS" in status_text(app)
        assert not posts(app)


# --------------------------------------------------------------------------- functions


async def test_switch_a_function_on_keeps_the_other_entries(make_app: MakeApp) -> None:
    app = make_app("functions", account=AGENT)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        before = sim_of(app).staging[AGENT]["actions"]
        await highlight(pilot, "#functions-table", "sendEmail")
        await pilot.press("space")
        await until_review(pilot)
        assert "+ actions[sendEmail]" in review_text(app)
        await pilot.press("y")
        await wait_for(pilot, lambda: posts(app))
        sent = posts(app)[0].body["actions"]
        assert [a["name"] for a in sent] == [a["name"] for a in before] + ["sendEmail"]
        for old, new in zip(before, sent, strict=False):
            assert new["instructions"] == old["instructions"]
            assert new.get("placeholder") == old.get("placeholder")


async def test_a_function_not_allowed_or_over_its_limit_is_refused(make_app: MakeApp) -> None:
    app = make_app("functions", account=AGENT)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await highlight(pilot, "#functions-table", "pauseRecording")
        await pilot.press("space")
        await wait_for(pilot, lambda: "Refused" in status_text(app))
        assert "retired" in status_text(app)
        await highlight(pilot, "#functions-table", "endCall")
        await pilot.press("a")
        await wait_for(pilot, lambda: "at most 1 allowed" in status_text(app))
        assert not posts(app)


async def test_edit_a_function_s_instructions(make_app: MakeApp) -> None:
    app = make_app("functions", account=AGENT)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await highlight(pilot, "#functions-table", "transferCall")
        await pilot.press("e")
        await wait_for(pilot, lambda: app.screen.query("#editor-area"))
        area = app.screen.query_one("#editor-area", TextArea)
        area.text = "Transfer billing questions to extension 22."
        await pilot.press("ctrl+s")
        await until_review(pilot)
        await pilot.press("y")
        await wait_for(pilot, lambda: posts(app))
        entry = next(a for a in posts(app)[0].body["actions"] if a["name"] == "transferCall")
        assert entry["instructions"] == "Transfer billing questions to extension 22."


# --------------------------------------------------------------------------- settings


async def open_settings(pilot: Pilot[None]) -> SettingsScreen:
    await pilot.press("E")
    await wait_for(pilot, lambda: type(pilot.app.screen).__name__ == "SettingsScreen")
    await wait_for(pilot, lambda: shown(pilot.app, SettingsScreen).built)
    return shown(pilot.app, SettingsScreen)


async def test_settings_bad_value_is_refused_at_its_field_and_nothing_sent(
    make_app: MakeApp,
) -> None:
    app = make_app("agent", account=AGENT)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = await open_settings(pilot)
        screen.query_one("#set-agentLang", Input).value = "english"
        await pilot.press("ctrl+s")
        await pilot.pause()
        field = screen.query_one("#field-agentLang", FormField)
        assert "language tag" in field.error
        assert not posts(app)
        assert screen.query_one("#set-agentLang", Input).value == "english"  # kept


async def test_settings_send_only_what_changed(make_app: MakeApp) -> None:
    app = make_app("agent", account=AGENT)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = await open_settings(pilot)
        screen.query_one("#set-speakingTimeout", Input).value = "900"
        await pilot.press("ctrl+s")
        await until_review(pilot)
        assert "speakingTimeout" in review_text(app) and "→ 900" in review_text(app)
        await pilot.press("y")
        await wait_for(pilot, lambda: posts(app))
        assert posts(app)[0].body == {"speakingTimeout": 900}
        await wait_for(pilot, lambda: type(app.screen).__name__ == "AgentScreen")
        await settle(pilot)
        # The form's status line went with it: the Agent screen says what was written.
        said = status_text(app)
        assert "Staging of" in said and "1 setting" in said, said


async def test_settings_platform_refusal_lands_at_the_field(make_app: MakeApp) -> None:
    app = make_app("agent", account=AGENT)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = await open_settings(pilot)
        screen.query_one("#set-agentSttEngine", Input).value = "whisper"  # the sim refuses it
        await pilot.press("ctrl+s")
        await until_review(pilot)
        await pilot.press("y")
        await wait_for(pilot, lambda: posts(app) and app.screen is screen)
        await wait_for(pilot, lambda: screen.query_one("#field-agentSttEngine", FormField).error)
        assert (
            "agentSttEngine must be one of"
            in screen.query_one("#field-agentSttEngine", FormField).error
        )
        assert screen.query_one("#set-agentSttEngine", Input).value == "whisper"


async def test_settings_escape_asks_before_losing_edits(make_app: MakeApp) -> None:
    app = make_app("agent", account=AGENT)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = await open_settings(pilot)
        screen.query_one("#set-speakingTimeout", Input).value = "901"
        await pilot.press("escape")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "ConfirmModal")
        await pilot.press("escape")  # cancel the discard: the form stays
        await wait_for(pilot, lambda: app.screen is screen)
        assert screen.query_one("#set-speakingTimeout", Input).value == "901"


# --------------------------------------------------------------------------- publish & co


async def test_diff_publish_and_live_changed(make_app: MakeApp) -> None:
    app = make_app("agent", account=AGENT)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        sim = sim_of(app)
        staged = sim.staging[AGENT]
        await pilot.press("D")
        await until_review(pilot)
        assert "live → staging" in review_text(app)
        await pilot.press("escape")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "AgentScreen")
        await pilot.press("P")
        await until_review(pilot)
        assert not posts(app, "/api/v2/agent/publish")
        await pilot.press("y")
        await wait_for(pilot, lambda: posts(app, "/api/v2/agent/publish"))
        assert sim.live[AGENT] == staged and sim.staging[AGENT] is None
        await wait_for(pilot, lambda: "Published" in status_text(app))


async def test_a_change_made_meanwhile_is_shown_and_asked_again(make_app: MakeApp) -> None:
    app = make_app("agent", account=AGENT)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        sim = sim_of(app)
        await pilot.press("P")
        await until_review(pilot)
        sim.edit_staging(AGENT, speakingTimeout=4321)  # someone else, while we look
        await pilot.press("y")
        await wait_for(pilot, lambda: isinstance(app.screen, ReviewModal)
                       and app.screen.query("#review-meanwhile"))  # fmt: skip
        assert "speakingTimeout" in str(app.screen.query_one("#review-meanwhile", Static).content)
        assert not posts(app, "/api/v2/agent/publish")  # asked again before sending
        await pilot.press("y")
        await wait_for(pilot, lambda: posts(app, "/api/v2/agent/publish"))
        assert sim.live[AGENT]["speakingTimeout"] == 4321


async def test_revert_empties_staging(make_app: MakeApp) -> None:
    app = make_app("agent", account=AGENT)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("X")
        await until_review(pilot)
        await pilot.press("y")
        await wait_for(pilot, lambda: posts(app, "/api/v2/agent/revert"))
        assert sim_of(app).staging[AGENT] is None


async def test_save_and_restore_a_version_into_staging_and_live(make_app: MakeApp) -> None:
    app = make_app("agent", account=EMPTY)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        sim = sim_of(app)
        await pilot.press("S")
        await wait_for(pilot, lambda: app.screen.query("#prompt-input"))
        app.screen.query_one("#prompt-input", Input).value = "Before the test"
        await pilot.press("enter")
        await wait_for(pilot, lambda: any(v["title"] == "Before the test"
                                          for v in sim.versions[EMPTY]))  # fmt: skip
        sim.live[EMPTY]["speakingTimeout"] = 1  # live moves on afterwards
        await settle(pilot)
        await pilot.press("v")
        await pilot.press("r")
        await settle(pilot)
        saved = next(v for v in sim.versions[EMPTY] if v["title"] == "Before the test")
        await highlight(pilot, "#agent-versions", str(saved["versionId"]))
        await pilot.press("o")
        await until_review(pilot)
        assert "speakingTimeout" in review_text(app)
        await pilot.press("y")
        await wait_for(pilot, lambda: sim.staging[EMPTY] is not None)
        assert sim.staging[EMPTY]["speakingTimeout"] == saved["snapshot"]["speakingTimeout"]
        await settle(pilot)
        await pilot.press("v")
        await highlight(pilot, "#agent-versions", str(saved["versionId"]))
        await pilot.press("L")
        review = await until_review(pilot)
        await pilot.press("enter")  # live wants the word typed first
        await pilot.pause()
        assert app.screen is review and sim.live[EMPTY]["speakingTimeout"] == 1
        review.query_one("#review-word", Input).value = "live"
        await pilot.press("enter")
        await wait_for(pilot, lambda: sim.live[EMPTY]["speakingTimeout"] != 1)


async def test_a_value_the_form_cannot_show_as_it_is_is_not_editable(make_app: MakeApp) -> None:
    app = make_app("agent", account=AGENT)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        sim_of(app).edit_staging(AGENT, description="two\nlines \x1b[2J", title="x" * 5000)
        screen = await open_settings(pilot)
        description = screen.query_one("#set-description", Input)
        assert description.disabled and "␛[2J" in description.value
        title = screen.query_one("#set-title", Input)
        assert not title.disabled and len(title.value) == 5000  # never cut
        screen.query_one("#set-speakingTimeout", Input).value = "901"
        await pilot.press("ctrl+s")
        await until_review(pilot)
        await pilot.press("y")
        await wait_for(pilot, lambda: posts(app))
        assert posts(app)[0].body == {"speakingTimeout": 901}


async def test_a_target_switch_during_a_review_sends_nothing(make_app: MakeApp) -> None:
    app = make_app("agent", account=AGENT)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        sim = sim_of(app)
        await pilot.press("P")
        await until_review(pilot)
        app.select_target(1112)  # lands while the review of 1111 is open
        await wait_for(pilot, lambda: app.connection.target_id == 1112)
        await pilot.press("y")
        await wait_for(pilot, lambda: "nothing was sent" in status_text(app))
        assert not posts(app, "/api/v2/agent/publish")
        assert sim.staging[1112] is not None  # the other agent untouched


async def test_a_staging_write_asks_again_when_staging_moved_during_the_review(
    make_app: MakeApp,
) -> None:
    app = make_app("voices", account=AGENT)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await highlight(pilot, "#voices-table", "openai-ash")
        await pilot.press("u")
        first = await until_review(pilot)
        sim_of(app).edit_staging(AGENT, speakingTimeout=4321)
        await pilot.press("y")
        await wait_for(
            pilot, lambda: app.screen is not first and isinstance(app.screen, ReviewModal)
        )
        assert "speakingTimeout" in str(app.screen.query_one("#review-meanwhile", Static).content)
        assert not posts(app)
        await pilot.press("y")
        await wait_for(pilot, lambda: posts(app))
        assert posts(app)[0].body == {"agentVoice": "openai-ash"}
        assert sim_of(app).staging[AGENT]["speakingTimeout"] == 4321  # theirs kept


async def test_the_settings_form_never_writes_back_over_someone_else_s_change(
    make_app: MakeApp,
) -> None:
    app = make_app("agent", account=AGENT)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = await open_settings(pilot)
        sim_of(app).edit_staging(AGENT, callerResponseTimeout=77)
        screen.action_reload()  # the form reads staging again, keeping what was typed
        await settle(pilot)
        screen.query_one("#set-speakingTimeout", Input).value = "900"
        await pilot.press("ctrl+s")
        await until_review(pilot)
        assert "callerResponseTimeout" in str(
            app.screen.query_one("#review-meanwhile", Static).content
        )
        await pilot.press("y")
        await wait_for(pilot, lambda: posts(app))
        assert posts(app)[0].body == {"speakingTimeout": 900}
        assert sim_of(app).staging[AGENT]["callerResponseTimeout"] == 77


async def test_discarding_edits_closes_the_form(make_app: MakeApp) -> None:
    app = make_app("agent", account=AGENT)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = await open_settings(pilot)
        screen.query_one("#set-speakingTimeout", Input).value = "5"
        await pilot.press("escape")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "ConfirmModal")
        await pilot.press("tab", "enter")  # Discard
        await wait_for(pilot, lambda: type(app.screen).__name__ == "AgentScreen")
        assert not posts(app)


async def test_a_version_s_diff_keeps_it_highlighted_for_the_restore(make_app: MakeApp) -> None:
    app = make_app("agent", account=1112)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("v")
        await pilot.press("down", "down")
        chosen = known(shown(app, AgentScreen).highlighted_version())
        await pilot.press("D")
        await until_review(pilot)
        await pilot.press("escape")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "AgentScreen")
        await settle(pilot)
        assert shown(app, AgentScreen).highlighted_version() is chosen
        await pilot.press("o")
        await until_review(pilot)
        assert chosen.title in review_text(app)


async def test_a_function_no_longer_allowed_leaves_with_the_change(make_app: MakeApp) -> None:
    app = make_app("functions", account=1112)  # its staging holds a retired function
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        staged = [a["name"] for a in sim_of(app).staging[1112]["actions"]]
        assert "pauseRecording" in staged
        await highlight(pilot, "#functions-table", "sendEmail")
        await pilot.press("space")
        await until_review(pilot)
        assert "pauseRecording is no longer allowed" in review_text(app)
        await pilot.press("y")
        await wait_for(pilot, lambda: posts(app))
        sent = [a["name"] for a in posts(app)[0].body["actions"]]
        assert "sendEmail" in sent and "pauseRecording" not in sent
        await wait_for(
            pilot, lambda: "saved" in status_text(app) or "functions" in status_text(app)
        )
        assert "sendEmail" in [a["name"] for a in sim_of(app).staging[1112]["actions"]]


async def test_live_moving_under_an_empty_staging_is_seen_before_writing(make_app: MakeApp) -> None:
    app = make_app("voices", account=EMPTY)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert sim_of(app).staging.get(EMPTY) is None
        await highlight(pilot, "#voices-table", "openai-ash")
        await pilot.press("u")
        first = await until_review(pilot)
        sim_of(app).live[EMPTY]["speakingTimeout"] = 1  # someone published meanwhile
        await pilot.press("y")
        await wait_for(
            pilot, lambda: app.screen is not first and isinstance(app.screen, ReviewModal)
        )
        assert "speakingTimeout" in str(app.screen.query_one("#review-meanwhile", Static).content)
        assert not posts(app)
