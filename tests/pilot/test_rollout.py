"""Pilot flows of the Rollout screen: choose, plan, apply, cancel and rerun, publish in
waves, a restart that resumes from disk, someone's edit meanwhile, Fleet marks, exports,
and read-only profiles.

Seed facts (vagent_tui/sim/seed.py): the demo partner has 13 voice agent accounts
(1111 ... 1322). Planned for the voice ``elevenlabs-antoni`` (the sim's seed): some will
change, some are refused (not available for the account, or no fit with its S2S engine).
"""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

import pytest
from textual.app import App
from textual.pilot import Pilot
from textual.widgets import Checkbox, DataTable, Input, Static

from tests.helpers import MakeApp, settle, shown, sim_of, wait_for
from vagent_tui.services.connect import demo_client
from vagent_tui.services.rollout import RolloutPlan
from vagent_tui.sim.state import SimState
from vagent_tui.ui.app import VagentApp
from vagent_tui.ui.dialogs import PromptModal, ReviewModal, TextModal
from vagent_tui.ui.screens.fleet import FleetScreen
from vagent_tui.ui.screens.rollout import RolloutScreen
from vagent_tui.ui.widgets.form import FormField
from vagent_tui.ui.widgets.rollout_form import RolloutForm
from vagent_tui.ui.widgets.rollout_saved import SavedRolloutsModal

AGENTS = [1111, 1112, 1113, 1121, 1122, 1211, 1212, 1221, 1222, 1311, 1312, 1321, 1322]
VOICE = "elevenlabs-antoni"
AGENT_POST = "/api/v2/agent"
PUBLISH = "/api/v2/agent/publish"


def no_drafts(sim: SimState) -> None:
    """Empty every agent's staging: the seed keeps unpublished drafts in some, and a
    rollout never publishes those (see test_drafts_are_noted_in_the_plan_and_never_published)."""
    for account_id in list(sim.staging):
        sim.staging[account_id] = None


def writes(app: App[Any], path: str = AGENT_POST) -> list[Any]:
    return [r for r in sim_of(app).requests if r.method == "POST" and r.path == path]


def targets(app: App[Any], path: str = AGENT_POST) -> list[int]:
    return [int(r.query["targetAccountId"]) for r in writes(app, path)]


def status_text(app: App[Any]) -> str:
    return str(app.screen.query_one("#status", Static).content)


def summary_text(app: App[Any]) -> str:
    return str(app.screen.query_one("#rollout-summary", Static).content)


def table(app: App[Any]) -> DataTable[Any]:
    return app.screen.query_one("#rollout-table", DataTable)


def cell(app: App[Any], account_id: int, column: str) -> str:
    return str(table(app).get_cell(str(account_id), column).plain)


def rollout(app: App[Any]) -> Any:
    screen = app.get_screen_stack("rollout")[0] if app.current_mode != "rollout" else app.screen
    return screen if type(screen).__name__ == "RolloutScreen" else app.screen_stack[0]


async def fill_form(pilot: Pilot[None], **fields: str) -> None:
    """Open the form (``c``) unless open, type each field, submit."""
    app = pilot.app
    if not isinstance(app.screen, RolloutForm):
        await pilot.press("c")
        await wait_for(pilot, lambda: isinstance(app.screen, RolloutForm))
    for name, value in fields.items():
        app.screen.query_one(f"#rollout-{name}", Input).value = value
    await pilot.pause()
    await pilot.press("enter")
    await pilot.pause()


async def planned(pilot: Pilot[None], **fields: str) -> RolloutPlan:
    await fill_form(pilot, **fields)
    app = pilot.app
    await wait_for(pilot, lambda: not isinstance(app.screen, RolloutForm))

    def ready() -> bool:
        screen = shown(app, RolloutScreen)
        return screen.plan is not None and not screen.phase

    await wait_for(pilot, ready)
    await pilot.pause()
    plan = shown(app, RolloutScreen).plan
    assert plan is not None
    return plan


async def confirm_review(pilot: Pilot[None], word: str | None = None) -> str:
    app = pilot.app
    await wait_for(pilot, lambda: isinstance(app.screen, ReviewModal))
    text = "\n".join(str(s.content) for s in app.screen.query(Static))
    if word is not None:
        app.screen.query_one("#review-word", Input).value = word
        await pilot.press("enter")
    else:
        await pilot.press("y")
    await wait_for(pilot, lambda: not isinstance(app.screen, ReviewModal))
    return text


