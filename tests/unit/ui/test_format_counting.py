"""A time still counting, as a list of many shows it."""

from __future__ import annotations

import pytest

from vagent_tui.ui.format import fmt_counting, fmt_duration


@pytest.mark.parametrize(
    ("seconds", "shown"),
    [(-3, "0s"), (0, "0s"), (59.9, "59s"), (60, "1m"), (119, "1m"), (120, "2m"),
     (3599, "59m"), (3600, "1h00m"), (3900, "1h05m"), (90061, "25h01m")],
)  # fmt: skip
def test_seconds_in_the_first_minute_then_minutes(seconds: float, shown: str) -> None:
    assert fmt_counting(seconds) == shown


def test_it_changes_once_a_minute_after_the_first() -> None:
    changes = sum(fmt_counting(s) != fmt_counting(s - 1) for s in range(61, 3600))
    assert changes == 58  # 2m ... 59m
    assert fmt_duration(65) == "1m05s"  # an ended task's total keeps its seconds
