"""The header line every screen shows: where we are, which key, acting as whom."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.widgets import Static

from vagent_tui.ui.css import stylesheet
from vagent_tui.ui.text import inert

if TYPE_CHECKING:
    from vagent_tui.services.session import Connection


class ContextBar(Static):
    """``Scope · acting as X (#id) via key of Y · Partner Admin · profile``.

    Account names, the scope's label and the profile come from outside: shown inert.
    """

    DEFAULT_CSS = stylesheet(__file__)

    def __init__(self, title: str) -> None:
        super().__init__(id="context-bar", markup=False)
        self.screen_title = title
        self._connection: Connection | None = None

    def on_mount(self) -> None:
        self.watch(self.app, "connection", self.show_connection, init=True)

    def set_title(self, title: str) -> None:
        """Another title for the screen (the inbox shown, the room open)."""
        if title != self.screen_title:
            self.screen_title = title
            if self._connection is not None:
                self.show_connection(self._connection)

    def show_connection(self, connection: Connection) -> None:
        """Most important first; the profile stays at the right end whatever the width.

        A narrow terminal cuts the middle (whom we act as, the scope) with an ellipsis,
        never the profile, which says which key and platform every action goes to.
        """
        self._connection = connection
        text = Text(no_wrap=True, overflow="ellipsis", end="")
        tier = connection.tier
        self.set_class(tier == "prod", "-tier-prod")
        self.set_class(tier == "staging", "-tier-staging")
        if tier in ("prod", "staging"):
            text.append(f" {inert(tier).upper()} ", style="bold reverse")
            text.append(" ")
        if connection.read_only:
            text.append("read-only", style="bold")
            text.append(" · ")
        text.append(self.screen_title, style="bold")
        scope = connection.scope
        if scope is None:
            failed = connection.error is not None
            text.append(" · not connected" if failed else " · connecting…", style="italic")
        else:
            text.append(" · ")
            text.append(inert(connection.context_line()))
            text.append(f" · {inert(scope.label)}")
            if scope.restricted:
                text.append(" (restricted)")
        profile = Text(f" · {inert(connection.label)}", style="dim", end="")
        width = self.content_size.width
        if width > 0:
            # The profile keeps its place (up to half the line); the rest is cut first.
            profile.truncate(max(width // 2, 12), overflow="ellipsis")
            text.truncate(max(width - profile.cell_len, 1), overflow="ellipsis")
        text.append_text(profile)
        self.update(text)

    def on_resize(self) -> None:
        if self._connection is not None:
            self.show_connection(self._connection)
