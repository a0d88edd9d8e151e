"""SIP: the IP whitelist, the outbound routes and the agent's registration to a PBX.

Three tabs (``t`` goes to the next). Whitelist: ``a`` adds an address (IPv4/IPv6 checked
before sending), ``d`` removes the highlighted one. Outbound routes: ``a`` adds a route
(``host[:port][;transport=tcp|udp][;proxyAddress=host[:port]]``, checked at its field),
``d`` removes the highlighted one (the DELETE carries it in its body). Registration:
``a`` registers the agent to a PBX or changes its registration (the address of record
asked about as it is typed; the password typed masked, never shown, journaled or kept),
``d`` deletes it. Every removal asks first, its default cancel, and says that calls over
what it removes stop. Lists are keyed by what a removal sends back, so after a change
the cursor lands on the row that matters.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from typing import ClassVar, cast

from rich.text import Text
from textual import on, work
from textual.binding import Binding, BindingType
from textual.widget import Widget
from textual.widgets import Static, TabbedContent, TabPane

from vagent_tui.api.errors import ApiError, PlatformError
from vagent_tui.api.models import Envelope, SipEntry, SipEntryRequest
from vagent_tui.api.sip_models import (
    RegistrationSaved,
    SipRegistration,
    SipRegistrationRequest,
    SipRouteRequest,
    SipRoutes,
)
from vagent_tui.services.session import Connection
from vagent_tui.ui.caps import ROW_CAP, left_out
from vagent_tui.ui.dialogs import ConfirmModal
from vagent_tui.ui.failures import next_step
from vagent_tui.ui.format import fmt_datetime, plain
from vagent_tui.ui.safety import DESTRUCTIVE, WRITES, Key
from vagent_tui.ui.screens.base import BaseScreen, who_of
from vagent_tui.ui.text import safe
from vagent_tui.ui.widgets.entry_forms import SipEntryForm
from vagent_tui.ui.widgets.record_table import RecordTable, record_table
from vagent_tui.ui.widgets.sip_forms import ROUTE_GRAMMAR, SipRegistrationForm, SipRouteForm
from vagent_tui.ui.widgets.sip_panes import RegistrationPane, RoutePane
from vagent_tui.ui.widgets.status import describe_error
from vagent_tui.ui.widgets.table_filter import filter_binding
from vagent_tui.ui.writes import Write, Written, listed
from vagent_tui.words import counted

WHITELIST, ROUTES, REGISTRATION = "tab-whitelist", "tab-routes", "tab-registration"
TABS = (WHITELIST, ROUTES, REGISTRATION)
PARTS = ("whitelist", "routes", "registration")


class SipScreen(BaseScreen):
    """The acting account's SIP whitelist, outbound routes and registration."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Key(
            "a",
            "add",
            "Add",
            id="sip.add",
            tooltip="Add an address or a route, or register the agent (the tab shown)",
            does=WRITES,
        ),
        Key(
            "d",
            "delete",
            "Remove",
            id="sip.remove",
            tooltip="Remove the highlighted address or route, or the registration",
            does=DESTRUCTIVE,
        ),
        Binding(
            "t", "switch_tab", "Next tab", id="sip.tab", tooltip="Whitelist, routes, registration"
        ),
        filter_binding("sip"),  # last: the footer drops it first
    ]
    CSS_PATH = "sip.tcss"

    def __init__(self) -> None:
        super().__init__()
        self._summary: dict[str, str] = {}
        self._failed: set[str] = set()

    # ------------------------------------------------------------------ layout

    def compose_body(self) -> Iterable[Widget]:
        with TabbedContent(id="sip-tabs", initial=WHITELIST):
            with TabPane("Whitelist", id=WHITELIST):
                yield Static("", id="sip-header", markup=False)
                yield record_table(
                    "sip-table",
                    (("IP address", "ip"), ("Label", "label"), ("Added", "added")),
                    key=lambda entry: entry.ip,
                )
                yield Static(
                    "No address is whitelisted: SIP traffic from anywhere is refused. "
                    "Press a to add one.",
                    id="sip-empty",
                    markup=False,
                )
            with TabPane("Outbound routes", id=ROUTES):
                yield RoutePane(id="route-pane")
            with TabPane("Registration", id=REGISTRATION):
                yield RegistrationPane(id="registration-pane")

    @property
    def table(self) -> RecordTable[SipEntry]:
        return cast("RecordTable[SipEntry]", self.query_one("#sip-table", RecordTable))

    @property
    def tabs(self) -> TabbedContent:
        return self.query_one("#sip-tabs", TabbedContent)

    @property
    def route_pane(self) -> RoutePane:
        return self.query_one("#route-pane", RoutePane)

    @property
    def registration_pane(self) -> RegistrationPane:
        return self.query_one("#registration-pane", RegistrationPane)

    def on_mount(self) -> None:
        self.table.focus()

    # ------------------------------------------------------------------ tabs

    def action_switch_tab(self) -> None:
        self.tabs.active = TABS[(TABS.index(self.tabs.active) + 1) % len(TABS)]
        # Focused now, not when the tab's message comes: the first frame of the new tab
        # shows its focus, rather than a frame more restyling the table (issue 40: bytes).
        self._focus_tab()

    @on(TabbedContent.TabActivated)
    def _tab_activated(self, event: TabbedContent.TabActivated) -> None:
        event.stop()
        self._focus_tab()  # a tab clicked

    def _focus_tab(self) -> None:
        active = self.tabs.active
        focus: Widget = self.table
        if active == ROUTES:
            focus = self.route_pane.table
        elif active == REGISTRATION:
            focus = self.registration_pane
        focus.focus()

    # ------------------------------------------------------------------ loading

    def reload(self) -> None:
        self._summary.clear()
        self._failed.clear()
        self.status.busy("Loading the SIP whitelist, routes and registration")
        self.load_entries()
        self.load_routes()
        self.load_registration()

    def _part_done(self, part: str, summary: str, *, quiet: bool) -> None:
        self._summary[part] = summary
        self._failed.discard(part)
        if not quiet and not self._failed:
            self.status.ok(" · ".join(self._summary[p] for p in PARTS if p in self._summary))

    def _part_failed(self, part: str, exc: PlatformError) -> None:
        self._failed.add(part)
        what = {"whitelist": "", "routes": "Routes: ", "registration": "Registration: "}[part]
        self.status.error(exc, prefix=what)

    @work(exclusive=True, group="sip-load", exit_on_error=False)
    async def load_entries(self, highlight: str | None = None, *, quiet: bool = False) -> None:
        """Fetch the whitelist; ``quiet`` leaves the status line to the action that asked."""
        ok, entries = await self.load(
            lambda c: c.api.list_sip_whitelist(target=c.target_id),
            busy=self.table,
            on_error=lambda exc: self._part_failed("whitelist", exc),
        )
        if not ok or entries is None:
            return
        self.show_entries(entries, highlight)
        more, who = left_out(len(entries), "address"), who_of(self, with_id=True)
        summary = f"{counted(len(entries), 'whitelisted address')} for {who}{more}"
        self._part_done("whitelist", summary, quiet=quiet)

    def show_entries(self, entries: list[SipEntry], highlight: str | None = None) -> None:
        shown = entries[:ROW_CAP]  # the status line says how many more
        self.table.show(shown, entry_cells, keep=highlight)
        self.set_class(not shown, "-empty")
        who = who_of(self, with_id=True)
        self.query_one("#sip-header", Static).update(
            safe(f"{counted(len(shown), 'address')} allowed to send SIP traffic for {who}")
        )

    @work(exclusive=True, group="sip-routes", exit_on_error=False)
    async def load_routes(self, highlight: str | None = None, *, quiet: bool = False) -> None:
        ok, routes = await self.load(
            lambda c: c.api.list_sip_routes(target=c.target_id),
            busy=self.route_pane.table,
            on_error=lambda exc: self._part_failed("routes", exc),
        )
        if not ok or routes is None:
            return
        self.route_pane.show(routes, highlight)
        more = left_out(len(routes), "route")
        self._part_done("routes", counted(len(routes), "outbound route") + more, quiet=quiet)

    @work(exclusive=True, group="sip-registration", exit_on_error=False)
    async def load_registration(self, *, quiet: bool = False) -> None:
        pane = self.registration_pane

        def failed(exc: PlatformError) -> None:
            step = next_step(exc, "r")
            pane.refused(f"✗ {describe_error(exc)}" + (f"  — {step}" if step else ""))
            if isinstance(exc, ApiError) and 400 <= exc.status < 500:
                # The platform says this account has none to show (not an agent, say):
                # the tab says so; the other two lists still speak on the status line.
                self._part_done(
                    "registration",
                    f"registration refused (HTTP {exc.status}: its tab says why)",
                    quiet=quiet,
                )
            else:
                self._part_failed("registration", exc)

        ok, read = await self.load(
            lambda c: c.api.get_sip_registration(target=c.target_id), busy=pane, on_error=failed
        )
        if not ok:
            return
        pane.show(read)
        summary = "not registered" if read is None else f"registered as {plain(read.aor)}"
        self._part_done("registration", summary, quiet=quiet)

    @property
    def entries(self) -> list[SipEntry]:
        return self.table.records

    @property
    def highlighted(self) -> SipEntry | None:
        return self.table.highlighted_record

    # ------------------------------------------------------------------ add

    def action_add(self) -> None:
        active = self.tabs.active
        if active == ROUTES:
            self._add_route()
        elif active == REGISTRATION:
            self._register()
        else:
            self._add_entry()

    def _add_entry(self) -> None:
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

    def _add_route(self) -> None:
        async def send(c: Connection, request: SipRouteRequest) -> str:
            reply = await c.api.add_sip_route(request.route, target=c.target_id)
            return reply.message or "Route added"

        def read_back(c: Connection, request: SipRouteRequest) -> Awaitable[str]:
            route = request.route
            return listed(
                c.api.list_sip_routes(target=c.target_id), lambda r: r == route,
                present=f"{route} is an outbound route now.",
                absent=f"{route} is not an outbound route.",
            )  # fmt: skip

        target = self.connection.target_id

        def done(result: tuple[SipRouteRequest, str] | None) -> None:
            if result is None or target != self.connection.target_id:
                return
            request, message = result
            self.status.ok(f"{message}: {request.route}")
            self.load_routes(request.route, quiet=True)

        form = SipRouteForm(
            send, subtitle=f"For {who_of(self, with_id=True)}\nA route: {ROUTE_GRAMMAR}",
            read_back=read_back,
            after_unknown=lambda: self.load_routes(quiet=True),
        )  # fmt: skip
        self.app.push_screen(form, done)

    def _register(self) -> None:
        pane = self.registration_pane
        if not pane.loaded:
            self.status.info("The registration is not read yet (see the tab): r reads it again")
            return
        current = pane.registration
        target = self.connection.target_id

        async def send(c: Connection, request: SipRegistrationRequest) -> RegistrationSaved:
            return await c.api.save_sip_registration(request, target=c.target_id)

        def read_back(c: Connection, request: SipRegistrationRequest) -> Awaitable[str]:
            return held_registration(c, request.shown_aor)

        def done(result: tuple[SipRegistrationRequest, RegistrationSaved] | None) -> None:
            if result is None or target != self.connection.target_id:
                return
            aor, saved = result[0].shown_aor, result[1]  # the request goes, password and all
            verb = "created (201)" if saved.created else "updated (200)"
            self.status.ok(f"{saved.message}: {aor} · registration {verb}")
            self.load_registration(quiet=True)

        form = SipRegistrationForm(
            send, current, subtitle=f"For {who_of(self, with_id=True)}", read_back=read_back,
            after_unknown=lambda: self.load_registration(quiet=True),
        )  # fmt: skip
        self.app.push_screen(form, done)

    # ------------------------------------------------------------------ remove

    def action_delete(self) -> None:
        active = self.tabs.active
        if active == ROUTES:
            self._remove_route()
        elif active == REGISTRATION:
            self._remove_registration()
        else:
            self._remove_entry()

    def _remove_entry(self) -> None:
        entry = self.highlighted
        if entry is None:
            self.status.info("No address highlighted: nothing to remove")
            return
        ip = entry.ip
        label = f" ({entry.label})" if entry.label else " (no label)"
        body = (
            f"Remove {ip}{label} from the SIP whitelist of {who_of(self, with_id=True)}?\n"
            "SIP traffic from this address will be refused: calls from it stop."
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
                after=lambda written: self._reload_if_stale(written, self.load_entries),
            )
        )

    def _remove_route(self) -> None:
        route = self.route_pane.highlighted
        if route is None:
            self.status.info("No route highlighted: nothing to remove")
            return
        body = (
            f"Remove the SIP outbound route\n{plain(route)}\nof {who_of(self, with_id=True)}?\n"
            "Calls the agent places over this route stop."
        )
        self.write(
            Write[SipRoutes](
                "sip-route-remove",
                f"Removing the route {route}",
                lambda c: c.api.delete_sip_route(route, target=c.target_id),
                confirm=ConfirmModal("Remove an outbound route", body, confirm_label="Remove"),
                done=lambda reply: f"{reply.message or 'Route removed'}: {route}",
                gone=f"{route} was already gone; the list is refreshed",
                read_back=lambda c: listed(
                    c.api.list_sip_routes(target=c.target_id),
                    lambda r: r == route,
                    present=f"{route} is still an outbound route.",
                    absent=f"{route} is no longer an outbound route.",
                ),
                failed=lambda exc: f"Could not remove the route: {describe_error(exc)}",
                retry_key="d",
                after=lambda written: self._reload_if_stale(written, self.load_routes),
            )
        )

    def _remove_registration(self) -> None:
        current = self.registration_pane.registration
        if current is None:
            self.status.info("No registration shown: nothing to delete")
            return
        aor = current.aor or "(no AOR given)"
        via = current.proxy or current.sip_realm or "its PBX"
        body = (
            f"Delete the SIP registration {plain(aor)} of {who_of(self, with_id=True)}?\n"
            f"The agent stops registering to {plain(via)}: calls over it stop (the PBX no longer "
            "reaches the agent, nor the agent the PBX)."
        )
        self.write(
            Write[Envelope](
                "sip-registration-delete",
                f"Deleting the registration {aor}",
                lambda c: c.api.delete_sip_registration(target=c.target_id),
                confirm=ConfirmModal("Delete the SIP registration", body, confirm_label="Delete"),
                done=lambda reply: f"{reply.message or 'Registration deleted'}: {aor}",
                gone="there was no registration any more; the tab is refreshed",
                read_back=lambda c: held_registration(c, aor),
                failed=lambda exc: f"Could not delete the registration: {describe_error(exc)}",
                retry_key="d",
                after=lambda written: self._reload_if_stale(written, self.load_registration),
            )
        )

    def _reload_if_stale(self, written: Written[object], load: Callable[..., object]) -> None:
        if written.stale:  # done, already gone, or unknown: show what the platform holds
            load(quiet=True)


async def held_registration(c: Connection, aor: str) -> str:
    """A read-back sentence: what registration the platform holds now."""
    read: SipRegistration | None = await c.api.get_sip_registration(target=c.target_id)
    if read is None:
        return "the agent is not registered."
    same = read.aor.lower() == aor.lower()
    return f"the agent is registered as {read.aor}" + ("." if same else f", not {aor}.")


def entry_cells(entry: SipEntry) -> tuple[Text, Text, Text]:
    return (
        safe(entry.ip, style="bold"),
        Text(plain(entry.label)),
        Text(fmt_datetime(entry.added_at)),
    )
