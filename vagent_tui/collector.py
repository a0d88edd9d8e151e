"""Python's cycle collector, paused while the console starts.

Starting the console makes several hundred thousand objects that live as long as the
process (modules, classes, styles, widgets), and the collector walks them again and
again while they are made: about 50 ms of a 480 ms start on the demo, with nothing to
collect. The command line pauses it before anything is imported (`pause`); the app
resumes it half a second after it has mounted (`resume`), by when the first frame is
out on the demo. Nothing is frozen: a cycle made at start-up that becomes garbage later
(the first tree after ``r``, a client left by a profile switch) is still collected.

A command does the same (`vagent_tui.cli.main`): it resumes once connected
(`vagent_tui.commands.runner`), with the running thresholds below.

Only a pause made here is resumed: an app run by the tests or a benchmark, which
never paused, keeps the collector as it was.

Once running, the console keeps a full collection off its keys while the user types. A
full collection the interpreter starts by itself walks every object that has survived a
collection, and may fall on a key: at Scope's filter over 100,000 agents one took ~100 ms
of CPU on a key (the slowest key of bench/scope.py). So a short pause after a key
(`ui.app.PAUSE_SECONDS`) sets aside what exists (`set_aside`: `gc.freeze`, which costs
nothing), and a collection on the next key walks only what was made since; a second
without keys gives it back (`give_back`: `gc.unfreeze`, as cheap), so a cycle that
became garbage is still collected, by the interpreter's own collections. Nothing is
collected here: on a large heap a full collection made at a pause took 0.3 s, and a key
came while it ran. Only a console whose collector was paused here does either.

Once started, such a console also collects its youngest objects less often
(`RUNNING_THRESHOLDS`): the interpreter's default looks at them every 700 new
containers, and the console makes containers by the thousand per reply (a rollout plan
reads two configurations of ~70 fields per account). At 1,000 accounts those
collections were ~0.1 ms of CPU per account planned, a fifth of the console's own; one
every 10,000 containers leaves ~0.01 ms. Garbage cycles wait a little longer (a few
MB at most); `release` gives back the thresholds found.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

_paused = False
_managed = False
"""The command line paused the collector here: `set_aside` may freeze."""

_set_aside = False
"""Objects are set aside (frozen) until `give_back`."""

RUNNING_THRESHOLDS = (10_000, 10, 10)
"""The collector's thresholds in a started console (the interpreter's: 700, 10, 10)."""

_thresholds_found: tuple[int, int, int] | None = None
"""The thresholds `resume` replaced, given back by `release`."""


@contextmanager
def starting() -> Iterator[None]:
    """A program starting (the console, a command): collection paused (`pause`) until
    the program resumes it, and at the end resumed (if it has not been) and `release`d."""
    pause()
    try:
        yield
    finally:
        resume()
        release()


def pause() -> None:
    """Stop collecting cycles until `resume` (no effect if collection is already off)."""
    global _paused, _managed
    if gc.isenabled():
        gc.disable()
        _paused = _managed = True


def resume() -> None:
    """Collect cycles again, if `pause` paused, the youngest less often than the
    interpreter would (`RUNNING_THRESHOLDS`)."""
    global _paused, _thresholds_found
    if _paused:
        _paused = False
        if _thresholds_found is None:
            _thresholds_found = gc.get_threshold()
            gc.set_threshold(*RUNNING_THRESHOLDS)
        gc.enable()


def _running() -> bool:
    return _managed and not _paused and gc.isenabled()


def set_aside() -> None:
    """Out of the collector's walks until `give_back`: every object now (the caller
    knows the input pauses). Only in a console whose collector was paused here."""
    global _set_aside
    if _running():
        gc.freeze()  # cheap: the collector's lists are joined, not walked
        _set_aside = True


def give_back() -> None:
    """What `set_aside` set aside is walked by the collector again (typing is over): a
    cycle that became garbage meanwhile is collected as usual. No collection is made
    here: on a large heap one takes a tenth of a second or more, and the next key could
    come while it runs (the Fleet screen's keys while 100,000 accounts are asked)."""
    global _set_aside
    if _set_aside:
        gc.unfreeze()  # cheap as freeze: the lists are joined
        _set_aside = False


def release() -> None:
    """The console has ended: nothing set aside any more, and no more of either."""
    global _managed, _set_aside, _thresholds_found
    if _managed:
        _managed = _set_aside = False
        gc.unfreeze()
    if _thresholds_found is not None:
        gc.set_threshold(*_thresholds_found)
        _thresholds_found = None


def ending() -> None:
    """The program has done its work and hands back to the interpreter to end: what
    exists now is left to the operating system (`gc.freeze`).

    Ending, the interpreter collects cycles once more and again as it clears the
    modules, and those walks went over everything the program made: after a JSON-lines
    export of 50,000 calls, 0.11 s between the last line written and the process's end,
    0.02 s with this (bench/cli_exports.py). Only the entry point calls it, once
    everything is written and closed (files by ``with``, the terminal given back, the
    event loop closed); a cycle still unreachable is freed with the process, as is the
    rest. Tests calling `vagent_tui.cli.main` leave their own process's collector be.
    """
    gc.freeze()


def paused() -> bool:
    return _paused
