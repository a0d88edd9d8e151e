"""What the agent knows about a caller, from a call (``K``): whose, the review, the
read-back's sentence; and the Tasks screen's edits: which states, what the review says."""

from __future__ import annotations

from typing import Any

import pytest

from vagent_tui.api.context_models import CallerContext
from vagent_tui.api.log_models import LogEntry
from vagent_tui.api.models import OutboundTask
from vagent_tui.api.task_models import TaskUpdate
from vagent_tui.ui.diff_text import diff_text
from vagent_tui.ui.screens.call_capture import account_of
from vagent_tui.ui.screens.caller_context import (
    as_it_will_be,
    caller_of,
    context_diff,
    held_line,
)
from vagent_tui.ui.screens.tasks_edit import cancel_refusal, edit_refusal
from vagent_tui.ui.widgets.task_edit_form import update_diff


@pytest.mark.parametrize(
    ("entry", "caller"),
    [
        ({"direction": "inbound", "fromNumber": "+15551230001", "toNumber": "+15559990000"},
         "+15551230001"),
        ({"direction": "outbound", "fromNumber": "+15559990000", "toNumber": "+15551230001"},
         "+15551230001"),
        ({"direction": "inbound", "fromNumber": "anonymous caller", "toNumber": "+15559990000"},
         "+15559990000"),
        ({"direction": "outbound", "toNumber": "[bold]x"}, None),
        ({}, None),
    ],
)  # fmt: skip
def test_the_caller_is_the_other_party(entry: dict[str, Any], caller: str | None) -> None:
    assert caller_of(LogEntry.model_validate(entry)) == caller


def test_the_account_is_the_calls_else_the_querys() -> None:
    assert account_of(LogEntry.model_validate({"account_id": "1111"}), 7) == 1111
    assert account_of(LogEntry.model_validate({"account_id": True}), 7) == 7


def test_the_review_shows_the_whole_text_as_it_will_be_then_the_change() -> None:
    text = as_it_will_be("Name: Dana\nPrefers calls", diff_text(context_diff(
        "Name: Dana\nPrefers texts", "Name: Dana\nPrefers calls")))  # fmt: skip
    assert text.plain.startswith("The text as it will be:\nName: Dana\nPrefers calls\n")
    assert "- Prefers texts" in text.plain and "+ Prefers calls" in text.plain
    assert "nothing about this caller" in as_it_will_be("", diff_text([])).plain
    assert [d.kind for d in context_diff("", "x")] == ["added"]
    assert [d.kind for d in context_diff("x", "")] == ["removed"]
    assert context_diff("x", "x") == []


@pytest.mark.parametrize(
    ("held", "same", "said"),
    [
        ("Name: Dana", True, "the text as sent"),
        ("Old line\nName: Dana", False, "add to what was there"),
        ("else", False, "another text"),
        (None, False, "another text"),
    ],
)
def test_the_read_back_says_whether_the_platform_replaced_the_text(
    held: str | None, same: bool, said: str
) -> None:
    reply = None if held is None else CallerContext(context=held)
    got = held_line("+15551230001", "Name: Dana", reply)
    assert got[0] is same and said in got[1]


@pytest.mark.parametrize(
    ("state", "editable", "cancelable"),
    [("pending", True, True), ("running", False, True), ("processing", False, True),
     ("finished", False, False), ("canceled", False, False), ("errored", False, False)],
)  # fmt: skip
def test_which_tasks_are_edited_and_canceled(state: str, editable: bool, cancelable: bool) -> None:
    task = OutboundTask(id="t1", state=state)
    assert (edit_refusal(task) is None) is editable
    assert (cancel_refusal(task) is None) is cancelable


def test_the_task_review_shows_each_field_changed() -> None:
    task = OutboundTask(id="t1", state="pending", scheduled_for=1_800_000_000, greeting="Hi")
    update = TaskUpdate(scheduled_for=1_800_003_600, greeting="", context="VIP", wait_to_greet=True)
    shown = diff_text(update_diff(task, update)).plain
    assert '"not said" → "after the person speaks"' in shown
    assert "2027-01-15 08:00 UTC" in shown and "2027-01-15 09:00 UTC" in shown
    assert "- greeting" in shown and "+ context" in shown
