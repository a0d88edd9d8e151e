"""The key footer of every screen: Textual's `Footer`, a hint on how to get around, and
no redundant recomposes."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.widget import Widget
from textual.widgets import Footer, Static

from vagent_tui.ui.convention import key_display, screens_keys
from vagent_tui.ui.css import stylesheet
from vagent_tui.ui.palette import HEADING
from vagent_tui.ui.registry import SCREENS
from vagent_tui.ui.textual_compat import footer_bindings_ready


def _keys(overrides: dict[str, str], binding_id: str, default: str) -> str:
    return "/".join(key_display(k.strip()) for k in overrides.get(binding_id, default).split(","))


def hint_parts(overrides: dict[str, str]) -> list[tuple[str, str]]:
    """(keys, what) of the hint: how to switch screens, open the palette, see the keys.

    The keys in force: a profile's keymap applied. The screen keys are said as ``1-0``
    while they are the convention's; a keymap that moves one leaves them to ``?``.
    """
    parts = []
    if not any(f"goto.{info.name}" in overrides for info in SCREENS if info.key):
        parts.append((screens_keys(), "screens"))
    palette = [_keys(overrides, "app.goto", "colon"), _keys(overrides, "app.palette", "ctrl+p")]
    parts.append((" ".join(k.replace("ctrl+", "^") for k in palette), "commands"))
    parts.append((_keys(overrides, "app.keys", "question_mark"), "keys"))
    return parts


def hint_text(overrides: dict[str, str]) -> Text:
    text = Text(no_wrap=True, overflow="ellipsis")
    for keys, what in hint_parts(overrides):
        text.append(" ")
        text.append(keys, style=HEADING)
        text.append(f" {what} ")
    return text


class _Hint(Static):
    """The way around, at the footer's right end. Once laid out, the footer hides the keys
    it covers: at start-up the footer's own calls to do so can come before any layout
    (while Textual holds updates back), when no key has a place yet."""

    def on_resize(self) -> None:
        footer = self.parent
        if isinstance(footer, KeysFooter):
            footer.call_after_refresh(footer.fit_keys)


class KeysFooter(Footer):
    """`Footer` with the way around on its right, recomposed only when what it shows changed.

    The right end always says how to switch screens, open the palette and list the
    keys (``1-0 screens  : ^p commands  ? keys``, 35 columns); the screen's own keys
    fill the rest. `Footer` recomposes (remounts every key, about 10 ms) once per
    binding change, and a screen being shown brings several (resume, focus, ...) that
    leave the keys as they were: at start-up three more recomposes followed the first
    one, each building the same footer again. This one compares what `Footer.compose`
    reads (Textual 8: the screen's active bindings, how their keys are displayed) with
    what it read last time, and skips the recompose when nothing differs.
    """

    DEFAULT_CSS = stylesheet(__file__)
    _composed_from: Any = None

    def __init__(self) -> None:
        # The palette's key is in the hint; Footer's own palette key would repeat it.
        super().__init__(show_command_palette=False)

    def _overrides(self) -> dict[str, str]:
        overrides = getattr(self.app, "key_overrides", None)
        return dict(overrides) if isinstance(overrides, dict) else {}

    def _compose_inputs(self) -> Any:
        if not footer_bindings_ready(self):
            return None
        key_display = self.app.get_key_display
        return (
            self._overrides(),
            [
                (active.binding, active.enabled, active.tooltip, key_display(active.binding))
                for active in self.screen.active_bindings.values()
            ],
        )

    def compose(self) -> ComposeResult:
        self._composed_from = self._compose_inputs()
        yield from super().compose()
        if footer_bindings_ready(self):
            yield _Hint(hint_text(self._overrides()), classes="keys-hint", markup=False)

    def on_mount(self) -> None:
        self.call_after_refresh(self.fit_keys)

    def on_resize(self) -> None:
        # Wider again: show every key, then hide what still does not fit.
        for key in self._screen_keys():
            key.display = True
        self.call_after_refresh(self.fit_keys)

    def _screen_keys(self) -> list[Widget]:
        return [w for w in self.children if not w.has_class("keys-hint")]

    def fit_keys(self) -> None:
        """Hide the keys that the hint would cover: a key shows whole or not at all
        (a cut one read "/ " or "i " with no word; ``?`` lists them all)."""
        hints = self.query(".keys-hint")
        if not hints:
            return
        edge = hints.first().region.x
        covered = False
        for key in self._screen_keys():
            covered = covered or key.region.right > edge
            if covered:
                key.display = False

    async def recompose(self) -> None:
        unchanged = (
            self.is_attached
            and self._composed_from is not None
            and self._compose_inputs() == self._composed_from
        )
        if not unchanged:
            await super().recompose()
            self.call_after_refresh(self.fit_keys)
