"""Webhooks: destinations (list, add, remove) and relay configurations per type.

Two tabs (``t`` switches). Destinations: ``a`` adds one through a validated form, ``d``
removes the highlighted one after confirmation. Relays: every relay type with whether it
is configured, the highlighted one's configuration beside it, ``a`` configures the
highlighted type (or edits its configuration: URL, timeout, headers, success codes) and
``d`` deletes a configuration after confirmation; each of the documented delete outcomes
is shown with the server's message and what it means. Relays are premium: on other
accounts the relay list answers 403, shown with the platform's message in the relay tab
while destinations keep working (a 403 may refuse for another reason: the console does
not guess which).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from typing import ClassVar

from textual import on, work
from textual.binding import Binding, BindingType
from textual.widget import Widget
from textual.widgets import TabbedContent, TabPane

from vagent_tui.api.errors import ApiError, PlatformError
from vagent_tui.api.models import (
    Envelope,
    RelayConfig,
    RelayRequest,
    RelayType,
    Webhook,
    WebhookRequest,
)
from vagent_tui.services.relays import read_relays
from vagent_tui.services.session import Connection
from vagent_tui.ui.caps import left_out
from vagent_tui.ui.dialogs import ConfirmModal
from vagent_tui.ui.failures import next_step
from vagent_tui.ui.format import plain
from vagent_tui.ui.safety import DESTRUCTIVE, WRITES, Key
from vagent_tui.ui.screens.base import BaseScreen, who_of
from vagent_tui.ui.widgets.entry_forms import WebhookForm
from vagent_tui.ui.widgets.hooks import HookPane
from vagent_tui.ui.widgets.record_table import RecordTable
from vagent_tui.ui.widgets.relay_form import RelayForm
from vagent_tui.ui.widgets.relays import RelayPane, RelayRow, explain, relay_rows
from vagent_tui.ui.widgets.status import describe_error
from vagent_tui.ui.widgets.table_filter import filter_binding
from vagent_tui.ui.writes import Write, Written, listed
from vagent_tui.words import counted

"""From this width the relay detail sits beside the relay table, below it otherwise."""
HOOKS, RELAYS = "tab-destinations", "tab-relays"


Notice = tuple[str, str] | None
"""A line above the relays and its class (``-refused``, ``-error``), or nothing."""


class WebhooksScreen(BaseScreen):
    """Webhook destinations and webhook relay configurations of the acting account."""

    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (120, "-wide")]
    BINDINGS: ClassVar[list[BindingType]] = [
        Key(
            "a",
            "add",
            "Add",
            id="webhooks.add",
            does=WRITES,
            tooltip="Add a webhook destination, or configure the highlighted relay type",
        ),
        Key(
            "d",
            "delete",
            "Delete",
            id="webhooks.delete",
            does=DESTRUCTIVE,
            tooltip="Delete the highlighted destination or relay configuration",
        ),
        Binding("t", "switch_tab", "Destinations/Relays", id="webhooks.tab", tooltip="Switch tab"),
        filter_binding("webhooks"),  # last: the footer drops it first
    ]
    CSS_PATH = "webhooks.tcss"

    def __init__(self) -> None:
        super().__init__()
        self.last_outcome: tuple[int, str] | None = None
        """The status and server message of the last relay delete."""
        self._summary: dict[str, str] = {}
        self._failed: set[str] = set()

    # ------------------------------------------------------------------ layout

    def compose_body(self) -> Iterable[Widget]:
        with TabbedContent(id="webhooks-tabs", initial=HOOKS):
            with TabPane("Destinations", id=HOOKS):
                yield HookPane(id="hook-pane")
            with TabPane("Relays", id=RELAYS):
                yield RelayPane(id="relay-pane")

    @property
    def hook_pane(self) -> HookPane:
        return self.query_one("#hook-pane", HookPane)

    @property
    def hooks_table(self) -> RecordTable[Webhook]:
        return self.hook_pane.table

    @property
    def hooks(self) -> list[Webhook]:
        return self.hook_pane.hooks

    @property
    def highlighted_hook(self) -> Webhook | None:
        return self.hook_pane.highlighted

    @property
    def relay_pane(self) -> RelayPane:
        return self.query_one("#relay-pane", RelayPane)

    @property
    def relay_table(self) -> RecordTable[RelayRow]:
        return self.relay_pane.table

    @property
    def relays(self) -> list[RelayRow]:
        return self.relay_pane.rows

    @property
    def premium(self) -> bool | None:
        return self.relay_pane.premium

    @property
    def highlighted_relay(self) -> RelayRow | None:
        return self.relay_pane.highlighted

    @property
    def tabs(self) -> TabbedContent:
        return self.query_one("#webhooks-tabs", TabbedContent)

    def on_mount(self) -> None:
        self.apply_breakpoints()
        self._follow_width(show=False)
        self.hooks_table.focus()

    def on_resize(self) -> None:
        # Textual sets the breakpoint's class after this handler: follow it once it has.
        self.call_after_refresh(self._follow_width)

    def _follow_width(self, *, show: bool = True) -> None:
        """The panes lay out as the screen does (their own styles read ``-wide``)."""
        wide = self.has_class("-wide")
        changed = wide != self.hook_pane.has_class("-wide")
        self.relay_pane.set_class(wide, "-wide")
        self.hook_pane.set_class(wide, "-wide")
        if changed and show:
            self.hook_pane.show(self.hooks)

    # ------------------------------------------------------------------ tabs

    def action_switch_tab(self) -> None:
        self.tabs.active = RELAYS if self.tabs.active == HOOKS else HOOKS
        # Focused now, not when the tab's message comes: the first frame of the new tab
        # shows its focus, rather than a frame more restyling the table (issue 40: bytes).
        self._focus_tab()

    @on(TabbedContent.TabActivated)
    def _tab_activated(self, event: TabbedContent.TabActivated) -> None:
        event.stop()
        self._focus_tab()  # a tab clicked

    def _focus_tab(self) -> None:
        table = self.relay_table if self.tabs.active == RELAYS else self.hooks_table
        table.focus()

    # ------------------------------------------------------------------ loading

    def reload(self) -> None:
        self._summary.clear()
        self._failed.clear()
        self.status.busy("Loading webhooks and relays")
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
        self.status.error(exc, prefix=f"{what}: ")

    @work(exclusive=True, group="webhooks-hooks", exit_on_error=False)
    async def load_hooks(self, highlight: str | None = None, *, quiet: bool = False) -> None:
        ok, hooks = await self.load(
            lambda c: c.api.list_webhooks(target=c.target_id),
            busy=self.hooks_table,
            on_error=lambda exc: self._part_failed("hooks", exc),
        )
        if not ok or hooks is None:
            return
        self.hook_pane.show(hooks, highlight)
        count = counted(len(hooks), "destination") + left_out(len(hooks), "destination")
        self._part_done("hooks", count, quiet=quiet)

    @work(exclusive=True, group="webhooks-relays", exit_on_error=False)
    async def load_relays(self, *, quiet: bool = False) -> None:
        async def read(c: Connection) -> tuple[list[RelayType], list[RelayConfig] | None, Notice]:
            types, configs, refused = await read_relays(c.api, c.target_id)
            notice = None if refused is None else (f"Relay configurations refused: {refused}",
                                                   "-refused")  # fmt: skip
            return types, configs, notice

        def failed(exc: PlatformError) -> None:
            step = next_step(exc, "r")
            notice = f"✗ {describe_error(exc)}" + (f"  — {step}" if step else "")
            self.relay_pane.set_notice(notice, "-error")
            self._part_failed("relays", exc)

        ok, read_ = await self.load(read, busy=self.relay_table, on_error=failed)
        if not ok or read_ is None:
            return
        types, configs, notice = read_
        self.relay_pane.set_notice(*(notice or ("", "")))
        self.relay_pane.show(relay_rows(types, configs), premium=configs is not None)
        if configs is None:
            summary = "relays: refused (HTTP 403)"
        else:
            summary = f"{len(configs)} of {counted(len(self.relays), 'relay type')} configured"
        self._part_done("relays", summary, quiet=quiet)

    # ------------------------------------------------------------------ add a destination

    def action_add(self) -> None:
        if self.tabs.active == RELAYS:
            self._configure_relay()
            return
        target = self.connection.target_id

        async def send(c: Connection, request: WebhookRequest) -> str:
            reply = await c.api.add_webhook(
                request.url, request.type, request.label, target=c.target_id
            )
            return reply.message or "Webhook created"

        def read_back(c: Connection, request: WebhookRequest) -> Awaitable[str]:
            url = request.url
            return listed(
                c.api.list_webhooks(target=c.target_id), lambda hook: hook.url == url,
                present=f"{url} is a destination now.", absent=f"{url} is not a destination.",
            )  # fmt: skip

        def done(result: tuple[WebhookRequest, str] | None) -> None:
            if result is None or target != self.connection.target_id:
                return
            request, message = result
            self.tabs.active = HOOKS
            self.status.ok(f"{message}: {request.url}")
            self.load_hooks(request.url, quiet=True)

        form = WebhookForm(
            send, subtitle=f"For {who_of(self, with_id=True)}", read_back=read_back,
            after_unknown=lambda: self.load_hooks(quiet=True),
        )  # fmt: skip
        self.app.push_screen(form, done)

    # ------------------------------------------------------------------ configure a relay

    def _configure_relay(self) -> None:
        relay = self.highlighted_relay
        if relay is None:
            self.status.info("No relay type highlighted: nothing to configure")
            return
        if self.premium is None:
            self.status.info("The relay configurations are not loaded yet: r loads them")
            return
        if not self.premium:
            self.status.info("The platform refused this account's relay configurations (see "
                             "the notice): nothing can be configured here")  # fmt: skip
            return
        target = self.connection.target_id
        name = relay.name

        async def send(c: Connection, request: RelayRequest) -> str:
            reply = await c.api.save_relay(name, request, target=c.target_id)
            return reply.message or f"Webhook Relay for type '{name}' configured."

        def read_back(c: Connection, request: RelayRequest) -> Awaitable[str]:
            return listed(
                c.api.list_relays(target=c.target_id),
                lambda config: config.type == name and config.url == request.url,
                present=f"{name} relays to {request.url} now.",
                absent=f"{name} does not relay to {request.url}.",
            )

        def done(result: tuple[RelayRequest, str] | None) -> None:
            if result is None or target != self.connection.target_id:
                return
            self.status.ok(result[1])
            self.load_relays(quiet=True)

        form = RelayForm(
            name,
            relay.config,
            send,
            subtitle=f"For {who_of(self, with_id=True)}",
            after_unknown=lambda: self.load_relays(quiet=True),
            read_back=read_back,
        )
        self.app.push_screen(form, done)

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
        url = hook.url
        label = f"{hook.label}, " if hook.label else ""
        body = (
            f"Remove the webhook destination\n{url}\n({label}type {plain(hook.type)}) "
            f"of {who_of(self, with_id=True)}? It will no longer receive events."
        )
        self.write(
            Write[Envelope](
                "webhooks-delete",
                f"Removing {url}",
                lambda c: c.api.delete_webhook(url, target=c.target_id),
                confirm=ConfirmModal("Remove a webhook destination", body, confirm_label="Remove"),
                done=lambda reply: f"{reply.message or 'Webhook deleted'}: {url}",
                gone="it was already gone; the list is refreshed",
                read_back=lambda c: listed(
                    c.api.list_webhooks(target=c.target_id),
                    lambda h: h.url == url,
                    present=f"{url} is still a destination.",
                    absent=f"{url} is no longer a destination.",
                ),
                failed=lambda exc: f"Could not remove: {describe_error(exc)}",
                retry_key="d",
                after=lambda written: self._after_delete(written, self.load_hooks),
            )
        )

    def _after_delete(self, written: Written[object], load: Callable[..., object]) -> None:
        if written.stale:  # done, already gone, or unknown: show what the platform holds
            load(quiet=True)

    def _delete_relay(self) -> None:
        relay = self.highlighted_relay
        if relay is None:
            self.status.info("No relay type highlighted: nothing to delete")
            return
        if not self.premium:
            self.status.info("The relay list was refused for this account: nothing to delete")
            return
        if relay.config is None:
            self.status.info(f"{relay.name} is not configured: there is nothing to delete")
            return
        name = relay.name
        body = (
            f"Delete the {name} relay configuration of {who_of(self, with_id=True)}?\n"
            f"Events of this type will no longer be relayed to {plain(relay.config.url)}."
        )

        def failed(exc: PlatformError) -> str:
            """Every documented answer of a relay delete, explained."""
            if isinstance(exc, ApiError):
                return f"{name}: {describe_error(exc)} — {explain(exc.status)}"
            return f"{name}: {describe_error(exc)}"

        def done(reply: Envelope) -> str:
            return f"HTTP 200: {removed(reply)} — {explain(200)}"

        def removed(reply: Envelope) -> str:
            return reply.message or f"Webhook Relay type '{name}' removed."

        def after(written: Written[Envelope]) -> None:
            error = written.error
            if written.result is not None:
                self.last_outcome = (200, removed(written.result))
            elif isinstance(error, ApiError):
                self.last_outcome = (error.status, error.message)
            # a 500 is the platform failing: the configuration is probably still there
            if written.stale or (isinstance(error, ApiError) and error.status == 403):
                self.load_relays(quiet=True)

        self.write(
            Write[Envelope](
                "webhooks-relay-delete",
                f"Deleting the {name} relay configuration",
                lambda c: c.api.delete_relay(name, target=c.target_id),
                confirm=ConfirmModal("Delete a relay configuration", body, confirm_label="Delete"),
                done=done,
                gone=explain(404),
                read_back=lambda c: listed(
                    c.api.list_relays(target=c.target_id),
                    lambda config: config.type == name,
                    present=f"{name} is still configured.",
                    absent=f"{name} is not configured.",
                ),
                failed=failed,
                retry_key=lambda exc: (
                    "d" if isinstance(exc, ApiError) and exc.status >= 500 else None
                ),
                after=after,
            )
        )
