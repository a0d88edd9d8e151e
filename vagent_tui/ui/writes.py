"""The one way to change the platform: the twin of `BaseScreen.load`.

A screen describes a change as a `Write` (what it is, how to ask, how to send it, how
to read back what the platform holds) and hands it to `BaseScreen.write`, which runs
`perform` in a ``write-`` worker (a flow with steps of its own before the send, such as
a staging change, awaits `BaseScreen.written` inside its worker instead). `perform`:

1. asks (a dialog showing the record or the diff); a "no" sends nothing;
2. refuses when the connection or the target account is no longer the one the user
   saw when the question was asked (``start``): nothing is sent;
3. sends once, through the connection the user saw; the client's observer journals
   the exchange (`services.journal`), and a journal that could not be written is said;
4. on success says ``done``; a 404 on a delete says the thing was already gone; a
   refusal shows the platform's message, with the key to try again when it is safe;
5. on an unknown outcome (no reply, a cut or unreadable one, a gateway's 5xx) never
   sends again: reads back and says what the platform holds now.

The screen builds its own question, but for a key that spends money
(`vagent_tui.ui.safety.Does.SPENDS`): its write carries a `Spend` (what it costs, the
thing bought, how to read back), and the path asks the money question itself
(`vagent_tui.ui.dialogs.spend_question`: the cost said, the thing bought typed), offers
no retry key, and reads a lost reply back before the screen hears anything (``after``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeVar, cast

from textual.screen import ModalScreen
from textual.widget import Widget
from textual.worker import Worker

from vagent_tui.api.errors import ApiError, PlatformError, outcome_unknown
from vagent_tui.ui.failures import WRITE_GROUP_PREFIX, StatusReport, describe_error, write_in_flight

if TYPE_CHECKING:
    from textual.app import App

    from vagent_tui.services.session import Connection
    from vagent_tui.ui.host import Console

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)
X = TypeVar("X")

Outcome = Literal["done", "gone", "refused", "unknown", "cancelled", "moved"]
"""How a write ended: made; already gone (a delete's 404); refused by the platform
(nothing changed); unknown (read back); cancelled at the question; not sent because the
target moved since the question."""

Confirm = ModalScreen[Any] | Callable[[], Awaitable[bool]] | None
"""The question before sending: a dialog whose truthy answer goes ahead, or a coroutine
(a flow that asks more than once, e.g. again when the slot moved meanwhile) that says
itself why it declines; None: no question (an add form already asked by its button)."""

ReadBack = Callable[["Connection"], Awaitable[str]]
"""Reads what the platform holds after a write of unknown outcome, as a sentence."""

MOVED = "The target account changed meanwhile; nothing was sent."
CANCELLED = "Cancelled; nothing was sent."


@dataclass(frozen=True)
class Written(Generic[T_co]):
    """How a write ended; ``result`` is the platform's reply when it was made."""

    outcome: Outcome
    result: T_co | None = None
    error: PlatformError | None = None
    line: str = ""
    """What the status line said of it."""

    @property
    def sent(self) -> bool:
        """The request left: the screen's data may be stale now (load it again)."""
        return self.outcome in ("done", "gone", "unknown", "refused")

    @property
    def stale(self) -> bool:
        """The platform may hold something else than the screen shows."""
        return self.outcome in ("done", "gone", "unknown")


@dataclass(frozen=True)
class Spend:
    """What a write that spends money supplies (its key is declared ``does=SPENDS``).

    ``what`` names the purchase as a verb ("Buy number"); ``thing`` is what is bought,
    as the user types it to go ahead; ``cost`` says what it costs, in the action's words
    (from the catalog: "$1.15 a month, billed to account 42"). ``read_back`` is
    required: a lost reply may have bought it, and nothing is bought twice.
    """

    what: str
    thing: str
    cost: str
    read_back: ReadBack
    effect: str = "This spends money."
    """What going ahead does to the bill, said before what is sent (a cancellation
    stops a charge: it does not spend)."""

    def __post_init__(self) -> None:
        if not (self.what.strip() and self.thing.strip() and self.cost.strip()):
            raise ValueError("a spend says what it buys, the thing bought and what it costs")


@dataclass(frozen=True)
class Write(Generic[T]):
    """One change, described: everything `perform` needs, nothing it decides.

    ``name`` names the worker's group (``write-<name>``); ``doing`` is the busy line
    while it is sent. ``send`` gets the connection the user saw and sends through it.
    ``done`` turns the reply into the status line. ``gone`` marks a delete: a 404 says
    this (``"203.0.113.10 was already gone"``). ``failed`` turns a refusal into its
    line (default: the platform's message). ``retry_key`` is offered after a refusal
    (never after an unknown outcome). ``after`` hears how it ended, whatever the
    outcome: the screen loads again, moves its cursor, shows a created value.
    """

    name: str
    doing: str
    send: Callable[[Connection], Awaitable[T]]
    confirm: Confirm = None
    cancelled: str = CANCELLED
    done: Callable[[T], str] | str = ""
    gone: str | None = None
    read_back: ReadBack | None = None
    unsure: str = "Look at what the platform holds before trying again."
    """After an unknown outcome, when nothing can be read back: what to do."""
    failed: Callable[[PlatformError], str] | None = None
    retry_key: str | Callable[[PlatformError], str | None] | None = None
    after: Callable[[Written[T]], object] | None = None
    spends: Spend | None = None
    """Set for a key declared ``does=SPENDS``: the path asks the money question and
    reads back with ``spends.read_back``; ``confirm``, ``read_back`` and ``retry_key``
    stay unset (a spend is never offered again by a key: pressing it again asks anew)."""

    def __post_init__(self) -> None:
        own = (self.confirm, self.read_back, self.retry_key)
        if self.spends is not None and any(given is not None for given in own):
            raise ValueError("a spend asks, reads back and never retries by its Spend")

    @property
    def question(self) -> Confirm:
        """The question before sending: the money question of a spend, else ``confirm``."""
        if self.spends is None:
            return self.confirm
        from vagent_tui.ui.dialogs import spend_question  # dialogs load when first used

        spend = self.spends
        return spend_question(spend.what, spend.thing, spend.cost, effect=spend.effect)

    @property
    def reads_back(self) -> ReadBack | None:
        return self.spends.read_back if self.spends is not None else self.read_back


async def listed(
    read: Awaitable[Iterable[X]], there: Callable[[X], bool], *, present: str, absent: str
) -> str:
    """A read-back sentence: ``present`` if a listed item is ``there``, else ``absent``."""
    items = await read
    return present if any(there(item) for item in items) else absent


def write_from(
    pane: Widget, write: Write[T], *, still: Callable[[], bool] | None = None
) -> Worker[Written[T]] | None:
    """`BaseScreen.write` for a pane (a widget of a screen): the same path, its lines
    reported to the screen's status line (`StatusReport`). ``still``: whether what the
    pane shows is still what the user saw (default: the same connection and target).
    None (and said) while another change is being sent."""
    if write_in_flight(pane.app):
        pane.post_message(StatusReport.info("A change is being sent: wait for its answer."))
        return None
    console = cast("Console", pane.app)
    start = console.connection
    return pane.run_worker(
        perform(
            write, app=pane.app, start=start,
            still=still or (lambda: start.same_context(console.connection)),
            say=pane.post_message,
            toast=lambda line: pane.app.notify(line, markup=False),
            in_view=lambda: pane.screen.is_current,
            journal_error=lambda: console.journal.error,
        ),
        group=WRITE_GROUP_PREFIX + write.name, exit_on_error=False,
    )  # fmt: skip


async def perform(
    write: Write[T],
    *,
    app: App[Any],
    start: Connection,
    still: Callable[[], bool],
    say: Callable[[StatusReport], object],
    toast: Callable[[str], object] | None = None,
    in_view: Callable[[], bool] = lambda: True,
    journal_error: Callable[[], str | None] | None = None,
) -> Written[T]:
    """Ask, check, send once, and say how it ended (see the module's docstring).

    ``start`` is the connection the user saw; ``still()`` is False once the screen
    follows another one (another target, another profile). ``say`` shows a line on the
    screen's status line. ``toast`` says the outcome where the status line cannot: the
    screen follows another account now, or it is not ``in_view()`` (left, or a dialog
    over it).
    """

    def tell(report: StatusReport) -> None:
        if still():
            say(report)
            if toast is not None and not in_view():
                toast(str(report.what))
        elif toast is not None:
            toast(str(report.what))

    written = await _perform(write, app, start, still, say, tell, journal_error)
    if write.after is not None:
        write.after(written)
    return written


async def _perform(
    write: Write[T],
    app: App[Any],
    start: Connection,
    still: Callable[[], bool],
    say: Callable[[StatusReport], object],
    tell: Callable[[StatusReport], None],
    journal_error: Callable[[], str | None] | None,
) -> Written[T]:
    question = write.question
    if question is not None:
        if isinstance(question, ModalScreen):
            yes = bool(await app.push_screen_wait(question))
            if not yes:
                say(StatusReport.info(write.cancelled))
        else:
            yes = await question()  # says itself why it declines
        if not yes:
            return Written("cancelled", line=write.cancelled)
    if not still():
        say(StatusReport.info(MOVED))
        return Written("moved", line=MOVED)
    say(StatusReport.busy(write.doing))
    try:
        result = await write.send(start)
    except PlatformError as exc:
        return await _failed(write, exc, start, tell, journal_error)
    line = write.done(result) if callable(write.done) else write.done
    note = _journal_note(journal_error)
    if line or note:
        tell(StatusReport.ok(line + note) if line else StatusReport.info(note.strip()))
    return Written("done", result=result, line=line)


async def _failed(
    write: Write[T],
    exc: PlatformError,
    start: Connection,
    tell: Callable[[StatusReport], None],
    journal_error: Callable[[], str | None] | None,
) -> Written[T]:
    outcome: Outcome
    retry: str | None = None
    if isinstance(exc, ApiError) and exc.status == 404 and write.gone is not None:
        outcome, line = "gone", f"{describe_error(exc)} — {write.gone}"
    elif outcome_unknown(exc):
        outcome, line = "unknown", await _read_back(write, exc, start)
    else:
        outcome = "refused"
        retry = write.retry_key(exc) if callable(write.retry_key) else write.retry_key
        line = write.failed(exc) if write.failed is not None else describe_error(exc)
    line += _journal_note(journal_error)
    # A refusal's next step is its error's (retry where that helps, else what to do);
    # "already gone" and a read-back say theirs in the line.
    cause = exc if outcome == "refused" else None
    tell(StatusReport.error(line, retry_key=retry, cause=cause))
    return Written(outcome, error=exc, line=line)


async def _read_back(write: Write[Any], exc: PlatformError, start: Connection) -> str:
    """The unknown outcome and what the platform holds now: never a resend."""
    read_back = write.reads_back
    if read_back is None:
        return f"{describe_error(exc)} {write.unsure}"
    try:
        held = await read_back(start)
    except PlatformError as again:
        return (
            f"{describe_error(exc)} It could not be read back either "
            f"({describe_error(again)}): look before trying again."
        )
    return f"{describe_error(exc)} Read back now: {held}"


def _journal_note(journal_error: Callable[[], str | None] | None) -> str:
    problem = journal_error() if journal_error is not None else None
    return f" ⚠ {problem}" if problem else ""
