"""Hostile platform text on Scope, Agent, Voices, Functions, Junk inbox and Fleet.

Strings with escape sequences (OSC 52 writes the clipboard, ``ESC[2J`` clears the
screen), markup (``[@click=...]`` runs an action, a lone ``[/]`` ended the app), a bidi
override and a newline are planted in the simulator's data. Every screen shows them
inert (control pictures, ``⟨U+202E⟩``, ``⏎``, the brackets literally), no raw escape
character from the data reaches the screen, no action runs and the app keeps running.
Repeated keys keep every row, and lists past the display cap say what they left out.
"""

from __future__ import annotations

import html
import io
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from rich.console import Console
from textual.widgets import DataTable, Select, Static

from tests.helpers import MakeApp, fail_once, known, settle, shown, sim_of, wait_for
from vagent_tui import inert as inert_module
from vagent_tui.sim import catalog, routes_agents
from vagent_tui.sim import inbox as sim_inbox
from vagent_tui.ui import caps
from vagent_tui.ui.screens.agent import AgentScreen
from vagent_tui.ui.screens.fleet import FleetScreen
from vagent_tui.ui.screens.inbox import InboxScreen
from vagent_tui.ui.widgets import account_tree, fleet_matrix
from vagent_tui.ui.widgets.tables import ROW_CAP

HOSTILE = "\x1b]52;c;SGFja2Vk\x07\x1b[2J[@click=app.screenshot()]x[/]\u202e[/]\nZ"
SHOWN = "␛]52;c;SGFja2Vk␇␛[2J[@click=app.screenshot()]x[/]⟨U+202E⟩[/]⏎Z"
"""`HOSTILE` as one line of inert text."""
AGENT = 1111


def screen_text(app: Any) -> str:
    return html.unescape(app.export_screenshot()).replace("\xa0", " ")


def static_text(app: Any, selector: str) -> str:
    console = Console(width=400, file=io.StringIO(), record=True)
    console.print(app.screen.query_one(selector, Static).content)
    return console.export_text()


def no_raw_controls(text: str) -> None:
    for char in ("\x1b", "\x07", "\u202e"):
        assert char not in text, f"{char!r} from the data reached the screen"


def watch_actions(app: Any) -> list[str]:
    """Record any run of ``app.screenshot`` (what the planted ``@click`` would run)."""
    calls: list[str] = []
    app.action_screenshot = lambda *args, **kwargs: calls.append("screenshot")
    return calls


# ---------------------------------------------------------------------------- planting


def hostile_voices(*extra: dict[str, Any]) -> list[dict[str, Any]]:
    """A copy of the catalog's voices with a hostile first voice (and ``extra`` appended)."""
    voices = [dict(v) for v in catalog.VOICES]
    voices[0].update(
        name=HOSTILE,
        description=HOSTILE,
        languages=["[@click=app.screenshot()]x[/]", "\x1b[2J"],
        compatibleS2SEngines=["[/]"],
    )
    return voices + list(extra)


def plant_functions(monkeypatch: pytest.MonkeyPatch, change: Callable[[list[Any]], None]) -> None:
    """The simulator's functions list, changed by ``change`` (the module is left alone)."""
    real = catalog.functions_for

    def functions(account: Any) -> list[dict[str, Any]]:
        out = [dict(f) for f in real(account)]
        change(out)
        return out

    monkeypatch.setattr(routes_agents, "functions_for", functions)


def hostile_first_function(out: list[dict[str, Any]]) -> None:
    out[0].update(label=HOSTILE, details=HOSTILE, reason=HOSTILE, allowed=False)


def plant_rooms(monkeypatch: pytest.MonkeyPatch, change: Callable[[dict[str, Any]], None]) -> None:
    real = sim_inbox.room

    def room(account_id: int, i: int, total: int, *, salt: int = 0) -> dict[str, Any]:
        out = real(account_id, i, total, salt=salt)
        change(out)
        return out

    monkeypatch.setattr(sim_inbox, "room", room)


