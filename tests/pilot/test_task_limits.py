"""Task limits on the Tasks screen: ``l`` shows them, Edit (``L`` there too) or ``L`` opens the
form; a bad value is refused at its field and nothing is sent; the change is reviewed
before it is sent; ESC cancels; an unknown outcome is read back, not resent; daily caps
and concurrency are a super-admin's; a read-only profile edits nothing."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Input

from tests.helpers import MakeApp, settle, shown, sim_of
from vagent_tui.services.connect import demo_client
from vagent_tui.ui.app import VagentApp
from vagent_tui.ui.dialogs import ReviewModal
from vagent_tui.ui.screens.base import BaseScreen
from vagent_tui.ui.screens.tasks import TasksScreen
from vagent_tui.ui.widgets.form import FormField
from vagent_tui.ui.widgets.limits_form import LimitsModal, TaskLimitsForm

AGENT = 1111
ORG = 1110
"""AGENT's organization: the limits are its (the vendor: "the org's task limits")."""
OWNER = 1000  # demo-partner's account


def _posts(app: Any) -> list[Any]:
    return [r for r in sim_of(app).requests if r.method == "POST" and r.path.endswith("/limits")]


def _status(app: Any) -> str:
    return str(shown(app, BaseScreen).status.content)


async def _form(pilot: Pilot[None], key: str = "L") -> TaskLimitsForm:
    await settle(pilot)
    await pilot.press(key)
    await settle(pilot)
    return shown(pilot.app, TaskLimitsForm)


async def _type(pilot: Pilot[None], form: TaskLimitsForm, name: str, text: str) -> None:
    field = form.query_one(f"#form-{name.replace('_', '-')}", Input)
    field.value = text
    await pilot.pause()


def _field(form: TaskLimitsForm, name: str) -> FormField:
    return form.query_one(f"#field-{name.replace('_', '-')}", FormField)


async def test_edit_from_the_view_reviews_then_sends_only_what_changed(make_app: MakeApp) -> None:
    app = make_app("tasks", account=AGENT)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("l")
        await settle(pilot)
        shown(app, LimitsModal)
        form = await _form(pilot, "L")
        assert form.value("cooldown_calls") == "60" and form.value("days") == "1,2,3,4,5,6,7"
        await _type(pilot, form, "cooldown_calls", "120")
        await pilot.click("#form-submit")
        await settle(pilot)
        review = shown(app, ReviewModal)
        diff = review.diff.plain
        assert "Call cooldown: 60 → 120" in diff and "Text cooldown: 30 (as it is)" in diff
        assert "Time zone" not in diff
        assert not _posts(app)
        await pilot.click("#confirm")
        await settle(pilot)
        assert isinstance(app.screen, TasksScreen)
        [post] = _posts(app)
        assert post.body == {"cooldowns": {"calls": 120, "texts": 30}}
        assert sim_of(app).task_limits[ORG]["cooldowns"]["calls"] == 120
        assert "Task limits updated · cooldowns · organization #1110" in _status(app)
        [entry] = app.journal.read()  # journaled
        assert (entry.method, entry.status, entry.target) == ("POST", 200, AGENT)
        assert entry.path.endswith("/tasks/limits") and "120" in str(entry.body)


async def test_a_bad_value_is_refused_at_its_field_and_nothing_sent(make_app: MakeApp) -> None:
    app = make_app("tasks", account=AGENT)
    async with app.run_test(size=(120, 40)) as pilot:
        form = await _form(pilot)
        await _type(pilot, form, "days", "1-9")
        await _type(pilot, form, "end", "25:00")
        await _type(pilot, form, "cooldown_texts", "soon")
        await pilot.click("#form-submit")
        await settle(pilot)
        assert shown(app, TaskLimitsForm) is form
        assert "(Mon)" in _field(form, "days").error
        assert "HH:MM" in _field(form, "end").error
        assert "whole number" in _field(form, "cooldown_texts").error
        assert not _field(form, "timezone").error
        assert not _posts(app)


