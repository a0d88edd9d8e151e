"""The app's connection: connecting, the target account, profiles, read-only, keymap.

What does not follow the connection (the configuration file, the theme remembered,
the keymap in force, inert toasts) is `vagent_tui.ui.config_app.ConfigApp`, its base.

`ConnectionApp` owns the app's one reactive, `connection` (an immutable
`vagent_tui.services.session.Connection`). Every change here makes a new value:
connecting, switching the target, switching the profile. Screens never change it;
they ask through `select_target`, `connect` and `connect_profile` and follow the
new value through their watcher.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Callable, Iterable, Mapping
from functools import cached_property, partial
from typing import TYPE_CHECKING

from textual import work
from textual.actions import ActionParseResult, parse
from textual.app import SystemCommand
from textual.dom import DOMNode
from textual.notifications import SeverityLevel
from textual.reactive import reactive
from textual.signal import Signal
from textual.widgets import OptionList

from vagent_tui import config as cfg
from vagent_tui import credentials
from vagent_tui.api.client import PlatformClient
from vagent_tui.api.errors import PlatformError, redact_url
from vagent_tui.api.scope import ScopeLevel
from vagent_tui.services.session import Connection, open_connection
from vagent_tui.ui.built import built, when_built
from vagent_tui.ui.config_app import ConfigApp
from vagent_tui.ui.safety import refusal
from vagent_tui.ui.screens.base import BaseScreen
from vagent_tui.ui.widgets.option_pages import Direction, page
from vagent_tui.ui.widgets.status import describe_error
from vagent_tui.words import counted

if TYPE_CHECKING:  # the journal, the watcher, the agent listing: imported when first used
    from vagent_tui.api.models import MigrationTask
    from vagent_tui.api.transport import Exchange
    from vagent_tui.services.agent_listing import AgentListings
    from vagent_tui.services.journal import Journal
    from vagent_tui.services.migrations import MigrationWatcher, WatchedTask

ClientFactory = Callable[[credentials.Connection], PlatformClient]

_PAGES: dict[str, Direction] = {"page_down": 1, "page_up": -1}
"""An option list's page actions, which Textual's list fails before its first layout
(`vagent_tui.ui.widgets.option_pages`)."""


def default_client_factory(connection: credentials.Connection) -> PlatformClient:
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


class ConnectionApp(ConfigApp):
    """The part of the app that owns the connection; `VagentApp` adds screens and looks."""

    connection: reactive[Connection] = reactive(Connection, always_update=True)
    """The one shared state: replaced, never changed. Screens and the context bar
    watch it; a worker whose connection or target changed while it ran drops its
    result (`Connection.same_context`)."""

    def __init__(
        self,
        client: PlatformClient | None,
        *,
        label: str = "",
        config: cfg.Config | None = None,
        config_error: str | None = None,
        profile: cfg.Profile | None = None,
        read_only: bool = False,
        tier: str = "",
        initial_account: int | None = None,
    ) -> None:
        super().__init__(config=config, config_error=config_error)
        self.force_read_only = read_only
        """``--read-only``: stays on across profile switches."""
        self.initial_account = initial_account
        self.client_factory: ClientFactory = default_client_factory
        self._journal: Journal | None = None
        self.task_changed_signal: Signal[WatchedTask] = Signal(self, "task-changed")
        """Every change of a watched migration task (the migrations screen listens)."""
        self.tree_changed_signal: Signal[None] = Signal(self, "tree-changed")
        """Accounts were created or changed below the key by a run of many writes
        (Onboard's apply): Scope reads its tree again, as ``r`` does."""
        self._watcher: MigrationWatcher | None = None
        self._watched_client = client
        start = Connection(
            client,
            label=label or (client.host if client else "setup"),
            profile=profile,
            tier=profile.tier if profile is not None else tier,
            read_only=read_only or (profile is not None and profile.is_read_only),
        )
        if client is not None:
            client.observers.append(self._record_change)
            client.read_only = start.read_only
        self.set_reactive(ConnectionApp.connection, start)
        self.apply_keymap(profile.keymap if profile is not None else {})

    @property
    def journal(self) -> Journal:
        """The journal of changes, opened when first used (not at start-up)."""
        if self._journal is None:
            from vagent_tui.services.journal import Journal

            self._journal = Journal()
        return self._journal

    @journal.setter
    def journal(self, journal: Journal) -> None:
        self._journal = journal

    def _record_change(self, exchange: Exchange) -> None:
        """The client's observer: the journal records the changes (it skips reads)."""
        if exchange.is_change:
            self.journal.observer(self.connection.label)(exchange)

    @property
    def watcher(self) -> MigrationWatcher:
        """The migration tasks watched for the client in force, made when first used."""
        if self._watcher is None:
            from vagent_tui.services.migrations import MigrationWatcher

            self._watcher = MigrationWatcher(self._watched_client)
            self._watcher.listeners.append(self.task_changed_signal.publish)
        return self._watcher

    @cached_property
    def agent_listings(self) -> AgentListings:
        """The agent accounts below the key, listed once for Fleet and Rollout (made at
        the first use: the first screen lists none)."""
        from vagent_tui.services.agent_listing import AgentListings

        return AgentListings()

    @property
    def read_only(self) -> bool:
        return self.connection.read_only

    def profile_in_force(self) -> cfg.Profile | None:
        return self.connection.profile

    # ------------------------------------------------------------------ connecting

    @work(exclusive=True, group="connect", exit_on_error=False)
    async def connect(self) -> None:
        """Read the key owner, classify its scope, select ``--account`` if given."""
        start = self.connection
        if start.client is None:
            return
        self.connection = start.retrying()
        try:
            connection = await start.connect()
        except Exception as exc:  # an API error, or a reply nothing expected: never fatal
            if self.connection.client is start.client:  # not another profile meanwhile
                self.connection = start.failed(exc)
                if not isinstance(self.screen, BaseScreen):  # its status line says it
                    self.notify(f"Could not connect: {describe_error(exc)}", severity="error")
            return
        if self.initial_account is not None:
            try:
                connection = connection.with_target(await connection.resolve(self.initial_account))
            except Exception as exc:  # connected, but not as the account asked for
                connection = connection.failed(exc)
                if self.connection.client is start.client:
                    self.notify(f"Could not connect: {describe_error(exc)}", severity="error")
        if self.connection.client is not start.client:
            return  # another profile was chosen while this one connected: it stays
        self.connection = connection
        directory = connection.directory
        if self.current_mode == "scope" and directory is not None and directory.root_has_children():
            # Scope shows the first level of the key's tree: read it now, in this step,
            # while Textual is still building the screen; the tree then shows it as it
            # mounts (a platform's round trip, or a frame with the demo, sooner).
            await directory.prefetch(directory.root())  # a failure: Scope says it

    # ------------------------------------------------------------------ target account

    @work(exclusive=True, group="target", exit_on_error=False)
    async def select_target(self, account_id: int | None, *, announce: bool = True) -> None:
        """Switch the target; a failure keeps the old one. Cancel with `cancel_switch`.

        ``announce=False`` when the caller's status line says the outcome (Scope): a toast
        would repeat it.
        """
        start = self.connection
        if account_id is None:
            self.connection = start.with_target(None)
            return
        try:
            account = await start.resolve(account_id)
        except PlatformError as exc:
            self.notify(
                f"Could not switch to account {account_id}: {describe_error(exc)}. "
                "The target is unchanged.",
                severity="error",
            )
            return
        if self.connection.client is not start.client:
            return  # the profile changed meanwhile: the account belongs to the old one
        self.connection = self.connection.with_target(account)
        if announce:
            self.notify(f"Now {self.connection.context_line()}")

    def cancel_switch(self) -> bool:
        """Cancel a target switch under way; True if there was one."""
        running = [w for w in self.workers if w.group == "target" and w.is_running]
        for worker in running:
            worker.cancel()
        if running:
            self.notify("Switch cancelled; the target is unchanged.")
        return bool(running)

    # ------------------------------------------------------------------ migrations

    def watch_task(self, reply: MigrationTask, template_name: str) -> WatchedTask:
        """Keep watching a queued task, whatever screen is showing."""
        # Read at the level it was started at: templates are a reseller's (rule 9).
        target = self.connection.target_at(ScopeLevel.RESELLER)
        task = self.watcher.add(reply, template_name=template_name, target=target)
        self.run_worker(
            self._watch_and_announce(self.watcher, task),
            group=f"watch-{task.task_id}",
            exit_on_error=False,
        )
        return task

    async def _watch_and_announce(self, watcher: MigrationWatcher, task: WatchedTask) -> None:
        """Poll until the task is final, then say so once (a cancelled watch says nothing)."""
        await watcher.watch(task)
        kind = "Dry run" if task.dry_run else "Migration"
        failed = task.status.lower() in ("failed", "error")
        severity: SeverityLevel = "error" if failed else "information"
        self.notify(f"{kind} of {task.template_name} {task.status}", severity=severity)

    # ------------------------------------------------------------------ quitting

    def migrations_running(self) -> list[WatchedTask]:
        """Real (not dry-run) migrations started here and not finished yet."""
        return [t for t in self.watcher.tasks.values() if not t.dry_run and not t.final]

    async def action_quit(self) -> None:
        """Quit; while real migrations run, say they go on on the platform and ask once.

        ctrl+q again (or y, or Quit) leaves; n or ESC stays. Nothing is stopped: the
        platform runs the task whether or not the console watches it.
        """
        from vagent_tui.ui.dialogs import QuitConfirm

        running = self.migrations_running()
        if not running or isinstance(self.screen, QuitConfirm):
            self.exit()
            return
        names = ", ".join(f"{t.template_name or t.template_id} ({t.task_id})" for t in running)
        count = len(running)
        body = (
            f"{counted(count, 'migration')} still running: {names}.\n\n"
            "They continue on the platform after you quit: only watching them here stops, "
            "and the platform lists no tasks, so note the task ids to check them later.\n\n"
            "ctrl+q again, y or Quit leaves; n or esc stays."
        )

        def answer(leave: bool | None) -> None:
            if leave:
                self.exit()

        self.push_screen(
            QuitConfirm("Quit while migrations run?", body, confirm_label="Quit"), answer
        )

    # ------------------------------------------------------------------ keymap

    def check_keymap(self) -> None:
        """Warn about keymap ids that name no binding (checked off the main thread)."""
        profile = self.connection.profile
        if profile is None or not profile.keymap:
            return
        keymap = dict(profile.keymap)
        name = profile.name

        def check() -> None:
            from vagent_tui.ui.keys import keymap_warning, unknown_ids

            unknown = unknown_ids(keymap)
            if unknown:
                message = keymap_warning(name, unknown)
                self.call_from_thread(self.notify, message, severity="warning")

        self.run_worker(check, thread=True, group="keymap-check", exit_on_error=False)

    # ------------------------------------------------------------------ read-only

    async def run_action(
        self,
        action: str | ActionParseResult,
        default_namespace: DOMNode | None = None,
        namespaces: Mapping[str, DOMNode] | None = None,
    ) -> bool:
        """Every action (a key's binding, a palette command) passes here: it waits for
        what it acts on to be built; a page key of an option list waits for its lines; a
        mutating action on a read-only profile is refused (with the reason)."""
        destination, name, _ = parse(action) if isinstance(action, str) else action
        node = self._action_node(destination, default_namespace, namespaces)
        if node is not None and not built(node):
            # A key typed ahead of a screen (or dialog) being built: its action runs once
            # the screen is there, never on a screen without its widgets.
            when_built(node, self.call_later, self.run_action, action, default_namespace,
                       namespaces)  # fmt: skip
            return True
        if isinstance(node, OptionList) and name in _PAGES:
            page(node, _PAGES[name])  # every option list's, Textual's own (a Select's) too
            return True
        if self.refuse_if_read_only(node, name):
            return True
        return await super().run_action(action, default_namespace, namespaces)

    def _action_node(
        self,
        destination: str,
        default: DOMNode | None,
        namespaces: Mapping[str, DOMNode] | None,
    ) -> DOMNode | None:
        """The node an action runs on (the namespaces Textual documents for actions)."""
        if not destination:
            return self if default is None else default
        if namespaces and destination in namespaces:
            return namespaces[destination]
        return {"app": self, "screen": self.screen, "focused": self.focused}.get(destination)

    def refuse_if_read_only(self, node: DOMNode | None, action: str) -> bool:
        """True (and a notification saying why) when ``action`` may not run now."""
        if not self.read_only or not isinstance(node, BaseScreen):
            return False
        what = node.mutating().get(action)
        if what is None:
            return False
        self.notify(refusal(what), severity="warning")
        return True

    # ------------------------------------------------------------------ palette

    def profile_commands(self) -> Iterable[SystemCommand]:
        config = self.fresh_config() if self.config is not None else None
        current = self.connection.profile
        for name, profile in (config.profiles if config else {}).items():
            if current is not None and name == current.name:
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

    def open_setup(self) -> None:
        from vagent_tui.ui.screens.setup import SetupScreen

        self.push_screen(SetupScreen())

    # ------------------------------------------------------------------ switching

    def switch_profile(self, name: str) -> None:
        self.run_worker(
            self._switch_profile(name), group="profile", exclusive=True, exit_on_error=False
        )

    async def _switch_profile(self, name: str) -> None:
        config = self.fresh_config()
        if config is None:
            self.notify(
                f"Cannot switch profile: {self.config_error or 'no config file'}",
                severity="error",
            )
            return
        self.notify(f"Connecting to profile {name}…", timeout=3)
        try:
            # A token command may take a while (a password manager): off the loop.
            resolved = await asyncio.to_thread(
                credentials.resolve_connection, config, profile_name=name, env=profile_env()
            )
            assert resolved is not None and resolved.profile is not None
            client = self.client_factory(resolved)
        except cfg.ConfigError as exc:
            self._switch_failed(name, str(exc))
            return
        await self.connect_profile(client, resolved.profile)

    async def connect_profile(
        self,
        client: PlatformClient,
        profile: cfg.Profile | None,
        *,
        label: str = "",
    ) -> bool:
        """Read the key owner with ``client``; on success make it the app's connection.

        A failure closes ``client`` and keeps the current connection (with a message).
        """
        label = label or (profile.name if profile else client.host)
        try:
            connection = await open_connection(
                client,
                label=label,
                profile=profile,
                tier=profile.tier if profile else "",
                read_only=self.force_read_only or (profile is not None and profile.is_read_only),
                target_account=profile.target_account if profile else None,
            )
        except PlatformError as exc:
            await client.aclose()
            self._switch_failed(label, describe_error(exc))
            return False
        self.install_connection(connection)
        return True

    def _switch_failed(self, name: str, reason: str) -> None:
        current = self.connection
        still = f"still on {current.label}" if current.connected else "not connected"
        self.notify(
            f"Could not switch to profile {name}: {reason} ({still})",
            severity="error",
            timeout=10,
        )

    def install_connection(self, connection: Connection) -> None:
        """Make ``connection`` (connected) the app's; every screen reloads for it."""
        client = connection.api
        old_client = self.connection.client
        if old_client is not None and old_client is not client:
            # The journal (and any other observer) follows the connection.
            client.observers.extend(o for o in old_client.observers if o not in client.observers)
        elif old_client is None:
            client.observers.append(self._record_change)
        dropped = [w for w in self.workers if w.group.startswith("watch-") and w.is_running]
        for worker in dropped:
            worker.cancel()
        if dropped:
            self.notify(
                f"Stopped watching {counted(len(dropped), 'migration task')} of the previous "
                "profile; they go on on the platform.",
                severity="warning",
            )
        self._watcher, self._watched_client = None, client
        if old_client is not client and "agent_listings" in self.__dict__:  # made: forget it
            self.agent_listings.forget()
        client.read_only = connection.read_only
        profile = connection.profile
        self.apply_keymap(profile.keymap if profile else {})
        self.connection = connection
        self.check_keymap()
        if profile is not None:
            self.set_theme_quietly(profile.theme)
        self.refresh_bindings()
        if old_client is not None and old_client is not client:
            self.run_worker(self._close_later(old_client), group="close-old", exit_on_error=False)
        ro = " (read-only)" if connection.read_only else ""
        self.notify(f"Connected to {connection.label}{ro}: {connection.context_line()}")

    async def _close_later(self, client: PlatformClient) -> None:
        """Close the old client once the writes sent with it have their answer."""
        for worker in [w for w in self.workers if w.group.startswith("write-")]:
            with contextlib.suppress(Exception):
                await worker.wait()
        await client.aclose()

    async def on_unmount(self) -> None:
        client = self.connection.client
        if client is not None:
            await client.aclose()
