"""Display caps of lists: how many rows one list shows, and how a screen says the rest.

Apart from `vagent_tui.ui.widgets.tables` (which re-exports them) so that the first
screen, whose tree is capped too, does not import the data table at start-up.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import islice
from typing import TypeVar

from vagent_tui.words import counted, plural

T = TypeVar("T")
K = TypeVar("K")
V = TypeVar("V")

ROW_CAP = 5_000
"""Rows of one list shown at most; a screen says how many more there were."""
FIELD_CAP = 200
"""Fields of one record a detail pane shows at most, where it shows every field as sent
(unknown ones included: a record may hold any number); it says how many more there were.
A pane draws whole (a grid of 5,000 fields takes a second to draw), a table only the
rows in view: hence a cap of its own."""


def left_out(total: int, noun: str = "row", many: str = "") -> str:
    """`` · first 5,000 shown, 12,345 more rows not shown`` past `ROW_CAP`, else nothing.

    ``noun`` is the singular (``many`` its plural when not the usual one).
    """
    if total <= ROW_CAP:
        return ""
    return f" · first {ROW_CAP:,} shown, {not_shown(total - ROW_CAP, noun, many)}"


def first(items: Sequence[T], cap: int = ROW_CAP) -> tuple[Sequence[T], int]:
    """The first ``cap`` of ``items`` (what a screen shows of a list) and how many more
    there are."""
    return items[:cap], max(0, len(items) - cap)


def first_fields(fields: Mapping[K, V], cap: int = FIELD_CAP) -> tuple[list[tuple[K, V]], int]:
    """The first ``cap`` fields of a record (only those are walked) and how many more."""
    return list(islice(fields.items(), cap)), max(0, len(fields) - cap)


def not_read(keys: int, items: int = 0) -> str:
    """``98,000 more keys of the reply not read`` ("" for none): the keys of objects and
    the items of lists a reply held past the bounds it is read within
    (`vagent_tui.api.bounded`)."""
    said = " and ".join(
        counted(count, f"more {noun}") for count, noun in ((keys, "key"), (items, "item")) if count
    )
    return f"{said} of the reply not read" if said else ""


def left_out_of(hidden: int, noun: str, keys: int = 0, items: int = 0) -> str:
    """What a screen left out of a reply ("" for nothing): the ``hidden`` rows or lines
    past its cap (`not_shown`), then what the reply held past its bounds (`not_read`)."""
    return "; ".join(said for said in (not_shown(hidden, noun), not_read(keys, items)) if said)


def not_shown(count: int, noun: str, many: str = "") -> str:
    """``12,345 more rows not shown`` ("" for none): what a screen says it left out.

    ``noun`` is the singular (``many`` its plural when not the usual one).
    """
    if count <= 0:
        return ""
    return f"{counted(count, f'more {noun}', f'more {many or plural(noun)}')} not shown"