async def test_a_huge_value_is_refused_at_its_field_and_the_console_stays(
    make_app: MakeApp,
) -> None:
    """A range of a billion days, or a number of 5,000 digits, is refused where typed
    (neither built, nor given to ``int``, which refuses past 4,300 digits)."""
    app = make_app("tasks", account=AGENT)
    async with app.run_test(size=(120, 40)) as pilot:
        form = await _form(pilot)
        await _type(pilot, form, "days", "1-99999999999999999999")
        await _type(pilot, form, "cooldown_calls", "9" * 5000)
        await pilot.click("#form-submit")
        await settle(pilot)
        assert shown(app, TaskLimitsForm) is form
        assert "(Mon)" in _field(form, "days").error
        assert "whole number" in _field(form, "cooldown_calls").error
        assert not _posts(app)


async def test_nothing_changed_sends_nothing(make_app: MakeApp) -> None:
    app = make_app("tasks", account=AGENT)
    async with app.run_test(size=(120, 40)) as pilot:
        form = await _form(pilot)
        await pilot.click("#form-submit")
        await settle(pilot)
        assert "Nothing changed" in str(form.query_one("#form-error").render())
        assert not _posts(app)


async def test_esc_cancels_the_review_and_the_form(make_app: MakeApp) -> None:
    app = make_app("tasks", account=AGENT)
    async with app.run_test(size=(120, 40)) as pilot:
        form = await _form(pilot)
        await _type(pilot, form, "start", "08:00")
        await pilot.click("#form-submit")
        await settle(pilot)
        shown(app, ReviewModal)
        await pilot.press("escape")
        await settle(pilot)
        assert shown(app, TaskLimitsForm) is form and form.value("start") == "08:00"
        await pilot.press("escape")
        await settle(pilot)
        shown(app, TasksScreen)
        assert not _posts(app)
        assert sim_of(app).task_limits == {}


async def test_an_unknown_outcome_is_read_back_not_resent(make_app: MakeApp) -> None:
    app = make_app("tasks", account=AGENT)
    async with app.run_test(size=(120, 40)) as pilot:
        form = await _form(pilot)
        await _type(pilot, form, "cooldown_calls", "90")
        sim_of(app).faults.set("truncated", path_contains="/tasks/limits", methods={"POST"})
        await pilot.click("#form-submit")
        await settle(pilot)
        await pilot.click("#confirm")
        await settle(pilot)
        shown(app, TaskLimitsForm)  # stays open, every field as typed
        said = str(form.query_one("#form-error").render())
        assert "may have been made" in said, said
        assert "cooldowns.calls: 90" in said  # the read back: the write had been made
        assert len(_posts(app)) == 1


async def test_daily_caps_and_concurrency_are_a_super_admins(make_app: MakeApp) -> None:
    app = make_app("tasks", account=AGENT)
    async with app.run_test(size=(120, 40)) as pilot:
        form = await _form(pilot)
        assert form.query_one("#form-daily-calls", Input).disabled
        assert form.query_one("#form-concurrency-per-run", Input).disabled
        await pilot.press("escape")
    app = make_app("tasks", account=AGENT)
    sim = sim_of(app)
    sim.accounts[OWNER] = replace(sim.accounts[OWNER], super_admin=True)
    async with app.run_test(size=(120, 40)) as pilot:
        form = await _form(pilot)
        assert not form.query_one("#form-daily-calls", Input).disabled
        await _type(pilot, form, "daily_calls", "40")
        await _type(pilot, form, "concurrency_per_run", "2")
        await pilot.click("#form-submit")
        await settle(pilot)
        await pilot.click("#confirm")
        await settle(pilot)
        [post] = _posts(app)
        body = post.body
        assert body == {"daily": {"calls": 40, "texts": 200, "tasks": 300}, "concurrencyPerRun": 2}
        assert sim.task_limits[ORG]["concurrencyPerRun"] == 2


async def test_read_only_views_the_limits_and_edits_nothing() -> None:
    client = demo_client("demo-partner")
    app = VagentApp(client, profile_label="ro", initial_screen="tasks", initial_account=AGENT,
                    read_only=True)  # fmt: skip
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        keys = {key for key, b in app.active_bindings.items() if b.enabled and b.binding.show}
        assert "l" in keys and "L" not in keys
        await pilot.press("L")
        await settle(pilot)
        shown(app, TasksScreen)
        await pilot.press("l")
        await settle(pilot)
        view = shown(app, LimitsModal)
        assert not view.editable and not view.query("#edit")
        await pilot.press("L")
        await settle(pilot)
        assert not isinstance(app.screen, TaskLimitsForm)
        assert not [r for r in sim_of(app).requests if r.method != "GET"]
