"""Python's cycle collector, paused while the console starts.

Starting the console makes several hundred thousand objects that live as long as the
process (modules, classes, styles, widgets), and the collector walks them again and
again while they are made: about 50 ms of a 480 ms start on the demo, with nothing to
collect. The command line pauses it before anything is imported (`pause`); the app
resumes it once its first frame is out (`resume`). Resuming first collects once and
then freezes what start-up made, so later full collections skip those objects too.

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


def resume(*, tidy: bool = True) -> None:
    """Collect as usual again, if `pause` paused; ``tidy``: first collect once and freeze
    the survivors (not worth it on the way out)."""
    global _paused
    if _paused:
        _paused = False
        if tidy:
            gc.collect()
            gc.freeze()
        gc.enable()


def paused() -> bool:
    return _paused
