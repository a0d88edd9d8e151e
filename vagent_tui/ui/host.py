"""What a screen may ask of the app: the `Console` protocol.

Screens and widgets type the app as `Console` instead of importing `VagentApp`, so
the app can import its screens without an import circle. `VagentApp` satisfies it
(checked by mypy in `vagent_tui.ui.app`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from textual.signal import Signal
    from textual.worker import Worker

    from vagent_tui import config as cfg
    from vagent_tui import credentials
    from vagent_tui.api.client import PlatformClient
    from vagent_tui.api.models import MigrationTask
    from vagent_tui.services.agent_listing import AgentListings
    from vagent_tui.services.journal import Journal
    from vagent_tui.services.migrations import MigrationWatcher, WatchedTask
    from vagent_tui.services.session import Connection


class Console(Protocol):
    """The app as its screens see it."""

    @property
    def connection(self) -> Connection:
        """The connection in force (replaced, never changed in place)."""
        ...

    @property
    def watcher(self) -> MigrationWatcher: ...

    @property
    def journal(self) -> Journal: ...

    @property
    def task_changed_signal(self) -> Signal[WatchedTask]: ...

    @property
    def tree_changed_signal(self) -> Signal[None]:
        """Accounts were created or changed below the key (Onboard's apply)."""
        ...

    @property
    def initial_screen(self) -> str: ...

    config: cfg.Config | None
    config_error: str | None

    @property
    def agent_listings(self) -> AgentListings:
        """The agent accounts below the key, listed once and shared by Fleet and Rollout."""
        ...

    def adopt_config(self, config: cfg.Config) -> None: ...

    def client_factory(self, connection: credentials.Connection) -> PlatformClient: ...

    def connect(self) -> Worker[None]:
        """Connect again (after a failure)."""
        ...

    def select_target(self, account_id: int | None, *, announce: bool = True) -> Worker[None]:
        """Act as ``account_id`` (None: the key owner); a failure keeps the old target.

        ``announce=False``: the caller's status line says the outcome, so no toast does.
        """
        ...

    def cancel_switch(self) -> bool: ...

    def watch_task(self, reply: MigrationTask, template_name: str) -> WatchedTask: ...

    def copy_text(self, text: str, what: str, *, secret: bool = False) -> None: ...

    async def connect_profile(
        self, client: PlatformClient, profile: cfg.Profile | None, *, label: str = ""
    ) -> bool: ...
