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
after a crash, skips what is done: ``l`` lists the kept rollouts. ``w`` exports the plan
and its results as CSV, or the plan as JSON (``.json``) to apply later. A read-only
profile can plan and export, not apply or publish. Every write is in the journal.

What the screen holds between keys besides its run (the rows shown, Fleet's marks, what
waits for the listing) and its header lines are `rollout_state`'s, tested without an app.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path
from typing import ClassVar

from textual import work
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.widget import Widget
from textual.widgets import DataTable, ProgressBar, Static

from vagent_tui.api.client import PlatformClient
from vagent_tui.services.accounts import AccountDirectory, NamedAccount
from vagent_tui.services.agent_listing import AgentListing, is_agent_account
from vagent_tui.services.bulk import RolloutLog
from vagent_tui.services.rollout import RolloutPlan
from vagent_tui.services.rollout_apply import SavedRollout, results_csv, saved_rollouts
from vagent_tui.services.rollout_pick import pick_accounts
from vagent_tui.services.rollout_planning import catalog_of, plan_rollout
from vagent_tui.services.session import Connection, origin_of
from vagent_tui.ui import format as fmt
from vagent_tui.ui.dialogs import PromptModal, TextModal
from vagent_tui.ui.safety import DESTRUCTIVE, WRITES, Key
from vagent_tui.ui.screens.rollout_runs import RolloutRuns, first_error
from vagent_tui.ui.screens.rollout_state import (
    RolloutView,
    change_line,
    chosen_text,
    plan_line,
)
from vagent_tui.ui.text import inert
from vagent_tui.ui.widgets.fleet_export import export_csv
from vagent_tui.ui.widgets.rollout_form import Catalog, RolloutForm, RolloutRequest
from vagent_tui.ui.widgets.rollout_saved import OPEN_FILE, SavedRolloutsModal
from vagent_tui.ui.widgets.rollout_table import RolloutTable, detail_lines
from vagent_tui.ui.widgets.table_filter import filter_binding
from vagent_tui.words import counted


