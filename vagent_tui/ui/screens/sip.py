"""SIP whitelist: the addresses allowed to send SIP traffic for the target account.

``a`` opens the add form (IPv4/IPv6 checked before sending); ``d`` removes the
highlighted address after a confirmation whose default is cancel. The list is keyed by
IP, so after an add or a removal the cursor lands on the row that matters.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from rich.text import Text
from textual import work
from textual.binding import BindingType
from textual.widget import Widget
from textual.widgets import Static

from vagent_tui.api.errors import ApiError, PlatformError
from vagent_tui.api.models import SipEntry, SipEntryRequest
from vagent_tui.ui.caps import ROW_CAP, left_out
from vagent_tui.ui.dialogs import ConfirmModal
from vagent_tui.ui.format import fmt_datetime, plain
from vagent_tui.ui.safety import DESTRUCTIVE, WRITES, Key
from vagent_tui.ui.screens.base import BaseScreen, who_of
from vagent_tui.ui.text import safe
from vagent_tui.ui.widgets.entry_forms import SipEntryForm
from vagent_tui.ui.widgets.status import describe_error, outcome_unknown
from vagent_tui.ui.widgets.table_filter import filter_binding
from vagent_tui.ui.widgets.tables import SafeTable, place_cursor, row_table


class SipScreen(BaseScreen):
    """The SIP IP whitelist of the acting account: list, add, remove."""

    TITLE: ClassVar[str] = "SIP whitelist"
    BINDINGS: ClassVar[list[BindingType]] = [
        Key(
            "a",
            "add",
            "Add",
            id="sip.add",
            tooltip="Add an IP address to the whitelist",
            does=WRITES,
        ),
        Key(
            "d",
            "delete",
            "Remove",
            id="sip.remove",
            tooltip="Remove the highlighted address",
            does=DESTRUCTIVE,
        ),
        filter_binding("sip"),  # last: the footer drops it first
    ]
    CSS_PATH = "sip.tcss"

    def __init__(self) -> None:
        super().__init__()
        self.entries: list[SipEntry] = []

    # ------------------------------------------------------------------ layout

    def compose_body(self) -> Iterable[Widget]:
        yield Static("", id="sip-header", markup=False)
        yield row_table("sip-table", (("IP address", "ip"), ("Label", "label"), ("Added", "added")))
        yield Static(
            "No address is whitelisted: SIP traffic from anywhere is refused. Press a to add one.",
            id="sip-empty",
            markup=False,
        )

    @property
    def table(self) -> SafeTable:
        return self.query_one("#sip-table", SafeTable)

    def on_mount(self) -> None:
        self.table.focus()

    # ------------------------------------------------------------------ loading

    def reload(self) -> None:
        self.load_entries()

    @work(exclusive=True, group="sip-load", exit_on_error=False)
    async def load_entries(self, highlight: str | None = None, *, quiet: bool = False) -> None:
        """Fetch the list; ``quiet`` leaves the status line to the action that asked."""
        if not quiet:
            self.status.busy("Loading the SIP whitelist")
        ok, entries = await self.load(
            lambda c: c.api.list_sip_whitelist(target=c.target_id), busy=self.table
        )
        if not ok or entries is None:
            return
        self.show_entries(entries, highlight)
        if not quiet:
            more = left_out(len(entries), "addresses")
            self.status.ok(
                f"{len(entries)} whitelisted addresses for {who_of(self, with_id=True)}{more}"
            )

    def show_entries(self, entries: list[SipEntry], highlight: str | None = None) -> None:
        table = self.table
        keep = highlight or (self.highlighted.ip if self.highlighted else None)
        row = table.cursor_row
        self.entries = entries = entries[:ROW_CAP]  # the status line says how many more
        with self.app.batch_update():
            table.clear()
            for entry in entries:
                table.add_row(
                    Text(entry.ip, style="bold"),
                    Text(plain(entry.label)),
                    Text(fmt_datetime(entry.added_at)),
                    key=entry.ip,
                )
            place_cursor(table, [e.ip for e in entries], keep, row)
        self.set_class(not entries, "-empty")
        plural = "" if len(entries) == 1 else "es"
        who = who_of(self, with_id=True)
        self.query_one("#sip-header", Static).update(
            safe(f"{len(entries)} address{plural} allowed to send SIP traffic for {who}")
        )

    @property
    def highlighted(self) -> SipEntry | None:
        row = self.table.source_row
        if not self.entries or not 0 <= row < len(self.entries):
            return None
        return self.entries[row]

    # ------------------------------------------------------------------ add

    def action_add(self) -> None:
        target = self.connection.target_id

        async def send(request: SipEntryRequest) -> str:
            reply = await self.connection.api.add_sip_entry(
                request.ip, request.label, target=target
            )
            return reply.message or "IP entry created"

        def done(result: tuple[SipEntryRequest, str] | None) -> None:
            if result is None or target != self.connection.target_id:
                return
            request, message = result
            self.status.ok(f"{message}: {request.ip}")
            self.load_entries(request.ip, quiet=True)

        form = SipEntryForm(
            send,
            subtitle=f"For {who_of(self, with_id=True)}",
            after_unknown=lambda: self.load_entries(quiet=True),
        )
        self.app.push_screen(form, done)

    # ------------------------------------------------------------------ remove

    def action_delete(self) -> None:
        entry = self.highlighted
        if entry is None:
            self.status.info("No address highlighted: nothing to remove")
            return
        label = f" ({entry.label})" if entry.label else " (no label)"
        body = (
            f"Remove {entry.ip}{label} from the SIP whitelist of {who_of(self, with_id=True)}?\n"
            "SIP traffic from this address will be refused."
        )

        def confirmed(yes: bool | None) -> None:
            if yes:
                self.remove_entry(entry)

        self.app.push_screen(
            ConfirmModal("Remove a whitelisted address", body, confirm_label="Remove"), confirmed
        )

    @work(group="write-sip-remove", exit_on_error=False)
    async def remove_entry(self, entry: SipEntry) -> None:
        if self.busy_writing():
            return
        target = self.connection.target_id
        self.status.busy(f"Removing {entry.ip}")
        try:
            reply = await self.connection.api.delete_sip_entry(entry.ip, target=target)
        except ApiError as exc:
            if target != self.connection.target_id:
                return
            if exc.status == 404:
                self.status.error(
                    f"{describe_error(exc)} — {entry.ip} was already gone; the list is refreshed",
                    retry_key=None,
                )
                self.load_entries(quiet=True)
            else:
                self.status.error(
                    f"Could not remove {entry.ip}: {describe_error(exc)}", retry_key="d"
                )
            return
        except PlatformError as exc:
            if target == self.connection.target_id:
                unsure = outcome_unknown(exc)
                self.status.error(
                    f"Could not remove {entry.ip}: {describe_error(exc)}",
                    retry_key=None if unsure else "d",
                )
                if unsure:
                    self.load_entries(quiet=True)  # show whether it is gone
            return
        if target != self.connection.target_id:
            return
        self.status.ok(f"{reply.message or 'IP entry deleted'}: {entry.ip}")
        self.load_entries(quiet=True)
