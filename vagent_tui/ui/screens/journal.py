"""Journal: every request that changed the platform, newest first, with filters.

The journal is a local file (`vagent_tui.services.journal`), so this screen works
without a connection. ``c`` copies the highlighted request as a curl command whose
token is ``$VAGENT_TOKEN``; masked secrets stay masked (the status line says so).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterable
from typing import Any, ClassVar

from rich.text import Text
from textual import on, work
from textual.binding import Binding, BindingType
from textual.containers import Container, Horizontal
from textual.widget import Widget
from textual.widgets import DataTable, Input, Select, Static

from vagent_tui.services.journal import Journal, JournalEntry, JournalFilter, to_curl
from vagent_tui.ui.format import NO, YES
from vagent_tui.ui.screens.base import BaseScreen
from vagent_tui.ui.widgets.tables import row_table

_METHODS = [(m, m) for m in ("POST", "PUT", "PATCH", "DELETE")]
_STATUS = [(f"{YES} ok", "ok"), (f"{NO} failed", "failed")]


class JournalScreen(BaseScreen):
    """The journal of changes: table, filters, detail pane, copy as curl."""

    TITLE: ClassVar[str] = "Journal"
    HORIZONTAL_BREAKPOINTS: ClassVar[list[tuple[int, str]]] = [(0, "-narrow"), (110, "-wide")]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("slash", "focus_text", "Filter", id="journal.filter", tooltip="Type to filter"),
        Binding(
            "c", "copy_curl", "Copy curl", id="journal.curl", tooltip="Copy the request as curl"
        ),
        Binding("x", "clear_filters", "Clear", id="journal.clear", tooltip="Clear all filters"),
        Binding("escape", "focus_table", "Table", show=False, id="journal.table", tooltip="Table"),
    ]
    CSS = """
    JournalScreen #journal-filters { height: 1; padding: 0 1; }
    JournalScreen #journal-filters Select { width: 1fr; margin-right: 1; }
    JournalScreen #journal-text { width: 2fr; margin-right: 1; }
    JournalScreen #journal-count { width: auto; color: $text-muted; }
    JournalScreen #journal-body { layout: horizontal; height: 1fr; }
    JournalScreen #journal-table { height: 1fr; width: 1fr; }
    JournalScreen #journal-detail {
        width: 44; height: 1fr; padding: 0 1;
        border-left: solid $primary; overflow-y: auto;
    }
    JournalScreen.-narrow #journal-body { layout: vertical; }
    JournalScreen.-narrow #journal-detail {
        width: 1fr; height: auto; max-height: 8;
        border-left: none; border-top: solid $primary;
    }
    JournalScreen #journal-empty { display: none; padding: 1 2; color: $text-muted; }
    JournalScreen.-empty #journal-empty { display: block; }
    JournalScreen.-empty #journal-body { display: none; }
    """

    def __init__(self) -> None:
        super().__init__()
        self.entries: list[JournalEntry] = []
        self.shown: list[JournalEntry] = []

    @property
    def journal(self) -> Journal:
        return self.vapp.journal

    # ------------------------------------------------------------------ layout

    def compose_body(self) -> Iterable[Widget]:
        with Horizontal(id="journal-filters"):
            text = Input(
                placeholder="/ filter: path, message, body…", id="journal-text", compact=True
            )
            text.cursor_blink = False
            yield text
            yield Select(_METHODS, prompt="Method: any", id="journal-method", compact=True)
            yield Select(_STATUS, prompt="Status: any", id="journal-status", compact=True)
            yield Select([], prompt="Profile: any", id="journal-profile", compact=True)
            yield Static("", id="journal-count", markup=False)
        with Container(id="journal-body"):
            yield row_table(
                "journal-table",
                (
                    ("Time (UTC)", "time"),
                    ("Method", "method"),
                    ("Path", "path"),
                    ("Target", "target"),
                    ("Status", "status"),
                    ("Message", "message"),
                    ("Profile", "profile"),
                ),
            )
            yield Static("", id="journal-detail")
        yield Static("", id="journal-empty", markup=False)

    @property
    def table(self) -> DataTable[Any]:
        return self.query_one("#journal-table", DataTable)

    def on_mount(self) -> None:
        super().on_mount()
        self.journal.listeners.append(self._recorded)
        self.table.focus()
        self.reload()

    def on_unmount(self) -> None:
        if self._recorded in self.journal.listeners:
            self.journal.listeners.remove(self._recorded)

    def on_screen_resume(self) -> None:
        self.reload()  # a local file: always fresh when shown

    def _maybe_reload(self) -> None:
        """The journal does not depend on the connection or the target."""

    def action_reload(self) -> None:
        self.reload()

    def _recorded(self, _entry: JournalEntry) -> None:
        if self.is_current:
            self.reload()

    # ------------------------------------------------------------------ loading

    def reload(self) -> None:
        self.load_entries()

    @work(exclusive=True, group="journal-load", exit_on_error=False)
    async def load_entries(self) -> None:
        self.status.loading("Reading the journal")
        try:
            entries = await asyncio.to_thread(self.journal.read)
        except OSError as exc:
            self.status.error(f"The journal could not be read ({self.journal.path}): {exc}")
            return
        entries.reverse()  # newest first
        self.entries = entries
        self._set_profiles(entries)
        self.apply_filters()
        if self.journal.error:
            self.status.error(self.journal.error, retry_key=None)
        else:
            plural = "" if len(entries) == 1 else "s"
            self.status.ok(f"{len(entries)} change{plural} journaled (vagent-tui info: where)")

    def _set_profiles(self, entries: list[JournalEntry]) -> None:
        select: Select[str] = self.query_one("#journal-profile", Select)
        current = select.value
        profiles = sorted({e.profile for e in entries})
        with select.prevent(Select.Changed):
            select.set_options([(p, p) for p in profiles])
            if current in profiles:
                select.value = current

    # ------------------------------------------------------------------ filtering

    def current_filter(self) -> JournalFilter:
        def value(selector: str) -> str:
            chosen = self.query_one(selector, Select).value
            return chosen if isinstance(chosen, str) else ""

        return JournalFilter(
            text=self.query_one("#journal-text", Input).value.strip(),
            method=value("#journal-method"),
            status=value("#journal-status"),
            profile=value("#journal-profile"),
        )

    @on(Input.Changed, "#journal-text")
    @on(Select.Changed)
    def _filters_changed(self) -> None:
        self.apply_filters()

    def apply_filters(self) -> None:
        flt = self.current_filter()
        table = self.table
        keep = self.highlighted
        shown = [e for e in self.entries if flt.matches(e)]
        self.shown = shown
        with self.app.batch_update():
            table.clear()
            for index, entry in enumerate(shown):
                table.add_row(*_row(entry), key=str(index))
            if keep in shown:
                table.move_cursor(row=shown.index(keep), animate=False)
        self.set_class(not self.entries, "-empty")
        self.query_one("#journal-empty", Static).update(
            "No change journaled yet: every request that changes the platform "
            "(create, delete, save…) is written to journal.jsonl in the state folder "
            "(vagent-tui info shows where)."
        )
        self.query_one("#journal-count", Static).update(f"{len(shown)}/{len(self.entries)}")
        self.show_detail()

    @property
    def highlighted(self) -> JournalEntry | None:
        row = self.table.cursor_row
        if not self.shown or not 0 <= row < len(self.shown):
            return None
        return self.shown[row]

    @on(DataTable.RowHighlighted, "#journal-table")
    def _row_moved(self) -> None:
        self.show_detail()

    def show_detail(self) -> None:
        detail = self.query_one("#journal-detail", Static)
        entry = self.highlighted
        detail.update(entry_detail(entry) if entry else Text("No entry matches the filters."))

    # ------------------------------------------------------------------ actions

    def action_copy_curl(self) -> None:
        entry = self.highlighted
        if entry is None:
            self.status.info("No entry highlighted: nothing to copy")
            return
        command, note = to_curl(entry)
        self.vapp.copy_text(command, "the curl command")
        self.status.ok(
            "Copied as curl (token as $VAGENT_TOKEN, base URL as $VAGENT_BASE_URL)"
            + (f". {note}" if note else "")
        )

    def action_focus_text(self) -> None:
        self.query_one("#journal-text", Input).focus()

    def action_focus_table(self) -> None:
        self.table.focus()

    def action_clear_filters(self) -> None:
        with self.prevent(Input.Changed, Select.Changed):
            self.query_one("#journal-text", Input).value = ""
            for selector in ("#journal-method", "#journal-status", "#journal-profile"):
                self.query_one(selector, Select).clear()
        self.apply_filters()
        self.table.focus()


def _row(entry: JournalEntry) -> list[Text]:
    moment = entry.moment
    when = moment.strftime("%m-%d %H:%M:%S") if moment else entry.time[:14]
    if entry.status is None:
        status = Text(f"{NO} none", style="red")
    elif entry.ok:
        status = Text(f"{YES} {entry.status}", style="green")
    else:
        status = Text(f"{NO} {entry.status}", style="red")
    path = entry.path.removeprefix("/api/v2")
    return [
        Text(when),
        Text(entry.method, style="bold"),
        Text(path),
        Text(str(entry.target) if entry.target is not None else "—"),
        status,
        Text(entry.message or "—"),
        Text(entry.profile),
    ]


def entry_detail(entry: JournalEntry) -> Text:
    """The detail pane: everything journaled, the body pretty-printed (masked)."""
    out = Text()
    out.append(f"{entry.method} ", style="bold")
    out.append(entry.path + "\n")
    if entry.status is None:
        out.append(f"{NO} no reply", style="red")
    elif entry.ok:
        out.append(f"{YES} {entry.status}", style="green")
    else:
        out.append(f"{NO} {entry.status}", style="red")
    out.append(f"  {entry.message or '—'}\n")
    target = str(entry.target) if entry.target is not None else "— (key owner or in the path)"
    moment = entry.moment
    when = moment.strftime("%Y-%m-%d %H:%M:%S UTC") if moment else entry.time
    out.append(f"target {target} · profile {entry.profile}\n", style="dim")
    out.append(f"{when} · {entry.elapsed_ms} ms\n", style="dim")
    out.append("Body", style="bold")
    if entry.body is None:
        out.append(": none\n")
    else:
        out.append(" (secrets masked):\n" if entry.has_masked else ":\n")
        out.append(json.dumps(entry.body, indent=2, ensure_ascii=False) + "\n")
    out.append("c copies it as curl", style="dim")
    return out
