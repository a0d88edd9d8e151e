"""Functions checklist: every function descriptor of the acting account, checked
against the functions the agent has configured (``actions`` of the live slot).

Every text of a descriptor is shown inert; two functions of one name are two rows (the
row of the table is the index in `FunctionsScreen.shown`). More than `ROW_CAP` functions
in a view show the first ones, and the summary says how many more there are.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any, ClassVar

from rich.text import Text
from textual import on, work
from textual.binding import Binding, BindingType
from textual.containers import Container, Horizontal
from textual.widget import Widget
from textual.widgets import DataTable, Static

from vagent_tui.api.errors import PlatformError
from vagent_tui.api.models import AgentConfig, FunctionDescriptor
from vagent_tui.inert import MULTILINE_LIMIT
from vagent_tui.services.agents import (
    FUNCTION_VIEWS,
    Finding,
    cross_check,
    functions_with_slots,
    in_view,
)
from vagent_tui.services.changes import Change, FunctionSwitch
from vagent_tui.ui.colours import FAILED, FAILED_STRONG, WARN
from vagent_tui.ui.dialogs import TEXT_KEPT, EditorModal
from vagent_tui.ui.format import flag, plain
from vagent_tui.ui.safety import WRITES, Key
from vagent_tui.ui.screens.base import BaseScreen, who_of
from vagent_tui.ui.screens.staging_flow import Staged, stage_change, staging_write
from vagent_tui.ui.text import inert, safe
from vagent_tui.ui.widgets.details import findings_text, function_detail
from vagent_tui.ui.widgets.status import describe_error, outcome_unknown
from vagent_tui.ui.widgets.table_filter import filter_binding
from vagent_tui.ui.widgets.tables import ROW_CAP, SafeTable, row_table
from vagent_tui.words import counted

_VIEW_TIP = "Show all, unavailable, configured or problem functions"
_DETAIL_TIP = "Detail pane: normal, large (80 columns), hidden"
_COPY_TIP = "Copy the docs page URL (the name when there is none)"


class FunctionsScreen(BaseScreen):
    """A checklist of functions; with an agent account, a cross-check of its actions."""

    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (110, "-wide")]
    VERTICAL_BREAKPOINTS = [(0, "-short"), (20, "-tall")]  # -short: the detail gives way
    BINDINGS: ClassVar[list[BindingType]] = [
        Key(
            "space",
            "toggle_function",
            "On/Off",
            id="functions.toggle",
            does=WRITES,
            tooltip="Switch the function on or off in the agent's staging (reviewed first)",
        ),
        Key(
            "a",
            "add",
            "+1 entry",
            show=False,
            id="functions.add",
            does=WRITES,
            tooltip="One more entry of the function in staging (its limit permitting)",
        ),
        Key(
            "e",
            "edit",
            "Instructions",
            id="functions.instructions",
            does=WRITES,
            tooltip="Edit the instructions of the function's entry in staging",
        ),
        Binding("v", "cycle_view", "View", id="functions.view", tooltip=_VIEW_TIP),
        Binding("y", "copy_docs", "Copy docs", show=False, id="functions.copy", tooltip=_COPY_TIP),
        Binding(
            "Y",
            "copy_name",
            "Copy name",
            show=False,
            id="functions.copy-name",
            tooltip="Copy the name",
        ),
        Binding("enter", "cycle_detail", "Detail", id="functions.detail", tooltip=_DETAIL_TIP),
        filter_binding("functions"),  # last: the footer drops it first
    ]
    CSS_PATH = "functions.tcss"
    AUTO_FOCUS = "#functions-table"  # the table, not the first filter: arrows move its cursor

    def __init__(self) -> None:
        super().__init__()
        self.functions: list[FunctionDescriptor] = []
        self.matching: list[FunctionDescriptor] = []
        """The functions of the current view."""
        self.shown: list[FunctionDescriptor] = []
        """Those in the table (at most `ROW_CAP`): row ``i`` is ``shown[i]``."""
        self.configured: Counter[str] | None = None  # None: no cross-check possible
        self.staged: Counter[str] | None = None
        """Entries per function in staging (None: staging is empty, it is live's)."""
        self.base: dict[str, Any] | None = None
        """The configuration a change starts from (staging, or live): what was shown."""
        self.findings: list[Finding] = []
        self.view = "all"

    # ------------------------------------------------------------------ layout

    def compose_body(self) -> Iterable[Widget]:
        with Horizontal(id="functions-bar"):
            yield Static("", id="functions-summary", markup=False)
            yield Static("", id="functions-view", markup=False)
        yield Static("", id="functions-findings", markup=False)
        with Container(id="functions-body"):
            yield row_table(
                "functions-table",
                (
                    ("Allowed", "allowed"),
                    ("Function", "label"),
                    ("Limit", "limit"),
                    ("Paid", "paid"),
                    ("Computer", "computer"),
                    ("Configured", "configured"),
                ),
            )
            yield Static("", id="functions-detail")

    @property
    def table(self) -> SafeTable:
        return self.query_one("#functions-table", SafeTable)

    def on_mount(self) -> None:
        self.table.focus()
        self._show_view()

    # ------------------------------------------------------------------ loading

    def reload(self) -> None:
        self.load_functions()

    @work(exclusive=True, group="functions-load", exit_on_error=False)
    async def load_functions(self) -> None:
        conn = self.connection
        is_agent = conn.is_agent_selected
        acting = conn.acting_id
        if acting is None:  # screens load only once the key owner is known
            return

        ok, read_ = await self.load(
            lambda c: functions_with_slots(c.api, acting, c.target_id, agent=is_agent),
            note="Loading functions",
            busy=self.table,
            on_error=lambda exc: self._failed(exc, is_agent),
        )
        if not ok or read_ is None:
            return
        functions, live, staging = read_
        self.functions = functions
        self._cross_check(is_agent, live)
        self.staged = Counter(a.name for a in staging.actions) if staging is not None else None
        base = staging if staging is not None else live
        self.base = base.wire() if isinstance(base, AgentConfig) else None
        self.refresh_rows()
        allowed = sum(1 for f in functions if f.allowed is not False)
        who = who_of(self)
        if isinstance(live, BaseException):
            self.status.error(live, prefix="Agent configuration: ")
        else:
            self.status.ok(f"{counted(len(functions), 'function')} for {who}, {allowed} allowed")

    def _failed(self, error: PlatformError, is_agent: bool) -> None:
        """Keep no stale rows; say why, and what to do when an agent account is needed."""
        self.functions, self.configured, self.findings = [], None, []
        self.staged, self.base = None, None
        self.refresh_rows()
        self.status.error(error)
        panel = self.query_one("#functions-findings", Static)
        panel.remove_class("-problems", "-none")
        panel.add_class("-none" if not is_agent else "-problems")
        if is_agent:
            panel.update(Text("The functions list could not be read (see below)."))
        else:
            kind = self.connection.acting_type or "this"
            panel.update(
                safe(
                    f"The functions list is evaluated for an account; the server refused "
                    f"this {kind} account. Select an agent account on the Scope screen (1)."
                )
            )

    def _cross_check(self, is_agent: bool, live: AgentConfig | BaseException | None) -> None:
        findings = self.query_one("#functions-findings", Static)
        findings.remove_class("-problems", "-none")
        self.findings = []
        self.configured = None
        if not is_agent:
            findings.add_class("-none")
            kind = self.connection.acting_type or "this"
            findings.update(
                safe(
                    f"The cross-check with configured functions needs an agent account "
                    f"({kind} account selected): select one on the Scope screen (1)."
                )
            )
            return
        if isinstance(live, BaseException):
            findings.add_class("-problems")
            findings.update(safe(f"Could not read the agent's configured functions: "
                                 f"{describe_error(live)}"))  # fmt: skip
            return
        if not isinstance(live, AgentConfig):
            findings.add_class("-none")
            findings.update(Text("This agent has no live configuration to check."))
            return
        self.configured = Counter(a.name for a in live.actions)
        self.findings = cross_check(self.functions, live.actions)
        findings.update(self._findings_text())
        if self.findings:
            findings.add_class("-problems")

    def _findings_text(self) -> Text:
        assert self.configured is not None
        room = 3 if self.has_class("-narrow") else 7
        return findings_text(self.findings, self.functions, self.configured, room=room)

    # ------------------------------------------------------------------ rows

    def refresh_rows(self) -> None:
        """Rebuild the rows for the current view; the cursor stays on the same function."""
        table = self.table
        keep = self.highlighted.name if self.highlighted else None
        self.matching = [
            fn for fn in self.functions if in_view(fn, self.view, self.configured, self.findings)
        ]
        self.shown = self.matching[:ROW_CAP]
        with self.app.batch_update():
            table.clear()
            for fn in self.shown:
                table.add_row(*self._cells(fn), key=fn.name)
            names = [fn.name for fn in self.shown]
            if keep in names:
                table.move_to_source(names.index(keep))
        self._show_view()
        self._show_detail()

    def _cells(self, fn: FunctionDescriptor) -> list[Text]:
        def need(value: bool | None) -> Text:
            return Text("yes", style=WARN) if value else Text("—", style="dim")

        if self.configured is None:
            configured = Text("—", style="dim")
        else:
            count = self.configured.get(fn.name, 0)
            problem = any(f.name == fn.name for f in self.findings)
            configured = Text(f"{count} ⚠" if problem else (str(count) if count else ""),
                              style=FAILED_STRONG if problem else "")  # fmt: skip
            staged = self.staged.get(fn.name, 0) if self.staged is not None else count
            if staged != count:  # staging differs from live: what a publish would change
                configured = Text(f"{count}→{staged}", style=WARN)
        return [
            flag(fn.allowed),
            safe(fn.label or fn.name or "—", "" if fn.allowed is not False else FAILED),
            Text(plain(fn.limit), style="dim" if fn.limit is None else ""),
            need(fn.require_paid),
            need(fn.require_computer),
            configured,
        ]

    def _show_view(self) -> None:
        shown, total = len(self.matching), len(self.functions)
        allowed = sum(1 for f in self.functions if f.allowed is not False)
        summary = f"{shown:,} of {counted(total, 'function')} · {allowed:,} allowed"
        if len(self.shown) < shown:
            summary += f" · first {len(self.shown):,} shown, {shown - len(self.shown):,} more"
        if self.configured is not None:
            summary += f" · {sum(self.configured.values())} configured"
            if self.staged is not None and self.staged != self.configured:
                summary += f" (staging: {sum(self.staged.values())})"
        self.query_one("#functions-summary", Static).update(summary)
        self.query_one("#functions-view", Static).update(f"view: {self.view} (v)")

    # ------------------------------------------------------------------ detail

    @property
    def highlighted(self) -> FunctionDescriptor | None:
        row = self.table.source_row
        if not self.shown or self.table.row_count == 0:
            return None
        return self.shown[row] if 0 <= row < len(self.shown) else None

    @on(DataTable.RowHighlighted, "#functions-table")
    def _row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        self._show_detail()

    @on(DataTable.RowSelected, "#functions-table")
    def _row_selected(self, event: DataTable.RowSelected) -> None:
        """Enter on the table is the table's own key: it changes the detail pane."""
        event.stop()
        self.action_cycle_detail()

    def _show_detail(self) -> None:
        fn = self.highlighted
        configured = None
        if fn is not None and self.configured is not None:
            configured = self.configured.get(fn.name, 0)
        findings = [f for f in self.findings if fn is not None and f.name == fn.name]
        self.query_one("#functions-detail", Static).update(
            function_detail(
                fn, configured=configured, findings=findings, compact=self.has_class("-narrow")
            )
        )

    def on_resize(self) -> None:
        self.call_after_refresh(self._relayout)

    def _relayout(self) -> None:
        self._show_detail()
        if self.configured is not None:
            self.query_one("#functions-findings", Static).update(self._findings_text())

    # ------------------------------------------------------------------ actions

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The staging keys need an agent account: hidden from the footer otherwise."""
        if super().check_action(action, parameters) is False:
            return False  # read-only
        if action in ("toggle_function", "add", "edit"):
            return self.connection.is_agent_selected
        return True

    def _entries(self, name: str) -> int:
        counts = self.staged if self.staged is not None else self.configured
        return counts.get(name, 0) if counts is not None else 0

    def action_toggle_function(self) -> None:
        fn = self.highlighted
        if fn is None:
            self.notify("No function highlighted", severity="warning")
            return
        on = self._entries(fn.name) == 0
        if self.busy_writing():
            return
        self.switch(FunctionSwitch(fn.name, on), f"{fn.label or fn.name} {'on' if on else 'off'}")

    def action_add(self) -> None:
        """One more entry of the highlighted function."""
        fn = self.highlighted
        if fn is None:
            self.notify("No function highlighted", severity="warning")
            return
        if not self.busy_writing():
            self.switch(
                FunctionSwitch(fn.name, True, another=True), f"one more {fn.label or fn.name}"
            )

    def switch(self, switch: FunctionSwitch, what: str) -> None:
        """The switch checked against staging, the actions diff reviewed, then written."""

        def then(staged: Staged) -> None:
            if staged.outcome in ("written", "failed"):
                self.action_reload()  # show what the platform holds now

        change = Change(functions=(switch,))
        self.write(staging_write(self, change, what=what, seen=self.base, then=then))

    def action_edit(self) -> None:
        """The instructions of the highlighted function's entry."""
        fn = self.highlighted
        if fn is None:
            self.notify("No function highlighted", severity="warning")
            return
        if not self.busy_writing():
            self.edit_instructions(fn)

    @work(group="write-functions-instructions", exit_on_error=False)
    async def edit_instructions(self, fn: FunctionDescriptor) -> None:
        start = self.connection
        base = self.base or {}
        entries = [a for a in base.get("actions") or [] if isinstance(a, dict)]
        entry = next((a for a in entries if a.get("name") == fn.name), None)
        label = fn.label or fn.name
        text = str((entry or {}).get("instructions") or "")
        if inert(text, multiline=True, limit=max(len(text), MULTILINE_LIMIT)) != text:
            # The editor would show, and send back, the inert picture of such text.
            self.status.error(
                f"The instructions of {label} hold control or invisible characters: "
                "they cannot be edited here safely.",
                retry_key=None,
            )
            return
        if entry is None:
            note = "Not configured yet: saving switches it on with these instructions."
        else:
            note = "The first entry of this function in staging; its other fields are kept."
        while True:
            typed = await self.app.push_screen_wait(
                EditorModal(
                    f"Instructions of {label}", note, text, placeholder=fn.placeholder or ""
                )
            )
            if typed is None:
                self.status.info("Cancelled; nothing was sent.")
                return
            if not start.same_context(self.connection):
                self.status.info("The target account changed meanwhile; nothing was sent.")
                return
            text = typed
            switch = FunctionSwitch(fn.name, True, instructions=text)
            staged = await stage_change(
                self, Change(functions=(switch,)), what=f"the instructions of {label}",
                seen=self.base,
            )  # fmt: skip
            if not start.same_context(self.connection):
                return  # another account now: this text was written for the other one
            if staged.outcome == "cancelled" and staged.plan is not None:
                note = TEXT_KEPT
                continue
            if staged.outcome == "failed" and staged.error and not outcome_unknown(staged.error):
                note = f"✗ Not saved: {describe_error(staged.error)}. Your text is kept."
                continue
            break
        if staged.outcome in ("written", "failed"):
            self.action_reload()

    def action_cycle_view(self) -> None:
        self.view = FUNCTION_VIEWS[(FUNCTION_VIEWS.index(self.view) + 1) % len(FUNCTION_VIEWS)]
        self.refresh_rows()

    def action_copy_docs(self) -> None:
        fn = self.highlighted
        if fn is None:
            self.notify("No function highlighted", severity="warning")
        elif fn.docs_page:
            self.vapp.copy_text(fn.docs_page, "docs page URL")
        else:
            self.vapp.copy_text(fn.name, "function name (it has no docs page)")

    def action_copy_name(self) -> None:
        fn = self.highlighted
        if fn is None:
            self.notify("No function highlighted", severity="warning")
        else:
            self.vapp.copy_text(fn.name, "function name")

    def action_cycle_detail(self) -> None:
        """Normal -> large (narrow terminals: findings hidden, table 4 rows) -> hidden."""
        detail = self.query_one("#functions-detail")
        if detail.has_class("-hidden"):
            detail.remove_class("-hidden")
        elif self.has_class("-big-detail") or not self.has_class("-narrow"):
            self.remove_class("-big-detail")
            detail.add_class("-hidden")
        else:
            self.add_class("-big-detail")
