"""Writing a change to the selected agent's staging, the same way from every screen.

Run from a screen's ``write-*`` worker: read the account's staging, live and the lists
the change is checked against; refuse with the specific reasons, or say it is already
so; show the diff and ask; read staging again and, when someone changed it meanwhile,
show what moved and ask again; then write once. A write whose reply never came is not
retried: staging is read back and the screen says whether the change is there.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from vagent_tui.api.errors import PlatformError
from vagent_tui.services.changes import Change, Plan
from vagent_tui.services.diff import FieldDiff, diff_configs, holds, summary
from vagent_tui.services.session import Connection
from vagent_tui.services.staging import base_moved, context_for, plan_for, read_slots
from vagent_tui.ui.dialogs import ReviewModal
from vagent_tui.ui.diff_text import Names, diff_text
from vagent_tui.ui.screens.base import BaseScreen, who_of
from vagent_tui.ui.widgets.status import describe_error, outcome_unknown

Outcome = Literal["written", "already", "refused", "cancelled", "failed"]


@dataclass(frozen=True)
class Staged:
    """How a staging write ended; ``error`` is the platform's when it refused the write."""

    outcome: Outcome
    plan: Plan | None = None
    error: PlatformError | None = None


async def stage_change(
    screen: BaseScreen,
    change: Change,
    *,
    what: str,
    seen: Mapping[str, Any] | None = None,
    names: Names | None = None,
) -> Staged:
    """Check, show, confirm and write ``change`` to the selected agent's staging.

    ``seen`` is the configuration the user based the change on (a form's), when the
    screen showed one: if staging moved since, the review says what moved.
    """
    start = screen.connection
    client, target, who = start.api, start.target_id, who_of(screen)
    status = screen.status
    status.busy(f"Checking {what} against the staging of {who}")
    try:
        context = await context_for(client, target, change)
    except PlatformError as exc:
        status.error(exc)
        return Staged("failed", error=exc)
    moved: list[FieldDiff] = []
    if seen is not None and dict(seen) != context.base:
        moved = diff_configs(seen, context.base)
    while True:
        plan = plan_for(change, context)
        if plan.refused:
            reasons = "; ".join(str(r) for r in plan.refusals)
            status.error(f"Refused, nothing was sent: {reasons}", retry_key=None)
            return Staged("refused", plan=plan)
        if plan.already:
            status.info(f"Nothing to write: staging of {who} already has {what}.")
            return Staged("already", plan=plan)
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
            return Staged("cancelled", plan=plan)
        try:
            context, moved = await base_moved(client, target, context)
        except PlatformError as exc:
            status.error(exc)
            return Staged("failed", plan=plan, error=exc)
        if not moved:
            break  # someone else wrote meanwhile: plan again on what is there, and ask
    if not start.same_context(screen.connection):  # the review stayed open meanwhile
        status.info("The target account changed meanwhile; nothing was sent.")
        return Staged("cancelled", plan=plan)
    status.busy(f"Writing the staging of {who}")
    try:
        await client.write_staging(plan.body, target=target)
    except PlatformError as exc:
        if outcome_unknown(exc):
            await _say_what_happened(screen, plan, exc, start)
        else:
            status.error(exc, retry_key=None)
        return Staged("failed", plan=plan, error=exc)
    status.ok(f"Staging of {who} saved: {summary(plan.diffs)}. Publish it on the Agent screen.")
    screen.notify_if_away(f"Staging saved: {what}")
    return Staged("written", plan=plan)


async def _say_what_happened(
    screen: BaseScreen, plan: Plan, error: PlatformError, conn: Connection
) -> None:
    """No reply to the write: read ``conn``'s staging back, say whether the change is there."""
    try:
        slots = await read_slots(conn.api, conn.target_id)
    except PlatformError as again:
        screen.status.error(
            f"{describe_error(error)} Staging could not be read back either "
            f"({describe_error(again)}): look before writing again.",
            retry_key=None,
        )
        return
    there = holds(slots.staging, plan.body)
    found = "the change IS in staging" if there else "the change is NOT in staging"
    screen.status.error(f"{describe_error(error)} Read back: {found}.", retry_key=None)
