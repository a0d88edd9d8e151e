"""Tasks: the outbound calls and texts queued for the selected account and below it,
paged by the server (``GET /tasks``), with the counts by state and today's counts
against the daily limits above the list.

``s`` cycles the state shown (every task, then each public state: pending, processing,
running, finished, errored, canceled), ``t`` the window of time (the tasks changed in
the last hour, day, week), ``x`` clears both. ``a`` queues a call or text (the number
checked as E.164 at its field, nothing sent on a bad value; then a question that says it
places a real call); ``d`` deletes a task after a question that says what becomes of it
(a running one's work is stopped first, as the vendor says); Enter shows the highlighted
task whole; ``C`` opens Calls for the selected account, where an ended task's call is;
``l`` shows the task limits (the organization's: one set for all its agents) as the
platform sent them, ``L`` (or Edit there) edits them in a form, reviewed before it is
sent. While a task on the page has not
ended, the page is read again every `WATCH_SECONDS`. ``u`` reads a CSV file of tasks
(`POST /tasks/csv`): a dry run first, whose rows would-be-queued and refused are shown,
then the question, which counts the real calls, then the real upload. The writing keys
are gone on a read-only profile.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar, cast

from rich.text import Text
from textual import work
from textual.binding import Binding, BindingType
from textual.widget import Widget
from textual.widgets import Static

from vagent_tui.api.bounded import LeftOut
from vagent_tui.api.errors import PlatformError
from vagent_tui.api.models import Envelope, OutboundTask, TaskLimitsUpdate, TaskRequest
from vagent_tui.services.paging import Ask, Page, Pager
from vagent_tui.services.plans import today_lines
from vagent_tui.services.session import Connection
from vagent_tui.services.tasks import PAGE_SIZE, TaskFilter, TasksView, read_tasks, total_of
from vagent_tui.ui import format as fmt
from vagent_tui.ui.caps import first, first_fields, left_out_of, not_read, not_shown
from vagent_tui.ui.dialogs import ConfirmModal, TextModal
from vagent_tui.ui.safety import DESTRUCTIVE, WRITES, Key
from vagent_tui.ui.screens.base import who_of
from vagent_tui.ui.screens.calls_link import calls_binding, show_calls
from vagent_tui.ui.screens.paging import ServerPagedScreen, page_keys
from vagent_tui.ui.screens.tasks_csv import NEED_AGENT, TasksCsvUpload
from vagent_tui.ui.screens.tasks_edit import TasksEditing
from vagent_tui.ui.screens.tasks_parts import (
    COLUMNS,
    NARROW_DROPS,
    OF_MANY_ACCOUNTS,
    STATE_STYLES,
    account_label,
    account_of,
    delete_question,
    header_line,
    others_on_page,
    task_cells,
)
from vagent_tui.ui.text import inert
from vagent_tui.ui.widgets.entry_forms import TaskForm
from vagent_tui.ui.widgets.limits_form import LimitsModal, TaskLimitsForm, limit_lines
from vagent_tui.ui.widgets.record_table import RecordTable, record_table
from vagent_tui.ui.widgets.status import describe_error
from vagent_tui.ui.widgets.table_filter import filter_binding
from vagent_tui.ui.writes import Write, Written
from vagent_tui.words import counted

TODAY_SHOWN = 8
"""Today's counts named on the counts line (it is one line); it says first how many more
there were."""
NAME_LENGTH = 40
"""Characters of a count's name on the counts line."""
GROUP_NAMES = {"businessHours": "business hours", "cooldowns": "cooldowns",
               "daily": "daily caps", "concurrencyPerRun": "concurrency"}  # fmt: skip
WATCH_SECONDS = 5.0
"""How often a page with tasks that have not ended is read again."""