async def answer_prompt(pilot: Pilot[None], value: str) -> None:
    app = pilot.app
    await wait_for(pilot, lambda: isinstance(app.screen, PromptModal))
    app.screen.query_one("#prompt-input", Input).value = value
    await pilot.press("enter")
    await pilot.pause()


async def run_done(pilot: Pilot[None]) -> None:
    await wait_for(pilot, lambda: not shown(pilot.app, RolloutScreen).phase and not any(
        w.is_running for w in pilot.app.workers if w.group.startswith("write-")))  # fmt: skip
    await pilot.pause()


# --------------------------------------------------------------------------- plan


async def test_plan_says_what_each_account_would_get_and_writes_nothing(make_app: MakeApp) -> None:
    app = make_app("rollout")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert "13 agent accounts · c chooses a change" in status_text(app)
        plan = await planned(pilot, voice=VOICE)
        assert [p.account_id for p in plan.accounts] == AGENTS
        outcomes = {p.account_id: p.outcome for p in plan.accounts}
        assert outcomes[1111] == "change" and outcomes[1113] == "refused"
        assert cell(app, 1111, "plan") == "will change"
        assert cell(app, 1111, "detail") == f'agentVoice: "elevenlabs-rachel" → "{VOICE}"'
        assert cell(app, 1113, "plan") == "refused"
        assert "not available for this account" in cell(app, 1113, "detail")
        counts = plan.counts()
        assert f"{counts['change']} will change" in summary_text(app)
        assert f"{counts['refused']} refused" in summary_text(app)
        assert "Nothing written" in status_text(app)
        assert not [r for r in sim_of(app).requests if r.method != "GET"]

        await pilot.press("o")  # only the accounts that will change
        shown = [int(str(k.value)) for k in table(app).rows]
        assert shown == [a for a in AGENTS if outcomes[a] == "change"]
        await pilot.press("o")  # only the refused ones
        assert {int(str(k.value)) for k in table(app).rows} == {
            a for a in AGENTS if outcomes[a] == "refused"
        }
        table(app).focus()
        await pilot.press("enter")  # the whole of one account's reasons
        await wait_for(pilot, lambda: isinstance(app.screen, TextModal))


async def test_bad_fields_are_refused_at_the_field_and_nothing_is_read(make_app: MakeApp) -> None:
    app = make_app("rollout")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await wait_for(pilot, lambda: shown(app, RolloutScreen).catalog.voices)
        sim_of(app).clear_log()
        await fill_form(
            pilot, voice="no-such-voice", functions="bookAppointment maybe",
            settings="speakingTimeout=soon", accounts="colour:red",
        )  # fmt: skip
        form = app.screen
        assert isinstance(form, RolloutForm)
        errors = {f.name: f.error for f in form.query(FormField)}
        assert "no voice has this id" in errors["voice"]
        assert "write <function> on" in errors["functions"]
        assert errors["settings"] == "speakingTimeout: a whole number is needed"
        assert "colour: is not a filter" in errors["accounts"]
        assert form.query_one("#rollout-voice", Input).value == "no-such-voice"  # kept
        await fill_form(pilot, voice="", functions="", settings="", accounts="")
        assert "Nothing to plan: the change sets nothing" in str(
            form.query_one("#rollout-form-error").render()
        )
        assert not sim_of(app).requests  # nothing planned


async def test_filter_by_words_and_current_voice(make_app: MakeApp) -> None:
    app = make_app("rollout")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        plan = await planned(pilot, settings="speakingTimeout=900", accounts="voice:azure-dalia")
        sim = sim_of(app)
        dalia = [a for a in AGENTS if (sim.staging.get(a) or sim.live[a]).get("agentVoice")
                 == "azure-dalia"]  # fmt: skip
        assert dalia and [p.account_id for p in plan.accounts] == dalia
        assert plan.left_out == len(AGENTS) - len(dalia)
        assert "left out by the filter" in summary_text(app)
        plan = await planned(pilot, accounts="acme")
        assert {p.name for p in plan.accounts} and all("Acme" in p.name for p in plan.accounts)


# --------------------------------------------------------------------------- apply, publish


