"""The account tree (lazily filled by its screen) and the flat list of filter matches.

Labels are inert whatever they are given (`AccountTree.process_label`), and a level or
a list of matches shows at most `ROW_CAP` accounts, then says how many more there are.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from rich.text import Text, TextType
from textual.binding import Binding, BindingType
from textual.widgets import OptionList, Tree
from textual.widgets.option_list import Option
from textual.widgets.tree import TreeNode

from vagent_tui.api.models import Account
from vagent_tui.inert import DISPLAY_LIMIT
from vagent_tui.services.accounts import has_children
from vagent_tui.ui.caps import ROW_CAP
from vagent_tui.ui.text import inert, safe

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

    def populate(self, node: TreeNode[Account], children: list[Account]) -> None:
        """The children of ``node``: the first `ROW_CAP`, then a line saying how many more."""
        self.mark(node)
        for child in children[:ROW_CAP]:
            node.add(self.labeler(child, ""), data=child, allow_expand=has_children(child))
        if len(children) > ROW_CAP:
            more = f"… {len(children) - ROW_CAP:,} more accounts not shown: / filters them all"
            node.add_leaf(Text(more, style="dim italic"))

    def node_for(self, account_id: int) -> TreeNode[Account] | None:
        def walk(node: TreeNode[Account]) -> TreeNode[Account] | None:
            if node.data is not None and node.data.id == account_id:
                return node
            for child in node.children:
                if (found := walk(child)) is not None:
                    return found
            return None

        return walk(self.root)


class AccountMatches(OptionList):
    """Accounts matching the filter, best first; keeps the highlighted one across updates."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "select", "Pick target", id="scope.pick-match", tooltip="Act as it"),
    ]

    def show(self, accounts: list[Account], text_of: Callable[[Account], Text]) -> None:
        keep = self.highlighted_option.id if self.highlighted_option is not None else None
        self.clear_options()
        options = [Option(text_of(a), id=str(a.id)) for a in accounts[:ROW_CAP]]
        self.add_options(
            options or [Option(Text("No account matches", style="dim"), disabled=True)]
        )
        if len(accounts) > ROW_CAP:
            more = f"… {len(accounts) - ROW_CAP:,} more matches not shown: type more to narrow"
            self.add_option(Option(Text(more, style="dim italic"), disabled=True))
        ids = [o.id for o in options]
        self.highlighted = ids.index(keep) if keep in ids else (0 if options else None)
