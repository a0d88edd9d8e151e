"""A configuration diff as text: ``~`` changed, ``+`` added, ``-`` removed, then the lines.

Every value in a diff comes from the platform (or from what the user typed): it is
made inert here (`vagent_tui.ui.text.safe`), never read as markup.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.text import Text

from vagent_tui.services.diff import FieldDiff, show
from vagent_tui.ui.colours import FAILED, OK, WARN
from vagent_tui.ui.text import inert, safe

MARKS = {"changed": ("~", WARN), "added": ("+", OK), "removed": ("-", FAILED)}
VALUE_ROOM = 20_000
"""A value longer than this is cut (the JSON view has it whole); shorter ones wrap. Long
text is compared line by line, and a long line around its change (`services.diff`)."""

Names = Mapping[str, Mapping[str, str]]
"""Display names of values, by field: ``{"agentVoice": {"openai-ash": "Ash"}}``."""


def _value(path: str, value: Any, names: Names) -> Text:
    text = safe(show(value), limit=VALUE_ROOM)
    name = names.get(path, {}).get(value) if isinstance(value, str) else None
    if name and name != value:
        text.append_text(safe(f" ({name})", "dim"))
    return text


def diff_text(diffs: Sequence[FieldDiff], *, names: Names | None = None) -> Text:
    """The whole diff, one field or entry per line, long text and entries below it."""
    names = names or {}
    out = Text()
    if not diffs:
        out.append("No difference.", style="italic")
        return out
    for index, diff in enumerate(diffs):
        if index:
            out.append("\n")
        mark, style = MARKS[diff.kind]
        out.append(f"{mark} ", style=style)
        out.append_text(safe(diff.path, "bold"))
        if diff.lines:
            for line in diff.lines:
                out.append("\n    ")
                body = line.lstrip()
                line_style = (
                    OK if body.startswith("+ ") else FAILED if body.startswith("- ") else ""
                )
                out.append_text(safe(line, line_style, limit=VALUE_ROOM))
        elif diff.kind == "changed":
            out.append("  ")
            out.append_text(_value(diff.path, diff.old, names))
            out.append(" → ", style=style)
            out.append_text(_value(diff.path, diff.new, names))
        elif diff.kind == "added":
            out.append("  ")
            out.append_text(_value(diff.path, diff.new, names))
        else:
            out.append("  was ", style="dim")
            out.append_text(_value(diff.path, diff.old, names))
    return out


def was_becomes_text(found: Sequence[tuple[str, str, str]], title: str = "") -> Text:
    """``(name, was, becomes)`` as a review shows them, after ``title``: the name in bold,
    then ``- was`` and ``+ becomes`` below it (the texts made inert here)."""
    out = Text(title)
    for name, was, becomes in found:
        out.append(f"{inert(name)}\n", style="bold")
        out.append(f"  - {inert(was)}\n  + {inert(becomes)}\n")
    return out
