"""The inboxes: the acting agent account's junk or priority rooms, paged by the server.

``i`` switches between the junk inbox (``GET /junkConversations``) and the priority
inbox (``GET /conversations``); both page alike, and the title says which one is shown.
Only the visible page is ever fetched: one request per page change, and "last page"
is one request too, computed from the ``totalRooms`` of the previous reply. Two pagers
are kept: ``pager`` is what is shown, ``wanted`` what was asked for last; a reply that
is no longer wanted (paged again meanwhile, or the target changed) is dropped. A page
that takes longer than `PENDING_DELAY` is announced meanwhile (the header's "→ page N",
"Loading page N"); a quicker one is simply drawn, in one frame.

Enter opens the highlighted room (`RoomScreen`: its messages); esc there comes back to
the same page and row.

Rooms are shown inert; two rooms of one ``roomId`` are two rows (row ``i`` of the table
is ``rooms[i]``, whatever the keys).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import ClassVar

from rich.text import Text
from textual import work
from textual.binding import Binding, BindingType
from textual.containers import Container, VerticalScroll
from textual.message import Message
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import DataTable, Static

from vagent_tui.api.errors import PlatformError
from vagent_tui.api.models import InboxRoom
from vagent_tui.services.inbox import INBOX_TITLES, PAGE_SIZES, InboxPager, other_inbox
from vagent_tui.ui.colours import FAILED_STRONG, WARN
from vagent_tui.ui.screens.calls_link import calls_binding, show_calls
from vagent_tui.ui.screens.paging import PagedScreen, page_keys
from vagent_tui.ui.screens.room import RoomScreen
from vagent_tui.ui.widgets.context_bar import ContextBar
from vagent_tui.ui.widgets.inbox_rows import DetailText, room_cells, room_detail
from vagent_tui.ui.widgets.table_filter import filter_binding
from vagent_tui.ui.widgets.tables import ROW_CAP, LineTable, SafeTable, left_out

HINT = "Select an agent account on the Scope screen (1) to see its inboxes."
"""From this width the detail pane sits beside the table, below it otherwise."""
PENDING_DELAY = 0.1
"""Seconds a page may take before the header and the status line say it is on its way.

A page that comes sooner is drawn in one frame with nothing drawn before it: a frame
drawn for the key alone (the header's "→ page N", "Loading page N") would not only
flash, it would make the page's own frame wait for Textual's next frame slot, 17 to
33 ms after it."""


class RoomsTable(LineTable):
    """The rooms of a page; Enter opens the highlighted one.

    Enter is the table's own key (not a priority key of the screen) so that it comes in
    order after the arrows typed before it, and the footer shows it; a click only
    highlights (the detail pane shows the room). Its rows are drawn as `LineTable` draws
    them (a page move replaces every row).
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "open", "Open", id="inbox.open", tooltip="Open the room: its messages"),
    ]

    class OpenRoom(Message):
        """Enter on a row."""

    @classmethod
    def make(cls) -> RoomsTable:
        table = cls(id="inbox-table", cursor_type="row", zebra_stripes=True)
        columns = (
            (" ", "unread"),
            ("Name", "name"),
            ("Phone", "phone"),
            ("Last message", "message"),
            ("When", "when"),
        )
        for label, key in columns:
            table.add_column(label, key=key)
        return table

    def action_open(self) -> None:
        self.post_message(self.OpenRoom())


