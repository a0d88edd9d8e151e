"""Screens in a burst of keys: built later than they are pushed, covered by what later
keys open. Both are handled here, once, for every screen and dialog of the console.

**Not built yet.** Textual builds a pushed screen (a dialog, a mode's first screen) and
a mounted widget in their own task, later, unless the push or the mount is awaited: for
a few milliseconds the screen is on show, takes keys and can be handed work, yet has none
of the widgets its ``compose`` makes, and a ``query_one`` then ends the console (issue 38:
Enter Enter on Calls reached `CallScreen.show_call` before the call screen was built).
Keys typed ahead, a worker's result, a message or a timer can all come in that moment.
The rule: what touches the widgets of a node made by someone else goes through
`when_built`, which does it now if the node is built, or else once it is (queued behind
its compose and mount, in its own message queue). ``ConnectionApp.run_action`` holds
every action (a key's binding, a palette command) that way, so no ``action_*`` runs on a
screen not built; a method another node calls (`CallScreen.show_call`,
`RolloutForm.take_catalog`, `FilterRow.open`) keeps what it is handed and draws it
through `when_built`; `VagentApp.pop_screen` closes a screen not built once it is.

**Covered.** Textual's ``dismiss`` pops whatever screen is on top. A screen that closes
itself from a worker or a message (Settings' esc, which may first ask) closes, instead,
what a key typed meanwhile opened over it (the keys panel), and stays, its answer given:
it can then never close. Every screen of the console is a `ClosesItself`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from textual.app import ScreenStackError
from textual.await_complete import AwaitComplete
from textual.dom import DOMNode, NoScreen
from textual.widget import Widget

from vagent_tui.ui.textual_compat import QuietStartScreen

__all__ = ["ClosesItself", "built", "when_built"]

R = TypeVar("R")


def _waits_for(node: DOMNode) -> Widget | None:
    """What ``node`` waits for: itself, else the screen it is on (an app: the screen on
    show); None when both are built, or when it is on no screen (nothing to wait for)."""
    if isinstance(node, Widget) and not node.is_mounted:
        return node
    try:
        screen = node.screen  # an app's: the screen on show
    except (NoScreen, ScreenStackError):
        return None
    return None if screen.is_mounted else screen


def built(node: DOMNode) -> bool:
    """Whether ``node`` and the screen it is on (an app: the screen on show) were composed
    and mounted, so that the widgets they compose are there."""
    return _waits_for(node) is None


def when_built(node: DOMNode, callback: Callable[..., object], *args: Any) -> None:
    """``callback(*args)`` now if ``node`` is `built`, else once it is.

    Queued in the message queue of what is not built yet (the node or its screen), which
    Textual works through only after that node's compose and mount; a node removed before
    it was built never runs it. ``callback`` is a plain function (what it returns is
    ignored): to run a coroutine later, hand it to ``call_later`` through this.
    """
    waiting = _waits_for(node)
    if waiting is None:
        callback(*args)
        return
    # Once the node is built its screen may still not be (a widget composed by a screen
    # being built): asked again then.
    waiting.call_later(when_built, node, callback, *args)


async def _nothing() -> None:
    """An await that completes at once."""


class ClosesItself(QuietStartScreen[R]):
    """A screen whose ``dismiss`` closes it, never another screen (mixed in first:
    ``class Form(ClosesItself[T], ModalScreen[T])``). Like every screen of the console, it
    draws no frame while Textual holds the output (`QuietStartScreen`)."""

    def dismiss(self, result: R | None = None) -> AwaitComplete:
        """Close this screen with ``result``, and first what was opened over it since
        (dismissed without an answer, as esc would; once built, if one is not yet).

        A screen not on show (closed already: a second Enter on its button; or in
        another mode's stack) stays as it is: Textual would close the one on top.
        """
        stack = self.app.screen_stack
        if self not in stack:
            return AwaitComplete(_nothing())
        above = stack[stack.index(self) + 1 :]
        building = [screen for screen in above if not built(screen)]
        if building:
            when_built(building[-1], self.dismiss, result)
            return AwaitComplete(_nothing())
        for screen in reversed(above):
            screen.dismiss()
        return super().dismiss(result)
