"""Rollout: one change to many agent accounts, planned, applied to staging, published in waves.

``c`` opens the form: the change (a voice, functions on or off, settings) and the accounts
(all agent accounts below the target; words matching a name or an organization;
``voice:``, ``engine:``, ``lang:`` matching the current configuration; or only the rows
marked in Fleet). Submitting plans it (`vagent_tui.services.rollout`): every account is
read, nothing is written, and each row says what would change, that it already is so,
why it is refused, or why it could not be read. ``p`` plans the same again.

``A`` writes the staging of the accounts that will change (after a review), ``P``
publishes the written ones, all of them or a first wave (asked, and confirmed by typing
``publish``). Both show a progress bar with counts and rate; ``x`` cancels (what was
written stays written, and is listed). Each result is kept on disk with the plan
(`vagent_tui.services.rollout_apply`), so a rerun, even in a console started again
after a crash, skips what is done: ``l`` lists the kept rollouts. ``e`` exports the plan
and its results as CSV, or the plan as JSON (``.json``) to apply later. A read-only
profile can plan and export, not apply or publish. Every write is in the journal.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path
from typing import ClassVar, Literal

from rich.text import Text
from textual import work
from textual.binding import Binding, BindingType
from textual.widget import Widget
from textual.widgets import DataTable, ProgressBar, Static

from vagent_tui.api.client import PlatformClient
from vagent_tui.api.models import Account
from vagent_tui.services.accounts import AccountDirectory
from vagent_tui.services.fleet import fleet_accounts, is_agent_account
from vagent_tui.services.rollout import (
    DEFAULT_CONCURRENCY,
    AccountPlan,
    RolloutPlan,
    plan_rollout,
)
from vagent_tui.services.rollout_apply import (
    DONE,
    AccountResult,
    RolloutBusy,
    RolloutLog,
    SavedRollout,
    apply_rollout,
    publish_rollout,
    results_csv,
    save_plan,
    saved_rollouts,
)
from vagent_tui.services.rollout_pick import pick_accounts
from vagent_tui.services.session import Connection
from vagent_tui.ui import format as fmt
from vagent_tui.ui.dialogs import PromptModal, ReviewModal, TextModal
from vagent_tui.ui.failures import WRITE_GROUP_PREFIX
from vagent_tui.ui.screens.base import BaseScreen
from vagent_tui.ui.text import inert
from vagent_tui.ui.widgets.fleet_export import export_csv
from vagent_tui.ui.widgets.rollout_form import Catalog, RolloutForm, RolloutRequest
from vagent_tui.ui.widgets.rollout_saved import OPEN_FILE, SavedRolloutsModal
from vagent_tui.ui.widgets.rollout_table import RolloutTable, detail_lines
from vagent_tui.ui.widgets.status import describe_error
from vagent_tui.ui.widgets.tables import left_out

Phase = Literal["", "plan", "write", "publish"]
FLUSH_SECONDS = 0.1
REVIEW_LINES = 30
"""Accounts listed by name in a review; the rest are counted."""
SHOWN = ("all", "change", "refused", "unreadable", "already", "trouble")
SHOWN_LABEL = {
    "all": "all accounts", "change": "will change", "refused": "refused",
    "unreadable": "could not be read", "already": "already so",
    "trouble": "a write or publish that did not go through",
}  # fmt: skip
APPLY_GROUP = WRITE_GROUP_PREFIX + "rollout"
_clock = time.monotonic
"""Measures a run (tests pin it for stable snapshots)."""


def rollout_concurrency() -> int:
    """``VAGENT_ROLLOUT_CONCURRENCY`` (1..64), else the service's default."""
    raw = os.environ.get("VAGENT_ROLLOUT_CONCURRENCY", "")
    return int(raw) if raw.isdigit() and 1 <= int(raw) <= 64 else DEFAULT_CONCURRENCY


def origin_of(connection: Connection) -> str:
    """Where a plan belongs: the platform's host and the key owner (never the key, nor a
    password the base URL may carry)."""
    owner = connection.owner.id if connection.owner is not None else None
    host = connection.client.host if connection.client is not None else ""
    return f"{host} · key of account {owner}"


