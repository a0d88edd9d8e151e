"""Drawing calls: cells, the detail pane and the conversation, inert whatever comes."""

from __future__ import annotations

import io
from datetime import UTC, datetime
from typing import Any

import pytest
from rich.console import Console, RenderableType

from vagent_tui.api.log_models import BatchResult, LogEntry
from vagent_tui.api.models import SavedVersion
from vagent_tui.ui.screens.call import version_at
from vagent_tui.ui.widgets.call_rows import (
    call_header,
    conversation_view,
    duration_text,
    entry_cell,
    entry_detail,
    transcript_plain,
)

HOSTILE = "\x1b]52;c;cHduZWQ=\x07[bold]x[/] \x1b[2J\u202e"


def rendered(renderable: RenderableType) -> str:
    console = Console(width=200, file=io.StringIO(), record=True, force_terminal=True)
    console.print(renderable)
    return console.export_text(styles=False)


def entry(**fields: Any) -> LogEntry:
    base: dict[str, Any] = {
        "id": "log_1", "timestamp": "2025-11-20T11:00:00Z", "account_id": 1111,
        "direction": "inbound", "type": "call", "status": "completed", "duration": 125,
        "fromNumber": "+15550001", "toNumber": "+15550002", "agentOutcome": "transferred",
        "summary": "Asked for billing.", "roomId": "1111:1", "uuid": "u-1",
    }  # fmt: skip
    base.update(fields)
    return LogEntry.model_validate(base)


def result(**fields: Any) -> BatchResult:
    base: dict[str, Any] = {
        "success": True, "roomId": "1111:1", "uuid": "u-1",
        "conversation": [{
            "summary": "Asked for billing.", "agentOutcome": "transferred",
            "callDialog": [{"role": "user", "content": "Billing please"},
                           {"role": "assistant", "content": "Transferring you now."}],
            "attachments": [{"content-url": "https://cdn.example/rec.mp3"}],
        }],
    }  # fmt: skip
    base.update(fields)
    return BatchResult.model_validate(base)


def test_cells_of_an_entry() -> None:
    e = entry()
    assert entry_cell(e, "time", local=False).plain == "2025-11-20 11:00Z"
    assert entry_cell(e, "direction", local=False).plain == "← call"
    assert entry_cell(e, "route", local=False).plain == "+15550001 → +15550002"
    assert entry_cell(e, "duration", local=False).plain == "2:05"
    assert entry_cell(e, "outcome", local=False).plain == "transferred"
    failed = entry(status="failed", failureReason="carrier_error", agentOutcome=None)
    assert entry_cell(failed, "outcome", local=False).plain == "✗ carrier_error"
    assert entry_cell(e, "metadata.x", local=False).plain == "—"
    assert duration_text(3725) == "1:02:05" and duration_text("long") == "long"


def test_values_of_any_type_and_hostile_text_are_shown_inert() -> None:
    e = entry(summary=HOSTILE, fromNumber=["+1", 2], timestamp="soon", duration={"s": 1},
              metadata={"note": HOSTILE})  # fmt: skip
    for name in ("summary", "route", "time", "duration", "metadata.note"):
        text = entry_cell(e, name, local=True).plain
        assert "\x1b" not in text and "\x07" not in text and "\u202e" not in text
    assert entry_cell(e, "time", local=True).plain == "soon"
    out = rendered(entry_detail(e, result(message=HOSTILE), local=True))
    out += rendered(conversation_view(e, result(), local=True))
    assert "\x1b]52" not in out and "\x1b[2J" not in out
    assert "[bold]x[/]" in out  # markup shown as typed, not applied


def test_the_detail_shows_the_transcript_or_why_not() -> None:
    e = entry()
    assert "Transcript: loading" in rendered(entry_detail(e, None, local=False, fetching=True))
    shown = rendered(entry_detail(e, result(), local=False))
    assert "user: Billing please" in shown and "assistant: Transferring you now." in shown
    refused = result(success=False, message="Conversation not found", conversation=[])
    assert "not available: Conversation not found" in rendered(
        entry_detail(e, refused, local=False)
    )
    unlinked = entry(roomId=None, uuid=None)
    assert "No conversation is linked" in rendered(entry_detail(unlinked, None, local=False))


def test_the_conversation_view_and_its_plain_copy() -> None:
    e = entry()
    view = rendered(conversation_view(e, result(), local=False))
    assert "https://cdn.example/rec.mp3" in view and "Transcript" in view
    assert "The log entry, as the platform sent it" in view and "log_1" in view
    plain = transcript_plain(e, result())
    assert plain.splitlines()[1:] == [
        "Summary: Asked for billing.", "user: Billing please",
        "assistant: Transferring you now.",
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("fields", "label"),
    [
        ({"type": "call", "status": "missed"}, "Call status"),
        ({"type": "sms", "eventType": "inbound-sms", "status": "completed"}, "SMS status"),
        ({"type": None, "eventType": "outbound-call", "status": "failed"}, "Call status"),
        ({"type": None, "status": "completed"}, "Entry status"),
    ],
)
def test_a_call_status_and_a_message_delivery_are_told_apart(
    fields: dict[str, Any], label: str
) -> None:
    """One call, two statuses: the log entry's (completed, missed, failed) is the call's;
    its conversation's messages carry their delivery (``success``). Each is named for
    what it is, in the detail pane, the call screen's header and its conversation."""
    e = entry(**fields)
    status = fields["status"]
    message = {"agentOutcome": "voicemail", "status": "success", "summary": "No answer."}
    delivered = result(conversation=[message])
    detail = rendered(entry_detail(e, delivered, local=False))
    assert f"{label} {status}" in " ".join(detail.split())
    assert "success" not in detail
    kind = {"Call status": "call ", "SMS status": "SMS "}.get(label, "status ")
    header = call_header(e, local=False).plain
    assert f" · {kind}{status} · " in header
    view = " ".join(rendered(conversation_view(e, delivered, local=False)).split())
    assert "Delivery ✓ delivered" in view
    assert "Status success" not in view and "Status " not in view.partition("The log entry")[0]


def test_the_version_live_at_a_moment_is_the_newest_saved_before_it() -> None:
    def v(ms: int) -> SavedVersion:
        return SavedVersion.model_validate({"versionId": ms, "title": str(ms)})

    moment = datetime(2025, 11, 20, 11, 0, tzinfo=UTC)
    at = int(moment.timestamp() * 1000)
    versions = [v(at - 10), v(at + 5), v(at - 99), v(at)]
    found = version_at(versions, moment)
    assert found is not None and found.version_id == at
    assert version_at([v(at + 1)], moment) is None