class RolloutScreen(RolloutRuns):
    """Plan, apply and publish one change over many agent accounts."""

    CSS_PATH = "rollout.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("c", "choose", "Change", id="rollout.choose",
                tooltip="Choose the change and the accounts, then plan"),
        Binding("p", "plan", "Plan", id="rollout.plan",
                tooltip="Plan the same change again (nothing is written)"),
        Key("A", "apply", "Apply", id="rollout.apply", does=WRITES,
                tooltip="Write the staging of the accounts that will change"),
        Key("P", "publish", "Publish", id="rollout.publish", does=DESTRUCTIVE,
                tooltip="Publish the written accounts, all or a first wave"),
        Binding("x", "cancel", "Cancel", id="rollout.cancel",
                tooltip="Stop: what was written stays written"),
        Binding("escape", "stop", "Cancel", show=False, id="rollout.cancel-esc",
                tooltip="Stop: what was written stays written"),
        Binding("o", "shown", "Show", id="rollout.shown", tooltip="Show all, or one outcome"),
        Binding("w", "export", "Export", id="rollout.export",
                tooltip="The plan and its results as CSV, or the plan as JSON"),
        Binding("l", "saved", "Saved", id="rollout.saved",
                tooltip="Rollouts kept on disk: resume one, or open a plan file"),
        filter_binding("rollout"),  # last: the footer drops it first
    ]  # fmt: skip

    def __init__(self) -> None:
        super().__init__()
        self.listing: AgentListing | None = None
        """The agent accounts listed (shared with Fleet) and where each sits in the tree."""
        self.catalog = Catalog()
        self.request = RolloutRequest()
        self.view = RolloutView()

    @property
    def shown(self) -> str:
        """Which rows show (`RolloutView.shown`)."""
        return self.view.shown

    def compose_body(self) -> Iterable[Widget]:
        yield Static("", id="rollout-change", markup=False)
        yield Static("", id="rollout-summary", markup=False)
        yield ProgressBar(total=None, show_eta=False, id="rollout-progress")
        yield RolloutTable(id="rollout-table")

    def on_mount(self) -> None:
        self.table.focus()
        self._describe()

    class RollOut(Message):
        """Fleet's ``R``: roll out to these accounts (marked there, with ``client``'s key)."""

        def __init__(self, accounts: tuple[int, ...], *, client: PlatformClient | None) -> None:
            super().__init__()
            self.accounts = accounts
            self.client = client

    @property
    def fleet_marks(self) -> tuple[int, ...]:
        """The accounts Fleet handed over, while the key is still the one they were
        marked with (another profile's ids are of another tree)."""
        return self.view.marks_for(self.connection.client)

    def on_rollout_screen_roll_out(self, message: RollOut) -> None:
        self.view.marked, self.view.marked_with = message.accounts, message.client
        if not self.phase:  # choose the change for the marks
            self.request = replace(self.request, marked_only=True, only_ids=None)
            self.view.choose_when_listed = True
            if self.accounts is not None:
                self.call_after_refresh(self._choose_now)

    def _choose_now(self) -> None:
        if self.view.take_choose():
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
        self.view.fresh = True  # someone may have added accounts: listed again, not shared
        super().action_reload()

    @work(exclusive=True, group="rollout-accounts", exit_on_error=False)
    async def _list_accounts(self) -> None:
        fresh = self.view.take_fresh()

        async def listing(c: Connection) -> AgentListing | None:
            if c.scope is None or c.owner is None:
                return None
            scope, owner = c.scope, c.owner
            listing = await self.vapp.agent_listings.get(
                c.api, lambda: AccountDirectory(c.api, scope, owner), fresh=fresh
            )
            return listing

        ok, listed = await self.load(
            listing, note="Listing the agent accounts", busy=self.table, follows_target=False
        )
        if not ok or listed is None:
            return
        origin = origin_of(self.connection)
        self.view.unfinished = await asyncio.to_thread(
            lambda: sum(1 for s in saved_rollouts() if not s.finished and s.origin == origin)
        )  # the kept logs are read once per listing, off the screen's thread
        self.listing, self.accounts = listed, listed.accounts
        self.listed_with = self.connection
        self.focus_after_load(self.table)  # its loading indicator had let the focus go
        self._describe()
        self._ready_note()
        self._read_catalog()
        self._choose_now()
        if self.view.plan_when_listed:
            self.view.plan_when_listed = False
            self.action_plan()

    @work(exclusive=True, group="rollout-catalog", exit_on_error=False)
    async def _read_catalog(self) -> None:
        """The voices and functions a change may name, from one account (field checks)."""
        sample = self._sample()
        if sample is None or sample.id is None:
            return
        client = self.connection.api
        try:
            voices, functions, models = await catalog_of(client, sample.id)
        except Exception:  # the form then checks syntax only; planning says the rest
            return
        if client is not self.connection.client:
            return  # another profile meanwhile: its own catalog is read for it
        self.catalog = Catalog(
            tuple(v.id for v in voices if v.id), tuple(f.name for f in functions if f.name),
            inert(sample.display_name, limit=60), models,
        )  # fmt: skip
        for form in self.app.screen_stack:
            if isinstance(form, RolloutForm):
                form.take_catalog(self.catalog)  # an open form: its fields keep what is typed

    def _sample(self) -> NamedAccount | None:
        target = self.connection.target
        if target is not None and is_agent_account(target):
            return target
        under = self.connection.target_id
        for account in self.accounts or ():
            path = self.listing.path_of(account.id or 0) if self.listing else []
            if under is None or any(a.id == under for a in path):
                return account
        return None

    def _under_label(self) -> str:
        target = self.connection.target or self.connection.owner
        return target.display_name if target is not None else "the key"

    def _ready_note(self) -> None:
        if self.plan is not None:
            return
        if not self.accounts:
            self.status.info("No agent account below this key")
            return
        unfinished = self.view.unfinished
        more = f" · {counted(unfinished, 'unfinished rollout')}: l resumes" if unfinished else ""
        self.status.info(
            f"{counted(len(self.accounts), 'agent account')} · c chooses a change{more}"
        )

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
        """The form; while the accounts are still being listed too (the change is chosen
        meanwhile, and planned once they are)."""
        if self.phase:
            return
        if self.accounts is not None and not self.accounts:
            self.status.info("No agent account below this key: nothing to roll out to")
            return
        marks = self.fleet_marks

        def chosen(request: RolloutRequest | None) -> None:
            if request is None:
                return
            self.request = request
            if self.accounts is None:
                self.view.plan_when_listed = True
                self._describe()
                self.status.busy("Listing the agent accounts: the change is planned once listed")
            else:
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
        under = self.connection.target_id
        if self.request.only_ids is not None:
            marks = set(self.request.only_ids)
        elif self.request.marked_only:
            # Fleet's rows are the key's, whatever the target (Enter there changes it):
            # the rows marked are the accounts, not those of them below the target.
            marks, under = set(self.fleet_marks), None
        path_of = self.listing.path_of if self.listing else (lambda _i: [])
        picked = pick_accounts(
            self.accounts, path_of=path_of, under=under, marked=marks,
            account_filter=self.request.account_filter,
        )  # fmt: skip
        if not picked:
            self.status.error(f"No agent account matches: {self._chosen_text()} — c changes "
                              "the accounts field")  # fmt: skip
            return
        self._describe()
        self._plan(picked)

    def _chosen_text(self) -> str:
        return chosen_text(self.request, self._under_label(), len(self.fleet_marks))

    @work(exclusive=True, group="rollout-plan", exit_on_error=False)
    async def _plan(self, picked: list[NamedAccount]) -> None:
        start = self.connection
        self._begin("plan", len(picked))
        self.status.busy(f"Planning for {counted(len(picked), 'account')}, {self.concurrency} "
                         "at a time: nothing is written")  # fmt: skip
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
            self.status.error(first_error(exc), prefix="Planning stopped: ", retry_key="p")
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

    def _show(self) -> None:
        if self.plan is None:
            self.table.clear()
            return
        results = self.results_log.results if self.results_log else {}
        with self.app.batch_update():
            self.table.show(self.plan, results, lambda p: self.view.keeps(p, results))

    def action_shown(self) -> None:
        shown = self.view.show_next()
        self._show()
        self._describe()
        rows = self.table.row_count
        self.status.info(f"Showing {shown}: {counted(rows, 'row')} · o shows the next")

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
        change = change_line(self.plan, self.request, self._chosen_text())
        self.query_one("#rollout-change", Static).update(inert(change, limit=400))
        self._summary()

    def _summary(self) -> None:
        if self.phase:
            text = self._run_text()
        else:
            text = plan_line(self.plan, self.results_log, self.view.shown)
        self.query_one("#rollout-summary", Static).update(inert(text, limit=400))

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
                    plan = choice.read(self.connection.api.redact)
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
                # The key's redaction: a folder plan writing back what the pull masked
                # with it is refused, as rollout apply refuses it.
                text = path.read_text(encoding="utf-8")
                plan = RolloutPlan.from_json(text, self.connection.api.redact)
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
