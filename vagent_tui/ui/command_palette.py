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
        Binding("pagedown", "page(1)", "Next page", show=False),
        Binding("pageup", "page(-1)", "Previous page", show=False),
    ]

    def action_page(self, direction: Direction) -> None:
        """Page the list of commands, once it has its lines."""
        page(self.query_one(CommandList), direction)
