"""Webhook relay pieces: rows of relay types, the config detail, the delete outcomes.

The relay types list is open to every account; the configurations are premium. A row
per known type (plus any configured type the types list does not name) shows whether it
is configured. A relay delete has five documented outcomes; each gets a plain-language
explanation next to the server's message.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.console import RenderableType
from rich.text import Text

from vagent_tui.api.models import RelayConfig, RelayType
from vagent_tui.ui.format import flag, plain
from vagent_tui.ui.widgets.details import Field, field_grid

PREMIUM_NOTE = "This account has no premium: relay configurations cannot be listed or changed."

EXPLAIN: dict[int, str] = {
    200: "removed: events of this type are no longer relayed",
    400: "the request named no relay type (a client problem, not yours)",
    401: "the API key was refused: check the profile's token, it may have been revoked",
    403: "this account has no premium: Webhook Relay needs a premium plan",
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
        configured = Text("— premium", style="dim")
    style = "bold" if row.configured else ""
    return [Text(row.name, style=style), configured, Text(plain(row.description), style="dim")]


def relay_detail(row: RelayRow | None, *, premium: bool) -> RenderableType:
    """The highlighted relay's configuration: url, timeout, headers, success codes."""
    if row is None:
        return Text("No relay type highlighted.", style="dim")
    fields: list[Field] = [("Type", Text(row.name, style="bold"))]
    if row.description:
        fields.append(("Description", row.description))
    if not premium:
        fields.append(("Configured", Text("unknown: premium required", style="yellow")))
        return field_grid(fields)
    config = row.config
    if config is None:
        fields.append(("Configured", flag(False, no="not configured")))
        return field_grid(fields)
    fields.append(("Configured", flag(True, yes="configured")))
    fields.append(("URL", plain(config.url)))
    timeout = f"{config.timeout} ms" if config.timeout is not None else "—"
    fields.append(("Timeout", timeout))
    headers = config.headers or {}
    if headers:
        for k, (name, value) in enumerate(sorted(headers.items())):
            fields.append(("Headers" if k == 0 else "", f"{name}: {value}"))
    else:
        fields.append(("Headers", "none"))
    fields.append(("Success codes", plain(config.success_status_codes)))
    return field_grid(fields)
