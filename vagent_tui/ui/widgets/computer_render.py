"""How the Computer Agents screen shows a recording, a browser session and workspace files.

A browser automation session's headers may carry credentials: only their names are
ever shown.
"""

from __future__ import annotations

from datetime import datetime

from rich.console import RenderableType
from rich.text import Text

from vagent_tui.api.models import AutomationSession, WorkflowRecording, WorkspaceFile
from vagent_tui.inert import inert
from vagent_tui.ui.colours import FAILED, OK, WARN, WARN_STRONG
from vagent_tui.ui.format import flag, fmt_datetime, fmt_duration, humanize_age, now, plain
from vagent_tui.ui.text import safe
from vagent_tui.ui.widgets.details import Field, field_grid

_DONE = {"completed", "failed", "error", "cancelled", "canceled"}
_STATE_STYLE = {"recording": WARN_STRONG, "stopping": WARN, "finalized": OK}


def is_final(recording: WorkflowRecording | None) -> bool:
    """Nothing left to watch: no recording, or finalized with its analysis over."""
    if recording is None:
        return True
    analysis = (recording.analysis_status or "completed").lower()
    return bool(recording.finalized) and analysis in _DONE


def parse_time(value: str | None) -> datetime | None:
    if not value:
        return None
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None


def when(value: str | None) -> str:
    """``2026-11-20 12:00 UTC (5 min ago)``, or the text as sent if it is no date."""
    moment = parse_time(value)
    if moment is None:
        return plain(value)
    ahead = (moment - now()).total_seconds()
    if ahead > 0:
        return f"{fmt_datetime(moment)} (in {fmt_duration(ahead)})"
    return f"{fmt_datetime(moment)} ({humanize_age(moment)})"


def fmt_size(size: int | None) -> str:
    if size is None:
        return "—"
    if size < 1024:
        return f"{size} B"
    value = float(size)
    for unit in ("KiB", "MiB"):
        value /= 1024
        if value < 1024:
            return f"{value:.1f} {unit}"
    return f"{value / 1024:.1f} GiB"


def recording_detail(recording: WorkflowRecording | None, *, compact: bool) -> RenderableType:
    """Every field of the recording; the state and analysis as the server sent them."""
    if recording is None:
        return Text(
            "No workflow recording yet: open a browser session (b) for a slot, then start (s).",
            style="dim",
        )
    state = recording.state or "—"
    analysis = recording.analysis_status or "—"
    analysis_style = OK if analysis == "completed" else FAILED if analysis == "failed" else ""
    short: list[Field] = [
        ("State", safe(state, style=_STATE_STYLE.get(state, ""))),
        ("Slot", plain(recording.slot_id)),
        ("Finalized", flag(recording.finalized)),
        ("Analysis", safe(analysis, style=analysis_style)),
    ]
    long: list[Field] = [
        ("Recording id", plain(recording.recording_id)),
        ("Updated", when(recording.updated_at)),
        ("Evidence root", plain(recording.evidence_root)),
    ]
    if recording.domain_key:
        long.append(("Domain key", recording.domain_key))
    if compact:
        return field_grid(long, pairs=short)
    return field_grid(short + long)


def session_text(session: AutomationSession | None) -> Text:
    """The browser session in a few lines: slot, expiry, CDP URL, header names only."""
    if session is None:
        return Text("No browser session opened here yet (b opens one).", style="dim")
    text = Text()
    text.append("Browser session", style="bold")
    text.append(f" · slot {plain(session.slot)} · expires {when(session.expires_at)}")
    text.append("\nCDP URL  ", style="bold")
    text.append(plain(session.cdp_url))
    names = sorted((session.headers or {}).keys())
    text.append("\nHeaders  ", style="bold")
    text.append(", ".join(inert(n) for n in names) + " (values hidden)" if names else "none")
    return text


def file_cells(item: WorkspaceFile) -> list[Text]:
    moment = parse_time(item.updated_at)
    return [
        safe(item.path),
        Text(fmt_size(item.size), justify="right"),
        Text(plain(item.mode)),
        Text(humanize_age(moment) if moment else plain(item.updated_at)),
    ]
