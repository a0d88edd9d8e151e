"""Journal: every request that changed the platform, newest first, with filters.

The journal is a local file (`vagent_tui.services.journal`), so this screen works
without a connection. It shows one page of `PAGE_SIZE` entries at a time, read from the
end of the file (``n`` older, ``p`` newer, ``g`` newest), so it opens at once however
long the journal is; the filters apply to the page shown. Everything shown is inert:
the file is outside text (anyone may edit it). ``y`` copies the highlighted request as
a curl command whose token is ``$VAGENT_TOKEN``; masked secrets stay masked (the status
line says so).
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

from vagent_tui.inert import inert
from vagent_tui.services.journal import Journal, JournalEntry, JournalFilter, to_curl
from vagent_tui.ui.colours import FAILED, OK
from vagent_tui.ui.format import NO, YES
from vagent_tui.ui.screens.paging import PagedScreen
from vagent_tui.ui.text import safe
from vagent_tui.ui.widgets.tables import row_table
from vagent_tui.words import counted

PAGE_SIZE = 500
_METHODS = [(m, m) for m in ("POST", "PUT", "PATCH", "DELETE")]
_STATUS = [(f"{YES} ok", "ok"), (f"{NO} failed", "failed")]


class JournalScreen(PagedScreen):
    """The journal of changes: table, filters, detail pane, copy as curl."""

    TITLE: ClassVar[str] = "Journal"
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (110, "-wide")]
    VERTICAL_BREAKPOINTS = [(0, "-short"), (20, "-tall")]  # -short: the detail gives way
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("slash", "focus_text", "Filter", id="journal.filter", tooltip="Type to filter"),
        Binding(
            "y", "copy_curl", "Copy curl", id="journal.curl", tooltip="Copy the request as curl"
        ),
        Binding("x", "clear_filters", "Clear", id="journal.clear", tooltip="Clear all filters"),
        Binding("n", "next_page", "Older", id="journal.older", tooltip="The next page: older"),
        Binding("p", "prev_page", "Newer", id="journal.newer", tooltip="The page before: newer"),
        Binding("g,home", "first_page", "Newest", id="journal.newest", tooltip="The newest page"),
        Binding("escape", "focus_table", "Table", show=False, id="journal.table", tooltip="Table"),
    ]
    CSS_PATH = "journal.tcss"

    def __init__(self) -> None:
        super().__init__()
        self.entries: list[JournalEntry] = []
        self.shown: list[JournalEntry] = []
        self.page = 0
        self.has_older = False

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
            yield Static("", id="journal-detail", markup=False)
        yield Static("", id="journal-empty", markup=False)

    @property
    def table(self) -> DataTable[Any]:
        return self.query_one("#journal-table", DataTable)

    def on_mount(self) -> None:
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
        self.status.busy("Reading the journal")
        try:
            page = await asyncio.to_thread(self.journal.read_page, self.page, PAGE_SIZE)
        except OSError as exc:
            self.status.error(f"The journal could not be read ({self.journal.path}): {exc}")
            return
        if not page.entries and self.page > 0:
            self.page = 0  # the journal rotated under this page: back to the newest
            self.reload()
            return
        self.entries = page.entries  # newest first
        self.has_older = page.has_older
        self._set_profiles(self.entries)
        self.apply_filters()
        if self.journal.error:
            self.status.error(self.journal.error, retry_key=None)
            return
        where = f"page {self.page + 1}" + (" · n: older" if self.has_older else "")
        where += " · p: newer" if self.page else ""
        skipped = (
            f" · {counted(page.unreadable, 'unreadable line')} skipped" if page.unreadable else ""
        )
        self.status.ok(f"{counted(len(self.entries), 'change')} on {where}{skipped}")

    def page_now(self) -> int:
        return self.page

    def last_page(self) -> int | None:
        return None  # read from the newest end: how many pages there are is not counted

    def go_to_page(self, page: int) -> None:
        if (page > self.page and not self.has_older) or page < 0:
            self.status.info("No older page" if page > self.page else "This is the newest page")
            return
        self.page = page
        self.reload()

    def _set_profiles(self, entries: list[JournalEntry]) -> None:
        select: Select[str] = self.query_one("#journal-profile", Select)
        current = select.value
        profiles = sorted({e.profile for e in entries})
        with select.prevent(Select.Changed):
            select.set_options([(safe(p), p) for p in profiles])
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
        self.query_one("#journal-count", Static).update(
            f"{len(shown)}/{len(self.entries)} on page {self.page + 1}"
        )
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
        status = Text(f"{NO} none", style=FAILED)
    elif entry.ok:
        status = Text(f"{YES} {inert(entry.status)}", style=OK)
    else:
        status = Text(f"{NO} {inert(entry.status)}", style=FAILED)
    path = entry.path.removeprefix("/api/v2")
    return [
        safe(when),
        safe(entry.method, style="bold"),
        safe(path),
        Text(inert(entry.target) if entry.target is not None else "—"),
        status,
        safe(entry.message or "—"),
        safe(entry.profile),
    ]


def entry_detail(entry: JournalEntry) -> Text:
    """The detail pane: everything journaled, the body pretty-printed (masked)."""
    out = Text()
    out.append(f"{inert(entry.method)} ", style="bold")
    out.append(inert(entry.path) + "\n")
    if entry.status is None:
        out.append(f"{NO} no reply", style=FAILED)
    elif entry.ok:
        out.append(f"{YES} {inert(entry.status)}", style=OK)
    else:
        out.append(f"{NO} {inert(entry.status)}", style=FAILED)
    out.append(f"  {inert(entry.message or '—')}\n")
    target = "— (key owner or in the path)"
    if entry.target is not None:
        target = str(entry.target)
        if entry.target_param != "targetAccountId":
            target += f" ({entry.target_param})"
    moment = entry.moment
    when = moment.strftime("%Y-%m-%d %H:%M:%S UTC") if moment else entry.time
    out.append(f"target {inert(target)} · profile {inert(entry.profile)}\n", style="dim")
    out.append(f"{inert(when)} · {inert(entry.elapsed_ms)} ms\n", style="dim")
    out.append("Body", style="bold")
    if entry.body is None:
        out.append(": none\n")
    else:
        out.append(" (secrets masked):\n" if entry.has_masked else ":\n")
        body = json.dumps(entry.body, indent=2, ensure_ascii=False)
        out.append(inert(body, multiline=True) + "\n")
    out.append("y copies it as curl", style="dim")
    return out
