"""What the Usage screen draws, made from what it read: the chart's bars, the rows'
cells, the side panel, the notes under the table and the plans panel.

Functions of what was read (no widget, no app): the screen puts their text on show.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from rich.text import Text

from vagent_tui.api.models import OpenReply
from vagent_tui.services.account_usage import AccountUsage
from vagent_tui.services.plans import (
    PlanPart,
    catalog_lines,
    plan_lines,
    record_groups,
    today_lines,
)
from vagent_tui.services.usage import UsageReport, UsageRow, fmt_number, fmt_value
from vagent_tui.ui.caps import ROW_CAP, first, left_out_of
from vagent_tui.ui.colours import ACCENT, HEADING, WARN
from vagent_tui.ui.text import inert, safe

SHOWN_LINES = 100
"""Lines of each part of the side panel (the plan, the catalog's record, today's counts)
and of each read of the plans panel; the screen says how many more there were."""
SHOWN_NOTES = 6
"""Notes and parts not read named under the table (in a few lines)."""
NOTE_LENGTH = 80
"""Characters of a note's text under the table."""
SIDE_LENGTH = 200
"""Characters of a value in the side panel (the plans panel shows a whole value)."""
BARS = "▁▂▃▄▅▆▇█"


def bars(values: Sequence[Decimal], width: int, height: int = 1) -> list[str]:
    """A bar chart of ``values``: ``height`` lines at most ``width`` cells wide, top line
    first. Neighbouring points are summed into one bar when there are more points than
    cells; with room to spare a bar is up to 3 cells wide, with a gap."""
    if not values or width <= 0 or height <= 0:
        return []
    per = max(1, -(-len(values) // width))
    sums = [sum(values[i : i + per], Decimal(0)) for i in range(0, len(values), per)]
    cell = min(3, width // len(sums)) if len(sums) * 2 <= width else 1
    low = min(min(sums), Decimal(0))
    span = max(sums) - low
    steps = 8 * height
    levels = [int((v - low) / span * steps) if span > 0 else 0 for v in sums]
    lines = []
    for line in range(height - 1, -1, -1):
        chars = []
        for level in levels:
            fill = min(8, max(0, level - 8 * line))
            char = BARS[fill - 1] if fill else " "
            if line == 0 and not fill:
                char = BARS[0]  # every point has a foot: a zero still shows
            chars.append(char * (cell - 1 if cell > 1 else 1) + (" " if cell > 1 else ""))
        lines.append("".join(chars).rstrip())
    return lines


def cells(row: UsageRow, currency: str | None) -> list[Text]:
    kind = "cost" if row.cost else "usage"
    value = fmt_value(row, currency)
    points = f"{len(row.series):,}" if row.series else ""
    return [
        safe(row.key),
        safe(value + (" Σ" if row.summed else "")),
        Text(kind, style=WARN if row.cost else ""),
        Text(points),
    ]


def keys_left_out(report: UsageReport) -> str:
    """What the table leaves out of a usage reply ("" for nothing): the keys past
    `ROW_CAP`, what the reply held past the bounds it was read within."""
    left = report.left_out
    return left_out_of(max(0, len(report.rows) - ROW_CAP), "key", left.keys, left.items)


def field_lines(fields: Sequence[tuple[str, str]], *replies: OpenReply | None) -> list[Text]:
    """``name: value`` lines of the first `SHOWN_LINES` fields, then what was left out
    (of the lines, of the ``replies`` they were read from)."""
    shown, hidden = first(fields, SHOWN_LINES)
    lines = [
        Text.assemble(f"{inert(k, limit=SIDE_LENGTH)}: ", safe(v or "—", limit=SIDE_LENGTH))
        for k, v in shown
    ]
    left = [reply.left_out for reply in replies if reply is not None]
    said = left_out_of(hidden, "field", sum(n.keys for n in left), sum(n.items for n in left))
    if said:
        lines.append(Text(said, style="dim"))
    return lines


def side_lines(usage: AccountUsage, *, in_org: bool) -> list[Text]:
    """The side panel: the plan, what the catalog adds, today's counts (``in_org``: the
    organization's, for an agent account), the costs' total."""
    lines = [Text("Plan", style=HEADING)]
    if usage.plan is not None:
        plan = plan_lines(usage.plan)
        lines += field_lines(plan, usage.plan)
        if not plan:
            lines.append(Text("(the reply has no field)", style="dim"))
    else:
        lines.append(safe(f"not read: {usage.plan_error or 'no reply'}", WARN))
    catalog = catalog_lines(usage.plan, usage.product)
    if catalog:
        lines += [Text(""), Text("In the catalog", style=HEADING)]
        lines += field_lines(catalog, usage.product)
    today = today_lines(usage.counts, usage.limits)
    if today:
        # The task limits and the counts under them are the organization's (the
        # vendor: "the org's current task limits"): an agent's are its organization's.
        heading = "Today (organization)" if in_org else "Today (of the daily limit)"
        lines += [Text(""), Text(heading, style=HEADING)]
        lines += field_lines(today, usage.counts, usage.limits)
    total = usage.report.cost_total
    if total is not None:
        currency = usage.report.currency
        text = fmt_number(total, places=2)
        text = f"{currency} {text}" if currency else f"{text} (no currency stated)"
        lines += [Text(""), Text("Costs", style=HEADING), safe(text)]
        report = usage.report
        sent = any(r.key.lower() in ("cost:total", "total") for r in report.costs)
        if report.left_out.entries and not sent:
            lines.append(Text("the sum of the costs read: the reply holds more", style="dim"))
    return lines


def notes_text(report: UsageReport, *, shown: bool) -> str:
    """The lines under the table: what the table leaves out, the parts not read, the
    reply's notes (``shown``: a usage is on show, so an empty one is said)."""
    parts: list[str] = []
    if report.unread:
        unread, more = first(report.unread, SHOWN_NOTES)
        parts.append("Not read: " + ", ".join(unread) + (f" and {more:,} more" if more else ""))
    if report.notes:
        parts.append(
            " · ".join(
                f"{inert(k, limit=NOTE_LENGTH)}: {inert(v, limit=NOTE_LENGTH)}"
                for k, v in report.notes[:SHOWN_NOTES]
            )
        )
    if shown and not report.rows:
        parts.insert(0, "The usage reply holds no number this console can read")
    # first: the notes show three lines at most
    if left_out := keys_left_out(report):
        parts.insert(0, left_out)
    if any(r.summed for r in report.rows):
        parts.append("Σ: the sum of the row's series (no total was sent)")
    return "\n".join(parts)


def plans_text(parts: Sequence[PlanPart]) -> Text:
    """The plans panel: each part read, its request, its fields or why it was not read."""
    lines: list[Text] = []
    for part in parts:
        title = (inert(part.title), HEADING)
        lines.append(Text.assemble(title, (inert(f"  GET {part.path}"), "dim")))
        if part.error:
            lines.append(safe(f"  not read: {part.error}", WARN))
        elif not part.lines:
            lines.append(Text("  (the reply has no field)", style="dim"))
        else:
            fields_shown, hidden = first(part.lines, SHOWN_LINES)
            for record, fields in record_groups(fields_shown):
                if not record:
                    key, value = fields[0]
                    lines.append(Text.assemble(f"  {inert(key)}: ", safe(value or "—")))
                    continue
                said = " · ".join(f"{key}: {value or '—'}" for key, value in fields)
                lines.append(Text.assemble((f"  {inert(record)}  ", ACCENT), safe(said)))
            left = part.left_out
            if said := left_out_of(hidden, "field", left.keys, left.items):
                lines.append(Text(f"  {said}", style="dim"))
        lines.append(Text(""))
    return Text("\n").join(lines[:-1])
