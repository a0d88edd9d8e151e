"""Fleet: ask one question of every agent account below the key, and see the matrix fill.

The accounts come from the account directory (the whole tree, walked once; a restricted
member gets only its permitted accounts). ``s`` asks the chosen question of all of them
through `vagent_tui.services.fleet` with an adaptive limit of requests in flight: it
starts at half the ceiling (at least 16) and grows while the platform answers as fast,
backs off on 429/503 (and waits out a ``Retry-After``), and never passes the ceiling
(``VAGENT_FLEET_CONCURRENCY``, default 100; ``c`` changes it for the session). Each
answer is written to its row as it arrives; the matrix repaints that row only, and only
if it is in view. The progress bar and the summary follow at most five times a second
(and once at the end).
``x`` (or escape) cancels: nothing more is asked, and the rows not asked show ``–``.
``w`` writes the matrix as CSV. The fleet belongs to the key, not to the target account:
changing the target does not reload it (``r`` does). Above `ROW_CAP` accounts the
matrix shows the first ones (the summary says how many are left out); every account is
still asked, and the CSV holds them all.

Below the matrix, the highlighted account's whole answer (every unavailable function,
the whole error), scrollable. Enter on a row makes that account the target and opens
the screen that answers the question in full: Functions, Agent (the live voice and
engines) or Inboxes (the junk inbox).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterable
from typing import ClassVar

from rich.text import Text
from textual import work
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.widget import Widget
from textual.widgets import ProgressBar, Select, Static
from textual.worker import Worker, WorkerCancelled, WorkerFailed

from vagent_tui.api.client import PlatformClient
from vagent_tui.services.accounts import AccountDirectory
from vagent_tui.services.agent_rows import AgentRows
from vagent_tui.services.fleet import (
    QUESTIONS,
    AdaptiveLimit,
    FleetAnswer,
    ask_fleet,
    cell_text,
    first_order,
    to_csv,
)
from vagent_tui.services.session import Connection
from vagent_tui.ui import format as fmt
from vagent_tui.ui.caps import not_shown
from vagent_tui.ui.registry import BY_NAME
from vagent_tui.ui.screens.base import BaseScreen
from vagent_tui.ui.screens.calls_link import calls_binding, show_calls
from vagent_tui.ui.text import safe
from vagent_tui.ui.widgets.fitted import FittedStatic
from vagent_tui.ui.widgets.fleet_export import ask_concurrency, default_concurrency, export_csv
from vagent_tui.ui.widgets.fleet_matrix import FleetMatrix
from vagent_tui.ui.widgets.held_select import HeldSelect
from vagent_tui.ui.widgets.table_filter import filter_binding
from vagent_tui.ui.widgets.tables import left_out
from vagent_tui.words import counted

SUMMARY_SECONDS = 0.5
"""The progress bar and the summary follow the answers at most this often."""
PLAN_LENGTH = 200
"""Characters of a plan's name in the detail of a usage answer (the rest is said cut)."""
OPENS = {"functions": "functions", "voice": "agent", "junk": "inbox", "calls": "calls",
         "usage": "usage", "numbers": "numbers"}  # fmt: skip
"""The screen (registry name) that answers each question in full, for one account."""
_clock = time.monotonic
"""Measures a run (tests pin it for stable snapshots)."""


