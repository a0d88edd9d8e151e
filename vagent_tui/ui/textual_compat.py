"""Every use of Textual's private API, in one place (tests/unit/test_textual_compat.py).

Product code outside this module uses only Textual's public API. Each wrapper here
exists because Textual has no public way to do the same; the tests fail loudly when a
Textual release changes what a wrapper relies on.

1. Crash output without local variables (`CrashReportingApp`).
2. Forgetting a secret from the app's in-process clipboard (`forget_copied`).
3. Knowing whether the app's styles changed since a screen was last shown (`style_mark`).
4. Knowing whether a screen holds callbacks for after its next refresh
   (`refresh_callbacks_pending`).
5. Writing only the cells that changed (`FrameDiffApp`, `update_pieces`).
6. A mode's first screen styled once at start-up, not three times (`styled_as_current`).
7. No frame drawn while Textual holds the output (start-up) and writes none
   (`QuietStartScreen`).

**1.**
An unhandled exception ends a Textual app through ``App._handle_exception``, which
calls ``App._fatal_error``: it renders a rich ``Traceback(show_locals=True)`` and
prints it at exit. Local variables may hold the token or a reply full of outside text,
and no public setting turns them off. `CrashReportingApp` overrides that one method:
the app still exits with return code 1, prints nothing itself, and keeps the exception
in `crash_error` for the command line to report (`vagent_tui.crash`: one line, the
traceback without locals in a 0600 file). Exceptions that render themselves (those
with ``__rich__``) still go to Textual's public ``panic``.

**3.**
``App.push_screen`` always sends ``ScreenResume(refresh_styles=True)``, and
``Screen._on_screen_resume`` then re-applies every CSS rule to every widget of the
screen, as if nothing were known about them: on Calls' kept call screen, shown again
at each Enter, that is most of the key's cost. A screen's handler may set the event's
public ``refresh_styles`` to False; it is safe to when nothing the rules read has
changed since the screen's last showing: the app's CSS (``App._css_update_count``,
which Textual bumps on a theme or ANSI-palette change and which is the only record of
it), the app's classes and pseudo-classes, the size. A change to a widget's own classes
while hidden restyles that widget by itself.

**4.**
``call_after_refresh`` posts a message to the widget, whose handler hands the callback to
the screen on show (``Screen._invoke_later``), which keeps it in ``Screen._callbacks``
and runs it after its next refresh. A key that opens a row, moves a cursor to a node or
pages a list does so there, outside every message queue. The key gate
(`vagent_tui.ui.typeahead`) must wait for such a callback before it hands on the next
key; without one pending there is nothing to wait for, and waiting for a refresh anyway
would draw a frame for every key of a burst. Textual has no public way to ask.

**5.**
Textual writes a frame in ``App._display(screen, renderable)``: the renderable is a
``textual._compositor.LayoutUpdate`` (every line of a region: ``strips``, one list of
strips per line, from ``region``'s corner) or a ``ChopsUpdate`` (``chops``, per line a
mapping of first column to strip; ``spans``, the (line, x1, x2) to write;
``chop_ends``, per line the end column of each chop), whose ``render_segments`` makes
the terminal output. `update_pieces` reads the same strips where ``render_segments``
would write them, and `FrameDiffApp._display` hands Textual an update of only what
differs from the frame on the terminal (`vagent_tui.ui.frame_diff`), or nothing when
nothing differs. The frame is kept only once Textual writes the update (its
``render_segments`` is called), so an update Textual drops (a batch, a headless app)
is not taken for shown.

**6.**
A mode's first screen is made in ``App._init_mode``, which calls ``App.refresh_css``
when the screen's ``_css_update_count`` differs from the app's, and a new screen's is
always -1. ``refresh_css`` sets the theme's variables again (which empties the
stylesheet's parse cache), parses every source in a fresh stylesheet, and applies the
rules to every node; the next apply parses every source once more. Before the app has
mounted, that is about 15 ms of the demo's first frame spent on a stylesheet nothing
has used yet: Textual applies it to the app and the screen right after
(``stylesheet.apply(self)``, then each widget as it is registered). `styled_as_current`
styles the app node (its children inherit from it) and marks the first screen as
styled by the app's current CSS; the app's first screen
reads its own CSS into the stylesheet beforehand (`vagent_tui.ui.app`), so nothing is
left unparsed. Textual has no public way to make a mode's screen without the restyle.

**7.**
While an app starts, Textual holds its output in a batch (``App.batch_update`` around
composing and mounting, ``App._batch_count``), and ``Screen._refresh_layout`` hands the
frame it lays out to ``call_later(self._compositor_refresh)``, which renders every
widget of the screen and gives the update to ``App._display``, which writes nothing
while a batch is open. When mounting takes a while (the console's does: the first
screen's requests), that refresh runs inside the batch: the demo's first frame was
drawn for nothing (about 9 ms of its 300 ms start), and drawn again after the batch.
`QuietStartScreen` overrides ``_compositor_refresh``: until the screen's first frame
has been drawn, while a batch is open it draws nothing and asks the app for a refresh
of the whole screen, which the app's queue runs once the batch is over (the start-up
batch closes before the app's queue is read). Once drawn, the screen is refreshed as
Textual does. Textual has no public way to hold a screen's rendering, only its output.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from rich.color import ColorSystem
from rich.console import COLOR_SYSTEMS, Console, ConsoleOptions, RenderableType, RenderResult
from rich.segment import Segment
from textual import events
from textual._compositor import ChopsUpdate, CompositorUpdate, LayoutUpdate
from textual.app import App
from textual.screen import Screen

from vagent_tui.ui.frame_diff import Frame, Piece

ReturnType = TypeVar("ReturnType")


class QuietStartScreen(Screen[ReturnType]):
    """A screen that draws no frame while Textual holds the output (see 7. above)."""

    _drawn = False
    """Whether a frame of the screen has been drawn outside a batch."""

    def _compositor_refresh(self) -> None:
        if self.app._batch_count and not self._drawn:
            # Textual would write nothing of it: the whole screen is drawn after the batch.
            self.app.call_later(self.refresh)
            return
        self._drawn = self._drawn or not self.app._batch_count
        super()._compositor_refresh()


class CrashReportingApp(App[ReturnType]):
    """An app whose crash is kept in `crash_error` instead of printed with locals."""

    crash_error: BaseException | None = None
    """The exception that ended the app, if one did."""

    def _fatal_error(self) -> None:
        # Textual calls this inside the ``except`` block of the failure (its own
        # Traceback() reads sys.exc_info() the same way).
        error = sys.exc_info()[1]
        self.crash_error = error if error is not None else RuntimeError("unknown failure")
        self.bell()
        self.panic()  # exits like Textual's own handler, with nothing to print


def forget_copied(app: App[Any], text: str) -> None:
    """Drop ``text`` from the app's in-process clipboard, if it is what it holds.

    `App.copy_to_clipboard` keeps a copy for in-app paste besides sending it to the
    terminal. A new token must not linger there once its dialog closes; copying ""
    instead would also empty the terminal's clipboard, which the user wants to paste
    from. Textual has no public way to clear only its own copy.
    """
    if app.clipboard == text:
        app._clipboard = ""


def style_mark(app: App[Any]) -> Hashable:
    """What an app-wide restyle depends on: equal marks, no CSS rule gives another result
    for a screen's widgets than when the screen was last styled (see 3. above)."""
    return (
        app._css_update_count,
        frozenset(app.classes),
        frozenset(app.get_pseudo_classes()),
        app.size,
    )