def plant(app: Any, screen: str, monkeypatch: pytest.MonkeyPatch) -> None:
    sim = sim_of(app)
    sim.accounts[1000].name = HOSTILE  # the key owner: the header of every screen
    if screen == "scope":
        sim.accounts[1100].name = HOSTILE
    elif screen == "agent":
        live = sim.live[AGENT]
        live.update(title=HOSTILE, welcomeMessage=HOSTILE, agentInstructions=HOSTILE)
        live[HOSTILE] = HOSTILE  # a field the spec does not name: its name is shown too
        sim.versions[AGENT][0]["title"] = HOSTILE
    elif screen == "voices":
        monkeypatch.setattr(catalog, "VOICES", hostile_voices())
    elif screen == "functions":
        plant_functions(monkeypatch, hostile_first_function)
    elif screen == "inbox":

        def change(room: dict[str, Any]) -> None:
            room.update(name=HOSTILE, lastMessage=HOSTILE, unregistered=False)
            room[HOSTILE] = HOSTILE

        plant_rooms(monkeypatch, change)
    elif screen == "fleet":
        sim.accounts[1111].name = HOSTILE


SCREENS = {
    "scope": None,
    "agent": AGENT,
    "voices": None,
    "functions": AGENT,
    "inbox": AGENT,
    "fleet": None,
}


@pytest.mark.parametrize("screen", list(SCREENS))
async def test_hostile_text_is_shown_inert(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch, screen: str
) -> None:
    app = make_app(screen, account=SCREENS[screen])
    plant(app, screen, monkeypatch)
    calls = watch_actions(app)
    async with app.run_test(size=(220, 50)) as pilot:
        await settle(pilot)
        if screen == "agent":
            await pilot.press("v")  # the saved versions
            await settle(pilot)
        text = screen_text(app)
        assert SHOWN in text, f"{screen}: the planted text is not shown inert"
        no_raw_controls(text)
        if screen == "agent":
            await pilot.press("c")  # back to the configuration
            await settle(pilot)
            fields = static_text(app, "#agent-fields")
            no_raw_controls(fields)
            # The instructions keep their lines; the title and an extra's value are one line.
            lines = [line.rstrip() for line in fields.splitlines()]
            at = next(i for i, line in enumerate(lines) if line.startswith("agentInstructions"))
            assert lines[at].endswith("[@click=app.screenshot()]x[/]⟨U+202E⟩[/]")
            assert lines[at + 1].strip() == "Z"
            assert SHOWN in fields
            await pilot.press("J")
            await settle(pilot)
            raw = static_text(app, "#agent-json")
            no_raw_controls(raw)
            assert "⟨U+202E⟩" in raw
        if screen in ("voices", "functions", "inbox"):
            await pilot.press("down", "up")  # highlight moves: the detail pane redraws
            await settle(pilot)
            no_raw_controls(screen_text(app))
        assert app.is_running
        assert app.return_code is None
    assert calls == []


