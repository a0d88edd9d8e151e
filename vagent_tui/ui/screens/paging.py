"""One pager for every screen that shows a list a page at a time.

Pages may come from the server (the Inboxes: only the page on show is fetched) or be
cut here from a list read whole (a room's messages): the keys and actions are the
same. A `PagedScreen` gets its keys from `page_keys` and says three things: the page
asked for (`page_now`), the last page if it is known (`last_page`), and how to go to a
page (`go_to_page`); ``n``/``p``/``g``/``G`` and the arrows, PgUp/PgDn, Home/End do
the rest.
"""

from __future__ import annotations

from textual.binding import Binding

from vagent_tui.ui.screens.base import BaseScreen


def page_keys(
    prefix: str,
    *,
    next_tip: str = "Next page",
    first_tip: str = "First page",
    last_tip: str = "Last page",
    last_key_tip: str = "",
) -> list[Binding]:
    """The page keys of a paged screen, with ids ``PREFIX.next_page`` (and ``-alt`` for
    the second keys of the same action, which the footer does not show).

    ``last_key_tip`` is ``G``'s tip when it says more than End's (the Inboxes: one request).
    """

    def key(keys: str, action: str, label: str, tip: str, *, show: bool = True) -> Binding:
        # priority: the table would otherwise take left/right/home/end/page keys for itself
        ident = f"{prefix}.{action}" if show else f"{prefix}.{action}-alt"
        return Binding(keys, action, label, show=show, priority=True, id=ident, tooltip=tip)

    return [
        key("n", "next_page", "Next", next_tip),
        key("p", "prev_page", "Prev", "Previous page"),
        key("g", "first_page", "First", first_tip),
        key("G", "last_page", "Last", last_key_tip or last_tip),
        key("right,pagedown", "next_page", "Next", "Next page", show=False),
        key("left,pageup", "prev_page", "Prev", "Previous page", show=False),
        key("home", "first_page", "First", first_tip, show=False),
        key("end", "last_page", "Last", last_tip, show=False),
    ]


class PagedScreen(BaseScreen):
    """A screen with a list shown a page at a time (keys: `page_keys`)."""

    LAST_PAGE_UNKNOWN = "The number of pages is not known yet; wait for the page"
    """What ``G`` says while `last_page` is None."""

    def page_now(self) -> int:
        """The page on show, or asked for last (0 is the first)."""
        raise NotImplementedError

    def last_page(self) -> int | None:
        """The last page, or None while it is not known."""
        raise NotImplementedError

    def go_to_page(self, page: int) -> None:
        """Show ``page`` (out of range: the nearest page; the same page: say so)."""
        raise NotImplementedError

    def action_next_page(self) -> None:
        self.go_to_page(self.page_now() + 1)

    def action_prev_page(self) -> None:
        self.go_to_page(self.page_now() - 1)

    def action_first_page(self) -> None:
        self.go_to_page(0)

    def action_last_page(self) -> None:
        last = self.last_page()
        if last is None:
            self.status.info(self.LAST_PAGE_UNKNOWN)
            return
        self.go_to_page(last)
