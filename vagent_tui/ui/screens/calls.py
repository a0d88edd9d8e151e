"""Calls: what the agents did, for the selected account or every account below the key.

The conversation logs (``GET /logs``), newest first, paged by the server: only the page
on show is fetched, whatever the query's size. With each page its conversations come in
one batch request (``POST /conversation/batch``), so the detail pane and Enter show a
transcript without another request. The filters run on the platform (time range,
account, event type, outcome, status, any ``key=value``); the line under the header
always says which are in force.

``f`` follows the query (new entries at the top as they arrive, polled with backoff,
the cursor staying on the call it was on); ``w`` writes the whole query to a file
(CSV as the platform streams it, or JSON lines), with a progress bar, ``x`` to stop.
The columns (``c``) are the console's own and any field the platform lists in the
query's ``schema``; the choice is kept per profile.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable
from typing import ClassVar

from rich.text import Text
from textual import work
from textual.app import ScreenStackError
from textual.binding import Binding, BindingType
from textual.containers import Container, Horizontal, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import ProgressBar, Static

from vagent_tui.api.errors import PlatformError
from vagent_tui.api.log_models import ConversationRef, LogEntry, LogPage
from vagent_tui.services.call_columns import ColumnStore, column, offered
from vagent_tui.services.calls import (
    PAGE_SIZES,
    PRESETS,
    CallFilters,
    TranscriptCache,
    fetch_transcripts,
)
from vagent_tui.services.calls_follow import Follower
from vagent_tui.services.paging import Ask, Page, Pager
from vagent_tui.services.session import Connection
from vagent_tui.ui.format import now
from vagent_tui.ui.screens.call_capture import CaptureFetching
from vagent_tui.ui.screens.caller_context import CallerContextFlow, context_key
from vagent_tui.ui.screens.calls_export import CallsExporting
from vagent_tui.ui.screens.calls_state import CallsView, entry_key, filters_line, header_line
from vagent_tui.ui.screens.paging import ServerPagedScreen, page_keys
from vagent_tui.ui.widgets.call_rows import column_label, entry_cells, entry_detail
from vagent_tui.ui.widgets.inbox_rows import DetailText
from vagent_tui.ui.widgets.record_table import RecordTable
from vagent_tui.ui.widgets.table_filter import filter_binding
from vagent_tui.ui.widgets.tables import ROW_CAP
from vagent_tui.words import counted

_UNSET = object()
SCREEN_PAGE_SIZE = 50
"""Calls a page until ``z`` says otherwise: more than a tall terminal shows, and half
the work of a page move at 100 (every row of a page is built, measured by the table
and kept, seen or not)."""
FOLLOW_INTERVAL = 5.0
"""Seconds between two polls of ``f`` while the platform answers."""


class CallsScreen(
    CallerContextFlow,
    CaptureFetching,
    CallsExporting,
    ServerPagedScreen[CallFilters, LogEntry, LogPage],
):
    """The call log of the selected account (or the key's whole tree), paged by the server."""

    CSS_PATH = "calls.tcss"
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (140, "-wide")]
    FILTER_PLACEHOLDER = "/ filter the calls of this page only (f for the platform's filters)"
    LAST_PAGE_UNKNOWN = "The number of calls is not known yet; wait for the page"
    BINDINGS: ClassVar[list[BindingType]] = [
        *page_keys("calls", last_key_tip="Last page (one request)"),
        Binding("enter", "open", "Open", id="calls.open", tooltip="The conversation: transcript"),
        Binding("t", "time_preset", "Time", id="calls.time",
                tooltip="Last hour, day, week (F: a typed range)"),
        Binding("F", "filters", "Filters", id="calls.filters",
                tooltip="Time range, event type, outcome, status, key=value"),
        Binding("s", "scope", "Accounts", id="calls.scope",
                tooltip="The selected account, or every account below the key"),
        Binding("f", "follow", "Follow", id="calls.follow",
                tooltip="New calls appear as they arrive (f again: stop)"),
        Binding("w", "export", "Export", id="calls.export",
                tooltip="The whole query to a file: CSV or JSON lines"),
        Binding("c", "columns", "Columns", id="calls.columns", tooltip="Choose the columns"),
        context_key("calls"),
        Binding("u", "utc", "UTC", id="calls.utc", tooltip="Times in UTC / local time"),
        Binding("z", "page_size", "Size", id="calls.page_size",
                tooltip="Cycle 50/100/200/500 per page"),
        Binding("x", "stop", "Stop/Clear", id="calls.clear",
                tooltip="Stop the export or the follow, else clear the filters"),
        Binding("escape", "stop", "Stop", show=False, id="calls.stop",
                tooltip="Stop the export or the follow, else clear the filters"),
        Binding("S", "capture", "Capture", id="calls.capture", tooltip="The call's SIP capture"),
        filter_binding("calls"),  # last: the footer drops it first
    ]  # fmt: skip

    class ShowAccount(Message):
        """Another screen's ``c``: the calls of this account (with ``client``'s key)."""

        def __init__(self, account_id: int | None, *, client: object) -> None:
            super().__init__()
            self.account_id = account_id
            self.client = client

    PAGE_GROUP = "calls-page"

    def __init__(self) -> None:
        super().__init__()
        self.view = CallsView()
        self.pager = Pager.of(CallFilters(), SCREEN_PAGE_SIZE)
        self.loaded_target: object = _UNSET
        self.columns_store = ColumnStore()
        self.columns: tuple[str, ...] = ()
        self.schema: tuple[str, ...] = ()
        self.transcripts = TranscriptCache()
        self.fetching: set[ConversationRef] = set()
        self._detail_key: tuple[object, ...] | None = None
        """What the detail pane shows (entry, conversation, loading, local time): it is
        not drawn again for the same."""
        self._call_screen: Screen[None] | None = None
        """The screen Enter shows calls on (`CallScreen`), made at the first Enter."""
        self._columns_width = 0

    # ------------------------------------------------------------------ layout

    def compose_body(self) -> Iterable[Widget]:
        yield Static("", id="calls-header", markup=False)
        yield Static("", id="calls-filters", markup=False)
        with Horizontal(id="calls-export"):
            yield Static("", id="calls-export-label", markup=False)
            yield ProgressBar(id="calls-export-bar", show_eta=False)
        with Container(id="calls-body"):
            yield RecordTable(record_key=entry_key, id="calls-table")
            with VerticalScroll(id="calls-detail"):
                yield DetailText(Text("No call highlighted.", style="dim"), id="calls-detail-text")

    @property
    def table(self) -> RecordTable[LogEntry]:
        table: RecordTable[LogEntry] = self.query_one("#calls-table", RecordTable)
        return table

    def on_mount(self) -> None:
        self.columns = self.columns_store.load(self._profile())
        self._set_columns()
        self.table.focus()
        self.apply_breakpoints()
        self.draw_paging()

    def _profile(self) -> str | None:
        profile = self.connection.profile
        return profile.name if profile is not None else None

    def _set_columns(self) -> None:
        table = self.table
        widths = self._widths()
        table.clear(columns=True)
        for name in self.columns:
            table.add_column(column_label(name), key=name, width=widths.get(name))
        if self.pager.shown is not None:
            self._fill(self.pager.shown.items)

    def _widths(self) -> dict[str, int]:
        """Fixed widths for the console's columns; the summary takes what they leave
        (a field of the schema sizes to its values)."""
        widths = {name: c.width for name in self.columns if (c := column(name)).width}
        room = (self.table.size.width or self.size.width) - 2 * len(self.columns) - 2
        if "summary" in self.columns:
            widths["summary"] = max(20, room - sum(widths.values()) - 12 * (
                len(self.columns) - len(widths) - 1))  # fmt: skip
        return widths

    def on_resize(self) -> None:
        # The table's width is known after the layout this resize starts.
        self.call_after_refresh(self._follow_width)

    def _follow_width(self) -> None:
        width = self.table.size.width
        if width and width != self._columns_width:
            self._columns_width = width
            self._set_columns()

    # ------------------------------------------------------------------ loading

    def reload(self) -> None:
        target = self.connection.target_id
        page: int | None = None
        if target != self.loaded_target:
            if self.loaded_target is not _UNSET:
                self.view.asked_account = None  # another account acts now: its calls
            self.loaded_target = target
            self.transcripts.clear()
            page = 0
        self.pager.ask(page, query=self._query())
        self.request()
        if self.view.following:
            self._start_follow()

    def _query(self) -> CallFilters:
        return self.view.query(self.connection.target_id)

    async def fetch_page(self, connection: Connection, ask: Ask[CallFilters]) -> LogPage:
        query = ask.query
        return await connection.api.list_logs(
            query.query(), page=ask.page + 1, page_size=ask.size,
            include_fields=not self.schema, target=query.account_id,
        )  # fmt: skip

    def page_items(self, reply: LogPage) -> tuple[list[LogEntry], int]:
        return reply.logs, reply.total

    def announce_at_once(self) -> bool:
        # Nothing shown yet: say so at once (the header would say "…" anyway).
        return super().announce_at_once() or self.pager.shown is None

    def page_pending(self) -> None:
        self.draw_paging()
        if self.pager.page > 0 or self.pager.shown is None:
            self.status.busy(f"Loading page {self.pager.page + 1:,}")

    def show_page(self, page: Page[CallFilters, LogEntry], reply: LogPage) -> None:
        if reply.field_names:
            self.schema = tuple(reply.field_names)
        if page.page == 0:
            self.view.new_count = 0
        # The page's transcripts are asked for next: its first frame says so already.
        self.fetching |= {
            ref for e in self.transcripts.missing(page.items) if (ref := e.conversation_ref)
        }
        self._fill(page.items, keep=None)
        if str(self.status.content) or self.status.counts_empty:
            self.status.clear()
        self.draw_paging()
        self._fetch_transcripts(page.items, page.query.account_id)

    def draw_paging(self) -> None:
        """The header and the filter line, from the pager and the view (the one place)."""
        self.query_one("#calls-header", Static).update(
            header_line(self.pager, self.view), layout=False
        )
        self.query_one("#calls-filters", Static).update(
            filters_line(self._query(), local=self.view.local), layout=False
        )

    @work(group="calls-transcripts", exit_on_error=False)
    async def _fetch_transcripts(self, entries: tuple[LogEntry, ...], target: int | None) -> None:
        """The conversations of a page, in one batch request (never one per row)."""
        missing = self.transcripts.missing(entries)
        refs = {e.conversation_ref for e in missing if e.conversation_ref is not None}
        if not refs:
            return
        self.fetching |= refs
        self._show_detail()
        try:
            ok, results = await self.load(
                lambda c: fetch_transcripts(c.api, missing, target=target),
                on_error=lambda exc: self.status.error(exc, prefix="Transcripts: "),
            )
        finally:
            self.fetching -= refs
        if ok and results is not None:
            self.transcripts.add(results)
        self._show_detail()

    # ------------------------------------------------------------------ showing

    def _fill(self, entries: Iterable[LogEntry], keep: str | None = None) -> None:
        local = self.view.local
        self.table.show(
            list(entries)[:ROW_CAP], lambda e: entry_cells(e, self.columns, local=local),
            keep=keep,
        )  # fmt: skip
        self._show_detail(force=True)

    def _show_detail(self, *, force: bool = False) -> None:
        """The highlighted entry in the detail pane; not drawn again when the pane shows
        it already (a page fill shows it, then the table says its row is highlighted),
        unless ``force``."""
        entry = self.table.highlighted_record
        result = self.transcripts.get(entry) if entry is not None else None
        ref = entry.conversation_ref if entry is not None else None
        fetching = ref is not None and ref in self.fetching
        key = (entry, result, fetching, self.view.local)
        last = self._detail_key
        # Compared by identity: the objects are held here, so no other can take their id.
        if not force and last is not None and all(a is b for a, b in zip(key, last, strict=True)):
            return
        self._detail_key = key
        detail = entry_detail(entry, result, local=self.view.local, fetching=fetching)
        # While the transcript loads, the pane keeps its height: the screen is laid out
        # once, when the transcript comes, and the page's own frame needs no layout.
        self.query_one("#calls-detail-text", DetailText).show(detail, hold=fetching)

    def on_record_table_highlighted(self, event: RecordTable.Highlighted) -> None:
        event.stop()
        self._show_detail()

    def on_record_table_selected(self, event: RecordTable.Selected) -> None:
        """Enter (or a click on the highlighted row) in the table: the conversation."""
        event.stop()
        self.action_open()

    # ------------------------------------------------------------------ the query

    def _new_query(self, filters: CallFilters) -> None:
        self.view.filters = filters
        self.transcripts.clear()
        self.pager.ask(0, query=self._query())
        self.request()
        if self.view.following:
            self._start_follow()

    def action_time_preset(self) -> None:
        names = list(PRESETS)
        chosen = self.view.filters
        current = chosen.preset
        preset = names[(names.index(current) + 1) % len(names)] if current in names else names[0]
        self._new_query(CallFilters.last(
            preset, now=now().timestamp(), account_id=None, event_type=chosen.event_type,
            outcome=chosen.outcome, status=chosen.status, extra=chosen.extra,
        ))  # fmt: skip

    def action_filters(self) -> None:
        from vagent_tui.ui.widgets.call_forms import CallFiltersModal

        def chosen(filters: CallFilters | None) -> None:
            if filters is not None and filters != self.view.filters:
                self._new_query(filters)

        self.app.push_screen(CallFiltersModal(self.view.filters, now=now().timestamp()), chosen)

    def action_clear_filters(self) -> None:
        if not self.view.filters.active:
            self.status.info("No filter is set (the platform's default: the last 7 days)")
            return
        self._new_query(self.view.filters.cleared())
        self.status.info("Filters cleared")

    def action_stop(self) -> None:
        """esc: stop the export, else the follow, else clear the filters."""
        if self.stop_export():
            return
        if self.view.following:
            self.action_follow()
            return
        if self.view.filters.active:
            self.action_clear_filters()

    def action_scope(self) -> None:
        if self.view.whole_tree:
            self.view.whole_tree = False
            account = self._query().account_id
            where = f"account #{account}" if account is not None else "every account below the key"
            self.status.info(f"Calls of {where}")
        else:
            self.view.whole_tree = True
            self.status.info("Calls of every account below the key")
        self._new_query(self.view.filters)

    def on_calls_screen_show_account(self, message: ShowAccount) -> None:
        if message.client is not self.connection.client:
            return
        self.view.asked_account = message.account_id
        self.view.whole_tree = message.account_id is None
        self._new_query(self.view.filters)

    def action_utc(self) -> None:
        self.view.local = not self.view.local
        if self.pager.shown is not None:
            self._fill(self.pager.shown.items)
        self.draw_paging()

    def action_page_size(self) -> None:
        sizes = list(PAGE_SIZES)
        size = self.pager.size
        self.pager.ask(size=sizes[(sizes.index(size) + 1) % len(sizes)]
                       if size in sizes else sizes[0])  # fmt: skip
        self.request()

    def action_columns(self) -> None:
        from vagent_tui.ui.widgets.call_forms import CallColumnsModal

        def chosen(names: tuple[str, ...] | None) -> None:
            if not names or names == self.columns:
                return
            self.columns = names
            self.columns_store.keep(self._profile(), names)
            if self.columns_store.error:
                self.status.error(self.columns_store.error, retry_key=None)
            else:
                self.status.ok(f"{counted(len(names), 'column')} kept for this profile")
            self._set_columns()

        self.app.push_screen(CallColumnsModal(offered(self.schema), self.columns), chosen)

    # ------------------------------------------------------------------ open

    def call_in_view(self) -> tuple[LogEntry | None, int | None]:
        return self.table.highlighted_record, self._query().account_id

    def action_open(self) -> None:
        entry = self.table.highlighted_record
        if entry is None:
            self.status.info("No call highlighted")
            return
        from vagent_tui.ui.screens.call import CallScreen

        result, target = self.transcripts.get(entry), self._query().account_id
        # One call screen, kept (installed) and given each call: built and laid out once.
        name = f"calls-call-{id(self)}"
        if isinstance(self._call_screen, CallScreen):
            self._call_screen.show_call(entry, result, local=self.view.local, target=target)
        else:
            self._call_screen = CallScreen(entry, result, local=self.view.local, target=target)
            self.app.install_screen(self._call_screen, name)
        if self._call_screen not in self.app.screen_stack:  # Enter twice: it is on show
            self.app.push_screen(name)

    def on_unmount(self) -> None:
        if self._call_screen is not None:
            with contextlib.suppress(ScreenStackError):  # still on show: the app is closing
                self.app.uninstall_screen(self._call_screen)

    # ------------------------------------------------------------------ follow

    def action_follow(self) -> None:
        if self.view.following:
            self.view.stop_following()
            self.workers.cancel_group(self, "calls-follow")
            self.status.info("Stopped following")
        else:
            self.view.following = True
            self._start_follow()
            self.status.info(f"Following: new calls every {FOLLOW_INTERVAL:g} s (f: stop)")
        self.draw_paging()

    def _start_follow(self) -> None:
        self.view.follow_note = ""
        shown = self.pager.shown
        self._follow(self._query(), shown.items if shown is not None else ())

    @work(exclusive=True, group="calls-follow", exit_on_error=False)
    async def _follow(self, filters: CallFilters, seen: tuple[LogEntry, ...]) -> None:
        follower = Follower(self.connection.api, filters, interval=FOLLOW_INTERVAL)
        follower.prime(seen)

        def arrived(fresh: list[LogEntry]) -> None:
            if filters != self._query():
                return
            self.view.follow_note = "(some older new calls not read: g)" if follower.gap else ""
            self._arrived(fresh)

        def failed(exc: PlatformError, delay: float) -> None:
            self.view.follow_note = f"— not answering, next try in {delay:g} s"
            self.status.error(exc, retry_key=None, prefix="Following: ")
            self.draw_paging()

        await follower.run(arrived, failed)

    def _arrived(self, fresh: list[LogEntry]) -> None:
        """New entries (newest first): on the first page they go on top, the cursor
        staying on its call; on another page they are counted."""
        shown = self.pager.shown
        if shown is None:
            return
        if shown.page != 0:
            self.view.new_count += len(fresh)
        else:
            # The page grows while followed (up to the table's cap): dropping its older
            # rows would drop the call the cursor is on; the next page move reads the
            # platform's pages afresh.
            self.pager.shown = grown = shown.grown(fresh, ROW_CAP)
            keep = self.table.highlighted_record
            self._fill(grown.items, keep=entry_key(keep) if keep is not None else None)
            self._fetch_transcripts(tuple(fresh), self._query().account_id)
        if self.view.follow_note.startswith("—"):
            self.view.follow_note = ""
            self.status.clear()
        self.draw_paging()

    # ------------------------------------------------------------------ export (calls_export)

    def export_query(self) -> CallFilters:
        return self._query()

    def export_total(self) -> int | None:
        shown = self.pager.shown
        return shown.total if shown is not None else None

    def export_local(self) -> bool:
        return self.view.local
