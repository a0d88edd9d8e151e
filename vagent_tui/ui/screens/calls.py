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

import asyncio
import contextlib
from collections.abc import Iterable
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import work
from textual.app import ScreenStackError
from textual.binding import Binding, BindingType
from textual.containers import Container, Horizontal, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import ProgressBar, Static

from vagent_tui.api.errors import PlatformError
from vagent_tui.api.log_models import ConversationRef, LogEntry
from vagent_tui.services.call_columns import ColumnStore, column, offered
from vagent_tui.services.calls import (
    PAGE_SIZES,
    PRESETS,
    CallFilters,
    CallsPage,
    ExportProgress,
    ExportResult,
    Follower,
    TranscriptCache,
    export_csv,
    export_jsonl,
    fetch_page,
    fetch_transcripts,
)
from vagent_tui.ui.colours import FAILED_STRONG, RUNNING, WARN
from vagent_tui.ui.format import now
from vagent_tui.ui.screens.paging import PagedScreen, page_keys
from vagent_tui.ui.text import inert
from vagent_tui.ui.widgets.call_rows import column_label, entry_cells, entry_detail
from vagent_tui.ui.widgets.inbox_rows import DetailText
from vagent_tui.ui.widgets.record_table import RecordTable
from vagent_tui.ui.widgets.table_filter import filter_binding
from vagent_tui.ui.widgets.tables import ROW_CAP
from vagent_tui.words import counted

_UNSET = object()
PENDING_DELAY = 0.1
"""Seconds a page may take before the header, the filter line and the status line say
it is on its way: a page that comes sooner is drawn in one frame with them, with no
frame drawn for the key alone (that frame would make the page's wait for Textual's
next frame slot, and lay the screen out once more for the status line)."""
SCREEN_PAGE_SIZE = 50
"""Calls a page until ``z`` says otherwise: more than a tall terminal shows, and half
the work of a page move at 100 (every row of a page is built, measured by the table
and kept, seen or not)."""
FOLLOW_INTERVAL = 5.0
"""Seconds between two polls of ``f`` while the platform answers."""
EXPORT_GROUP = "calls-export"
"""The export's worker, the app's (not the screen's): it runs on when the screen is left,
as a download does; it writes a local file only, so a read-only profile may export."""


def entry_key(entry: LogEntry) -> str:
    """A row's key: the entry's id (an entry without one is keyed by its time)."""
    return f"id:{entry.id}" if entry.id not in (None, "") else f"at:{entry.timestamp}"


