"""Onboard: organizations, agent accounts and members from a spreadsheet, planned first.

``c`` asks for a file (CSV, or ``.json``; its columns in `vagent_tui.services.onboard_rows`)
and plans it: every row is matched by external id (a member by email in its
organization) and says what applying would do: will create, will update (and what
changes), already so, refused (and why), unknown parent, could not be read. Nothing is
written. ``p`` reads the file again and plans it (after a fix in the file or on the
platform, or after a run).

``A`` applies it after a review that counts what will be created and updated:
organizations first, then their accounts, then members, with the rollout's pool
(`VAGENT_ROLLOUT_CONCURRENCY` rows in flight) and its log on disk: a console started
again after a dropped session opens the same file, plans it (what the lost run made is
"already so") and applies the rest; a row whose reply was lost is read back, never sent
twice. ``x`` stops (the rows under way finish and are recorded). ``o`` shows all rows or
one kind of outcome, ``w`` exports the rows, their plan and results as CSV, Enter shows
a row whole. A read-only profile can plan and export, not apply. Every write is in the
journal.

What the screen holds between keys (the file, its plan, the run's log, the rows shown)
and the columns' widths are in `onboard_state`, tested without an app.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import work
from textual.binding import Binding, BindingType
from textual.widget import Widget
from textual.widgets import ProgressBar, Static

from vagent_tui.api.client import PlatformClient
from vagent_tui.services.bulk import DONE, AccountResult, RolloutBusy, RolloutLog
from vagent_tui.services.onboard import (
    LABELS,
    OnboardPlan,
    RowPlan,
    default_parent,
    plan_onboarding,
)
from vagent_tui.services.onboard_apply import apply_onboarding, results_csv
from vagent_tui.services.onboard_rows import MAX_BYTES, Row, SourceError, log_for, read_rows
from vagent_tui.services.session import Connection, origin_of
from vagent_tui.ui import format as fmt
from vagent_tui.ui.colours import ACCENT, FAILED, OK, WARN
from vagent_tui.ui.dialogs import PromptModal, ReviewModal, TextModal
from vagent_tui.ui.failures import WRITE_GROUP_PREFIX
from vagent_tui.ui.safety import WRITES, Key
from vagent_tui.ui.screens.onboard_state import (
    COLUMNS,
    Layout,
    OnboardState,
    column_widths,
    cut_cell,
)
from vagent_tui.ui.screens.rollout_runs import first_error, rollout_concurrency
from vagent_tui.ui.screens.run_progress import RunProgress
from vagent_tui.ui.text import inert
from vagent_tui.ui.widgets.fleet_export import export_csv
from vagent_tui.ui.widgets.record_table import RecordTable
from vagent_tui.ui.widgets.status import describe_error
from vagent_tui.words import counted

APPLY_GROUP = WRITE_GROUP_PREFIX + "onboard"
REVIEW_LINES = 30
OUTCOME_STYLE = {"create": ACCENT, "update": ACCENT, "already": "dim", "refused": WARN,
                 "unknown-parent": WARN, "unreadable": FAILED}  # fmt: skip
RESULT_STYLE = {"written": OK, "failed": FAILED, "unknown": WARN}


class OnboardScreen(RunProgress):
    """Plan and apply a spreadsheet of organizations, accounts and members."""

    CSS_PATH = "onboard.tcss"
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (100, "-wide")]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("c", "choose", "File", id="onboard.choose",
                tooltip="Open a CSV or JSON file of rows and plan it"),
        Binding("p", "plan", "Plan", id="onboard.plan",
                tooltip="Read the file again and plan it (nothing is written)"),
        Key("A", "apply", "Apply", id="onboard.apply", does=WRITES,
            tooltip="Create and update what the plan says, after a review"),
        Binding("x", "cancel", "Cancel", id="onboard.cancel",
                tooltip="Stop: the rows under way finish and are recorded"),
        Binding("escape", "cancel", "Cancel", show=False, id="onboard.cancel-esc",
                tooltip="Stop: the rows under way finish and are recorded"),
        Binding("o", "shown", "Show", id="onboard.shown", tooltip="Show all rows, or some"),
        Binding("w", "export", "Export", id="onboard.export",
                tooltip="The rows, their plan and results as CSV"),
    ]  # fmt: skip
    PLAN_GROUP = "onboard-plan"
    STOPPING = "Stopping: the rows under way finish and are recorded"

    def __init__(self) -> None:
        super().__init__()
        self.state = OnboardState()
        self.concurrency = rollout_concurrency()
        self.columns: list[str] = []
        """The table's columns now (keys of `COLUMNS`), as the width allows."""
        self._columns_for: Layout | None = None

    def compose_body(self) -> Iterable[Widget]:
        yield Static("", id="onboard-source", markup=False)
        yield Static("", id="onboard-summary", markup=False)
        yield ProgressBar(total=None, show_eta=False, id="onboard-progress")
        table: RecordTable[RowPlan] = RecordTable(
            id="onboard-table", record_key=lambda p: str(p.row.line)
        )
        yield table  # its columns follow the width (`_set_columns`)

    @property
    def table(self) -> RecordTable[RowPlan]:
        table: RecordTable[RowPlan] = self.query_one("#onboard-table", RecordTable)
        return table

    def on_mount(self) -> None:
        self.apply_breakpoints()
        self._set_columns(self._layout_for())
        self.table.focus()
        self._describe()

    def on_resize(self) -> None:
        # The width class and the table's width are known after this resize's layout.
        self.call_after_refresh(self._follow_width)

    def _follow_width(self) -> None:
        if self._layout_for() != self._columns_for:
            self._show()

    def on_unmount(self) -> None:
        if self.state.results_log is not None:
            self.state.results_log.release()

    def reload(self) -> None:
        self._describe()
        connection = self.connection
        if connection.connected and not connection.reseller_or_partner_key:
            scope = connection.scope.label if connection.scope is not None else "not known"
            self.status.info(
                "Onboarding matches each row by its external id (getAccountByExternalId), "
                f"which the platform answers a reseller or partner key only; this key: {scope}"
            )
        elif self.state.plan is None and not self.phase:
            self.status.info("c opens a CSV or JSON file of organizations, accounts and members")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        allowed = super().check_action(action, parameters)
        if not allowed:
            return allowed
        if action in ("choose", "plan", "apply") and not self.connection.reseller_or_partner_key:
            return False  # its rows are matched by getAccountByExternalId ("Reseller/Partner only")
        if action == "cancel":
            return True if self.phase else None
        if action in ("choose", "plan", "apply", "reload"):
            return None if self.phase else True
        return True

    # ------------------------------------------------------------------ the file

    def action_choose(self) -> None:
        if self.phase:
            return

        def opened(text: str | None) -> None:
            if text and text.strip():
                self._open(Path(text.strip()).expanduser())

        self.app.push_screen(
            PromptModal(
                "Onboard from a file",
                "A CSV file (a header line: type, external_id, name, parent, billing_id, "
                "active, email, role, accounts, phone_number) or a .json list of rows. Nothing is "
                "written: the rows are planned first.",
                value=str(self.state.path or ""), confirm_label="Plan",
                validate=lambda t: None if t.strip() else "Give a file name",
            ),
            opened,
        )  # fmt: skip

    @work(exclusive=True, group="onboard-read", exit_on_error=False)
    async def _open(self, path: Path) -> None:
        def read() -> str:
            if path.stat().st_size > MAX_BYTES:
                raise SourceError(f"the file is larger than {MAX_BYTES // 2**20} MiB")
            return path.read_text(encoding="utf-8-sig")

        try:
            text = await asyncio.to_thread(read)
            rows = read_rows(text, json_file=path.suffix.lower() == ".json")
        except OSError as exc:
            self.status.error(f"Could not read {path}: {exc.strerror or exc}")
            return
        except (SourceError, UnicodeDecodeError) as exc:
            self.status.error(f"{path.name}: {exc}; nothing planned")
            return
        self.state.path = path
        self._plan(rows)

    # ------------------------------------------------------------------ planning

    def action_plan(self) -> None:
        if self.phase:
            return
        if self.state.path is None:
            self.action_choose()
            return
        self._open(self.state.path)  # read again: it may have been fixed meanwhile

    @work(exclusive=True, group="onboard-plan", exit_on_error=False)
    async def _plan(self, rows: list[Row]) -> None:
        start = self.connection
        if start.client is None:
            self.status.error("Not connected: nothing to plan against")
            return
        source = self.state.path.name if self.state.path else ""
        self._begin("plan", len(rows))
        self.status.busy(f"Planning {counted(len(rows), 'row')}, {self.concurrency} at a time: "
                         "nothing is written")  # fmt: skip
        origin = origin_of(start)
        try:
            plan = await plan_onboarding(
                start.api, rows, default_parent=default_parent(start),
                concurrency=self.concurrency, on_plan=self._take, origin=origin, source=source,
            )  # fmt: skip
            log = await asyncio.to_thread(log_for, rows, origin)
        except asyncio.CancelledError:
            self.status.info("Planning cancelled: nothing was written; p plans again")
            raise
        except Exception as exc:
            self.status.error(first_error(exc), prefix="Planning stopped: ", retry_key="p")
            return
        finally:
            self._end()
        if start.client is not self.connection.client:
            return  # another profile meanwhile: this plan is not for it
        if self.state.results_log is not None and self.state.results_log.path != log.path:
            self.state.results_log.release()
        self.state.plan, self.state.results_log = plan, log
        self._show()
        self._describe()
        counts = plan.counts()
        earlier = sum(1 for r in log.results.values() if r.result in DONE)
        more = f" · an earlier run of this file wrote {earlier:,}" if earlier else ""
        follow = "A applies" if counts["create"] or counts["update"] else "nothing to apply"
        self.status.ok(f"Planned: {plan.summary()}. Nothing written; {follow}{more}")

    # ------------------------------------------------------------------ progress

    def _reported(self, item: object) -> str:
        """A row's plan, or its result (its row drawn again)."""
        if isinstance(item, RowPlan):
            return LABELS[item.outcome]
        assert isinstance(item, AccountResult)
        self._put_result(item)
        return item.result

    # ------------------------------------------------------------------ the table

    def _cells(self, p: RowPlan) -> dict[str, Text]:
        row, result = p.row, self.state.result(p)
        detail = "; ".join(p.changes or p.reasons)
        if result is not None and result.result not in DONE:
            detail = f"{result.result}: {result.message}"
        result_text = Text("")
        if result is not None:
            result_text = Text(inert(result.result), style=RESULT_STYLE.get(result.result, ""))
        return {
            "line": Text(inert(row.line)), "type": Text(cut_cell(row.kind)),
            "key": Text(cut_cell(row.key)), "name": Text(cut_cell(row.name)),
            "plan": Text(LABELS[p.outcome], style=OUTCOME_STYLE[p.outcome]),
            "result": result_text, "detail": Text(cut_cell(detail)),
        }  # fmt: skip

    def _row_cells(self, p: RowPlan) -> list[Text]:
        cells = self._cells(p)
        return [cells[name] for name in self.columns]

    def _layout_for(self) -> Layout:
        """What the columns depend on: the width class, the table's width and the
        longest value of each column sized to its values."""
        width = self.table.size.width or self.size.width
        return Layout(self.has_class("-narrow"), width, self.state.longest())

    def _set_columns(self, layout: Layout) -> None:
        """The columns for ``layout`` (`column_widths`); the caller shows the rows again."""
        self._columns_for = layout
        widths = column_widths(layout)
        self.columns = list(widths)
        table = self.table
        table.clear(columns=True)
        for name, width in widths.items():
            table.add_column(COLUMNS[name], key=name, width=width)

    def _show(self) -> None:
        table = self.table
        keep = table.highlighted_record
        with self.app.batch_update():
            layout = self._layout_for()
            if layout != self._columns_for:
                self._set_columns(layout)
            plan = self.state.plan
            if plan is None:
                table.clear()
                return
            rows = [p for p in plan.rows if self.state.keeps(p)]
            table.show(rows, self._row_cells, keep=str(keep.row.line) if keep else None)

    def _put_result(self, result: AccountResult) -> None:
        self.table.refresh_record(str(result.account_id))

    def action_shown(self) -> None:
        shown = self.state.show_next()
        self._show()
        self._describe()
        self.status.info(f"Showing {shown}: "
                         f"{counted(self.table.row_count, 'row')} · o shows the next")  # fmt: skip

    def on_record_table_selected(self, event: RecordTable.Selected) -> None:
        event.stop()
        p = self.table.highlighted_record
        if p is None:
            return
        lines = list(p.changes or p.reasons)
        result = self.state.result(p)
        if result is not None:
            lines.append(
                f"result: {result.result}{': ' + result.message if result.message else ''}"
            )
        named = f" “{p.row.name}”" if p.row.name else ""  # narrow, the table has no Name
        title = f"Line {p.row.line}: {p.row.kind} {p.row.key}{named} · {LABELS[p.outcome]}"
        self.app.push_screen(TextModal(inert(title, limit=120), "\n".join(lines) or "Nothing more"))

    # ------------------------------------------------------------------ header lines

    def _describe(self) -> None:
        source = self.state.source_line()
        self.query_one("#onboard-source", Static).update(inert(source, limit=400))
        self._summary()

    def _summary(self) -> None:
        text = self._run_text() if self.phase else self.state.plan_line()
        self.query_one("#onboard-summary", Static).update(inert(text, limit=400))

    # ------------------------------------------------------------------ apply

    def action_apply(self) -> None:
        plan, log, connection = self.state.plan, self.state.results_log, self.connection
        if plan is None or log is None:
            self.status.info("Nothing planned yet: c opens a file")
            return
        if plan.origin != origin_of(connection):
            here = origin_of(connection)
            self.status.error(f"This plan was made for {plan.origin}; this console is "
                              f"connected to {here}. p plans it here.")  # fmt: skip
            return
        todo = [p for p in plan.writing() if not log.done(p.row.line, "write")]
        if not todo:
            self.status.info("Nothing to write: the plan has nothing to create or update, "
                             "or an earlier run wrote it")  # fmt: skip
            return
        if self.busy_writing():
            return
        self._ask_apply(plan, log, connection, todo)

    @work(exclusive=True, group="onboard-ask", exit_on_error=False)
    async def _ask_apply(
        self, plan: OnboardPlan, log: RolloutLog, connection: Connection, todo: list[RowPlan]
    ) -> None:
        """The apply question; a plan that brings numbers spends money: it says what the
        catalog says a number brought costs, and the count is typed to go ahead."""
        left = OnboardPlan(todo)
        brought = sum(1 for p in todo if p.bring)
        intro = (
            f"This will {left.what_it_writes()} ({counted(len(todo), 'row')}), "
            f"{min(self.concurrency, len(todo))} at a time: organizations first, then "
            "accounts, then members (invited members get the welcome email). Each write is "
            "sent once; a row whose reply is lost is read back by its external id, never "
            "sent again."
        )
        expected = None
        if brought:
            from vagent_tui.api.number_models import number_prices

            ok, catalog = await self.load(
                lambda c: c.api.get_product_catalog(), on_error=lambda _exc: None,
                follows_target=False,
            )  # fmt: skip
            price = number_prices(catalog.body()).says(byo=True) if ok and catalog else None
            cost = "a monthly fee each (the catalog does not say how much)"
            if price:
                cost = f"{price} each, the catalog's price of a number brought"
            expected = str(brought)
            intro += (
                f"\n\nBringing {counted(brought, 'phone number')} spends money: {cost}, "
                f"billed to the account each is brought to. Type {expected} to go ahead."
            )
        review = ReviewModal(f"Apply {counted(len(todo), 'row')}", intro, _listing(todo),
                             confirm_label=f"Apply {len(todo):,}", expected=expected)  # fmt: skip

        def answer(yes: bool | None) -> None:
            now = self.connection
            if not yes:
                return
            if now.client is not connection.client or now.read_only or self.phase:
                self.status.error("The connection changed while the dialog was open: "
                                  "nothing was sent")  # fmt: skip
                return
            self._begin("apply", len(todo))
            self.status.busy(f"Applying {counted(len(todo), 'row')} · x stops")
            self._apply(plan, log, connection.api)

        self.app.push_screen(review, answer)

    @work(group=APPLY_GROUP, exit_on_error=False)
    async def _apply(self, plan: OnboardPlan, log: RolloutLog, client: PlatformClient) -> None:
        problem: str | None = None
        try:
            await apply_onboarding(client, plan, log, concurrency=self.concurrency,
                                   on_result=self._take,
                                   stop=lambda: self._stopping)  # fmt: skip
        except RolloutBusy as exc:
            problem = f"{exc} (another console?): wait for it, or close it"
        except Exception as exc:
            problem = f"Stopped: {describe_error(first_error(exc))}. What was written is listed"
        finally:
            log.release()
            stopped = self._stopping
            self._end()
            self._show()
            self._describe()
            self.vapp.agent_listings.forget()  # Fleet and Rollout list the new accounts
            if self._done:  # a row was sent (or found written by a lost run): Scope reads again
                self.vapp.tree_changed_signal.publish(None)
        counts = self._counts() or "nothing"
        if problem is not None:
            self.status.error(f"{problem} ({counts}); A applies the rest, skipping what is done.")
        elif stopped:
            self.status.info(f"Stopped: {counts}. What was done is recorded; A applies the rest.")
        else:
            trouble = sum(n for k, n in self._tally.items() if k not in DONE)
            more = " · o shows the rows with trouble; A tries them again" if trouble else ""
            self.status.ok(f"Applied: {counts}{more}")
        self.notify_if_away(f"Onboarding: {counts}")

    # ------------------------------------------------------------------ export

    def action_export(self) -> None:
        plan, log = self.state.plan, self.state.results_log
        if plan is None:
            self.status.info("Nothing planned yet: c opens a file")
            return
        export_csv(self, results_csv(plan, log), f"onboarding-{fmt.now():%Y-%m-%d}.csv",
                   rows=len(plan.rows), title="Export the onboarding",
                   hint=" Each row of the file with its plan and result.")  # fmt: skip


def _listing(plans: list[RowPlan]) -> Text:
    """The rows of a review, one a line with what they do; past a screenful, counted."""
    text = Text()
    for p in plans[:REVIEW_LINES]:
        what = f"{p.outcome} {p.row.kind} {p.row.key}"
        text.append(f"{inert(p.row.line)}  {inert(what, limit=80)}", style="bold")
        text.append(f"  {inert('; '.join(p.changes), limit=200)}\n")
    if len(plans) > REVIEW_LINES:
        text.append(f"… and {counted(len(plans) - REVIEW_LINES, 'more row')}", style="dim")
    return text
