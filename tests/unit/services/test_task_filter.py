"""What the Tasks list is asked for: a state, a window of time, and the page the pager
says (services/tasks.py)."""

from __future__ import annotations

from vagent_tui.services.tasks import PAGE_SIZE, STATE_CHOICES, TaskFilter


def test_the_query_of_a_page() -> None:
    query = TaskFilter(state="running", window=1).query(3, now=10_000.0)
    assert (query.limit, query.offset, query.since, query.state) == (
        PAGE_SIZE, 3 * PAGE_SIZE, 10_000 - 3600, "running",
    )  # fmt: skip
    assert TaskFilter().query(0, now=10_000.0, size=20).since is None


def test_s_and_t_cycle() -> None:
    wanted = TaskFilter()
    seen = []
    for _ in STATE_CHOICES:
        wanted = wanted.next_state()
        seen.append(wanted.state)
    assert seen == [*STATE_CHOICES[1:], None]
    assert TaskFilter(window=3).next_window().window_label == "any time"
