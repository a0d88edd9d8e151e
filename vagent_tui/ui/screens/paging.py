"""One pager for every screen that shows a list a page at a time.

Pages may come from the server (the Inboxes, Calls, Tasks: only the page on show is
fetched) or be cut here from a list read whole (a room's messages, the journal): the
keys and actions are the same. A `PagedScreen` gets its keys from `page_keys` and says
three things: the page asked for (`page_now`), the last page if it is known
(`last_page`), and how to go to a page (`go_to_page`); ``n``/``p``/``g``/``G`` and the
arrows, PgUp/PgDn, Home/End do the rest.

A `ServerPagedScreen` says less: how to fetch a page (`fetch_page`), what a reply holds
(`page_items`) and how to draw the page (`show_page`); its `Pager`
(`vagent_tui.services.paging`) keeps the query, the page, the size, the total and which
reply counts, and the screen announces a page that is slow to come.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Generic, TypeVar

from textual.binding import Binding
from textual.timer import Timer
from textual.widget import Widget
from textual.worker import WorkType

from vagent_tui.api.errors import PlatformError
from vagent_tui.services.paging import Ask, Page, Pager, Settled
from vagent_tui.services.session import Connection
from vagent_tui.ui.screens.base import BaseScreen

Q = TypeVar("Q")
T = TypeVar("T")
R = TypeVar("R")


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


class ServerPagedScreen(PagedScreen, Generic[Q, T, R]):
    """A list the platform pages: the screen supplies the fetch and the drawing.

    `request` fetches the page `pager` wants (in the worker group `PAGE_GROUP`, a new
    request cancelling the one before); the reply is drawn only if it answers the
    request in force (`Pager.settle`). A page slower than `PENDING_DELAY` is announced
    (`page_pending`); a quicker one is drawn in one frame with nothing drawn before it
    (a frame for the key alone would make the page's own frame wait for the next one).
    """

    PAGE_GROUP: ClassVar[str] = "page"
    PENDING_DELAY: ClassVar[float] = 0.1
    """Seconds a page may take before `page_pending` says it is on its way (0: at once)."""
    pager: Pager[Q, T]

    def __init__(self) -> None:
        super().__init__()
        self._pending_timer: Timer | None = None
        """Runs from a request until the page comes, fails, or `PENDING_DELAY` passes."""
        self.pending_shown = False
        """The screen says a page is on its way."""

    # ------------------------------------------------------------------ the screen's part

    async def fetch_page(self, connection: Connection, ask: Ask[Q]) -> R:
        """Read the page ``ask`` wants through ``connection`` (one request or a service)."""
        raise NotImplementedError

    def page_items(self, reply: R) -> tuple[Sequence[T], int | None]:
        """The items of a reply and the total it says (None: it says none)."""
        raise NotImplementedError

    def show_page(self, page: Page[Q, T], reply: R) -> None:
        """Draw ``page`` (now `pager.shown`), ``reply`` as it came."""
        raise NotImplementedError

    def draw_paging(self) -> None:
        """Draw what says where the list stands (a header): a page is on its way, or
        did not come."""

    def page_pending(self) -> None:
        """Say that the page asked for is on its way (the status line, the header)."""
        self.draw_paging()
        self.status.busy(f"Loading page {self.pager.page + 1:,}")

    def announce_at_once(self) -> bool:
        """Whether to say at once that a page is on its way (default: when it was
        said already for the page before)."""
        return self.pending_shown or self.PENDING_DELAY <= 0

    def page_busy(self) -> Widget | None:
        """A widget to show loading while a page is read (None: none)."""
        return None

    def page_ready(self) -> bool:
        """Whether the page keys may ask for a page now (else say why)."""
        return True

    # ------------------------------------------------------------------ requests

    def request(self) -> None:
        """Fetch the page the pager wants (the request in force: `Pager.ask` made it)."""
        ask = self.pager.wanted
        if self.announce_at_once():
            self._announce()
        elif self._pending_timer is None:
            self._pending_timer = self.set_timer(self.PENDING_DELAY, self._announce)

        # A callable, not a coroutine: a worker cancelled before it starts leaves none
        # un-awaited behind.
        async def read() -> None:
            await self._read(ask)

        work: WorkType[None] = read
        self.run_worker(work, group=self.PAGE_GROUP, exclusive=True, exit_on_error=False)

    def _announce(self) -> None:
        self._pending_timer = None
        if self.pager.failed:
            return
        self.pending_shown = True
        self.page_pending()

    def pending_over(self) -> None:
        """The page came, or will not: nothing more to announce."""
        if self._pending_timer is not None:
            self._pending_timer.stop()
            self._pending_timer = None
        self.pending_shown = False

    async def _read(self, ask: Ask[Q]) -> None:
        def failed(exc: PlatformError) -> None:
            if self.pager.fail(ask):
                self.pending_over()
                self.status.error(exc)
                self.draw_paging()

        ok, reply = await self.load(
            lambda c: self.fetch_page(c, ask), on_error=failed, busy=self.page_busy()
        )
        if not ok or reply is None:
            return
        items, total = self.page_items(reply)
        settled = self.pager.settle(ask, items, total)
        if settled is Settled.PAST_END:
            self.request()  # fewer items than when the page was asked for: the last page
        elif settled is Settled.SHOWN and self.pager.shown is not None:
            self.pending_over()
            self.show_page(self.pager.shown, reply)

    def load_failed(self, error: BaseException, group: str = "") -> None:
        super().load_failed(error, group)
        if group == self.PAGE_GROUP:
            self.pending_over()
            self.pager.failed = True
            self.draw_paging()

    # ------------------------------------------------------------------ the page keys

    def page_now(self) -> int:
        return self.pager.page

    def last_page(self) -> int | None:
        return self.pager.last_page

    def go_to_page(self, page: int) -> None:
        if not self.page_ready():
            return
        if self.pager.on_edge(page):
            # the way the key went: n on the only page is on the last page, p on the first
            edge = "last" if page > self.pager.page else "first"
            self.status.info(f"Already on the {edge} page")
            return
        self.pager.ask(page)
        self.request()

    def action_last_page(self) -> None:
        if self.page_ready():
            super().action_last_page()
