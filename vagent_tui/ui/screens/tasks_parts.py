"""The Tasks screen's words and cells (no Textual): its header, a task's row, the question
before deleting one, the refused rows of a CSV upload (the checks before and after it:
`vagent_tui.services.tasks_csv`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from rich.text import Text

from vagent_tui.api.models import CsvUpload, OutboundTask
from vagent_tui.services.paging import Pager
from vagent_tui.services.tasks import PAGE_SIZE, TaskFilter
from vagent_tui.ui import format as fmt
from vagent_tui.ui.colours import FAILED, OK, WARN
from vagent_tui.ui.text import inert, safe
from vagent_tui.words import counted

STATE_STYLES = {"finished": OK, "errored": FAILED, "running": WARN, "processing": WARN,
                "canceled": "dim", "cancelled": "dim"}  # fmt: skip


def header_line(pager: Pager[TaskFilter, OutboundTask]) -> Text:
    """``Tasks · 120 tasks · page 2 of 3 · state: all · changed: any time · 50/page``: the
    page on show, and the filters asked for last."""
    want, shown = pager.query, pager.shown
    text = Text(no_wrap=True, overflow="ellipsis")
    text.append("Tasks", style="bold")
    if shown is not None:
        text.append(f" · {counted(shown.total, 'task')}")
        text.append(f" · page {shown.page + 1:,} of {shown.last_page + 1:,}")
    text.append(inert(f" · state: {want.state or 'all'} · changed: {want.window_label}"))
    text.append(f" · {PAGE_SIZE}/page")
    return text


REFUSED_SHOWN = 4
"""Reasons of refusal listed in the question (the rest are counted)."""
ROWS_NAMED = 3
"""Row numbers named for a reason (the rest are counted)."""


def refused_lines(result: CsvUpload) -> list[str]:
    """The refused rows grouped by reason, most rows first: ``reason: rows 3, 7 and 2
    more`` (a cap refuses hundreds of rows for one reason: one line, not hundreds)."""
    groups: dict[str, list[str]] = {}
    targets: dict[str, str] = {}
    for r in result.refused_rows():
        reason = fmt.plain(r.reason)
        groups.setdefault(reason, []).append(fmt.plain(r.row))
        targets.setdefault(reason, fmt.plain(r.target))
    ordered = sorted(groups.items(), key=lambda item: -len(item[1]))
    lines = []
    for reason, rows in ordered[:REFUSED_SHOWN]:
        if len(rows) == 1:
            lines.append(f"row {rows[0]} ({targets[reason]}): {reason}")
            continue
        named = ", ".join(rows[:ROWS_NAMED])
        more = f" and {len(rows) - ROWS_NAMED:,} more" if len(rows) > ROWS_NAMED else ""
        lines.append(f"{counted(len(rows), 'row')} ({named}{more}): {reason}")
    rest = sum(len(rows) for _, rows in ordered[REFUSED_SHOWN:])
    if rest:
        lines.append(f"… and {counted(rest, 'more row')} refused for other reasons")
    return lines


def delete_question(task: OutboundTask, who: str) -> tuple[str, str, str]:
    """The title, text and button of the question before deleting ``task``: what becomes
    of it by its state. vida-skill: "deletion stops active work before removing the
    Task record"; so a running task's call is ended, a pending one never placed."""
    state = task.state_text.lower()
    shown = inert(task.state_text) or "state unknown"
    what = f"Delete task {task.key} ({fmt.plain(task.type)} to {fmt.plain(task.target)}, {shown})"
    if task.active:
        return ("Stop and delete a running task",
                f"{what} of {who}?\nIt is under way: the platform stops its work first (a call "
                "in progress is ended), then removes the task.", "Stop and delete")  # fmt: skip
    if state == "pending":
        return ("Delete a pending task", f"{what} of {who}?\nIt will not be placed.", "Delete")
    if task.ended:
        return ("Delete an ended task",
                f"{what} of {who}?\nIt has ended: its record goes; what it did is not undone.",
                "Delete")  # fmt: skip
    return ("Delete a task",
            f"{what} of {who}?\nIts state is not known: if it is under way, the platform "
            "stops its work first, then removes it.", "Delete")  # fmt: skip


def _when(task: OutboundTask, name: str) -> str:
    moment = task.when(name)
    return moment.strftime("%m-%d %H:%M") if moment else "—"


COLUMNS: dict[str, tuple[str, int]] = {
    "account": ("Account", 14), "id": ("ID", 10), "type": ("Type", 4), "state": ("State", 8),
    "target": ("Target", 13),
    "scheduled": ("Scheduled", 11), "updated": ("Updated", 11), "result": ("Result", 0),
}  # fmt: skip
"""Each column's label and width (the result takes what the others leave)."""
NARROW_DROPS = frozenset({"updated"})
"""Left out below 100 columns, so the table fits 80 without scrolling sideways."""
OF_MANY_ACCOUNTS = frozenset({"account"})
"""Shown only when the page holds tasks of an account other than the selected one (an
organization, a reseller or a partner lists the tasks of the agents below it)."""


def account_of(task: OutboundTask) -> int | str | None:
    """The task's account id: a number (sent as one or as its digits), other text as it
    is, None when the platform did not say (missing, null, "")."""
    account = task.account_id
    if isinstance(account, bool) or account is None:
        return None
    if isinstance(account, int):
        return account
    text = str(account).strip()
    if not text:
        return None
    return int(text) if text.isascii() and text.isdecimal() else text


def others_on_page(tasks: Iterable[OutboundTask], acting_id: int | None) -> bool:
    """Whether a task on the page belongs to an account other than ``acting_id``."""
    return any(account_of(t) not in (None, acting_id) for t in tasks)


def account_label(task: OutboundTask, names: Mapping[int, str]) -> str:
    """The task's account as the tree names it (``Front desk (#1111)``), else ``#1111``;
    "—" when the platform did not say."""
    account = account_of(task)
    if account is None:
        return "—"
    name = names.get(account) if isinstance(account, int) else None
    return f"{inert(name)} (#{inert(account)})" if name else f"#{inert(account)}"


def _scheduled(task: OutboundTask) -> str:
    """When the task is to start: its time; without one, a pending task starts at once
    (or when it may: the result says what it waits for) and any other has started."""
    if task.scheduled_for is not None:
        return _when(task, "scheduled_for")
    return "at once" if task.pending else "—"


def task_cells(task: OutboundTask, names: Mapping[int, str]) -> dict[str, Text]:
    """Every column's cell (one line each, cut with an ellipsis at its width); ``names``
    the account names the tree has read, by id."""
    state = task.state_text
    result = task.error if task.error not in (None, "") else task.result
    if result in (None, "") and task.waits_for:
        result = f"waits: {task.waits_for}"
    cells = {
        "account": safe(account_label(task, names)),
        "id": safe(task.key, style="bold"),
        "type": Text(fmt.plain(task.type)),
        "state": safe(state or "—", style=STATE_STYLES.get(state, "")),
        "target": Text(fmt.plain(task.target)),
        "scheduled": safe(_scheduled(task)),
        "updated": Text(inert(_when(task, "updated_at"))),
        "result": Text(fmt.plain(result)),
    }  # fmt: skip
    for cell in cells.values():
        cell.no_wrap, cell.overflow = True, "ellipsis"
    return cells
