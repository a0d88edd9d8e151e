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
message left in a queue on the way from the focus to the app). Then the next held key is
handed on, to whichever widget has the focus by then. A burst costs one refresh per key;
a console that does not settle (a queue never empty) holds nothing longer than
`HOLD_LIMIT`. The quit key is never held.

Public Textual API (message queue sizes, ``walk_children``, ``is_mounted``,
``call_after_refresh``) and one look into the screen's callbacks for after its refresh
(`textual_compat.refresh_callbacks_pending`): only a key that left one waits for a frame.
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

from vagent_tui.ui.fields import is_text_field
from vagent_tui.ui.textual_compat import refresh_callbacks_pending

HOLD_LIMIT = 1.0
"""Seconds a key is held at most for the console to settle; then the keys held are handed
on in their order (a screen that never settles must not swallow the keyboard)."""

_POLL = 0.001
"""Seconds between two looks at a console that has not settled yet (a look walks the
screen's widgets: not at every turn of the event loop)."""

_SPINS = 20
"""Looks at the next turns of the event loop before `_POLL` applies."""

ReturnType = TypeVar("ReturnType")

Typed = events.Key | events.Paste
"""What the gate orders: keys and pastes (a paste goes to the focus, as a key does)."""


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
                self._released.add(id(again))
                app.post_message(again)
                # Its turn came: wait until the app has handed it on before settling again
                # (bounded: a key whose handling failed is never said to be through).
                deadline = time.monotonic() + HOLD_LIMIT
                await _until(partial(self._through, id(again)), app, deadline)
        finally:
            self._task = None

    async def _wait_settled(self) -> None:
        """Until the console has settled, or `HOLD_LIMIT` has passed since the wait began."""
        app = self._app
        deadline = time.monotonic() + HOLD_LIMIT
        while await _until(lambda: _settled(app), app, deadline):
            screen, focused = app.screen, app.focused
            if not refresh_callbacks_pending(screen):
                return
            # A callback for after the screen's next refresh (a row opened, a cursor
            # moved to a node, a page turned) has run after this.
            refreshed = asyncio.Event()
            if screen.call_after_refresh(refreshed.set):
                await _until(partial(_refreshed, refreshed, app, screen), app, deadline)
            if (
                app.screen is screen
                and app.focused is focused
                and not refresh_callbacks_pending(screen)
            ):
                return

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
