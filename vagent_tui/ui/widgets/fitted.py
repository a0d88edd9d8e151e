"""A pane that lays the screen out again only when its new text needs another height."""

from __future__ import annotations

from textual.visual import VisualType
from textual.widgets import Static


class FittedStatic(Static):
    """A pane whose new text lays the screen out again only when it needs another height.

    ``Static.update`` lays out the whole screen each time; a pane redrawn on every
    highlight (Scope's detail, its members) mostly keeps its height, and on Scope's
    filter that layout cost more than the rest of a key.
    """

    fitted_height: int | None = None
    """The content's height as last shown (None: not shown yet)."""

    def show(self, content: VisualType) -> None:
        self.update(content, layout=False)
        self.clear_cached_dimensions()
        width = self.content_size.width
        height = self.get_content_height(self.size, self.app.size, width) if width else None
        if height is None or height != self.fitted_height:
            self.refresh(layout=True)
        self.fitted_height = height
