"""Usage: what the selected account used and what it costs, as the platform says it.

The reply of ``GET /stats/usage`` is published only as "an object", so the screen shows
the rows `services.usage.read_usage` finds (a key is a row, ``cost:`` keys are costs, a
timeseries is a series), sums what can be summed, and says what it could not read.
Beside it: the plan the account is on (``/product/currentPlan``, every field sent), what
the catalog's record of that plan adds (``/product/productPlan/{id}``: its overage
prices in the simulator), and today's counts against the daily limits
(``/tasks/dailyCounts``, ``/tasks/limits``).

Keys: ``b`` current/previous billing period, ``f`` frequency day/month/year, ``c`` costs
on/off, a date range typed in From/To (Enter applies it; a bad date is refused at its
field and nothing is sent; ``x`` clears it), ``w`` the rows as CSV (exact values), ``/``
filters the rows. The chart is the highlighted row's series (the first row with one
when the highlighted row has none).

At a partner, reseller or organization (the target, or the key owner when acting as
itself) the screen shows the fleet instead: one row per agent account below it, asked
through Fleet's fan-out (`services.fleet.ask_fleet`, its adaptive limit; an account's
failure is its row's, ``F`` asks the failed ones again, ``x`` stops), a column per usage
key, the cost total, a totals line; ``o`` picks the sort column, ``O`` reverses it,
``n`` shows the top 10, ``/`` filters, ``w`` writes the rows shown as CSV (exact, 0600).
``b``, ``c`` and a date range apply to the fleet too. Enter acts as the highlighted
account (the app's target, as Fleet's Enter does) and shows its usage here; esc acts as
the level again and shows the table as it was left (its answers, sort, filter and
cursor; nothing asked again unless the question changed meanwhile).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterable, Sequence
from decimal import Decimal
from typing import Any, ClassVar

from pydantic import ValidationError
from rich.text import Text
from textual import on, work
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widget import Widget
from textual.widgets import DataTable, Input, Static
from textual.worker import Worker, WorkerCancelled, WorkerFailed

from vagent_tui.api.models import OpenReply, UsageQuery
from vagent_tui.services.accounts import AccountDirectory, NamedAccount
from vagent_tui.services.fleet import AdaptiveLimit, FleetAnswer, Question, ask_fleet
from vagent_tui.services.session import Connection
from vagent_tui.services.usage import (
    AccountUsage,
    PlanPart,
    UsageReport,
    UsageRow,
    catalog_lines,
    fmt_number,
    fmt_value,
    plan_lines,
    read_account_usage,
    read_plans,
    record_groups,
    today_lines,
    usage_csv,
)
from vagent_tui.services.usage_fleet import accounts_below, usage_question
from vagent_tui.ui import format as fmt
from vagent_tui.ui.caps import ROW_CAP, first, left_out_of
from vagent_tui.ui.palette import ACCENT, HEADING, WARN
from vagent_tui.ui.screens.base import BaseScreen, who_of
from vagent_tui.ui.text import inert, safe
from vagent_tui.ui.widgets.fleet_export import default_concurrency, export_csv
from vagent_tui.ui.widgets.form import FormField, errors_by_field, show_errors
from vagent_tui.ui.widgets.table_filter import filter_binding
from vagent_tui.ui.widgets.tables import RecordTable, record_table
from vagent_tui.ui.widgets.usage_fleet import UsageFleetTable
from vagent_tui.words import counted

FREQUENCIES = ("day", "month", "year")
LEVELS = ("partner", "reseller", "organization")
"""An account of these types has accounts below it: the screen shows their usage."""
SUMMARY_SECONDS = 0.2
SHOWN_LINES = 100
"""Lines of each part of the side panel (the plan, the catalog's record, today's counts)
and of each read of the plans panel; the screen says how many more there were."""
SHOWN_NOTES = 6
"""Notes and parts not read named under the table (in a few lines)."""
NOTE_LENGTH = 80
"""Characters of a note's text under the table."""
SIDE_LENGTH = 200
"""Characters of a value in the side panel (the plans panel shows a whole value)."""
_clock = time.monotonic
FLEET_ONLY = ("sort", "reverse", "top", "retry_failed", "open")
BARS = "▁▂▃▄▅▆▇█"
_FRIENDLY = {
    "start_date": "a date as YYYY-MM-DD",
    "end_date": "a date as YYYY-MM-DD, not before From",
}


