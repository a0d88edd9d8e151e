"""What the Onboard screen holds between keys, and its table's columns, without an app.

`OnboardState` is the file, its plan, the run's log and which rows show (``o``), with the
header's lines made from them; `column_widths` sizes the plan's columns to a width.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from rich.cells import cell_len

from vagent_tui.services.bulk import DONE, AccountResult, RolloutLog
from vagent_tui.services.onboard import LABELS, OnboardPlan, RowPlan
from vagent_tui.ui.text import inert
from vagent_tui.words import counted

MAX_DETAIL = 160
SHOWN = ("all", "writes", "trouble", "refused")
SHOWN_LABEL = {
    "all": "all rows", "writes": "rows to create or update",
    "trouble": "rows refused, with an unknown parent or a failed write",
    "refused": "rows refused or with an unknown parent",
}  # fmt: skip
TROUBLE = ("refused", "unknown-parent", "unreadable")
"""Plans of a row that will not be written."""
COLUMNS = {"line": "Line", "type": "Type", "key": "Key", "name": "Name", "plan": "Plan",
           "result": "Result", "detail": "Details"}  # fmt: skip
NARROW_DROPS = frozenset({"name"})
"""Left out below 100 columns, so that the details fit 80 (Enter shows the row whole)."""
RESULT_WIDTH = 7
"""The longest result: ``written``."""
MIN_SHARED = 8
"""Key and name: at least this wide, however narrow the screen."""
MIN_DETAIL = 12

Longest = tuple[tuple[str, int], ...]
"""(column, its longest value) of the columns sized to their values."""


class Layout(NamedTuple):
    """What the table's columns are made for."""

    narrow: bool
    width: int
    longest: Longest


def cut_cell(text: str) -> str:
    """``text`` inert, at most `MAX_DETAIL` characters (an ellipsis says it was cut)."""
    text = inert(text, limit=MAX_DETAIL)
    return text if len(text) <= MAX_DETAIL else text[: MAX_DETAIL - 1] + "…"


def _widest(values: Iterable[str]) -> int:
    return max(map(cell_len, values), default=0)


def longest_values(plan: OnboardPlan | None) -> Longest:
    """The longest value of the columns sized to their values, over every row of ``plan``
    (``o`` keeps the columns where they are)."""
    rows = plan.rows if plan is not None else []
    return (
        ("line", _widest(str(p.row.line) for p in rows)),
        ("type", _widest(cut_cell(p.row.kind) for p in rows)),
        ("plan", _widest(LABELS[p.outcome] for p in rows)),
        ("key", _widest(cut_cell(p.row.key) for p in rows)),
        ("name", _widest(cut_cell(p.row.name) for p in rows)),
    )


def column_widths(layout: Layout) -> dict[str, int]:
    """The columns for ``layout``, in order, with their widths: line, type and plan as
    wide as their longest value, the result as its longest word, key and name as their
    longest up to a share of what is left, the details the rest; narrow, without the
    name (Enter shows the row whole)."""
    longest = dict(layout.longest)
    names = [c for c in COLUMNS if not (layout.narrow and c in NARROW_DROPS)]
    sizes = {c: max(len(COLUMNS[c]), longest.get(c, 0)) for c in ("line", "type", "plan")}
    # The result's column is as wide as its longest word from the start: grown by each
    # result as it came, its width would depend on the order they came in.
    sizes["result"] = RESULT_WIDTH
    room = layout.width - 2 * len(names) - 2 - sum(sizes.values())  # padding, scrollbar
    shared = [c for c in ("key", "name") if c in names]
    share = max(MIN_SHARED, room // (len(shared) + 1))
    for column in shared:
        sizes[column] = max(len(COLUMNS[column]), min(longest.get(column, 0), share))
    sizes["detail"] = max(MIN_DETAIL, room - sum(sizes[c] for c in shared))
    return {name: sizes[name] for name in names}


@dataclass
class OnboardState:
    """The Onboard screen's state.

    Attributes:
        path: the file opened (None: none yet).
        plan: its plan (None: not planned yet).
        results_log: the log of the runs of this file (what was written).
        shown: which rows show, one of `SHOWN`.
    """

    path: Path | None = None
    plan: OnboardPlan | None = None
    results_log: RolloutLog | None = None
    shown: str = "all"
    _longest: tuple[OnboardPlan | None, Longest] = field(default=(None, ()), repr=False)

    def result(self, p: RowPlan) -> AccountResult | None:
        """The result of the write of ``p``'s row, if a run wrote or tried it."""
        log = self.results_log
        return log.results.get((p.row.line, "write")) if log is not None else None

    def keeps(self, p: RowPlan) -> bool:
        """Whether ``p``'s row shows, given `shown`."""
        if self.shown == "writes":
            return p.writes
        if self.shown == "refused":
            return p.outcome in TROUBLE
        if self.shown == "trouble":
            result = self.result(p)
            failed = result is not None and result.result not in DONE
            return failed or p.outcome in TROUBLE
        return True

    def show_next(self) -> str:
        """``o``: the next choice of rows; its words."""
        self.shown = SHOWN[(SHOWN.index(self.shown) + 1) % len(SHOWN)]
        return SHOWN_LABEL[self.shown]

    def longest(self) -> Longest:
        """`longest_values` of the plan, worked out once per plan."""
        if self._longest[0] is not self.plan:
            self._longest = (self.plan, longest_values(self.plan))
        return self._longest[1]

    def source_line(self) -> str:
        """The header's first line: the file, its rows and what its plan writes."""
        if self.plan is None:
            return f"File: {self.path.name}" if self.path else "File: none yet · c opens one"
        rows = counted(len(self.plan.rows), "row")
        return f"File: {self.plan.source or 'loaded'} · {rows} · {self.plan.what_it_writes()}"

    def plan_line(self) -> str:
        """The header's second line between runs: the plan, what is written of it, the
        rows shown ("" before a plan)."""
        if self.plan is None:
            return ""
        text = f"Plan: {self.plan.summary()}"
        log = self.results_log
        if log is not None:
            done = sum(1 for p in self.plan.rows if p.writes and log.done(p.row.line, "write"))
            text += f" · {done:,}/{len(self.plan.writing()):,} written"
        return text + f" · showing {SHOWN_LABEL[self.shown]}"
