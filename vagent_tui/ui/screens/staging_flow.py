"""Writing a change to the selected agent's staging, the same way from every screen.

Run from a screen's ``write-*`` worker: read the account's staging, live and the lists
the change is checked against; refuse with the specific reasons, or say it is already
so; show the diff and ask; read staging again and, when someone changed it meanwhile,
show what moved and ask again; then write once, through the write path
(`vagent_tui.ui.writes`). A write whose reply never came is not retried: staging is read
back and the screen says whether the change is there.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from vagent_tui.api.errors import PlatformError
from vagent_tui.api.models import StagingWrite
from vagent_tui.services.changes import Change, Plan
from vagent_tui.services.diff import FieldDiff, diff_configs, holds, summary
from vagent_tui.services.session import Connection
from vagent_tui.services.staging import base_moved, context_for, plan_for, read_slots
from vagent_tui.ui.dialogs import ReviewModal
from vagent_tui.ui.diff_text import Names, diff_text
from vagent_tui.ui.screens.base import BaseScreen, who_of
from vagent_tui.ui.writes import Write, Written

Outcome = Literal["written", "already", "refused", "cancelled", "failed"]


@dataclass(frozen=True)
class Staged:
    """How a staging write ended; ``error`` is the platform's when it refused the write."""

    outcome: Outcome
    plan: Plan | None = None
    error: PlatformError | None = None
    line: str = ""
    """What the status line said of the write (shown again where the flow returns)."""


def staging_write(
    screen: BaseScreen,
    change: Change,
    *,
    what: str,
    seen: Mapping[str, Any] | None = None,
    names: Names | None = None,
    then: Callable[[Staged], object] | None = None,
) -> Write[StagingWrite]:
    """``change`` to the selected agent's staging as a `Write`: its question checks,
    shows and confirms; ``then`` hears how it ended.

    ``seen`` is the configuration the user based the change on (a form's), when the
    screen showed one: if staging moved since, the review says what moved.
    """
    who = who_of(screen)
    status = screen.status
    # What the question found: the plan confirmed, or how it ended before sending.
    plans: list[Plan] = []
    ended: list[Staged] = []

    async def confirm() -> bool:
        start = screen.connection
        client, target = start.api, start.target_id
        status.busy(f"Checking {what} against the staging of {who}")
        try:
            context = await context_for(client, target, change)
        except PlatformError as exc:
            status.error(exc)
            ended.append(Staged("failed", error=exc))
            return False
        moved: list[FieldDiff] = []
        if seen is not None and dict(seen) != context.base:
            moved = diff_configs(seen, context.base)
        while True:
            plan = plan_for(change, context)
            plans[:] = [plan]
            if plan.refused:
                reasons = "; ".join(str(r) for r in plan.refusals)
                status.error(f"Refused, nothing was sent: {reasons}", retry_key=None)
                ended.append(Staged("refused", plan=plan))
                return False
            if plan.already:
                status.info(f"Nothing to write: staging of {who} already has {what}.")
                ended.append(Staged("already", plan=plan))
                return False
            slot = "staging" if context.staging is not None else "live (staging is empty)"
            review = ReviewModal(
                f"Write {what} to the staging of {who}?",
                f"Against its {slot}: {summary(plan.diffs)}. Live is not changed until you "
                "publish (Agent screen, P)." + "".join(f"\n⚠ {note}" for note in plan.notes),
                diff_text(plan.diffs, names=names),
                meanwhile=diff_text(moved, names=names) if moved else None,
                confirm_label="Write staging",
            )
            if not await screen.app.push_screen_wait(review):
                status.info("Cancelled; nothing was sent.")
                return False
            try:
                context, moved = await base_moved(client, target, context)
            except PlatformError as exc:
                status.error(exc)
                ended.append(Staged("failed", plan=plan, error=exc))
                return False
            if not moved:
                return True  # else someone wrote meanwhile: plan again on what is there

    def after(written: Written[StagingWrite]) -> None:
        plan = plans[0] if plans else None
        if ended:
            staged = ended[0]
        elif written.outcome == "done":
            staged = Staged("written", plan=plan, line=written.line)
        elif written.outcome in ("cancelled", "moved"):
            staged = Staged("cancelled", plan=plan)
        else:
            staged = Staged("failed", plan=plan, error=written.error)
        if then is not None:
            then(staged)

    return Write(
        "staging",
        f"Writing the staging of {who}",
        lambda c: c.api.write_staging(plans[0].body, target=c.target_id),
        confirm=confirm,
        done=lambda _reply: (
            f"Staging of {who} saved: {summary(plans[0].diffs)}. Publish it on the Agent screen."
        ),
        read_back=lambda c: _in_staging(c, plans[0]),
        after=after,
    )


async def stage_change(
    screen: BaseScreen,
    change: Change,
    *,
    what: str,
    seen: Mapping[str, Any] | None = None,
    names: Names | None = None,
) -> Staged:
    """`staging_write` performed from a ``write-`` worker the screen runs (a flow that
    goes on after it, such as an editor asked again); how it ended."""
    ended: list[Staged] = []
    await screen.written(
        staging_write(screen, change, what=what, seen=seen, names=names, then=ended.append)
    )
    return ended[0]


async def _in_staging(conn: Connection, plan: Plan) -> str:
    """No reply to the write: whether ``conn``'s staging holds the change now."""
    slots = await read_slots(conn.api, conn.target_id)
    there = holds(slots.staging, plan.body)
    return "the change IS in staging." if there else "the change is NOT in staging."
