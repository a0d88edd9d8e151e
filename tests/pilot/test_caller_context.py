"""Pilot flows of ``POST /context`` from a call and ``POST /tasks/{taskId}`` from the
Tasks screen: asked (a diff) before anything is sent, sent once, the result shown."""

from __future__ import annotations

from textual.app import App
from textual.widgets import Input, TextArea

from tests.helpers import MakeApp, settle, shown, sim_of
from vagent_tui.sim import outbound
from vagent_tui.ui.dialogs import ConfirmModal, EditorModal, ReviewModal
from vagent_tui.ui.screens.base import BaseScreen
from vagent_tui.ui.screens.calls import CallsScreen
from vagent_tui.ui.screens.tasks import TasksScreen
from vagent_tui.ui.widgets.task_edit_form import TaskEditForm

AGENT = 1111
NOW = 1_763_640_000  # the suite's VAGENT_NOW


def _posts(app: App[None], path: str) -> int:
    return sum(1 for r in sim_of(app).requests
               if r.method == "POST" and r.path.startswith(path))  # fmt: skip


async def test_k_edits_what_the_agent_knows_after_a_review(make_app: MakeApp) -> None:
    app = make_app("calls", account=AGENT)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = shown(app, CallsScreen)
        entry = screen.table.highlighted_record
        assert entry is not None
        await pilot.press("K")
        await settle(pilot)
        editor = shown(app, EditorModal)
        area = editor.query_one(TextArea)
        caller = editor.title_text.rsplit(" ", 1)[1]
        area.text = "Name: Dana Lee\nPrefers texts"
        await pilot.press("ctrl+s")
        await settle(pilot)
        review = shown(app, ReviewModal)
        assert "whole text as it will be" in review.intro
        await pilot.press("escape")  # no: back to the editor, the text kept, nothing sent
        await settle(pilot)
        assert shown(app, EditorModal).query_one(TextArea).text.endswith("Prefers texts")
        assert _posts(app, "/api/v2/context") == 0
        await pilot.press("ctrl+s")
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot)
        assert sim_of(app).caller_context[(AGENT, caller)] == "Name: Dana Lee\nPrefers texts"
        assert _posts(app, "/api/v2/context") == 1
        assert "the text as sent" in str(shown(app, BaseScreen).status.content)


async def test_e_changes_a_pending_task_and_c_cancels_it(make_app: MakeApp) -> None:
    app = make_app("tasks", account=AGENT, clock=lambda: float(NOW))
    sim = sim_of(app)
    sim.outbound.clear()
    item = {"target": "+15551230002", "scheduledFor": NOW + 3600, "greeting": "Hi"}
    outbound.queue(sim, sim.accounts[AGENT], [item], "call")
    (task_id,) = sim.outbound
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        shown(app, TasksScreen)
        await pilot.press("e")
        await settle(pilot)
        form = shown(app, TaskEditForm)
        assert "Edit task" in form.title_text.plain
        form.query_one("#form-start-in", Input).value = "120"
        form.query_one("#form-context", Input).value = "Ask for Dana"
        await pilot.press("enter")
        await settle(pilot)
        review = shown(app, ReviewModal)
        assert "context" in review.diff.plain and "scheduledFor" in review.diff.plain
        await pilot.press("y")
        await settle(pilot)
        held = sim.outbound[task_id]
        assert held["context"] == "Ask for Dana" and held["scheduledFor"] == NOW + 7200
        (sent,) = [r for r in sim.requests if r.path == f"/api/v2/tasks/{task_id}"]
        assert sent.body == {"context": "Ask for Dana", "scheduledFor": NOW + 7200}  # only those
        await pilot.press("c")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmModal)
        await pilot.press("y")
        await settle(pilot)
        assert outbound.status(sim, held)[0] == "canceled"
        assert _posts(app, f"/api/v2/tasks/{task_id}") == 2
        await pilot.press("e")  # a canceled task is not edited: said, nothing sent
        await settle(pilot)
        assert "only a pending task" in str(shown(app, TasksScreen).status.content)
        assert _posts(app, f"/api/v2/tasks/{task_id}") == 2
