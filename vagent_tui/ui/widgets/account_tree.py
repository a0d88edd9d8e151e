"""The account tree (lazily filled by its screen) and the flat list of filter matches.

Labels are inert whatever they are given (`AccountTree.process_label`); a level shows at
most `ROW_CAP` accounts and the matches at most the filter's cap, then say how many more
there are. In both, a single click highlights and enter or a double click picks.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from rich.text import Text, TextType
from textual import events
from textual.binding import Binding, BindingType
from textual.timer import Timer
from textual.widgets import Tree
from textual.widgets.option_list import Option
from textual.widgets.tree import TreeNode

from vagent_tui.api.models import Account
from vagent_tui.inert import DISPLAY_LIMIT
from vagent_tui.services.accounts import Matches, has_children
from vagent_tui.ui.caps import ROW_CAP
from vagent_tui.ui.text import inert, safe
from vagent_tui.ui.widgets.option_pages import PagedOptionList
from vagent_tui.words import counted

DIM_AFTER = 0.2
"""Seconds an answer is awaited before the list shown is dimmed (the line above it says
at once that the search is under way): an answer within the filter's budget per key
(0.2 s, bench/scope.py) paints the list once, never dimmed and back."""

LABEL_LIMIT = 2 * DISPLAY_LIMIT
"""Characters of a label: one value (already cut at `DISPLAY_LIMIT`) and a few words."""

Labeler = Callable[[Account, str], Text]


class AccountTree(Tree[Account]):
    """Accounts by level; enter picks the account (footer), space expands."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "enter", "select_cursor", "Pick target", id="scope.pick", tooltip="Act as this account"
        ),
        Binding("space", "toggle_node", "Expand", id="scope.expand", tooltip="Expand or collapse"),
    ]

    def __init__(self, labeler: Labeler, *, id: str | None = None) -> None:
        super().__init__("…", id=id)
        self.auto_expand = False
        self.labeler = labeler

    def process_label(self, label: TextType) -> Text:
        """A label as it is shown: a ``str`` is inert text (never markup), a `Text` made inert.

        The extension point Textual documents for labels; every label of the tree comes
        through here, so no account name reaches the terminal as it was sent.
        """
        if isinstance(label, str):
            return super().process_label(safe(label))
        plain = label.plain
        if not plain.isprintable() or len(plain) > LABEL_LIMIT:
            # A label made of inert pieces is printable: this is a Text built carelessly.
            label = Text(inert(plain, limit=LABEL_LIMIT), style=label.style)
        return super().process_label(label)

    def on_click(self, event: events.Click) -> None:
        """A single click on a line moves the cursor there (the default would also pick)."""
        meta = event.style.meta
        if event.chain > 1 or "line" not in meta or meta.get("toggle", False):
            return  # a double click picks; the arrow expands or collapses, as before
        event.prevent_default()
        line = meta["line"]
        if isinstance(line, int) and self.get_node_at_line(line) is not None:
            self.cursor_line = line

    def start_at(self, root: Account, *, expandable: bool) -> None:
        """Start again with only ``root``."""
        self.clear()
        self.root.data = root
        self.root.allow_expand = expandable
        self.root.set_label(self.labeler(root, ""))
        self.cursor_line = 0

    def mark(self, node: TreeNode[Account], suffix: str = "") -> None:
        if node.data is not None:
            node.set_label(self.labeler(node.data, suffix))

    def relabel(self) -> None:
        """Redraw every label (after the target changed)."""

        def walk(node: TreeNode[Account]) -> None:
            self.mark(node)
            for child in node.children:
                walk(child)

        walk(self.root)

    def add_account(self, node: TreeNode[Account], account: Account) -> TreeNode[Account]:
        """One account more under ``node`` (made by this console), at the end."""
        return node.add(self.labeler(account, ""), data=account, allow_expand=has_children(account))

    def populate(self, node: TreeNode[Account], children: list[Account]) -> None:
        """The children of ``node``: the first `ROW_CAP`, then a line saying how many more."""
        self.mark(node)
        for child in children[:ROW_CAP]:
            node.add(self.labeler(child, ""), data=child, allow_expand=has_children(child))
        if len(children) > ROW_CAP:
            more = counted(len(children) - ROW_CAP, "more account")
            more = f"… {more} not shown: / filters them all"
            node.add_leaf(Text(more, style="dim italic"))


