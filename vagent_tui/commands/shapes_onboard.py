"""Item shapes of ``vagent-tui onboard`` and ``tasks`` (`vagent_tui.commands.schemas`)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

from vagent_tui.commands.schemas import Item


class RowProblem(Item):
    """Why a row is refused, where: the file's line and the column it concerns (None: the
    row as a whole, or the platform's answer); ``column_number`` from 1 (a CSV's)."""

    line: int
    column: str | None
    column_number: int | None
    message: str


class OnboardRowItem(Item):
    """``onboard plan``: one row of the file and what applying it would do."""

    line: int
    type: str
    key: str
    """What the row is matched on: an external id, a member's email."""
    name: str
    outcome: Literal["create", "update", "already", "refused", "unknown-parent", "unreadable"]
    changes: list[str]
    problems: list[RowProblem]
    detail: str
    """The changes, or the problems, in one line (a table's or a CSV's column)."""
    target_id: int | None
    """The platform's id of what an update changes."""
    parent_id: int | None
    brings: str | None
    """A phone number the row brings to its account (a fee)."""


class OnboardResultItem(Item):
    """``onboard apply``: one row to write and how its write ended."""

    line: int
    type: str
    key: str
    outcome: Literal["create", "update"]
    result: Literal["written", "failed", "unknown", "changed-meanwhile", "nothing", "not-sent"]
    message: str
    earlier: bool
    """Written by an earlier run (a command's or the console's), nothing sent now."""


class TasksRowItem(Item):
    """``tasks plan``/``tasks apply``: one row of the CSV as the platform answered it."""

    row: int | None
    """The file's line (the header is line 1)."""
    target: str
    type: str | None
    outcome: Literal["would-queue", "queued", "refused"]
    reason: str | None
    column: str | None
    """The file's column the reason names, when it names one."""
    task_id: str | None


SHAPES: dict[str, type[BaseModel]] = {
    "onboard-row": OnboardRowItem,
    "onboard-result": OnboardResultItem,
    "tasks-row": TasksRowItem,
}
