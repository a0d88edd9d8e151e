"""Paging an option list that has its options but not yet its lines.

Textual's `OptionList` works out which line each option starts on when it is laid out
(it needs the width). Between getting options and the next layout it has none, and its
page keys (PageDown, PageUp) then fail with ``KeyError`` inside Textual (8.2): the
command palette's list gets its commands a few milliseconds after ``:`` opens it, so
``:`` then PageDown typed in one burst ended the console. A list shown only once it has
options (height auto, or shown by a search) is in the same state for one frame.

`page` is the guarded page move, through public API only: a page key that comes before
the lines waits for the next refresh, when the list has them, and moves then; it is
dropped only if the list still has none (a terminal too small to show one line).
`PagedOptionList` is an `OptionList` whose page keys go through it,
`vagent_tui.ui.command_palette` binds the palette's page keys to it, and
``ConnectionApp.run_action`` sends the page actions of every other option list through
it (a `Select`'s list, Textual's own, too: PageDown in a burst that opens it).
``tests/unit/test_textual_compat.py`` fails once Textual pages such a list by itself,
and the guard can go.
"""

from __future__ import annotations

from typing import Literal

from textual.widgets import OptionList

Direction = Literal[-1, 1]


def has_lines(options: OptionList) -> bool:
    """Whether ``options`` can page now: it was laid out with room for a line."""
    return bool(options.scrollable_content_region)


def page(options: OptionList, direction: Direction, *, wait: bool = True) -> None:
    """A page down (``1``) or up (``-1``) in ``options``; before its lines, after the refresh.

    With ``wait`` false (the call made after the refresh) a list still without lines
    ignores the key.
    """
    pending = options.option_count > 0 and options.highlighted is not None
    if pending and not has_lines(options):
        if wait:
            options.call_after_refresh(page, options, direction, wait=False)
        return
    # The base class's actions (a subclass that overrides them calls this function);
    # Textual leaves them unannotated.
    if direction > 0:
        OptionList.action_page_down(options)  # type: ignore[no-untyped-call]
    else:
        OptionList.action_page_up(options)  # type: ignore[no-untyped-call]


class PagedOptionList(OptionList):
    """An `OptionList` whose PageDown and PageUp wait for its lines (see `page`)."""

    def action_page_down(self) -> None:
        """Move the highlight down one page (once the list has its lines)."""
        page(self, 1)

    def action_page_up(self) -> None:
        """Move the highlight up one page (once the list has its lines)."""
        page(self, -1)