def styled_as_current(app: App[Any], screen: Screen[Any]) -> None:
    """Mark ``screen`` as styled by ``app``'s current CSS (see 6. above). Only for a
    screen made before the app has mounted, whose CSS the stylesheet already holds."""
    # What the skipped restyle did that matters: the app node styled before the
    # screen's widgets, which inherit from it (their text colour, for one), are.
    app.stylesheet.apply(app)
    screen._css_update_count = app._css_update_count


def refresh_callbacks_pending(screen: Screen[Any]) -> bool:
    """Whether ``screen`` holds callbacks to run after its next refresh (see 4. above).

    True when Textual no longer keeps them where this looks: the gate then waits for a
    refresh, which is always safe.
    """
    callbacks = getattr(screen, "_callbacks", None)
    return not isinstance(callbacks, list) or bool(callbacks)


def update_pieces(update: object) -> list[Piece] | None:
    """The strips a compositor update writes, each with where (see 5. above); None for
    a renderable of another kind."""
    pieces: list[Piece] = []
    if isinstance(update, LayoutUpdate):
        for y, line in enumerate(update.strips, update.region.y):
            x = update.region.x
            for strip in line:
                pieces.append((x, y, strip))
                x += strip.cell_length
        return pieces
    if not isinstance(update, ChopsUpdate):
        return None
    # As ChopsUpdate.render_segments walks them.
    for y, x1, x2 in update.spans:
        for end, (x, chop) in zip(update.chop_ends[y], update.chops[y].items(), strict=False):
            if chop is None or x > x2 or end <= x1:
                continue
            if not (x2 > x >= x1 and end <= x2):
                chop = chop.crop(0, min(end, x2) - x)
            pieces.append((x, y, chop))
    return pieces


class _Diffed(CompositorUpdate):
    """An update of only the changed cells; the frame is kept once Textual writes it."""

    def __init__(self, text: str, keep: Callable[[], None]) -> None:
        self.text = text
        self.keep = keep

    def render_segments(self, console: Console) -> str:
        self.keep()
        return self.text

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield Segment(self.text)  # never printed: App._display calls render_segments


class FrameDiffApp(App[ReturnType]):
    """An app that writes only the cells that differ from the terminal's (see 5. above)."""

    _frame: Frame | None = None

    def on_mount(self) -> None:
        # Something else had the terminal: what it shows is unknown.
        self.app_suspend_signal.subscribe(self, self._forget_frame, immediate=True)
        self.app_resume_signal.subscribe(self, self._forget_frame, immediate=True)

    def on_resize(self, event: events.Resize) -> None:
        # A terminal may reflow or clear its cells on a resize, even back to the size
        # the frame has.
        self._forget_frame()

    def _forget_frame(self, _: object = None) -> None:
        if self._frame is not None:
            self._frame.forget(0, 0)

    def action_redraw_terminal(self) -> None:
        """Write the whole screen again (ctrl+l, as in ncurses and mosh): something
        outside the console wrote to the terminal (a message from the system, a stray
        program's output), so what it shows is no longer the frame kept."""
        self._forget_frame()
        self.screen.refresh()

    def frames_diffed(self) -> bool:
        """Whether frames are written as differences: on a terminal, in full screen (a
        headless app writes nothing; inline, Textual writes whole lines every time)."""
        return not self.is_headless and not self.is_inline

    def _display(self, screen: Screen[Any], renderable: RenderableType | None) -> None:
        pieces = update_pieces(renderable) if self.frames_diffed() else None
        if pieces is None:
            super()._display(screen, renderable)
            return
        if self._frame is None:
            self._frame = Frame()
        colours = COLOR_SYSTEMS.get(self.console.color_system or "", ColorSystem.TRUECOLOR)
        width, height = self.size
        text, keep = self._frame.prepare(width, height, pieces, colours)
        if not text:
            keep()  # nothing to write: the terminal shows it already
        super()._display(screen, _Diffed(text, keep) if text else None)
