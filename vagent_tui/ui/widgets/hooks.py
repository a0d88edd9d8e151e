"""The destinations pane of the webhooks screen: a keyed table and the full URL.

Below ``-wide`` the URL is cut in the middle in its cell and shown whole under the
table, and the added date loses its time, so the four columns fit 80 columns.
"""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import DataTable, Static

from vagent_tui.api.models import Webhook
from vagent_tui.ui.caps import ROW_CAP
from vagent_tui.ui.css import stylesheet
from vagent_tui.ui.format import fmt_datetime, plain
from vagent_tui.ui.text import safe
from vagent_tui.ui.widgets.tables import SafeTable, place_cursor, row_table


def shorten(text: str, room: int | None) -> str:
    """``text`` cut in the middle to ``room`` characters (None: as is)."""
    if room is None or len(text) <= room:
        return text
    head = (room - 1) // 2
    return text[:head] + "…" + text[len(text) - (room - 1 - head) :]


class HookPane(Vertical):
    """Webhook destinations: url, label, type, added; keyed by url."""

    DEFAULT_CSS = stylesheet(__file__)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.hooks: list[Webhook] = []

    def compose(self) -> ComposeResult:
        columns = (("URL", "url"), ("Label", "label"), ("Type", "type"), ("Added", "added"))
        yield row_table("hooks-table", columns)
        yield Static("", id="hook-detail", markup=False)

    @property
    def table(self) -> SafeTable:
        return self.query_one("#hooks-table", SafeTable)

    def show(self, hooks: list[Webhook], highlight: str | None = None) -> None:
        """Replace the rows; the cursor goes to ``highlight`` or stays where it was."""
        table = self.table
        current = self.highlighted
        keep = highlight or (current.url if current else None)
        row = table.cursor_row
        self.hooks = hooks[:ROW_CAP]  # the screen's count says how many more
        hooks = self.hooks
        room = None if self.has_class("-wide") else max(20, self.size.width - 52)
        with self.app.batch_update():
            table.clear()
            for hook in hooks:
                cells = (shorten(hook.url, room), plain(hook.label), plain(hook.type))
                added = Text(fmt_datetime(hook.added_at))
                if room is not None and hook.added_at is not None:
                    added = Text(hook.added_at.strftime("%Y-%m-%d"))
                table.add_row(*(safe(c) for c in cells), added, key=hook.url)
            place_cursor(table, [h.url for h in hooks], keep, row)
        self.show_detail()

    @property
    def highlighted(self) -> Webhook | None:
        row = self.table.source_row
        return self.hooks[row] if self.hooks and 0 <= row < len(self.hooks) else None

    @on(DataTable.RowHighlighted, "#hooks-table")
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        self.show_detail()

    def show_detail(self) -> None:
        hook = self.highlighted
        text = safe(hook.url, style="bold") if hook else Text("No destination.", style="dim")
        self.query_one("#hook-detail", Static).update(text)