class TasksScreen(
    TasksEditing, TasksCsvUpload, ServerPagedScreen[TaskFilter, OutboundTask, TasksView]
):
    """Outbound tasks of the selected account: list, filters, add, delete."""

    CSS_PATH = "tasks.tcss"
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (100, "-wide")]
    FILTER_PLACEHOLDER = "/ filter the tasks of this page only (the server pages them)"
    BINDINGS: ClassVar[list[BindingType]] = [
        *page_keys("tasks"),
        Binding("enter", "show_detail", "Open", id="tasks.open", tooltip="Show the task whole"),
        Key("a", "add", "Add", id="tasks.add", tooltip="Queue a call or text (asks first)",
            does=WRITES),
        Key("d", "delete", "Delete", id="tasks.delete",
            tooltip="Delete the highlighted task (asks first; a running one is stopped)",
            does=DESTRUCTIVE),
        Key("e", "edit", "Edit", id="tasks.edit", does=WRITES,
            tooltip="Change a pending task: start, greeting or message, context (reviewed)"),
        Key("c", "cancel_task", "Cancel", id="tasks.cancel", does=DESTRUCTIVE,
            tooltip="Cancel a pending or running task (asks first; it stays listed)"),
        Key("u", "upload_csv", "CSV", id="tasks.upload-csv",
            tooltip="Queue tasks from a CSV file: a dry run first, then asks", does=DESTRUCTIVE),
        Binding("s", "state", "State", id="tasks.state", tooltip="Cycle the state shown"),
        Binding("t", "window", "Time", id="tasks.window",
                tooltip="Cycle the window: any time, last hour, day, week"),
        Binding("l", "limits", "Limits", id="tasks.limits",
                tooltip="The task limits: business hours, daily caps, cooldowns, concurrency"),
        Key("L", "edit_limits", "Edit limits", id="tasks.edit-limits",
            tooltip="Edit the task limits: a form, then a review of the change", does=WRITES),
        Binding("x", "clear_filters", "Clear", id="tasks.clear", tooltip="Clear the filters"),
        calls_binding("tasks", "The calls of the selected account (ended tasks are there)"),
        filter_binding("tasks"),  # last: the footer drops it first
    ]  # fmt: skip

    PAGE_GROUP = "tasks-load"
    PENDING_DELAY = 0.0  # said at once, on the status line (the table shows loading too)

    def __init__(self) -> None:
        super().__init__()
        self.pager: Pager[TaskFilter, OutboundTask] = Pager.of(TaskFilter(), PAGE_SIZE)
        self.quiet = False
        """The page is read again without a word (a watch, a read after a change)."""
        self.columns: list[str] = []
        self._names: dict[int, str] = {}
        """The account names the tree had read when the page came (its Account column)."""
        self._columns_for: tuple[bool, int, int, bool] = (False, 0, 0, False)

    # ------------------------------------------------------------------ layout

    def compose_body(self) -> Iterable[Widget]:
        yield Static("", id="tasks-header", markup=False)
        yield Static("", id="tasks-counts", markup=False)
        yield record_table("tasks-table", (), key=lambda task: task.key)
        yield Static("No task matches. Press a to queue a call or text.", id="tasks-empty",
                     markup=False)  # fmt: skip

    @property
    def table(self) -> RecordTable[OutboundTask]:
        return cast("RecordTable[OutboundTask]", self.query_one("#tasks-table", RecordTable))

    def on_record_table_selected(self, event: RecordTable.Selected) -> None:
        event.stop()
        self.action_show_detail()

    def on_mount(self) -> None:
        self.apply_breakpoints()
        self._set_columns()
        self.table.focus()
        self._header()
        self.set_interval(WATCH_SECONDS, self._watch)

    def on_resize(self) -> None:
        # The width class and the table's width are known after this resize's layout.
        self.call_after_refresh(self._follow_width)

    def _follow_width(self) -> None:
        if self._layout_for() != self._columns_for:
            self._set_columns()

    def _layout_for(self) -> tuple[bool, int, int, bool]:
        """What the columns depend on: the width class, the table's width, the longest
        target of the page and whether the page holds tasks of other accounts."""
        records = self.table.records
        longest = max((len(fmt.plain(t.target)) for t in records), default=0)
        many = others_on_page(records, self.connection.acting_id)
        return self.has_class("-narrow"), self.table.size.width or self.size.width, longest, many

    def _account_names(self, tasks: Iterable[OutboundTask]) -> dict[int, str]:
        """The names the tree has read of the accounts of ``tasks``, by id (only theirs:
        the tree may know a hundred thousand)."""
        directory = self.connection.directory
        if directory is None:
            return {}
        known = directory.known
        ids = {a for a in map(account_of, tasks) if isinstance(a, int) and a in known}
        return {a: known[a].display_name for a in ids}

    def _set_columns(self) -> None:
        """The columns for the width: each its fixed width, the target as wide as its
        longest (up to half of what is left), the result the rest; narrow, without the
        time of the last change (Enter shows the task whole)."""
        self._columns_for = narrow, width, longest, many = self._layout_for()
        names = [c for c in COLUMNS if not (narrow and c in NARROW_DROPS)
                 and (many or c not in OF_MANY_ACCOUNTS)]  # fmt: skip
        fixed = sum(COLUMNS[c][1] for c in names if c not in ("target", "result"))
        room = width - 2 * len(names) - 2 - fixed  # cell padding, the scrollbar
        sizes = {"target": max(COLUMNS["target"][1], min(longest, room // 2))}
        sizes["result"] = max(12, room - sizes["target"])
        self.columns = names
        table = self.table
        keep, records = table.highlighted_record, list(table.records)  # clear() drops them
        with self.app.batch_update():
            table.clear(columns=True)
            for name in names:
                label, size = COLUMNS[name]
                table.add_column(label, key=name, width=sizes.get(name, size))
            table.show(records, self._cells, keep=keep.key if keep else None)

    def _owner(self, task: OutboundTask) -> str:
        """Whose ``task`` is, as its question names it: the selected account, or the
        account below it the task belongs to."""
        if account_of(task) in (None, self.connection.acting_id):
            return who_of(self, with_id=True)
        return account_label(task, self._account_names([task]))

    def _cells(self, task: OutboundTask) -> list[Text]:
        cells = task_cells(task, self._names)
        return [cells[name] for name in self.columns]

    def _watch(self) -> None:
        """While a task on the page has not ended, read the page again (quietly), so a
        queue is watched to its end; not while the screen is hidden or a read runs."""
        if not self.is_current or self.pager.shown is None:
            return
        if any(w.is_running and w.group == self.PAGE_GROUP for w in self.workers):
            return
        if any(not task.ended for task in self.table.records):
            self.load_tasks(quiet=True)

    # ------------------------------------------------------------------ loading

    def reload(self) -> None:
        self.load_tasks()

    def load_tasks(self, query: TaskFilter | None = None, *, quiet: bool = False) -> None:
        """Read the page again (``query``: another, from its first page); ``quiet``: no
        word on the status line."""
        self.quiet = quiet
        if query is None:
            self.pager.ask(keep=True)
        else:
            self.pager.ask(0, query=query)
        self.request()

    def go_to_page(self, page: int) -> None:
        # A page key is the user's: said on the status line, whatever read came before
        # (the watch and the reads after a change are quiet).
        self.quiet = False
        super().go_to_page(page)

    async def fetch_page(self, connection: Connection, ask: Ask[TaskFilter]) -> TasksView:
        query = ask.query.query(ask.page, fmt.now().timestamp(), ask.size)
        return await read_tasks(connection.api, query, connection.target_id)

    def page_items(self, reply: TasksView) -> tuple[list[OutboundTask], int | None]:
        return reply.page.tasks, total_of(reply.page)

    def page_pending(self) -> None:
        if not self.quiet:
            self.status.busy(f"Loading page {self.pager.page + 1:,} of the tasks")

    def page_busy(self) -> Widget | None:
        return self.table

    def show_page(self, page: Page[TaskFilter, OutboundTask], reply: TasksView) -> None:
        keep = self.table.highlighted_record
        self._names = self._account_names(page.items)
        self.table.show(list(page.items), self._cells, keep=keep.key if keep else None)
        self._follow_width()  # a longer target than the page before: a wider column
        self.set_class(not page.items, "-empty")
        self._header()
        self._counts(reply)
        if not self.quiet:
            who = who_of(self, with_id=True)
            line = f"{counted(page.total, 'task')} for {who}"
            if reply.errors:
                self.status.info(f"{line}; not read: {'; '.join(reply.errors)}")
            else:
                self.status.ok(line)

    def draw_paging(self) -> None:
        self._header()

    def _header(self) -> None:
        self.query_one("#tasks-header", Static).update(header_line(self.pager))

    def _counts(self, view: TasksView) -> None:
        text = Text()  # two lines, wrapped: one line cut the day's caps at 80 and 120
        by_state = view.stats.counts() if view.stats is not None else {}
        if by_state:
            for n, (state, count) in enumerate(by_state.items()):
                text.append(" · " if n else "")
                text.append(inert(state), style=STATE_STYLES.get(state, ""))
                text.append(f" {count:,}")
        else:
            text.append("counts by state not known", style="dim")
        today = today_lines(view.counts, view.limits)
        if today:
            shown, hidden = first(today, TODAY_SHOWN)
            left = [r.left_out for r in (view.counts, view.limits) if r is not None]
            said = left_out_of(hidden, "count", sum(n.keys for n in left),
                               sum(n.items for n in left))  # fmt: skip
            text.append("\ntoday: ", style="bold")
            if said:  # first: before the counts it is about
                text.append(f"({said}) ", style="dim")
            text.append(" · ".join(f"{inert(name, limit=NAME_LENGTH)} {value}"
                                   for name, value in shown))  # fmt: skip
        self.query_one("#tasks-counts", Static).update(text)

    # ------------------------------------------------------------------ paging and filters

    def action_state(self) -> None:
        self.load_tasks(self.pager.query.next_state())

    def action_window(self) -> None:
        self.load_tasks(self.pager.query.next_window())

    def action_clear_filters(self) -> None:
        self.load_tasks(TaskFilter())

    async def action_calls(self) -> None:
        await show_calls(self, self.connection.target_id)

    # ------------------------------------------------------------------ limits

    @work(exclusive=True, group="open-tasks-limits", exit_on_error=False)
    async def action_limits(self) -> None:
        """Every field of ``GET /tasks/limits`` as the platform sent it; Edit (``L``)
        goes on to ``L``'s form where the profile may write."""
        read = await self._read_limits()
        if read is None:
            return
        limits, left_out = read
        whose = limits_owner(self)
        note = ("As sent; the organization's, for all its agents. Tasks wait for the hours, "
                "cooldowns and tasks running; a start outside the hours or past a daily cap "
                "is refused.")  # fmt: skip
        editable = not self.connection.read_only
        note += " L edits them." if editable else ""
        lines = limit_lines(limits)
        if left_out:
            lines.append(not_read(left_out.keys, left_out.items))
        view = LimitsModal(f"Task limits of {whose}", "\n".join(lines) or "—",
                           note=note, editable=editable)  # fmt: skip
        self.app.push_screen(view, self._limits_closed)

    async def _limits_closed(self, edit: bool | None) -> None:
        if edit:
            # Through the app, so that a read-only profile is refused as for the key.
            await self.app.run_action("edit_limits", self)

    async def _read_limits(self) -> tuple[dict[str, Any], LeftOut] | None:
        """The limits of the selected account (their ``limits`` object) and the entries
        the reply held beyond what was read (`OpenReply.left_out`), None when the read
        failed (said on the status line)."""
        ok, reply = await self.load(lambda c: c.api.get_task_limits(target=c.target_id),
                                    note="Reading the task limits")  # fmt: skip
        if not ok or reply is None:
            return None
        self.status.clear()
        body = reply.body()
        limits = body.get("limits")
        return (limits if isinstance(limits, dict) else body), reply.left_out

    @work(exclusive=True, group="open-tasks-limits", exit_on_error=False)
    async def action_edit_limits(self) -> None:
        """The limits read, in the form; sent (only what changed) after a review."""
        start = self.connection
        read = await self._read_limits()
        if read is None or not start.same_context(self.connection):
            return
        limits, _ = read
        who = limits_owner(self)
        owner = self.connection.owner
        super_admin = bool(owner is not None and owner.super_admin)

        async def send(c: Connection, update: TaskLimitsUpdate) -> Envelope:
            return await c.api.update_task_limits(update, target=c.target_id)

        async def read_back(c: Connection, update: TaskLimitsUpdate) -> str:
            reply = await c.api.get_task_limits(target=c.target_id)
            body = reply.body()
            now = body.get("limits") if isinstance(body.get("limits"), dict) else body
            held = [line for line in limit_lines(now)
                    if line.split(".")[0].split(":")[0] in update.groups]  # fmt: skip
            return "The platform holds now: " + ("; ".join(held) or "no limits")

        def done(result: tuple[TaskLimitsUpdate, Envelope] | None) -> None:
            if result is None:
                return
            update, reply = result
            groups = ", ".join(GROUP_NAMES.get(g, g) for g in update.groups)
            self.status.ok(f"{reply.message or 'Task limits saved'} · {groups} · {who}")
            self.load_tasks(quiet=True)

        form = TaskLimitsForm(
            limits, send, super_admin=super_admin, who=who,
            read_back=read_back, after_unknown=lambda: self.load_tasks(quiet=True),
        )  # fmt: skip
        self.app.push_screen(form, done)

    # ------------------------------------------------------------------ detail

    def action_show_detail(self) -> None:
        task = self.table.highlighted_record
        if task is None:
            self.status.info("No task highlighted")
            return
        fields, more = first_fields(task.wire())
        lines = [f"{name}: {fmt.plain(value)}" for name, value in fields]
        if more:
            lines.append(not_shown(more, "field"))
        note = "C on the Tasks screen opens Calls, where an ended task's call is."
        if task.state_text.lower() in ("canceled", "cancelled"):
            note = "Canceled: its work stopped (or never began); C opens Calls."
        self.app.push_screen(TextModal(f"Task {task.key}", "\n".join(lines), note=note))

    # ------------------------------------------------------------------ add

    def action_add(self) -> None:
        if not self.connection.is_agent_selected:
            self.status.info(NEED_AGENT)
            return

        async def send(c: Connection, request: TaskRequest) -> OutboundTask:
            return await c.api.create_task(request, target=c.target_id)

        async def read_back(c: Connection, request: TaskRequest) -> str:
            page = await c.api.list_tasks(target=c.target_id)
            same = [t for t in page.tasks if t.target == request.target]
            if not same:
                return f"No task to {request.target} is listed."
            return f"A task to {request.target} is listed: {same[0].state_text or 'state unknown'}."

        target = self.connection.target_id

        def done(result: tuple[TaskRequest, OutboundTask] | None) -> None:
            if result is None or target != self.connection.target_id:
                return
            request, task = result
            self.status.ok(f"Task {task.key or '(no id)'} queued: {request.type} to "
                           f"{request.target}, {task.state_text or 'state unknown'}")  # fmt: skip
            self.load_tasks(quiet=True)

        who = who_of(self, with_id=True)
        form = TaskForm(send, who=who, now=lambda: fmt.now().timestamp(),
                        subtitle=f"From the agent of {who}", read_back=read_back,
                        after_unknown=lambda: self.load_tasks(quiet=True))  # fmt: skip
        self.app.push_screen(form, done)

    # ------------------------------------------------------------------ delete

    def action_delete(self) -> None:
        task = self.table.highlighted_record
        if task is None:
            self.status.info("No task highlighted: nothing to delete")
            return
        task_id = task.key
        title, body, label = delete_question(task, self._owner(task))

        async def read_back(c: Connection) -> str:
            try:
                now = await c.api.get_task(task_id, target=c.target_id)
            except PlatformError as exc:
                if getattr(exc, "status", None) == 404:
                    return f"Task {task_id} is gone."
                raise
            return f"Task {task_id} is still there: {now.state_text or 'state unknown'}."

        self.write(
            Write[Envelope](
                "tasks-delete",
                f"Deleting task {task_id}",
                lambda c: c.api.delete_task(task_id, target=c.target_id),
                confirm=ConfirmModal(title, body, confirm_label=label),
                done=lambda reply: f"{reply.message or 'Task deleted'}: {task_id}",
                gone=f"Task {task_id} was already gone; the list is refreshed",
                read_back=read_back,
                failed=lambda exc: f"Could not delete task {task_id}: {describe_error(exc)}",
                retry_key="d",
                after=self.after_task_change,
            )
        )

    def task_in_view(self) -> OutboundTask | None:
        return self.table.highlighted_record

    def after_task_change(self, written: Written[Any] | None = None) -> None:
        self.load_tasks(quiet=True)

    def after_upload(self, written: Written[Any]) -> None:
        self.load_tasks(quiet=True)


def limits_owner(screen: TasksScreen) -> str:
    """Whose the task limits are, in a few words: the organization of the selected
    account (the vendor: "the org's current task limits"). An organization, a reseller
    or a partner is named itself; for an agent account (or a member) its organization,
    by name where the tree has read it."""
    connection = screen.connection
    acting = connection.acting_as
    kind = str(acting.scope_field("accountType") or "").lower() if acting is not None else ""
    org_id = acting.organization_id if acting is not None else None
    if kind not in ("account", "user") or org_id is None:
        return who_of(screen, with_id=True)
    directory = connection.directory
    org = directory.known.get(org_id) if directory is not None and isinstance(org_id, int) else None
    if org is not None:
        return f"organization {inert(org.display_name)} (#{org_id})"
    return f"organization #{inert(org_id)}"
