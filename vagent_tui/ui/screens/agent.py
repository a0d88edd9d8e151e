"""Agent detail: the staging and live configuration, its raw JSON, and saved versions.

Staging falls back to live when the staging slot is empty (and says so). Renaming a
saved version changes only its title; the title shown afterwards is the server's
``newTitle``. An error keeps what was typed: the prompt opens again with it.

Everything the platform sent is shown inert, the raw JSON too. More than `ROW_CAP`
saved versions show the first ones; the status line says how many more there are.
A load that fails says so where the configuration would be, not only in the status line.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from functools import partial
from typing import ClassVar

from pydantic import ValidationError
from rich.syntax import Syntax
from rich.text import Text
from textual import work
from textual.binding import Binding, BindingType
from textual.coordinate import Coordinate
from textual.widget import Widget
from textual.widgets import Static, TabbedContent, TabPane

from vagent_tui.api.agent_extras_models import ModelCatalog
from vagent_tui.api.errors import PlatformError
from vagent_tui.api.models import AgentConfig, SavedVersion, TitleChange, TitleRequest
from vagent_tui.services.agents import AgentSlots, load_agent
from vagent_tui.services.session import Connection
from vagent_tui.services.staging import Slots, wire
from vagent_tui.ui.colours import BADGE_OK, BADGE_WARN, FAILED, WARN
from vagent_tui.ui.dialogs import PromptModal
from vagent_tui.ui.failures import next_step
from vagent_tui.ui.format import fmt_datetime, joined
from vagent_tui.ui.safety import DESTRUCTIVE, WRITES, Key
from vagent_tui.ui.screens.agent_changes import title_problem
from vagent_tui.ui.screens.agent_link import AgentMore
from vagent_tui.ui.screens.base import who_of
from vagent_tui.ui.screens.calls_link import calls_binding, show_calls
from vagent_tui.ui.text import inert, safe
from vagent_tui.ui.widgets.account_info import kind_name
from vagent_tui.ui.widgets.agent_view import AgentView, ScrollPane
from vagent_tui.ui.widgets.call_test import CallTestModal
from vagent_tui.ui.widgets.status import describe_error, token_refused
from vagent_tui.ui.widgets.tables import ROW_CAP, SafeTable, left_out, row_table
from vagent_tui.ui.writes import Write, Written
from vagent_tui.words import counted, noun_for


def differing_fields(live: AgentConfig, staging: AgentConfig) -> list[str]:
    a, b = live.wire(), staging.wire()
    return sorted(k for k in a.keys() | b.keys() if a.get(k) != b.get(k))


class AgentScreen(AgentMore):
    """The selected agent account's configuration slots and saved versions."""

    AUTO_FOCUS = "#agent-view"
    CSS_PATH = "agent.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "toggle_slot", "Staging/Live", id="agent.slot",
                tooltip="Show the staging or the live configuration"),
        Binding("J", "toggle_json", "JSON", show=False, id="agent.json",
                tooltip="The raw JSON of the whole configuration (y copies it)"),
        Binding("c", "tab('tab-config')", "Config", show=False, id="agent.config",
                tooltip="The configuration, grouped"),
        Binding("v", "tab('tab-versions')", "Versions", show=False, id="agent.versions",
                tooltip="Saved versions of the live configuration"),
        Key("e", "edit('version')", "Rename", show=False, id="agent.rename", does=WRITES,
                tooltip="Rename the highlighted saved version"),
        Binding("y", "copy_json", "Copy JSON", show=False, id="agent.copy-json",
                tooltip="Copy the raw JSON of the configuration shown"),
        calls_binding("agent", "The calls of this agent account"),
        Binding("R", "review", "Review", id="agent.review",
                tooltip="Ask the platform to review staging: each suggestion beside the text"),
        Key("T", "test_call", "Test call", id="agent.test-call", does=DESTRUCTIVE,
            tooltip="Place a real test call or text from this agent (asks first)"),
    ]  # fmt: skip

    def __init__(self) -> None:
        super().__init__()
        self.slot = "live"
        self.slots: AgentSlots | None = None
        self._loaded_for: int | None = None
        self.raw_json = ""
        """The JSON of the configuration on show, as ``y`` copies it."""
        self.versions: list[SavedVersion] = []
        """The saved versions in the table: row ``i`` is ``versions[i]``."""
        self.models: ModelCatalog | None = None
        """The models the platform offers (the provider beside the agent's model)."""

    def compose_body(self) -> Iterable[Widget]:
        yield Static("", id="agent-slot")
        yield Static("", id="agent-link")
        yield Static("", id="agent-hint")
        with TabbedContent(id="agent-tabs"):
            with TabPane("Config", id="tab-config"):
                yield AgentView(id="agent-view")
            with TabPane("JSON", id="tab-json"), ScrollPane(id="agent-json-pane"):
                yield Static("", id="agent-json")
            with TabPane("Versions", id="tab-versions"):
                yield row_table(
                    "agent-versions", (("Title", "title"), ("Saved", "saved"), ("versionId", "id"))
                )

    def on_mount(self) -> None:
        self.query_one("#agent-view").focus()

    def action_review(self) -> None:
        from vagent_tui.ui.screens.review import ReviewScreen

        self.app.push_screen(ReviewScreen(), lambda _done: self.changes_done())

    def review_aside(self) -> Callable[[], object]:
        """``R`` in the publish question: the platform's review of staging instead."""
        return self.action_review

    async def action_calls(self) -> None:
        await show_calls(self, self.connection.target_id)

    def action_test_call(self) -> None:
        if not self.connection.is_agent_selected:
            self.status.info("Select a voice agent account on the Scope screen (1) first")
            return

        async def opened(account: int | None) -> None:
            if account is not None:
                await show_calls(self, account)

        who = who_of(self, with_id=True)
        self.app.push_screen(CallTestModal(who=who), opened)

    @property
    def versions_table(self) -> SafeTable:
        return self.query_one("#agent-versions", SafeTable)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Without an agent account, the agent keys are hidden from the footer."""
        if super().check_action(action, parameters) is False:
            return False  # read-only
        if action in (
            "toggle_slot",
            "toggle_json",
            "tab",
            "copy_json",
            "diff",
            "edit",
            "publish",
            "revert",
            "save_version",
            "restore",
            "test_call",
            "link",
            "replace_version",
            "message_in",
        ):
            return not self.has_class("-no-agent")
        return True

    @property
    def tabs(self) -> TabbedContent:
        return self.query_one("#agent-tabs", TabbedContent)

    # ------------------------------------------------------------------ loading

    def reload(self) -> None:
        conn = self.connection
        if conn.target_id != self._loaded_for:
            self.done_note = ""  # what a change did on another agent is not news here
        if self.link is not None and self.link[0] != conn.acting_id:
            self._show_link(None)  # another agent's link is not this one's
        if not conn.is_agent_selected:
            self.slots = None
            self.add_class("-no-agent")
            self.refresh_bindings()
            acting = conn.acting_as
            who = Text("Select an agent account on the Scope screen (1).\n\n", style="bold")
            if acting is not None:
                name = inert(acting.display_name)
                who.append(f"Acting as {name} (#{inert(acting.id)}, {kind_name(acting)}),")
                who.append(" which is not an agent account: it has no agent configuration.")
            self.query_one("#agent-hint", Static).update(who)
            self.status.info("No agent account selected")
            return
        self.remove_class("-no-agent")
        self.refresh_bindings()
        self.load_configuration(conn.target_id)
        self.load_models()

    @work(exclusive=True, group="agent-models", exit_on_error=False)
    async def load_models(self) -> None:
        """The models the platform offers, beside the configuration's read: a failure
        only leaves the provider unsaid (the configuration says what failed to load)."""
        ok, models = await self.load(
            lambda c: c.api.list_models(target=c.target_id), on_error=lambda _exc: None
        )
        if ok and models is not None and models.read:  # an empty list offers nothing
            self.models = models
            self._show_slot()

    @work(exclusive=True, group="agent-load", exit_on_error=False)
    async def load_configuration(self, target: int | None) -> None:
        if self._loaded_for != target or self.slots is None:  # don't show another agent's
            self.slots = None
            self.query_one("#agent-slot", Static).update(Text("⟳ Loading…", style="italic"))
            self.query_one(AgentView).show(None)
            self.query_one("#agent-json", Static).update("")
            self.versions = []
            self.versions_table.clear()

        def failed(exc: PlatformError) -> None:
            self.status.error(exc)
            self._show_failed(exc)

        ok, slots = await self.load(
            lambda c: load_agent(c.api, c.target_id),
            note="Loading the staging and live configuration",
            on_error=failed,
        )
        if not ok or slots is None:
            return
        self.slots = slots
        self._loaded_for = target
        self._show_slot()
        self._show_versions()
        count = len(slots.versions)
        more = left_out(count, "version")
        if self.done_note:  # a change just made: say what it did, on what is shown now
            if self.done_failed:
                self.status.error(self.done_note, retry_key=None)
            else:
                self.status.ok(self.done_note)
            self.done_note = ""
            return
        self.status.info(f"Loaded; {counted(count, 'saved version')}{more}")

    def load_failed(self, error: BaseException, group: str = "") -> None:
        super().load_failed(error, group)
        if group == "agent-load":
            self._show_failed(error)

    def not_connected(self, error: BaseException) -> None:
        self.slots = None  # what was shown belongs to a connection that is gone
        self.query_one(AgentView).show(None)
        self._show_failed(error, what="Not connected")

    def _show_failed(
        self, error: BaseException, what: str = "Could not load the configuration"
    ) -> None:
        """Where the configuration would be: what failed (never "Loading…" after it)."""
        if self.slots is None:
            line = safe(f"✗ {what}: {describe_error(error)}", FAILED)
            if token_refused(error):
                line.append(" (a new token is needed: see the status line)", style="dim")
            elif step := next_step(error, "r"):
                line.append(f" ({step})", style="dim")
            self.query_one("#agent-slot", Static).update(line)

    # ------------------------------------------------------------------ showing

    def _show_slot(self) -> None:
        slots = self.slots
        if slots is None:
            return
        config = slots.slot(self.slot)
        line = Text()
        if self.slot == "staging":
            line.append(" STAGING ", style=BADGE_WARN)
        else:
            line.append(" LIVE ", style=BADGE_OK)
        if config is not None:
            line.append(f" {inert(config.id) or '—'} · ")
            line.append(inert(config.title) or "untitled", style="bold")
        if self.slot == "staging" and slots.staging_is_empty:
            line.append("  staging is empty: showing the live configuration", style=WARN)
        elif self.slot == "staging" and slots.live is not None and slots.staging is not None:
            diff = differing_fields(slots.live, slots.staging)
            differ = noun_for(len(diff), "differs", "differ")
            line.append(f"  {counted(len(diff), 'field')} {differ} from live", style="dim")
            if diff:
                line.append(": " + joined(diff), style="dim")
        line.append("  (s: staging/live)", style="dim")
        self.query_one("#agent-slot", Static).update(line)
        self.query_one(AgentView).show(config, self.models)
        raw = json.dumps(config.wire(), indent=2, ensure_ascii=False) if config else "null"
        self.raw_json = raw
        # json.dumps escapes C0 controls, but not C1, bidi or zero-width characters.
        # The terminal's own ANSI colours, for a dark or a light theme: NO_COLOR strips them.
        ansi = "ansi_dark" if self.app.current_theme.dark else "ansi_light"
        syntax = Syntax(inert(raw, multiline=True), "json", theme=ansi, word_wrap=True,
                        background_color="default")  # fmt: skip
        self.query_one("#agent-json", Static).update(syntax)

    def _show_versions(self) -> None:
        table = self.versions_table
        table.clear()
        self.versions = (self.slots.versions if self.slots else [])[:ROW_CAP]
        for version in self.versions:
            table.add_row(
                safe(version.title or "—"),
                fmt_datetime(version.saved_at),
                inert(version.version_id),
                key=inert(version.version_id),
            )

    def action_toggle_slot(self) -> None:
        self.slot = "staging" if self.slot == "live" else "live"
        if self.slots is None:
            self.status.info(f"Will show {self.slot} once loaded")
            return
        self._show_slot()
        if self.slot == "staging" and self.slots.staging_is_empty:
            self.status.info("Staging is empty: showing the live configuration")
        else:
            self.status.info(f"Showing the {self.slot} configuration")

    def action_tab(self, tab: str) -> None:
        self.tabs.active = tab

    def action_copy_json(self) -> None:
        raw = self.raw_json
        if not raw or raw == "null":
            self.status.error("No configuration loaded to copy", retry_key=None)
            return
        self.vapp.copy_text(raw, f"{self.slot} configuration JSON")

    def action_toggle_json(self) -> None:
        self.tabs.active = "tab-config" if self.tabs.active == "tab-json" else "tab-json"

    def on_tabbed_content_tab_activated(self, event: TabbedContent.TabActivated) -> None:
        self._focus_pane(event.pane.id or "")

    def _focus_pane(self, pane: str) -> None:
        panes = {"tab-config": "#agent-view", "tab-json": "#agent-json-pane"}
        self.query_one(panes.get(pane, "#agent-versions")).focus()

    # ------------------------------------------------------------------ changes

    def shown_slots(self) -> Slots | None:
        if self.slots is None:
            return None
        return Slots(wire(self.slots.staging), wire(self.slots.live))

    def on_versions_tab(self) -> bool:
        return self.tabs.active == "tab-versions"

    # ------------------------------------------------------------------ renaming

    def highlighted_version(self) -> SavedVersion | None:
        row = self.versions_table.cursor_row  # row i is versions[i], repeated ids too
        return self.versions[row] if 0 <= row < len(self.versions) else None

    def action_edit(self, what: str = "settings") -> None:
        """e: rename the highlighted saved version; E: the staging settings form."""
        if what != "version":
            super().action_edit(what)
            return
        self.tabs.active = "tab-versions"
        version = self.highlighted_version()
        live = self.slots.live if self.slots else None
        if version is None or live is None or not live.id:
            self.status.error("No saved version to rename", retry_key=None)
            return
        self._prompt(version, live.id, version.title)

    def _prompt(self, version: SavedVersion, live_id: str, value: str, error: str = "") -> None:
        body = f"Saved {fmt_datetime(version.saved_at)} · versionId {version.version_id}\n"
        body += "Only the display title changes."
        if error:
            body += f"\n\n✗ Not renamed: {error}"
        modal = PromptModal(
            "Rename saved version", body, value=value, placeholder="New title",
            confirm_label="Rename", validate=title_problem,
        )  # fmt: skip
        start = self.connection  # the account whose version is renamed
        self.app.push_screen(modal, partial(self._rename_chosen, version, live_id, start))

    def _rename_chosen(
        self, version: SavedVersion, live_id: str, start: Connection, title: str | None
    ) -> None:
        if title is None:
            self.status.info("Rename cancelled; nothing was sent")
            return
        try:
            TitleRequest(title=title)
        except ValidationError as exc:
            problem = "; ".join(e["msg"] for e in exc.errors())
            self.status.error(problem, retry_key=None)
            self._prompt(version, live_id, title, error=problem)
            return
        version_id = version.version_id

        def done(change: TitleChange) -> str:
            new_title = change.new_title if change.new_title is not None else title
            return f"Version {version_id} is now titled “{new_title}”"

        def after(written: Written[TitleChange]) -> None:
            if written.result is not None:
                change = written.result
                version.title = change.new_title if change.new_title is not None else title
                rows = [i for i, v in enumerate(self.versions) if v is version]
                if start.same_context(self.connection) and rows:
                    self.versions_table.update_cell_at(Coordinate(rows[0], 0), safe(version.title))
            elif written.outcome == "refused":
                self._prompt(version, live_id, title, error=written.line)  # as typed

        async def read_back(c: Connection) -> str:
            versions = await c.api.list_versions(live_id, target=c.target_id)
            now = next((v for v in versions if v.version_id == version_id), None)
            if now is None:
                return f"version {version_id} is not listed."
            return f"version {version_id} is titled “{now.title}”."

        self.write(
            Write[TitleChange](
                "agent-rename",
                f"Renaming version {version_id}",
                lambda c: c.api.rename_version(live_id, version_id, title, target=c.target_id),
                done=done,
                read_back=read_back,
                after=after,
            ),
            start,
        )
