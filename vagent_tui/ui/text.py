"""Outside text for widgets: inert (`vagent_tui.inert`), and never markup.

Widgets receive outside text only through these: `safe` gives a `rich.text.Text`,
which no widget parses as markup; `safe_markup` is for the few Textual places that
only take markup (a command palette's help line), where the inert text is escaped.
A `Text` built elsewhere from outside text goes through `safe_rich` before it is shown.
"""

from __future__ import annotations

from typing import overload

from rich.style import StyleType
from rich.text import Text
from textual.markup import escape

from vagent_tui.inert import DISPLAY_LIMIT, MULTILINE_LIMIT, inert

__all__ = ["inert", "safe", "safe_markup", "safe_rich", "safe_value"]

_MARGIN = 40
"""Room for inert's cut mark: a value cut already is not cut again."""


def safe(
    value: object, style: StyleType = "", *, multiline: bool = False, limit: int | None = None
) -> Text:
    """Outside text as an inert `Text` (see `vagent_tui.inert.inert` for the arguments)."""
    return Text(inert(value, multiline=multiline, limit=limit), style=style)


def safe_markup(value: object, *, multiline: bool = False) -> str:
    """Outside text for an API that parses markup: inert, then markup-escaped."""
    return escape(inert(value, multiline=multiline))


def safe_rich(text: Text, *, multiline: bool = True) -> Text:
    """A `Text` whose characters came from outside, made inert (its spans kept if it was).

    Most text is printable and returned as it is; otherwise the plain text is made
    inert and keeps the text's base style (spans are dropped: the offsets changed).
    """
    plain = text.plain
    printable = plain.isprintable() or (multiline and plain.replace("\n", "").isprintable())
    # The margin leaves a value that was already cut, with its mark, as it is.
    if printable and len(plain) <= (MULTILINE_LIMIT if multiline else DISPLAY_LIMIT) + _MARGIN:
        return text
    return Text(inert(plain, multiline=multiline), style=text.style, end=text.end)


@overload
def safe_value(value: str | Text) -> Text: ...
@overload
def safe_value(value: object) -> object: ...
def safe_value(value: object) -> object:
    """A value for a table cell or a grid: text made inert, other renderables as they are."""
    if isinstance(value, str):
        return safe(value)
    if isinstance(value, Text):
        return safe_rich(value, multiline=False)
    return value
