"""Tasks screen: the list with its counts, filters, add (E.164 at the field, a question
that says it places a real call), delete asked first (saying what becomes of the task:
a running one is stopped), an unknown outcome read back, a read-only profile."""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, Select, Static

from tests.helpers import MakeApp, settle, shown, sim_of
from vagent_tui.api.models import CsvUpload, OutboundTask
from vagent_tui.sim import outbound
from vagent_tui.ui.app import VagentApp
from vagent_tui.ui.dialogs import ConfirmModal, PromptModal, TextModal
from vagent_tui.ui.screens.base import BaseScreen
from vagent_tui.ui.screens.tasks import TasksScreen
from vagent_tui.ui.screens.tasks_parts import delete_question, refused_lines, task_cells
from vagent_tui.ui.widgets.entry_forms import TaskForm
from vagent_tui.ui.widgets.form import FormField
from vagent_tui.ui.widgets.limits_form import LimitsModal

AGENT = 1111
NOW = 1_763_640_000.0  # the suite's VAGENT_NOW


class Clock:
    def __init__(self) -> None:
        self.now = NOW

    def __call__(self) -> float:
        return self.now


def _app(make_app: MakeApp, clock: Clock | None = None) -> VagentApp:
    app = make_app("tasks", account=AGENT, clock=clock or Clock())
    # 1111's queue starts empty (the demo's seeded tasks are other agents', never listed
    # here): what the simulator holds is then what the test queued
    sim_of(app).outbound.clear()
    return app


def seed_tasks(app: Any) -> None:
    """Three tasks of the agent: one running now, one pending in an hour, one ended."""
    sim = sim_of(app)
    agent = sim.accounts[AGENT]
    outbound.queue(sim, agent, [{"target": "+15551230001"}], "call")
    outbound.queue(sim, agent, [{"target": "+15551230002", "scheduledFor": int(NOW) + 3600}],
                   "call")  # fmt: skip
    outbound.queue(sim, agent, [{"target": "+15551230666", "content": "Hi"}], "text")


def _status(app: Any) -> str:
    return str(shown(app, BaseScreen).status.content)


def _posts(app: Any) -> int:
    return sum(1 for r in sim_of(app).requests if r.method in ("POST", "DELETE")
               and "/tasks" in r.path)  # fmt: skip


async def _open_form(pilot: Pilot[None]) -> TaskForm:
    await pilot.press("a")
    await settle(pilot)
    form = pilot.app.screen
    assert isinstance(form, TaskForm)
    return form


async def test_lists_tasks_with_counts_and_filters(make_app: MakeApp) -> None:
    app = _app(make_app)
    seed_tasks(app)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, TasksScreen)
        assert screen.table.row_count == 3
        counts = str(screen.query_one("#tasks-counts", Static).content)
        assert "pending 1" in counts and "running 2" in counts and "calls" in counts
        assert "3 tasks" in _status(app)
        await pilot.press("s")  # pending only
        await settle(pilot)
        assert [t.target for t in screen.table.records] == ["+15551230002"]
        assert "state: pending" in str(screen.query_one("#tasks-header", Static).content)
        await pilot.press("x")
        await settle(pilot)
        assert screen.table.row_count == 3


async def test_enter_shows_the_task_whole(make_app: MakeApp) -> None:
    app = _app(make_app)
    seed_tasks(app)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, TextModal)
        await pilot.press("escape")
        await settle(pilot)
        shown(app, TasksScreen)


async def test_a_bad_number_is_refused_at_its_field_and_nothing_sent(make_app: MakeApp) -> None:
    app = _app(make_app)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        before = _posts(app)
        form = await _open_form(pilot)
        for bad in ("", "5551230001", "+1 555 123 0001", "+0123"):
            form.query_one("#form-target", Input).value = bad
            form.submit()
            await settle(pilot)
            assert form.query_one("#field-target", FormField).error, bad
            assert app.screen is form
        form.query_one("#form-target", Input).value = "+15551230001"
        for bad in ("soon", "²", "-5"):  # "²".isdigit() is true, int("²") raises
            form.query_one("#form-start-in", Input).value = bad
            form.submit()
            await settle(pilot)
            assert "whole minutes" in form.query_one("#field-start-in", FormField).error, bad
            assert app.screen is form
        assert _posts(app) == before


async def test_add_asks_first_saying_it_places_a_real_call(make_app: MakeApp) -> None:
    app = _app(make_app)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        form = await _open_form(pilot)
        form.query_one("#form-target", Input).value = "+15551230009"
        form.submit()
        await settle(pilot)
        question = app.screen
        assert isinstance(question, ConfirmModal)
        assert "places a real phone call to +15551230009" in question.body_text
        await pilot.press("escape")  # ESC cancels: nothing sent
        await settle(pilot)
        assert _posts(app) == 0
        assert app.screen is form
        form.submit()
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot)
        shown(app, TasksScreen)
        assert [t["target"] for t in sim_of(app).outbound.values()] == ["+15551230009"]
        assert "queued" in _status(app)
        assert shown(app, TasksScreen).table.row_count == 1


