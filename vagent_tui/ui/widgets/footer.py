"""The key footer of every screen: Textual's `Footer`, minus the redundant recomposes."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.widgets import Footer

from vagent_tui.ui.textual_compat import footer_bindings_ready


class KeysFooter(Footer):
    """`Footer`, recomposed only when what it shows has changed.

    `Footer` recomposes (remounts every key, about 10 ms) once per binding change, and a
    screen being shown brings several (resume, focus, ...) that leave the keys as they
    were: at start-up three more recomposes followed the first one, each building the
    same footer again. This one compares what `Footer.compose` reads (Textual 8: the
    screen's active bindings, how their keys are displayed, whether the palette key is
    shown) with what it read last time, and skips the recompose when nothing differs.
    """

    _composed_from: Any = None

    def _compose_inputs(self) -> Any:
        if not footer_bindings_ready(self):
            return None
        key_display = self.app.get_key_display
        return (
            self.show_command_palette,
            self.app.ENABLE_COMMAND_PALETTE,
            [
                (active.binding, active.enabled, active.tooltip, key_display(active.binding))
                for active in self.screen.active_bindings.values()
            ],
        )

    def compose(self) -> ComposeResult:
        self._composed_from = self._compose_inputs()
        yield from super().compose()

    async def recompose(self) -> None:
        unchanged = (
            self.is_attached
            and self._composed_from is not None
            and self._compose_inputs() == self._composed_from
        )
        if not unchanged:
            await super().recompose()
