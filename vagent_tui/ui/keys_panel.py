"""The ``?`` panel: the keys of the screen shown, then the convention every screen follows.

A dialog over the whole screen (it fits 80x24) that scrolls with the keyboard: the
arrows, j/k, PageUp/PageDown, g/G, Home/End; esc or ``?`` closes it. The keys are the
ones in force (a profile's keymap applied); the convention part is made from
`vagent_tui.ui.convention.CONVENTION`, the table the README's "Keys" section comes from.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import ActiveBinding, Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from vagent_tui.ui.built import ClosesItself
from vagent_tui.ui.colours import HEADING
from vagent_tui.ui.convention import CONVENTION, action_name, key_display, screens_keys
from vagent_tui.ui.css import stylesheet
from vagent_tui.ui.text import safe

_MOVES = frozenset({"cursor_down", "cursor_up", "first", "last", "page_up", "page_down"})
"""The convention's list keys, the same on every screen: listed once, under Everywhere."""


def screen_rows(
    bindings: Iterable[ActiveBinding], display: Callable[[Binding], str]
) -> list[tuple[str, str]]:
    """(keys, what they do) for the bindings of a screen and its focused widgets.

    The app's bindings are left out (they are the same everywhere), and so are the
    generic list moves and Textual's own widget keys; one row per action, its keys
    together.
    """
    rows: dict[tuple[int, str], tuple[list[str], str]] = {}
    for active in bindings:
        binding = active.binding
        if active.node is active.node.app or action_name(binding.action) in _MOVES:
            continue
        if not binding.id or not (binding.description or binding.tooltip):
            continue  # no id: a key of Textual's widgets (tab, shift+arrows), not ours
        keys, _what_it_does = rows.setdefault(
            (id(active.node), binding.action), ([], _what(binding, enabled=active.enabled))
        )
        shown = display(binding)
        if shown not in keys:
            keys.append(shown)
    return [(" ".join(keys), what) for keys, what in rows.values()]


def _what(binding: Binding, *, enabled: bool) -> str:
    what = binding.description or ""
    if binding.tooltip and binding.tooltip != what:
        what = f"{what}: {binding.tooltip}" if what else binding.tooltip
    return what if enabled else f"{what} (not now)"


def convention_rows() -> list[tuple[str, str]]:
    rows = []
    for verb in CONVENTION:
        if verb.name == "screens":
            keys = screens_keys()
        else:
            keys = " ".join(key_display(k) for k in verb.keys)
        rows.append((keys, verb.meaning))
    return rows


def keys_table(title: str, mine: list[tuple[str, str]]) -> Table:
    """The panel's text: this screen's keys, then the convention."""
    table = Table.grid(padding=(0, 2))
    table.add_column(no_wrap=True, justify="right", style=HEADING)
    table.add_column(ratio=1)
    # Every cell is a Text: a plain str in a rich Table would be read as markup.
    table.add_row(Text(), safe(f"This screen: {title}", "bold underline"))
    for keys, what in [*(mine or [("", "no keys of its own")]), ("", "")]:
        table.add_row(safe(keys), safe(what))
    table.add_row(Text(), Text("Everywhere (the key convention)", style="bold underline"))
    for keys, what in convention_rows():
        table.add_row(safe(keys), safe(what))
    return table


class KeysScreen(ClosesItself[None], ModalScreen[None]):
    """The keys of the screen below and the convention; scrolls, esc or ? closes."""

    SCOPED_CSS: ClassVar[bool] = False
    DEFAULT_CSS = stylesheet(__file__)
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close", id="keys.close", tooltip="Close the keys"),
        # A dialog keeps the app's keys from its keys: ? closes it from here.
        Binding("question_mark", "toggle_keys", "Close", show=False, id="keys.toggle"),
        Binding("j", "cursor_down", "Down", show=False, id="keys.down"),
        Binding("k", "cursor_up", "Up", show=False, id="keys.up"),
        Binding("g", "first", "Top", show=False, id="keys.first"),
        Binding("G", "last", "End", show=False, id="keys.last"),
    ]

    def __init__(self, title: str, mine: list[tuple[str, str]]) -> None:
        super().__init__(classes="keys-panel")
        self.title_text = title
        self.mine = mine

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(
                Text.assemble(("Keys", "bold"), "  ↑↓ PgUp PgDn g G scroll · esc or ? closes"),
                id="keys-title",
                markup=False,
            )
            with VerticalScroll(id="keys-body"):
                yield Static(keys_table(self.title_text, self.mine), id="keys-table", markup=False)

    def on_mount(self) -> None:
        self.body.focus()

    @property
    def body(self) -> VerticalScroll:
        return self.query_one("#keys-body", VerticalScroll)

    def action_close(self) -> None:
        self.dismiss(None)

    def action_toggle_keys(self) -> None:
        self.dismiss(None)

    def action_cursor_down(self) -> None:
        self.body.scroll_down(animate=False)

    def action_cursor_up(self) -> None:
        self.body.scroll_up(animate=False)

    def action_first(self) -> None:
        self.body.scroll_home(animate=False)

    def action_last(self) -> None:
        self.body.scroll_end(animate=False)
