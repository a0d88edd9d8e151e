"""The Tasks screen's account words: whose a task is, at a level that lists many accounts."""

from __future__ import annotations

from vagent_tui.api.models import OutboundTask
from vagent_tui.ui.screens.tasks_parts import (
    account_label,
    delete_question,
    others_on_page,
    task_cells,
)


def task(account: object, **more: object) -> OutboundTask:
    fields = {"id": "t1", "state": "pending", "type": "call", "target": "+15550100"}
    return OutboundTask.model_validate({**fields, "accountId": account, **more})


def test_other_accounts_on_the_page_are_seen() -> None:
    assert not others_on_page([task(1111), task(1111)], 1111)
    assert others_on_page([task(1111), task(2222)], 1111)
    assert others_on_page([task(2222)], 1)  # a partner lists its agents' tasks
    assert not others_on_page([task(None)], 1)  # the platform did not say: no column
    assert not others_on_page([task(""), task(" ")], 1111)  # nor when it says ""
    assert not others_on_page([task("1111")], 1111)  # an id sent as its digits


def test_an_account_is_named_as_the_tree_names_it_else_by_its_id() -> None:
    names = {1111: "Front desk"}
    assert account_label(task(1111), names) == "Front desk (#1111)"
    assert account_label(task(2222), names) == "#2222"
    assert account_label(task(None), names) == "—"
    assert account_label(task(""), names) == "—"
    assert account_label(task("1111"), names) == "Front desk (#1111)"
    assert "\x1b" not in account_label(task(3333), {3333: "\x1b[2Jx"})
    assert task_cells(task(1111), names)["account"].plain == "Front desk (#1111)"


def test_the_delete_question_names_whose_task_it_is() -> None:
    _, body, _ = delete_question(task(1111), account_label(task(1111), {1111: "Front desk"}))
    assert "of Front desk (#1111)?" in body
