"""Snapshots of the Rollout screen: the form with its field errors (80x24), a plan
(120x40), and the result of an apply and a first publish wave (80x24 and 120x40).

Elapsed times are pinned (``run_progress._clock``); the runs finish before the picture.
"""

from __future__ import annotations

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from tests.helpers import MakeApp, SnapCompare, console, settle, shown, sim_of, wait_for
from tests.pilot.test_rollout import answer_prompt, confirm_review, planned, run_done
from tests.snapshots.sizes import Size, size_id, sizes
from vagent_tui.ui.screens.rollout import RolloutScreen
from vagent_tui.ui.widgets.rollout_form import RolloutForm

VOICE = "elevenlabs-antoni"


@pytest.fixture(autouse=True)
def _pinned_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("vagent_tui.ui.screens.run_progress._clock", lambda: 0.0)


async def form_with_errors(pilot: Pilot[None]) -> None:
    app = pilot.app
    await settle(pilot)
    await wait_for(pilot, lambda: shown(app, RolloutScreen).catalog.voices)
    await pilot.press("c")
    await wait_for(pilot, lambda: isinstance(app.screen, RolloutForm))
    for name, value in (("voice", "no-such-voice"), ("settings", "speakingTimeout=soon"),
                        ("accounts", "acme lang:en-US")):  # fmt: skip
        app.screen.query_one(f"#rollout-{name}", Input).value = value
    await pilot.press("enter")
    await wait_for(pilot, lambda: app.screen.query(".-invalid"))
    await pilot.pause()


async def plan(pilot: Pilot[None]) -> None:
    await settle(pilot)
    await planned(pilot, voice=VOICE)


async def applied_and_a_wave(pilot: Pilot[None]) -> None:
    """One agent (1111) keeps its own unpublished draft, one (1212) is edited meanwhile."""
    sim = sim_of(console(pilot))
    for account_id in list(sim.staging):
        if account_id != 1111:
            sim.staging[account_id] = None
    await settle(pilot)
    await planned(pilot, voice=VOICE)
    sim.edit_staging(1212, agentLang="es-MX")
    await pilot.press("A")
    await confirm_review(pilot)
    await run_done(pilot)
    await pilot.press("P")
    await answer_prompt(pilot, "2")
    await confirm_review(pilot, word="publish")
    await run_done(pilot)
    await pilot.pause()


def test_rollout_form_80x24(snap_compare: SnapCompare, make_app: MakeApp) -> None:
    app = make_app("rollout")
    assert snap_compare(app, terminal_size=(80, 24), run_before=form_with_errors)


def test_rollout_plan_120x40(snap_compare: SnapCompare, make_app: MakeApp) -> None:
    app = make_app("rollout")
    assert snap_compare(app, terminal_size=(120, 40), run_before=plan)


@pytest.mark.parametrize("size", sizes(RolloutScreen), ids=size_id)
def test_rollout_result(snap_compare: SnapCompare, make_app: MakeApp, size: Size) -> None:
    app = make_app("rollout")
    assert snap_compare(app, terminal_size=size, run_before=applied_and_a_wave)
