"""The destinations pane of the webhooks screen: a keyed table and the full URL.

Below ``-wide`` the URL is cut in the middle in its cell and shown whole under the
table, and the added date loses its time, so the four columns fit 80 columns.
"""

from __future__ import annotations

from typing import cast

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from vagent_tui.api.models import Webhook
from vagent_tui.ui.caps import ROW_CAP
from vagent_tui.ui.css import stylesheet
from vagent_tui.ui.format import fmt_datetime, plain
from vagent_tui.ui.text import safe
from vagent_tui.ui.widgets.record_table import RecordTable, record_table


def shorten(text: str, room: int | None) -> str:
    """``text`` cut in the middle to ``room`` characters (None: as is)."""
    if room is None or len(text) <= room:
        return text
    head = (room - 1) // 2
    return text[:head] + "…" + text[len(text) - (room - 1 - head) :]


class HookPane(Vertical):
    """Webhook destinations: url, label, type, added; keyed by url."""

    DEFAULT_CSS = stylesheet(__file__)

    def compose(self) -> ComposeResult:
        columns = (("URL", "url"), ("Label", "label"), ("Type", "type"), ("Added", "added"))
        yield record_table("hooks-table", columns, key=lambda hook: hook.url)
        yield Static("", id="hook-detail", markup=False)

    @property
    def table(self) -> RecordTable[Webhook]:
        return cast("RecordTable[Webhook]", self.query_one("#hooks-table", RecordTable))

    @property
    def hooks(self) -> list[Webhook]:
        return self.table.records

    def show(self, hooks: list[Webhook], highlight: str | None = None) -> None:
        """Replace the rows; the cursor goes to ``highlight`` or stays where it was."""
        room = None if self.has_class("-wide") else max(20, self.size.width - 52)

        def cells(hook: Webhook) -> list[Text]:
            added = Text(fmt_datetime(hook.added_at))
            if room is not None and hook.added_at is not None:
                added = Text(hook.added_at.strftime("%Y-%m-%d"))
            texts = (shorten(hook.url, room), plain(hook.label), plain(hook.type))
            return [*(safe(c) for c in texts), added]

        # the screen's count says how many more than ROW_CAP
        self.table.show(hooks[:ROW_CAP], cells, keep=highlight)
        self.show_detail()

    @property
    def highlighted(self) -> Webhook | None:
        return self.table.highlighted_record

    @on(RecordTable.Highlighted, "#hooks-table")
    def _highlighted(self, event: RecordTable.Highlighted) -> None:
        event.stop()
        self.show_detail()

    def show_detail(self) -> None:
        hook = self.highlighted
        text = safe(hook.url, style="bold") if hook else Text("No destination.", style="dim")
        self.query_one("#hook-detail", Static).update(text)