async def test_voices_filter_option_with_markup_is_inert(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Opening the language filter and picking a hostile option runs nothing, ends nothing."""
    monkeypatch.setattr(catalog, "VOICES", hostile_voices())
    app = make_app("voices")
    calls = watch_actions(app)
    async with app.run_test(size=(160, 40)) as pilot:
        await settle(pilot)
        for select_id, shown in (
            ("#voices-language", "[@click=app.screenshot()]x[/]"),
            ("#voices-engine", "S2S: [/]"),
        ):
            select = app.screen.query_one(select_id, Select)
            select.focus()
            await pilot.press("enter")  # open the options
            await settle(pilot)
            assert select.expanded
            assert shown in screen_text(app)
            options = [str(value) for _, value in select._options]
            hostile = next(v for v in options if "[" in v)
            await pilot.press(*["down"] * options.index(hostile), "enter")
            await settle(pilot)
            assert select.value == hostile
            text = screen_text(app)
            assert shown in text
            no_raw_controls(text)
            table = app.screen.query_one("#voices-table", DataTable)
            assert table.row_count == 1  # the hostile voice, filtered by its own language
            await pilot.press("x")  # clear the filters
            await settle(pilot)
        assert app.is_running and app.return_code is None
    assert calls == []


# ---------------------------------------------------------------------------- repeated keys


async def test_two_voices_of_one_id_are_two_rows(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    twin = {**catalog.VOICES[0], "name": "Twin of Alloy"}
    monkeypatch.setattr(catalog, "VOICES", [*catalog.VOICES, twin])
    app = make_app("voices")
    async with app.run_test(size=(160, 40)) as pilot:
        await settle(pilot)
        table = app.screen.query_one("#voices-table", DataTable)
        assert table.row_count == len(catalog.VOICES)
        assert "Loading" not in screen_text(app)
        table.move_cursor(row=table.row_count - 1)
        await settle(pilot)
        assert "Twin of Alloy" in static_text(app, "#voices-detail")


async def test_two_functions_of_one_name_are_two_rows(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    def twin(out: list[dict[str, Any]]) -> None:
        out.append({**out[0], "label": "Twin of the first"})

    plant_functions(monkeypatch, twin)
    app = make_app("functions", account=AGENT)
    async with app.run_test(size=(160, 40)) as pilot:
        await settle(pilot)
        table = app.screen.query_one("#functions-table", DataTable)
        assert table.row_count == len(catalog.FUNCTIONS) + 1
        assert "Loading" not in screen_text(app)
        table.move_cursor(row=table.row_count - 1)
        await settle(pilot)
        assert "Twin of the first" in static_text(app, "#functions-detail")


async def test_two_rooms_of_one_room_id_are_two_rows(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    def same_id(room: dict[str, Any]) -> None:
        room["roomId"] = "same"

    plant_rooms(monkeypatch, same_id)
    app = make_app("inbox", account=AGENT, rooms=30)
    async with app.run_test(size=(160, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, InboxScreen)
        table = screen.query_one("#inbox-table", DataTable)
        assert table.row_count == 20  # the first page, every room of it
        table.move_cursor(row=3)
        await settle(pilot)
        rooms = known(screen.pager.shown).items
        assert screen._current_room() is rooms[3]
        name = known(rooms[3].name)
        assert name in static_text(app, "#inbox-detail-text")


async def test_two_saved_versions_of_one_id_are_two_rows(make_app: MakeApp) -> None:
    app = make_app("agent", account=AGENT)
    versions = sim_of(app).versions[AGENT]
    versions.append({**versions[0], "title": "Twin version"})
    async with app.run_test(size=(160, 40)) as pilot:
        await settle(pilot)
        await pilot.press("v")
        table = app.screen.query_one("#agent-versions", DataTable)
        assert table.row_count == len(versions)
        table.move_cursor(row=table.row_count - 1)
        await settle(pilot)
        version = shown(app, AgentScreen).highlighted_version()
        assert version is not None and version.title == "Twin version"


# ---------------------------------------------------------------------------- failures


async def test_agent_load_failure_says_what_failed(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Not a platform error: the slot line says it failed instead of "Loading…" forever."""
    from vagent_tui.ui.screens import agent as agent_screen

    fail_once(monkeypatch, agent_screen, "load_agent", RuntimeError("boom in the loader"))
    app = make_app("agent", account=AGENT)
    async with app.run_test(size=(160, 40)) as pilot:
        await settle(pilot)
        slot = static_text(app, "#agent-slot")
        assert "Loading" not in slot
        assert "Could not load the configuration" in slot and "boom in the loader" in slot
        assert "boom in the loader" in screen_text(app)  # the status line too
        await pilot.press("r")
        await settle(pilot)
        assert "cfg-1111" in static_text(app, "#agent-slot")


# ---------------------------------------------------------------------------- caps


async def test_voices_past_the_cap_show_the_first_and_say_how_many_more(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    base = catalog.VOICES[0]
    many = [{**base, "id": f"v{i}", "name": f"Voice {i}"} for i in range(ROW_CAP + 7)]
    monkeypatch.setattr(catalog, "VOICES", many)
    app = make_app("voices")
    async with app.run_test(size=(160, 40)) as pilot:
        await settle(pilot, rounds=200)
        table = app.screen.query_one("#voices-table", DataTable)
        assert table.row_count == ROW_CAP
        count = static_text(app, "#voices-count")
        assert f"{ROW_CAP + 7:,} of {ROW_CAP + 7:,} voices" in count
        assert f"first {ROW_CAP:,} shown" in count
        assert "7 more voices not shown" in screen_text(app)  # the status line


@pytest.fixture
def small_cap(monkeypatch: pytest.MonkeyPatch) -> Iterator[int]:
    """A display cap of 2 rows where a screen needs many accounts to pass it."""
    for module in (caps, account_tree, fleet_matrix):
        monkeypatch.setattr(module, "ROW_CAP", 2)
    yield 2


async def test_scope_level_past_the_cap_says_how_many_more(
    make_app: MakeApp, small_cap: int
) -> None:
    app = make_app("scope")
    async with app.run_test(size=(160, 40)) as pilot:
        await settle(pilot)
        tree = app.screen.query_one("#scope-tree", account_tree.AccountTree)
        children = tree.root.children
        accounts = sim_of(app).accounts.values()
        total = len([a for a in accounts if a.parent_id == 1000 and a.account_type == "reseller"])
        assert total > small_cap
        assert len(children) == small_cap + 1
        assert children[-1].data is None
        left = total - small_cap
        more = f"{left:,} more account{'' if left == 1 else 's'} not shown"
        assert more in str(children[-1].label)
        assert more in screen_text(app)


async def test_fleet_past_the_cap_shows_the_first_accounts(
    make_app: MakeApp, small_cap: int
) -> None:
    app = make_app("fleet")
    async with app.run_test(size=(160, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, FleetScreen)
        total = len(known(screen.accounts))
        assert total > small_cap
        assert screen.query_one("#fleet-table", fleet_matrix.FleetMatrix).row_count == small_cap
        assert f"{total - small_cap:,} more accounts not shown" in static_text(
            app, "#fleet-summary"
        )
        await pilot.press("s")  # every account is asked; rows past the cap are not drawn
        await wait_for(pilot, lambda: not screen.running)
        assert len(screen.answers) == total
        assert app.is_running


async def test_a_huge_account_name_is_cut(make_app: MakeApp) -> None:
    app = make_app("scope")
    huge = "N" * 3_000_000
    sim_of(app).accounts[1100].name = huge
    async with app.run_test(size=(160, 40)) as pilot:
        await settle(pilot)
        cut = len(huge) - inert_module.DISPLAY_LIMIT
        tree = app.screen.query_one("#scope-tree", account_tree.AccountTree)
        labels = [str(node.label) for node in tree.root.children]
        assert any(f"…(+{cut:,} characters)" in label for label in labels)
        assert max(len(label) for label in labels) < inert_module.DISPLAY_LIMIT + 100
        assert app.is_running


FIRST_CALL = {
    "scope": "list_resellers",
    "agent": "get_live",
    "voices": "list_voices",
    "functions": "list_functions",
    "inbox": "list_junk_rooms",
    "fleet": "list_resellers",
}
"""The client call each screen's first load makes."""


@pytest.mark.parametrize("screen", list(SCREENS))
async def test_any_failure_of_a_load_is_shown_and_r_retries(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch, screen: str
) -> None:
    """Not a platform error: the status line says it, nothing says loading, ``r`` loads."""
    app = make_app(screen, account=SCREENS[screen])
    calls = fail_once(
        monkeypatch, app.connection.api, FIRST_CALL[screen], RuntimeError("planted bug")
    )
    async with app.run_test(size=(160, 40)) as pilot:
        await settle(pilot)
        assert calls["n"] == 1
        text = screen_text(app)
        assert "planted bug" in text and "press r to retry" in text
        assert "loading" not in text.lower()
        await pilot.press("r")
        await settle(pilot)
        text = screen_text(app)
        assert calls["n"] >= 2
        assert "planted bug" not in text and "loading" not in text.lower()
        assert "Unexpected error" not in text, "the retry failed"
        assert app.is_running