class AccountMatches(PagedOptionList):
    """The filter's answer: the best matches first, at most `SEARCH_CAP`, then how many more.

    It shows one answer at a time, for one text (`show`); while the answer for a newer
    text is on its way (`waiting`) `answered` is None, so its screen picks nothing from it,
    and the list shown is dimmed once that takes a moment (`DIM_AFTER`). A click
    highlights; enter or a double click picks.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "select", "Pick target", id="scope.pick-match", tooltip="Act as it"),
    ]

    answered: str | None = None
    """The text whose answer is shown; None while one is awaited (or nothing is typed)."""

    _dimming: Timer | None = None
    """Dims the list shown once an answer is awaited for `DIM_AFTER` seconds."""

    def on_click(self, event: events.Click) -> None:
        """A single click only highlights (the default would also pick)."""
        if event.chain > 1:
            return  # a double click: highlight and pick, as enter does
        event.prevent_default()
        clicked = event.style.meta.get("option")
        if (
            isinstance(clicked, int)
            and 0 <= clicked < self.option_count
            and not self.get_option_at_index(clicked).disabled
        ):
            self.highlighted = clicked

    def waiting(self) -> None:
        """The answer for a new text is awaited: the list shown is not to be picked from
        (`answered` is None) and is dimmed if the answer takes more than `DIM_AFTER`
        seconds; a list with no account in it is cleared at once."""
        self.answered = None
        if self._dimming is None and not self.has_class("-waiting"):
            # An answer within a blink repaints the list once, not dimmed and back.
            self._dimming = self.set_timer(DIM_AFTER, self._dim)
        if not any(not self.get_option_at_index(i).disabled for i in range(self.option_count)):
            self.clear_options()

    def _dim(self) -> None:
        self._dimming = None
        if self.answered is None:
            self.add_class("-waiting")

    def _answered(self) -> None:
        if self._dimming is not None:
            self._dimming.stop()
            self._dimming = None
        self.remove_class("-waiting")

    def clear(self) -> None:
        self.answered = None
        self._answered()
        self.clear_options()

    def _shows(self, options: list[Option]) -> bool:
        """Whether the list shows ``options`` already: the same lines, the same accounts.

        A further key often has the same best matches as the key before (``fleet a``,
        ``fleet ag``…): the list is then kept, and its lines are not drawn again.
        """
        if len(options) != self.option_count:
            return False
        for index, new in enumerate(options):
            old = self.get_option_at_index(index)
            if (old.id, old.disabled) != (new.id, new.disabled):
                return False
            was, now = old.prompt, new.prompt
            if not isinstance(was, Text) or not isinstance(now, Text):
                return False
            if (was.plain, was.style, was.spans) != (now.plain, now.style, now.spans):
                return False
        return True

    def show(
        self, matches: Matches, text_of: Callable[[Account], Text], *, keep: bool = False
    ) -> None:
        """The answer for ``matches.query``; the top match highlighted (``keep``: the one
        highlighted before, when it is still there, e.g. after the target changed)."""
        before = self.highlighted_option.id if keep and self.highlighted_option else None
        options = [Option(text_of(a), id=str(a.id)) for a in matches.accounts if a.id is not None]
        options_shown = list(options)  # none: the line above the list says so
        if matches.more:
            # How many is said by the line above the list (`match_count`): without the
            # number, a further key with the same best matches keeps the list (`_shows`).
            more = "… more match" if matches.more == 1 else "… more matches"
            more += " not shown: type more to narrow"
            options_shown.append(Option(Text(more, style="dim italic"), disabled=True))
        if matches.partial:
            options_shown.append(Option(safe(f"⚠ {matches.partial}", style="dim"), disabled=True))
        if not self._shows(options_shown):
            self.set_options(options_shown)  # one update of the list, not a clear and an add
        elif not keep:
            self.scroll_y = 0  # as a new list starts (its lines, already drawn, are kept)
        ids = [o.id for o in options]
        self.highlighted = ids.index(before) if before in ids else (0 if options else None)
        self.answered = matches.query
        self._answered()
