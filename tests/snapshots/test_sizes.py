"""`sizes`: a second snapshot size only where the screen's breakpoints draw it differently."""

from __future__ import annotations

from textual.screen import Screen

from tests.snapshots.sizes import LARGE, SMALL, classes_at, size_id, sizes


class _Plain(Screen[None]):
    pass


class _Wide(Screen[None]):
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (110, "-wide")]


class _VeryWide(Screen[None]):
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (140, "-wide")]


class _Short(Screen[None]):
    VERTICAL_BREAKPOINTS = [(0, "-short"), (30, "-tall")]


def test_a_screen_without_breakpoints_is_taken_once() -> None:
    assert sizes(_Plain) == [SMALL]


def test_a_second_size_only_across_a_breakpoint() -> None:
    assert sizes(_Wide) == [SMALL, LARGE]
    assert classes_at(_Wide, SMALL) == ("-narrow", None)
    assert sizes(_VeryWide) == [SMALL]  # 80 and 120 columns: both narrow
    assert sizes(_VeryWide, SMALL, LARGE, (140, 40)) == [SMALL, (140, 40)]
    assert sizes(_Short) == [SMALL, LARGE]  # the height crosses one
    assert size_id(SMALL) == "80x24"