class CallsScreen(PagedScreen):
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
        Binding("u", "utc", "UTC", id="calls.utc", tooltip="Times in UTC / local time"),
        Binding("z", "page_size", "Size", id="calls.page_size",
                tooltip="Cycle 50/100/200/500 per page"),
        Binding("x", "stop", "Stop/Clear", id="calls.clear",
                tooltip="Stop the export or the follow, else clear the filters"),
        Binding("escape", "stop", "Stop", show=False, id="calls.stop",
                tooltip="Stop the export or the follow, else clear the filters"),
        filter_binding("calls"),  # last: the footer drops it first
    ]  # fmt: skip

    class ShowAccount(Message):
        """Another screen's ``c``: the calls of this account (with ``client``'s key)."""

        def __init__(self, account_id: int | None, *, client: object) -> None:
            super().__init__()
            self.account_id = account_id
            self.client = client

    def __init__(self) -> None:
        super().__init__()
        self.filters = CallFilters()
        self.page_size = SCREEN_PAGE_SIZE
        self.wanted_page = 1
        self.shown: CallsPage | None = None
        self.local = True
        self.whole_tree = False
        """Every account below the key, not only the selected one (``s``)."""
        self.asked_account: int | None = None
        """An account another screen asked for (`ShowAccount`), until the target changes."""
        self.loaded_target: object = _UNSET
        self.columns_store = ColumnStore()
        self.columns: tuple[str, ...] = ()
        self.schema: tuple[str, ...] = ()
        self.transcripts = TranscriptCache()
        self.fetching: set[ConversationRef] = set()
        self.following = False
        self.new_count = 0
        """Entries that arrived while following, not on the page shown (page 2 on)."""
        self.follow_note = ""
        self._seq = 0
        self._failed = False
        self._pending_timer: Timer | None = None
        """Runs from a request until the page comes, fails, or `PENDING_DELAY` passes."""
        self._pending_shown = False
        self._detail_key: tuple[object, ...] | None = None
        """What the detail pane shows (entry, conversation, loading, local time): it is
        not drawn again for the same."""
        self._export_cancel: asyncio.Event | None = None
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
        self._header()
        self._filters_line()

    def _profile(self) -> str | None:
        profile = self.connection.profile
        return profile.name if profile is not None else None

    def _set_columns(self) -> None:
        table = self.table
        widths = self._widths()
        table.clear(columns=True)
        for name in self.columns:
            table.add_column(column_label(name), key=name, width=widths.get(name))
        if self.shown is not None:
            self._fill(self.shown.entries)

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

    def _account(self) -> int | None:
        if self.whole_tree:
            return None
        if self.asked_account is not None:
            return self.asked_account
        return self.connection.target_id

    def reload(self) -> None:
        target = self.connection.target_id
        if target != self.loaded_target:
            if self.loaded_target is not _UNSET:
                self.asked_account = None  # another account acts now: its calls
            self.loaded_target = target
            self.transcripts.clear()
            self.wanted_page = 1
        self._request(self.wanted_page)
        if self.following:
            self._start_follow()

    def _query(self) -> CallFilters:
        return replace(self.filters, account_id=self._account())

    def _request(self, page: int) -> None:
        self._seq += 1
        self._failed = False
        self.wanted_page = max(1, page)
        if self._pending_shown or self.shown is None:
            self._show_pending()  # already said (or nothing shown yet): now about this page
        elif self._pending_timer is None:
            self._pending_timer = self.set_timer(PENDING_DELAY, self._show_pending)
        self._fetch(self._query(), self.wanted_page, self.page_size, self._seq)

    def _show_pending(self) -> None:
        """The header, the filter line and the status line say what is on its way."""
        self._pending_timer = None
        if self._failed:
            return
        self._pending_shown = True
        self._header()
        self._filters_line()
        if self.wanted_page > 1 or self.shown is None:
            self.status.busy(f"Loading page {self.wanted_page:,}")

    def _pending_over(self) -> None:
        """The page came, or will not: nothing more to announce."""
        if self._pending_timer is not None:
            self._pending_timer.stop()
            self._pending_timer = None
        self._pending_shown = False

    @work(exclusive=True, group="calls-page", exit_on_error=False)
    async def _fetch(self, filters: CallFilters, page: int, size: int, seq: int) -> None:
        def failed(exc: PlatformError) -> None:
            if seq == self._seq:
                self._pending_over()
                self._failed = True
                self.status.error(exc)
                self._header()
                self._filters_line()

        want_schema = not self.schema
        ok, got = await self.load(
            lambda c: fetch_page(c.api, filters, page, size, include_fields=want_schema),
            on_error=failed,
        )
        if not ok or got is None or seq != self._seq:
            return
        if not got.entries and got.total and page > got.last_page:
            self._request(got.last_page)  # fewer calls than when the page was asked for
            return
        self._pending_over()
        if got.field_names:
            self.schema = got.field_names
        self.shown = got
        if page == 1:
            self.new_count = 0
        # The page's transcripts are asked for next: its first frame says so already.
        self.fetching |= {
            ref for e in self.transcripts.missing(got.entries) if (ref := e.conversation_ref)
        }
        self._fill(got.entries, keep=None)
        if str(self.status.content) or self.status.counts_empty:
            self.status.clear()
        self._header()
        self._filters_line()
        self._fetch_transcripts(got.entries, filters.account_id)

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
        local = self.local
        self.table.show(
            list(entries)[:ROW_CAP], lambda e: entry_cells(e, self.columns, local=local),
            keep=keep,
        )  # fmt: skip
        self._show_detail(force=True)

    def _header(self) -> None:
        shown = self.shown
        text = Text(no_wrap=True, overflow="ellipsis")
        text.append("Calls", style="bold")
        text.append(" · ")
        if self._failed and (shown is None or shown.page != self.wanted_page):
            text.append("✗ not loaded (r: retry)", style=FAILED_STRONG)
        elif shown is None:
            text.append("…")
        else:
            text.append(shown.label, style="bold")
            text.append(f" · page {shown.page:,} of {shown.last_page:,}")
        text.append(f" · {self.page_size}/page")
        text.append(" · local time" if self.local else " · UTC")
        if shown is not None and self.wanted_page != shown.page and not self._failed:
            text.append(f" · → page {self.wanted_page:,}", style="italic")
        if self.following:
            text.append(" · following", style=RUNNING)
            if self.new_count:
                text.append(f" ({counted(self.new_count, 'new call')}: g to see)", style=WARN)
            if self.follow_note:
                text.append(" " + inert(self.follow_note), style=WARN)
        self.query_one("#calls-header", Static).update(text, layout=False)

    def _filters_line(self) -> None:
        query = self._query()
        text = Text(no_wrap=True, overflow="ellipsis")
        text.append("Filters: ", style="bold")
        words = query.describe(local=self.local)
        if query.account_id is None:
            words.insert(1, "every account below the key")
        text.append(inert(" · ".join(words)))
        if query.active:
            text.append("   (x or esc: clear)", style="dim")
        self.query_one("#calls-filters", Static).update(text, layout=False)

    def _show_detail(self, *, force: bool = False) -> None:
        """The highlighted entry in the detail pane; not drawn again when the pane shows
        it already (a page fill shows it, then the table says its row is highlighted),
        unless ``force``."""
        entry = self.table.highlighted_record
        result = self.transcripts.get(entry) if entry is not None else None
        ref = entry.conversation_ref if entry is not None else None
        fetching = ref is not None and ref in self.fetching
        key = (entry, result, fetching, self.local)
        last = self._detail_key
        # Compared by identity: the objects are held here, so no other can take their id.
        if not force and last is not None and all(a is b for a, b in zip(key, last, strict=True)):
            return
        self._detail_key = key
        detail = entry_detail(entry, result, local=self.local, fetching=fetching)
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

    # ------------------------------------------------------------------ paging

    def page_now(self) -> int:
        return self.wanted_page - 1

    def last_page(self) -> int | None:
        if self.shown is None:
            return None
        return self.shown.last_page - 1

    def go_to_page(self, page: int) -> None:
        last = self.shown.last_page if self.shown is not None else None
        target = max(1, page + 1)
        if last is not None:
            target = min(target, last)
        if self.shown is not None and target == self.shown.page == self.wanted_page:
            edge = "first" if target == 1 else "last"
            self.status.info(f"Already on the {edge} page")
            return
        self._request(target)

    # ------------------------------------------------------------------ the query

    def _new_query(self, filters: CallFilters) -> None:
        self.filters = filters
        self.transcripts.clear()
        self._request(1)
        if self.following:
            self._start_follow()

    def action_time_preset(self) -> None:
        names = list(PRESETS)
        current = self.filters.preset
        preset = names[(names.index(current) + 1) % len(names)] if current in names else names[0]
        self._new_query(CallFilters.last(
            preset, now=now().timestamp(), account_id=None, event_type=self.filters.event_type,
            outcome=self.filters.outcome, status=self.filters.status, extra=self.filters.extra,
        ))  # fmt: skip

    def action_filters(self) -> None:
        from vagent_tui.ui.widgets.call_forms import CallFiltersModal

        def chosen(filters: CallFilters | None) -> None:
            if filters is not None and filters != self.filters:
                self._new_query(filters)

        self.app.push_screen(CallFiltersModal(self.filters, now=now().timestamp()), chosen)

    def action_clear_filters(self) -> None:
        if not self.filters.active:
            self.status.info("No filter is set (the platform's default: the last 7 days)")
            return
        self._new_query(self.filters.cleared())
        self.status.info("Filters cleared")

    def action_stop(self) -> None:
        """esc: stop the export, else the follow, else clear the filters."""
        if self._export_cancel is not None:
            self._export_cancel.set()
            return
        if self.following:
            self.action_follow()
            return
        if self.filters.active:
            self.action_clear_filters()

    def action_scope(self) -> None:
        if self.whole_tree:
            self.whole_tree = False
            account = self._account()
            where = f"account #{account}" if account is not None else "every account below the key"
            self.status.info(f"Calls of {where}")
        else:
            self.whole_tree = True
            self.status.info("Calls of every account below the key")
        self._new_query(self.filters)

    def on_calls_screen_show_account(self, message: ShowAccount) -> None:
        if message.client is not self.connection.client:
            return
        self.asked_account = message.account_id
        self.whole_tree = message.account_id is None
        self._new_query(self.filters)

    def action_utc(self) -> None:
        self.local = not self.local
        if self.shown is not None:
            self._fill(self.shown.entries)
        self._header()
        self._filters_line()

    def action_page_size(self) -> None:
        sizes = list(PAGE_SIZES)
        size = self.page_size
        self.page_size = sizes[(sizes.index(size) + 1) % len(sizes)] if size in sizes else sizes[0]
        first = (self.wanted_page - 1) * size
        self._request(first // self.page_size + 1)

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
            self._call_screen.show_call(entry, result, local=self.local, target=target)
        else:
            self._call_screen = CallScreen(entry, result, local=self.local, target=target)
            self.app.install_screen(self._call_screen, name)
        if self._call_screen not in self.app.screen_stack:  # Enter twice: it is on show
            self.app.push_screen(name)

    def on_unmount(self) -> None:
        if self._call_screen is not None:
            with contextlib.suppress(ScreenStackError):  # still on show: the app is closing
                self.app.uninstall_screen(self._call_screen)

    # ------------------------------------------------------------------ follow

    def action_follow(self) -> None:
        if self.following:
            self.following = False
            self.follow_note = ""
            self.workers.cancel_group(self, "calls-follow")
            self.status.info("Stopped following")
        else:
            self.following = True
            self._start_follow()
            self.status.info(f"Following: new calls every {FOLLOW_INTERVAL:g} s (f: stop)")
        self._header()

    def _start_follow(self) -> None:
        self.follow_note = ""
        self._follow(self._query(), self.shown.entries if self.shown else ())

    @work(exclusive=True, group="calls-follow", exit_on_error=False)
    async def _follow(self, filters: CallFilters, seen: tuple[LogEntry, ...]) -> None:
        follower = Follower(self.connection.api, filters, interval=FOLLOW_INTERVAL)
        follower.prime(seen)

        def arrived(fresh: list[LogEntry]) -> None:
            if filters != self._query():
                return
            self.follow_note = "(some older new calls not read: g)" if follower.gap else ""
            self._arrived(fresh)

        def failed(exc: PlatformError, delay: float) -> None:
            self.follow_note = f"— not answering, next try in {delay:g} s"
            self.status.error(exc, retry_key=None, prefix="Following: ")
            self._header()

        await follower.run(arrived, failed)

    def _arrived(self, fresh: list[LogEntry]) -> None:
        """New entries (newest first): on the first page they go on top, the cursor
        staying on its call; on another page they are counted."""
        shown = self.shown
        if shown is None:
            return
        if shown.page != 1:
            self.new_count += len(fresh)
        else:
            # The page grows while followed (up to the table's cap): dropping its older
            # rows would drop the call the cursor is on; the next page move reads the
            # platform's pages afresh.
            entries = (*fresh, *shown.entries)[:ROW_CAP]
            self.shown = replace(shown, entries=entries, total=shown.total + len(fresh))
            keep = self.table.highlighted_record
            self._fill(entries, keep=entry_key(keep) if keep is not None else None)
            self._fetch_transcripts(tuple(fresh), self._query().account_id)
        if self.follow_note.startswith("—"):
            self.follow_note = ""
            self.status.clear()
        self._header()

    # ------------------------------------------------------------------ export

    def action_export(self) -> None:
        if self._export_cancel is not None:
            self.status.info("An export is under way: x or esc stops it")
            return
        from vagent_tui.ui.widgets.call_forms import CallExportModal, ExportChoice

        stamp = datetime.fromtimestamp(now().timestamp(), UTC).strftime("%Y%m%d-%H%M")
        total = counted(self.shown.total, "call") if self.shown else "the calls"
        summary = f"{total} · " + " · ".join(self._query().describe(local=self.local))

        def chosen(choice: ExportChoice | None) -> None:
            if choice is None:
                return
            if choice.path.exists():
                from vagent_tui.ui.dialogs import ConfirmModal

                def replace_it(yes: bool | None) -> None:
                    if yes:
                        self._export(choice.path, choice.format)

                self.app.push_screen(
                    ConfirmModal(
                        "Replace the file?",
                        f"{choice.path} exists: replace it?",
                        confirm_label="Replace",
                    ),
                    replace_it,
                )
                return
            self._export(choice.path, choice.format)

        self.app.push_screen(CallExportModal(f"calls-{stamp}.csv", summary=summary), chosen)

    def _export(self, path: Path, kind: str) -> None:
        cancel = asyncio.Event()
        self._export_cancel = cancel
        self.add_class("-exporting")
        label = self.query_one("#calls-export-label", Static)
        bar = self.query_one("#calls-export-bar", ProgressBar)
        bar.update(total=None, progress=0)
        label.update(Text(f"Exporting to {inert(str(path))}…  (x: stop)"))
        self.app.run_worker(
            self._run_export(path, kind, cancel), group=EXPORT_GROUP, exit_on_error=False
        )

    async def _run_export(self, path: Path, kind: str, cancel: asyncio.Event) -> None:
        filters = self._query()
        api = self.connection.api
        bar = self.query_one("#calls-export-bar", ProgressBar)
        label = self.query_one("#calls-export-label", Static)

        def progress(step: ExportProgress) -> None:
            if step.expected:
                bar.update(total=step.expected, progress=min(step.rows, step.expected))
            label.update(Text(
                f"Exporting to {inert(str(path))}: {step.rows:,}"
                + (f" of {step.expected:,}" if step.expected else "")
                + f" calls, {step.bytes / 1e6:.1f} MB  (x: stop)"
            ))  # fmt: skip

        try:
            if kind == "jsonl":
                result = await export_jsonl(api, filters, path, on_progress=progress,
                                            cancel=cancel)  # fmt: skip
            else:
                result = await export_csv(api, filters, path, on_progress=progress, cancel=cancel)
        except PlatformError as exc:
            self.status.error(exc, retry_key="w", prefix="Export failed (no file written): ")
            return
        except OSError as exc:
            self.status.error(
                f"Export failed: {path}: {exc.strerror or exc}", retry_key="w", cause=exc
            )
            return
        finally:
            self._export_cancel = None
            self.remove_class("-exporting")
        self._exported(result, path)

    def _exported(self, result: ExportResult, path: Path) -> None:
        if result.cancelled:
            self.status.info(f"Export stopped after {counted(result.rows, 'call')}: no file kept")
        elif result.empty and result.path is None:
            self.status.info("No call matches this query: no file written")
        else:
            self.status.ok(
                f"{counted(result.rows, 'call')} written to {path} ({result.bytes / 1e6:.1f} MB)"
            )
        self.notify_if_away(f"Calls export: {counted(result.rows, 'call')}")
