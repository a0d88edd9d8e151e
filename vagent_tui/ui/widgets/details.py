"""Detail panes of the voices and functions screens: one highlighted item, every field.

Server text goes in inert (`vagent_tui.ui.text`), never as markup: every value, ``str``
or `Text`, is made inert here. Two layouts: one field per line (a side pane on wide
terminals) or two fields per line where they are short (a pane under the table on
80-column terminals).
"""

from __future__ import annotations

from collections import Counter

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from vagent_tui.api.models import FunctionDescriptor, Voice
from vagent_tui.services.agents import Finding
from vagent_tui.ui.colours import FAILED, FAILED_STRONG, OK, WARN
from vagent_tui.ui.format import flag, plain
from vagent_tui.ui.text import safe, safe_value
from vagent_tui.words import counted

Field = tuple[str, Text | str]


def field_grid(fields: list[Field], *, pairs: list[Field] | None = None) -> RenderableType:
    """``pairs`` two to a row (short values), then ``fields`` one to a row."""
    grid = Table.grid(padding=(0, 1), expand=True)
    grid.add_column(style="bold", no_wrap=True, min_width=12)
    grid.add_column(ratio=1, overflow="fold")
    for label, value in fields:
        grid.add_row(Text(label), safe_value(value))
    if not pairs:
        return grid
    top = Table.grid(padding=(0, 1), expand=True)
    top.add_column(style="bold", no_wrap=True, min_width=12)
    top.add_column(ratio=1, overflow="ellipsis", no_wrap=True)
    top.add_column(style="bold", no_wrap=True, min_width=12)
    top.add_column(ratio=1, overflow="ellipsis", no_wrap=True)
    for k in range(0, len(pairs), 2):
        left = pairs[k]
        right = pairs[k + 1] if k + 1 < len(pairs) else ("", "")
        top.add_row(Text(left[0]), safe_value(left[1]), Text(right[0]), safe_value(right[1]))
    return Group(top, grid)


def need(value: bool | None) -> Text:
    """A requirement: ``required`` stands out, ``not required`` does not."""
    return Text("required", style=WARN) if value else Text("not required", style="dim")


def availability(available: bool) -> Text:
    return flag(available, yes="available", no="unavailable")


def voice_detail(voice: Voice | None, *, compact: bool) -> RenderableType:
    """Every field of a voice; the unavailability reason shown as the server sent it."""
    if voice is None:
        return Text("No voice highlighted.", style="dim")
    aa = voice.account_availability
    reason = aa.reason if aa is not None and aa.reason else None
    short: list[Field] = [
        ("ID", voice.id or "—"),
        ("Provider", plain(voice.provider)),
        ("Name", voice.name or "—"),
        ("Availability", availability(voice.available)),
        ("Languages", plain(voice.languages)),
        ("S2S engines", plain(voice.compatible_s2_s_engines)),
        ("Standard TTS", flag(voice.supports_standard_tts)),
        ("Reason", plain(reason)),
    ]
    long: list[Field] = [
        ("Description", plain(voice.description)),
        ("Sample URL", plain(voice.sample_url)),
        ("Image URL", plain(voice.image_url)),
    ]
    if compact:
        return field_grid(long, pairs=short)
    ordered = [short[2], short[0], long[0], short[1], short[4], short[5], short[6]]
    ordered += [long[1], long[2], short[3], short[7]]
    return field_grid(ordered)


def function_detail(
    descriptor: FunctionDescriptor | None,
    *,
    configured: int | None,
    findings: list[Finding],
    compact: bool,
) -> RenderableType:
    """Every field of a function descriptor, and what the cross-check found about it."""
    if descriptor is None:
        return Text("No function highlighted.", style="dim")
    short: list[Field] = [
        ("Name", descriptor.name or "—"),
        ("Allowed", flag(descriptor.allowed)),
        ("Label", descriptor.label or "—"),
        ("Limit", plain(descriptor.limit) if descriptor.limit is not None else "no limit"),
        ("Paid plan", need(descriptor.require_paid)),
        ("Computer", need(descriptor.require_computer)),
        ("Settings", flag(descriptor.has_settings)),
        ("Configured", "—" if configured is None else str(configured)),
    ]
    long: list[Field] = [("Details", plain(descriptor.details))]
    if descriptor.allowed is False or descriptor.reason or descriptor.missing_requirement:
        long.append(("Reason", safe(descriptor.reason or "—", FAILED)))
        long.append(("Missing", plain(descriptor.missing_requirement)))
    long.append(("Placeholder", plain(descriptor.placeholder)))
    long.append(("Docs", plain(descriptor.docs_page)))
    for finding in findings:
        long.append(("Problem", safe(f"⚠ {finding.text}", FAILED_STRONG)))
    if compact:
        return field_grid(long, pairs=short)
    return field_grid(short + long)


def finding_line(finding: Finding, descriptor: FunctionDescriptor | None) -> Text:
    """``webSearch not allowed (reason)`` / ``endCall configured 2 times, limit 1``."""
    if finding.kind == "not-allowed":
        why = (descriptor.reason if descriptor else None) or "not allowed for this account"
        return safe(f"✗ {finding.name} not allowed ({why})", FAILED)
    return safe(f"⚠ {finding.name} {finding.text}", WARN)


def findings_text(
    findings: list[Finding],
    functions: list[FunctionDescriptor],
    configured: Counter[str],
    *,
    room: int,
) -> Text:
    """The cross-check in a few lines: a headline, then one line per problem."""
    total = sum(configured.values())
    if not findings:
        return Text(
            f"✓ {counted(total, 'configured function')}: all allowed and within their limits", OK
        )
    by_name = {f.name: f for f in functions}
    n = len(findings)
    text = Text(
        f"{counted(n, 'problem')} with the {counted(total, 'configured function')}:", style="bold"
    )
    text.no_wrap, text.overflow = True, "ellipsis"
    lines = findings if n <= room else findings[: room - 1]
    for finding in lines:
        text.append("\n")
        text.append_text(finding_line(finding, by_name.get(finding.name)))
    if len(lines) < n:
        text.append(f"\n… and {n - len(lines)} more (press v for the problem rows)", "dim")
    return text
