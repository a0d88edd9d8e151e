"""The command palette (``:`` or ctrl+p): Textual's, with page keys that wait for lines.

Textual's palette pages its list through a private action that calls the list's page
move directly; `ConsolePalette` binds PageDown and PageUp to `page` instead
(`vagent_tui.ui.widgets.option_pages`), so ``:`` then PageDown typed in one burst
pages once the commands are laid out rather than ending the console. Everything else
is Textual's palette unchanged.
"""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.command import CommandList, CommandPalette

from vagent_tui.ui.widgets.option_pages import Direction, page


class ConsolePalette(CommandPalette):
    """Textual's `CommandPalette` whose page keys go through `page`."""

    # Same keys as Textual's palette; a subclass's binding for a key replaces the base's.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("pagedown", "page_down", "Next page", show=False, id="palette.page-down"),
        Binding("pageup", "page_up", "Previous page", show=False, id="palette.page-up"),
    ]

    def action_page_down(self) -> None:
        """Page the list of commands down, once it has its lines."""
        self._page(1)

    def action_page_up(self) -> None:
        """Page the list of commands up, once it has its lines."""
        self._page(-1)

    def _page(self, direction: Direction) -> None:
        page(self.query_one(CommandList), direction)
