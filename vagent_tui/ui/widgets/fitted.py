"""A pane that lays the screen out again only when its new text needs another height."""

from __future__ import annotations

from textual.visual import VisualType
from textual.widgets import Static


class FittedStatic(Static):
    """A pane whose new text lays the screen out again only when it needs another height.

    ``Static.update`` lays out the whole screen each time; a pane redrawn on every
    highlight (Scope's detail, its members) mostly keeps its height, and on Scope's
    filter that layout cost more than the rest of a key. The height compared is the one
    the pane takes: its text's, within its ``min-height`` and ``max-height`` when those
    are in cells, so a text that grows a line inside a pane kept at five lines costs no
    layout either (a layout that changes a pane's size costs a second one).
    """

    fitted_height: int | None = None
    """The pane's height for its content as last shown (None: not shown yet)."""

    def show(self, content: VisualType) -> None:
        self.update(content, layout=False)
        self.clear_cached_dimensions()
        width = self.content_size.width
        height = self.get_content_height(self.size, self.app.size, width) if width else None
        if height is not None:
            height = self._within_limits(height + self.styles.gutter.height)
        if height is None or height != self.fitted_height:
            self.refresh(layout=True)
        self.fitted_height = height

    def _within_limits(self, height: int) -> int:
        low, high = self.styles.min_height, self.styles.max_height
        if low is not None and low.is_cells:
            height = max(height, int(low.value))
        if high is not None and high.is_cells:
            height = min(height, int(high.value))
        return height
