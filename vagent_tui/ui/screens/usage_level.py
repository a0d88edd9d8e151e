"""The Usage screen at a partner, reseller or organization: the fleet below it.

`UsageLevelScreen` is the base of `vagent_tui.ui.screens.usage.UsageScreen`: one row per
agent account below the level, asked through Fleet's fan-out (`services.fleet.ask_fleet`,
its adaptive limit; an account's failure is its row's, ``F`` asks the failed ones again,
``x`` stops), the sort and top keys, Enter (act as the highlighted account) and the
fleet's CSV. What it holds between keys is the screen's `UsageState`.
"""

from __future__ import annotations

import asyncio
import time

from textual import work
from textual.widgets import Static
from textual.worker import Worker, WorkerCancelled, WorkerFailed

from vagent_tui.services.accounts import AccountDirectory, NamedAccount
from vagent_tui.services.fleet import AdaptiveLimit, FleetAnswer, Question, ask_fleet
from vagent_tui.services.session import Connection
from vagent_tui.services.usage_fleet import accounts_below, usage_question
from vagent_tui.ui import format as fmt
from vagent_tui.ui.screens.base import BaseScreen, who_of
from vagent_tui.ui.screens.usage_state import Asked, UsageState
from vagent_tui.ui.widgets.fleet_export import default_concurrency, export_csv
from vagent_tui.ui.widgets.usage_fleet import UsageFleetTable
from vagent_tui.words import counted

SUMMARY_SECONDS = 0.2
"""Seconds between two redraws of the fleet's summary line while a run answers."""
_clock = time.monotonic


