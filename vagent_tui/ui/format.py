"""Formatting shared by the screens: times, booleans with glyphs, counts, field values.

`now()` reads ``VAGENT_NOW`` (ISO 8601) when set, so snapshots and screenshots show
the same relative times on every run.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sized
from datetime import UTC, datetime

from rich.text import Text

from vagent_tui.inert import DISPLAY_LIMIT, inert
from vagent_tui.ui.colours import FAILED, OK

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


def fmt_counting(seconds: float) -> str:
    """A time still counting, as a list of many shows it: to the second in its first
    minute, then to the minute (``45s``, ``12m``, ``1h05m``).

    A monitor of running tasks then draws once a minute, not every second; an ended
    task's total keeps its seconds (`fmt_duration`)."""
    seconds = max(0, int(seconds))
    if seconds < 60:
        return f"{seconds}s"
    hours, minutes = divmod(seconds // 60, 60)
    return f"{hours}h{minutes:02d}m" if hours else f"{minutes}m"


def flag(value: bool | None, *, yes: str = "yes", no: str = "no") -> Text:
    """A boolean as glyph + word + colour, so it reads without colour too."""
    if value is None:
        return Text("—", style="dim")
    if value:
        return Text(f"{YES} {yes}", style=OK)
    return Text(f"{NO} {no}", style=FAILED)


def plain(value: object) -> str:
    """A field value as inert display text: lists joined, None as an em dash.

    Whatever the value holds, the result only shows (`vagent_tui.inert`): callers may
    put it in any `Text`. A long list is joined only as far as one value is shown.
    """
    if value is None or value == "":
        return "—"
    if isinstance(value, list | tuple):
        return joined(value) if value else "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return inert(value)


def joined(values: Iterable[object], sep: str = ", ", *, total: int | None = None) -> str:
    """Items made inert one by one, then joined; cut once the text is longer than one value.

    ``values`` may be made lazily (a generator): it is read only as far as it is shown,
    and ``total`` says how many there are then (a sequence's own length otherwise)."""
    if total is None:
        total = len(values) if isinstance(values, Sized) else 0
    parts: list[str] = []
    length = 0
    for item in values:
        if length > DISPLAY_LIMIT:
            break
        part = inert(item)
        parts.append(part)
        length += len(part) + len(sep)
    text = inert(sep.join(parts))
    if len(parts) < total:
        text += f" …(+{total - len(parts):,} more)"
    return text
