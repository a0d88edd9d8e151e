"""One room of an inbox: its messages (``GET /messages/{roomId}``), newest first.

The platform sends a room's messages all at once and publishes no paging of them, so
they are read once and paged here (`vagent_tui.services.inbox.RoomThread`): turning a
page sends nothing. The screen is pushed over the inbox by Enter on a room; esc comes
back to the inbox as it was. The room belongs to the account acting when it was opened:
if the target account changes, the room closes.

Every text is shown inert; attachment addresses are text, never links (see
`vagent_tui.ui.widgets.room_messages`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from rich.text import Text
from textual import work
from textual.binding import Binding, BindingType
from textual.containers import Container, VerticalScroll
from textual.widget import Widget
from textual.widgets import DataTable, Static

from vagent_tui.api.errors import PlatformError
from vagent_tui.api.models import InboxRoom, RoomMessage
from vagent_tui.services.inbox import INBOX_TITLES, Inbox, RoomThread, read_room
from vagent_tui.ui.colours import FAILED_STRONG
from vagent_tui.ui.screens.paging import PagedScreen, page_keys
from vagent_tui.ui.text import inert, safe
from vagent_tui.ui.widgets.context_bar import ContextBar
from vagent_tui.ui.widgets.inbox_rows import room_name
from vagent_tui.ui.widgets.room_messages import message_cells, message_detail, when
from vagent_tui.ui.widgets.table_filter import filter_binding
from vagent_tui.ui.widgets.tables import SafeTable, row_table

"""From this width the detail pane sits beside the table, below it otherwise."""


class RoomScreen(PagedScreen):
    """The messages of one room, paged here."""

    TITLE = "Room"
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (140, "-wide")]
    FILTER_PLACEHOLDER = "/ filter the messages of this page only (the server pages them)"
    CSS_PATH = "room.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back", id="room.back", tooltip="Back to the inbox"),
        *page_keys(
            "room",
            next_tip="Next page (newer → older)",
            first_tip="Newest messages",
            last_tip="Oldest messages",
        ),
        Binding(
            "y",
            "copy_links",
            "Copy links",
            id="room.copy-links",
            tooltip="Copy the addresses of the highlighted message's attachments",
        ),
        filter_binding("room"),  # last: the footer drops it first
    ]

    def __init__(self, room: InboxRoom, inbox: Inbox, target: int | None) -> None:
        super().__init__()
        self.room = room
        self.room_id = room.room_id or ""
        self.inbox = inbox
        self.target = target
        """The account the room belongs to: the one acting when it was opened."""
        self.thread: RoomThread | None = None
        self._failed = False

    def compose_body(self) -> Iterable[Widget]:
        yield Static("", id="room-header", markup=False)
        with Container(id="room-body"):
            yield row_table(
                "room-table",
                (
                    ("When (UTC)", "when"),
                    ("From", "from"),
                    ("Delivery", "status"),
                    ("Source", "source"),
                    ("Att", "attachments"),
                    ("Message", "message"),
                ),
            )
            with VerticalScroll(id="room-detail"):
                yield Static(message_detail(None), id="room-detail-text", markup=False)

    def on_mount(self) -> None:
        self.query_one(ContextBar).set_title(f"{INBOX_TITLES[self.inbox]} › room")
        self.table.focus()
        self.apply_breakpoints()
        self._header()

    @property
    def table(self) -> SafeTable:
        return self.query_one("#room-table", SafeTable)

    # ------------------------------------------------------------------ loading

    def reload(self) -> None:
        if self.connection.target_id != self.target:
            # Another account acts now: this room is not one of its rooms.
            self.app.pop_screen()
            self.notify("The acting account changed: the room was closed.", markup=False)
            return
        self._load()

    @work(exclusive=True, group="room-load", exit_on_error=False)
    async def _load(self) -> None:
        self._failed = False
        self._header()

        def failed(exc: PlatformError) -> None:
            self._failed = True
            self.status.error(exc)
            self._header()

        room_id = self.room_id
        ok, thread = await self.load(
            lambda c: read_room(c.api, room_id, c.target_id),
            note="Loading the messages",
            busy=self.table,
            on_error=failed,
        )
        if not ok or thread is None:
            return
        if self.thread is not None:
            thread.goto(self.thread.page)  # a reload keeps the page
        self.thread = thread
        self._fill(keep=self.table.cursor_row if self.table.row_count else 0)
        if thread.total:
            self.status.clear()
        else:
            self.status.info("This room has no messages")

    def load_failed(self, error: BaseException, group: str = "") -> None:
        super().load_failed(error, group)
        if group == "room-load":
            self._failed = True
            self._header()

    # ------------------------------------------------------------------ showing

    def _header(self) -> None:
        text = Text(no_wrap=True, overflow="ellipsis")
        text.append_text(room_name(self.room))
        text.append(" · ")
        text.append_text(safe(self.room_id, "dim"))
        thread = self.thread
        if thread is None:
            failed = self._failed
            text.append(
                " · ✗ not loaded (r: retry)" if failed else " · …", FAILED_STRONG if failed else ""
            )
        else:
            text.append(f" · {thread.label} messages", style="bold")
            if thread.total:
                text.append(f" · page {thread.page + 1:,} of {thread.last_page + 1:,}")
            text.append(" · newest first")
        self.query_one("#room-header", Static).update(text)

    def _fill(self, *, keep: int = 0) -> None:
        thread = self.thread
        table = self.table
        # The message column takes what the others leave; a narrow terminal cuts names more.
        room = table.size.width or self.size.width
        sender = 14 if room < 100 else 18
        times = [len(when(m.sent_at)) for m in (thread.shown if thread else [])]
        width = max(16, room - 35 - sender - max([10, *times]))
        with self.app.batch_update():
            table.clear()
            for index, message in enumerate(thread.shown if thread else []):
                key = f"{thread.page if thread else 0}:{index}"
                cells = message_cells(message, width=width, sender_width=sender)
                table.add_row(*cells, key=key)
            if table.row_count:
                row = min(keep, table.row_count - 1)
                table.move_cursor(row=row, column=0, animate=False, scroll=True)
        self._show_detail()
        self._header()

    def _current(self) -> RoomMessage | None:
        thread = self.thread
        if thread is None or not self.table.row_count:
            return None
        shown = thread.shown
        row = self.table.source_row
        return shown[row] if 0 <= row < len(shown) else None

    def _show_detail(self) -> None:
        self.query_one("#room-detail-text", Static).update(message_detail(self._current()))
        self.query_one("#room-detail", VerticalScroll).scroll_home(animate=False)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        self._show_detail()

    # ------------------------------------------------------------------ keys

    def action_back(self) -> None:
        self.app.pop_screen()

    def page_now(self) -> int:
        return self.thread.page if self.thread else 0

    def last_page(self) -> int | None:
        return self.thread.last_page if self.thread else 0

    def go_to_page(self, page: int) -> None:
        thread = self.thread
        if thread is None:
            self.status.info("The messages are not loaded yet")
            return
        before = thread.page
        if thread.goto(page) == before:
            self.status.info(f"Already on the {'first' if before == 0 else 'last'} page")
            return
        self.status.clear()
        self._fill()

    def action_copy_links(self) -> None:
        message = self._current()
        links = message.links if message is not None else []
        if not links:
            self.status.info("The highlighted message has no attachments")
            return
        # Inert even in the clipboard: a control character in an address would act when
        # the copy is pasted into a terminal.
        self.vapp.copy_text("\n".join(inert(link) for link in links), "attachment links")
