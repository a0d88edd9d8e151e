"""Panes that show every field of a record as sent (unknown fields included) show the
first `FIELD_CAP` and say how many more: a record of 10,000 unknown fields draws as
fast as one of 200 (issue 38, item 5)."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

import pytest
from rich.console import Console, RenderableType

from vagent_tui.api.log_models import LogEntry
from vagent_tui.api.models import AgentConfig, JunkRoom, RoomMessage
from vagent_tui.ui.caps import FIELD_CAP, first_fields, left_out_of, not_read
from vagent_tui.ui.widgets.agent_view import config_renderable, value_text
from vagent_tui.ui.widgets.call_rows import conversation_view
from vagent_tui.ui.widgets.inbox_rows import room_detail
from vagent_tui.ui.widgets.room_messages import message_detail

EXTRA = 10_000
MORE = f"{EXTRA - FIELD_CAP:,} more fields not shown"
"""Each record below has `EXTRA` fields where the pane walks them."""


def extra(count: int = EXTRA) -> dict[str, Any]:
    return {f"unknownField{i:05d}": i for i in range(count)}


def text_of(renderable: RenderableType) -> str:
    console = Console(width=100, file=io.StringIO())
    return "".join(segment.text for segment in console.render(renderable))


PANES: dict[str, Callable[[], RenderableType]] = {
    "call entry": lambda: conversation_view(
        LogEntry.model_validate({"id": "c1", **extra(EXTRA - 1)}), None, local=False
    ),
    "room message": lambda: message_detail(
        RoomMessage.model_validate({"id": "m1", **extra(EXTRA - 1)})
    ),
    "junk room": lambda: room_detail(JunkRoom.model_validate({"roomId": "r1", **extra(EXTRA - 1)})),
    "agent's other fields": lambda: config_renderable(
        AgentConfig.model_validate({"id": "a1", **extra()})
    ),
    "agent's heartbeat": lambda: config_renderable(
        AgentConfig.model_validate({"id": "a1", "heartbeatConfig": extra()})
    ),
}


@pytest.mark.parametrize("pane", PANES)
def test_a_record_of_many_unknown_fields_shows_the_first_and_says_how_many_more(
    pane: str,
) -> None:
    shown = text_of(PANES[pane]())
    assert MORE in shown
    assert "unknownField00000" in shown
    assert f"unknownField{FIELD_CAP + 5:05d}" not in shown
    assert shown.count("\n") < FIELD_CAP + 200


def test_a_mapping_value_is_joined_only_as_far_as_it_is_shown() -> None:
    shown = value_text(extra()).plain
    assert shown.startswith("unknownField00000=0, unknownField00001=1")
    assert shown.endswith(" more)") and len(shown) < 2_200


def test_what_is_left_out_of_a_reply_in_its_own_terms() -> None:
    assert first_fields({"a": 1, "b": 2, "c": 3}, 2) == ([("a", 1), ("b", 2)], 1)
    assert not_read(0) == left_out_of(0, "field") == ""
    assert not_read(98_000) == "98,000 more keys of the reply not read"
    assert not_read(1, 2) == "1 more key and 2 more items of the reply not read"
    assert left_out_of(5, "field", items=1) == (
        "5 more fields not shown; 1 more item of the reply not read"
    )