class InboxScreen(PagedScreen):
    """Junk or priority inbox rooms of the acting account, paged by the server."""

    LAST_PAGE_UNKNOWN = "The number of rooms is not known yet; wait for the page"
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (140, "-wide")]
    FILTER_PLACEHOLDER = "/ filter the rooms of this page only (the server pages them)"
    CSS_PATH = "inbox.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        *page_keys("inbox", last_key_tip="Last page (one request)"),
        Binding(
            "i",
            "switch_inbox",
            "Inbox",
            id="inbox.switch",
            tooltip="Switch between the junk and the priority inbox",
        ),
        # Enter on the table is the table's own (RoomsTable); this one is for elsewhere.
        Binding("enter", "open_room", "Open", show=False, id="inbox.open-any"),
        Binding(
            "z", "page_size", "Size", id="inbox.page_size", tooltip="Cycle 20/50/100/200 per page"
        ),
        Binding("u", "unread", "Unread", id="inbox.unread", tooltip="Show only unread rooms"),
        calls_binding("inbox", "The calls and messages of this agent account"),
        filter_binding("inbox"),  # last: the footer drops it first
    ]

    def __init__(self) -> None:
        super().__init__()
        self.pager = InboxPager()
        """The page on screen."""
        self.wanted = InboxPager()
        """The page asked for last (equal to ``pager`` once it arrived)."""
        self.loaded_target: object = _UNSET
        self._seq = 0
        self._failed = False
        """The last page asked for did not come: the header says so instead of waiting."""
        self._rooms: list[InboxRoom] = []
        """The rooms in the table: row ``i`` is ``_rooms[i]``."""
        self._detail_shown: tuple[object, ...] | None = None
        """What the detail pane shows: the room (itself, not an equal one), filter, shape."""
        self._wide = False
        """The breakpoint class the detail pane was last shaped for."""
        self._pending_timer: Timer | None = None
        """Runs from a request until the page comes, fails, or `PENDING_DELAY` passes."""
        self._pending_shown = False
        """The header and the status line say a page is on its way."""

    def compose_body(self) -> Iterable[Widget]:
        yield Static("", id="inbox-header", markup=False)
        yield Static(HINT, id="inbox-hint", markup=False)
        with Container(id="inbox-body"):
            yield RoomsTable.make()
            with VerticalScroll(id="inbox-detail"):
                yield DetailText(Text("No room highlighted.", style="dim"), id="inbox-detail-text")

    def on_mount(self) -> None:
        self.table.focus()
        self.apply_breakpoints()
        self._follow_width()
        self._header()
        self._title()

    def on_resize(self) -> None:
        # Textual sets the breakpoint's class after this handler: look once it has.
        self.call_after_refresh(self._follow_width)

    def _follow_width(self) -> None:
        wide = self.has_class("-wide")
        if wide != self._wide:
            self._wide = wide
            self._show_detail()

    # ------------------------------------------------------------------ loading

    def reload(self) -> None:
        self.set_class(not self.connection.is_agent_selected, "-no-agent")
        if not self.connection.is_agent_selected:
            self._seq += 1  # drop any reply still on its way
            self._pending_over()
            self.loaded_target = _UNSET
            self.pager = self._fresh()
            self.wanted = replace(self.pager)
            self._fill(self.pager, keep=None)
            self._title()
            self.query_one("#inbox-header", Static).update(Text("No agent account selected"))
            self.status.clear()
            return
        target = self.connection.target_id
        if target != self.loaded_target:
            # another account: its inbox starts at the first page
            self.loaded_target = target
            self.pager = self._fresh()
            self.wanted = replace(self.pager)
            self._fill(self.pager, keep=None)
            self._header()  # the table is empty now: so is the header
            self._request(self.wanted, keep_cursor=False)
        else:
            self._request(self.wanted, keep_cursor=True)

    def _fresh(self) -> InboxPager:
        """The first page of the inbox wanted, with the page size and filter wanted."""
        want = self.wanted
        return InboxPager(page_size=want.page_size, unread=want.unread, inbox=want.inbox)

    def _request(self, want: InboxPager, *, keep_cursor: bool) -> None:
        self._seq += 1
        self._failed = False
        self.wanted = want
        if self._pending_shown:
            self._show_pending()  # already said: now about this page
        elif self._pending_timer is None:
            self._pending_timer = self.set_timer(PENDING_DELAY, self._show_pending)
        self._fetch(want, self._seq, keep_cursor)

    def _show_pending(self) -> None:
        """The header and the status line say which page is on its way."""
        self._pending_timer = None
        if self._failed:
            return
        self._pending_shown = True
        self._header()
        self.status.busy(f"Loading page {self.wanted.page + 1:,}")

    def _pending_over(self) -> None:
        """The page came, or will not: nothing more to announce."""
        if self._pending_timer is not None:
            self._pending_timer.stop()
            self._pending_timer = None
        self._pending_shown = False

    @work(exclusive=True, group="inbox-page", exit_on_error=False)
    async def _fetch(self, want: InboxPager, seq: int, keep_cursor: bool) -> None:
        def failed(exc: PlatformError) -> None:
            if seq == self._seq:
                self._pending_over()
                self._failed = True
                self.status.error(exc)
                self._header()

        ok, result = await self.load(lambda c: want.fetch(c.api, c.target_id), on_error=failed)
        if not ok or result is None or seq != self._seq:
            return  # another account, or paged again meanwhile: not wanted any more
        want.apply(result)
        if not want.rooms and want.total and want.page > want.last_page:
            # the inbox shrank under us: show its last page instead
            self._request(replace(want, page=want.last_page, rooms=[]), keep_cursor=False)
            return
        switched = want.inbox != self.pager.inbox
        self._pending_over()
        self.pager = want
        self._fill(want, keep=self._cursor_key() if keep_cursor else None)
        self._title()
        if switched:
            other = INBOX_TITLES[other_inbox(want.inbox)].lower()
            self.status.info(f"Showing the {want.title.lower()} (i: the {other})")
        elif str(self.status.content) or self.status.counts_empty:
            self.status.clear()  # (a clear line is not cleared again: no layout for it)
        self._header()

    # ------------------------------------------------------------------ showing

    def _title(self) -> None:
        """The screen's title names the inbox shown."""
        self.query_one(ContextBar).set_title(self.pager.title)

    def _header(self) -> None:
        shown, want = self.pager, self.wanted
        text = Text(no_wrap=True, overflow="ellipsis")
        text.append(shown.title.split()[0], style="bold")
        text.append(" · ")
        waiting = shown is not want and not shown.total
        if waiting and self._failed:
            text.append("✗ not loaded (r: retry)", style=FAILED_STRONG)
        else:
            text.append("…" if waiting else shown.label, style="bold")
        if shown.total:
            text.append(f" · page {shown.page + 1:,} of {shown.last_page + 1:,}")
        text.append(f" · {want.page_size}/page")
        text.append(" · unread only" if want.unread else " · all rooms")
        text.append(
            left_out(len(shown.rooms), "room on this page", "rooms on this page"), style=WARN
        )
        if shown is not want and want.inbox != shown.inbox:
            text.append(f" · → {want.title.lower()}", style="italic")
        elif shown is not want and (want.page != shown.page or want.unread != shown.unread):
            text.append(f" · → page {want.page + 1:,}", style="italic")
        # One line, as wide as the screen whatever it says: no layout of the screen.
        self.query_one("#inbox-header", Static).update(text, layout=False)

    @property
    def table(self) -> SafeTable:
        return self.query_one("#inbox-table", SafeTable)

    def load_failed(self, error: BaseException, group: str = "") -> None:
        super().load_failed(error, group)
        if group == "inbox-page":
            self._pending_over()
            self._failed = True
            self._header()

    def _cursor_key(self) -> tuple[str | None, int]:
        """The highlighted room's id and row, to keep the cursor on it across a reload."""
        room = self._current_room()
        return (room.room_id if room else None), self.table.cursor_row

    def _fill(self, pager: InboxPager, *, keep: tuple[str | None, int] | None) -> None:
        table = self.table
        # the message column takes what the other columns leave
        width = max(16, (table.size.width or self.size.width) - 54)
        with self.app.batch_update():
            table.clear()
            self._rooms = pager.rooms[:ROW_CAP]  # a page longer than asked for is cut too
            for index, room in enumerate(self._rooms):
                cells = room_cells(room, unread_filter=pager.unread, width=width)
                table.add_row(*cells, key=room.room_id or f"#{index}")
            if table.row_count:
                # rows shown: all the page's, or those the filter (/) leaves
                row = 0
                if keep is not None:
                    key, old_row = keep
                    ids = [r.room_id for r in self._rooms]
                    found = key is not None and key in ids
                    at = table.shown_index(ids.index(key)) if found else None
                    row = at if at is not None else min(old_row, table.row_count - 1)
                table.move_cursor(row=row, column=0, animate=False, scroll=True)
        self._show_detail()

    def _current_room(self) -> InboxRoom | None:
        row = self.table.source_row
        return self._rooms[row] if self.table.row_count and 0 <= row < len(self._rooms) else None

    def _show_detail(self) -> None:
        room = self._current_room()
        compact = not self.has_class("-wide")
        # A page fill shows the detail, then the table says its row is highlighted:
        # the same room, once.
        shown = (id(room), room, self.pager.unread, compact)
        if shown == self._detail_shown:
            return
        self._detail_shown = shown
        detail = room_detail(room, unread_filter=self.pager.unread, compact=compact)
        self.query_one("#inbox-detail-text", DetailText).show(detail)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        self._show_detail()

    # ------------------------------------------------------------------ keys

    def _ready(self) -> bool:
        if not self.connection.is_agent_selected:
            self.status.info(HINT)
            return False
        return self.loaded_target is not _UNSET

    def on_rooms_table_open_room(self, message: RoomsTable.OpenRoom) -> None:
        message.stop()
        self.action_open_room()

    def _known_total(self, want: InboxPager) -> int:
        """The total for ``want``'s inbox and filter, when a reply has told it (0 otherwise)."""
        same = (self.pager.unread, self.pager.inbox) == (want.unread, want.inbox)
        return self.pager.total if same else 0

    def page_now(self) -> int:
        return self.wanted.page

    def last_page(self) -> int | None:
        if self._ready() and not self._known_total(self.wanted):
            return None
        return 2**62  # clamped to the last page of the known total

    def go_to_page(self, page: int) -> None:
        if not self._ready():
            return
        want = replace(self.wanted, rooms=[])
        want.total = self._known_total(want)
        page = want.goto(page) if want.total else max(0, page)
        if page == self.wanted.page and self.wanted is self.pager:
            edge = "first" if page == 0 else "last"
            self.status.info(f"Already on the {edge} page")
            return
        self._request(want, keep_cursor=False)

    def action_page_size(self) -> None:
        if not self._ready():
            return
        sizes = list(PAGE_SIZES)
        current = self.wanted.page_size
        size = sizes[(sizes.index(current) + 1) % len(sizes)] if current in sizes else sizes[0]
        want = replace(self.wanted, rooms=[])
        want.set_page_size(size)
        self._request(want, keep_cursor=False)

    def action_unread(self) -> None:
        if not self._ready():
            return
        want = replace(self.wanted, rooms=[], page=0, total=0, unread=not self.wanted.unread)
        self._request(want, keep_cursor=False)

    async def action_calls(self) -> None:
        await show_calls(self, self.connection.target_id)

    def action_switch_inbox(self) -> None:
        """The other inbox, from its first page (page size and unread filter kept)."""
        if not self._ready():
            return
        inbox = other_inbox(self.wanted.inbox)
        want = replace(self.wanted, rooms=[], page=0, total=0, inbox=inbox)
        self._request(want, keep_cursor=False)

    def action_open_room(self) -> None:
        if not self._ready():
            return
        room = self._current_room()
        if room is None:
            self.status.info("No room highlighted")
            return
        if not room.room_id:
            self.status.error("This room has no roomId: it cannot be opened", retry_key=None)
            return
        self.app.push_screen(RoomScreen(room, self.pager.inbox, self.connection.target_id))


class _Unset:
    def __repr__(self) -> str:
        return "<unset>"


_UNSET = _Unset()
