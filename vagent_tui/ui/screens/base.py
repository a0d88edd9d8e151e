"""The base of every screen: header, status line, footer, following the target account.

A screen loads in `reload` (which starts an exclusive worker), and follows the app's
`connection`: when a new value comes (connected, another target, another profile) a
showing screen reloads at once, a hidden one when it is shown next, so hidden screens
never fetch for nothing.

Textual calls the handler of every class in the MRO (``on_mount``,
``on_screen_resume``, ...), so a subclass defines its own and never calls ``super()``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar, cast

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import OptionList
from textual.worker import NoActiveWorker, Worker, get_current_worker

from vagent_tui.api.base import counting_empty
from vagent_tui.api.errors import PlatformError
from vagent_tui.ui.built import ClosesItself
from vagent_tui.ui.failures import (
    WRITE_GROUP_PREFIX,
    WorkerFailed,
    failure_of,
    guarded_read,
    write_in_flight,
)
from vagent_tui.ui.fields import is_text_field
from vagent_tui.ui.footer import KeysFooter
from vagent_tui.ui.registry import BY_TARGET
from vagent_tui.ui.safety import mutating_actions
from vagent_tui.ui.textual_compat import style_mark
from vagent_tui.ui.widgets.context_bar import ContextBar
from vagent_tui.ui.widgets.status import StatusLine, StatusReport, describe_error
from vagent_tui.ui.widgets.table_filter import (
    DEFAULT_PLACEHOLDER,
    Filterable,
    FilterInput,
    FilterRow,
)

if TYPE_CHECKING:
    from vagent_tui.services.session import Connection
    from vagent_tui.ui.host import Console
    from vagent_tui.ui.writes import Write, Written  # imported at the first write


T = TypeVar("T")

TYPED_IN_FILTER = frozenset({"next_page", "prev_page", "first_page", "last_page"})
"""Actions of one-letter priority keys: refused while the filter field has the focus."""


def who_of(screen: BaseScreen, *, with_id: bool = False) -> str:
    """Whom the screen acts for: the target account's name (``with_id``: and its id), or
    the key owner. Every screen says it this way, in its status line and questions."""
    acting = screen.connection.acting_as
    if acting is None:
        return "the key owner"
    return f"{acting.display_name} (#{acting.id})" if with_id else acting.display_name


class BaseScreen(ClosesItself[None]):
    """Header + body + status line + footer; reloads when the target changes."""

    TITLE: ClassVar[str] = ""
    """The title: a registered screen's is its registry entry's (`__init_subclass__`)."""
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "reload", "Refresh", id="screen.reload", tooltip="Load this screen again"),
        Binding("j", "cursor_down", "Down", show=False, id="screen.down", tooltip="Move down"),
        Binding("k", "cursor_up", "Up", show=False, id="screen.up", tooltip="Move up"),
        # The convention's list keys (ui/convention.py), for whatever list has the focus;
        # a screen that pages from the server takes them for its pages.
        Binding("g,home", "first", "First", show=False, id="screen.first", tooltip="First row"),
        Binding("G,end", "last", "Last", show=False, id="screen.last", tooltip="Last row"),
        Binding("pageup", "page_up", "Page up", show=False, id="screen.page-up",
                tooltip="A page up"),
        Binding("pagedown", "page_down", "Page down", show=False, id="screen.page-down",
                tooltip="A page down"),
    ]  # fmt: skip

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A registered screen's ``TITLE`` is its registry entry's (`vagent_tui.ui.registry`:
        one place names it)."""
        super().__init_subclass__(**kwargs)
        info = BY_TARGET.get(f"{cls.__module__}:{cls.__qualname__}")
        if info is not None:
            cls.TITLE = info.title

    def __init__(self) -> None:
        super().__init__()
        self._loaded_with: Connection | None = None
        """The connection value this screen last loaded for (None: load when shown)."""
        self._said_not_connected = False
        """The status line says the connection failed (cleared once connected)."""
        self._composed_with: object = None
        """The app's styles when the screen's widgets were made and styled (`style_mark`);
        None once the screen has been shown."""

    @property
    def vapp(self) -> Console:
        return cast("Console", self.app)

    @property
    def connection(self) -> Connection:
        """The app's connection in force."""
        return self.vapp.connection

    def compose(self) -> ComposeResult:
        self._composed_with = style_mark(self.app)
        yield ContextBar(self.TITLE)
        yield from self.compose_body()
        yield StatusLine(id="status")
        yield KeysFooter()

    def compose_body(self) -> Iterable[Widget]:
        return ()

    def apply_breakpoints(self) -> None:
        """The class of ``HORIZONTAL_BREAKPOINTS`` for the screen's width, set now.

        Textual sets it on the screen's next Resize, which a screen pushed or switched to
        gets after its first frame: a screen whose layout changes with the class calls
        this in ``on_mount``, so its first frame is laid out for the width.
        """
        points = self.HORIZONTAL_BREAKPOINTS or []
        width = self.size.width
        chosen = next((n for least, n in sorted(points, reverse=True) if width >= least), None)
        for _, name in points:
            self.set_class(name == chosen, name)

    @property
    def status(self) -> StatusLine:
        return self.query_one("#status", StatusLine)

    # ------------------------------------------------------------------ following the target

    def on_mount(self) -> None:
        self.watch(self.app, "connection", self._connection_changed, init=False)
        self.call_after_refresh(self._maybe_reload)

    @on(events.ScreenResume)
    def _styled_when_made(self, event: events.ScreenResume) -> None:
        # Runs before Textual's own handler, which re-applies every CSS rule to every
        # widget of the screen. On its first showing the widgets were styled as they
        # were mounted, just before: unless the app's styles changed since, that is the
        # whole screen styled twice (a tenth of the first screen's start-up).
        if self._composed_with is not None and self._composed_with == style_mark(self.app):
            event.refresh_styles = False
        self._composed_with = None

    def on_screen_resume(self) -> None:
        self._maybe_reload()

    def on_screen_suspend(self) -> None:
        """Leaving the screen cancels its reads; writes (``write-*`` groups) run on.

        A cancelled read leaves the screen stale, so it loads again when shown. A dialog
        opened over the screen is not leaving it: a worker waiting for the dialog's
        answer (``push_screen_wait``) must live to read it.
        """
        if isinstance(self.app.screen, ModalScreen):
            return  # a dialog over this screen: it stays on show, and its worker waits
        cancelled = False
        for worker in list(self.app.workers):
            if worker.is_finished or worker.group.startswith(WRITE_GROUP_PREFIX):
                continue
            node = worker.node
            if node is self or (isinstance(node, Widget) and self in node.ancestors):
                worker.cancel()
                cancelled = True
        if cancelled:
            self._loaded_with = None

    def _connection_changed(self, _connection: Connection) -> None:
        if self.is_current:
            # `check_action` may read the connection (read-only, an agent selected): the
            # footer shows the keys that apply to the new one.
            self.refresh_bindings()
            self._maybe_reload()

    def _maybe_reload(self) -> None:
        connection = self.connection
        if not connection.connected:
            if connection.error is not None:  # say why the screen is empty, and how to retry
                self.status.error(connection.error, prefix="Not connected: ")
                self._said_not_connected = True
                self.not_connected(connection.error)
            elif connection.client is not None and self._said_not_connected:
                self.status.busy("Connecting")  # r again: the old failure is not news
            return
        if self._said_not_connected:  # connected now: that failure is old news
            self._said_not_connected = False
            self.status.clear()
        if connection is self._loaded_with:
            return
        self._loaded_with = connection
        self.reload()

    def reload(self) -> None:
        """Start loading this screen's data (override; run the network in a worker)."""

    def load_when_shown(self) -> None:
        """Load again when next shown, even for the same connection (a kept screen given
        other work: `CallScreen.show_call`)."""
        self._loaded_with = None

    def not_connected(self, error: BaseException) -> None:
        """The connection failed: a screen whose body waits for data says so (override).

        The status line already names the failure; a pane that says "Loading…" must
        not go on saying it.
        """

    async def load(
        self,
        call: Callable[[Connection], Awaitable[T]],
        *,
        note: str = "",
        busy: Widget | None = None,
        on_error: Callable[[PlatformError], None] | None = None,
        follows_target: bool = True,
    ) -> tuple[bool, T | None]:
        """The one way a screen reads: ``(True, result)`` if the result is still wanted.

        ``call`` gets the connection in force and reads through it (``connection.api``,
        ``connection.target_id``). ``note`` goes on the status line and ``busy`` shows
        the loading indicator meanwhile. A platform error is shown by ``on_error``
        (the status line by default: ``r`` where a retry may help, else what to do
        instead, `vagent_tui.ui.failures.next_step`); any other exception ends the
        worker and `load_failed` shows it. Nothing is shown, and ``(False, None)``
        comes back, when the client changed meanwhile (another profile), or the target
        did and the read is for the target (``follows_target``; a read of the key's
        own tree is not): the screen reloads for the new connection when it is shown.
        """
        start = self.connection

        def still_wanted() -> bool:
            now = self.connection
            if follows_target:
                return start.same_context(now)
            return start.client is now.client

        if note:
            self.status.busy(note)
        with counting_empty() as empty:
            result = await guarded_read(
                call(start), still_wanted=still_wanted, on_error=on_error or self.status.error,
                busy=busy,
            )  # fmt: skip
        if result[0]:
            # null entries skipped in the reply: said on the status line, per read
            try:
                read = get_current_worker().group
            except NoActiveWorker:
                read = ""
            self.status.count_empty(read, empty.count)
        return result

    # ------------------------------------------------------------------ writing

    def write(self, write: Write[T], start: Connection | None = None) -> Worker[Written[T]] | None:
        """The one way a screen changes the platform: `write` run in a ``write-`` worker.

        ``start`` is the connection the user saw (default: the one in force now, at the
        key press): the change is sent through it or not at all (`vagent_tui.ui.writes`).
        None (and said) while another change is being sent.
        """
        if self.busy_writing():
            return None
        start = start or self.connection
        return self.run_worker(
            self.written(write, start), group=WRITE_GROUP_PREFIX + write.name,
            exit_on_error=False,
        )  # fmt: skip

    async def written(self, write: Write[T], start: Connection | None = None) -> Written[T]:
        """`write` performed from a ``write-`` worker the screen already runs (a flow
        with steps of its own first); ``start``: the connection the user saw."""
        from vagent_tui.ui.writes import perform

        seen = start or self.connection
        return await perform(
            write, app=self.app, start=seen,
            still=lambda: seen.same_context(self.connection),
            say=lambda report: report.show_on(self.status),
            toast=lambda line: self.app.notify(line, markup=False),
            in_view=lambda: self.is_current,
            journal_error=lambda: self.vapp.journal.error,
        )  # fmt: skip

    # ------------------------------------------------------------------ the focus

    def focus_after_load(self, widget: Widget) -> None:
        """Give ``widget`` the focus a load's busy indicator took, unless the user has
        chosen a text field meanwhile: a load landing never takes the keys from what
        is being typed (loads never focus a text field by themselves)."""
        if not is_text_field(self.focused):
            widget.focus()

    # ------------------------------------------------------------------ failures

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        error = failure_of(event)
        if error is not None:
            self.load_failed(error, event.worker.group)

    def on_status_report(self, report: StatusReport) -> None:
        """A pane's status: shown on this screen's line."""
        report.stop()
        report.show_on(self.status)

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
        self._loaded_with = None  # stale: the next ``r`` or visit loads again
        if group.startswith(WRITE_GROUP_PREFIX):
            self.app.notify(
                f"Unexpected error: {describe_error(error)}. The change may or may not have "
                "been made: the screen reloads to show what the platform holds now.",
                severity="error",
                timeout=15,
            )
            self.call_after_refresh(self._maybe_reload)
        else:
            self.status.error(error, prefix="Unexpected error: ")

    def notify_if_away(self, message: str) -> None:
        """A toast for an outcome this screen's status line says, when the line is not in
        view (the screen was left, or a dialog is over it, while the write ran). On show,
        the status line alone says it: a toast would only repeat it."""
        if not self.is_current:
            self.app.notify(message, markup=False)

    def busy_writing(self) -> bool:
        """True (and said) while a change is being sent: a second one waits for its answer.

        Write workers are not exclusive (a new one would cancel the one in flight, whose
        outcome would then never be reported): actions that start one ask this first.
        """
        running = write_in_flight(self.app)
        if running:
            self.status.info("A change is being sent: wait for its answer.")
        return running

    def action_reload(self) -> None:
        if self.connection.connected:
            self._loaded_with = self.connection
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
        if action in TYPED_IN_FILTER and isinstance(self.focused, FilterInput):
            return False  # a priority key of the screen (n, p, g, G): typed in the filter
        # Hidden from footer and palette; `ConnectionApp.run_action` refuses it if invoked.
        return not (self.connection.read_only and action in self.mutating())

    # ------------------------------------------------------------------ / (filter)

    FILTER_PLACEHOLDER: ClassVar[str] = DEFAULT_PLACEHOLDER
    """What the filter row's field says while empty."""

    def filter_table(self) -> Widget | None:
        """The rows ``/`` filters (a `Filterable` widget: a `SafeTable`, Fleet's matrix):
        the focused one, else the first one on show."""
        if isinstance(self.focused, Filterable):
            return self.focused
        if isinstance(self.focused, FilterInput) and isinstance(self.focused.parent, FilterRow):
            table = self.focused.parent.table
            return table if isinstance(table, Widget) else None
        for widget in self.query("*").results(Widget):
            if isinstance(widget, Filterable) and all(
                node.display for node in widget.ancestors_with_self if isinstance(node, Widget)
            ):
                return widget
        return None

    def action_focus_filter(self) -> None:
        """Open the filter row above the table (`ui/widgets/table_filter.py`)."""
        table = self.filter_table()
        parent = table.parent if table is not None else None
        if table is None or not isinstance(table, Filterable) or not isinstance(parent, Widget):
            return
        for row in self.query(FilterRow).results(FilterRow):
            if row.table is table:
                row.open()
                return
        row = FilterRow(table, self.FILTER_PLACEHOLDER)
        if parent.children and parent.children[0] is table:
            # docked on top: above the table whether a detail pane is beside it (a wide
            # screen) or below it (a narrow one), the layout changing with the width
            row.add_class("-docked")
        parent.mount(row, before=table)
        self.call_after_refresh(row.open)

    # ------------------------------------------------------------------ j / k

    async def action_cursor_down(self) -> None:
        await self._cursor("cursor_down")

    async def action_cursor_up(self) -> None:
        await self._cursor("cursor_up")

    async def action_first(self) -> None:
        await self._cursor(self._end_action(first=True))

    async def action_last(self) -> None:
        await self._cursor(self._end_action(first=False))

    def action_page_up(self) -> None:
        """A page up in the focused list (Widget's own would scroll the screen)."""
        self.call_next(self._cursor, "page_up")

    def action_page_down(self) -> None:
        self.call_next(self._cursor, "page_down")

    def _end_action(self, *, first: bool) -> str:
        """The focused widget's action to its first or last row (a text: to its top/end)."""
        # Imported here: the first screen has no table, and the module is not light.
        from textual.widgets import DataTable

        focused = self.focused
        if isinstance(focused, DataTable):
            return "scroll_top" if first else "scroll_bottom"
        if isinstance(focused, OptionList):
            return "first" if first else "last"
        return "scroll_home" if first else "scroll_end"  # a Tree moves its cursor too

    async def _cursor(self, action: str) -> None:
        """Run ``action`` on the focused widget; a widget without it ignores the key."""
        if self.focused is not None:
            await self.focused.run_action(action)
