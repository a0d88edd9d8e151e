"""The task limits form's fields refuse what would hang or crash the console at the field."""

from __future__ import annotations

import pytest

from vagent_tui.ui.widgets.limits_form import parse_days


@pytest.mark.parametrize(
    ("text", "days"),
    [("1-5", [1, 2, 3, 4, 5]), ("1,3,5", [1, 3, 5]), ("1 2 6-7", [1, 2, 6, 7]), ("7", [7])],
)
def test_days_read(text: str, days: list[int]) -> None:
    assert parse_days(text) == days


@pytest.mark.parametrize(
    "text",
    # a range is checked before it is built: 10^9 days would hang, 10^20 overflow
    ["1-999999999", "1-99999999999999999999", "8", "0-8", "5-1", "x", "1-", "١"],
)
def test_days_refused(text: str) -> None:
    with pytest.raises(ValueError, match=r"days|first day"):
        parse_days(text)
