"""Worker failures reach the screen that shows them.

Textual tells only a worker's own node when it fails (``Worker.StateChanged`` does not
bubble), so a failure inside a pane would be seen by nobody. A widget that runs
workers mixes in `ReportsWorkerFailures`: an unexpected failure becomes a
`WorkerFailed` message that bubbles to its screen, where `BaseScreen` shows it with a
way to retry, the same way as a failure of the screen's own workers.

What reads and writes report travels as a `StatusReport` (shown on the screen's
`StatusLine`), each failure described by `describe_error`: here, below the widgets, so
the write path (`vagent_tui.ui.writes`) and the widgets that use it share them.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Literal, Protocol, TypeVar

from textual.app import App
from textual.message import Message
from textual.widget import Widget
from textual.worker import NoActiveWorker, Worker, WorkerState, get_current_worker

from vagent_tui.api.errors import (
    ApiError,
    MalformedResponse,
    PlatformError,
    ReadOnlyRefused,
    ReplyTooLarge,
    TransportError,
    outcome_unknown,
    redact_text,
)

T = TypeVar("T")

WRITE_GROUP_PREFIX = "write-"
"""Workers that change the platform use groups named ``write-...``: never cancelled by
leaving a screen (the request may already have reached the server), never exclusive (a
new one would cancel the one in flight, whose outcome would go unreported)."""


def write_in_flight(app: App[object]) -> bool:
    """Whether a write (a ``write-*`` worker other than the caller) is being sent.

    An action or a write worker asks this first, so that a second key press waits for
    the answer to the first change instead of sending another one beside it.
    """
    try:
        me: Worker[object] | None = get_current_worker()
    except NoActiveWorker:
        me = None
    return any(
        w is not me and w.is_running and w.group.startswith(WRITE_GROUP_PREFIX) for w in app.workers
    )


UNSURE = " (the change may have been made: check before retrying)"
"""After a write got no reply or an unreadable one, the platform may have carried it out."""


class Line(Protocol):
    """A screen's status line (`vagent_tui.ui.widgets.status.StatusLine`)."""

    def info(self, message: str) -> None: ...

    def ok(self, message: str) -> None: ...

    def busy(self, what: str = "Loading") -> None: ...

    def error(
        self,
        error: BaseException | str,
        *,
        retry_key: str | None = "r",
        prefix: str = "",
        cause: BaseException | None = None,
    ) -> None: ...


class StatusReport(Message):
    """A widget's word for its screen's status line (the screen owns the line).

    A pane inside a screen posts one (``StatusReport.error(exc, retry_key="t")``);
    `BaseScreen` shows it on its `StatusLine`.
    """

    def __init__(
        self,
        kind: Literal["info", "ok", "busy", "error"],
        what: BaseException | str,
        retry_key: str | None = "r",
        cause: BaseException | None = None,
    ) -> None:
        super().__init__()
        self.kind = kind
        self.what = what
        self.retry_key = retry_key
        self.cause = cause

    @classmethod
    def info(cls, message: str) -> StatusReport:
        return cls("info", message)

    @classmethod
    def ok(cls, message: str) -> StatusReport:
        return cls("ok", message)

    @classmethod
    def busy(cls, what: str = "Loading") -> StatusReport:
        return cls("busy", what)

    @classmethod
    def error(
        cls,
        error: BaseException | str,
        *,
        retry_key: str | None = "r",
        cause: BaseException | None = None,
    ) -> StatusReport:
        return cls("error", error, retry_key, cause)

    def show_on(self, line: Line) -> None:
        if self.kind == "error":
            line.error(self.what, retry_key=self.retry_key, cause=self.cause)
        elif self.kind == "ok":
            line.ok(describe_error(self.what))
        elif self.kind == "busy":
            line.busy(describe_error(self.what))
        else:
            line.info(describe_error(self.what))


