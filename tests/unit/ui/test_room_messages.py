"""Rendering a room's messages: compact times, statuses, odd field types, and nothing
from the data styled as a link or left able to drive the terminal."""

from __future__ import annotations

import io
from datetime import UTC, datetime
from typing import Any

import pytest
from rich.console import Console

from vagent_tui.api.models import RoomMessage
from vagent_tui.sim.hostile import PAYLOADS
from vagent_tui.ui.widgets.room_messages import delivery_text, message_cells, message_detail, when

NOW = datetime(2025, 11, 20, 12, 0, tzinfo=UTC)
CONTROL = set(range(0x00, 0x09)) | set(range(0x0B, 0x20)) | {0x7F, 0x9B, 0x202E, 0x200B}


def render(renderable: Any) -> tuple[str, list[Any]]:
    console = Console(width=100, file=io.StringIO(), record=True, color_system="truecolor")
    segments = list(console.render(renderable))
    return "".join(s.text for s in segments), segments


def test_when_is_short_today_and_this_year_and_full_before() -> None:
    assert when(None, NOW) == "—"
    assert when(datetime(2025, 11, 20, 9, 5, tzinfo=UTC), NOW) == "09:05"
    assert when(datetime(2025, 3, 2, 23, 59, tzinfo=UTC), NOW) == "03-02 23:59"
    assert when(datetime(2024, 12, 31, 8, 0, tzinfo=UTC), NOW) == "2024-12-31 08:00"


def test_status_reads_delivered_failed_or_the_value_as_it_came() -> None:
    assert delivery_text("success").plain == "✓ delivered"
    assert delivery_text("FAILED").plain == "✗ failed"
    assert delivery_text(None).plain == "—"
    assert delivery_text("queued").plain == "? queued"
    assert delivery_text({"code": 7}).plain == '? {"code": 7}'
    assert "␛" in delivery_text("\x1b[2J").plain


def test_cells_take_any_field_type() -> None:
    message = RoomMessage.model_validate(
        {"message": 42, "fromUser": {"name": "Wei Kim"}, "status": "success",
         "source": ["sms"], "attachments": ["https://a.example/x.png", None], "timestamp": 0}
    )  # fmt: skip
    cells = [c.plain for c in message_cells(message, width=20)]
    assert cells == ["1970-01-01 00:00", "Wei Kim", "✓ delivered", '["sms"]', "1", "42"]


def test_hostile_messages_show_inert_and_links_are_only_text() -> None:
    for payload in PAYLOADS:
        message = RoomMessage.model_validate({
            "message": payload, "fromUser": payload, "toUser": payload, "status": payload,
            "source": payload, "attachments": [payload, f"https://evil.example/{payload}"],
            "roomInitiator": payload, payload: payload,
        })  # fmt: skip
        for renderable in (*message_cells(message, width=40), message_detail(message)):
            text, segments = render(renderable)
            assert not any(ord(c) in CONTROL for c in text), repr(payload[:20])
            assert not any(s.style is not None and s.style.link for s in segments)
        if payload.startswith("["):  # markup shows as it is written, never read
            assert payload in render(message_detail(message))[0]


@pytest.mark.parametrize(
    ("initiator", "shown"), [("brandon", "brandon"), (900123, "#900123"), (None, "—")]
)
def test_the_detail_says_who_started_the_room(initiator: object, shown: str) -> None:
    message = RoomMessage.model_validate({"roomInitiator": initiator, "fromUser": "Brandon"})
    lines = render(message_detail(message))[0].splitlines()
    assert any(line.split() == ["Started", "by", *shown.split()] for line in lines), lines
