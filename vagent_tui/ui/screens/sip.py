"""SIP whitelist: the addresses allowed to send SIP traffic for the target account.

``a`` opens the add form (IPv4/IPv6 checked before sending); ``d`` removes the
highlighted address after a confirmation whose default is cancel. The list is keyed by
IP, so after an add or a removal the cursor lands on the row that matters.
"""

from __future__ import annotations

from collections.abc import Awaitable, Iterable
from typing import ClassVar, cast

from rich.text import Text
from textual import work
from textual.binding import BindingType
from textual.widget import Widget
from textual.widgets import Static

from vagent_tui.api.models import Envelope, SipEntry, SipEntryRequest
from vagent_tui.services.session import Connection
from vagent_tui.ui.caps import ROW_CAP, left_out
from vagent_tui.ui.dialogs import ConfirmModal
from vagent_tui.ui.format import fmt_datetime, plain
from vagent_tui.ui.safety import DESTRUCTIVE, WRITES, Key
from vagent_tui.ui.screens.base import BaseScreen, who_of
from vagent_tui.ui.text import safe
from vagent_tui.ui.widgets.entry_forms import SipEntryForm
from vagent_tui.ui.widgets.record_table import RecordTable, record_table
from vagent_tui.ui.widgets.status import describe_error
from vagent_tui.ui.widgets.table_filter import filter_binding
from vagent_tui.ui.writes import Write, Written, listed
from vagent_tui.words import counted


class SipScreen(BaseScreen):
    """The SIP IP whitelist of the acting account: list, add, remove."""

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

    # ------------------------------------------------------------------ layout

    def compose_body(self) -> Iterable[Widget]:
        yield Static("", id="sip-header", markup=False)
        yield record_table(
            "sip-table",
            (("IP address", "ip"), ("Label", "label"), ("Added", "added")),
            key=lambda entry: entry.ip,
        )
        yield Static(
            "No address is whitelisted: SIP traffic from anywhere is refused. Press a to add one.",
            id="sip-empty",
            markup=False,
        )

    @property
    def table(self) -> RecordTable[SipEntry]:
        return cast("RecordTable[SipEntry]", self.query_one("#sip-table", RecordTable))

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
            more, who = left_out(len(entries), "address"), who_of(self, with_id=True)
            self.status.ok(f"{counted(len(entries), 'whitelisted address')} for {who}{more}")

    def show_entries(self, entries: list[SipEntry], highlight: str | None = None) -> None:
        shown = entries[:ROW_CAP]  # the status line says how many more
        self.table.show(shown, entry_cells, keep=highlight)
        self.set_class(not shown, "-empty")
        who = who_of(self, with_id=True)
        self.query_one("#sip-header", Static).update(
            safe(f"{counted(len(shown), 'address')} allowed to send SIP traffic for {who}")
        )

    @property
    def entries(self) -> list[SipEntry]:
        return self.table.records

    @property
    def highlighted(self) -> SipEntry | None:
        return self.table.highlighted_record

    # ------------------------------------------------------------------ add

    def action_add(self) -> None:
        async def send(c: Connection, request: SipEntryRequest) -> str:
            reply = await c.api.add_sip_entry(request.ip, request.label, target=c.target_id)
            return reply.message or "IP entry created"

        def read_back(c: Connection, request: SipEntryRequest) -> Awaitable[str]:
            ip = request.ip
            return listed(
                c.api.list_sip_whitelist(target=c.target_id), lambda e: e.ip == ip,
                present=f"{ip} is whitelisted now.", absent=f"{ip} is not whitelisted.",
            )  # fmt: skip

        target = self.connection.target_id

        def done(result: tuple[SipEntryRequest, str] | None) -> None:
            if result is None or target != self.connection.target_id:
                return
            request, message = result
            self.status.ok(f"{message}: {request.ip}")
            self.load_entries(request.ip, quiet=True)

        form = SipEntryForm(
            send, subtitle=f"For {who_of(self, with_id=True)}", read_back=read_back,
            after_unknown=lambda: self.load_entries(quiet=True),
        )  # fmt: skip
        self.app.push_screen(form, done)

    # ------------------------------------------------------------------ remove

    def action_delete(self) -> None:
        entry = self.highlighted
        if entry is None:
            self.status.info("No address highlighted: nothing to remove")
            return
        ip = entry.ip
        label = f" ({entry.label})" if entry.label else " (no label)"
        body = (
            f"Remove {ip}{label} from the SIP whitelist of {who_of(self, with_id=True)}?\n"
            "SIP traffic from this address will be refused."
        )
        self.write(
            Write[Envelope](
                "sip-remove",
                f"Removing {ip}",
                lambda c: c.api.delete_sip_entry(ip, target=c.target_id),
                confirm=ConfirmModal("Remove a whitelisted address", body, confirm_label="Remove"),
                done=lambda reply: f"{reply.message or 'IP entry deleted'}: {ip}",
                gone=f"{ip} was already gone; the list is refreshed",
                read_back=lambda c: listed(
                    c.api.list_sip_whitelist(target=c.target_id),
                    lambda e: e.ip == ip,
                    present=f"{ip} is still whitelisted.",
                    absent=f"{ip} is no longer whitelisted.",
                ),
                failed=lambda exc: f"Could not remove {ip}: {describe_error(exc)}",
                retry_key="d",
                after=self._after_remove,
            )
        )

    def _after_remove(self, written: Written[object]) -> None:
        if written.stale:
            self.load_entries(quiet=True)


def entry_cells(entry: SipEntry) -> tuple[Text, Text, Text]:
    return (
        safe(entry.ip, style="bold"),
        Text(plain(entry.label)),
        Text(fmt_datetime(entry.added_at)),
    )
