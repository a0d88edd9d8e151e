"""``/`` filters the rows of every screen with a table (ui/widgets/table_filter.py):
the words typed narrow the rows, Esc shows them all again, and what a key does (the
detail, a delete) acts on the row highlighted among those shown."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from textual.binding import Binding
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import Static

from tests.helpers import (
    DEMO_ACCOUNT_FOR,
    MakeApp,
    known,
    original_key,
    settle,
    shown,
    sim_of,
    wait_for,
)
from vagent_tui.services.connect import demo_client
from vagent_tui.ui.app import VagentApp
from vagent_tui.ui.dialogs import ConfirmModal
from vagent_tui.ui.keys import screen_class
from vagent_tui.ui.registry import SCREENS
from vagent_tui.ui.screens.rollout import RolloutScreen
from vagent_tui.ui.screens.sip import SipScreen
from vagent_tui.ui.widgets.migration_rows import TasksTable
from vagent_tui.ui.widgets.record_table import RecordTable
from vagent_tui.ui.widgets.table_filter import FilterInput, FilterRow
from vagent_tui.ui.widgets.tables import SafeTable

Table = SafeTable | RecordTable[Any]


def _keys(table: Table) -> list[str | None]:
    """The keys of the rows shown, in order."""
    if isinstance(table, RecordTable):
        return [table.record_key(table.records[index]) for index in table._shown]
    return [row.key.value for row in table.ordered_rows]


def _highlighted(table: Table) -> str | None:
    if isinstance(table, RecordTable):
        record = table.highlighted_record
        return None if record is None else table.record_key(record)
    return table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value


async def _filter(pilot: Pilot[None], text: str) -> FilterRow:
    await pilot.press("slash")
    await settle(pilot)
    field = pilot.app.screen.focused
    assert isinstance(field, FilterInput)
    await pilot.press(*text)
    await settle(pilot)
    row = field.parent
    assert isinstance(row, FilterRow)
    return row


def _count(row: FilterRow) -> str:
    return str(row.query_one(".table-filter-count", Static).content)


async def test_sip_filter_narrows_restores_and_delete_targets_the_shown_row(
    make_app: MakeApp,
) -> None:
    app = make_app("sip")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, SipScreen)
        table = screen.table
        everything = _keys(table)
        assert len(everything) == 2
        row = await _filter(pilot, "BACK")  # any case: "Backup trunk"
        assert _keys(table) == ["198.51.100.107"]
        assert _count(row) == "1 of 2 rows"
        assert known(screen.highlighted).ip == "198.51.100.107"
        await pilot.press("enter")  # back to the table, still filtered
        await settle(pilot)
        assert screen.focused is table
        assert _keys(table) == ["198.51.100.107"]
        await pilot.press("d")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmModal)
        assert "198.51.100.107" in app.screen.body_text
        await pilot.click("#confirm")
        await settle(pilot)
        assert [e["ip"] for e in sim_of(app).sip[1000]] == ["203.0.113.1"]  # the shown one went
        assert _keys(table) == []  # the filter stays on the rows loaded again
        assert _count(row) == "0 of 1 row"
        await pilot.press("slash")
        await settle(pilot)
        await pilot.press("escape")  # clears the filter and hides its row
        await settle(pilot)
        assert _keys(table) == ["203.0.113.1"]
        assert not row.display
        assert screen.focused is table


def _words(table: Table, key: str | None) -> str:
    if isinstance(table, RecordTable):
        cells: list[Any] = table.get_row_at(_keys(table).index(key))
    else:
        cells = table.get_row(key or "")
    return " ".join(c.plain if hasattr(c, "plain") else str(c) for c in cells).lower()


def _functions_pick(screen: Any) -> str | None:
    return screen.highlighted.name if screen.highlighted else None


def _inbox_pick(screen: Any) -> str | None:
    room = screen._current_room()
    return room.room_id if room else None


LIST_PICKS: dict[str, Callable[[Any], str | None]] = {
    "functions-table": _functions_pick,
    "inbox-table": _inbox_pick,
}
"""What the screen acts on, for the tables that are no `RecordTable` yet (whose screens
keep the rows' items themselves); a `RecordTable`'s is its `highlighted_record`."""


def _record_pick(table: RecordTable[Any]) -> Callable[[Any], str | None]:
    def pick(_screen: Any) -> str | None:
        record = table.highlighted_record
        return None if record is None else table.record_key(record)

    return pick


def _filters_rows(screen: type[Any]) -> bool:
    """Whether ``/`` of the screen filters its rows (`filter_binding`; Voices' ``/`` goes
    to its own search fields)."""
    return any(
        isinstance(b, Binding) and b.action == "focus_filter"
        for klass in screen.__mro__
        for b in vars(klass).get("BINDINGS", ())
    )


FILTERING = [info for info in SCREENS if _filters_rows(screen_class(info))]
"""The registered screens whose ``/`` filters rows (read from their keys: none to list)."""


def _filterable(screen: Any) -> list[Table]:
    """The tables on show with two rows or more."""
    found: list[Table] = []
    for table in [*screen.query(SafeTable), *screen.query(RecordTable)]:
        shown_now = all(n.display for n in table.ancestors_with_self if isinstance(n, Widget))
        if shown_now and table.row_count >= 2:
            found.append(table)
    return found


async def test_slash_narrows_the_rows_of_every_screen_and_it_acts_on_the_row_shown() -> None:
    """Every registered screen whose ``/`` filters rows, each on the demo account it
    shows best: every table on show with two rows or more is narrowed by ``/`` and
    restored by Esc."""
    app = VagentApp(demo_client(rooms=30), profile_label="demo", initial_screen="scope")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        narrowed = []
        for info in FILTERING:
            app.select_target(DEMO_ACCOUNT_FOR.get(info.name))
            await settle(pilot)
            app.action_show(info.name)
            await settle(pilot)
            for table in _filterable(app.screen):
                table.focus()
                await settle(pilot)
                if isinstance(table, RecordTable):
                    pick: Callable[[Any], str | None] | None = _record_pick(table)
                else:
                    pick = LIST_PICKS.get(table.id or "")
                await _narrow_and_restore(pilot, f"#{table.id}", pick)
                narrowed.append(table.id)
        assert set(LIST_PICKS) <= set(narrowed), "a pick for a table no screen shows"


async def _narrow_and_restore(pilot: Pilot[None], table_id: str, pick: Any) -> None:
    """``/`` + a word of the last row: only rows holding it; the screen's highlighted
    item is the row highlighted among them; Esc shows every row again."""
    screen = pilot.app.screen
    table = screen.query_one(table_id)
    assert isinstance(table, SafeTable | RecordTable)
    everything = _keys(table)
    assert len(everything) >= 2
    # a word of the last row that the first row does not hold
    last, first = everything[-1], everything[0]
    word = next(
        w for w in re.findall("[a-z0-9]+", _words(table, last)) if w not in _words(table, first)
    )
    row = await _filter(pilot, word.upper())
    shown = _keys(table)
    assert last in shown and first not in shown
    assert all(word in _words(table, key) for key in shown)
    assert _count(row) == f"{len(shown)} of {len(everything)} rows"
    await pilot.press("enter")  # back in the table, the rows still filtered
    await settle(pilot)
    assert screen.focused is table and _keys(table) == shown
    await pilot.press(*["down"] * len(shown))  # to the last row shown (G pages on Inbox)
    await settle(pilot)
    highlighted = _highlighted(table)
    assert highlighted == shown[-1]
    assert pick is None or pick(screen) == original_key(highlighted)
    await pilot.press("slash", "escape")
    await settle(pilot)
    assert _keys(table) == everything
    assert not row.display and screen.focused is table
    assert _highlighted(table) == highlighted
    assert pick is None or pick(screen) == original_key(highlighted)  # the cursor stayed


def _room_pick(screen: Any) -> str | None:
    message = screen._current()
    return None if message is None else f"{screen.thread.page}:{screen.thread.shown.index(message)}"


async def test_room_filters_the_messages_of_its_page(make_app: MakeApp) -> None:
    app = make_app("inbox", account=1111, rooms=30)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert type(app.screen).__name__ == "RoomScreen"
        await _narrow_and_restore(pilot, "#room-table", _room_pick)
        await pilot.press("slash")
        await settle(pilot)
        assert "this page only" in app.screen.query_one(FilterInput).placeholder
        await pilot.press("n")  # typed in the field, not the next page
        await settle(pilot)
        assert app.screen.query_one(FilterInput).value == "n"


def _relay_pick(screen: Any) -> str | None:
    return screen.highlighted_relay.name if screen.highlighted_relay else None


async def test_webhooks_relays_tab_filters_its_own_table(make_app: MakeApp) -> None:
    app = make_app("webhooks")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("t")
        await settle(pilot)
        app.screen.query_one("#relay-table", RecordTable).focus()
        await settle(pilot)
        await _narrow_and_restore(pilot, "#relay-table", _relay_pick)


def _rollout_pick(screen: Any) -> str | None:
    plan = screen.table.highlighted()
    return None if plan is None else str(plan.account_id)


async def test_rollout_filters_its_plan(make_app: MakeApp) -> None:
    from tests.pilot.test_rollout import VOICE, planned

    app = make_app("rollout")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await planned(pilot, voice=VOICE)
        shown(app, RolloutScreen).table.focus()
        await settle(pilot)
        await _narrow_and_restore(pilot, "#rollout-table", _rollout_pick)


async def test_migrations_tasks_filter_and_draw_the_rows_shown(make_app: MakeApp) -> None:
    from tests.pilot.test_migrations import reseller_app, start

    app = reseller_app(make_app)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        await start(pilot)  # Dental reception, dry run
        await pilot.press("down", "down")  # After-hours answering
        await start(pilot)
        # The tasks never end on the frozen clock: their polls would keep every wait
        # below busy until it gives up. The rows are the watcher's, polled or not.
        await wait_for(pilot, lambda: len(app.watcher.tasks) == 2)
        for worker in list(app.workers):
            if worker.group.startswith("watch-"):
                worker.cancel()
        await settle(pilot)
        dental, after = app.watcher.tasks.values()
        table = screen.query_one("#mig-tasks", TasksTable)
        table.focus()
        await settle(pilot)
        row = await _filter(pilot, "after")
        assert _keys(table) == [after.task_id]
        assert _count(row) == "1 of 2 rows"
        assert table.highlighted_id == after.task_id
        line = "".join(s.text for s in table.render_line(table.header_height))
        assert "After-hours" in line  # the shown row drawn as its own task's
        await pilot.press("escape")
        await settle(pilot)
        assert _keys(table) == [dental.task_id, after.task_id]