async def test_apply_then_publish_in_two_waves_all_in_the_journal(make_app: MakeApp) -> None:
    app = make_app("rollout")
    no_drafts(sim_of(app))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        plan = await planned(pilot, voice=VOICE)
        will = [p.account_id for p in plan.accounts if p.outcome == "change"]
        await pilot.press("A")
        await wait_for(pilot, lambda: isinstance(app.screen, ReviewModal))
        assert not writes(app)  # nothing before the confirmation
        review = await confirm_review(pilot)
        assert f"Write the staging of {len(will)} accounts" in review
        await run_done(pilot)
        assert sorted(targets(app)) == sorted(will)  # once each, only those
        sim = sim_of(app)
        assert all((sim.staging[a] or {}).get("agentVoice") == VOICE for a in will)
        assert all(cell(app, a, "result") == "✓ written" for a in will)
        assert f"P publishes the {len(will)} written accounts" in status_text(app)

        await pilot.press("P")
        await answer_prompt(pilot, "2")
        review = await confirm_review(pilot, word="publish")
        assert f"{len(will) - 2} stay written for a later wave" in review
        await run_done(pilot)
        assert targets(app, PUBLISH) == will[:2] or sorted(targets(app, PUBLISH)) == will[:2]
        assert all(sim.live[a]["agentVoice"] == VOICE for a in will[:2])
        assert f"{len(will) - 2} written accounts wait" in status_text(app)

        await pilot.press("P")
        await answer_prompt(pilot, "all")
        await confirm_review(pilot, word="publish")
        await run_done(pilot)
        assert sorted(targets(app, PUBLISH)) == sorted(will)
        assert all(cell(app, a, "result") == "✓ published" for a in will)

        entries = app.journal.read()
        written = [e.target or 0 for e in entries if e.method == "POST" and e.path == AGENT_POST]
        published = [e.target or 0 for e in entries if e.path == PUBLISH]
        assert sorted(written) == sorted(will) and sorted(published) == sorted(will)


async def test_publish_needs_the_typed_word_and_escape_cancels(make_app: MakeApp) -> None:
    app = make_app("rollout")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await planned(pilot, voice=VOICE)
        await pilot.press("A")
        await confirm_review(pilot)
        await run_done(pilot)
        await pilot.press("P")
        await answer_prompt(pilot, "all")
        await wait_for(pilot, lambda: isinstance(app.screen, ReviewModal))
        await pilot.press("y")  # not enough: the word is asked
        assert isinstance(app.screen, ReviewModal)
        await pilot.press("escape")
        await pilot.pause()
        assert not writes(app, PUBLISH)


async def test_cancel_halfway_keeps_what_was_written_and_a_rerun_finishes(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("VAGENT_ROLLOUT_CONCURRENCY", "1")
    app = make_app("rollout", latency_ms=40)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, rounds=200)
        plan = await planned(pilot, settings="speakingTimeout=777")
        will = [p.account_id for p in plan.accounts if p.outcome == "change"]
        assert len(will) == 13
        await pilot.press("A")
        await confirm_review(pilot)
        await wait_for(pilot, lambda: len(writes(app)) >= 3)
        await pilot.press("x")
        await run_done(pilot)
        done = targets(app)
        assert 3 <= len(done) < len(will)
        log = shown(app, RolloutScreen).results_log
        assert log is not None
        assert sorted(log.written()) == sorted(done)  # every write sent has its result
        assert "Cancelled" in status_text(app) and "A writes the rest" in status_text(app)
        assert all(cell(app, a, "result") == "✓ written" for a in done)

        await pilot.press("A")
        review = await confirm_review(pilot)
        assert f"{len(done)} written by an earlier run are skipped" in review
        await run_done(pilot)
        assert sorted(targets(app)) == sorted(will)  # each account written exactly once


