"""The inboxes: the acting agent account's junk or priority rooms, paged by the server.

``i`` switches between the junk inbox (``GET /junkConversations``) and the priority
inbox (``GET /conversations``); both page alike, and the title says which one is shown.
Only the visible page is ever fetched: one request per page change, and "last page"
is one request too, computed from the ``totalRooms`` of the previous reply. The screen's
`Pager` knows the page on show and the one asked for last; a reply that is no longer
wanted (paged again meanwhile, or the target changed) is dropped. A page that takes
longer than `PENDING_DELAY` is announced meanwhile (the header's "→ page N", "Loading
page N"); a quicker one is simply drawn, in one frame.

Enter opens the highlighted room (`RoomScreen`: its messages); esc there comes back to
the same page and row.

Rooms are shown inert; two rooms of one ``roomId`` are two rows (row ``i`` of the table
is ``rooms[i]``, whatever the keys).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.containers import Container, VerticalScroll
from textual.message import Message
from textual.widget import Widget
from textual.widgets import DataTable, Static

from vagent_tui.api.models import InboxPage, InboxRoom
from vagent_tui.services.inbox import (
    INBOX_TITLES,
    PAGE_SIZES,
    Inbox,
    InboxQuery,
    inbox_pager,
    other_inbox,
    read_inbox_page,
)
from vagent_tui.services.paging import Ask, Page, Spot
from vagent_tui.services.session import Connection
from vagent_tui.ui.colours import FAILED_STRONG, WARN
from vagent_tui.ui.screens.calls_link import calls_binding, show_calls
from vagent_tui.ui.screens.paging import ServerPagedScreen, page_keys
from vagent_tui.ui.screens.room import RoomScreen
from vagent_tui.ui.widgets.context_bar import ContextBar
from vagent_tui.ui.widgets.inbox_rows import DetailText, room_cells, room_detail
from vagent_tui.ui.widgets.table_filter import filter_binding
from vagent_tui.ui.widgets.tables import ROW_CAP, LineTable, SafeTable, left_out

HINT = "Select an agent account on the Scope screen (1) to see its inboxes."
"""From this width the detail pane sits beside the table, below it otherwise."""


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


class InboxScreen(ServerPagedScreen[InboxQuery, InboxRoom, InboxPage]):
    """Junk or priority inbox rooms of the acting account, paged by the server."""

    TITLE = "Junk inbox"
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

    PAGE_GROUP = "inbox-page"

    def __init__(self) -> None:
        super().__init__()
        self.pager = inbox_pager()
        """The query, the page asked for last and the page on show."""
        self.loaded_target: object = _UNSET
        self._rooms: list[InboxRoom] = []
        """The rooms in the table: row ``i`` is ``_rooms[i]``."""
        self._detail_shown: tuple[object, ...] | None = None
        """What the detail pane shows: the room (itself, not an equal one), filter, shape."""
        self._wide = False
        """The breakpoint class the detail pane was last shaped for."""
        self._drawn_inbox: Inbox = self.pager.query.inbox
        """The inbox the title names."""

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
            self.pending_over()
            self.loaded_target = _UNSET
            self.pager.reset()  # drops any reply still on its way
            self._fill([], unread=self.pager.query.unread, keep=None)
            self._title()
            self.query_one("#inbox-header", Static).update(Text("No agent account selected"))
            self.status.clear()
            return
        target = self.connection.target_id
        if target != self.loaded_target:
            # another account: its inbox starts at the first page
            self.loaded_target = target
            self.pager.reset()
            self._fill([], unread=self.pager.query.unread, keep=None)
            self._header()  # the table is empty now: so is the header
            self.pager.ask()
        else:
            self.pager.ask(keep=True)
        self.request()

    async def fetch_page(self, connection: Connection, ask: Ask[InboxQuery]) -> InboxPage:
        return await read_inbox_page(connection.api, ask, connection.target_id)

    def page_items(self, reply: InboxPage) -> tuple[Sequence[InboxRoom], int | None]:
        return reply.rooms, reply.total_rooms

    def show_page(self, page: Page[InboxQuery, InboxRoom], reply: InboxPage) -> None:
        switched = page.query.inbox != self._drawn_inbox
        self._fill(page.items, unread=page.query.unread,
                   keep=self._cursor_spot() if page.ask.keep else None)  # fmt: skip
        self._title()
        if switched:
            other = INBOX_TITLES[other_inbox(page.query.inbox)].lower()
            self.status.info(f"Showing the {page.query.title.lower()} (i: the {other})")
        elif str(self.status.content) or self.status.counts_empty:
            self.status.clear()  # (a clear line is not cleared again: no layout for it)
        self._header()

    def draw_paging(self) -> None:
        self._header()

    # ------------------------------------------------------------------ showing

    def _title(self) -> None:
        """The screen's title names the inbox shown (the one asked for before any)."""
        shown = self.pager.shown
        self._drawn_inbox = (shown.query if shown is not None else self.pager.query).inbox
        self.query_one(ContextBar).set_title(INBOX_TITLES[self._drawn_inbox])

    def _header(self) -> None:
        pager = self.pager
        shown, want = pager.shown, pager.query
        shown_query = shown.query if shown is not None else want
        total = shown.total if shown is not None else 0
        moving = not pager.answered
        text = Text(no_wrap=True, overflow="ellipsis")
        text.append(shown_query.title.split()[0], style="bold")
        text.append(" · ")
        waiting = moving and not total
        if waiting and pager.failed:
            text.append("✗ not loaded (r: retry)", style=FAILED_STRONG)
        else:
            text.append("…" if waiting or shown is None else shown.label, style="bold")
        if shown is not None and total:
            text.append(f" · page {shown.page + 1:,} of {shown.last_page + 1:,}")
        text.append(f" · {pager.size}/page")
        text.append(" · unread only" if want.unread else " · all rooms")
        rooms = len(shown.items) if shown is not None else 0
        text.append(left_out(rooms, "room on this page", "rooms on this page"), style=WARN)
        if moving and want.inbox != shown_query.inbox:
            text.append(f" · → {want.title.lower()}", style="italic")
        elif moving and (pager.page != (shown.page if shown else 0)
                         or want.unread != shown_query.unread):  # fmt: skip
            text.append(f" · → page {pager.page + 1:,}", style="italic")
        # One line, as wide as the screen whatever it says: no layout of the screen.
        self.query_one("#inbox-header", Static).update(text, layout=False)

    @property
    def table(self) -> SafeTable:
        return self.query_one("#inbox-table", SafeTable)

    def _cursor_spot(self) -> Spot:
        """The highlighted room's id and row, to keep the cursor on it across a reload."""
        room = self._current_room()
        return Spot(room.room_id if room else None, self.table.cursor_row)

    def _fill(self, rooms: Sequence[InboxRoom], *, unread: bool, keep: Spot | None) -> None:
        table = self.table
        # the message column takes what the other columns leave
        width = max(16, (table.size.width or self.size.width) - 54)
        with self.app.batch_update():
            table.clear()
            self._rooms = list(rooms[:ROW_CAP])  # a page longer than asked for is cut too
            for index, room in enumerate(self._rooms):
                cells = room_cells(room, unread_filter=unread, width=width)
                table.add_row(*cells, key=room.room_id or f"#{index}")
            if table.row_count:
                # rows shown: all the page's, or those the filter (/) leaves
                row = 0
                if keep is not None:
                    ids = [r.room_id for r in self._rooms]
                    found = keep.key is not None and keep.key in ids
                    at = table.shown_index(ids.index(keep.key)) if found else None
                    row = at if at is not None else min(keep.row, table.row_count - 1)
                table.move_cursor(row=row, column=0, animate=False, scroll=True)
        self._show_detail()

    @property
    def _shown_unread(self) -> bool:
        shown = self.pager.shown
        return shown.query.unread if shown is not None else False

    def _current_room(self) -> InboxRoom | None:
        row = self.table.source_row
        return self._rooms[row] if self.table.row_count and 0 <= row < len(self._rooms) else None

    def _show_detail(self) -> None:
        room = self._current_room()
        compact = not self.has_class("-wide")
        # A page fill shows the detail, then the table says its row is highlighted:
        # the same room, once.
        unread = self._shown_unread
        shown = (id(room), room, unread, compact)
        if shown == self._detail_shown:
            return
        self._detail_shown = shown
        detail = room_detail(room, unread_filter=unread, compact=compact)
        self.query_one("#inbox-detail-text", DetailText).show(detail)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        self._show_detail()

    # ------------------------------------------------------------------ keys

    def page_ready(self) -> bool:
        if not self.connection.is_agent_selected:
            self.status.info(HINT)
            return False
        return self.loaded_target is not _UNSET

    def on_rooms_table_open_room(self, message: RoomsTable.OpenRoom) -> None:
        message.stop()
        self.action_open_room()

    def action_page_size(self) -> None:
        if not self.page_ready():
            return
        sizes = list(PAGE_SIZES)
        current = self.pager.size
        self.pager.ask(size=sizes[(sizes.index(current) + 1) % len(sizes)]
                       if current in sizes else sizes[0])  # fmt: skip
        self.request()

    def action_unread(self) -> None:
        if not self.page_ready():
            return
        self.pager.ask(query=replace(self.pager.query, unread=not self.pager.query.unread))
        self.request()

    async def action_calls(self) -> None:
        await show_calls(self, self.connection.target_id)

    def action_switch_inbox(self) -> None:
        """The other inbox, from its first page (page size and unread filter kept)."""
        if not self.page_ready():
            return
        self.pager.ask(query=replace(self.pager.query, inbox=other_inbox(self.pager.query.inbox)))
        self.request()

    def action_open_room(self) -> None:
        if not self.page_ready():
            return
        room = self._current_room()
        if room is None:
            self.status.info("No room highlighted")
            return
        if not room.room_id:
            self.status.error("This room has no roomId: it cannot be opened", retry_key=None)
            return
        self.app.push_screen(RoomScreen(room, self._drawn_inbox, self.connection.target_id))


class _Unset:
    def __repr__(self) -> str:
        return "<unset>"


_UNSET = _Unset()
