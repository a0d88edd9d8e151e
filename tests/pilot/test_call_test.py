"""A test call or text from the Agent screen (``T``): the number checked at its field,
a question that says it places a real call, the task's state followed to its end, the
call then in Calls; the number kept per profile (0600); read-only; an unknown outcome."""

from __future__ import annotations

import json
import stat
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Button, Input, Label, Select, Static

from tests.helpers import MakeApp, settle, shown, sim_of, wait_for
from vagent_tui.config import state_dir
from vagent_tui.services.call_test_numbers import NUMBERS_NAME, NumberStore
from vagent_tui.services.connect import demo_client
from vagent_tui.ui.app import VagentApp
from vagent_tui.ui.dialogs import ConfirmModal
from vagent_tui.ui.screens.agent import AgentScreen
from vagent_tui.ui.screens.calls import CallsScreen
from vagent_tui.ui.widgets import call_test
from vagent_tui.ui.widgets.call_test import CallTestModal
from vagent_tui.ui.widgets.form import FormField

AGENT = 1111
NOW = 1_763_640_000.0  # the suite's VAGENT_NOW


class Clock:
    def __init__(self) -> None:
        self.now = NOW

    def __call__(self) -> float:
        return self.now


@pytest.fixture(autouse=True)
def _quick_polls(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(call_test, "POLL_SECONDS", 0.01)


def _sent(app: Any) -> list[Any]:
    return [r for r in sim_of(app).requests if r.method != "GET"]


async def _open(pilot: Pilot[None]) -> CallTestModal:
    await settle(pilot)
    await pilot.press("T")
    await settle(pilot)
    dialog = pilot.app.screen
    assert isinstance(dialog, CallTestModal)
    return dialog


def _state(dialog: CallTestModal) -> str:
    return str(dialog.query_one("#test-state", Static).content)


async def test_a_bad_number_is_refused_at_its_field_and_nothing_sent(make_app: MakeApp) -> None:
    app = make_app("agent", account=AGENT, clock=Clock())
    async with app.run_test(size=(80, 24)) as pilot:
        dialog = await _open(pilot)
        for bad in ("", "555-123-0001", "+1 555 123 0001", "+0551230001"):
            dialog.query_one("#test-number", Input).value = bad
            dialog.submit()
            await settle(pilot)
            assert dialog.query_one("#field-target", FormField).error, bad
            assert app.screen is dialog
        dialog.query_one("#test-type", Select).value = "text"
        dialog.query_one("#test-number", Input).value = "+15551230001"
        dialog.submit()  # a text without its message
        await settle(pilot)
        assert dialog.query_one("#field-content", FormField).error
        assert _sent(app) == []


async def test_call_test_asks_then_follows_the_task_then_calls_show_it(
    make_app: MakeApp,
) -> None:
    clock = Clock()
    app = make_app("agent", account=AGENT, clock=clock)
    async with app.run_test(size=(120, 40)) as pilot:
        dialog = await _open(pilot)
        dialog.query_one("#test-number", Input).value = "+15551230042"
        dialog.submit()
        await settle(pilot)
        question = app.screen
        assert isinstance(question, ConfirmModal)
        assert "places a real phone call to +15551230042" in question.body_text
        await pilot.press("escape")  # ESC cancels: nothing placed
        await settle(pilot)
        assert _sent(app) == [] and app.screen is dialog
        dialog.submit()
        await settle(pilot)
        await pilot.press("y")
        await wait_for(pilot, lambda: "running" in _state(dialog))
        calls = [r for r in _sent(app) if r.path.endswith("/agent/outboundCall")]
        assert len(calls) == 1 and calls[0].body["target"] == "+15551230042"
        clock.now += 11  # the simulator's task ends
        await wait_for(pilot, lambda: "finished" in _state(dialog))
        assert not dialog.query_one("#test-calls", Button).disabled
        await pilot.click("#test-calls")
        await settle(pilot)
        await settle(pilot)
        screen = shown(app, CallsScreen)
        first = screen.table.records[0]
        assert first.to_number == "+15551230042" and first.direction == "outbound"


async def test_the_number_is_kept_per_profile_in_a_private_file(make_app: MakeApp) -> None:
    app = make_app("agent", account=AGENT, clock=Clock())
    async with app.run_test(size=(120, 40)) as pilot:
        dialog = await _open(pilot)
        dialog.query_one("#test-number", Input).value = "+15551230077"
        dialog.submit()
        await settle(pilot)
        await pilot.click("#confirm")
        await wait_for(pilot, lambda: "Task" in _state(dialog))
        await pilot.press("escape")
        await settle(pilot)
        shown(app, AgentScreen)
        path = state_dir() / NUMBERS_NAME
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        assert json.loads(path.read_text())["profiles"] == {"": "+15551230077"}
        dialog = await _open(pilot)
        assert dialog.query_one("#test-number", Input).value == "+15551230077"


def test_a_store_keeps_only_a_number(tmp_path: Any) -> None:
    store = NumberStore(tmp_path / "n.json")
    store.keep("work", "not a number")
    assert store.load("work") == ""
    store.keep("work", "+15551230001")
    store.keep("home", "+15551230002")
    assert (store.load("work"), store.load("home"), store.load(None)) == (
        "+15551230001", "+15551230002", "")  # fmt: skip
    (tmp_path / "n.json").write_text("[1, 2")
    assert store.load("work") == ""


async def test_read_only_has_no_test_call_and_sends_nothing() -> None:
    client = demo_client("demo-partner")
    app = VagentApp(client, profile_label="ro", initial_screen="agent", initial_account=AGENT,
                    read_only=True)  # fmt: skip
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        keys = {key for key, b in app.active_bindings.items() if b.enabled and b.binding.show}
        assert "T" not in keys
        await pilot.press("T")
        await settle(pilot)
        assert isinstance(app.screen, AgentScreen)
        assert _sent(app) == []


async def test_an_unknown_outcome_is_read_back_not_resent(make_app: MakeApp) -> None:
    app = make_app("agent", account=AGENT, clock=Clock())
    async with app.run_test(size=(120, 40)) as pilot:
        dialog = await _open(pilot)
        sim_of(app).faults.set("truncated", path_contains="/agent/outboundCall",
                               methods={"POST"})  # fmt: skip
        dialog.query_one("#test-number", Input).value = "+15551230043"
        dialog.submit()
        await settle(pilot)
        await pilot.click("#confirm")
        await settle(pilot)
        error = str(dialog.query_one("#test-error", Label).content)
        assert "A task to +15551230043 is listed" in error, error
        calls = [r for r in _sent(app) if r.path.endswith("/agent/outboundCall")]
        assert len(calls) == 1
