"""The key footer of every screen: one line drawn by one widget.

Textual's `Footer` is a container of one widget per key, built again (mounted, styled,
laid out) whenever the screen's bindings change: a Fleet run that hides four keys and
shows "Cancel" cost two rebuilds, about 40 restyles and eight layouts, and the first
frame of the app paid for building it too. This footer keeps no children: a change of
keys is a comparison and, when they differ, one repaint of one line.
"""

from __future__ import annotations

from itertools import accumulate
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual import events
from textual.command import CommandInput
from textual.widget import Widget

from vagent_tui.ui.colours import HEADING
from vagent_tui.ui.convention import key_display, screens_keys
from vagent_tui.ui.css import stylesheet
from vagent_tui.ui.registry import SCREENS
from vagent_tui.ui.text import inert

if TYPE_CHECKING:
    from textual.screen import Screen


def _keys(overrides: dict[str, str], binding_id: str, default: str) -> str:
    return "/".join(key_display(k.strip()) for k in overrides.get(binding_id, default).split(","))


class HintPart(NamedTuple):
    """One part of the way-around hint, and what a click on it does."""

    keys: str
    what: str
    action: str
    """The app's action a click runs (the one its keys run)."""
    query: str = ""
    """Typed into the palette the action opens (``screen: `` lists the screens)."""


def hint_parts(overrides: dict[str, str]) -> list[HintPart]:
    """The hint: how to switch screens, open the palette, see the keys.

    The keys in force: a profile's keymap applied. The screen keys are said as ``1-0``
    while they are the convention's; a keymap that moves one leaves them to ``?``. A
    click on the screen keys opens the palette at its screens (no one key is all ten).
    """
    parts = []
    if not any(f"goto.{info.name}" in overrides for info in SCREENS if info.key):
        parts.append(HintPart(screens_keys(), "screens", "app.command_palette", "screen: "))
    palette = [_keys(overrides, "app.goto", "colon"), _keys(overrides, "app.palette", "ctrl+p")]
    keys = " ".join(k.replace("ctrl+", "^") for k in palette)
    parts.append(HintPart(keys, "commands", "app.command_palette"))
    parts.append(HintPart(_keys(overrides, "app.keys", "question_mark"), "keys", "app.toggle_keys"))
    return parts


def hint_text(parts: list[HintPart]) -> tuple[Text, list[tuple[int, int, HintPart]]]:
    """The hint's line, and where each part is on it (first column, end column, part)."""
    text = Text(no_wrap=True, overflow="ellipsis")
    spans = []
    for part in parts:
        start = text.cell_len
        text.append(" ")
        text.append(inert(part.keys), style=HEADING)  # a profile's keymap: outside text
        text.append(f" {inert(part.what)} ")
        spans.append((start, text.cell_len, part))
    return text, spans


def _label(item: FooterItem) -> str:
    """What a key takes on the line: `` k Description `` (`` k `` without one)."""
    return f" {item.display} {item.description} " if item.description else f" {item.display} "


class FooterItem(NamedTuple):
    """One key as the footer shows it."""

    key: str
    """The key that runs it (what a click presses)."""
    display: str
    """The key as shown (the app's key display)."""
    description: str
    enabled: bool
    tooltip: str


