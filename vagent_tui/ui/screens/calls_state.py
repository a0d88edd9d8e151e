"""What the Calls screen holds besides its pager, and the two lines that say it (no Textual).

`CallsView` is where the user stands (the filters, whose calls, the time shown, the
follow); `header_line` and `filters_line` draw the header and the line under it from
the view and the pager, so every change redraws them the same way, from one place.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from rich.text import Text

from vagent_tui.api.log_models import LogEntry
from vagent_tui.services.calls import CallFilters
from vagent_tui.services.paging import Pager
from vagent_tui.ui.colours import FAILED_STRONG, RUNNING, WARN
from vagent_tui.ui.text import inert
from vagent_tui.words import counted

CallsPager = Pager[CallFilters, LogEntry]


@dataclass
class CallsView:
    """Where the user stands on the Calls screen (the page itself is the pager's)."""

    filters: CallFilters = field(default_factory=CallFilters)
    """The query as chosen, without the account (`query` adds it)."""
    local: bool = True
    """Times in local time (else UTC)."""
    whole_tree: bool = False
    """Every account below the key, not only the selected one (``s``)."""
    asked_account: int | None = None
    """An account another screen asked for, until the target changes."""
    following: bool = False
    new_count: int = 0
    """Entries that arrived while following, not on the page shown (page 2 on)."""
    follow_note: str = ""

    def account(self, target_id: int | None) -> int | None:
        """Whose calls: none (every account below the key), the one asked for, or the
        selected account (``target_id``)."""
        if self.whole_tree:
            return None
        if self.asked_account is not None:
            return self.asked_account
        return target_id

    def query(self, target_id: int | None) -> CallFilters:
        """The query sent: the filters with the account."""
        return replace(self.filters, account_id=self.account(target_id))

    def stop_following(self) -> None:
        self.following = False
        self.follow_note = ""


def header_line(pager: CallsPager, view: CallsView) -> Text:
    """``Calls · 1–50 of 1,234 · page 1 of 25 · 50/page · local time`` and what is on its
    way, failed, or followed."""
    shown = pager.shown
    text = Text(no_wrap=True, overflow="ellipsis")
    text.append("Calls", style="bold")
    text.append(" · ")
    if pager.failed and (shown is None or shown.page != pager.page):
        text.append("✗ not loaded (r: retry)", style=FAILED_STRONG)
    elif shown is None:
        text.append("…")
    else:
        text.append(shown.label, style="bold")
        text.append(f" · page {shown.page + 1:,} of {shown.last_page + 1:,}")
    text.append(f" · {pager.size}/page")
    text.append(" · local time" if view.local else " · UTC")
    if shown is not None and pager.page != shown.page and not pager.failed:
        text.append(f" · → page {pager.page + 1:,}", style="italic")
    if view.following:
        text.append(" · following", style=RUNNING)
        if view.new_count:
            text.append(f" ({counted(view.new_count, 'new call')}: g to see)", style=WARN)
        if view.follow_note:
            text.append(" " + inert(view.follow_note), style=WARN)
    return text


def filters_line(query: CallFilters, *, local: bool) -> Text:
    """``Filters: last 7 days · account #1110 · status=failed   (x or esc: clear)``."""
    text = Text(no_wrap=True, overflow="ellipsis")
    text.append("Filters: ", style="bold")
    words = query.describe(local=local)
    if query.account_id is None:
        words.insert(1, "every account below the key")
    text.append(inert(" · ".join(words)))
    if query.active:
        text.append("   (x or esc: clear)", style="dim")
    return text


def entry_key(entry: LogEntry) -> str:
    """A row's key: the entry's id (an entry without one is keyed by its time)."""
    return f"id:{entry.id}" if entry.id not in (None, "") else f"at:{entry.timestamp}"