def bars(values: Sequence[Decimal], width: int, height: int = 1) -> list[str]:
    """A bar chart of ``values``: ``height`` lines at most ``width`` cells wide, top line
    first. Neighbouring points are summed into one bar when there are more points than
    cells; with room to spare a bar is up to 3 cells wide, with a gap."""
    if not values or width <= 0 or height <= 0:
        return []
    per = max(1, -(-len(values) // width))
    sums = [sum(values[i : i + per], Decimal(0)) for i in range(0, len(values), per)]
    cell = min(3, width // len(sums)) if len(sums) * 2 <= width else 1
    low = min(min(sums), Decimal(0))
    span = max(sums) - low
    steps = 8 * height
    levels = [int((v - low) / span * steps) if span > 0 else 0 for v in sums]
    lines = []
    for line in range(height - 1, -1, -1):
        chars = []
        for level in levels:
            fill = min(8, max(0, level - 8 * line))
            char = BARS[fill - 1] if fill else " "
            if line == 0 and not fill:
                char = BARS[0]  # every point has a foot: a zero still shows
            chars.append(char * (cell - 1 if cell > 1 else 1) + (" " if cell > 1 else ""))
        lines.append("".join(chars).rstrip())
    return lines


def _cells(row: UsageRow, currency: str | None) -> list[Text]:
    kind = "cost" if row.cost else "usage"
    value = fmt_value(row, currency)
    points = f"{len(row.series):,}" if row.series else ""
    return [
        safe(row.key),
        safe(value + (" Σ" if row.summed else "")),
        Text(kind, style=WARN if row.cost else ""),
        Text(points),
    ]


def _keys_left_out(report: UsageReport) -> str:
    """What the table leaves out of a usage reply ("" for nothing): the keys past
    `ROW_CAP`, what the reply held past the bounds it was read within."""
    left = report.left_out
    return left_out_of(max(0, len(report.rows) - ROW_CAP), "key", left.keys, left.items)


def _field_lines(fields: Sequence[tuple[str, str]], *replies: OpenReply | None) -> list[Text]:
    """``name: value`` lines of the first `SHOWN_LINES` fields, then what was left out
    (of the lines, of the ``replies`` they were read from)."""
    shown, hidden = first(fields, SHOWN_LINES)
    lines = [
        Text.assemble(f"{inert(k, limit=SIDE_LENGTH)}: ", safe(v or "—", limit=SIDE_LENGTH))
        for k, v in shown
    ]
    left = [reply.left_out for reply in replies if reply is not None]
    said = left_out_of(hidden, "field", sum(n.keys for n in left), sum(n.items for n in left))
    if said:
        lines.append(Text(said, style="dim"))
    return lines


class UsageScreen(BaseScreen):
    """The usage rows of one account, a chart of a series, its plan and today's counts."""

    TITLE: ClassVar[str] = "Usage"
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (100, "-wide")]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("b", "period", "Period", id="usage.period",
                tooltip="Current or previous billing period"),
        Binding("f", "frequency", "Freq", id="usage.frequency",
                tooltip="Series by day, month or year"),
        Binding("c", "costs", "Costs", id="usage.costs", tooltip="Ask for costs or not"),
        Binding("t", "range", "Range", id="usage.range",
                tooltip="Type a date range (From, To): Enter applies it"),
        Binding("x", "clear_filters", "Clear range", show=False, id="usage.clear",
                tooltip="Back to the billing period"),
        Binding("w", "export", "Export", id="usage.export", tooltip="The rows as CSV, exact"),
        Binding("o", "sort", "Sort", id="usage.sort", tooltip="Sort the fleet by the next column"),
        Binding("O", "reverse", "Reverse", id="usage.reverse", tooltip="Reverse the sort"),
        Binding("n", "top", "Top 10", id="usage.top", tooltip="Only the top 10 by the sort column"),
        Binding("F", "retry_failed", "Ask failed", id="usage.retry-failed",
                tooltip="Ask the accounts whose read failed again"),
        Binding("p", "plans", "Plans", id="usage.plans",
                tooltip="The plan, the plan offered, the plans available, the catalog, add-ons"),
        Binding("enter", "open", "Open", id="usage.open",
                tooltip="Act as the highlighted account and show its usage"),
        Binding("escape", "back", "Back", id="usage.back",
                tooltip="Back to the level's table, as it was left"),
        filter_binding("usage"),
    ]  # fmt: skip
    CSS_PATH = "usage.tcss"
    AUTO_FOCUS = "#usage-table"

    def __init__(self) -> None:
        super().__init__()
        self.query_now = UsageQuery()
        self.shown: AccountUsage | None = None
        self.fleet_mode = False
        self.running = False
        self.limit: AdaptiveLimit | None = None
        self._run_id = 0
        self._summarised = 0.0
        self._fleet = UsageFleetTable(id="usage-fleet")
        self._fleet_asked: tuple[object, int | None, UsageQuery] | None = None
        """What the table holds answers to: the client, the level, the question."""
        self.back_to: tuple[int | None, int] | None = None
        """The level whose table Enter left (its id; None: the key owner) and the account
        Enter acted as; None: none."""
        self.plans_shown = False
        """``p``: the plans panel shows instead of the usage."""
        self._restore = False
        """The next reload at a level shows the table kept, when it answers the same."""

    # ------------------------------------------------------------------ layout

    def compose_body(self) -> Iterable[Widget]:
        with Horizontal(id="usage-controls"):
            yield Static("", id="usage-asked", markup=False)
            yield FormField("From", self._date_input("from"), name="start_date")
            yield FormField("To", self._date_input("to"), name="end_date")
        with Horizontal(id="usage-body"):
            with Vertical(id="usage-main"):
                yield record_table(
                    "usage-table",
                    (("Key", "key"), ("Value", "value"), ("Kind", "kind"), ("Points", "points")),
                    key=lambda row: row.key,
                )
                yield Static("", id="usage-chart")
            yield Static("", id="usage-side")
        yield Static("", id="usage-fleet-summary", markup=False)
        yield self._fleet
        yield Static("", id="usage-notes")
        with VerticalScroll(id="usage-plans"):
            yield Static("", id="usage-plans-text")

    @staticmethod
    def _date_input(name: str) -> Input:
        widget = Input(placeholder="YYYY-MM-DD", id=f"usage-{name}", compact=True)
        widget.cursor_blink = False
        return widget

    @property
    def table(self) -> RecordTable[UsageRow]:
        table: RecordTable[UsageRow] = self.query_one("#usage-table", RecordTable)
        return table

    def on_mount(self) -> None:
        self.apply_breakpoints()
        self._show_asked()

    # ------------------------------------------------------------------ asking

    def _show_asked(self) -> None:
        q = self.query_now
        if q.ranged:
            start = q.start_date.isoformat() if q.start_date else "period start"
            end = q.end_date.isoformat() if q.end_date else "today"
            when = f"{start} … {end}"
        else:
            when = f"{q.billing_period} period"
        costs = "costs on" if q.give_costs else "costs off"
        self.query_one("#usage-asked", Static).update(f"{when} · by {q.frequency} · {costs}")

    def _ask(self, **changes: Any) -> None:
        self.query_now = self.query_now.model_copy(update=changes)
        self._show_asked()
        self.reload()

    def action_period(self) -> None:
        period = "previous" if self.query_now.billing_period == "current" else "current"
        self._clear_fields()
        self._ask(billing_period=period, start_date=None, end_date=None)

    def action_frequency(self) -> None:
        now = FREQUENCIES.index(self.query_now.frequency)
        self._ask(frequency=FREQUENCIES[(now + 1) % len(FREQUENCIES)])

    def action_costs(self) -> None:
        self._ask(give_costs=not self.query_now.give_costs)

    def action_range(self) -> None:
        self.query_one("#usage-from", Input).focus()

    def action_clear_filters(self) -> None:
        if self.running:
            self.action_cancel_run()
            return
        self._clear_fields()
        show_errors(self._fields(), {})
        if self.query_now.ranged:
            self._ask(start_date=None, end_date=None)

    def _clear_fields(self) -> None:
        for name in ("from", "to"):
            with self.prevent(Input.Changed):
                self.query_one(f"#usage-{name}", Input).value = ""

    def _fields(self) -> list[FormField]:
        return list(self.query("#usage-controls FormField").results(FormField))

    @on(Input.Submitted, "#usage-from, #usage-to")
    def _range_entered(self, event: Input.Submitted) -> None:
        event.stop()
        start = self.query_one("#usage-from", Input).value.strip() or None
        end = self.query_one("#usage-to", Input).value.strip() or None
        try:
            asked = UsageQuery.model_validate(
                {**self.query_now.model_dump(), "start_date": start, "end_date": end}
            )
        except ValidationError as exc:
            errors = {k: _FRIENDLY.get(k, v) for k, v in errors_by_field(exc).items()}
            if "end_date" in errors and "the end is before" in str(exc):
                errors["end_date"] = "not before From"
            show_errors(self._fields(), errors)
            self.status.error(
                f"{counted(len(errors), 'date')} to fix: nothing was sent", retry_key=None
            )
            return
        show_errors(self._fields(), {})
        self.query_now = asked
        self._show_asked()
        self.table.focus()
        self.reload()

    # ------------------------------------------------------------------ loading

    def reload(self) -> None:
        if self.plans_shown:
            self.load_plans()
        self.fleet_mode = self.connection.acting_type in LEVELS
        self.set_class(self.fleet_mode, "-fleet")
        self.refresh_bindings()
        if self.fleet_mode:
            self.workers.cancel_group(self, "usage-load")
            restore, self._restore = self._restore, False
            self.back_to = None
            if restore and self._fleet_asked == self._asking_now():
                self.fleet.matrix.focus()
                self._fleet_summary()
                self.status.ok(f"The usage of the accounts below {who_of(self)}, as left")
                return
            self.load_fleet()
        else:
            self.action_cancel_run()
            self.load_usage()

    def _asking_now(self) -> tuple[object, int | None, UsageQuery]:
        # the series and its frequency are not asked of a fleet: not part of its question
        query = self.query_now.model_copy(update={"timeseries": False, "frequency": "day"})
        return (self.connection.client, self.connection.target_id, query)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # keys of the other view are hidden (False), not shown disabled
        if action == "back":
            return self.plans_shown or (not self.fleet_mode and self.back_to is not None)
        if action in FLEET_ONLY:
            return self.fleet_mode
        if action == "frequency":
            return not self.fleet_mode
        if action in ("period", "costs", "range") and self.running:
            return None
        return super().check_action(action, parameters)

    @work(exclusive=True, group="usage-load", exit_on_error=False)
    async def load_usage(self) -> None:
        query = self.query_now

        def failed(exc: Any) -> None:
            self.shown = None  # never leave another account's numbers on show
            self._fill()
            self.status.error(exc)

        ok, usage = await self.load(
            lambda c: read_account_usage(c.api, query, c.target_id),
            note=f"Reading the usage of {who_of(self)}",
            busy=self.table,
            on_error=failed,
        )
        if not ok or usage is None:
            return
        self.shown = usage
        self._fill()
        report = usage.report
        said = f"{counted(len(report.usage), 'usage key')}, {counted(len(report.costs), 'cost')}"
        if report.unread:
            said += f" · {counted(len(report.unread), 'part')} not read"
        said += f" for {who_of(self)}"
        if left_out := _keys_left_out(report):
            said += f" · {left_out}"
        if not report.rows:
            self.status.info(f"No number in the usage reply of {who_of(self)}: see below")
        else:
            self.status.ok(said)

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
        self.fleet.setup(usage_question(self.query_now), accounts)
        self._fleet_asked = self._asking_now()
        self.focus_after_load(self.fleet.matrix)
        if not accounts:
            self._fleet_summary()
            self.status.info(f"No agent account below {who_of(self)}")
            return
        self._start([a.id for a in accounts if a.id is not None])

    def _start(self, ids: list[int]) -> None:
        self._run_id += 1
        self.running = True
        self.limit = AdaptiveLimit(default_concurrency())
        self.fleet.waiting(ids)
        self._fleet_summary()
        self.status.busy(f"Asking the usage of {counted(len(ids), 'account')}")
        self.refresh_bindings()
        self._run_fleet(self._run_id, ids, self.limit, usage_question(self.query_now))

    @work(exclusive=True, group="usage-fleet-run", exit_on_error=False)
    async def _run_fleet(
        self, run_id: int, ids: list[int], limit: AdaptiveLimit, question: Question
    ) -> None:
        def take(answer: FleetAnswer) -> None:
            if run_id != self._run_id:
                return
            self.fleet.take(answer)
            now = _clock()
            if now - self._summarised >= SUMMARY_SECONDS:
                self._summarised = now
                self._fleet_summary()

        try:
            await ask_fleet(self.connection.api, ids, question, limiter=limit, on_answer=take)
        except asyncio.CancelledError:
            if run_id == self._run_id:
                self._finish_run(cancelled=True)
            raise
        except Exception as exc:  # a failure outside any one account
            if run_id == self._run_id:
                self._finish_run(cancelled=True)
                self.status.error(exc, retry_key="r")
            return
        if run_id == self._run_id:
            self._finish_run(cancelled=False)

    def _finish_run(self, *, cancelled: bool) -> None:
        self.running = False
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
        self.back_to = (self.connection.target_id, account_id)
        self.status.busy(f"Switching to account {account_id}")
        self._switch(account_id)

    def action_back(self) -> None:
        """Close the plans panel; else act as the level again: its table as it was left."""
        if self.plans_shown:
            self.action_plans()
            return
        if self.back_to is None or self.fleet_mode:
            return
        level, went_to = self.back_to
        if self.connection.target_id != went_to:
            # another screen has acted as another account since: esc does not undo that
            self.back_to = None
            self.refresh_bindings()
            return
        self._restore = True
        self.status.busy(f"Back to account {level}" if level else "Back to the key owner")
        self._switch(level)

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
            self._switch_failed()
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
            self._switch_failed()
            self.status.error(said, retry_key=None)

    def _switch_failed(self) -> None:
        self._restore = False
        if self.fleet_mode:
            self.back_to = None  # still at the level: nothing to go back to

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

    def _fill(self) -> None:
        usage = self.shown
        report = usage.report if usage else UsageReport()
        rows, _ = first(report.rows)
        self.table.show(rows, lambda row: _cells(row, report.currency))
        self._show_chart()
        self._show_side()
        self._show_notes(report)

    # ------------------------------------------------------------------ the parts

    @on(DataTable.RowHighlighted, "#usage-table")
    def _row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        self._show_chart()

    def _chart_row(self) -> UsageRow | None:
        row = self.table.highlighted_record
        if row is not None and row.series:
            return row
        report = self.shown.report if self.shown else None
        return next((r for r in report.rows if r.series), None) if report else None

    def _show_chart(self) -> None:
        chart = self.query_one("#usage-chart", Static)
        row = self._chart_row()
        if row is None:
            chart.update(Text("No series in the reply: nothing to chart", style="dim"))
            return
        labels = [label for label, _ in row.series]
        values = [value for _, value in row.series]
        width = max(10, (chart.size.width or 60) - 2)
        top = max(values)
        title = Text.assemble(
            (inert(row.key), HEADING),
            inert(
                f" by {self.query_now.frequency} · {counted(len(values), 'point')}"
                f" · highest {fmt_number(top)}"
            ),
        )
        height = max(1, (chart.size.height or 3) - 2)
        drawn = [Text(inert(line), style=ACCENT) for line in bars(values, width, height)]
        ends = Text(inert(f"{labels[0]} … {labels[-1]}"), style="dim")
        chart.update(Text("\n").join([title, *drawn, ends]))

    def _show_side(self) -> None:
        side = self.query_one("#usage-side", Static)
        usage = self.shown
        if usage is None:
            side.update("")
            return
        lines = [Text("Plan", style=HEADING)]
        if usage.plan is not None:
            plan = plan_lines(usage.plan)
            lines += _field_lines(plan, usage.plan)
            if not plan:
                lines.append(Text("(the reply has no field)", style="dim"))
        else:
            lines.append(safe(f"not read: {usage.plan_error or 'no reply'}", WARN))
        catalog = catalog_lines(usage.plan, usage.product)
        if catalog:
            lines += [Text(""), Text("In the catalog", style=HEADING)]
            lines += _field_lines(catalog, usage.product)
        today = today_lines(usage.counts, usage.limits)
        if today:
            # The task limits and the counts under them are the organization's (the
            # vendor: "the org's current task limits"): an agent's are its organization's.
            in_org = self.connection.acting_type in ("account", "user")
            heading = "Today (organization)" if in_org else "Today (of the daily limit)"
            lines += [Text(""), Text(heading, style=HEADING)]
            lines += _field_lines(today, usage.counts, usage.limits)
        total = usage.report.cost_total
        if total is not None:
            currency = usage.report.currency
            text = fmt_number(total, places=2)
            text = f"{currency} {text}" if currency else f"{text} (no currency stated)"
            lines += [Text(""), Text("Costs", style=HEADING), safe(text)]
            report = usage.report
            sent = any(r.key.lower() in ("cost:total", "total") for r in report.costs)
            if report.left_out.entries and not sent:
                lines.append(Text("the sum of the costs read: the reply holds more", style="dim"))
        side.update(Text("\n").join(lines))

    def _show_notes(self, report: UsageReport) -> None:
        parts: list[str] = []
        if report.unread:
            unread, more = first(report.unread, SHOWN_NOTES)
            parts.append("Not read: " + ", ".join(unread) + (f" and {more:,} more" if more else ""))
        if report.notes:
            parts.append(
                " · ".join(
                    f"{inert(k, limit=NOTE_LENGTH)}: {inert(v, limit=NOTE_LENGTH)}"
                    for k, v in report.notes[:SHOWN_NOTES]
                )
            )
        if self.shown is not None and not report.rows:
            parts.insert(0, "The usage reply holds no number this console can read")
        # first: the notes show three lines at most
        if left_out := _keys_left_out(report):
            parts.insert(0, left_out)
        if any(r.summed for r in report.rows):
            parts.append("Σ: the sum of the row's series (no total was sent)")
        self.query_one("#usage-notes", Static).update(safe("\n".join(parts), multiline=True))

    def on_resize(self) -> None:
        self.call_after_refresh(self._show_chart)

    # ------------------------------------------------------------------ plans

    def action_plans(self) -> None:
        """Show the plans panel (read now) or close it."""
        self.plans_shown = not self.plans_shown
        self.set_class(self.plans_shown, "-plans")
        self.refresh_bindings()
        if self.plans_shown:
            self.query_one("#usage-plans", VerticalScroll).focus()
            self.load_plans()
            return
        self.workers.cancel_group(self, "usage-plans")
        (self.fleet.matrix if self.fleet_mode else self.table).focus()

    @work(exclusive=True, group="usage-plans", exit_on_error=False)
    async def load_plans(self) -> None:
        panel = self.query_one("#usage-plans", VerticalScroll)
        ok, parts = await self.load(
            lambda c: read_plans(c.api, c.target_id),
            note=f"Reading the plans of {who_of(self)}",
            busy=panel,
        )
        if not ok or parts is None:
            return
        self._show_plans(parts)
        failed = [part for part in parts if part.error]
        said = f"{counted(len(parts) - len(failed), 'plan read')} for {who_of(self)}"
        if failed:
            said += f"; not read: {', '.join(part.title for part in failed)}"
        self.status.ok(said)

    def _show_plans(self, parts: Sequence[PlanPart]) -> None:
        lines: list[Text] = []
        for part in parts:
            title = (inert(part.title), HEADING)
            lines.append(Text.assemble(title, (inert(f"  GET {part.path}"), "dim")))
            if part.error:
                lines.append(safe(f"  not read: {part.error}", WARN))
            elif not part.lines:
                lines.append(Text("  (the reply has no field)", style="dim"))
            else:
                fields_shown, hidden = first(part.lines, SHOWN_LINES)
                for record, fields in record_groups(fields_shown):
                    if not record:
                        key, value = fields[0]
                        lines.append(Text.assemble(f"  {inert(key)}: ", safe(value or "—")))
                        continue
                    said = " · ".join(f"{key}: {value or '—'}" for key, value in fields)
                    lines.append(Text.assemble((f"  {inert(record)}  ", ACCENT), safe(said)))
                left = part.left_out
                if said := left_out_of(hidden, "field", left.keys, left.items):
                    lines.append(Text(f"  {said}", style="dim"))
            lines.append(Text(""))
        self.query_one("#usage-plans-text", Static).update(Text("\n").join(lines[:-1]))

    # ------------------------------------------------------------------ export

    def action_export(self) -> None:
        if self.fleet_mode:
            self._export_fleet()
            return
        if self.shown is None or not self.shown.report.rows:
            self.status.info("Nothing to export yet")
            return
        report = self.shown.report
        q = self.query_now
        label = f"{q.start_date or ''}..{q.end_date or ''}" if q.ranged else q.billing_period
        default = f"usage-{self.connection.acting_id or 'me'}-{fmt.now():%Y-%m-%d}.csv"
        export_csv(
            self,
            usage_csv(report, label=label),
            default,
            rows=len(report.rows),
            title="Export the usage as CSV",
        )

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