def describe_error(error: BaseException | str) -> str:
    """One readable line for a failure; the server's message for an API error."""
    if isinstance(error, str):
        return error
    if isinstance(error, PlatformError):
        status = error.status if isinstance(error, ApiError | MalformedResponse) else None
        prefix = f"HTTP {status}: " if status and f"HTTP {status}" not in error.message else ""
        return prefix + error.message + (UNSURE if outcome_unknown(error) else "")
    return redact_text(f"{type(error).__name__}: {error}")


RETRY_STATUSES = frozenset({408, 425, 429})
"""Refusals of a moment (a timeout, too early, too many requests): asked again, they may
pass. Every 5xx is such a one too."""


def retry_helps(error: BaseException) -> bool:
    """Whether asking again may get another answer, by the error's kind.

    A network fault, a timeout, a 5xx, a 429 or a reply cut or garbled on its way may
    pass on a retry; a refusal (4xx), a route the platform does not have (404), a reply
    over the size limit or a change refused by a read-only profile come back the same.
    An error of no known kind (a bug, a local file) may be of a moment: offered.
    """
    if isinstance(error, ApiError):
        return error.status >= 500 or error.status in RETRY_STATUSES
    if isinstance(error, ReplyTooLarge | ReadOnlyRefused):
        return False
    if isinstance(error, TransportError | MalformedResponse):
        return True
    return not isinstance(error, PlatformError)


def instead_of_retry(error: BaseException) -> str:
    """What to do about a failure a retry cannot mend ("" when its message says it)."""
    if isinstance(error, ApiError):
        if error.status == 404:
            return "this platform has no such route or record here: a retry gets the same answer"
        if error.status == 403:
            return "not allowed here: a retry gets the same; Scope (1) selects another account"
        if 400 <= error.status < 500:
            return "the platform refuses the request as it is: a retry gets the same answer"
    if isinstance(error, ReplyTooLarge):
        return "a retry gets the same reply"
    return ""


def next_step(error: BaseException | str, retry_key: str | None) -> str:
    """What a status line adds after a failure: ``press r to retry`` where a retry may
    help (``retry_key``: the key that retries; None: none does), else what to do instead.

    A failure told as text says its next step itself: nothing is added. A change whose
    outcome is unknown is never offered again blindly: it is read back.
    """
    if isinstance(error, str) or outcome_unknown(error):
        return ""
    if retry_helps(error):
        return f"press {retry_key} to retry" if retry_key else ""
    return instead_of_retry(error)


class WorkerFailed(Message):
    """A worker of a widget ended with an unexpected error."""

    def __init__(self, worker: Worker[object], error: BaseException) -> None:
        super().__init__()
        self.worker = worker
        self.error = error


def failure_of(event: Worker.StateChanged) -> BaseException | None:
    """The error a worker ended with, or None if it did not fail."""
    if event.state is WorkerState.ERROR:
        return event.worker.error
    return None


class ReportsWorkerFailures(Widget):
    """Base for a widget with workers (put it first): their failures reach the screen."""

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        error = failure_of(event)
        if error is not None:
            event.stop()
            self.post_message(WorkerFailed(event.worker, error))


async def guarded_read(
    read: Awaitable[T],
    *,
    still_wanted: Callable[[], bool],
    on_error: Callable[[PlatformError], object],
    busy: Widget | None = None,
) -> tuple[bool, T | None]:
    """Await a read; ``(True, result)`` only while ``still_wanted()`` holds.

    The one shape of every read (`BaseScreen.load` and the panes): ``busy`` shows the
    loading indicator meanwhile; a `PlatformError` goes to ``on_error`` if still wanted;
    any other exception ends the worker (its screen's `load_failed` shows it); a result
    nobody wants any more (another account, another key) is dropped unseen.
    """
    if busy is not None:
        busy.loading = True
    try:
        result = await read
    except PlatformError as exc:
        if still_wanted():
            if busy is not None:
                busy.loading = False
            on_error(exc)
        return False, None
    if not still_wanted():
        return False, None
    if busy is not None:
        busy.loading = False
    return True, result
