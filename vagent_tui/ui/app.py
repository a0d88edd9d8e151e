"""`VagentApp`: screens as modes, the palette, themes, notifications and copying.

The connection and everything that follows it live in `vagent_tui.ui.connections`.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any, ClassVar

from textual import events
from textual.app import App, SystemCommand
from textual.await_complete import AwaitComplete
from textual.binding import ActiveBinding, Binding, BindingType
from textual.command import CommandPalette
from textual.screen import Screen
from textual.timer import Timer
from textual.worker import Worker, WorkerState

from vagent_tui import collector
from vagent_tui import config as cfg
from vagent_tui.api.client import PlatformClient
from vagent_tui.ui import colours
from vagent_tui.ui.built import built, when_built
from vagent_tui.ui.connections import ConnectionApp
from vagent_tui.ui.convention import NO_KEY_PREFIX, action_name, effective_keys
from vagent_tui.ui.registry import BY_NAME, SCREENS, ScreenInfo
from vagent_tui.ui.text import safe_markup
from vagent_tui.ui.textual_compat import FrameDiffApp, styled_as_current
from vagent_tui.ui.themes import (
    DEFAULT_DARK,
    SEMANTIC_DEFAULTS,
    load_themes,
    packaged_theme_dir,
    terminal_default,
)
from vagent_tui.ui.typeahead import TypeAheadApp
from vagent_tui.ui.widgets.status import describe_error

STARTED_SECONDS = 0.5
"""After this long from mounting, start-up is over (`vagent_tui.collector`)."""
PAUSE_SECONDS = 0.25
"""Seconds after a key or a click after which what exists is set aside from the cycle
collector's walks (`collector.set_aside`): a collection on the next key walks only what
was made since."""
QUIET_SECONDS = 1.0
"""Seconds after a key or a click after which what was set aside is given back to the
collector (`collector.give_back`): typing is over, a cycle that became garbage is
collected again as usual."""
_TYPED = (events.Key, events.MouseDown, events.MouseScrollDown, events.MouseScrollUp)
"""The input whose pauses `PAUSE_SECONDS` and `QUIET_SECONDS` count (not mouse moves)."""

_SELECT_NOTE = (
    "Select the text with the mouse (shift+drag in most terminals) and copy it with your "
    "terminal's copy key. Set VAGENT_COPY=osc52 if your terminal does accept OSC 52."
)


_NOT_COMMANDS = frozenset(
    {"cursor_down", "cursor_up", "first", "last", "page_up", "page_down", "escape", "leave",
     "leave_field", "focus_table", "close_form", "select_cursor", "toggle_node"}
)  # fmt: skip
"""Keys that move or leave, which the palette does not list as commands."""


_KEYS_HELP = "This screen's keys and the key convention of every screen (key ?)"


async def _nothing() -> None:
    """An await that completes at once."""


def _screen_bindings() -> list[BindingType]:
    """``goto.NAME`` for every screen; one without a key of its own (Fleet, Journal, ...)
    gets a key no terminal sends, so that a keymap can still give it one by its id."""
    return [
        Binding(
            info.key or f"{NO_KEY_PREFIX}{info.name}",
            f"app.show('{info.name}')",
            info.title,
            show=False,
            id=f"goto.{info.name}",
            tooltip=info.help,
        )
        for info in SCREENS
    ]


class VagentApp(TypeAheadApp[None], ConnectionApp, FrameDiffApp[None]):
    """The console. Give it a client; it connects and opens ``initial_screen``.

    Without a client (first run: no profile) it opens the setup screen, which makes one.
    """

    CSS_PATH = "app.tcss"
    TITLE = "vagent-tui"
    MODES: ClassVar = {info.name: partial(info.load) for info in SCREENS}
    BINDINGS: ClassVar[list[BindingType]] = [
        *_screen_bindings(),
        Binding(
            "question_mark",
            "toggle_keys",
            "Keys",
            show=False,
            id="app.keys",
            tooltip="This screen's keys and the convention of every screen",
        ),
        # Both open the palette. Textual adds its own ctrl+p binding only when no binding
        # of the app runs the palette action, so with `:` here ctrl+p must be here too.
        Binding(
            "colon",
            "command_palette",
            "Go to",
            show=False,
            id="app.goto",
            tooltip="Jump to any screen or action (like ctrl+p)",
        ),
        Binding(
            App.COMMAND_PALETTE_BINDING,
            "command_palette",
            "Go to",
            show=False,
            priority=True,
            id="app.palette",
            tooltip="Jump to any screen or action (like :)",
        ),
        # Not in the footer (its columns go to the screen's keys): ? and the palette list
        # it, and ctrl+c says it.
        Binding("ctrl+q", "quit", "Quit", show=False, id="app.quit", tooltip="Quit vagent-tui"),
        Binding(
            "ctrl+l",
            "redraw_terminal",
            "Redraw",
            show=False,
            id="app.redraw",
            tooltip="Write the whole screen again (when something else wrote over it)",
        ),
        Binding(
            "ctrl+y",
            "show_copied",
            "Show copied",
            show=False,
            id="app.show-copied",
            tooltip="Show the last copied text, to select it by hand",
        ),
    ]

    def __init__(
        self,
        client: PlatformClient | None,
        *,
        profile_label: str = "",
        initial_screen: str = "scope",
        initial_account: int | None = None,
        theme: str | None = None,
        tier: str = "",
        extra_theme_dirs: tuple[Path, ...] = (),
        config: cfg.Config | None = None,
        config_error: str | None = None,
        config_warnings: Iterable[str] = (),
        profile: cfg.Profile | None = None,
        read_only: bool = False,
    ) -> None:
        self.initial_screen = initial_screen if initial_screen in BY_NAME else "scope"
        if client is not None:
            # Start in the first screen's mode rather than switch to it from Textual's
            # default one: each switch applies the whole stylesheet again.
            self.DEFAULT_MODE = self.initial_screen  # type: ignore[misc]
            first = partial(self._first_screen, BY_NAME[self.initial_screen])
            self.MODES = {**self.MODES, self.initial_screen: first}  # type: ignore[misc]
        super().__init__(
            client,
            label=profile_label,
            config=config,
            config_error=config_error,
            profile=profile,
            read_only=read_only,
            tier=tier,
            initial_account=initial_account,
        )
        if "TEXTUAL_ANIMATIONS" not in os.environ:  # the user's choice is kept
            # Over SSH an animation's frames (a tab's underline sliding, a loading indicator's
            # dots) are bytes for nothing to read: the end state is drawn at once (issue 40).
            self.animation_level = "none"
        self.config_warnings = list(config_warnings)
        """What the config file holds that was ignored (vagent_tui.ui.keyspec), shown once."""
        self.last_copied: tuple[str, str] | None = None
        self._mounted = False
        """Whether the app has mounted (Textual's own record of it is private)."""
        self._collector_timers: tuple[Timer, ...] = ()
        """`collector.set_aside` and `give_back`, due after the last key or click."""
        self.theme_errors = self._register_themes(extra_theme_dirs)
        wanted = theme or terminal_default()
        wanted = wanted if wanted in self.available_themes else DEFAULT_DARK
        colours.install(self.console, self._start_with_theme(wanted), replace=False)

    def quit_keys(self) -> list[str]:
        """The keys of ``app.quit``, the keymap's if it moves them."""
        return self.key_overrides.get("app.quit", "ctrl+q").split(",")

    def _first_screen(self, info: ScreenInfo) -> Screen[Any]:
        """The first screen, its CSS read into the app's stylesheet before Textual first
        parses it: installing a screen whose CSS the stylesheet lacks makes Textual parse
        the whole stylesheet again and apply it again to every widget, at start-up for
        nothing. Later screens load their CSS the usual way."""
        screen = info.load()
        for path in screen.css_path:
            self.stylesheet.read(path)
        if not self._mounted:
            # Textual would parse and apply the whole stylesheet for this screen, and
            # then again to the app as it mounts (`textual_compat`, 6.).
            styled_as_current(self, screen)
        return screen

    # ------------------------------------------------------------------ themes

    def _register_themes(self, extra_dirs: tuple[Path, ...]) -> list[str]:
        themes, errors = load_themes((packaged_theme_dir(), *extra_dirs))
        for theme in themes:
            self.register_theme(theme)
        return errors

    def _start_with_theme(self, name: str) -> dict[str, str]:
        """Before the app runs, the theme's colours go straight into the stylesheet (not
        parsed yet). Setting `theme` would make Textual parse the whole stylesheet once
        more at start-up, for nothing: its watcher does what is done here and queues a
        refresh of the CSS. A theme that changes the truecolor filter (of the other
        brightness than Textual's default, or ANSI colours) is set the usual way. Returns
        the theme's CSS variables (computed once: the cells' colours take them too)."""
        theme, default = self.get_theme(name), self.current_theme
        if (
            theme is None
            or (theme.dark, theme.ansi) != (default.dark, default.ansi)
            or self.ansi_color is not None
        ):
            self.theme = name
            return self.get_css_variables()
        self.set_reactive(App.theme, name)
        classes = {c: False for c in self.classes if c.startswith("-theme-")}
        self.update_classes({**classes, f"-theme-{name}": True}, update=False)
        variables = self.get_css_variables()
        self.stylesheet.set_variables(variables)
        return variables

    def get_theme_variable_defaults(self) -> dict[str, str]:
        # Built-in themes chosen from the palette lack our semantic variables.
        return dict(SEMANTIC_DEFAULTS)

    def _palette_follows_theme(self, _theme: object) -> None:
        """The semantic colours of cells and panes (`vagent_tui.ui.colours`) follow too."""
        colours.install(self.console, self.get_css_variables(), replace=True)
        self.screen.refresh(repaint=True)

    # ------------------------------------------------------------------ start-up

    def on_load(self) -> None:
        # The key owner is asked for before the first screen is built, not after: the
        # request (a round trip to the platform, or the demo's simulator) runs while
        # Textual composes and styles the screen, which then shows the data when it
        # mounts instead of one frame later.
        if self.connection.client is not None:
            self.connect()

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, _TYPED):
            # Timers started by the input, not a timer ticking all along: an idle console
            # (the migration monitor between polls) spends nothing on this.
            for timer in self._collector_timers:
                timer.stop()
            self._collector_timers = (
                self.set_timer(PAUSE_SECONDS, collector.set_aside),
                self.set_timer(QUIET_SECONDS, collector.give_back),
            )
        await super().on_event(event)

    def on_mount(self) -> None:
        self._mounted = True
        # The collector, paused by the command line for the start, runs again once the
        # first frame is out on the demo (about 0.1 s after this; a slow platform's
        # answer may come later, with the collector on: the pause only saves time).
        self.set_timer(STARTED_SECONDS, collector.resume)
        for error in self.theme_errors:
            self.notify(error, title="Theme file skipped", severity="warning", markup=False)
        for warning in self.config_warnings:
            self.notify(warning, title="Config file", severity="warning", markup=False, timeout=15)
        self.watch_theme_choice()
        self.theme_changed_signal.subscribe(self, self._palette_follows_theme)
        self.check_keymap()
        if self.connection.client is None:
            from vagent_tui.ui.screens.setup import SetupScreen  # first run only

            self.push_screen(SetupScreen(first_run=True))
            return
        if self.config_error:
            self.notify(
                f"{self.config_error}\nThe file was left unchanged; fix it by hand.",
                title="Config file not loaded",
                severity="error",
                markup=False,
                timeout=15,
            )

    # ------------------------------------------------------------------ navigation

    def action_show(self, name: str) -> None:
        if name not in BY_NAME or self.current_mode == name:
            return
        # Keys typed faster than a frame can open a second palette before the first
        # palette's choice runs: close it, or it would be left on the old mode's stack.
        if isinstance(self.screen, CommandPalette):
            self.screen.dismiss()
        from vagent_tui.ui.keys_panel import KeysScreen

        if isinstance(self.screen, KeysScreen):
            self.screen.dismiss()
        self.switch_mode(name)

    def action_command_palette(self) -> None:
        """``:`` or ctrl+p: the palette (Textual's, with page keys that cannot crash it)."""
        if self.use_command_palette and not isinstance(self.screen, CommandPalette):
            from vagent_tui.ui.command_palette import ConsolePalette  # at its first use

            self.push_screen(ConsolePalette(id="--command-palette"))

    def pop_screen(self) -> AwaitComplete:
        """Pop the current screen; a second pop of the last screen is ignored, not fatal.

        A dialog dismissed twice by keys faster than a frame (Enter pressed while its
        first dismissal is under way) would otherwise end the app. A screen not built
        yet is popped once it is (`vagent_tui.ui.built`).
        """
        if len(self.screen_stack) <= 1:
            self.log.warning("pop_screen ignored: only one screen on the stack")
            return AwaitComplete(_nothing())
        screen = self.screen
        if not built(screen):
            # Closed while being pushed (by a worker, or a key typed ahead): removed now,
            # it would still mount, without its widgets. It closes once built.
            when_built(screen, self._pop_if_on_top, screen)
            return AwaitComplete(_nothing())
        return super().pop_screen()

    def _pop_if_on_top(self, screen: Screen[Any]) -> None:
        if self.screen is screen:
            self.pop_screen()

    def action_toggle_keys(self) -> None:
        """``?``: the keys of the screen shown and the convention; ``?`` again closes."""
        from vagent_tui.ui.keys_panel import KeysScreen, screen_rows

        screen = self.screen
        if isinstance(screen, KeysScreen):
            screen.dismiss()
            return
        rows = screen_rows(self.bindings_of(screen), self.get_key_display)
        self.push_screen(KeysScreen(screen.TITLE or screen.__class__.__name__, rows))

    def bindings_of(self, screen: Screen[Any]) -> list[ActiveBinding]:
        """The screen's active bindings, and its own that a focused widget's key hides.

        Enter on Voices shows the detail; with the table focused, Textual's list of
        active bindings has the table's Enter instead (which does the same through the
        table's selection). The screen's binding is listed too, with its keymap key,
        unless the screen disables it (a read-only profile) or one of ours has the key
        (the tree's Enter picks on Scope: the screen's Enter that picks is not repeated).
        """
        active = list(screen.active_bindings.values())
        ids = {a.binding.id for a in active if a.binding.id}
        ours = {key for key, a in screen.active_bindings.items() if a.binding.id}
        for binding in effective_keys(type(screen).__mro__).values():
            if not binding.id or binding.id in ids or not binding.description:
                continue
            if binding.key in ours:
                continue
            name, _, _ = binding.action.partition("(")
            if screen.check_action(name, ()) is False:
                continue
            ids.add(binding.id)
            keys = self.key_overrides.get(binding.id)
            shown = binding if keys is None else replace(binding, key=keys)
            active.append(ActiveBinding(screen, shown, True, binding.tooltip))
        return active

    def get_key_display(self, binding: Binding) -> str:
        if binding.key.startswith(NO_KEY_PREFIX):
            return "-"
        return super().get_key_display(binding)

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """The palette's commands; Textual reads their titles and help as markup.

        Profile names, base URLs and token commands come from the config file, so
        every title and help line is made inert and markup-escaped here, in one place.
        """
        for command in self._palette_commands(screen):
            yield SystemCommand(
                safe_markup(command.title),
                safe_markup(command.help),
                command.callback,
                command.discover,
            )

    def _palette_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        for command in super().get_system_commands(screen):
            if command.callback == self.action_show_help_panel:  # ours is the ? panel
                yield SystemCommand("Keys", _KEYS_HELP, self.action_toggle_keys)
            else:
                yield command
        for info in SCREENS:
            key = self.key_overrides.get(f"goto.{info.name}", info.key)
            yield SystemCommand(
                f"screen: {info.title}",
                f"{info.help} (key {key})" if key else f"{info.help} (or --screen {info.name})",
                partial(self.action_show, info.name),
            )
        yield from self.profile_commands()
        yield from self._action_commands(screen)

    def _action_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """Every action of the screen and its focused widgets, hidden keys included.

        Active bindings: keymap overrides applied, the ones a read-only profile hides
        left out. The list moves and leaving (esc) are no commands.
        """
        title = (screen.TITLE or "screen").lower()
        keys: dict[tuple[int, str], list[str]] = {}
        found: dict[tuple[int, str], tuple[Binding, Any]] = {}
        for active in self.bindings_of(screen):
            b = active.binding
            if active.node is self or not active.enabled or not b.description:
                continue
            if action_name(b.action) in _NOT_COMMANDS or b.action.startswith("app."):
                continue
            where = (id(active.node), b.action)
            found.setdefault(where, (b, active.node))
            keys.setdefault(where, []).append(self.get_key_display(b))
        for where, (b, node) in found.items():
            shown = ", ".join(dict.fromkeys(keys[where]))
            yield SystemCommand(
                f"{title}: {b.description}",
                f"{b.tooltip or b.description} (key {shown})",
                partial(self.run_action, b.action, node),
            )

    # ------------------------------------------------------------------ helpers

    def copy_text(self, text: str, what: str, *, secret: bool = False) -> None:
        """Copy through OSC 52, or show a modal to select from (`vagent_tui.ui.clipboard`).

        The text is never echoed in a notification; a ``secret`` (a new token) is not
        kept for ctrl+y either: the dialog that copies it shows it already.
        """
        from vagent_tui.ui.clipboard import MODAL, copy_method
        from vagent_tui.ui.dialogs import TextModal

        forced = os.environ.get("VAGENT_COPY")
        method = copy_method(web=self.is_web) if forced or not self.is_headless else "osc52"
        if method == MODAL:
            if secret:
                self.notify(
                    f"This terminal may not accept clipboard writes: select the {what} "
                    "shown in the dialog with the mouse (shift+drag).",
                    markup=False,
                )
                return
            self.push_screen(TextModal(f"Copy {what}", text, note=_SELECT_NOTE))
            return
        self.copy_to_clipboard(text)
        self.last_copied = None if secret else (what, text)
        where = "browser" if self.is_web else "terminal"
        hint = "" if secret else f" (ctrl+y shows it if your {where} did not take it)"
        self.notify(f"Copied {what} to the clipboard{hint}", markup=False)

    def action_show_copied(self) -> None:
        if self.last_copied is None:
            self.notify("Nothing copied yet", markup=False)
            return
        what, text = self.last_copied
        from vagent_tui.ui.dialogs import TextModal

        self.push_screen(TextModal(f"Copied {what}", text, note=_SELECT_NOTE))

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """The one place unexpected worker failures land: shown, never fatal."""
        if event.state is WorkerState.ERROR and event.worker.error is not None:
            self.notify(
                f"Unexpected error: {describe_error(event.worker.error)}",
                severity="error",
                markup=False,
                timeout=10,
            )
