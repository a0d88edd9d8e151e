"""Display caps of lists: how many rows one list shows, and how a screen says the rest.

Apart from `vagent_tui.ui.widgets.tables` (which re-exports them) so that the first
screen, whose tree is capped too, does not import the data table at start-up.
"""

from __future__ import annotations

from vagent_tui.words import counted, plural

ROW_CAP = 5_000
"""Rows of one list shown at most; a screen says how many more there were."""


def left_out(total: int, noun: str = "row", many: str = "") -> str:
    """`` · first 5,000 shown, 12,345 more rows not shown`` past `ROW_CAP`, else nothing.

    ``noun`` is the singular (``many`` its plural when not the usual one).
    """
    if total <= ROW_CAP:
        return ""
    more = counted(total - ROW_CAP, f"more {noun}", f"more {many or plural(noun)}")
    return f" · first {ROW_CAP:,} shown, {more} not shown"
