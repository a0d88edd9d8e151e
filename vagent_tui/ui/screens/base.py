"""The base of every screen: header, status line, footer, following the target account.

A screen loads in `reload` (which starts an exclusive worker), and is told when the
target account changes. If it is showing it reloads at once, otherwise it reloads when
it is shown next, so hidden screens never fetch for nothing.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from typing import TYPE_CHECKING, ClassVar, TypeVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widget import Widget
from textual.worker import Worker

from vagent_tui.api.errors import PlatformError
from vagent_tui.ui.failures import WorkerFailed, failure_of
from vagent_tui.ui.safety import mutating_actions
from vagent_tui.ui.widgets.context_bar import ContextBar
from vagent_tui.ui.widgets.footer import KeysFooter
from vagent_tui.ui.widgets.status import StatusLine, describe_error

if TYPE_CHECKING:
    from vagent_tui.services.session import Session
    from vagent_tui.ui.app import VagentApp


T = TypeVar("T")

WRITE_GROUP_PREFIX = "write-"
"""Workers that change the platform use groups named ``write-...``: never cancelled by
leaving a screen, since the request may already have reached the server."""


class BaseScreen(Screen[None]):
    """Header + body + status line + footer; reloads when the target changes."""

    TITLE: ClassVar[str] = ""
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "reload", "Refresh", id="screen.reload", tooltip="Load this screen again"),
        Binding("j", "cursor_down", "Down", show=False, id="screen.down", tooltip="Move down"),
        Binding("k", "cursor_up", "Up", show=False, id="screen.up", tooltip="Move up"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self._seen_version = -1

    @property
    def vapp(self) -> VagentApp:
        return self.app  # type: ignore[return-value]

    @property
    def session(self) -> Session:
        session = self.vapp.session
        assert session is not None
        return session

    def compose(self) -> ComposeResult:
        yield ContextBar(self.TITLE)
        yield from self.compose_body()
        yield StatusLine(id="status")
        yield KeysFooter()

    def compose_body(self) -> Iterable[Widget]:
        return ()

    @property
    def status(self) -> StatusLine:
        return self.query_one("#status", StatusLine)

    # ------------------------------------------------------------------ following the target

    def on_mount(self) -> None:
        self.watch(self.vapp, "context_version", self._context_changed, init=False)
        self.call_after_refresh(self._maybe_reload)

    def on_screen_resume(self) -> None:
        self._maybe_reload()

    def on_screen_suspend(self) -> None:
        """Leaving the screen cancels its reads; writes (``write-*`` groups) run on.

        A cancelled read leaves the screen stale, so it loads again when shown.
        """
        cancelled = False
        for worker in list(self.app.workers):
            if worker.is_finished or worker.group.startswith(WRITE_GROUP_PREFIX):
                continue
            node = worker.node
            if node is self or (isinstance(node, Widget) and self in node.ancestors):
                worker.cancel()
                cancelled = True
        if cancelled:
            self._seen_version = -1

    def _context_changed(self, _version: int) -> None:
        if self.is_current:
            self._maybe_reload()

    def _maybe_reload(self) -> None:
        version = self.vapp.context_version
        if not self.vapp.connected:
            error = self.vapp.connect_error
            if error is not None:  # say why the screen is empty, and how to try again
                self.status.error(f"Not connected: {describe_error(error)}")
            return
        if version == self._seen_version:
            return
        self._seen_version = version
        self.reload()

    def reload(self) -> None:
        """Start loading this screen's data (override; run the network in a worker)."""

    async def fetch_for_target(
        self,
        call: Callable[[int | None], Awaitable[T]],
        *,
        busy: Widget | None = None,
        on_error: Callable[[PlatformError], None] | None = None,
    ) -> tuple[bool, T | None]:
        """Run ``call(target)`` for the current target; ``(True, result)`` if still wanted.

        ``busy`` shows the loading indicator meanwhile. A failure is shown by
        ``on_error`` (the status line by default) unless the target changed meanwhile
        (any other exception ends the worker: `load_failed` shows it);
        a reply for a target that is no longer current is dropped: ``(False, None)``.
        """
        target = self.session.target_id
        if busy is not None:
            busy.loading = True
        try:
            result = await call(target)
        except PlatformError as exc:
            if target == self.session.target_id:
                if busy is not None:
                    busy.loading = False
                (on_error or self.status.error)(exc)
            return False, None
        if target != self.session.target_id:
            return False, None  # the target changed meanwhile; its own load is under way
        if busy is not None:
            busy.loading = False
        return True, result

    # ------------------------------------------------------------------ failures

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        error = failure_of(event)
        if error is not None:
            self.load_failed(error, event.worker.group)

    def on_worker_failed(self, message: WorkerFailed) -> None:
        message.stop()
        self.load_failed(message.error, message.worker.group)

    def load_failed(self, error: BaseException, group: str = "") -> None:
        """The one way a screen shows a failure nothing else caught: where, and how to retry.

        Loading indicators stop, the status line names the error (inert), and the
        screen loads again on ``r``. A write (``write-*`` group) is not offered again
        blindly: its outcome is unknown, so the screen reloads to show what the
        platform holds now.
        """
        for widget in self.query("*"):
            if widget.loading:
                widget.loading = False
        self._seen_version = -1  # stale: the next ``r`` or visit loads again
        if group.startswith(WRITE_GROUP_PREFIX):
            self.app.notify(
                f"Unexpected error: {describe_error(error)}. The change may or may not have "
                "been made: the screen reloads to show what the platform holds now.",
                severity="error",
                timeout=15,
            )
            self.call_after_refresh(self._maybe_reload)
        else:
            self.status.error(f"Unexpected error: {describe_error(error)}")

    def action_reload(self) -> None:
        if self.vapp.connected:
            self._seen_version = self.vapp.context_version
            self.reload()
        else:
            self.vapp.connect()

    # ------------------------------------------------------------------ read-only

    @classmethod
    def mutating(cls) -> dict[str, str]:
        """This screen's actions that change the platform (see `vagent_tui.ui.safety`)."""
        found: dict[str, str] = {}
        for klass in reversed(cls.__mro__):
            found.update(mutating_actions(getattr(klass, "BINDINGS", ())))
        return found

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Hidden from footer and palette; `VagentApp.run_action` refuses it if invoked.
        return not (getattr(self.app, "read_only", False) and action in self.mutating())

    # ------------------------------------------------------------------ j / k

    def action_cursor_down(self) -> None:
        self._cursor("action_cursor_down")

    def action_cursor_up(self) -> None:
        self._cursor("action_cursor_up")

    def _cursor(self, name: str) -> None:
        focused = self.focused
        if focused is not None and hasattr(focused, name):
            getattr(focused, name)()