async def test_a_text_needs_its_message(make_app: MakeApp) -> None:
    app = _app(make_app)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        form = await _open_form(pilot)
        form.query_one("#form-type", Select).value = "text"
        form.query_one("#form-target", Input).value = "+15551230009"
        form.submit()
        await settle(pilot)
        assert form.query_one("#field-content", FormField).error
        assert _posts(app) == 0


async def test_delete_asks_first_and_a_running_task_is_stopped_and_deleted(
    make_app: MakeApp,
) -> None:
    """vida-skill: "deletion stops active work before removing the Task record": a
    running task is offered for deletion, and the question says its work is stopped."""
    app = _app(make_app)
    seed_tasks(app)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = shown(app, TasksScreen)
        screen.table.move_cursor(row=0)  # newest first: the text (running)
        running = screen.table.highlighted_record
        assert running is not None and running.state == "running"
        await pilot.press("d")
        await settle(pilot)
        question = app.screen
        assert isinstance(question, ConfirmModal)
        assert "Stop and delete" in question.title_text
        assert "stops its work first" in question.body_text
        await pilot.press("escape")
        await settle(pilot)
        assert len(sim_of(app).outbound) == 3
        await pilot.press("d")
        await settle(pilot)
        await pilot.press("y")  # y goes ahead, as the confirm button does
        await settle(pilot)
        assert running.key not in sim_of(app).outbound and len(sim_of(app).outbound) == 2
        assert "deleted" in _status(app).lower()


@pytest.mark.parametrize(
    ("state", "title", "said"),
    [
        ("pending", "Delete a pending task", "It will not be placed."),
        ("running", "Stop and delete a running task", "stops its work first"),
        ("processing", "Stop and delete a running task", "stops its work first"),
        ("finished", "Delete an ended task", "what it did is not undone"),
        ("canceled", "Delete an ended task", "what it did is not undone"),
        ("on-hold", "Delete a task", "Its state is not known: if it is under way"),
    ],
)
def test_the_delete_question_says_what_becomes_of_the_task(
    state: str, title: str, said: str
) -> None:
    task = OutboundTask.model_validate({"id": "t1", "type": "call", "target": "+15551230001",
                                        "state": state})  # fmt: skip
    asked, body, _ = delete_question(task, "Desk (#1111)")
    assert asked == title and said in body and f"+15551230001, {state})" in body


def test_a_canceled_task_shows_as_ended_and_dim() -> None:
    task = OutboundTask.model_validate({"id": "t1", "state": "canceled", "heldBy": "cooldown"})
    cells = task_cells(task, {})
    assert cells["state"].plain == "canceled" and cells["state"].style == "dim"
    assert cells["result"].plain == "—" and task.ended and not task.active  # waits no more


async def test_csv_dry_run_first_then_asks_counting_the_real_calls(
    make_app: MakeApp, tmp_path: Any
) -> None:
    path = tmp_path / "calls.csv"
    path.write_text("target,type,message\n+15551230001,call,\n+15551230002,call,\n"
                    "555 1234,call,\n+15551230003,text,Hi\n")  # fmt: skip
    app = _app(make_app)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("u")
        await settle(pilot)
        prompt = app.screen
        assert isinstance(prompt, PromptModal)
        prompt.query_one("#prompt-input", Input).value = str(tmp_path / "missing.csv")
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen is prompt  # refused at the field: nothing sent
        assert _posts(app) == 0
        prompt.query_one("#prompt-input", Input).value = str(path)
        await pilot.press("enter")
        await settle(pilot)
        question = app.screen
        assert isinstance(question, ConfirmModal)
        assert "2 real calls and 1 real text" in question.body_text
        assert "row 4 (555 1234)" in question.body_text
        dry = [r for r in sim_of(app).requests if r.path.endswith("/tasks/csv")]
        assert len(dry) == 1 and sim_of(app).outbound == {}
        await pilot.press("escape")
        await settle(pilot)
        assert sim_of(app).outbound == {}
        await pilot.press("u")
        await settle(pilot)
        app.screen.query_one("#prompt-input", Input).value = str(path)
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot)
        assert len(sim_of(app).outbound) == 3
        assert "3 queued from calls.csv; 1 refused" in _status(app)
        assert shown(app, TasksScreen).table.row_count == 3


