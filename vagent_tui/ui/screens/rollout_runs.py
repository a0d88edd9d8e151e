"""Runs of a rollout: writing staging (``A``) and publishing (``P``), with progress.

`RolloutRuns` is the base of `vagent_tui.ui.screens.rollout.RolloutScreen`: it holds the
plan in force and its log, and runs what changes the platform. A review (a typed
``publish`` for a publish wave) comes first; the write goes through the connection the
review was opened on, and only to accounts the key reaches. A run reports each account
to `_take`; a timer shows the counts, the rate and the bar ten times a second
(`vagent_tui.ui.screens.run_progress.RunProgress`, shared with Onboard). ``x``
stops gently (the accounts under way finish and are recorded), a second ``x`` abandons
them (a rerun reads their staging back). Planning uses the same progress.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Literal

from rich.text import Text
from textual import work

from vagent_tui.api.client import PlatformClient
from vagent_tui.services.accounts import NamedAccount
from vagent_tui.services.bulk import DONE, AccountResult, RolloutBusy, RolloutLog
from vagent_tui.services.bulk import origin_of as origin_of  # Onboard's too
from vagent_tui.services.bulk import rollout_concurrency as rollout_concurrency
from vagent_tui.services.rollout import AccountPlan, RolloutPlan
from vagent_tui.services.rollout_apply import apply_rollout, publish_rollout, save_plan
from vagent_tui.services.session import Connection
from vagent_tui.ui.dialogs import PromptModal, ReviewModal
from vagent_tui.ui.failures import WRITE_GROUP_PREFIX
from vagent_tui.ui.screens.run_progress import RunProgress
from vagent_tui.ui.text import inert
from vagent_tui.ui.widgets.rollout_table import RolloutTable
from vagent_tui.ui.widgets.status import describe_error
from vagent_tui.words import counted, noun_for

REVIEW_LINES = 30
"""Accounts listed by name in a review; the rest are counted."""
APPLY_GROUP = WRITE_GROUP_PREFIX + "rollout"


class RolloutRuns(RunProgress):
    """The plan in force, its log, and the runs that write and publish it."""

    PLAN_GROUP = "rollout-plan"
    ABANDON_GROUP = APPLY_GROUP
    STOPPING = "Stopping: the accounts under way finish and are recorded (x again abandons them)"

    def __init__(self) -> None:
        super().__init__()
        self.accounts: Sequence[NamedAccount] | None = None
        self.listed_with: Connection | None = None
        """The connection the accounts were listed with."""
        self.plan: RolloutPlan | None = None
        self.results_log: RolloutLog | None = None
        self.concurrency = rollout_concurrency()
        self._stale = False
        """The connection changed during a run: the accounts are listed again after it."""

    @property
    def table(self) -> RolloutTable:
        return self.query_one("#rollout-table", RolloutTable)

    def on_unmount(self) -> None:
        if self.results_log is not None:
            self.results_log.release()  # the app ends: another console may take the plan

    def _show(self) -> None:
        """Draw the plan's rows again (the screen's table, with its filter)."""
        raise NotImplementedError

    def _describe(self) -> None:
        """Write the header lines again (the change, the counts)."""
        raise NotImplementedError

    def _end(self) -> None:
        super()._end()
        if self._stale:  # the connection changed during the run
            self._stale = False
            self.listed_with = None
            self.call_after_refresh(self.action_reload)

    def _reported(self, item: object) -> str:
        """A plan, a result (its row drawn again), or None: an account left out."""
        if isinstance(item, AccountPlan):
            return item.outcome
        if isinstance(item, AccountResult):
            self.table.put_result(item, self.results_log.results if self.results_log else {})
            return item.result
        return "left out"

    def action_stop(self) -> None:
        """``esc``: the gentle stop only (never abandons writes under way)."""
        if self.phase == "plan":
            self.workers.cancel_group(self, self.PLAN_GROUP)
        elif self.phase and not self._stopping:
            self.action_cancel()

    # ------------------------------------------------------------------ apply

    def _may_write(self) -> tuple[RolloutPlan, RolloutLog, Connection] | None:
        """The plan, its log and the connection a write may go through, or None (said)."""
        plan, log, connection = self.plan, self.results_log, self.connection
        if plan is None or log is None:
            self.status.info("Nothing planned yet: c chooses a change")
            return None
        if plan.origin != origin_of(connection):
            self.status.error(f"This plan was made for {plan.origin}; this console is connected "
                              f"to {origin_of(connection)}. Plan it again here.")  # fmt: skip
            return None
        listed = self.listed_with is not None and self.listed_with.client is connection.client
        if not listed or self.accounts is None:
            self.status.info("The agent accounts of this key are being listed: try again then")
            if not listed:
                self.action_reload()
            return None
        reach = {a.id for a in self.accounts}
        strangers = sorted(plan.changing() - reach)
        if strangers:
            shown = ", ".join(str(a) for a in strangers[:5])
            self.status.error(f"The plan names {counted(len(strangers), 'account')} this "
                              f"key does not reach ({shown}…): nothing is sent; plan it "
                              "again")  # fmt: skip
            return None
        if self.busy_writing():
            return None
        return plan, log, connection

    def _still(self, connection: Connection) -> bool:
        """Whether writes may still go through ``connection`` (asked after a dialog)."""
        now = self.connection
        if now.client is connection.client and not now.read_only and not self.phase:
            return True
        self.status.error("The connection changed while the dialog was open: nothing was sent")
        return False

    def action_apply(self) -> None:
        allowed = self._may_write()
        if allowed is None:
            return
        plan, log, connection = allowed
        todo = [p for p in plan.accounts if p.outcome == "change"
                and not log.done(p.account_id, "write")]  # fmt: skip
        if not todo:
            written = len(log.written())
            self.status.info(f"Nothing to write: {written:,} written already"
                             + (", P publishes them" if written else ""))  # fmt: skip
            return
        done = len(log.written())
        skipped = f"{done:,} written by an earlier run are skipped. " if done else ""
        intro = (
            f"Write the staging of {counted(len(todo), 'account')}: {plan.change.describe()}. "
            f"{skipped}Nothing goes live until you publish (P). Each account's staging is "
            "read again first: one that changed since the plan is skipped and listed."
        )
        review = ReviewModal(
            f"Apply the rollout to {counted(len(todo), 'account')}", intro, _listing(todo),
            confirm_label=f"Write {len(todo):,}",
        )  # fmt: skip

        def answer(yes: bool | None) -> None:
            if yes and self._still(connection):
                self._begin("write", len(todo))
                self.table.put_pending([p.account_id for p in todo])
                self.status.busy(f"Writing staging of {counted(len(todo), 'account')}, "
                                 f"{self.concurrency} at a time · x cancels")  # fmt: skip
                self._apply(plan, log, connection.api)

        self.app.push_screen(review, answer)

    @work(group=APPLY_GROUP, exit_on_error=False)
    async def _apply(self, plan: RolloutPlan, log: RolloutLog, client: PlatformClient) -> None:
        cancelled, problem = False, None
        try:
            await asyncio.to_thread(save_plan, plan, log=log)  # a restart finds it
            log.hold()
            await apply_rollout(client, plan, log, concurrency=self.concurrency,
                                on_result=self._take,
                                stop=lambda: self._stopping)  # fmt: skip
        except asyncio.CancelledError:
            cancelled = True
            raise
        except RolloutBusy as exc:
            problem = f"{exc} (another console?): wait for it, or close it"
        except Exception as exc:
            problem = f"Stopped: {describe_error(first_error(exc))}. What was written is listed"
        finally:
            log.release()  # another console may take the plan between runs
            self._after("write", cancelled=cancelled or self._stopping, problem=problem)

    def _after(
        self, step: Literal["write", "publish"], *, cancelled: bool, problem: str | None = None
    ) -> None:
        self._end()
        self._show()
        self._describe()
        elapsed = self._elapsed()
        counts = self._counts() or "nothing"
        log = self.results_log
        written = len(log.written()) if log else 0
        again = "A writes the rest" if step == "write" else "P publishes the rest"
        if problem is not None:
            self.status.error(f"{problem} ({counts}); {again}, skipping what is done.")
            return
        if cancelled:
            self.status.info(f"Cancelled after {elapsed}: {counts}. What was done stays done "
                             f"and is listed; {again}, skipping it.")  # fmt: skip
            return
        trouble = sum(n for k, n in self._tally.items() if k not in DONE)
        follow = " · o shows the accounts with trouble" if trouble else ""
        if step == "write":
            # What a flaky link leaves is one key away: a write is never resent by itself.
            left = sum(n for k, n in self._tally.items() if k in ("failed", "unknown"))
            moved = self._tally.get("changed-meanwhile", 0)
            hints = []
            if left:
                hints.append(f"A tries the {left:,} not written again (each read first)")
            if moved:
                hints.append(f"{moved:,} changed since the plan: p plans again")
            if hints:
                follow = " · " + "; ".join(hints) + "; o shows them"
            self.status.ok(f"Written in {elapsed}: {counts}. P publishes the "
                           f"{counted(written, 'written account')}{follow}")  # fmt: skip
        else:
            left, refused = self._untried(), len(self._unpublished()) - self._untried()
            more = ""
            if left:
                wait, them = noun_for(left, "waits", "wait"), noun_for(left, "it", "them")
                more = f" · {counted(left, 'written account')} {wait}: P publishes {them}"
            if refused and not left:
                more = f" · {refused:,} not published; P checks them again"
            self.status.ok(f"Published in {elapsed}: {counts}{more}{follow}")

    # ------------------------------------------------------------------ publish

    def _unpublished(self) -> list[AccountPlan]:
        if self.plan is None or self.results_log is None:
            return []
        log = self.results_log
        seen: set[int] = set()
        out: list[AccountPlan] = []
        tried: list[AccountPlan] = []
        for p in self.plan.accounts:
            a = p.account_id
            if a not in seen and log.done(a, "write") and not log.done(a, "publish"):
                seen.add(a)
                (tried if (a, "publish") in log.results else out).append(p)
        return out + tried  # those not tried yet first; refused ones are checked again last

    def _untried(self) -> int:
        """Written accounts no publish has looked at yet."""
        log = self.results_log
        if log is None:
            return 0
        return sum(1 for p in self._unpublished() if (p.account_id, "publish") not in log.results)

    def action_publish(self) -> None:
        allowed = self._may_write()
        if allowed is None:
            return
        connection = allowed[2]
        waiting = self._unpublished()
        if not waiting:
            self.status.info("Nothing to publish: no written account waits (A writes them)")
            return

        def check(text: str) -> str | None:
            text = text.strip().lower()
            if text == "all" or (text.isdecimal() and 1 <= int(text) <= len(waiting)):
                return None
            return f"all, or a number from 1 to {len(waiting):,}"

        def wave(text: str | None) -> None:
            if text is None:
                return
            size = len(waiting) if text.strip().lower() == "all" else int(text)
            self._confirm_publish(waiting[:size], len(waiting), connection)

        self.app.push_screen(
            PromptModal(
                "Publish: all, or a first wave",
                f"{counted(len(waiting), 'written account')} "
                f"{noun_for(len(waiting), 'is', 'are')} not published yet. How many go live "
                "now? A number publishes a first wave (in plan order); P again does the rest.",
                value="all", confirm_label="Next", validate=check,
            ),
            wave,
        )  # fmt: skip

    def _confirm_publish(
        self, wave: list[AccountPlan], waiting: int, connection: Connection
    ) -> None:
        plan, log = self.plan, self.results_log
        if plan is None or log is None:
            return
        rest = waiting - len(wave)
        later = (
            f" {rest:,} {noun_for(rest, 'stays', 'stay')} written for a later wave." if rest else ""
        )
        intro = (
            f"Publish {counted(len(wave), 'account')}: {plan.change.describe()}. Their staging "
            "goes live: callers get it at once. An account is published only when publishing "
            "changes its live configuration by exactly this (no one else's unpublished "
            f"edit, no newer live undone); the others are listed.{later}"
        )
        review = ReviewModal(
            f"Publish {counted(len(wave), 'account')}", intro, _listing(wave),
            confirm_label=f"Publish {len(wave):,}", expected="publish",
        )  # fmt: skip

        def answer(yes: bool | None) -> None:
            if not yes or not self._still(connection):
                return
            ids = [p.account_id for p in wave]
            self._begin("publish", len(ids))
            self.table.put_pending(ids)
            self.status.busy(f"Publishing {counted(len(ids), 'account')} · x cancels")
            self._publish(plan, log, ids, connection.api)

        self.app.push_screen(review, answer)

    @work(group=APPLY_GROUP, exit_on_error=False)
    async def _publish(
        self, plan: RolloutPlan, log: RolloutLog, ids: list[int], client: PlatformClient
    ) -> None:
        cancelled, problem = False, None
        try:
            log.hold()
            await publish_rollout(client, plan, ids, log, concurrency=self.concurrency,
                                  on_result=self._take,
                                  stop=lambda: self._stopping)  # fmt: skip
        except asyncio.CancelledError:
            cancelled = True
            raise
        except RolloutBusy as exc:
            problem = f"{exc} (another console?): wait for it, or close it"
        except Exception as exc:
            problem = f"Stopped: {describe_error(first_error(exc))}. What was published is listed"
        finally:
            log.release()
            self._after("publish", cancelled=cancelled or self._stopping, problem=problem)


def first_error(exc: BaseException) -> BaseException:
    """The first error inside an exception group (a pool of workers raises one)."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return exc


def _listing(plans: list[AccountPlan]) -> Text:
    """The accounts of a review, one per line with what changes; past a screenful, counted."""
    text = Text()
    for p in plans[:REVIEW_LINES]:
        text.append(f"{inert(p.account_id)}  {inert(p.name, limit=60)}", style="bold")
        text.append(f"  {inert('; '.join(p.changes), limit=200)}\n")
    if len(plans) > REVIEW_LINES:
        text.append(f"… and {counted(len(plans) - REVIEW_LINES, 'more account')}", style="dim")
    return text
