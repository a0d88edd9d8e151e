"""Formatting shared by the screens: times, booleans with glyphs, counts.

`now()` reads ``VAGENT_NOW`` (ISO 8601) when set, so snapshots and screenshots show
the same relative times on every run.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime

from rich.text import Text

YES = "✓"
NO = "✗"


def now() -> datetime:
    fixed = os.environ.get("VAGENT_NOW")
    if fixed:
        parsed = datetime.fromisoformat(fixed.replace("Z", "+00:00"))
        return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)
    return datetime.now(UTC)


def humanize_age(moment: datetime | None, reference: datetime | None = None) -> str:
    """``just now``, ``5 min ago``, ``3 h ago``, ``2 d ago``, else the date."""
    if moment is None:
        return "—"
    reference = reference or now()
    seconds = (reference - moment).total_seconds()
    if seconds < 0:
        return moment.strftime("%Y-%m-%d %H:%M")
    if seconds < 60:
        return "just now"
    if seconds < 3600:
        return f"{int(seconds // 60)} min ago"
    if seconds < 86400:
        return f"{int(seconds // 3600)} h ago"
    if seconds < 86400 * 30:
        return f"{int(seconds // 86400)} d ago"
    return moment.strftime("%Y-%m-%d")


def fmt_datetime(moment: datetime | None) -> str:
    return moment.strftime("%Y-%m-%d %H:%M UTC") if moment else "—"


def fmt_duration(seconds: float) -> str:
    seconds = max(0, int(seconds))
    if seconds < 60:
        return f"{seconds}s"
    minutes, seconds = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes}m{seconds:02d}s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h{minutes:02d}m"


def flag(value: bool | None, *, yes: str = "yes", no: str = "no") -> Text:
    """A boolean as glyph + word + colour, so it reads without colour too."""
    if value is None:
        return Text("—", style="dim")
    if value:
        return Text(f"{YES} {yes}", style="green")
    return Text(f"{NO} {no}", style="red")


def plain(value: object) -> str:
    """A field value as text: lists joined, None as an em dash."""
    if value is None or value == "":
        return "—"
    if isinstance(value, list | tuple):
        return ", ".join(str(v) for v in value) if value else "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)