async def test_a_platform_that_ignores_dry_run_is_not_asked_again(
    make_app: MakeApp, tmp_path: Any
) -> None:
    """A dry run answered as a real upload (rows inserted): the console stops there and
    says so; the question that would queue them a second time is never asked."""
    path = tmp_path / "calls.csv"
    path.write_text("target,type,message\n+15551230001,call,\n")
    app = _app(make_app)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        api = app.connection.api
        real = api.upload_tasks_csv

        async def ignoring_dry_run(content: bytes, **kw: Any) -> Any:
            return await real(content, **{**kw, "dry_run": False})

        api.upload_tasks_csv = ignoring_dry_run  # type: ignore[method-assign]
        await pilot.press("u")
        await settle(pilot)
        app.screen.query_one("#prompt-input", Input).value = str(path)
        await pilot.press("enter")
        await settle(pilot)
        assert not isinstance(app.screen, ConfirmModal)
        assert "did not answer calls.csv as a dry run" in _status(app)
        uploads = [r for r in sim_of(app).requests if r.path.endswith("/tasks/csv")]
        assert len(uploads) == 1 and len(sim_of(app).outbound) == 1


async def test_a_page_with_tasks_not_ended_is_read_again_until_they_end(
    make_app: MakeApp,
) -> None:
    clock = Clock()
    app = _app(make_app, clock)
    outbound.queue(sim_of(app), sim_of(app).accounts[AGENT], [{"target": "+15551230001"}],
                   "call")  # fmt: skip
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, TasksScreen)
        assert [t.state for t in screen.table.records] == ["running"]
        clock.now += 11
        screen._watch()  # what the interval calls
        await settle(pilot)
        assert [t.state for t in screen.table.records] == ["finished"]
        reads = sum(1 for r in sim_of(app).requests if r.path == "/api/v2/tasks")
        screen._watch()  # every task ended: nothing more is read
        await settle(pilot)
        assert sum(1 for r in sim_of(app).requests if r.path == "/api/v2/tasks") == reads


async def test_l_shows_the_limits_as_sent(make_app: MakeApp) -> None:
    app = _app(make_app)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("l")
        await settle(pilot)
        modal = app.screen
        assert isinstance(modal, LimitsModal)
        assert "daily.calls: 100" in modal.text
        assert "businessHours.timezone: UTC" in modal.text
        assert "cooldowns.calls: 60" in modal.text
        assert modal.editable
        assert modal.title_text == "Task limits of organization #1110"


def test_refused_rows_are_grouped_by_reason() -> None:
    rows = [{"row": n, "target": f"+1555000{n:04d}", "ok": False,
             "reason": "Daily calls limit reached for 2025-11-20: 100 a day"}
            for n in range(10, 430)]  # fmt: skip
    rows.append({"row": 5, "target": "555 1234", "ok": False, "reason": "not E.164"})
    lines = refused_lines(CsvUpload.model_validate({"rows": rows}))
    assert lines == [
        "420 rows (10, 11, 12 and 417 more): Daily calls limit reached for 2025-11-20: 100 a day",
        "row 5 (555 1234): not E.164",
    ]


def test_a_pending_task_says_what_it_waits_for() -> None:
    held = OutboundTask.model_validate({"id": "t1", "state": "pending", "heldBy": "cooldown"})
    assert task_cells(held, {})["result"].plain == "waits: cooldown"
    ran = OutboundTask.model_validate({"id": "t2", "state": "finished", "heldBy": "cooldown",
                                       "result": "answered"})  # fmt: skip
    assert task_cells(ran, {})["result"].plain == "answered"
    odd = OutboundTask.model_validate({"id": "t3", "state": "pending", "heldBy": "\x1b[2Jx"})
    assert "\x1b" not in task_cells(odd, {})["result"].plain


async def test_narrow_leaves_out_the_last_change_and_keeps_the_rows(make_app: MakeApp) -> None:
    app = _app(make_app)
    seed_tasks(app)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, TasksScreen)
        assert "updated" in screen.columns and screen.table.row_count == 3
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        assert "updated" not in screen.columns and screen.table.row_count == 3
        assert screen.table.virtual_size.width <= screen.table.size.width  # no sideways scroll


async def test_page_keys_on_the_only_page_say_which_edge_and_speak_after_a_quiet_read(
    make_app: MakeApp,
) -> None:
    """``n`` on the only page says it is the last, ``p`` the first; a page key is said on
    the status line even after the watch's quiet read."""
    app = _app(make_app)
    seed_tasks(app)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, TasksScreen)
        await pilot.press("n")
        await settle(pilot)
        assert _status(app) == "Already on the last page"
        await pilot.press("p")
        await settle(pilot)
        assert _status(app) == "Already on the first page"
        screen.load_tasks(quiet=True)  # the watch's read: nothing said
        await settle(pilot)
        assert _status(app) == "Already on the first page"
        await pilot.press("g")  # the first page again: said
        await settle(pilot)
        assert _status(app) == "Already on the first page"
        assert not screen.quiet
