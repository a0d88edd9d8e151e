"""Python's cycle collector, paused while the console starts.

Starting the console makes several hundred thousand objects that live as long as the
process (modules, classes, styles, widgets), and the collector walks them again and
again while they are made: about 50 ms of a 480 ms start on the demo, with nothing to
collect. The command line pauses it before anything is imported (`pause`); the app
resumes it half a second after it has mounted (`resume`), by when the first frame is
out on the demo. Nothing is frozen: a cycle made at start-up that becomes garbage later
(the first tree after ``r``, a client left by a profile switch) is still collected.

Only a pause made here is resumed: an app run by the tests or a benchmark, which
never paused, keeps the collector as it was.
"""

from __future__ import annotations

import gc

_paused = False


def pause() -> None:
    """Stop collecting cycles until `resume` (no effect if collection is already off)."""
    global _paused
    if gc.isenabled():
        gc.disable()
        _paused = True


def resume() -> None:
    """Collect cycles as usual again, if `pause` paused."""
    global _paused
    if _paused:
        _paused = False
        gc.enable()


def paused() -> bool:
    return _paused
