"""`VagentApp`: screens as modes, the session, target switching, migration watching."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from functools import partial
from pathlib import Path
from typing import ClassVar

from textual import work
from textual.actions import ActionParseResult
from textual.app import SystemCommand
from textual.await_complete import AwaitComplete
from textual.binding import Binding, BindingType
from textual.command import CommandPalette
from textual.dom import DOMNode
from textual.notifications import SeverityLevel
from textual.reactive import reactive
from textual.screen import Screen
from textual.worker import Worker, WorkerState

from vagent_tui import config as cfg
from vagent_tui.api.client import PlatformClient
from vagent_tui.api.errors import PlatformError
from vagent_tui.api.models import MigrationTask
from vagent_tui.inert import DISPLAY_LIMIT, inert
from vagent_tui.services.journal import Journal
from vagent_tui.services.migrations import MigrationWatcher, WatchedTask
from vagent_tui.services.session import Session
from vagent_tui.ui.profiles import ProfileSupport
from vagent_tui.ui.registry import BY_NAME, SCREENS
from vagent_tui.ui.text import safe_markup
from vagent_tui.ui.textual_compat import CrashReportingApp
from vagent_tui.ui.themes import (
    DEFAULT_DARK,
    SEMANTIC_DEFAULTS,
    load_themes,
    packaged_theme_dir,
    terminal_default,
)
from vagent_tui.ui.widgets.status import describe_error

_SELECT_NOTE = (
    "Select the text with the mouse (shift+drag in most terminals) and copy it with your "
    "terminal's copy key. Set VAGENT_COPY=osc52 if your terminal does accept OSC 52."
)


async def _nothing() -> None:
    """An await that completes at once."""


def _screen_bindings() -> list[BindingType]:
    return [
        Binding(
            info.key,
            f"app.show('{info.name}')",
            info.title,
            show=False,
            id=f"goto.{info.name}",
            tooltip=info.help,
        )
        for info in SCREENS
        if info.key
    ]


class VagentApp(ProfileSupport, CrashReportingApp[None]):
    """The console. Give it a client; it connects and opens ``initial_screen``.

    Without a client (first run: no profile) it opens the setup screen, which makes one.
    """

    CSS_PATH = "app.tcss"
    TITLE = "vagent-tui"
    MODES: ClassVar = {info.name: partial(info.load) for info in SCREENS}
    BINDINGS: ClassVar[list[BindingType]] = [
        *_screen_bindings(),
        Binding(
            "question_mark", "toggle_keys", "Keys", id="app.keys", tooltip="Show this screen's keys"
        ),
        Binding(
            "colon",
            "command_palette",
            "Go to",
            show=False,
            id="app.goto",
            tooltip="Jump to any screen or action (like ctrl+p)",
        ),
        Binding("ctrl+q", "quit", "Quit", id="app.quit", tooltip="Quit vagent-tui"),
        Binding(
            "ctrl+y",
            "show_copied",
            "Show copied",
            show=False,
            id="app.show-copied",
            tooltip="Show the last copied text, to select it by hand",
        ),
    ]

    context_version: reactive[int] = reactive(0)
    """Bumped when the session connects or the target changes: screens follow it."""

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
        super().__init__()
        self.config_warnings = list(config_warnings)
        """What the config file holds that was ignored (vagent_tui.ui.keyspec), shown once."""
        self._init_profiles(
            config=config,
            config_error=config_error,
            profile=profile,
            read_only=read_only,
            tier=tier,
        )
        self.last_copied: tuple[str, str] | None = None
        self.theme_errors = self._register_themes(extra_theme_dirs)
        wanted = theme or terminal_default()
        self.theme = wanted if wanted in self.available_themes else DEFAULT_DARK
        self.client = client  # None until the setup screen connects
        self.profile_label = profile_label or (client.host if client else "setup")
        self.initial_screen = initial_screen if initial_screen in BY_NAME else "scope"
        self.initial_account = initial_account
        self.session: Session | None = (
            Session(client, profile=self.profile_label) if client else None
        )
        self.connected = False
        self.connect_error: BaseException | None = None
        self.watcher = MigrationWatcher(client)  # type: ignore[arg-type]  # None: nothing watched
        self.watcher.listeners.append(self._task_changed)
        self.journal = Journal()
        if client is not None:
            client.observers.append(self.journal.observer(lambda: self.profile_label))
            client.read_only = self.read_only

    # ------------------------------------------------------------------ themes

    def _register_themes(self, extra_dirs: tuple[Path, ...]) -> list[str]:
        themes, errors = load_themes((packaged_theme_dir(), *extra_dirs))
        for theme in themes:
            self.register_theme(theme)
        return errors

    def get_theme_variable_defaults(self) -> dict[str, str]:
        # Built-in themes chosen from the palette lack our semantic variables.
        return dict(SEMANTIC_DEFAULTS)

    # ------------------------------------------------------------------ start-up

    def on_mount(self) -> None:
        for error in self.theme_errors:
            self.notify(error, title="Theme file skipped", severity="warning", markup=False)
        for warning in self.config_warnings:
            self.notify(warning, title="Config file", severity="warning", markup=False, timeout=15)
        self._watch_theme_choice()
        self.check_keymap()
        if self.client is None:
            from vagent_tui.ui.screens.setup import SetupScreen

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
        self.switch_mode(self.initial_screen)
        self.connect()

    @work(exclusive=True, group="connect", exit_on_error=False)
    async def connect(self) -> None:
        """Read the key owner, classify its scope, select ``--account`` if given."""
        assert self.session is not None
        self.connect_error = None
        try:
            await self.session.connect()
            if self.initial_account is not None:
                account = await self.session.resolve(self.initial_account)
                self.session.set_target(account)
        except Exception as exc:  # an API error, or a reply nothing expected: never fatal
            self.connect_error = exc
            self.connected = self.session.scope is not None
            self.notify(f"Could not connect: {describe_error(exc)}", severity="error", markup=False)
        else:
            self.connected = True
        self.context_version += 1

    # ------------------------------------------------------------------ navigation

    def action_show(self, name: str) -> None:
        if name not in BY_NAME or self.current_mode == name:
            return
        # Keys typed faster than a frame can open a second palette before the first
        # palette's choice runs: close it, or it would be left on the old mode's stack.
        if isinstance(self.screen, CommandPalette):
            self.screen.dismiss()
        self.switch_mode(name)

    def pop_screen(self) -> AwaitComplete:
        """Pop the current screen; a second pop of the last screen is ignored, not fatal.

        A dialog dismissed twice by keys faster than a frame (Enter pressed while its
        first dismissal is under way) would otherwise end the app.
        """
        if len(self.screen_stack) <= 1:
            self.log.warning("pop_screen ignored: only one screen on the stack")
            return AwaitComplete(_nothing())
        return super().pop_screen()

    def action_toggle_keys(self) -> None:
        from textual.widgets import HelpPanel

        if self.screen.query(HelpPanel):
            self.action_hide_help_panel()
        else:
            self.action_show_help_panel()

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
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

    def _palette_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        for info in SCREENS:
            key = self._keymap.get(f"goto.{info.name}", info.key)
            yield SystemCommand(
                f"screen: {info.title}",
                f"{info.help} (key {key})" if key else f"{info.help} (or --screen {info.name})",
                partial(self.action_show, info.name),
            )
        yield from self.profile_commands()
        title = getattr(screen, "TITLE", "") or "screen"
        # Active bindings: keymap overrides applied, hidden (read-only) ones left out.
        for active in screen.active_bindings.values():
            b = active.binding
            if active.node is not screen or not active.enabled:
                continue
            if b.show and b.description and not b.action.startswith("app."):
                yield SystemCommand(
                    f"{title.lower()}: {b.description}",
                    f"{b.tooltip or b.description} (key {self.get_key_display(b)})",
                    partial(self.run_action, b.action, screen),
                )

    async def run_action(
        self,
        action: str | ActionParseResult,
        default_namespace: DOMNode | None = None,
        namespaces: Mapping[str, DOMNode] | None = None,
    ) -> bool:
        """Refuse (with the reason) a mutating action on a read-only profile."""
        if self.read_only and isinstance(action, str):
            node, name, _ = self._parse_action(
                action, self if default_namespace is None else default_namespace, namespaces
            )
            if self.refuse_if_read_only(node, name):
                return True
        return await super().run_action(action, default_namespace, namespaces)

    # ------------------------------------------------------------------ target account

    @work(exclusive=True, group="target", exit_on_error=False)
    async def select_target(self, account_id: int | None) -> None:
        """Switch the target; a failure keeps the old one. Cancel with `cancel_switch`."""
        assert self.session is not None
        if account_id is None:
            self.session.set_target(None)
            self.context_version += 1
            return
        try:
            account = await self.session.resolve(account_id)
        except PlatformError as exc:
            self.notify(
                f"Could not switch to account {account_id}: {describe_error(exc)}. "
                "The target is unchanged.",
                severity="error",
                markup=False,
            )
            return
        self.session.set_target(account)
        self.context_version += 1
        self.notify(f"Now {self.session.context_line()}", markup=False)

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
        assert self.session is not None
        task = self.watcher.add(reply, template_name=template_name, target=self.session.target_id)
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
        severity = "error" if task.status.lower() in ("failed", "error") else "information"
        self.notify(
            f"{kind} of {task.template_name} {task.status}", severity=severity, markup=False
        )

    def _task_changed(self, task: WatchedTask) -> None:
        screen = self.get_screen_if_exists("migrations")
        if screen is not None and hasattr(screen, "task_changed"):
            screen.task_changed(task)

    def get_screen_if_exists(self, mode: str) -> Screen | None:
        stack = self._screen_stacks.get(mode)
        return stack[-1] if stack else None

    # ------------------------------------------------------------------ helpers

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

    def copy_text(self, text: str, what: str, *, secret: bool = False) -> None:
        """Copy through OSC 52, or show a modal to select from (`vagent_tui.ui.clipboard`).

        The text is never echoed in a notification; a ``secret`` (a new token) is not
        kept for ctrl+y either: the dialog that copies it shows it already.
        """
        from vagent_tui.ui.clipboard import MODAL, copy_method

        forced = os.environ.get("VAGENT_COPY")
        method = copy_method() if forced or not self.is_headless else "osc52"
        if method == MODAL:
            if secret:
                self.notify(
                    f"This terminal may not accept clipboard writes: select the {what} "
                    "shown in the dialog with the mouse (shift+drag).",
                    markup=False,
                )
                return
            from vagent_tui.ui.screens.modals import TextModal

            self.push_screen(TextModal(f"Copy {what}", text, note=_SELECT_NOTE))
            return
        self.copy_to_clipboard(text)
        self.last_copied = None if secret else (what, text)
        hint = "" if secret else " (ctrl+y shows it if your terminal did not take it)"
        self.notify(f"Copied {what} to the clipboard{hint}", markup=False)

    def action_show_copied(self) -> None:
        from vagent_tui.ui.screens.modals import TextModal

        if self.last_copied is None:
            self.notify("Nothing copied yet", markup=False)
            return
        what, text = self.last_copied
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

    async def on_unmount(self) -> None:
        if self.client is not None:
            await self.client.aclose()
