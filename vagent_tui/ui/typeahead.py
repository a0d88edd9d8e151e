"""Keys typed ahead wait for the key before them to be handled.

Textual hands a key to the widget that has the focus *when the key is read*, through that
widget's own message queue, and a key that moves the focus (Tab, Enter that opens a form,
``:``, a screen key) takes effect only when the widget, its screen or the app has handled
it. Keys typed faster than that (a fast typist, a paste as keys, a password manager's
auto-type, a script over tmux) were handed to the old focus: ``Zeta Org``, Tab,
``z@zeta.example`` gave a name of ``Zeta Orgz@zeta.example``, and text typed behind the
key that opened a form went to the list behind it.

`KeyGate` restores the order a person means: a key is handled at once when the console is
settled, and otherwise held until every earlier key was handled and what it started has
settled (its screen pushed, composed, mounted and drawn, the focus where it lands, no
message left in a queue on the way from the focus to the app, no form it opens still being
read). Then the next held key is handed on, to whichever widget has the focus by then. A
burst costs one refresh per key; a console that does not settle (a queue never empty)
holds nothing longer than `HOLD_LIMIT`. The quit key is never held.

A form often comes after a read: ``L`` on Tasks reads the limits and then opens their
form, a restore to live reads the versions and then asks for the word, the agent's
settings form builds its fields from the staging it reads. The keys typed behind such a
key are for the form: they also wait for a worker the key started (on the screen on show)
whose group says it opens what comes next: ``open-...`` (reads, then opens a form or
builds the fields of the form on show) or ``write-...`` started by a key pressed on its
own screen (a change: its question, or its answer, comes next), for `LOAD_LIMIT` at most.
A worker stops counting once its screen is no longer on show (its question pushed on top:
the keys are for the question). A write started by the answer to a question (a rollout's
run, a publish) holds nothing: the keys typed during it (``x`` stops a run) are handled at
once. Other workers (a screen's rows, a switch of target that ESC cancels) hold nothing.

Fields just built (or a screen just shown) are laid out before the next key is handed
on: Textual's Tab takes the fields in the order of their layout, and before it, in an
order of their own (a Tab behind the key that opened the agent's settings went to a field
halfway down the form).

Public Textual API (message queue sizes, ``walk_children``, ``is_mounted``,
``call_after_refresh``, the app's workers, their groups and nodes) and one look into the
screen's callbacks for after its refresh (`textual_compat.refresh_callbacks_pending`):
only a key that left one, or that showed another screen or built a form, waits for a
frame.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections import deque
from collections.abc import Callable, Collection
from functools import cached_property, partial
from typing import Any, TypeVar

from textual import events
from textual.app import App
from textual.screen import Screen
from textual.widget import Widget
from textual.worker import Worker

from vagent_tui.ui.failures import WRITE_GROUP_PREFIX
from vagent_tui.ui.fields import is_text_field
from vagent_tui.ui.textual_compat import refresh_callbacks_pending

HOLD_LIMIT = 1.0
"""Seconds a key is held at most for the console to settle; then the keys held are handed
on in their order (a screen that never settles must not swallow the keyboard)."""

OPENING_PREFIX = "open-"
"""The group of a worker that reads and then opens a form, or builds the fields of the form
on show: the keys typed behind the key that started it wait for it (`LOAD_LIMIT`)."""

LOAD_LIMIT = 5.0
"""Seconds the keys behind a key wait at most for the form it opens to be read (a slow
platform's reply); then they are handed on in their order."""

_POLL = 0.001
"""Seconds between two looks at a console that has not settled yet (a look walks the
screen's widgets: not at every turn of the event loop)."""

_SPINS = 20
"""Looks at the next turns of the event loop before `_POLL` applies."""

ReturnType = TypeVar("ReturnType")

Typed = events.Key | events.Paste
"""What the gate orders: keys and pastes (a paste goes to the focus, as a key does)."""


def _running(app: App[Any]) -> frozenset[Worker[Any]]:
    return frozenset(worker for worker in app.workers if worker.is_running)


def _opening(app: App[Any], before: frozenset[Worker[Any]], pressed_on: Screen[Any] | None) -> bool:
    """A worker started since ``before`` (by the key being handled) still reads what comes
    next for the screen on show: it runs on that screen or on a widget of it, and either
    opens a form (`OPENING_PREFIX`) or is a write started by a key pressed on that very
    screen (its question comes next). A write started by the answer to a question, on the
    screen below it (a rollout's run, a publish), holds no key: keys typed during it stop
    or leave it."""
    screen = app.screen
    for worker in app.workers:
        if worker in before or not worker.is_running:
            continue
        if not worker.group.startswith(OPENING_PREFIX) and not (
            worker.group.startswith(WRITE_GROUP_PREFIX) and pressed_on is screen
        ):
            continue
        node = worker.node
        if node is screen or (
            isinstance(node, Widget) and node.is_attached and node.screen is screen
        ):
            return True
    return False


def _settled(app: App[Any]) -> bool:
    """No message waits anywhere a key's effects travel: the app, the screen on show and
    every widget on it, and that screen is mounted (a pushed screen is composed later)."""
    if app.message_queue_size:
        return False
    screen = app.screen
    if not screen.is_mounted:
        return False
    return not any(node.message_queue_size for node in screen.walk_children(with_self=True))


def _refreshed(refreshed: asyncio.Event, app: App[Any], screen: Screen[Any]) -> bool:
    """Whether ``screen`` has refreshed (``refreshed`` is set) or is no longer shown."""
    return refreshed.is_set() or app.screen is not screen


async def _until(done: Callable[[], bool], app: App[Any], deadline: float | None = None) -> bool:
    """Wait until ``done()``; False when the app stopped or ``deadline`` passed first.

    The first looks come at the next turns of the event loop (most waits end there), the
    later ones every `_POLL` seconds: a look walks the screen's widgets.
    """
    for turn in itertools.count():
        if done():
            return True
        if not app.is_running or (deadline is not None and time.monotonic() >= deadline):
            return False
        await asyncio.sleep(0 if turn < _SPINS else _POLL)
    raise AssertionError("unreachable")  # pragma: no cover


class KeyGate:
    """Orders the keys typed ahead of the console (see the module's docstring).

    The app calls `admit` with every key and paste it reads from the terminal (not those
    forwarded back up to it) and, once it has handed an admitted one on, `handled`. A key
    admitted is handled at once; one held is posted to the app again when its turn comes,
    and admitted then.
    """

    def __init__(self, app: App[Any], quit_keys: Callable[[], Collection[str]]) -> None:
        self._app = app
        self._quit_keys = quit_keys
        """The keys that quit now (a keymap may move quit to another key)."""
        self._held: deque[Typed] = deque()
        self._released: set[int] = set()
        """Ids of the held keys posted back to the app: admitted when they arrive."""
        self._handed: set[int] = set()
        """Ids of the keys released and admitted, until the app has handed them on."""
        self._task: asyncio.Task[None] | None = None
        self._text_admitted = False
        """Whether the key admitted last was text for the focused field (see `_text`)."""
        self._before: frozenset[Worker[Any]] = frozenset()
        """The workers running when the key being handled was admitted or handed on: one
        it starts is part of its handling (`_opening`)."""
        self._shown: Screen[Any] | None = None
        """The screen on show when the key being handled was admitted or handed on:
        another one on show after it is waited for until laid out."""

    @property
    def holding(self) -> int:
        """How many keys wait for their turn."""
        return len(self._held)

    def admit(self, event: Typed) -> bool:
        """True: handle ``event`` now. False: it is held, and handed on in its turn (or
        dropped: a key handed on while the app was closing finds no screen to go to)."""
        if not self._app.screen_stack:
            self._released.discard(id(event))
            return False
        if id(event) in self._released:
            self._released.discard(id(event))
            self._handed.add(id(event))
            return True
        if self._task is not None or self._held:
            if self._is_quit(event):
                return True
            self._held.append(event)
            return False
        self._text_admitted = self._text(event)
        if not self._text_admitted:
            self._before, self._shown = _running(self._app), self._app.screen
        return True

    def handled(self, event: Typed) -> None:
        """The app has handed ``event`` (admitted) on: the keys behind it wait for the
        console to settle, unless it was text for a field."""
        if id(event) in self._handed:
            self._handed.discard(id(event))
        elif self._task is None and not self._text_admitted:
            self._task = asyncio.create_task(self._hand_on())

    def _text(self, event: Typed) -> bool:
        """Whether ``event`` is a character the focused text field takes as text: it
        cannot move the focus, so the keys behind it need not wait (typing into a field
        costs no frame a key)."""
        focused = self._app.focused
        return (
            isinstance(event, events.Key)
            and event.is_printable
            and is_text_field(focused)
            and focused is not None
            and focused.check_consume_key(event.key, event.character)
        )

    def _is_quit(self, event: Typed) -> bool:
        return isinstance(event, events.Key) and event.key in self._quit_keys()

    async def _hand_on(self) -> None:
        """Wait for the console to settle after each key; hand on the next held key."""
        app = self._app
        text = False
        try:
            while app.is_running:
                if not text:
                    await self._wait_settled()
                if not self._held:
                    return
                event = self._held.popleft()
                text = self._text(event)
                again = self._copy(event)
                self._before, self._shown = _running(app), app.screen
                self._released.add(id(again))
                app.post_message(again)
                # Its turn came: wait until the app has handed it on before settling again
                # (bounded: a key whose handling failed is never said to be through).
                deadline = time.monotonic() + HOLD_LIMIT
                await _until(partial(self._through, id(again)), app, deadline)
        finally:
            self._task = None

    async def _wait_settled(self) -> None:
        """Until the console has settled, or `HOLD_LIMIT` has passed since the wait began
        (or since the form the key opens was read, which may take `LOAD_LIMIT`)."""
        app = self._app
        now = time.monotonic()
        deadline, read_by = now + HOLD_LIMIT, now + LOAD_LIMIT
        laid_out = self._shown
        while await _until(lambda: _settled(app), app, deadline):
            screen, focused = app.screen, app.focused
            if screen is not laid_out or refresh_callbacks_pending(screen):
                # A callback for after the screen's next refresh (a row opened, a cursor
                # moved to a node, a page turned) has run after this; a screen just shown,
                # or fields just built, are laid out then (Tab follows the layout: before
                # it, Tab takes the fields in an order of their own).
                laid_out = screen
                refreshed = asyncio.Event()
                if screen.call_after_refresh(refreshed.set):
                    await _until(partial(_refreshed, refreshed, app, screen), app, deadline)
                if not (
                    app.screen is screen
                    and app.focused is focused
                    and not refresh_callbacks_pending(screen)
                ):
                    continue
            if not _opening(app, self._before, self._shown):
                return
            # The form is being read: wait for it, then for what it brings to settle.
            if not await _until(lambda: not _opening(app, self._before, self._shown), app, read_by):
                return
            deadline = time.monotonic() + HOLD_LIMIT
            laid_out = None

    def _through(self, key: int) -> bool:
        """Whether the key of id ``key``, released, was admitted and handed on."""
        return key not in self._released and key not in self._handed

    @staticmethod
    def _copy(event: Typed) -> Typed:
        """A new event for a held one (a message is dispatched once)."""
        if isinstance(event, events.Key):
            return events.Key(event.key, event.character)
        return events.Paste(event.text)


class TypeAheadApp(App[ReturnType]):
    """An app whose keys and pastes pass its `KeyGate` first."""

    @cached_property
    def key_gate(self) -> KeyGate:
        """Keys typed ahead wait here for the keys before them."""
        return KeyGate(self, self.quit_keys)

    def quit_keys(self) -> Collection[str]:
        """The keys that quit, never held (an app with a keymap says which they are)."""
        return ("ctrl+q",)

    async def on_event(self, event: events.Event) -> None:
        # Computed first: the app marks the event forwarded as it hands it on.
        typed = event if isinstance(event, Typed) and not event.is_forwarded else None
        if typed is not None and not self.key_gate.admit(typed):
            return  # typed ahead: handed on once the keys before it were handled
        await super().on_event(event)
        if typed is not None:
            self.key_gate.handled(typed)
