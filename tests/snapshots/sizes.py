"""The terminal sizes a snapshot is taken at: a second size only where it draws differently.

A screen's layout changes with the terminal only through its breakpoints
(``HORIZONTAL_BREAKPOINTS``/``VERTICAL_BREAKPOINTS``, the ``-narrow``/``-wide``/``-short``
classes its stylesheet reads). Of the sizes a test asks for, `sizes` keeps the first of
each set of classes the screen gets: a screen with no breakpoint is snapshotted once.
"""

from __future__ import annotations

from typing import Any

from textual.screen import Screen

Size = tuple[int, int]
SMALL: Size = (80, 24)
LARGE: Size = (120, 40)


def _class_at(points: list[tuple[int, str]] | None, length: int) -> str | None:
    """The breakpoint class a screen gets at ``length`` (as `BaseScreen.apply_breakpoints`)."""
    return next(
        (name for least, name in sorted(points or [], reverse=True) if length >= least), None
    )


def classes_at(screen: type[Screen[Any]], size: Size) -> tuple[str | None, str | None]:
    """The breakpoint classes ``screen`` gets at ``size``: (horizontal, vertical)."""
    width, height = size
    return (
        _class_at(screen.HORIZONTAL_BREAKPOINTS, width),
        _class_at(screen.VERTICAL_BREAKPOINTS, height),
    )


def sizes(screen: type[Screen[Any]], *asked: Size) -> list[Size]:
    """Of ``asked`` (80x24 and 120x40 unless told), those that give ``screen`` classes
    no earlier one gave."""
    kept: dict[tuple[str | None, str | None], Size] = {}
    for size in asked or (SMALL, LARGE):
        kept.setdefault(classes_at(screen, size), size)
    return list(kept.values())


def size_id(size: Size) -> str:
    """A size as the snapshot's name shows it: ``80x24``."""
    return f"{size[0]}x{size[1]}"