async def test_a_console_started_again_resumes_from_disk(make_app: MakeApp) -> None:
    first = make_app("rollout")
    sim_app = first.connection.api.sim_app  # type: ignore[attr-defined]
    no_drafts(sim_app.state.sim)
    async with first.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        plan = await planned(pilot, settings="speakingTimeout=901")
        await pilot.press("A")
        await confirm_review(pilot)
        await run_done(pilot)
        await pilot.press("P")
        await answer_prompt(pilot, "3")
        await confirm_review(pilot, word="publish")
        await run_done(pilot)
    sim = sim_app.state.sim
    assert sum(1 for r in sim.requests if r.path == PUBLISH) == 3

    again = VagentApp(demo_client(sim_app=sim_app), initial_screen="rollout")
    async with again.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert "1 unfinished rollout: l resumes" in status_text(again)
        await pilot.press("l")
        await wait_for(pilot, lambda: isinstance(again.screen, SavedRolloutsModal))
        await pilot.press("enter")
        await wait_for(pilot, lambda: shown(again, RolloutScreen).plan is not None)
        loaded = shown(again, RolloutScreen).plan
        assert loaded is not None and loaded.to_json() == plan.to_json()
        assert "13/13 written, 3 published" in status_text(again)
        assert cell(again, 1111, "result") == "✓ published"
        await pilot.press("P")
        await answer_prompt(pilot, "all")
        review = await confirm_review(pilot, word="publish")
        assert "Publish 10 accounts" in review
        await run_done(pilot)
    published = [int(r.query["targetAccountId"]) for r in sim.requests if r.path == PUBLISH]
    assert sorted(published) == AGENTS  # each once, across both consoles


async def test_staging_changed_since_the_plan_is_skipped_and_listed(make_app: MakeApp) -> None:
    app = make_app("rollout")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await planned(pilot, settings="speakingTimeout=902")
        sim_of(app).edit_staging(1112, agentLang="en-US")  # another admin, meanwhile
        await pilot.press("A")
        await confirm_review(pilot)
        await run_done(pilot)
        assert 1112 not in targets(app) and len(targets(app)) == 12
        assert cell(app, 1112, "result") == "⚠ changed"
        assert "staging changed since the plan" in cell(app, 1112, "detail")
        while shown(app, RolloutScreen).shown != "trouble":
            await pilot.press("o")
        assert [str(k.value) for k in table(app).rows] == ["1112"]


