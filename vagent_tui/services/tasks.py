"""Outbound tasks: one page of them with the counts the Tasks screen shows beside it,
and a test call's task followed to its end.

`read_tasks` reads the page (its failure is the read's), then the counts by state,
today's counts and the limits; a part that fails is left out with its error, so a
platform that does not serve the stats still lists its tasks. `TaskFilter` is what the
list is asked for: a state, a window of time (the page is the screen's `Pager`'s).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from vagent_tui.api.errors import PlatformError
from vagent_tui.api.models import TASK_STATES, OpenReply, TaskPage, TaskQuery, TaskStats

if TYPE_CHECKING:
    from vagent_tui.api.client import PlatformClient

PAGE_SIZE = 50
STATE_CHOICES: tuple[str | None, ...] = (None, *TASK_STATES)
"""What ``s`` cycles through: every task, then each public state of a task."""
WINDOWS: tuple[tuple[int | None, str], ...] = (
    (None, "any time"),
    (3600, "the last hour"),
    (86_400, "the last 24 hours"),
    (7 * 86_400, "the last 7 days"),
)
"""What ``t`` cycles through: how far back a task's last change may be."""


@dataclass(frozen=True)
class TaskFilter:
    """The list as asked: state, window (an index of `WINDOWS`)."""

    state: str | None = None
    window: int = 0

    @property
    def window_label(self) -> str:
        return WINDOWS[self.window % len(WINDOWS)][1]

    def next_state(self) -> TaskFilter:
        at = STATE_CHOICES.index(self.state) if self.state in STATE_CHOICES else 0
        return replace(self, state=STATE_CHOICES[(at + 1) % len(STATE_CHOICES)])

    def next_window(self) -> TaskFilter:
        return replace(self, window=(self.window + 1) % len(WINDOWS))

    def query(self, page: int, now: float, size: int = PAGE_SIZE) -> TaskQuery:
        """Page ``page`` (from 0) of ``size`` tasks."""
        seconds = WINDOWS[self.window % len(WINDOWS)][0]
        since = int(now - seconds) if seconds is not None else None
        return TaskQuery(limit=size, offset=page * size, since=since, state=self.state)


def total_of(page: TaskPage) -> int | None:
    """The number of matching tasks the reply says, None when it says none."""
    total = page.total
    if isinstance(total, bool):
        return None
    if isinstance(total, int | float):
        return max(0, int(total))
    if isinstance(total, str) and total.strip().isdecimal():
        return int(total.strip())
    return None


@dataclass(frozen=True)
class TasksView:
    """What the Tasks screen shows: the page and, each when it could be read, the
    counts by state, today's counts and the limits."""

    page: TaskPage
    stats: TaskStats | None = None
    counts: OpenReply | None = None
    limits: OpenReply | None = None
    errors: tuple[str, ...] = ()


async def read_tasks(client: PlatformClient, wanted: TaskQuery, target: int | None) -> TasksView:
    """The page ``wanted`` and what is beside it (see the module)."""
    page = await client.list_tasks(wanted, target=target)
    errors: list[str] = []
    stats = counts = limits = None
    try:
        stats = await client.get_task_stats(target=target)
    except PlatformError as exc:
        errors.append(f"counts by state: {exc}")
    try:
        counts = await client.get_daily_counts(target=target)
        limits = await client.get_task_limits(target=target)
    except PlatformError as exc:
        errors.append(f"today's counts: {exc}")
    return TasksView(page, stats, counts, limits, tuple(errors))
