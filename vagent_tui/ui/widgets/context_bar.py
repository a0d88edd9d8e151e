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
        """Most important first, so a narrow terminal cuts the least useful part."""
        self._connection = connection
        text = Text(no_wrap=True, overflow="ellipsis")
        tier = connection.tier
        self.set_class(tier == "prod", "-tier-prod")
        self.set_class(tier == "staging", "-tier-staging")
        if tier in ("prod", "staging"):
            text.append(f" {tier.upper()} ", style="bold reverse")
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
        text.append(f" · {inert(connection.label)}", style="dim")
        self.update(text)
