"""The progress of a run over many rows or accounts, shown ten times a second.

`RunProgress` is the base of the screens that run a pool of workers over a plan (Rollout
through `vagent_tui.ui.screens.rollout_runs.RolloutRuns`, and Onboard). A run reports
each row or account to `_take` (from the pool, as it comes); a timer takes what came
since the last tick, counts it, moves the screen's one `ProgressBar` and writes the
counts line again, so a run of thousands draws ten times a second, not once per report.
``x`` stops gently: no row is started, those under way end and are recorded.
"""

from __future__ import annotations

import time
from collections import Counter
from typing import ClassVar

from textual.widgets import ProgressBar

from vagent_tui.ui import format as fmt
from vagent_tui.ui.screens.base import BaseScreen

FLUSH_SECONDS = 0.1
_clock = time.monotonic
"""Measures a run (tests pin it for stable snapshots)."""


class RunProgress(BaseScreen):
    """A screen whose runs report to `_take` and are shown by a timer."""

    PLAN_GROUP: ClassVar[str]
    """The planning worker's group: ``x`` cancels it at once."""
    ABANDON_GROUP: ClassVar[str | None] = None
    """A write's worker group a second ``x`` cancels (None: the rows under way always end)."""
    STOPPING: ClassVar[str]
    """What the status line says after the first ``x`` of a write."""

    def __init__(self) -> None:
        super().__init__()
        self.phase = ""
        """The run under way (``plan``, a write's name), or ``""``."""
        self._incoming: list[object] = []
        self._tally: Counter[str] = Counter()
        self._done = 0
        self._total = 0
        self._started = 0.0
        self._stopping = False
        """``x`` during a write: no row is started, those under way end."""

    def on_mount(self) -> None:
        self._flusher = self.set_interval(FLUSH_SECONDS, self._flush, pause=True)
        self.query_one(ProgressBar).display = False

    def _summary(self) -> None:
        """Write the counts line again (the run's progress while one is under way)."""
        raise NotImplementedError

    def _reported(self, item: object) -> str:
        """Show one report where it changes a row; what it counts as in the tally."""
        raise NotImplementedError

    def _counts(self) -> str:
        """The run's tally: ``3 written, 1 failed`` (empty before the first report)."""
        return ", ".join(f"{n:,} {k}" for k, n in sorted(self._tally.items()))

    def _run_text(self) -> str:
        """The progress line of the run under way."""
        rate = self._done / max(_clock() - self._started, 0.001)
        counts = self._counts()
        text = f"{self.phase}: {self._done:,}/{self._total:,} · {rate:,.0f}/s"
        return text + (f" · {counts}" if counts else "")

    def _elapsed(self) -> str:
        """How long the run took, with its rate: ``0.4 s, 120/s``."""
        seconds = max(_clock() - self._started, 0.0)
        took = f"{seconds:.1f} s" if seconds < 10 else fmt.fmt_duration(seconds)
        return f"{took}, {self._done / seconds:,.0f}/s" if seconds >= 0.05 else took

    def _begin(self, phase: str, total: int) -> None:
        self.phase = phase
        self._incoming = []
        self._tally = Counter()
        self._done, self._total, self._started = 0, total, _clock()
        self._stopping = False
        bar = self.query_one(ProgressBar)
        bar.update(total=total or None, progress=0)
        bar.display = True
        self._summary()
        self.refresh_bindings()
        self._flusher.resume()

    def _end(self) -> None:
        self._flush()
        self._flusher.pause()
        self.phase = ""
        self.query_one(ProgressBar).display = False
        self.refresh_bindings()
        self._summary()

    def _take(self, item: object) -> None:
        """A run's report, shown at the next tick."""
        self._incoming.append(item)

    def _flush(self) -> None:
        """Take what the run reported since the last tick: counts, bar, changed rows."""
        batch, self._incoming = self._incoming, []
        if not batch:
            if self.phase:
                self._summary()  # the rate moves on
            return
        with self.app.batch_update():
            for item in batch:
                self._done += 1
                self._tally[self._reported(item)] += 1
            self.query_one(ProgressBar).update(progress=self._done)
            self._summary()

    def action_cancel(self) -> None:
        """Planning stops at once; a write stops starting rows, and the ones under way
        end with their result (a second ``x`` abandons them where `ABANDON_GROUP` says)."""
        if self.phase == "plan":
            self.workers.cancel_group(self, self.PLAN_GROUP)
        elif self.phase and not self._stopping:
            self._stopping = True
            self.status.busy(self.STOPPING)
        elif self.phase and self.ABANDON_GROUP is not None:
            self.workers.cancel_group(self, self.ABANDON_GROUP)
