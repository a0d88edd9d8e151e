"""The app's side that does not follow the connection: the configuration file as read
and as it is now, the theme remembered (in the profile in force, else in the file), the
keymap in force, and every toast made inert.

`ConfigApp` is the base of `vagent_tui.ui.connections.ConnectionApp`, which names the
profile in force (`ConfigApp.profile_in_force`).
"""

from __future__ import annotations

from collections.abc import Mapping

from textual.notifications import SeverityLevel
from textual.theme import Theme

from vagent_tui import config as cfg
from vagent_tui.inert import DISPLAY_LIMIT, inert
from vagent_tui.ui.textual_compat import CrashReportingApp
from vagent_tui.ui.themes import honour_empty_no_color, no_color_wanted


class ConfigApp(CrashReportingApp[None]):
    """The configuration, the theme remembered, the keymap in force, inert toasts."""

    def __init__(self, *, config: cfg.Config | None, config_error: str | None) -> None:
        # With NO_COLOR, Textual picks its filter once, here, from the theme in force
        # (its own dark one): a monochrome filter that turns the ANSI theme's "terminal
        # default" colours into black on black. Native ANSI colours make it strip the
        # colours instead, leaving the terminal's own; app.tcss marks cursors and focus
        # by reverse video and bold. Textual reads an empty NO_COLOR as set: dropped
        # first, so that it and the console agree (no-color.org: empty means colour).
        honour_empty_no_color()
        super().__init__(ansi_color=True if no_color_wanted() else None)
        self.config = config
        """The configuration as read at start; None when the file is malformed."""
        self.config_error = config_error
        self.key_overrides: dict[str, str] = {}
        """The keymap in force (binding id -> keys), as given to `set_keymap`."""
        self._applying_theme = False

    def profile_in_force(self) -> cfg.Profile | None:
        """The profile a chosen theme is remembered in (None: the file's own theme)."""
        return None

    # ------------------------------------------------------------------ toasts

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = False,
    ) -> None:
        """Every toast of the console: inert text, never markup (`vagent_tui.inert`).

        Toasts often carry a server's message or a name from the platform, so this is
        the one way to show one; ``markup`` is accepted for Textual's own callers and
        ignored.
        """
        del markup
        super().notify(
            inert(message, multiline=True, limit=DISPLAY_LIMIT),  # a toast, not a document
            title=inert(title),
            severity=severity,
            timeout=timeout,
            markup=False,
        )

    # ------------------------------------------------------------------ keymap

    def apply_keymap(self, keymap: Mapping[str, str]) -> None:
        """Use ``keymap`` (binding id -> keys) and remember it for the palette's key hints."""
        self.key_overrides = dict(keymap)
        self.set_keymap(self.key_overrides)

    # ------------------------------------------------------------------ config on disk

    def adopt_config(self, config: cfg.Config) -> None:
        """The file the setup screen has just written, if the app started without one."""
        if self.config is None and not self.config_error:
            self.config = config

    def fresh_config(self) -> cfg.Config | None:
        """The file as it is now (another terminal may have changed it); None if broken."""
        if self.config is None:
            return None
        try:
            self.config = cfg.load(self.config.path)
        except cfg.ConfigError as exc:
            self.config_error = str(exc)
            return None
        return self.config

    # ------------------------------------------------------------------ theme memory

    def watch_theme_choice(self) -> None:
        self.theme_changed_signal.subscribe(self, self._theme_chosen)

    def set_theme_quietly(self, name: str | None) -> None:
        """Apply a profile's theme without remembering it again."""
        if not name or name not in self.available_themes or name == self.theme:
            return
        self._applying_theme = True
        try:
            self.theme = name
        finally:
            self.call_after_refresh(self._theme_applied)

    def _theme_applied(self) -> None:
        self._applying_theme = False

    def _theme_chosen(self, theme: Theme) -> None:
        if self._applying_theme:
            return
        if self.config is None:
            self.notify(
                f"Theme {theme.name} is used for now but not remembered: the config file "
                "has a problem and is left as it is.",
                severity="warning",
            )
            return
        config = self.fresh_config()
        if config is None:
            self.notify(f"Theme not remembered: {self.config_error}", severity="warning")
            return
        current = self.profile_in_force()
        where = config.remember_theme(theme.name, current.name if current else None)
        try:
            cfg.save(config)
        except OSError as exc:
            self.notify(f"Theme not remembered: {exc}", severity="warning")
            return
        self.notify(f"Theme {theme.name} remembered in {where}")
