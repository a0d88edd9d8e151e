"""What takes typed letters: a text field, where ``y``, ``n`` and the other letters a
screen or a dialog binds are text, and keys typed ahead go without a wait."""

from __future__ import annotations

from textual.widget import Widget
from textual.widgets import Input


def is_text_field(widget: Widget | None) -> bool:
    """An `Input` or a ``TextArea`` (or a subclass of either). TextArea is known by its
    class's name, not imported to be asked about: importing it (and its document
    model) was about 8 ms of every start, and only screens opened later make one."""
    if widget is None:
        return False
    return isinstance(widget, Input) or any(c.__name__ == "TextArea" for c in type(widget).__mro__)
