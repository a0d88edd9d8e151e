"""The SIP screen's outbound routes and registration panes.

Routes: a table keyed by the route as the platform holds it (what a removal sends back),
its parts in columns (the defaults 5060 and udp said as defaults), the whole route under
the table. Registration: the agent's registration field by field, never a password
(the platform's read names none; the console never keeps the one typed).
"""

from __future__ import annotations

from typing import cast

from rich.console import RenderableType
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Static

from vagent_tui.api.sip_models import RouteParts, SipRegistration, parse_route
from vagent_tui.ui.caps import ROW_CAP
from vagent_tui.ui.css import stylesheet
from vagent_tui.ui.format import flag, plain
from vagent_tui.ui.text import safe
from vagent_tui.ui.widgets.details import Field, field_grid
from vagent_tui.ui.widgets.hooks import shorten
from vagent_tui.ui.widgets.record_table import RecordTable, record_table

HOST_ROOM = 40
"""Characters of a host in its cell (cut in the middle; the route is whole under the table)."""


def route_parts(route: str) -> RouteParts | None:
    """The parts of a listed route; None for one the grammar refuses (shown as it is)."""
    try:
        return parse_route(route)
    except ValueError:
        return None


def route_cells(route: str) -> list[Text]:
    parts = route_parts(route)
    if parts is None:
        return [safe(shorten(route, HOST_ROOM), style="bold"), Text("?", style="dim"),
                Text("?", style="dim"),
                Text("not a route this console reads", style="dim")]  # fmt: skip
    port = safe(parts.port, style="" if parts.port_said else "dim")
    transport = safe(parts.transport, style="" if parts.transport_said else "dim")
    proxy = safe(parts.proxy) if parts.proxy else Text("—", style="dim")
    return [safe(shorten(parts.host, HOST_ROOM), style="bold"), port, transport, proxy]


class RoutePane(Vertical):
    """SIP outbound routes: host, port, transport, proxy; keyed by the route."""

    DEFAULT_CSS = stylesheet(__file__)

    def compose(self) -> ComposeResult:
        columns = (("Host", "host"), ("Port", "port"), ("Transport", "transport"),
                   ("Proxy", "proxy"))  # fmt: skip
        yield record_table("routes-table", columns, key=lambda route: route)
        yield Static(
            "No outbound route: the agent's calls leave through the platform's carriers. "
            "Press a to add one.",
            id="routes-empty",
            markup=False,
        )
        yield Static("", id="route-detail", markup=False)

    @property
    def table(self) -> RecordTable[str]:
        return cast("RecordTable[str]", self.query_one("#routes-table", RecordTable))

    @property
    def routes(self) -> list[str]:
        return self.table.records

    @property
    def highlighted(self) -> str | None:
        return self.table.highlighted_record

    def show(self, routes: list[str], highlight: str | None = None) -> None:
        """Replace the rows; the cursor goes to ``highlight`` or stays where it was."""
        self.table.show(routes[:ROW_CAP], route_cells, keep=highlight)
        self.set_class(not routes, "-empty")
        self.show_detail()

    @on(RecordTable.Highlighted, "#routes-table")
    def _highlighted(self, event: RecordTable.Highlighted) -> None:
        event.stop()
        self.show_detail()

    def show_detail(self) -> None:
        route = self.highlighted
        text = Text("Route  ").append(safe(route, style="bold")) if route else Text("")
        self.query_one("#route-detail", Static).update(text)


def registration_view(registration: SipRegistration | None) -> RenderableType:
    """The registration, field by field; the password only as "set, never shown"."""
    if registration is None:
        return Text(
            "The agent is not registered to a PBX. Press a to register it (its address of "
            "record, the PBX's realm or proxy, and a password).",
            style="dim",
        )
    port = "" if registration.port is None else str(registration.port)
    fields: list[Field] = [
        ("AOR", safe(registration.aor or "—", style="bold")),
        ("Username", plain(registration.username)),
        ("Auth username", plain(registration.auth_username)),
        ("SIP realm", plain(registration.sip_realm)),
        ("Proxy", plain(registration.proxy)),
        ("Port", plain(port)),
        ("Transport", plain(registration.transport)),
        ("Subscribe", flag(registration.subscribe)),
        ("Password", Text("set; never shown (type it again to change anything)", style="dim")),
    ]
    return field_grid(fields)


class RegistrationPane(VerticalScroll):
    """The agent's SIP registration, or why there is none to show."""

    DEFAULT_CSS = stylesheet(__file__)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.registration: SipRegistration | None = None
        self.loaded = False
        """Read at least once for the account shown (False: not known yet, or refused)."""

    def compose(self) -> ComposeResult:
        yield Static("", id="registration-notice", markup=False)
        yield Static(Text("Loading…", style="dim"), id="registration-view", markup=False)

    def show(self, registration: SipRegistration | None) -> None:
        self.registration, self.loaded = registration, True
        self.set_notice("")
        self.query_one("#registration-view", Static).update(registration_view(registration))

    def refused(self, line: str) -> None:
        """The read failed: what the platform said, and nothing known of a registration."""
        self.registration, self.loaded = None, False
        self.set_notice(line)
        self.query_one("#registration-view", Static).update("")

    def set_notice(self, line: str) -> None:
        notice = self.query_one("#registration-notice", Static)
        notice.update(safe(line, multiline=True))
        notice.set_class(not line, "-hidden")