class RolloutScreen(BaseScreen):
    """Plan, apply and publish one change over many agent accounts."""

    TITLE = "Rollout"
    CSS_PATH = "rollout.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("c", "choose", "Change", id="rollout.choose",
                tooltip="Choose the change and the accounts, then plan"),
        Binding("p", "plan", "Plan", id="rollout.plan",
                tooltip="Plan the same change again (nothing is written)"),
        Binding("A", "apply", "Apply", id="rollout.apply",
                tooltip="Write the staging of the accounts that will change"),
        Binding("P", "publish", "Publish", id="rollout.publish",
                tooltip="Publish the written accounts, all or a first wave"),
        Binding("x", "cancel", "Cancel", id="rollout.cancel",
                tooltip="Stop: what was written stays written"),
        Binding("escape", "stop", "Cancel", show=False, id="rollout.cancel-esc",
                tooltip="Stop: what was written stays written"),
        Binding("o", "shown", "Show", id="rollout.shown", tooltip="Show all, or one outcome"),
        Binding("e", "export", "Export", id="rollout.export",
                tooltip="The plan and its results as CSV, or the plan as JSON"),
        Binding("l", "saved", "Saved", id="rollout.saved",
                tooltip="Rollouts kept on disk: resume one, or open a plan file"),
    ]  # fmt: skip

    def __init__(self) -> None:
        super().__init__()
        self.accounts: list[Account] | None = None
        self.directory: AccountDirectory | None = None
        self.listed_with: Connection | None = None
        self.catalog = Catalog()
        self.request = RolloutRequest()
        self.plan: RolloutPlan | None = None
        self.results_log: RolloutLog | None = None
        self.phase: Phase = ""
        self.shown = "all"
        self.concurrency = rollout_concurrency()
        self._choose_when_listed = False
        """Came from Fleet's ``R``: the form opens once the accounts are listed."""
        self._incoming: list[AccountPlan | AccountResult | None] = []
        self._tally: Counter[str] = Counter()
        self._done = 0
        self._total = 0
        self._started = 0.0
        self._stopping = False
        """``x`` during a write or publish: no account is started, those under way end."""
        self._stale = False
        """The connection changed during a run: the accounts are listed again after it."""

    def compose_body(self) -> Iterable[Widget]:
        yield Static("", id="rollout-change", markup=False)
        yield Static("", id="rollout-summary", markup=False)
        yield ProgressBar(total=None, show_eta=False, id="rollout-progress")
        yield RolloutTable(id="rollout-table")

    @property
    def table(self) -> RolloutTable:
        return self.query_one("#rollout-table", RolloutTable)

    def on_mount(self) -> None:
        self._flusher = self.set_interval(FLUSH_SECONDS, self._flush, pause=True)
        self.query_one(ProgressBar).display = False
        self.table.focus()
        self._describe()

    def on_unmount(self) -> None:
        if self.results_log is not None:
            self.results_log.release()  # the app ends: another console may take the plan

    def on_screen_resume(self) -> None:
        if self.vapp.roll_out_marked and not self.phase:
            self.vapp.roll_out_marked = False  # Fleet's R: choose the change for its marks
            self.request = replace(self.request, marked_only=True, only_ids=None)
            self._choose_when_listed = True
            if self.accounts is not None:
                self.call_after_refresh(self._choose_now)

    def _choose_now(self) -> None:
        if self._choose_when_listed:
            self._choose_when_listed = False
            self.action_choose()

    # ------------------------------------------------------------------ the accounts

    def reload(self) -> None:
        if self.phase:
            self._stale = True  # loaded again when the run ends
            self.status.info("A run is under way: x cancels it")
            return
        if self.listed_with is None or self.listed_with.client is not self.connection.client:
            self._list_accounts()
        else:
            self._describe()
            self._ready_note()

    def action_reload(self) -> None:
        """``r`` lists the accounts again (someone may have added some); a plan stays."""
        if self.phase:
            self.status.info("A run is under way: x cancels it")
            return
        self.listed_with = None
        super().action_reload()

    @work(exclusive=True, group="rollout-accounts", exit_on_error=False)
    async def _list_accounts(self) -> None:
        async def listing(c: Connection) -> tuple[AccountDirectory, list[Account]] | None:
            if c.scope is None or c.owner is None:
                return None
            directory = AccountDirectory(c.api, c.scope, c.owner)
            return directory, await fleet_accounts(directory)

        ok, listed = await self.load(
            listing, note="Listing the agent accounts", busy=self.table, follows_target=False
        )
        if not ok or listed is None:
            return
        self.directory, self.accounts = listed
        self.listed_with = self.connection
        self.table.focus()  # its loading indicator had let the focus go
        self._describe()
        self._ready_note()
        self._read_catalog()
        self._choose_now()

    @work(exclusive=True, group="rollout-catalog", exit_on_error=False)
    async def _read_catalog(self) -> None:
        """The voices and functions a change may name, from one account (field checks)."""
        sample = self._sample()
        if sample is None or sample.id is None:
            return
        client = self.connection.api
        try:
            voices, functions = await asyncio.gather(
                client.list_voices(target=sample.id), client.list_functions(sample.id)
            )
        except Exception:  # the form then checks syntax only; planning says the rest
            return
        if client is not self.connection.client:
            return  # another profile meanwhile: its own catalog is read for it
        self.catalog = Catalog(
            tuple(v.id for v in voices if v.id), tuple(f.name for f in functions if f.name),
            inert(sample.display_name, limit=60),
        )  # fmt: skip

    def _sample(self) -> Account | None:
        target = self.connection.target
        if target is not None and is_agent_account(target):
            return target
        under = self._under_id()
        for account in self.accounts or ():
            path = self.directory.path_of(account.id or 0) if self.directory else []
            if under is None or any(a.id == under for a in path):
                return account
        return None

    def _under_id(self) -> int | None:
        return self.connection.target_id

    def _under_label(self) -> str:
        target = self.connection.target or self.connection.owner
        return target.display_name if target is not None else "the key"

    def _ready_note(self) -> None:
        if self.plan is not None:
            return
        if not self.accounts:
            self.status.info("No agent account below this key")
            return
        unfinished = [s for s in saved_rollouts() if not s.finished and
                      s.origin == origin_of(self.connection)]  # fmt: skip
        more = f" · {len(unfinished)} unfinished rollout(s): l resumes" if unfinished else ""
        self.status.info(f"{len(self.accounts):,} agent accounts · c chooses a change{more}")

    # ------------------------------------------------------------------ choosing and planning

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        allowed = super().check_action(action, parameters)
        if not allowed:
            return allowed
        if action in ("cancel", "stop"):
            return True if self.phase else None
        if action in ("choose", "plan", "saved", "reload", "apply", "publish"):
            return None if self.phase else True
        return True

    def action_choose(self) -> None:
        if self.phase or not self.accounts:
            if self.accounts is None:
                self.status.info("The agent accounts are still being listed")
            elif not self.phase:
                self.status.info("No agent account below this key: nothing to roll out to")
            return
        marks = self.vapp.marked_accounts

        def chosen(request: RolloutRequest | None) -> None:
            if request is not None:
                self.request = request
                self.action_plan()

        self.app.push_screen(
            RolloutForm(self.request, catalog=self.catalog, under=self._under_label(),
                        marked=len(marks)),
            chosen,
        )  # fmt: skip

    def action_plan(self) -> None:
        if self.phase or self.accounts is None:
            return
        if self.listed_with is None or self.listed_with.client is not self.connection.client:
            self.listed_with = None
            self.status.info("Another connection: its accounts are listed first; p then plans")
            self._list_accounts()
            return
        if self.request.change.is_empty:
            self.action_choose()
            return
        marks: set[int] | None = None
        if self.request.only_ids is not None:
            marks = set(self.request.only_ids)
        elif self.request.marked_only:
            marks = set(self.vapp.marked_accounts)
        path_of = self.directory.path_of if self.directory else (lambda _i: [])
        picked = pick_accounts(
            self.accounts, path_of=path_of, under=self._under_id(), marked=marks,
            account_filter=self.request.account_filter,
        )  # fmt: skip
        if not picked:
            self.status.error(f"No agent account below {self._under_label()} matches: "
                              f"{self._chosen_text()}")  # fmt: skip
            return
        self._describe()
        self._plan(picked)

    def _chosen_text(self) -> str:
        r = self.request
        parts = [f"below {self._under_label()}"]
        if r.only_ids is not None:
            parts.append(f"the {len(r.only_ids):,} accounts of the loaded plan")
        elif r.marked_only:
            parts.append(f"marked in Fleet ({len(self.vapp.marked_accounts):,})")
        if str(r.account_filter):
            parts.append(f"matching {r.account_filter}")
        return ", ".join(parts)

    @work(exclusive=True, group="rollout-plan", exit_on_error=False)
    async def _plan(self, picked: list[Account]) -> None:
        start = self.connection
        self._begin("plan", len(picked))
        self.status.busy(f"Planning for {len(picked):,} accounts, {self.concurrency} at a time: "
                         "nothing is written")  # fmt: skip
        account_filter = self.request.account_filter
        try:
            plan = await plan_rollout(
                start.api, picked, self.request.change, concurrency=self.concurrency,
                on_plan=self._take,
                keep=account_filter.matches_config if account_filter.reads_config else None,
                origin=origin_of(start), chosen=self._chosen_text(),
            )  # fmt: skip
            log = await asyncio.to_thread(RolloutLog.for_plan, plan)  # hashes the whole plan
        except asyncio.CancelledError:
            self.status.info("Planning cancelled: nothing was written; p plans again")
            raise
        except ValueError as exc:
            self.status.error(f"Nothing to plan: {exc}")
            return
        except Exception as exc:
            self.status.error(f"Planning stopped: {describe_error(first_error(exc))}")
            return
        finally:
            self._end()
        if start.client is not self.connection.client:
            return  # another profile meanwhile: this plan is not for it
        self._take_plan(plan, log)
        elapsed = self._elapsed()
        self.status.ok(
            f"Planned in {elapsed}: {plan.summary()}. Nothing written; "
            + ("A applies" if plan.counts()["change"] else "nothing to apply")
        )

    def _take_plan(self, plan: RolloutPlan, log: RolloutLog) -> None:
        old = self.results_log
        if old is not None and old.path == log.path and old.held:
            log = old  # this console holds it: the same results, the same lock
        elif old is not None:
            old.release()
        self.plan, self.results_log = plan, log
        self._show()
        self._describe()

    # ------------------------------------------------------------------ the table

    def _keeps(self, p: AccountPlan) -> bool:
        if self.shown == "all":
            return True
        if self.shown == "trouble":
            results = self.results_log.results if self.results_log else {}
            return any(
                (r := results.get((p.account_id, step))) is not None and r.result not in DONE
                for step in ("write", "publish")
            )
        return p.outcome == self.shown

    def _show(self) -> None:
        if self.plan is None:
            self.table.clear()
            return
        results = self.results_log.results if self.results_log else {}
        with self.app.batch_update():
            self.table.show(self.plan, results, self._keeps)

    def action_shown(self) -> None:
        self.shown = SHOWN[(SHOWN.index(self.shown) + 1) % len(SHOWN)]
        self._show()
        self._describe()
        rows = self.table.row_count
        self.status.info(f"Showing {SHOWN_LABEL[self.shown]}: {rows:,} rows · o shows the next")

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        p = self.table.highlighted()
        if p is None:
            return
        lines = detail_lines(p, self.results_log.results if self.results_log else {})
        body = "\n".join(lines) or "Nothing more to say"
        self.app.push_screen(TextModal(f"{p.name} ({p.account_id}): {p.outcome}", body))

    # ------------------------------------------------------------------ the header lines

    def _describe(self) -> None:
        plan = self.plan
        if plan is None:
            change = "Change: none yet · c chooses one"
            if not self.request.change.is_empty:
                change = f"Change: {self.request.change.describe()} · {self._chosen_text()}"
        else:
            change = f"Change: {plan.change.describe()} · accounts {plan.chosen or 'loaded'}"
        self.query_one("#rollout-change", Static).update(inert(change, limit=400))
        self._summary()

    def _summary(self) -> None:
        text = ""
        if self.phase:
            rate = self._done / max(_clock() - self._started, 0.001)
            counts = ", ".join(f"{n:,} {k}" for k, n in sorted(self._tally.items()))
            text = f"{self.phase}: {self._done:,}/{self._total:,} · {rate:,.0f}/s"
            text += f" · {counts}" if counts else ""
        elif self.plan is not None:
            text = f"Plan: {self.plan.summary()}"
            log = self.results_log
            if log is not None:
                written, published = len(log.written()), log.count("publish", "published")
                text += f" · {written:,} written, {published:,} published"
            text += f" · showing {SHOWN_LABEL[self.shown]}"
            text += left_out(len(self.plan.accounts), "accounts")
        self.query_one("#rollout-summary", Static).update(inert(text, limit=400))

    # ------------------------------------------------------------------ progress

    def _begin(self, phase: Phase, total: int) -> None:
        self.phase = phase
        self._incoming = []
        self._tally = Counter()
        self._done = 0
        self._total = total
        self._started = _clock()
        self._stopping = False
        bar = self.query_one(ProgressBar)
        bar.update(total=total or None, progress=0)
        bar.display = True
        self._summary()
        self.refresh_bindings()
        self._flusher.resume()

    def _end(self) -> None:
        self._flush()
        self._flusher.pause()
        self.phase = ""
        if self._stale:  # the connection changed during the run
            self._stale = False
            self.listed_with = None
            self.call_after_refresh(self.action_reload)
        self.query_one(ProgressBar).display = False
        self.refresh_bindings()
        self._summary()

    def _elapsed(self) -> str:
        """How long the run took, with its rate: ``0.4 s, 120/s``."""
        seconds = max(_clock() - self._started, 0.0)
        took = f"{seconds:.1f} s" if seconds < 10 else fmt.fmt_duration(seconds)
        return f"{took}, {self._done / seconds:,.0f}/s" if seconds >= 0.05 else took

    def _take(self, item: AccountPlan | AccountResult | None) -> None:
        """A run's report (a plan, a result; None: left out), shown at the next tick."""
        self._incoming.append(item)

    def _flush(self) -> None:
        """Take what the run reported since the last tick: counts, bar, changed rows."""
        batch, self._incoming = self._incoming, []
        if not batch and self.phase != "":
            self._summary()  # the rate moves on
            return
        results = self.results_log.results if self.results_log else {}
        with self.app.batch_update():
            for item in batch:
                self._done += 1
                if item is None:
                    self._tally["left out"] += 1
                elif isinstance(item, AccountPlan):
                    self._tally[item.outcome] += 1
                else:
                    self._tally[item.result] += 1
                    self.table.put_result(item, results)
            self.query_one(ProgressBar).update(progress=self._done)
            self._summary()

    def action_stop(self) -> None:
        """``esc``: the gentle stop only (never abandons writes under way)."""
        if self.phase == "plan":
            self.workers.cancel_group(self, "rollout-plan")
        elif self.phase and not self._stopping:
            self.action_cancel()

    def action_cancel(self) -> None:
        """Planning stops at once; a write or publish stops starting accounts, and the
        ones under way end with their result (a second ``x`` abandons them: a rerun reads
        their staging to learn what they did)."""
        if self.phase == "plan":
            self.workers.cancel_group(self, "rollout-plan")
        elif self.phase and not self._stopping:
            self._stopping = True
            self.status.busy("Stopping: the accounts under way finish and are recorded "
                             "(x again abandons them)")  # fmt: skip
        elif self.phase:
            self.workers.cancel_group(self, APPLY_GROUP)

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
        strangers = sorted({p.account_id for p in plan.accounts if p.outcome == "change"} - reach)
        if strangers:
            shown = ", ".join(str(a) for a in strangers[:5])
            self.status.error(f"The plan names {len(strangers):,} account(s) this key does not "
                              f"reach ({shown}…): nothing is sent; plan it again")  # fmt: skip
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
            f"Write the staging of {len(todo):,} accounts: {plan.change.describe()}. "
            f"{skipped}Nothing goes live until you publish (P). Each account's staging is "
            "read again first: one that changed since the plan is skipped and listed."
        )
        review = ReviewModal(
            f"Apply the rollout to {len(todo):,} accounts", intro, _listing(todo),
            confirm_label=f"Write {len(todo):,}",
        )  # fmt: skip

        def answer(yes: bool | None) -> None:
            if yes and self._still(connection):
                self._begin("write", len(todo))
                self.table.put_pending([p.account_id for p in todo])
                self.status.busy(f"Writing staging of {len(todo):,} accounts, "
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
        counts = ", ".join(f"{n:,} {k}" for k, n in sorted(self._tally.items())) or "nothing"
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
            self.status.ok(f"Written in {elapsed}: {counts}. P publishes the {written:,} "
                           f"written accounts{follow}")  # fmt: skip
        else:
            left, refused = self._untried(), len(self._unpublished()) - self._untried()
            more = f" · {left:,} written accounts wait: P publishes them" if left else ""
            if refused and not left:
                more = f" · {refused:,} not published (o shows why); P checks them again"
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
            if text == "all" or (text.isdigit() and 1 <= int(text) <= len(waiting)):
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
                f"{len(waiting):,} written accounts are not published yet. How many go live "
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
        later = f" {rest:,} stay written for a later wave." if rest else ""
        intro = (
            f"Publish {len(wave):,} accounts: {plan.change.describe()}. Their staging goes "
            "live: callers get it at once. An account is published only when publishing "
            "changes its live configuration by exactly this (no one else's unpublished "
            f"edit, no newer live undone); the others are listed.{later}"
        )
        review = ReviewModal(
            f"Publish {len(wave):,} accounts", intro, _listing(wave),
            confirm_label=f"Publish {len(wave):,}", expected="publish",
        )  # fmt: skip

        def answer(yes: bool | None) -> None:
            if not yes or not self._still(connection):
                return
            ids = [p.account_id for p in wave]
            self._begin("publish", len(ids))
            self.table.put_pending(ids)
            self.status.busy(f"Publishing {len(ids):,} accounts · x cancels")
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

    # ------------------------------------------------------------------ export, saved plans

    def action_export(self) -> None:
        plan, log = self.plan, self.results_log
        if plan is None or log is None:
            self.status.info("Nothing planned yet: c chooses a change")
            return

        def text_for(path: Path) -> str:
            return plan.to_json() if path.suffix.lower() == ".json" else results_csv(plan, log)

        export_csv(
            self, text_for, f"rollout-{fmt.now():%Y-%m-%d}.csv", rows=len(plan.accounts),
            title="Export the rollout",
            hint=" A .csv file gets the plan and its results; a .json file the plan, to "
                 "apply later (l opens it).",
        )  # fmt: skip

    def action_saved(self) -> None:
        try:
            kept = saved_rollouts()
        except OSError as exc:
            self.status.error(f"Could not read the kept rollouts: {exc.strerror or exc}")
            return

        def chosen(choice: SavedRollout | str | None) -> None:
            if choice == OPEN_FILE:
                self._ask_plan_file()
            elif isinstance(choice, SavedRollout):
                try:
                    plan = choice.plan
                except OSError as exc:
                    self.status.error(f"Could not read {choice.path}: {exc.strerror or exc}")
                    return
                except ValueError as exc:
                    self.status.error(f"{choice.path}: {exc}")
                    return
                self._resume(plan, choice.log)

        self.app.push_screen(SavedRolloutsModal(kept, origin_of(self.connection)), chosen)

    def _ask_plan_file(self) -> None:
        def opened(text: str | None) -> None:
            if not text or not text.strip():
                return
            path = Path(text.strip()).expanduser()
            try:
                plan = RolloutPlan.from_json(path.read_text(encoding="utf-8"))
            except OSError as exc:
                self.status.error(f"Could not read {path}: {exc.strerror or exc}")
                return
            except (ValueError, UnicodeDecodeError) as exc:
                self.status.error(f"{path}: {exc}")
                return
            self._resume(plan)

        self.app.push_screen(
            PromptModal("Open a plan file", "A plan exported as JSON (e, then a .json name).",
                        value="", confirm_label="Open",
                        validate=lambda t: None if t.strip() else "Give a file name"),
            opened,
        )  # fmt: skip

    def _resume(self, plan: RolloutPlan, log: RolloutLog | None = None) -> None:
        self._take_plan(plan, log or RolloutLog.for_plan(plan))
        ids = tuple(dict.fromkeys(p.account_id for p in plan.accounts))
        self.request = RolloutRequest.of_plan(plan.change, ids)  # p plans it again
        log = self.results_log
        assert log is not None
        written, to_write = len(log.written()), plan.counts()["change"]
        elsewhere = plan.origin != origin_of(self.connection)
        note = (
            f"Loaded: {plan.summary()} · {written:,}/{to_write:,} written, "
            f"{log.count('publish', 'published'):,} published"
        )
        if elsewhere:
            self.status.error(f"{note}. It was made for {plan.origin}: it can be read here, "
                              "not applied")  # fmt: skip
        else:
            self.status.info(f"{note} · A writes the rest, P publishes")


def first_error(exc: BaseException) -> BaseException:
    """The first error inside an exception group (a pool of workers raises one)."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return exc


def _listing(plans: list[AccountPlan]) -> Text:
    """The accounts of a review, one per line with what changes; past a screenful, counted."""
    text = Text()
    for p in plans[:REVIEW_LINES]:
        text.append(f"{p.account_id}  {inert(p.name, limit=60)}", style="bold")
        text.append(f"  {inert('; '.join(p.changes), limit=200)}\n")
    if len(plans) > REVIEW_LINES:
        text.append(f"… and {len(plans) - REVIEW_LINES:,} more accounts", style="dim")
    return text
