"""The app's side of profiles: switching connection, read-only, theme memory, keymap.

`ProfileSupport` is mixed into `VagentApp`; it keeps the configuration the app was
started with (None when the file could not be read: then nothing is ever written),
the active profile, and installs a new client when the user switches profile.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Callable, Iterable
from functools import partial
from typing import TYPE_CHECKING, Any

from textual.app import SystemCommand
from textual.theme import Theme

from vagent_tui import config as cfg
from vagent_tui.api.client import PlatformClient
from vagent_tui.api.errors import PlatformError, redact_url
from vagent_tui.services.migrations import MigrationWatcher
from vagent_tui.services.session import Session
from vagent_tui.ui.safety import refusal
from vagent_tui.ui.widgets.status import describe_error

if TYPE_CHECKING:
    from vagent_tui.ui.app import VagentApp

ClientFactory = Callable[[cfg.Connection], PlatformClient]


def default_client_factory(connection: cfg.Connection) -> PlatformClient:
    from vagent_tui.services.connect import real_client

    return real_client(connection.base_url, connection.token)


def profile_env() -> dict[str, str]:
    """The environment for an in-app switch: the one-run overrides do not follow it.

    ``VAGENT_TOKEN``/``VAGENT_BASE_URL`` were meant for the profile the app started
    with; a profile picked in the app uses its own token source.
    """
    env = dict(os.environ)
    env.pop("VAGENT_TOKEN", None)
    env.pop("VAGENT_BASE_URL", None)
    return env


class ProfileSupport:
    """Mixin of `VagentApp` (kept apart so the app module stays small)."""

    def _init_profiles(
        self: VagentApp,
        *,
        config: cfg.Config | None,
        config_error: str | None,
        profile: cfg.Profile | None,
        read_only: bool,
        tier: str,
    ) -> None:
        self.config = config
        """The configuration as read at start; None when the file is malformed."""
        self.config_error = config_error
        self.profile = profile
        self.force_read_only = read_only
        """``--read-only``: stays on across profile switches."""
        self.tier = profile.tier if profile is not None else tier
        self.read_only = read_only or (profile is not None and profile.is_read_only)
        self.client_factory: ClientFactory = default_client_factory
        self._applying_theme = False
        if profile is not None and profile.keymap:
            self.set_keymap(profile.keymap)

    def check_keymap(self: VagentApp) -> None:
        """Warn about keymap ids that name no binding (checked off the main thread)."""
        profile = self.profile
        if profile is None or not profile.keymap:
            return

        def check() -> None:
            from vagent_tui.ui.keys import keymap_warning, unknown_ids

            unknown = unknown_ids(profile.keymap)
            if unknown:
                message = keymap_warning(profile.name, unknown)
                self.call_from_thread(self.notify, message, severity="warning", markup=False)

        self.run_worker(check, thread=True, group="keymap-check", exit_on_error=False)

    # ------------------------------------------------------------------ read-only

    def refuse_if_read_only(self: VagentApp, node: Any, action: str) -> bool:
        """True (and a notification saying why) when ``action`` may not run now."""
        mutating = getattr(node, "mutating", None)
        if not self.read_only or mutating is None:
            return False
        what = mutating().get(action)
        if what is None:
            return False
        self.notify(refusal(what), severity="warning", markup=False)
        return True

    # ------------------------------------------------------------------ config on disk

    def fresh_config(self: VagentApp) -> cfg.Config | None:
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

    def _watch_theme_choice(self: VagentApp) -> None:
        self.theme_changed_signal.subscribe(self, self._theme_chosen)

    def set_theme_quietly(self: VagentApp, name: str | None) -> None:
        """Apply a profile's theme without remembering it again."""
        if not name or name not in self.available_themes or name == self.theme:
            return
        self._applying_theme = True
        try:
            self.theme = name
        finally:
            self.call_after_refresh(self._theme_applied)

    def _theme_applied(self: VagentApp) -> None:
        self._applying_theme = False

    def _theme_chosen(self: VagentApp, theme: Theme) -> None:
        if self._applying_theme:
            return
        if self.config is None:
            self.notify(
                f"Theme {theme.name} is used for now but not remembered: the config file "
                "has a problem and is left as it is.",
                severity="warning",
                markup=False,
            )
            return
        config = self.fresh_config()
        if config is None:
            self.notify(
                f"Theme not remembered: {self.config_error}", severity="warning", markup=False
            )
            return
        profile = config.profiles.get(self.profile.name) if self.profile else None
        if profile is not None:
            profile.theme = theme.name
            where = f"profile {profile.name}"
        else:
            config.theme = theme.name
            where = "the config file"
        try:
            cfg.save(config)
        except OSError as exc:
            self.notify(f"Theme not remembered: {exc}", severity="warning", markup=False)
            return
        self.notify(f"Theme {theme.name} remembered in {where}", markup=False)

    # ------------------------------------------------------------------ palette

    def profile_commands(self: VagentApp) -> Iterable[SystemCommand]:
        config = self.fresh_config() if self.config is not None else None
        current = self.profile.name if self.profile else None
        for name, profile in (config.profiles if config else {}).items():
            if name == current:
                continue
            ro = " · read-only" if profile.is_read_only else ""
            yield SystemCommand(
                f"profile: use {name}",
                f"Reconnect to {redact_url(profile.base_url)} ({profile.tier}{ro}); "
                f"token from {profile.token_source()}",
                partial(self.switch_profile, name),
            )
        if self.config is not None:
            yield SystemCommand(
                "profile: new…",
                "Add a connection profile (base URL, token source, tier) and use it",
                self.open_setup,
            )

    def open_setup(self: VagentApp) -> None:
        from vagent_tui.ui.screens.setup import SetupScreen

        self.push_screen(SetupScreen())

    # ------------------------------------------------------------------ switching

    def switch_profile(self: VagentApp, name: str) -> None:
        self.run_worker(
            self._switch_profile(name), group="profile", exclusive=True, exit_on_error=False
        )

    async def _switch_profile(self: VagentApp, name: str) -> None:
        config = self.fresh_config()
        if config is None:
            self.notify(
                f"Cannot switch profile: {self.config_error or 'no config file'}",
                severity="error",
                markup=False,
            )
            return
        self.notify(f"Connecting to profile {name}…", markup=False, timeout=3)
        try:
            # A token command may take a while (a password manager): off the loop.
            connection = await asyncio.to_thread(
                cfg.resolve_connection, config, profile_name=name, env=profile_env()
            )
            assert connection is not None and connection.profile is not None
            client = self.client_factory(connection)
        except cfg.ConfigError as exc:
            self._switch_failed(name, str(exc))
            return
        await self.connect_profile(client, connection.profile)

    async def connect_profile(
        self: VagentApp,
        client: PlatformClient,
        profile: cfg.Profile | None,
        *,
        label: str = "",
    ) -> bool:
        """Read the key owner with ``client``; on success make it the app's connection.

        A failure closes ``client`` and keeps the current connection (with a message).
        """
        label = label or (profile.name if profile else client.host)
        session = Session(client, profile=label)
        try:
            await session.connect()
            if profile is not None and profile.target_account is not None:
                session.set_target(await session.resolve(profile.target_account))
        except PlatformError as exc:
            await client.aclose()
            self._switch_failed(label, describe_error(exc))
            return False
        self.install_connection(client, session, profile, label=label)
        return True

    def _switch_failed(self: VagentApp, name: str, reason: str) -> None:
        still = f"still on {self.profile_label}" if self.session else "not connected"
        self.notify(
            f"Could not switch to profile {name}: {reason} ({still})",
            severity="error",
            markup=False,
            timeout=10,
        )

    def install_connection(
        self: VagentApp,
        client: PlatformClient,
        session: Session,
        profile: cfg.Profile | None,
        *,
        label: str,
    ) -> None:
        """Replace client, session and watcher; every screen reloads for the new one."""
        old_client: PlatformClient | None = getattr(self, "client", None)
        if old_client is not None and old_client is not client:
            # The journal (and any other observer) follows the connection.
            client.observers.extend(o for o in old_client.observers if o not in client.observers)
        elif old_client is None and hasattr(self, "journal"):
            client.observers.append(self.journal.observer(lambda: self.profile_label))
        dropped = [w for w in self.workers if w.group.startswith("watch-") and w.is_running]
        for worker in dropped:
            worker.cancel()
        if dropped:
            self.notify(
                f"Stopped watching {len(dropped)} migration task(s) of the previous profile; "
                "they go on on the platform.",
                severity="warning",
                markup=False,
            )
        self.client = client
        self.session = session
        self.watcher = MigrationWatcher(client)
        self.watcher.listeners.append(self._task_changed)
        self.profile = profile
        self.profile_label = label
        self.tier = profile.tier if profile else ""
        self.read_only = self.force_read_only or (profile is not None and profile.is_read_only)
        client.read_only = self.read_only
        self.set_keymap(profile.keymap if profile else {})
        self.check_keymap()
        if profile is not None:
            self.set_theme_quietly(profile.theme)
        self.connected = True
        self.connect_error = None
        self.context_version += 1
        self.refresh_bindings()
        if old_client is not None and old_client is not client:
            self.run_worker(self._close_later(old_client), group="close-old", exit_on_error=False)
        ro = " (read-only)" if self.read_only else ""
        self.notify(f"Connected to {label}{ro}: {session.context_line()}", markup=False)

    async def _close_later(self: VagentApp, client: PlatformClient) -> None:
        """Close the old client once the writes sent with it have their answer."""
        for worker in [w for w in self.workers if w.group.startswith("write-")]:
            with contextlib.suppress(Exception):
                await worker.wait()
        await client.aclose()
