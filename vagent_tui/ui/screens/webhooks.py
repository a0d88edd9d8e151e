"""Webhooks: destinations (list, add, remove) and relay configurations per type.

Two tabs (``t`` switches). Destinations: ``a`` adds one through a validated form, ``d``
removes the highlighted one after confirmation. Relays: every relay type with whether it
is configured, the highlighted one's configuration beside it, and ``d`` deletes a
configuration after confirmation; each of the documented outcomes is shown with the
server's message and what it means. Relays are premium: on other accounts the relay
list answers 403, shown in the relay tab while destinations keep working.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar

from rich.text import Text
from textual import events, on, work
from textual.binding import Binding, BindingType
from textual.containers import Container, VerticalScroll
from textual.widget import Widget
from textual.widgets import DataTable, Static, TabbedContent, TabPane

from vagent_tui.api.errors import ApiError, PlatformError
from vagent_tui.api.models import RelayConfig, Webhook, WebhookRequest
from vagent_tui.ui.format import fmt_datetime, plain
from vagent_tui.ui.screens.base import BaseScreen
from vagent_tui.ui.screens.modals import ConfirmModal
from vagent_tui.ui.widgets.entry_forms import WebhookForm
from vagent_tui.ui.widgets.relays import RelayRow, explain, relay_cells, relay_detail, relay_rows
from vagent_tui.ui.widgets.status import describe_error

WIDE = 120
"""From this width the relay detail sits beside the relay table, below it otherwise."""
HOOKS, RELAYS = "tab-destinations", "tab-relays"


class WebhooksScreen(BaseScreen):
    """Webhook destinations and webhook relay configurations of the acting account."""

    TITLE: ClassVar[str] = "Webhooks"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("a", "add", "Add", id="webhooks.add", tooltip="Add a webhook destination"),
        Binding(
            "d",
            "delete",
            "Delete",
            id="webhooks.delete",
            tooltip="Delete the highlighted destination or relay configuration",
        ),
        Binding("t", "switch_tab", "Destinations/Relays", id="webhooks.tab", tooltip="Switch tab"),
    ]
    DEFAULT_CSS = """
    WebhooksScreen #webhooks-tabs { height: 1fr; }
    WebhooksScreen TabPane { padding: 0; height: 1fr; }
    WebhooksScreen #hooks-table { height: 1fr; }
    WebhooksScreen #hook-detail {
        height: auto; max-height: 3; padding: 0 1; border-top: solid $primary;
    }
    WebhooksScreen.-wide #hook-detail { display: none; }
    WebhooksScreen #relay-notice { height: auto; padding: 0 1; display: none; }
    WebhooksScreen #relay-notice.-shown { display: block; }
    WebhooksScreen #relay-notice.-premium { color: $warning; text-style: bold; }
    WebhooksScreen #relay-notice.-error { background: $error 20%; }
    WebhooksScreen #relay-body { height: 1fr; layout: vertical; }
    WebhooksScreen #relay-table { height: 1fr; }
    WebhooksScreen #relay-detail { height: 8; border-top: solid $primary; padding: 0 1; }
    WebhooksScreen.-wide #relay-body { layout: horizontal; }
    WebhooksScreen.-wide #relay-table { width: 1fr; }
    WebhooksScreen.-wide #relay-detail {
        width: 38; height: 1fr; border-top: none; border-left: solid $primary;
    }
    """

    def __init__(self) -> None:
        super().__init__()
        self.hooks: list[Webhook] = []
        self.relays: list[RelayRow] = []
        self.premium: bool | None = None
        self.last_outcome: tuple[int, str] | None = None
        """The status and server message of the last relay delete."""
        self._summary: dict[str, str] = {}
        self._failed: set[str] = set()

    # ------------------------------------------------------------------ layout

    def compose_body(self) -> Iterable[Widget]:
        with TabbedContent(id="webhooks-tabs", initial=HOOKS):
            with TabPane("Destinations", id=HOOKS):
                hooks: DataTable[Any] = DataTable(
                    id="hooks-table", cursor_type="row", zebra_stripes=True
                )
                for label, key in (("URL", "url"), ("Label", "label"), ("Type", "type")):
                    hooks.add_column(label, key=key)
                hooks.add_column("Added", key="added")
                yield hooks
                yield Static("", id="hook-detail", markup=False)
            with TabPane("Relays", id=RELAYS):
                yield Static("", id="relay-notice", markup=False)
                with Container(id="relay-body"):
                    relays: DataTable[Any] = DataTable(
                        id="relay-table", cursor_type="row", zebra_stripes=True
                    )
                    relays.add_column("Relay type", key="type")
                    relays.add_column("Configured", key="configured")
                    relays.add_column("Description", key="description")
                    yield relays
                    with VerticalScroll(id="relay-detail"):
                        yield Static(relay_detail(None, premium=True), id="relay-detail-text")

    @property
    def hooks_table(self) -> DataTable[Any]:
        return self.query_one("#hooks-table", DataTable)

    @property
    def relay_table(self) -> DataTable[Any]:
        return self.query_one("#relay-table", DataTable)

    @property
    def tabs(self) -> TabbedContent:
        return self.query_one("#webhooks-tabs", TabbedContent)

    def on_mount(self) -> None:
        super().on_mount()
        self.set_class(self.size.width >= WIDE, "-wide")
        self.hooks_table.focus()

    def on_resize(self, event: events.Resize) -> None:
        wide = event.size.width >= WIDE
        if wide != self.has_class("-wide"):
            self.set_class(wide, "-wide")
            self.show_hooks(self.hooks)

    @property
    def who(self) -> str:
        acting = self.session.acting_as
        return f"{acting.display_name} (#{acting.id})" if acting else "the key owner"

    # ------------------------------------------------------------------ tabs

    def action_switch_tab(self) -> None:
        self.tabs.active = RELAYS if self.tabs.active == HOOKS else HOOKS

    @on(TabbedContent.TabActivated)
    def _tab_activated(self, event: TabbedContent.TabActivated) -> None:
        event.stop()
        table = self.relay_table if self.tabs.active == RELAYS else self.hooks_table
        table.focus()

    # ------------------------------------------------------------------ loading

    def reload(self) -> None:
        self._summary.clear()
        self._failed.clear()
        self.status.loading("Loading webhooks and relays")
        self.load_hooks()
        self.load_relays()

    def _part_done(self, part: str, summary: str, *, quiet: bool) -> None:
        self._summary[part] = summary
        self._failed.discard(part)
        if not quiet and not self._failed:
            text = " · ".join(self._summary[p] for p in ("hooks", "relays") if p in self._summary)
            self.status.ok(text)

    def _part_failed(self, part: str, exc: PlatformError) -> None:
        self._failed.add(part)
        what = "Destinations" if part == "hooks" else "Relays"
        self.status.error(f"{what}: {describe_error(exc)}")

    @work(exclusive=True, group="webhooks-hooks", exit_on_error=False)
    async def load_hooks(self, highlight: str | None = None, *, quiet: bool = False) -> None:
        target = self.session.target_id
        self.hooks_table.loading = True
        try:
            hooks = await self.session.client.list_webhooks(target=target)
        except PlatformError as exc:
            if target == self.session.target_id:
                self.hooks_table.loading = False
                self._part_failed("hooks", exc)
            return
        if target != self.session.target_id:
            return
        self.hooks_table.loading = False
        self.show_hooks(hooks, highlight)
        self._part_done("hooks", f"{len(hooks)} destinations", quiet=quiet)

    def show_hooks(self, hooks: list[Webhook], highlight: str | None = None) -> None:
        table = self.hooks_table
        current = self.highlighted_hook
        keep = highlight or (current.url if current else None)
        row = table.cursor_row
        self.hooks = hooks
        # narrow: the URL is shortened in its cell and shown whole under the table
        room = None if self.has_class("-wide") else max(20, self.size.width - 52)
        with self.app.batch_update():
            table.clear()
            for hook in hooks:
                cells = (_shorten(hook.url, room), plain(hook.label), plain(hook.type))
                added = Text(fmt_datetime(hook.added_at))
                if room is not None and hook.added_at is not None:
                    added = Text(hook.added_at.strftime("%Y-%m-%d"))
                table.add_row(*(Text(c) for c in cells), added, key=hook.url)
            _place_cursor(table, [h.url for h in hooks], keep, row)
        self._show_hook_detail()

    @on(DataTable.RowHighlighted, "#hooks-table")
    def _hook_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        self._show_hook_detail()

    def _show_hook_detail(self) -> None:
        hook = self.highlighted_hook
        text = Text(hook.url, style="bold") if hook else Text("No destination.", style="dim")
        self.query_one("#hook-detail", Static).update(text)

    @work(exclusive=True, group="webhooks-relays", exit_on_error=False)
    async def load_relays(self, *, quiet: bool = False) -> None:
        target = self.session.target_id
        client = self.session.client
        self.relay_table.loading = True
        notice: tuple[str, str] | None = None
        configs: list[RelayConfig] | None = None
        try:
            types = await client.list_relay_types(target=target)
            try:
                configs = await client.list_relays(target=target)
            except ApiError as exc:
                if exc.status != 403:
                    raise
                notice = (f"This account has no premium: {exc.message}", "-premium")
        except PlatformError as exc:
            if target == self.session.target_id:
                self.relay_table.loading = False
                self._set_notice(f"✗ {describe_error(exc)}  — press r to retry", "-error")
                self._part_failed("relays", exc)
            return
        if target != self.session.target_id:
            return
        self.relay_table.loading = False
        self.premium = configs is not None
        self._set_notice(*(notice or ("", "")))
        self.show_relays(relay_rows(types, configs))
        if configs is None:
            summary = "relays: premium required"
        else:
            summary = f"{len(configs)} of {len(self.relays)} relay types configured"
        self._part_done("relays", summary, quiet=quiet)

    def _set_notice(self, text: str, kind: str) -> None:
        notice = self.query_one("#relay-notice", Static)
        notice.update(Text(text))
        notice.set_classes(f"-shown {kind}" if text else "")

    def show_relays(self, rows: list[RelayRow]) -> None:
        table = self.relay_table
        current = self.highlighted_relay
        row = table.cursor_row
        self.relays = rows
        with self.app.batch_update():
            table.clear()
            for relay in rows:
                table.add_row(*relay_cells(relay, premium=bool(self.premium)), key=relay.name)
            _place_cursor(table, [r.name for r in rows], current.name if current else None, row)
        self._show_relay_detail()

    # ------------------------------------------------------------------ highlighted rows

    @property
    def highlighted_hook(self) -> Webhook | None:
        row = self.hooks_table.cursor_row
        return self.hooks[row] if self.hooks and 0 <= row < len(self.hooks) else None

    @property
    def highlighted_relay(self) -> RelayRow | None:
        row = self.relay_table.cursor_row
        return self.relays[row] if self.relays and 0 <= row < len(self.relays) else None

    @on(DataTable.RowHighlighted, "#relay-table")
    def _relay_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        self._show_relay_detail()

    def _show_relay_detail(self) -> None:
        detail = relay_detail(self.highlighted_relay, premium=self.premium is not False)
        self.query_one("#relay-detail-text", Static).update(detail)

    # ------------------------------------------------------------------ add a destination

    def action_add(self) -> None:
        target = self.session.target_id

        async def send(request: WebhookRequest) -> str:
            reply = await self.session.client.add_webhook(
                request.url, request.type, request.label, target=target
            )
            return reply.message or "Webhook created"

        def done(result: tuple[WebhookRequest, str] | None) -> None:
            if result is None or target != self.session.target_id:
                return
            request, message = result
            self.tabs.active = HOOKS
            self.status.ok(f"{message}: {request.url}")
            self.load_hooks(request.url, quiet=True)

        self.app.push_screen(WebhookForm(send, subtitle=f"For {self.who}"), done)

    # ------------------------------------------------------------------ delete

    def action_delete(self) -> None:
        if self.tabs.active == RELAYS:
            self._delete_relay()
        else:
            self._delete_hook()

    def _delete_hook(self) -> None:
        hook = self.highlighted_hook
        if hook is None:
            self.status.info("No destination highlighted: nothing to remove")
            return
        label = f"{hook.label}, " if hook.label else ""
        body = (
            f"Remove the webhook destination\n{hook.url}\n({label}type {plain(hook.type)}) "
            f"of {self.who}? It will no longer receive events."
        )
        modal = ConfirmModal("Remove a webhook destination", body, confirm_label="Remove")
        self.app.push_screen(modal, lambda yes: self.remove_hook(hook) if yes else None)

    @work(exclusive=True, group="webhooks-delete", exit_on_error=False)
    async def remove_hook(self, hook: Webhook) -> None:
        target = self.session.target_id
        self.status.loading(f"Removing {hook.url}")
        try:
            reply = await self.session.client.delete_webhook(hook.url, target=target)
        except PlatformError as exc:
            if target != self.session.target_id:
                return
            if isinstance(exc, ApiError) and exc.status == 404:
                gone = f"{describe_error(exc)} — it was already gone; the list is refreshed"
                self.status.error(gone, retry_key=None)
                self.load_hooks(quiet=True)
            else:
                self.status.error(f"Could not remove: {describe_error(exc)}", retry_key="d")
            return
        if target == self.session.target_id:
            self.status.ok(f"{reply.message or 'Webhook deleted'}: {hook.url}")
            self.load_hooks(quiet=True)

    def _delete_relay(self) -> None:
        relay = self.highlighted_relay
        if relay is None:
            self.status.info("No relay type highlighted: nothing to delete")
            return
        if not self.premium:
            self.status.info("Relays need premium on this account: there is nothing to delete")
            return
        if relay.config is None:
            self.status.info(f"{relay.name} is not configured: there is nothing to delete")
            return
        body = (
            f"Delete the {relay.name} relay configuration of {self.who}?\n"
            f"Events of this type will no longer be relayed to {plain(relay.config.url)}."
        )
        modal = ConfirmModal("Delete a relay configuration", body, confirm_label="Delete")
        self.app.push_screen(modal, lambda yes: self.remove_relay(relay.name) if yes else None)

    @work(exclusive=True, group="webhooks-relay-delete", exit_on_error=False)
    async def remove_relay(self, name: str) -> None:
        """Delete one relay configuration; every outcome gets its own explanation."""
        target = self.session.target_id
        self.status.loading(f"Deleting the {name} relay configuration")
        try:
            reply = await self.session.client.delete_relay(name, target=target)
        except ApiError as exc:
            if target != self.session.target_id:
                return
            self.last_outcome = (exc.status, exc.message)
            line = f"{name}: HTTP {exc.status}: {exc.message} — {explain(exc.status)}"
            self.status.error(line, retry_key="d" if exc.status >= 500 else None)
            if exc.status in (403, 404):
                self.load_relays(quiet=True)
            return
        except PlatformError as exc:
            if target == self.session.target_id:
                self.status.error(f"{name}: {describe_error(exc)}", retry_key="d")
            return
        if target != self.session.target_id:
            return
        message = reply.message or f"Webhook Relay type '{name}' removed."
        self.last_outcome = (200, message)
        self.status.ok(f"HTTP 200: {message} — {explain(200)}")
        self.load_relays(quiet=True)


def _shorten(text: str, room: int | None) -> str:
    """``text`` cut in the middle to ``room`` characters (None: as is)."""
    if room is None or len(text) <= room:
        return text
    head = (room - 1) // 2
    return text[:head] + "…" + text[len(text) - (room - 1 - head) :]


def _place_cursor(table: DataTable[Any], keys: list[str], keep: str | None, row: int) -> None:
    """On the row keyed ``keep`` if it is there, else as near the old row as possible."""
    if keep in keys:
        table.move_cursor(row=keys.index(keep), animate=False)
    elif keys:
        table.move_cursor(row=min(row, len(keys) - 1), animate=False)