async def test_read_only_profile_plans_but_cannot_apply_or_publish() -> None:
    app = VagentApp(demo_client("demo-partner"), initial_screen="rollout", read_only=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await planned(pilot, voice=VOICE)
        screen = app.screen
        assert not screen.check_action("apply", ()) and not screen.check_action("publish", ())
        assert screen.check_action("plan", ()) and screen.check_action("export", ())
        await pilot.press("A")
        await pilot.press("P")
        await pilot.pause()
        assert not isinstance(app.screen, ReviewModal | PromptModal)
        assert not [r for r in sim_of(app).requests if r.method != "GET"]


async def test_rows_marked_in_fleet_are_the_rollouts_accounts(make_app: MakeApp) -> None:
    app = make_app("fleet")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("space", "down", "space")  # 1111, then (a mark moves down) 1113
        assert shown(app, FleetScreen).marked == (1111, 1113)
        assert "2 marked (R rolls out)" in str(app.screen.query_one("#fleet-summary").render())
        await pilot.press("R")
        await wait_for(pilot, lambda: isinstance(app.screen, RolloutForm))
        box = app.screen.query_one("#rollout-marked", Checkbox)
        assert box.value and "2 accounts marked in Fleet" in str(box.label)
        plan = await planned(pilot, settings="speakingTimeout=903")
        assert [p.account_id for p in plan.accounts] == [1111, 1113]


async def test_export_csv_with_results_and_json_that_opens_again(
    make_app: MakeApp, tmp_path: Path
) -> None:
    app = make_app("rollout")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        plan = await planned(pilot, voice=VOICE)
        await pilot.press("A")
        await confirm_review(pilot)
        await run_done(pilot)
        await pilot.press("w")
        await answer_prompt(pilot, str(tmp_path / "r.csv"))
        await pilot.press("w")
        await answer_prompt(pilot, str(tmp_path / "r.json"))
        await pilot.pause()
        rows = list(csv.DictReader(io.StringIO((tmp_path / "r.csv").read_text())))
        assert [int(r["account_id"]) for r in rows] == AGENTS
        by_id = {int(r["account_id"]): r for r in rows}
        assert by_id[1111]["write"] == "written" and by_id[1113]["outcome"] == "refused"
        assert "demo-partner" not in (tmp_path / "r.json").read_text()  # never the key

        await pilot.press("l")
        await wait_for(pilot, lambda: isinstance(app.screen, SavedRolloutsModal))
        await pilot.press("end", "enter")  # the last line: open a plan file
        await answer_prompt(pilot, str(tmp_path / "r.json"))
        await wait_for(pilot, lambda: "Loaded" in status_text(app))
        loaded = shown(app, RolloutScreen).plan
        assert loaded is not None and loaded.to_json() == plan.to_json()
        assert cell(app, 1111, "result") == "✓ written"  # its results came with it


async def test_an_agent_with_its_own_draft_is_written_but_not_published(make_app: MakeApp) -> None:
    app = make_app("rollout")
    sim = sim_of(app)
    no_drafts(sim)
    sim.edit_staging(1111, welcomeMessage="a draft someone has not published")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        plan = await planned(pilot, settings="speakingTimeout=905")
        (drafted,) = [p for p in plan.accounts if p.account_id == 1111]
        assert "other unpublished change" in " ".join(drafted.notes)
        await pilot.press("A")
        await confirm_review(pilot)
        await run_done(pilot)
        assert 1111 in targets(app)
        await pilot.press("P")
        await answer_prompt(pilot, "all")
        await confirm_review(pilot, word="publish")
        await run_done(pilot)
        assert 1111 not in targets(app, PUBLISH) and len(targets(app, PUBLISH)) == 12
        assert cell(app, 1111, "result") == "⚠ changed"
        assert "more than the rollout's change (welcomeMessage)" in cell(app, 1111, "detail")
        assert sim.live[1111]["welcomeMessage"] != "a draft someone has not published"


async def test_a_loaded_plan_is_planned_again_for_its_own_change_and_accounts(
    make_app: MakeApp,
) -> None:
    app = make_app("rollout")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await planned(pilot, settings="speakingTimeout=906", accounts="acme")
        await pilot.press("A")
        await confirm_review(pilot)
        await run_done(pilot)
        await planned(pilot, voice=VOICE, settings="", accounts="")  # another change since
        await pilot.press("l")
        await wait_for(pilot, lambda: isinstance(app.screen, SavedRolloutsModal))
        await pilot.press("enter")
        await wait_for(pilot, lambda: "Loaded" in status_text(app))
        sim_of(app).clear_log()
        await pilot.press("p")
        await wait_for(
            pilot, lambda: not shown(app, RolloutScreen).phase and bool(sim_of(app).requests)
        )
        await settle(pilot)
        plan = shown(app, RolloutScreen).plan
        assert plan is not None
        assert plan.change.settings == (("speakingTimeout", 906),) and plan.change.voice is None
        assert all("Acme" in p.name for p in plan.accounts)
        assert {p.outcome for p in plan.accounts} == {"already"}  # written by the first run


async def test_an_unexpected_failure_ends_the_run_and_says_so(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    from vagent_tui.services import bulk

    app = make_app("rollout")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await planned(pilot, settings="speakingTimeout=907")

        def full(self: Any, result: Any) -> None:
            raise OSError(28, "No space left on device")

        monkeypatch.setattr(bulk.RolloutLog, "record", full)
        await pilot.press("A")
        await confirm_review(pilot)
        await run_done(pilot)
        assert shown(app, RolloutScreen).phase == ""  # not stuck: every key works again
        assert "No space left on device" in status_text(app)
        assert app.screen.check_action("choose", ()) and app.screen.check_action("apply", ())


async def test_rows_marked_in_fleet_roll_out_whatever_the_target(make_app: MakeApp) -> None:
    """Fleet lists the key's accounts whatever the target (Enter on a row makes that
    account the target): its marks are not narrowed to those below the target."""
    app = make_app("fleet", account=1122)  # an agent account: nothing is below it
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("space", "down", "space")
        assert shown(app, FleetScreen).marked == (1111, 1113)
        await pilot.press("R")
        await wait_for(pilot, lambda: isinstance(app.screen, RolloutForm))
        assert "2 marked in Fleet (whatever the target)" in str(
            app.screen.query_one("#rollout-form-intro", Static).render()
        )
        plan = await planned(pilot, settings="speakingTimeout=904")
        assert [p.account_id for p in plan.accounts] == [1111, 1113]
        assert "marked in Fleet (2)" in plan.chosen and "below" not in plan.chosen
