"""What an agent knows about a caller (``/context``) and a task's edit (``POST
/tasks/{taskId}``): the replies the client takes and the values the requests refuse."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from tests.unit.api.conftest import MakeClient
from vagent_tui.api.context_models import MAX_CONTEXT, ContextRequest
from vagent_tui.api.task_models import TaskUpdate

from .helpers import Recorder, ok


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        (
            ok({"success": True, "context": "Name: Dana\nPrefers texts"}),
            "Name: Dana\nPrefers texts",
        ),
        (ok({"success": True, "context": None}), ""),
        (ok({"success": False, "message": "Not Found"}, status=404), None),
    ],
)
async def test_the_text_read_and_a_404_as_nothing_known(
    make_client: MakeClient, reply: object, expected: str | None
) -> None:
    client = make_client(Recorder(reply))  # type: ignore[arg-type]
    got = await client.get_caller_context("+15551230001", target=7)
    assert (got.context if got is not None else None) == expected


def test_a_context_is_sent_as_typed_to_a_number_or_a_username() -> None:
    assert ContextRequest(target=" dana_lee ", context="  two\nlines\n").wire() == {
        "target": "dana_lee", "context": "  two\nlines\n"}  # fmt: skip
    for target in ("+1 555 123 0001", "", "+0123"):
        with pytest.raises(ValidationError, match=r"E\.164"):
            ContextRequest(target=target, context="x")
    with pytest.raises(ValidationError, match="at most"):
        ContextRequest(target="+15551230001", context="x" * (MAX_CONTEXT + 1))


def test_a_task_update_sends_what_changes_or_a_cancel_alone() -> None:
    assert TaskUpdate(state="canceled").wire() == {"state": "canceled"}
    assert TaskUpdate(context="", greeting="Hi").wire() == {"context": "", "greeting": "Hi"}
    assert TaskUpdate(wait_to_greet=False).wire() == {"waitToGreet": False}
    with pytest.raises(ValidationError, match="a cancel is sent alone"):
        TaskUpdate(state="canceled", context="x")
    with pytest.raises(ValidationError, match="nothing to change"):
        TaskUpdate()
    with pytest.raises(ValidationError):
        TaskUpdate(content="")
