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

Once running, the console keeps a full collection off its keys. A full collection the
interpreter starts by itself walks every object that has survived a collection, and may
fall on a key: at Scope's filter over 100,000 agents one took ~100 ms of CPU on a key
(the slowest key of bench/scope.py). So at each short pause of the input the console
sets aside what exists (`set_aside`: `gc.freeze`, which costs nothing), and such a
collection walks only what was made since; at a longer pause it collects everything,
then sets aside what survives (`tidy`). Nothing stays frozen past the next longer pause,
so a cycle that became garbage (the first tree after ``r``, a client left by a profile
switch) is still collected. Only a console whose collector was paused here does either.
"""

from __future__ import annotations

import gc

_paused = False
_managed = False
"""The command line paused the collector here: `tidy` may collect and freeze."""

_set_aside = False
"""Objects were set aside since the last `tidy` (else it has nothing to do: an idle
console does not walk all its objects again and again)."""


def pause() -> None:
    """Stop collecting cycles until `resume` (no effect if collection is already off)."""
    global _paused, _managed
    if gc.isenabled():
        gc.disable()
        _paused = _managed = True


def resume() -> None:
    """Collect cycles as usual again, if `pause` paused."""
    global _paused
    if _paused:
        _paused = False
        gc.enable()


def _running() -> bool:
    return _managed and not _paused and gc.isenabled()


def set_aside() -> None:
    """Out of the collector's walks until the next `tidy`: every object now (the caller
    knows the input pauses). Only in a console whose collector was paused here."""
    global _set_aside
    if _running():
        gc.freeze()  # cheap: the collector's lists are joined, not walked
        _set_aside = True


def tidy() -> bool:
    """A full collection now (the caller knows nobody waits), what survives it set aside
    until the next one; whether it was made: only in a console whose collector was
    paused here, and only when objects were set aside since the last one."""
    global _set_aside
    if not _running() or not _set_aside:
        return False
    gc.unfreeze()
    gc.collect()
    gc.freeze()
    _set_aside = False
    return True


def release() -> None:
    """The console has ended: nothing set aside any more, and no more of either."""
    global _managed, _set_aside
    if _managed:
        _managed = _set_aside = False
        gc.unfreeze()


def paused() -> bool:
    return _paused
