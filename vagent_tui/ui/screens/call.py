"""One call: its conversation (who said what, summary, outcome, attachments as text) and
every field of its log entry, pushed over Calls by Enter; esc comes back to the same
page and row. Calls keeps one such screen and shows each call it opens on it
(`show_call`): a screen built and laid out for each Enter costs more than the call;
shown again, it skips Textual's restyle of all its widgets unless the app's styles
changed meanwhile (`keep_styles_if_unchanged`).

The conversation normally came with the page (`CallsScreen` reads a page's
conversations in one batch request); if not, this screen asks for it (one batch item).
``v`` shows the agent's configuration that was live when the call happened: the newest
saved version (versions are named by their epoch-ms) at or before the call's time.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from datetime import datetime
from typing import ClassVar

from rich.text import Text
from textual import events, on, work
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widget import Widget
from textual.widgets import Static

from vagent_tui.api.log_models import BatchResult, LogEntry
from vagent_tui.api.models import SavedVersion
from vagent_tui.services.agents import saved_versions
from vagent_tui.services.calls import fetch_transcripts
from vagent_tui.ui.built import when_built
from vagent_tui.ui.screens.call_capture import CaptureFetching, account_of
from vagent_tui.ui.screens.caller_context import CallerContextFlow, context_key
from vagent_tui.ui.text import inert
from vagent_tui.ui.textual_compat import style_mark
from vagent_tui.ui.widgets.call_rows import (
    call_header,
    conversation_view,
    transcript_plain,
    when,
)
from vagent_tui.ui.widgets.inbox_rows import DetailText


def version_at(versions: Iterable[SavedVersion], moment: datetime) -> SavedVersion | None:
    """The newest version saved at or before ``moment`` (None: none was yet)."""
    limit = moment.timestamp() * 1000
    before = [v for v in versions if v.version_id and v.version_id <= limit]
    return max(before, key=lambda v: v.version_id) if before else None


class CallScreen(CallerContextFlow, CaptureFetching):
    """The conversation of one log entry."""

    TITLE = "Call"
    CSS_PATH = "call.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back", id="call.back", tooltip="Back to the calls"),
        Binding("v", "version", "Version then", id="call.version",
                tooltip="The agent's configuration live at the time of the call"),
        Binding("y", "copy", "Copy", id="call.copy", tooltip="Copy the transcript as text"),
        Binding("S", "capture", "Capture", id="call.capture", tooltip="The call's SIP capture"),
        context_key("call"),
    ]  # fmt: skip

    def __init__(
        self, entry: LogEntry, result: BatchResult | None, *, local: bool, target: int | None
    ) -> None:
        super().__init__()
        self.entry = entry
        self.result = result
        self.local = local
        self.target = target
        """The account the query was for (None: the key's own scope)."""
        self.fetching = False
        self._style_mark: object = None
        """The app's styles as they were when this screen was last shown (`style_mark`)."""

    def show_call(
        self, entry: LogEntry, result: BatchResult | None, *, local: bool, target: int | None
    ) -> None:
        """Show another call (this screen kept by Calls, about to be shown again): what
        was under way for the last one stops, its status line goes, the text starts at
        its top; the conversation is read when shown if it did not come with the page.
        Called before this screen is built (Enter again while it is pushed), it keeps the
        call, which it draws when built."""
        self.workers.cancel_group(self, "call-load")
        self.workers.cancel_group(self, "call-version")
        self.workers.cancel_group(self, "call-capture")
        self.entry, self.result, self.local, self.target = entry, result, local, target
        self.fetching = False
        self.load_when_shown()
        when_built(self, self._redraw)

    def _redraw(self) -> None:
        self.status.clear()
        self.query_one("#call-body", VerticalScroll).scroll_home(animate=False)
        self._show()

    def compose_body(self) -> Iterable[Widget]:
        yield Static("", id="call-header", markup=False)
        with VerticalScroll(id="call-body"):
            yield DetailText(Text(""), id="call-text", markup=False)

    @on(events.ScreenResume)
    def keep_styles_if_unchanged(self, event: events.ScreenResume) -> None:
        # Runs before Textual's own handler (a decorated handler of this class comes first).
        # Shown again by Calls with another call's text, Textual would re-apply every CSS
        # rule to every widget here although none reads anything that changed; it still
        # does when the app's CSS (theme), classes, pseudo-classes or size changed.
        mark = style_mark(self.app)
        if mark == self._style_mark:
            event.refresh_styles = False
        self._style_mark = mark

    def on_mount(self) -> None:
        self._show()
        self.query_one("#call-body", VerticalScroll).focus()

    def call_in_view(self) -> tuple[LogEntry | None, int | None]:
        return self.entry, self.target

    def reload(self) -> None:
        if self.result is None and self.entry.conversation_ref is not None:
            self._fetch()

    @work(exclusive=True, group="call-load", exit_on_error=False)
    async def _fetch(self) -> None:
        self.fetching = True
        self._show()
        entry, target = self.entry, self.target
        try:
            ok, results = await self.load(
                lambda c: fetch_transcripts(c.api, [entry], target=target),
                note="Loading the conversation",
                follows_target=False,
            )
        finally:
            self.fetching = False
        if ok and results is not None:
            self.result = next(iter(results.values()), None)
            self.status.clear()
        self._show()

    def _show(self) -> None:
        entry = self.entry
        header = call_header(entry, local=self.local)
        self.query_one("#call-header", Static).update(header, layout=False)  # one line
        view = conversation_view(entry, self.result, local=self.local, fetching=self.fetching)
        # rendered once (a Static renders a Rich renderable to measure it, then to draw)
        self.query_one("#call-text", DetailText).show(view)

    def action_back(self) -> None:
        self.app.pop_screen()

    def action_copy(self) -> None:
        self.vapp.copy_text(inert(transcript_plain(self.entry, self.result), multiline=True),
                            "transcript")  # fmt: skip

    def action_version(self) -> None:
        moment = self.entry.at
        if moment is None:
            self.status.info("This entry has no time: no version to match")
            return
        account = account_of(self.entry, self.target)
        if account is None:
            self.status.info("This entry names no account")
            return
        self._version(account, moment)

    @work(exclusive=True, group="call-version", exit_on_error=False)
    async def _version(self, account: int, moment: datetime) -> None:
        config_id = self.entry.get("agentConfigId")
        ident = config_id if isinstance(config_id, str) and config_id else None
        ok, got = await self.load(
            lambda c: saved_versions(c.api, account, ident),
            note="Reading the agent's saved versions", follows_target=False,
        )  # fmt: skip
        if not ok or got is None:
            return
        ident, versions = got
        self.status.clear()
        if ident is None:
            self.status.info(f"Account #{account} has no live agent configuration")
            return
        version = version_at(versions, moment)
        from vagent_tui.ui.dialogs import TextModal

        if version is None:
            self.status.info(
                f"No version of {inert(ident)} was saved before this call "
                f"({len(versions):,} saved, all later): the live one then is not kept"
            )
            return
        saved = when(version.saved_at, local=self.local)
        body = json.dumps(version.snapshot or {}, ensure_ascii=False, indent=2, default=str)
        self.app.push_screen(
            TextModal(
                f"Live at the call's time: version {version.version_id} of {ident}",
                body,
                note=f"“{version.title or 'untitled'}”, saved {saved}; the newest of "
                f"{len(versions):,} saved versions that is not after the call.",
            )
        )
        self.status.info(f"Version {version.version_id} ({version.title or 'untitled'})")
