"""Drawing calls: a log entry's table cells, its detail pane, and a conversation.

Every value comes from the platform and goes in inert (`vagent_tui.ui.text`), never as
markup; a value of an unexpected type is shown literally (`log_models.cell`) rather
than dropped.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from vagent_tui.api.log_models import BatchResult, ConversationMessage, LogEntry, cell
from vagent_tui.services.call_columns import column
from vagent_tui.ui.caps import first_fields, not_shown
from vagent_tui.ui.colours import FAILED, HEADING, OK, WARN
from vagent_tui.ui.text import inert, safe
from vagent_tui.ui.widgets.room_messages import delivery_text

DIRECTIONS = {"inbound": "←", "outbound": "→"}
"""How a direction shows in the table: in ← from the caller, out → to them."""
LABEL_WIDTH = 24
"""The widest label the values line up after."""
PREVIEW_TURNS = 6
"""Turns of a transcript the detail pane shows (Enter shows them all)."""


def when(moment: datetime | None, *, local: bool, seconds: bool = True) -> str:
    """A time for the table: local (the terminal's zone) or UTC, to the second."""
    if moment is None:
        return "—"
    shown = moment.astimezone() if local else moment.astimezone(UTC)
    text = shown.strftime("%Y-%m-%d %H:%M:%S" if seconds else "%Y-%m-%d %H:%M")
    return text if local else text + "Z"


def duration_text(value: Any) -> str:
    """Seconds as ``m:ss`` (``h:mm:ss`` from an hour); other values literally."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return cell(value)
    total = max(0, int(value))
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{secs:02}" if hours else f"{minutes}:{secs:02}"


def _text(value: Any, style: str = "") -> Text:
    return safe(cell(value) or "—", style)


def outcome_cell(entry: LogEntry) -> Text:
    """The outcome, or the status when there is none (a failure in its colour)."""
    if entry.failed:
        reason = cell(entry.failure_reason)
        return safe("✗ " + (reason or cell(entry.status)), FAILED)
    outcome = cell(entry.agent_outcome)
    if outcome:
        return safe(outcome)
    status = cell(entry.status)
    return safe(status or "—", WARN if status and status.lower() == "missed" else "")


def entry_kind(entry: LogEntry) -> str:
    """What the entry logs, as its status names it: ``call``, ``SMS``, or ``""`` when its
    ``type`` and ``eventType`` say neither."""
    for value in (entry.type, entry.event_type):
        word = value.lower() if isinstance(value, str) else ""
        if "call" in word:
            return "call"
        if "sms" in word:
            return "SMS"
    return ""


def status_label(entry: LogEntry) -> str:
    """The label of the entry's own ``status`` (``completed``, ``missed``, ``failed``):
    the call's (or the SMS's), never to be read as the delivery status its conversation's
    messages carry (``success``, shown as "Delivery")."""
    kind = entry_kind(entry)
    return f"{kind[0].upper()}{kind[1:]} status" if kind else "Entry status"


def call_header(entry: LogEntry, *, local: bool) -> Text:
    """The call screen's one line: when, account, what happened (``call missed``), the
    outcome or the failure, the route last (the first thing cut on a narrow terminal:
    the conversation below names the numbers again)."""
    header = Text(no_wrap=True, overflow="ellipsis")
    header.append(when(entry.at, local=local), style="bold")
    header.append(" · account ")
    header.append(inert(cell(entry.account_id) or "?"))
    status = cell(entry.status)
    if status:
        kind = entry_kind(entry)
        header.append(" · ")
        header.append(inert(f"{kind} {status}" if kind else f"status {status}"),
                      style=FAILED if entry.failed else "")  # fmt: skip
    after = cell(entry.agent_outcome) or cell(entry.failure_reason)
    if after:
        header.append(" · " + inert(after))
    header.append(" · ")
    header.append(inert(f"{cell(entry.from_number) or '?'} → {cell(entry.to_number) or '?'}"))
    return header


def entry_cell(entry: LogEntry, name: str, *, local: bool) -> Text:
    """The cell of column ``name`` for ``entry``."""
    if name == "time":
        moment = entry.at
        return safe(when(moment, local=local, seconds=False)) if moment else _text(entry.timestamp)
    if name == "account":
        return _text(entry.account_id)
    if name == "direction":
        direction = cell(entry.direction)
        arrow = DIRECTIONS.get(direction.lower(), direction)
        kind = cell(entry.type)
        return safe(f"{arrow} {kind}".strip() or "—")
    if name == "route":
        return safe(f"{cell(entry.from_number) or '?'} → {cell(entry.to_number) or '?'}")
    if name == "duration":
        return safe(duration_text(entry.duration) if entry.duration is not None else "—")
    if name == "outcome":
        return outcome_cell(entry)
    if name == "summary":
        return _text(entry.summary)
    return _text(entry.get(name))


def entry_cells(entry: LogEntry, names: Sequence[str], *, local: bool) -> list[Text]:
    return [entry_cell(entry, name, local=local) for name in names]


def column_label(name: str) -> str:
    return column(name).label


# --------------------------------------------------------------------------- detail


class _Pairs:
    """Label and value lines, the values lined up after the longest label, drawn as one
    `Text` (a Rich table grid of the same costs several times as much to draw, and a
    conversation's every field is thirty rows of it). A value of several lines keeps
    its indent."""

    def __init__(self) -> None:
        self.rows: list[tuple[Text, Text]] = []

    def add_row(self, label: str | Text, value: Text) -> None:
        shown = label.copy() if isinstance(label, Text) else Text(label)
        shown.stylize("bold")
        self.rows.append((shown, value))

    def __rich__(self) -> Text:
        # a label longer than LABEL_WIDTH (a field the platform named so) is followed by
        # one space: the others do not move for it
        width = min(LABEL_WIDTH, max((label.cell_len for label, _ in self.rows), default=0))
        indent = " " * (width + 1)
        out = Text()
        for number, (label, value) in enumerate(self.rows):
            if number:
                out.append("\n")
            out.append_text(label)
            out.append(" " * max(1, width - label.cell_len + 1))
            for index, line in enumerate(value.split("\n")):
                if index:
                    out.append("\n" + indent)
                out.append_text(line)
        return out


def _grid() -> _Pairs:
    return _Pairs()


def turn_lines(message: ConversationMessage, limit: int | None = None) -> list[Text]:
    """The transcript, one text per turn: ``role: what was said`` (multi-line kept)."""
    turns = message.turns
    shown = turns if limit is None else turns[:limit]
    lines = []
    for turn in shown:
        line = Text()
        line.append(inert(turn.role or "—"), style=HEADING)
        line.append(": ")
        line.append(inert(turn.content, multiline=True))
        lines.append(line)
    if limit is not None and len(turns) > limit:
        lines.append(Text(f"… {len(turns) - limit} more turns (Enter: all)", style="dim"))
    return lines


def transcript_state(result: BatchResult | None, entry: LogEntry, *, fetching: bool) -> Text | None:
    """A line saying why no transcript shows, or None when there is one to show."""
    if entry.conversation_ref is None:
        return Text("No conversation is linked to this entry.", style="dim")
    if result is None:
        return Text("Transcript: loading…" if fetching else "Transcript: not loaded", style="dim")
    if not result.ok:
        reason = cell(result.message) or "the platform did not return it"
        return safe(f"Transcript not available: {reason}", WARN)
    if not result.conversation:
        return Text("The conversation has no messages.", style="dim")
    return None


def entry_detail(
    entry: LogEntry | None,
    result: BatchResult | None,
    *,
    local: bool,
    fetching: bool = False,
) -> RenderableType:
    """The detail pane of the highlighted entry: the main fields, then the start of its
    transcript (from the page's batch read)."""
    if entry is None:
        return Text("No call highlighted.", style="dim")
    grid = _grid()
    moment = entry.at
    grid.add_row("When", Text(when(moment, local=local) + ("  " + when(moment, local=not local)
                                                           if moment else "")))  # fmt: skip
    grid.add_row("Account", _text(entry.account_id))
    grid.add_row("Kind", _text(" ".join(v for v in (cell(entry.direction), cell(entry.type),
                                                   cell(entry.event_type)) if v)))  # fmt: skip
    grid.add_row("From → To", entry_cell(entry, "route", local=local))
    grid.add_row("Duration", entry_cell(entry, "duration", local=local))
    status = cell(entry.status)
    grid.add_row(status_label(entry),
                 safe(status or "—", FAILED if entry.failed else OK if status else ""))  # fmt: skip
    grid.add_row("Outcome", _text(entry.agent_outcome))
    if entry.failure_reason is not None:
        grid.add_row("Failure", _text(entry.failure_reason, FAILED))
    grid.add_row("Summary", safe(cell(entry.summary) or "—", multiline=True))
    parts: list[RenderableType] = [grid, Text("")]
    state = transcript_state(result, entry, fetching=fetching)
    if state is not None:
        parts.append(state)
    else:
        assert result is not None
        for message in result.conversation[:1]:
            parts.extend(turn_lines(message, PREVIEW_TURNS))
    return Group(*parts)


def conversation_view(
    entry: LogEntry, result: BatchResult | None, *, local: bool, fetching: bool = False
) -> RenderableType:
    """The whole conversation: each message's summary, outcome and transcript (who said
    what), attachments as text; then every field of the log entry as it came."""
    parts: list[RenderableType] = []
    state = transcript_state(result, entry, fetching=fetching)
    if state is not None:
        parts.append(state)
    else:
        assert result is not None
        for number, message in enumerate(result.conversation, 1):
            grid = _grid()
            if len(result.conversation) > 1:
                grid.add_row(Text(f"Message {number}", style=HEADING), Text(""))
            grid.add_row("When", Text(when(message.at, local=local)))
            for label, value in (
                ("Direction", message.direction),
                ("From", message.from_number or message.from_),
                ("To", message.to_number or message.to),
                ("Duration", duration_text(message.duration) if message.duration is not None
                 else None),
                ("Outcome", message.agent_outcome),
                # the message record's delivery (`success`), not the call's status (the
                # header's `completed`, `missed`, `failed`)
                ("Delivery", message.status),
                ("Rate (USD)", message.usd_rate),
            ):  # fmt: skip
                if value is not None and value != "":
                    grid.add_row(label, delivery_text(value) if label == "Delivery"
                                 else _text(value))  # fmt: skip
            grid.add_row("Summary", safe(cell(message.summary) or "—", multiline=True))
            for attachment in message.attachment_texts:
                grid.add_row("Attachment", safe(attachment))
            parts.extend([grid, Text("")])
            turns = turn_lines(message)
            if turns:
                parts.append(Text("Transcript", style="bold"))
                parts.extend(turns)
            elif cell(message.message):
                parts.append(safe(cell(message.message), multiline=True))
            parts.append(Text(""))
    parts.append(Text("The log entry, as the platform sent it", style="bold"))
    fields = _grid()
    sent, more = first_fields(entry.wire())
    for key, value in sent:
        fields.add_row(safe(key), safe(cell(value), multiline=True))
    if more:
        fields.add_row("…", Text(not_shown(more, "field"), style="dim"))
    parts.append(fields)
    return Group(*parts)


def transcript_plain(entry: LogEntry, result: BatchResult | None) -> str:
    """The conversation as plain text (to copy): summary, then ``role: content`` lines."""
    lines = [f"{cell(entry.timestamp)}  {cell(entry.from_number)} -> {cell(entry.to_number)}"]
    for message in result.conversation if result is not None and result.ok else ():
        if cell(message.summary):
            lines.append("Summary: " + cell(message.summary))
        lines.extend(f"{turn.role}: {turn.content}" for turn in message.turns)
    return "\n".join(lines)
