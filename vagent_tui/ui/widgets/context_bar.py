"""The header line every screen shows: where we are, which key, acting as whom."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.widgets import Static

from vagent_tui.ui.text import inert

if TYPE_CHECKING:
    from vagent_tui.ui.app import VagentApp


class ContextBar(Static):
    """``Scope · acting as X (#id) via key of Y · Partner Admin · profile``.

    Account names, the scope's label and the profile come from outside: shown inert.
    """

    DEFAULT_CSS = """
    ContextBar {
        dock: top;
        height: 1;
        width: 100%;
        background: $primary-background;
        color: $text;
        padding: 0 1;
    }
    ContextBar.-tier-prod {
        background: $tier-prod;
        color: auto;
    }
    ContextBar.-tier-staging {
        background: $tier-staging;
        color: auto;
    }
    """

    def __init__(self, title: str) -> None:
        super().__init__(id="context-bar", markup=False)
        self.screen_title = title

    def on_mount(self) -> None:
        self.watch(self.app, "context_version", self._refresh_text, init=True)

    def _refresh_text(self, _version: int = 0) -> None:
        """Most important first, so a narrow terminal cuts the least useful part."""
        app: VagentApp = self.app  # type: ignore[assignment]
        session = app.session
        text = Text(no_wrap=True, overflow="ellipsis")
        tier = getattr(app, "tier", "")
        self.set_class(tier == "prod", "-tier-prod")
        self.set_class(tier == "staging", "-tier-staging")
        if tier in ("prod", "staging"):
            text.append(f" {tier.upper()} ", style="bold reverse")
            text.append(" ")
        if getattr(app, "read_only", False):
            text.append("read-only", style="bold")
            text.append(" · ")
        text.append(self.screen_title, style="bold")
        if session is None or session.scope is None:
            failed = getattr(app, "connect_error", None) is not None
            text.append(" · not connected" if failed else " · connecting…", style="italic")
        else:
            text.append(" · ")
            text.append(inert(session.context_line()))
            text.append(f" · {inert(session.scope.label)}")
            if session.scope.restricted:
                text.append(" (restricted)")
        text.append(f" · {inert(app.profile_label)}", style="dim")
        self.update(text)