class FleetScreen(BaseScreen):
    """One question asked of every agent account below the key."""

    CSS_PATH = "fleet.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "start", "Start", id="fleet.start", tooltip="Ask every agent account"),
        Binding("x", "cancel", "Cancel", id="fleet.cancel", tooltip="Stop asking"),
        Binding(
            "escape", "cancel", "Cancel", show=False, id="fleet.cancel-esc", tooltip="Stop asking"
        ),
        Binding("v", "next_question", "Question", id="fleet.question", tooltip="Next question"),
        Binding("w", "export", "Export CSV", id="fleet.export", tooltip="Write the matrix as CSV"),
        Binding("c", "concurrency", "Limit", id="fleet.concurrency", tooltip="Requests at a time"),
        Binding("space,m", "mark", "Mark", id="fleet.mark", tooltip="Mark the row for a rollout"),
        Binding(
            "enter",
            "open",
            "Open",
            id="fleet.open",
            tooltip="Act as the highlighted account and open the screen of the question",
        ),
        Binding(
            "R",
            "roll_out",
            "Roll out",
            id="fleet.roll-out",
            tooltip="Roll a change out to the marked accounts",
        ),
        calls_binding("fleet", "The calls of the highlighted account"),
        filter_binding("fleet"),  # last: the footer drops it first
    ]

    def __init__(self) -> None:
        super().__init__()
        self.question = QUESTIONS["functions"]
        self.concurrency = default_concurrency()
        self.accounts: AgentRows | None = None
        """The listing's accounts (shared with Rollout; a row made when read)."""
        self.listed_with: PlatformClient | None = None
        """The client (the key) the accounts were listed with."""
        self.answers: dict[int, FleetAnswer] = {}
        self.running = False
        self.errors = 0
        self.limit: AdaptiveLimit | None = None
        """The limit of the run under way (or the last one)."""
        self._run_id = 0
        self._started = 0.0
        self._summarised = 0.0
        self._fresh = False
        """``r``: the next listing reads the accounts again (not the shared listing)."""
        self._matrix = FleetMatrix(id="fleet-table")
        self.marked: tuple[int, ...] = ()
        """Accounts marked here (space); ``R`` hands them to the Rollout screen."""

    def compose_body(self) -> Iterable[Widget]:
        with Horizontal(id="fleet-controls"):
            yield HeldSelect(
                [(q.label, q.name) for q in QUESTIONS.values()],
                value=self.question.name,
                allow_blank=False,
                id="fleet-question",
            )
            yield Static("", id="fleet-summary", markup=False)
        yield ProgressBar(total=None, show_eta=False, id="fleet-progress")
        yield self._matrix
        with VerticalScroll(id="fleet-detail"):
            yield FittedStatic("", id="fleet-detail-text", markup=False)

    @property
    def matrix(self) -> FleetMatrix:
        # Kept, not queried: each answer of a run writes to it.
        return self._matrix

    def on_mount(self) -> None:
        self.matrix.focus()
        self._summary()

    # ------------------------------------------------------------------ the accounts

    def reload(self) -> None:
        if self.running:
            self.status.info("A run is in progress: x cancels it")
            return
        if self.listed_with is not self.connection.client:
            self.accounts = None  # another profile: another key, other accounts
            self.marked = ()  # ids of another key's tree, maybe another platform
        if self.accounts is None:
            self._load_accounts()

    def action_reload(self) -> None:
        if self.running:
            self.status.info("A run is in progress: x cancels it")
            return
        self.accounts = None
        self._fresh = True  # someone may have added accounts: listed again, not shared
        super().action_reload()

    @work(exclusive=True, group="fleet-accounts", exit_on_error=False)
    async def _load_accounts(self) -> None:
        fresh, self._fresh = self._fresh, False

        async def listing(c: Connection) -> AgentRows | None:
            if c.scope is None or c.owner is None:
                return None
            scope, owner = c.scope, c.owner
            listing = await self.vapp.agent_listings.get(
                c.api, lambda: AccountDirectory(c.api, scope, owner), fresh=fresh
            )
            return listing.accounts

        ok, accounts = await self.load(
            listing, note="Listing the agent accounts", busy=self.matrix, follows_target=False
        )
        if not ok or accounts is None:
            return
        self.accounts = accounts
        self.listed_with = self.connection.client
        self.answers = {}
        self.errors = 0
        self.matrix.setup(self.question, accounts)
        self.matrix.show_marks(self.marked)
        self.focus_after_load(self.matrix)  # its loading indicator had passed the focus on
        self.query_one(ProgressBar).update(total=len(accounts) or None, progress=0)
        self._summary()
        if accounts:
            more = left_out(len(accounts), "account")
            self.status.info(
                f"{counted(len(accounts), 'agent account')} · s asks: {self.question.label}{more}"
            )
        else:
            self.status.info("No agent account below this key")

    # ------------------------------------------------------------------ the question

    def on_select_changed(self, event: Select.Changed) -> None:
        event.stop()
        # the select's value now, not the event's: ``v`` may have moved on since
        value = self.query_one("#fleet-question", Select).value
        if self.running or not isinstance(value, str) or value == self.question.name:
            return
        self._set_question(value)

    def action_next_question(self) -> None:
        if self.running:
            return
        names = list(QUESTIONS)
        name = names[(names.index(self.question.name) + 1) % len(names)]
        self.query_one("#fleet-question", Select).value = name
        self._set_question(name)

    def _set_question(self, name: str) -> None:
        self.question = QUESTIONS[name]
        self.answers = {}
        self.errors = 0
        self.matrix.setup(self.question, self.accounts or [])
        self.matrix.show_marks(self.marked)
        self.query_one(ProgressBar).update(progress=0)
        self._summary()
        if self.accounts:
            self.status.info(
                f"s asks {counted(len(self.accounts), 'account')}: {self.question.label}"
            )

    # ------------------------------------------------------------------ running

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "cancel":
            return True if self.running else None
        if action == "open":
            return None if self.running or not self.accounts else True
        if action in ("start", "next_question", "concurrency", "reload"):
            return None if self.running else True
        return True

    def action_start(self) -> None:
        if self.running or not self.accounts:
            if self.accounts is not None and not self.accounts:
                self.status.info("No agent account below this key")
            return
        ids = [a.id for a in self.accounts if a.id is not None]
        self._run_id += 1
        self.answers = {}
        self.errors = 0
        self.running = True
        self._started = _clock()
        self.limit = AdaptiveLimit(self.concurrency)
        self.query_one("#fleet-question", HeldSelect).hold(
            "The question stays while it is asked: x cancels the run"
        )
        with self.app.batch_update():
            self.matrix.show_waiting(ids)
            self.query_one(ProgressBar).update(total=len(ids), progress=0)
            self._summary()
        self.status.busy(
            f"Asking {counted(len(ids), 'account')}, up to {self.concurrency} at a time"
        )
        self.refresh_bindings()
        self._show_detail()
        self._run(self._run_id, ids, self.limit)

    @work(exclusive=True, group="fleet-run", exit_on_error=False)
    async def _run(self, run_id: int, ids: list[int], limit: AdaptiveLimit) -> None:
        def take(answer: FleetAnswer) -> None:
            if run_id == self._run_id:
                self._take(answer)

        try:
            await ask_fleet(self.connection.api, ids, self.question, limiter=limit, on_answer=take)
        except asyncio.CancelledError:
            if run_id == self._run_id:
                self._finish(ids, cancelled=True)
            raise
        except Exception as exc:  # a failure outside any one account
            if run_id == self._run_id:
                self._finish(ids, cancelled=True)
                self.status.error(exc, retry_key="s")
            return
        if run_id == self._run_id:
            self._finish(ids, cancelled=False)

    def _take(self, answer: FleetAnswer) -> None:
        """One answer: its row now (repainted if in view), the counts now and then."""
        self.answers[answer.account_id] = answer
        if not answer.ok:
            self.errors += 1
        self.matrix.show_answer(answer)
        now = _clock()
        if now - self._summarised >= SUMMARY_SECONDS:
            self._summarised = now
            self._progress()

    def _progress(self) -> None:
        self.query_one(ProgressBar).update(progress=len(self.answers))
        self._summary()

    def _finish(self, ids: list[int], *, cancelled: bool) -> None:
        self._progress()
        self.running = False
        self.query_one("#fleet-question", HeldSelect).release()
        elapsed = fmt.fmt_duration(_clock() - self._started)
        if self.limit is not None and self.limit.backoffs:
            times = "once" if self.limit.backoffs == 1 else f"{self.limit.backoffs:,} times"
            elapsed += f" (the platform asked to slow down {times})"
        done = len(self.answers)
        order = first_order(self.question, self.matrix.row_accounts(), self.answers)
        if order is not None:  # e.g. the agents without a number first
            self.matrix.set_order(order)
        if cancelled:
            with self.app.batch_update():
                self.matrix.show_not_asked(i for i in ids if i not in self.answers)
            self.status.info(f"Cancelled: {done:,} of {len(ids):,} answered in {elapsed}")
        elif self.errors:
            self.status.info(f"{done:,} answered in {elapsed}, {self.errors:,} with an error (✗)")
        else:
            self.status.ok(f"{done:,} answered in {elapsed}")
        self._summary()
        self._show_detail()
        self.refresh_bindings()

    def action_cancel(self) -> None:
        if self.running:
            self.workers.cancel_group(self, "fleet-run")

    # ------------------------------------------------------------------ one account

    def on_fleet_matrix_highlighted(self, event: FleetMatrix.Highlighted) -> None:
        event.stop()
        self._show_detail()

    def _show_detail(self) -> None:
        """The highlighted account's whole answer, one value (or one name) a line."""
        account_id = self.matrix.highlighted_account()
        detail = self.query_one("#fleet-detail-text", FittedStatic)
        if account_id is None or self.accounts is None:
            detail.show("")
            return
        row = self.accounts.get(account_id)
        name = row.display_name if row is not None else ""
        opens = BY_NAME[OPENS[self.question.name]].title
        lines: list[Text] = [
            Text.assemble((f"{account_id} ", "bold"), safe(name, "bold"), f" · Enter opens {opens}")
        ]
        answer = self.answers.get(account_id)
        if answer is None:
            lines.append(Text("Not answered yet" + ("" if self.running else ": s asks")))
        elif answer.error is not None:
            lines.append(safe(answer.error, multiline=True))
        elif self.question.name == "functions":
            unavailable = answer.values.get("unavailable") or ()
            allowed, total = answer.values.get("allowed"), answer.values.get("total")
            lines.append(Text(f"{allowed} of {total} allowed; unavailable ({len(unavailable)}):"))
            lines.extend(safe(f"  {fn}") for fn in unavailable)
        elif self.question.name == "usage":
            values = answer.values
            plan = cell_text(values.get("plan")) or "—"
            lines.append(Text.assemble("Plan: ", safe(plan, limit=PLAN_LENGTH)))
            lines.append(Text.assemble("Costs: ", safe(cell_text(values.get("costs")) or "—")))
            lines.extend(safe(f"  {item}") for item in values.get("usage") or ())
            if values.get("not_shown"):
                lines.append(Text(f"  {not_shown(values['not_shown'], 'key')}", style="dim"))
            if values.get("unread"):
                lines.append(Text(f"{counted(values['unread'], 'part')} of the reply not read"))
        else:
            for key, header in self.question.columns:
                value = cell_text(answer.values.get(key))
                lines.append(Text.assemble(f"{header}: ", safe(value or "—")))
        detail.show(Text("\n").join(lines))

    def action_open(self) -> None:
        """Act as the highlighted account and open the screen of the question."""
        if self.running:
            self.status.info("A run is in progress: x cancels it")
            return
        account_id = self.matrix.highlighted_account()
        if account_id is None:
            return
        screen = OPENS[self.question.name]
        if self.connection.acting_id == account_id:
            self.app.call_later(self.app.run_action, f"app.show('{screen}')")
            return
        self.status.busy(f"Switching to account {account_id}")
        worker = self.vapp.select_target(account_id)
        self.run_worker(
            self._open_when_switched(worker, account_id, screen),
            group="fleet-open",
            exclusive=True,
            exit_on_error=False,
        )

    async def _open_when_switched(self, worker: Worker[None], account_id: int, screen: str) -> None:
        try:
            await worker.wait()
        except WorkerCancelled:
            self.status.info(f"Switch cancelled; {self.connection.context_line()}")
            return
        except WorkerFailed as exc:
            self.status.error(exc.error, retry_key=None)
            return
        if self.connection.acting_id != account_id:
            self.status.error(
                f"Could not switch to account {account_id}; the target is unchanged "
                f"({self.connection.context_line()})",
                retry_key=None,
            )
            return
        self.status.ok(f"Now {self.connection.context_line()}")
        await self.app.run_action(f"app.show('{screen}')")

    # ------------------------------------------------------------------ marks, rollout

    def action_mark(self) -> None:
        account_id = self.matrix.highlighted_account()
        if account_id is None:
            return
        marks = list(self.marked)
        if account_id in marks:
            marks.remove(account_id)
        else:
            marks.append(account_id)
        self.marked = tuple(marks)
        self.matrix.show_marks(marks)
        self.matrix.action_cursor_down()
        self._summary()

    async def action_calls(self) -> None:
        """``C``: the Calls screen for the highlighted account."""
        account_id = self.matrix.highlighted_account()
        if account_id is None:
            self.status.info("No account highlighted")
            return
        await show_calls(self, account_id)

    async def action_roll_out(self) -> None:
        """``R``: the Rollout screen, handed the marked accounts in a message."""
        if not self.marked:
            self.status.info("No row is marked: space marks the highlighted row")
            return
        from vagent_tui.ui.screens.rollout import RolloutScreen

        await self.app.run_action("app.show('rollout')")
        # Switching modes is synchronous: the screen shown now is Rollout's.
        self.app.screen.post_message(
            RolloutScreen.RollOut(self.marked, client=self.connection.client)
        )

    def _summary(self) -> None:
        total = len(self.accounts) if self.accounts is not None else 0
        errors = f"{self.errors:,} error" + ("" if self.errors == 1 else "s")
        text = f"{len(self.answers):,}/{total:,} answered · {errors}"
        if self.marked:
            text += f" · {len(self.marked):,} marked (R rolls out)"
        if self.running and self.limit is not None:
            text += f" · limit {self.limit.limit} of {self.concurrency}"
        else:
            text += f" · limit {self.concurrency}"
        text += left_out(total, "account")
        summary = self.query_one("#fleet-summary", Static)
        summary.update(text, layout=False)

    # ------------------------------------------------------------------ settings, export

    def action_concurrency(self) -> None:
        def chosen(value: int) -> None:
            self.concurrency = value
            self._summary()

        ask_concurrency(self.app, self.concurrency, chosen)

    def action_export(self) -> None:
        if not self.accounts:
            self.status.info("Nothing to export yet")
            return
        text = to_csv(self.question, self.accounts, self.answers)
        default = f"fleet-{self.question.name}-{fmt.now():%Y-%m-%d}.csv"
        export_csv(self, text, default, rows=len(self.accounts))