class KeysFooter(Widget, can_focus=False):
    """The screen's keys from the left, the way around at the right end.

    The right end always says how to switch screens, open the palette and list the keys
    (``1-0 screens  : ^p commands  ? keys``, 35 columns; `hint_parts`). The screen's
    keys fill the rest in their order, each shown whole or not at all: the first that
    does not fit and every one after it are left out (screens put their least needed
    key last; ``?`` lists them all). A disabled key is dim. A click on a key presses it,
    one on a part of the hint runs what its keys run; hovering shows its tooltip.
    """

    DEFAULT_CSS = stylesheet(__file__)
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "keys-footer--key",
        "keys-footer--description",
        "keys-footer--hover",
        "keys-footer--hint",
    }
    ALLOW_SELECT = False

    def __init__(self, *, show_hint: bool = True) -> None:
        super().__init__()
        self.show_hint = show_hint
        self.items: tuple[FooterItem, ...] = ()
        """The screen's keys in force, shown or not (`shown_items`: those that fit)."""
        self._hint_from: dict[str, str] | None = None
        self._hint: Text = Text()
        self._hint_spans: list[tuple[int, int, HintPart]] = []
        """Where each part of the hint is, from the hint's first column."""
        self._hint_at = 0
        """The column the hint starts at (its last paint)."""
        self._spans: list[tuple[int, int, FooterItem]] = []
        """Where each key shown was drawn: (first column, end column, item)."""
        self._hover: FooterItem | HintPart | None = None

    # ------------------------------------------------------------------ what it shows

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)
        self._read_bindings()

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def _bindings_changed(self, screen: Screen[Any]) -> None:
        # While the terminal has no focus, the focused widget's keys are not in force;
        # showing that for a moment would only flicker (as Textual's Footer does not).
        if self.app.app_focus and self.is_attached and screen is self.screen:
            self._read_bindings()

    def _read_bindings(self) -> None:
        """The keys in force now; a repaint only when they differ from those shown."""
        items: dict[str, FooterItem] = {}
        get_display = self.app.get_key_display
        for active in self.screen.active_bindings.values():
            binding = active.binding
            if not binding.show or binding.action in items:
                continue  # one key per action, the first bound
            items[binding.action] = FooterItem(
                key=binding.key,
                display=inert(get_display(binding)),  # a profile's keymap may name it
                description=binding.description,
                enabled=active.enabled,
                tooltip=active.tooltip or binding.tooltip or binding.description,
            )
        overrides = self._overrides()
        fresh = tuple(items.values())
        if fresh != self.items or overrides != self._hint_from:
            self.items = fresh
            self._hover_on(None)  # what was under the mouse may be gone or elsewhere
            if overrides != self._hint_from:
                self._hint_from = overrides
                parts = hint_parts(overrides) if self.show_hint else []
                self._hint, self._hint_spans = hint_text(parts)
            self.refresh()

    def _overrides(self) -> dict[str, str]:
        overrides = getattr(self.app, "key_overrides", None)
        return dict(overrides) if isinstance(overrides, dict) else {}

    @property
    def hint(self) -> str:
        """The way around, as shown at the right end ("" without one)."""
        return self._hint.plain.strip()

    @property
    def shown_items(self) -> list[FooterItem]:
        """The keys drawn at the last paint: those that fit whole beside the hint."""
        return [item for _, _, item in self._spans]

    # ------------------------------------------------------------------ drawing

    def _fit(self, width: int) -> list[tuple[FooterItem, int]]:
        """The items that fit whole left of the hint, with their widths."""
        room = width - (self._hint.cell_len + 1 if self._hint else 0)  # + hint's padding
        widths = [cell_len(_label(item)) for item in self.items]
        fits = [end <= room for end in accumulate(widths)]
        return [(item, w) for item, w, fit in zip(self.items, widths, fits, strict=True) if fit]

    def render(self) -> Text:
        width = self.size.width
        key_style = self.get_component_rich_style("keys-footer--key")
        description_style = self.get_component_rich_style("keys-footer--description")
        # Hovering changes a key's background only (its words keep their colours).
        hover_style = Style(bgcolor=self.get_component_rich_style("keys-footer--hover").bgcolor)
        line = Text(no_wrap=True, overflow="crop", end="")
        spans: list[tuple[int, int, FooterItem]] = []
        for item, item_width in self._fit(width):
            start = line.cell_len
            line.append(f" {item.display} ", key_style)
            if item.description:
                line.append(f"{item.description} ", description_style)
            if not item.enabled:
                line.stylize(Style(dim=True), start)
            if item == self._hover:
                line.stylize(hover_style, start)
            spans.append((start, start + item_width, item))
        self._spans = spans
        if self._hint:
            hint = self._hint.copy()
            hint.stylize_before(self.get_component_rich_style("keys-footer--hint"))
            for start, end, part in self._hint_spans:
                if part == self._hover:
                    hint.stylize(hover_style, start, end)
            hint.append(" ")
            line.append(" " * max(0, width - line.cell_len - hint.cell_len))
            self._hint_at = line.cell_len
            line.append_text(hint)
        return line

    # ------------------------------------------------------------------ the mouse

    def _item_at(self, x: int) -> FooterItem | HintPart | None:
        key = next((item for start, end, item in self._spans if start <= x < end), None)
        if key is not None or not self._hint:
            return key
        x -= self._hint_at
        return next((part for start, end, part in self._hint_spans if start <= x < end), None)

    def on_mouse_move(self, event: events.MouseMove) -> None:
        self._hover_on(self._item_at(event.x))

    def on_leave(self, event: events.Leave) -> None:
        self._hover_on(None)

    def _hover_on(self, item: FooterItem | HintPart | None) -> None:
        """``item`` under the mouse: its background, its tooltip, a hand pointer."""
        if item != self._hover:
            self._hover = item
            if isinstance(item, HintPart):
                self.tooltip = inert(f"{item.keys}: {item.what}")  # keys: a keymap's
            else:
                self.tooltip = item.tooltip if item is not None else None
            self.styles.pointer = "pointer" if item is not None else "default"
            self.refresh()

    async def on_click(self, event: events.Click) -> None:
        event.stop()
        item = self._item_at(event.x)
        if item is None:
            return
        if isinstance(item, HintPart):
            await self._hint_clicked(item)
        elif item.enabled:
            self.app.simulate_key(item.key)
        else:
            self.app.bell()

    async def _hint_clicked(self, part: HintPart) -> None:
        """Run what the part's keys run (through the app: a keymap moves the keys, not
        the action); a palette opened for it gets its query typed in."""
        app = self.app
        await app.run_action(part.action)
        if not part.query:
            return

        def type_query() -> None:
            for field in app.screen.query(CommandInput).results(CommandInput):
                field.insert_text_at_cursor(part.query)

        app.call_after_refresh(type_query)