class UsageLevelScreen(BaseScreen):
    """The fleet's table of the Usage screen, its run and the way into an account."""

    def __init__(self) -> None:
        super().__init__()
        self.state = UsageState()
        self.limit: AdaptiveLimit | None = None
        self._summarised = 0.0
        self._fleet = UsageFleetTable(id="usage-fleet")

    def _asking_now(self) -> Asked:
        return self.state.asking(self.connection.client, self.connection.target_id)

    @property
    def fleet_mode(self) -> bool:
        """The target is a level: the fleet below it shows."""
        return self.state.fleet_mode

    @property
    def plans_shown(self) -> bool:
        return self.state.plans_shown

    @property
    def running(self) -> bool:
        return self.state.running

    # ------------------------------------------------------------------ the fleet

    @property
    def fleet(self) -> UsageFleetTable:
        return self._fleet

    @work(exclusive=True, group="usage-fleet-accounts", exit_on_error=False)
    async def load_fleet(self) -> None:
        self.action_cancel_run()
        root = self.connection.target_id

        async def listing(c: Connection) -> list[NamedAccount] | None:
            if c.scope is None or c.owner is None:
                return None
            scope, owner = c.scope, c.owner
            found = await self.vapp.agent_listings.get(
                c.api, lambda: AccountDirectory(c.api, scope, owner)
            )
            return accounts_below(found.accounts, found.parents, root)

        ok, accounts = await self.load(
            listing, note=f"Listing the agent accounts below {who_of(self)}", busy=self.fleet
        )
        if not ok or accounts is None:
            return
        self.fleet.setup(usage_question(self.state.query), accounts)
        self.state.fleet_asked = self._asking_now()
        self.focus_after_load(self.fleet.matrix)
        if not accounts:
            self._fleet_summary()
            self.status.info(f"No agent account below {who_of(self)}")
            return
        self._start([a.id for a in accounts if a.id is not None])

    def _start(self, ids: list[int]) -> None:
        run_id = self.state.start_run()
        self.limit = AdaptiveLimit(default_concurrency())
        self.fleet.waiting(ids)
        self._fleet_summary()
        self.status.busy(f"Asking the usage of {counted(len(ids), 'account')}")
        self.refresh_bindings()
        self._run_fleet(run_id, ids, self.limit, usage_question(self.state.query))

    @work(exclusive=True, group="usage-fleet-run", exit_on_error=False)
    async def _run_fleet(
        self, run_id: int, ids: list[int], limit: AdaptiveLimit, question: Question
    ) -> None:
        def take(answer: FleetAnswer) -> None:
            if run_id != self.state.run_id:
                return
            self.fleet.take(answer)
            now = _clock()
            if now - self._summarised >= SUMMARY_SECONDS:
                self._summarised = now
                self._fleet_summary()

        try:
            await ask_fleet(self.connection.api, ids, question, limiter=limit, on_answer=take)
        except asyncio.CancelledError:
            if run_id == self.state.run_id:
                self._finish_run(cancelled=True)
            raise
        except Exception as exc:  # a failure outside any one account
            if run_id == self.state.run_id:
                self._finish_run(cancelled=True)
                self.status.error(exc, retry_key="r")
            return
        if run_id == self.state.run_id:
            self._finish_run(cancelled=False)

    def _finish_run(self, *, cancelled: bool) -> None:
        self.state.running = False
        usage = self.fleet.usage
        self.fleet.headers_again()
        self.fleet.apply_order()
        self._fleet_summary()
        self.refresh_bindings()
        answered, failed = usage.answered, len(usage.failed)
        if cancelled:
            self.status.info(f"Stopped: {answered:,} of {counted(len(usage), 'account')} answered")
        elif failed and failed == answered:
            # every account failed: the platform's trouble, said as one failure
            first = next(line for line in usage.lines if line.error is not None)
            self.status.error(
                first.cause or first.error or "", prefix=f"Every account failed ({failed:,}): "
            )
        elif failed:
            self.status.info(
                f"{counted(answered, 'account')} answered, {failed:,} failed: F asks them again"
            )
        else:
            keys = counted(len(usage.keys), "usage key")
            self.status.ok(f"Usage of {counted(answered, 'account')}: {keys}")

    def _fleet_summary(self) -> None:
        usage = self.fleet.usage
        text = f"{usage.answered:,}/{len(usage):,} answered · {len(usage.failed):,} failed"
        if self.running and self.limit is not None:
            text += f" · {self.limit.limit} at a time"
        if more := usage.with_keys_not_shown:
            text += f" · more keys than shown in the replies of {counted(more, 'account')}"
        self.query_one("#usage-fleet-summary", Static).update(text)
        if not self.running:
            self.fleet.show_totals()

    def action_open(self) -> None:
        """Act as the highlighted account: this screen shows its usage (esc: back)."""
        if self.running:
            self.status.info("A run is in progress: x stops it")
            return
        account_id = self.fleet.matrix.highlighted_account()
        if account_id is None:
            return
        self.state.back_to = (self.connection.target_id, account_id)
        self.status.busy(f"Switching to account {account_id}")
        self._switch(account_id)

    def _switch(self, account_id: int | None) -> None:
        worker = self.vapp.select_target(account_id)
        self.run_worker(
            self._when_switched(worker, account_id),
            group="usage-open",
            exclusive=True,
            exit_on_error=False,
        )

    async def _when_switched(self, worker: Worker[None], account_id: int | None) -> None:
        """Say why a switch did not happen (the screen reloads when it does)."""
        try:
            await worker.wait()
        except WorkerCancelled:
            said: str | None = f"Switch cancelled; {self.connection.context_line()}"
        except WorkerFailed as exc:
            self.state.switch_failed()
            self.status.error(exc.error, retry_key=None)
            return
        else:
            said = None
            if self.connection.target_id != account_id:
                said = (
                    f"Could not switch to account {account_id}; the target is unchanged "
                    f"({self.connection.context_line()})"
                )
        if said is not None:
            self.state.switch_failed()
            self.status.error(said, retry_key=None)

    def action_cancel_run(self) -> None:
        if self.running:
            self.workers.cancel_group(self, "usage-fleet-run")

    def action_sort(self) -> None:
        self.fleet.next_sort()

    def action_reverse(self) -> None:
        self.fleet.flip()

    def action_top(self) -> None:
        self.fleet.toggle_top()

    def action_retry_failed(self) -> None:
        if self.running:
            self.status.info("A run is in progress: x stops it")
            return
        failed = self.fleet.usage.failed
        if not failed:
            self.status.info("No account failed")
            return
        self._start(failed)

    def _export_fleet(self) -> None:
        usage = self.fleet.usage
        rows = self.fleet.export_rows()
        if not len(usage):
            self.status.info("Nothing to export yet")
            return
        default = f"usage-fleet-{self.connection.acting_id or 'me'}-{fmt.now():%Y-%m-%d}.csv"
        export_csv(
            self,
            usage.to_csv(rows),
            default,
            rows=len(rows),
            title="Export the fleet's usage as CSV",
            hint=" The rows shown, in their order; numbers exact; the file is yours only.",
            private=True,
        )
