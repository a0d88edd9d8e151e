"""What the Calls screen holds besides its pager, and the header lines of Calls and Tasks,
without an app (ui/screens/calls_state.py, tasks_parts.py)."""

from __future__ import annotations

from vagent_tui.api.log_models import LogEntry
from vagent_tui.services.calls import CallFilters
from vagent_tui.ui.screens.calls_state import CallsPager, CallsView, filters_line, header_line


def pager_on(page: int, total: int, size: int = 50) -> CallsPager:
    pager: CallsPager = CallsPager.of(CallFilters(account_id=7), size)
    ask = pager.ask(page)
    pager.settle(ask, [LogEntry(id=str(n)) for n in range(size)], total)
    return pager


def test_whose_calls() -> None:
    view = CallsView(filters=CallFilters(status="failed"))
    assert view.query(7) == CallFilters(status="failed", account_id=7)
    view.asked_account = 9
    assert view.account(7) == 9
    view.whole_tree = True
    assert view.account(7) is None and view.query(7).account_id is None


def test_the_header_says_the_page_and_what_is_on_its_way() -> None:
    view = CallsView()
    pager = pager_on(1, 1234)
    line = str(header_line(pager, view))
    assert line == "Calls · 51–100 of 1,234 · page 2 of 25 · 50/page · local time"
    pager.ask(2)
    assert str(header_line(pager, view)).endswith(" · → page 3")
    pager.fail(pager.wanted)
    assert "✗ not loaded (r: retry)" in str(header_line(pager, view))
    empty: CallsPager = CallsPager.of(CallFilters(), 50)
    assert str(header_line(empty, view)) == "Calls · … · 50/page · local time"


def test_the_header_says_the_follow() -> None:
    view = CallsView(local=False, following=True, new_count=3, follow_note="— not answering")
    line = str(header_line(pager_on(0, 10), view))
    assert line.endswith(" · UTC · following (3 new calls: g to see) — not answering")
    view.stop_following()
    assert "following" not in str(header_line(pager_on(0, 10), view))


def test_the_filter_line() -> None:
    assert str(filters_line(CallFilters(account_id=7), local=True)) == (
        "Filters: last 7 days · account #7"
    )
    line = str(filters_line(CallFilters(status="failed"), local=True))
    assert (
        line
        == "Filters: last 7 days · every account below the key · status=failed   (x or esc: clear)"
    )


def test_the_tasks_header_says_the_page_on_show_and_the_filters_asked() -> None:
    from vagent_tui.api.models import OutboundTask
    from vagent_tui.services.paging import Pager
    from vagent_tui.services.tasks import TaskFilter
    from vagent_tui.ui.screens.tasks_parts import header_line as tasks_header

    pager: Pager[TaskFilter, OutboundTask] = Pager.of(TaskFilter(), 50)
    assert str(tasks_header(pager)) == "Tasks · state: all · changed: any time · 50/page"
    pager.settle(pager.ask(1), [OutboundTask()], 120)
    pager.ask(0, query=TaskFilter(state="running"))
    assert str(tasks_header(pager)) == (
        "Tasks · 120 tasks · page 2 of 3 · state: running · changed: any time · 50/page"
    )
