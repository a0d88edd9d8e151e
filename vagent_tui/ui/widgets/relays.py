"""Webhook relay pieces: rows of relay types, the config detail, the delete outcomes.

The relay types list is open to every account; the configurations are premium. A row
per known type (plus any configured type the types list does not name) shows whether it
is configured. A relay delete has five documented outcomes; each gets a plain-language
explanation next to the server's message.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from rich.console import RenderableType
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Container, Vertical, VerticalScroll
from textual.widgets import DataTable, Static

from vagent_tui.api.models import RelayConfig, RelayType
from vagent_tui.ui.colours import WARN
from vagent_tui.ui.css import stylesheet
from vagent_tui.ui.format import flag, plain
from vagent_tui.ui.text import safe
from vagent_tui.ui.widgets.details import Field, field_grid
from vagent_tui.ui.widgets.tables import RecordTable, record_table

EXPLAIN: dict[int, str] = {
    200: "removed: events of this type are no longer relayed",
    400: "the request named no relay type (a client problem, not yours)",
    401: "the API key was refused: check the profile's token, it may have been revoked",
    # Documented for a relay delete: the premium message; a 403 may also refuse an
    # operation or a target, so the platform's message says which.
    403: "refused for this account: the platform's message says why",
    404: "nothing to delete: this type was not configured (removed elsewhere?)",
    500: "the platform failed while deleting; the configuration is probably still there",
}


def explain(status: int) -> str:
    """A short plain-language reading of a relay delete status."""
    return EXPLAIN.get(status, "unexpected answer from the platform")


@dataclass(frozen=True)
class RelayRow:
    """One relay type; ``config`` None when not configured (or unknown: not premium)."""

    name: str
    description: str | None
    config: RelayConfig | None

    @property
    def configured(self) -> bool:
        return self.config is not None


def relay_rows(types: list[RelayType], configs: list[RelayConfig] | None) -> list[RelayRow]:
    """Every type of the types list, then configured types it does not name."""
    by_type = {c.type: c for c in configs or []}
    rows = [RelayRow(t.name, t.description, by_type.get(t.name)) for t in types]
    known = {t.name for t in types}
    rows += [RelayRow(c.type, None, c) for c in configs or [] if c.type not in known]
    return rows


def relay_cells(row: RelayRow, *, premium: bool) -> list[Text]:
    configured = flag(row.configured, yes="configured", no="not configured")
    if not premium:
        configured = Text("— unknown", style="dim")
    style = "bold" if row.configured else ""
    return [safe(row.name, style=style), configured, safe(plain(row.description), style="dim")]


def relay_detail(row: RelayRow | None, *, premium: bool) -> RenderableType:
    """The highlighted relay's configuration: url, timeout, headers, success codes."""
    if row is None:
        return Text("No relay type highlighted.", style="dim")
    fields: list[Field] = [("Type", safe(row.name, style="bold"))]
    if row.description:
        fields.append(("Description", row.description))
    if not premium:
        fields.append(("Configured", Text("unknown: the relay list was refused", style=WARN)))
        return field_grid(fields)
    config = row.config
    if config is None:
        fields.append(("Configured", flag(False, no="not configured")))
        return field_grid(fields)
    fields.append(("Configured", flag(True, yes="configured")))
    fields.append(("URL", plain(config.url)))
    timeout = f"{config.timeout} ms" if config.timeout is not None else "—"
    fields.append(("Timeout", timeout))
    # In the platform's order: a header may repeat, and the order is what is sent.
    for k, (name, value) in enumerate(config.headers):
        fields.append(("Headers" if k == 0 else "", f"{name}: {value}"))
    if not config.headers:
        fields.append(("Headers", "none"))
    fields.append(("Success codes", plain(config.success_status_codes)))
    return field_grid(fields)


class RelayPane(Vertical):
    """A notice line (refused / error), the relay types table and the detail pane.

    The screen loads; this shows. ``premium`` is None until known, False when the
    relay list answered 403 (the documented case is an account without premium; the
    notice shows the platform's own message).
    """

    DEFAULT_CSS = stylesheet(__file__)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.premium: bool | None = None

    def compose(self) -> ComposeResult:
        yield Static("", id="relay-notice", markup=False)
        with Container(id="relay-body"):
            yield record_table(
                "relay-table",
                (
                    ("Relay type", "type"),
                    ("Configured", "configured"),
                    ("Description", "description"),
                ),
                key=lambda relay: relay.name,
            )
            with VerticalScroll(id="relay-detail"):
                yield Static(relay_detail(None, premium=True), id="relay-detail-text", markup=False)

    @property
    def table(self) -> RecordTable[RelayRow]:
        return cast("RecordTable[RelayRow]", self.query_one("#relay-table", RecordTable))

    @property
    def rows(self) -> list[RelayRow]:
        return self.table.records

    def set_notice(self, text: str, kind: str = "") -> None:
        """A line above the table: ``-refused`` or ``-error``; empty text hides it."""
        notice = self.query_one("#relay-notice", Static)
        notice.update(safe(text))
        notice.set_classes(f"-shown {kind}" if text else "")

    def show(self, rows: list[RelayRow], *, premium: bool) -> None:
        """Replace the rows; the cursor stays on the same type."""
        self.premium = premium
        self.table.show(rows, lambda relay: relay_cells(relay, premium=premium))
        self.show_detail()

    @property
    def highlighted(self) -> RelayRow | None:
        return self.table.highlighted_record

    @on(DataTable.RowHighlighted, "#relay-table")
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        self.show_detail()

    def show_detail(self) -> None:
        detail = relay_detail(self.highlighted, premium=self.premium is not False)
        self.query_one("#relay-detail-text", Static).update(detail)
