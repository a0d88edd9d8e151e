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

The fleet's view is the base class `usage_level.UsageLevelScreen`; what the screen holds
between keys is `usage_state.UsageState` and what it draws is made by `usage_parts`
(both without Textual's app).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, ClassVar

from pydantic import ValidationError
from rich.text import Text
from textual import on, work
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widget import Widget
from textual.widgets import Input, Static

from vagent_tui.api.models import UsageQuery
from vagent_tui.services.account_usage import read_account_usage
from vagent_tui.services.plans import PlanPart, read_plans
from vagent_tui.services.usage import UsageReport, UsageRow, fmt_number, usage_csv
from vagent_tui.ui import format as fmt
from vagent_tui.ui.caps import first
from vagent_tui.ui.colours import ACCENT, HEADING
from vagent_tui.ui.safety import SPENDS, Key
from vagent_tui.ui.screens.base import who_of
from vagent_tui.ui.screens.usage_parts import (
    bars,
    cells,
    keys_left_out,
    notes_text,
    plans_text,
    side_lines,
)
from vagent_tui.ui.screens.usage_plans import PLANS_KEYS, UsagePlansScreen
from vagent_tui.ui.text import inert, safe
from vagent_tui.ui.widgets.fleet_export import export_csv
from vagent_tui.ui.widgets.form import FormField, errors_by_field, show_errors
from vagent_tui.ui.widgets.record_table import RecordTable, record_table
from vagent_tui.ui.widgets.table_filter import filter_binding
from vagent_tui.words import counted

_FRIENDLY = {
    "start_date": "a date as YYYY-MM-DD",
    "end_date": "a date as YYYY-MM-DD, not before From",
}


class UsageScreen(UsagePlansScreen):
    """The usage rows of one account, a chart of a series, its plan and today's counts."""

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
        Key("u", "subscribe", "Subscribe", id="usage.subscribe", does=SPENDS, show=False,
            tooltip="Subscribe to a plan listed (plans panel): its cost asked, typed to confirm"),
        Key("C", "unsubscribe", "Cancel plan", id="usage.unsubscribe", does=SPENDS, show=False,
            tooltip="Cancel the subscription (plans panel): what stops asked, typed to confirm"),
        Binding("enter", "open", "Open", id="usage.open",
                tooltip="Act as the highlighted account and show its usage"),
        Binding("escape", "back", "Back", id="usage.back",
                tooltip="Back to the level's table, as it was left"),
        filter_binding("usage"),
    ]  # fmt: skip
    CSS_PATH = "usage.tcss"
    AUTO_FOCUS = "#usage-table"

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
        self.query_one("#usage-asked", Static).update(self.state.asked_line())

    def _ask(self, **changes: Any) -> None:
        self.state.ask(**changes)
        self._show_asked()
        self.reload()

    def action_period(self) -> None:
        self._clear_fields()
        self._ask(**self.state.other_period())

    def action_frequency(self) -> None:
        self._ask(frequency=self.state.next_frequency())

    def action_costs(self) -> None:
        self._ask(give_costs=not self.state.query.give_costs)

    def action_range(self) -> None:
        self.query_one("#usage-from", Input).focus()

    def action_clear_filters(self) -> None:
        if self.running:
            self.action_cancel_run()
            return
        self._clear_fields()
        show_errors(self._fields(), {})
        if self.state.query.ranged:
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
                {**self.state.query.model_dump(), "start_date": start, "end_date": end}
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
        self.state.query = asked
        self._show_asked()
        self.table.focus()
        self.reload()

    # ------------------------------------------------------------------ loading

    def reload(self) -> None:
        if self.plans_shown:
            self.load_plans()
        self.set_class(self.state.at_level(self.connection.acting_type), "-fleet")
        self.refresh_bindings()
        if self.fleet_mode:
            self.workers.cancel_group(self, "usage-load")
            if self.state.keeps_table(self._asking_now()):
                self.fleet.matrix.focus()
                self._fleet_summary()
                self.status.ok(f"The usage of the accounts below {who_of(self)}, as left")
                return
            self.load_fleet()
        else:
            self.action_cancel_run()
            self.load_usage()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # keys of the other view are hidden (False), not shown disabled
        if self.state.rules(action):
            return self.state.allows(action)
        return super().check_action(action, parameters)

    @work(exclusive=True, group="usage-load", exit_on_error=False)
    async def load_usage(self) -> None:
        query = self.state.query

        def failed(exc: Any) -> None:
            self.state.shown = None  # never leave another account's numbers on show
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
        self.state.shown = usage
        self._fill()
        report = usage.report
        said = f"{counted(len(report.usage), 'usage key')}, {counted(len(report.costs), 'cost')}"
        if report.unread:
            said += f" · {counted(len(report.unread), 'part')} not read"
        said += f" for {who_of(self)}"
        if left_out := keys_left_out(report):
            said += f" · {left_out}"
        if not report.rows:
            self.status.info(f"No number in the usage reply of {who_of(self)}: see below")
        else:
            self.status.ok(said)

    def action_back(self) -> None:
        """Close the plans panel; else act as the level again: its table as it was left."""
        if self.plans_shown:
            self.action_plans()
            return
        if self.state.back_to is None or self.fleet_mode:
            return
        level, went_to = self.state.back_to
        if self.connection.target_id != went_to:
            # another screen has acted as another account since: esc does not undo that
            self.state.back_to = None
            self.refresh_bindings()
            return
        self.state.keep_table = True
        self.status.busy(f"Back to account {level}" if level else "Back to the key owner")
        self._switch(level)

    def _fill(self) -> None:
        usage = self.state.shown
        report = usage.report if usage else UsageReport()
        rows, _ = first(report.rows)
        self.table.show(rows, lambda row: cells(row, report.currency))
        self._show_chart()
        self._show_side()
        self._show_notes(report)

    # ------------------------------------------------------------------ the parts

    @on(RecordTable.Highlighted, "#usage-table")
    def _row_highlighted(self, event: RecordTable.Highlighted) -> None:
        event.stop()
        self._show_chart()

    def _chart_row(self) -> UsageRow | None:
        row = self.table.highlighted_record
        if row is not None and row.series:
            return row
        report = self.state.shown.report if self.state.shown else None
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
                f" by {self.state.query.frequency} · {counted(len(values), 'point')}"
                f" · highest {fmt_number(top)}"
            ),
        )
        height = max(1, (chart.size.height or 3) - 2)
        drawn = [Text(inert(line), style=ACCENT) for line in bars(values, width, height)]
        ends = Text(inert(f"{labels[0]} … {labels[-1]}"), style="dim")
        chart.update(Text("\n").join([title, *drawn, ends]))

    def _show_side(self) -> None:
        side = self.query_one("#usage-side", Static)
        usage = self.state.shown
        if usage is None:
            side.update("")
            return
        # The task limits and the counts under them are the organization's.
        in_org = self.connection.acting_type in ("account", "user")
        side.update(Text("\n").join(side_lines(usage, in_org=in_org)))

    def _show_notes(self, report: UsageReport) -> None:
        text = notes_text(report, shown=self.state.shown is not None)
        self.query_one("#usage-notes", Static).update(safe(text, multiline=True))

    def on_resize(self) -> None:
        self.call_after_refresh(self._show_chart)

    # ------------------------------------------------------------------ plans

    def action_plans(self) -> None:
        """Show the plans panel (read now) or close it."""
        self.state.plans_shown = not self.plans_shown
        self.set_class(self.plans_shown, "-plans")
        self.refresh_bindings()
        if self.plans_shown:
            self.query_one("#usage-plans", VerticalScroll).focus()
            self.load_plans()
            return
        self.workers.cancel_group(self, "usage-plans")
        (self.fleet.matrix if self.fleet_mode else self.table).focus()

    @work(exclusive=True, group="usage-plans", exit_on_error=False)
    async def load_plans(self, *, quiet: bool = False) -> None:
        """The plan reads, on the panel; ``quiet``: the status line keeps what it says
        (a plan change's outcome)."""
        self._plan_parts = []  # never offer another account's plans
        panel = self.query_one("#usage-plans", VerticalScroll)
        ok, parts = await self.load(
            lambda c: read_plans(c.api, c.target_id),
            note="" if quiet else f"Reading the plans of {who_of(self)}",
            busy=panel,
        )
        if not ok or parts is None:
            return
        self._show_plans(parts)
        if quiet:
            return
        failed = [part for part in parts if part.error]
        said = f"{counted(len(parts) - len(failed), 'plan read')} for {who_of(self)}"
        if failed:
            said += f"; not read: {', '.join(part.title for part in failed)}"
        self.status.ok(said)

    def refresh_plans(self) -> None:
        if self.plans_shown:
            self.load_plans(quiet=True)

    def _show_plans(self, parts: Sequence[PlanPart]) -> None:
        self._plan_parts = list(parts)
        text = Text("\n").join([Text(PLANS_KEYS, style="dim"), plans_text(parts)])
        self.query_one("#usage-plans-text", Static).update(text)

    # ------------------------------------------------------------------ export

    def action_export(self) -> None:
        if self.fleet_mode:
            self._export_fleet()
            return
        if self.state.shown is None or not self.state.shown.report.rows:
            self.status.info("Nothing to export yet")
            return
        report = self.state.shown.report
        q = self.state.query
        label = f"{q.start_date or ''}..{q.end_date or ''}" if q.ranged else q.billing_period
        default = f"usage-{self.connection.acting_id or 'me'}-{fmt.now():%Y-%m-%d}.csv"
        export_csv(
            self,
            usage_csv(report, label=label),
            default,
            rows=len(report.rows),
            title="Export the usage as CSV",
        )
