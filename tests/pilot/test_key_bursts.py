"""Keys typed faster than a frame never crash the console.

The keys are posted to the app in one go, as a terminal delivers a burst (a paste, a
held key, a fast typist over a slow link): no frame is drawn between them.

The palette's recipes wait, at `LISTED`, for the palette to list its commands, with
frames held back (`App.batch_update`): the list has its options but not yet its lines,
the moment ``:`` then PageDown 10 ms later reached in a terminal (issue 24: Textual's
option list raised ``KeyError: 0`` there and ended the console).
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import pkgutil
import random
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pytest
from textual import events
from textual.binding import BindingsMap
from textual.command import CommandList, CommandPalette
from textual.keys import key_to_character
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Select, Static

from tests.helpers import DEMO_ACCOUNT_FOR, MakeApp, settle, wait_for
from vagent_tui.sim.faults import AFTER_KINDS, Faults
from vagent_tui.ui.registry import BY_NAME, SCREENS, ScreenInfo
from vagent_tui.ui.widgets.option_pages import has_lines

CHARS = {"colon": ":", "enter": "\r", "space": " "}

BURSTS = [
    ("9", "colon", "C", "enter", "ctrl+p", "F", "enter"),
    ("colon", "pageup", "pagedown", "pageup"),
    ("colon", "pagedown", "enter", "colon", "pagedown", "enter"),
    ("colon", "enter", "colon", "enter", "escape", "escape"),
    ("2", "colon", "enter", "3", "colon", "escape", "4", "5", "enter"),
    ("question_mark", "question_mark", "colon", "escape", "1", "slash", "n", "enter", "enter"),
]


def post_burst(app: Any, keys: tuple[str, ...]) -> None:
    for key in keys:
        char = CHARS.get(key, key_to_character(key))
        app.post_message(events.Key(key, char))


@pytest.mark.parametrize("keys", BURSTS, ids=[" ".join(b) for b in BURSTS])
async def test_a_burst_of_keys_leaves_the_console_running(
    make_app: MakeApp, keys: tuple[str, ...]
) -> None:
    app = make_app("scope")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        post_burst(app, keys)
        await settle(pilot)
        await pilot.pause(0.2)
        assert app.is_running
        assert app.return_code is None
        # Still usable: a screen key works after the burst.
        await pilot.press("escape", "escape", "1")
        await pilot.pause()
        assert app.current_mode == "scope"


LISTED = "<listed>"
"""In a palette recipe: here the palette has listed its commands (and drawn no frame)."""

PALETTE_BURSTS = [
    ("colon", LISTED, "pagedown", "pageup"),
    ("colon", LISTED, "pageup", "pagedown", "pagedown"),
    ("ctrl+p", LISTED, "pagedown", "home", "end", "down", "up", "pageup", "pagedown"),
    ("colon", LISTED, "ctrl+end", "ctrl+home", "shift+end", "shift+home", "up", "down"),
    ("colon", LISTED, "pagedown", "enter"),
    ("colon", LISTED, "down", "pagedown", "escape"),
]


def _palette_list(app: Any) -> CommandList | None:
    if not isinstance(app.screen, CommandPalette):
        return None
    found = app.screen.query(CommandList)
    return found.first() if found else None


async def post_palette_burst(pilot: Any, keys: tuple[str, ...], *, hold: bool = True) -> None:
    """Post ``keys``; at `LISTED`, wait for the palette's commands.

    With ``hold`` no frame is drawn (so the list is not laid out) until every key has
    been handled; without it, the keys race the palette's first layout as typed ones do.
    """
    app = pilot.app
    with app.batch_update() if hold else contextlib.nullcontext():
        for key in keys:
            if key != LISTED:
                post_burst(app, (key,))
                continue

            def listed() -> bool:
                commands = _palette_list(app)
                return commands is not None and commands.option_count > 0

            await wait_for(pilot, listed)
            commands = _palette_list(app)
            assert commands is not None
            assert not hold or not has_lines(commands)  # the recipe's moment
        for _ in range(6):  # each key through the focused input, the screen, the bindings
            await pilot.pause()


@pytest.mark.parametrize("keys", PALETTE_BURSTS, ids=[" ".join(b) for b in PALETTE_BURSTS])
async def test_the_palettes_keys_before_its_list_has_lines_leave_it_running(
    make_app: Any, keys: tuple[str, ...]
) -> None:
    app = make_app("scope")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await post_palette_burst(pilot, keys)
        await settle(pilot)
        await pilot.pause(0.2)
        assert app.is_running
        assert app.return_code is None
        await pilot.press("escape", "escape", "1")
        await pilot.pause()
        assert app.current_mode == "scope"


async def test_a_page_key_before_the_palettes_lines_pages_once_they_are_there(
    make_app: Any,
) -> None:
    app = make_app("scope")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        # Whether the key comes before the list's first layout or after it, it pages.
        # (With frames held back until it has been handled, it is dropped, as the
        # guard's docstring says.)
        await post_palette_burst(pilot, ("colon", LISTED, "pagedown"), hold=False)
        await settle(pilot)
        commands = _palette_list(app)
        assert commands is not None and has_lines(commands)
        assert commands.highlighted is not None and commands.highlighted > 0  # not dropped
        await pilot.press("pageup")
        await pilot.pause()
        assert commands.highlighted == 0


# ---------------------------------------------------------------------- every screen's keys

UI = "vagent_tui.ui"
LEFT_OUT = frozenset({"ctrl+q", "colon", "ctrl+p"})
"""Keys no burst presses: ctrl+q ends the console by design; the palette's keys (``:``,
ctrl+p) open a list whose typed letters and Enter run any command, quitting included
(the palette's bursts are the recipes above)."""
APP_KEYS = frozenset({"question_mark", "ctrl+y"})
"""The app's keys that open a panel or a dialog over any screen (the others change
screens or quit)."""
SEEDS = (1, 2)
"""A burst per seed on each console: two, a new console per screen and simulator (with
the seed the burst differs per screen and simulator): about 1.3 s of CPU a console."""
SIMULATORS: dict[str, Callable[[], dict[str, Any]]] = {
    "demo": dict,
    # Hostile text in every reply, and some replies failing or mangled (no kind that
    # waits: a timeout or a 429's Retry-After would only make the test slow).
    "hostile": lambda: {
        "hostile": True,
        "faults": Faults(kinds=["500", "503", "refused", *AFTER_KINDS], rate=0.15, seed=38,
                         keyed=True),
    },
}  # fmt: skip


def _console_classes(base: type) -> list[type]:
    """Every subclass of ``base`` that the console's ``ui`` package defines."""
    for module in pkgutil.walk_packages(importlib.import_module(UI).__path__, UI + "."):
        importlib.import_module(module.name)
    found: list[type] = []
    todo: list[type] = list(base.__subclasses__())
    while todo:
        klass = todo.pop()
        todo.extend(klass.__subclasses__())
        if klass.__module__.startswith(UI + ".") and klass not in found:
            found.append(klass)
    return found


def _bound(klass: type) -> set[str]:
    return set(BindingsMap(klass.__dict__.get("BINDINGS", ())).key_to_bindings)


def screen_keys(klass: type) -> set[str]:
    """The keys a screen or dialog binds: its BINDINGS and its bases' (Textual's Screen's
    tab and shift+tab too)."""
    return set().union(*(_bound(owner) for owner in klass.__mro__)) - LEFT_OUT


def screen_class(info: ScreenInfo) -> type[Screen[Any]]:
    module, _, name = info.target.partition(":")
    klass: type[Screen[Any]] = getattr(importlib.import_module(module), name)
    return klass


@functools.cache
def reachable_keys() -> frozenset[str]:
    """The keys of what any screen may open or focus: every screen of the console that is
    not the registry's (a call, a room, settings, a review, setup), every dialog, and
    the console's own widgets (their BINDINGS; the editing keys of Textual's fields are
    Textual's), with the app's keys that open a panel or a dialog."""
    registered = {base for info in SCREENS for base in screen_class(info).__mro__}
    keys = set(APP_KEYS)
    for klass in _console_classes(Screen):
        if klass not in registered:
            keys |= screen_keys(klass)
    for klass in _console_classes(Widget):
        if not issubclass(klass, Screen):
            keys |= _bound(klass) - LEFT_OUT
    return frozenset(keys)


def burst_of(keys: Iterable[str], rng: random.Random) -> tuple[str, ...]:
    """Every key of ``keys`` in a random order, some pressed twice in a row (a double
    press, a held key)."""
    order = sorted(keys)
    rng.shuffle(order)
    return tuple(key for key in order for _ in range(rng.choice((1, 1, 2))))


async def back_on(pilot: Any, name: str) -> None:
    """The screen ``name`` on show again, nothing over it: what a burst opened (a dialog,
    a pushed screen, a question esc keeps open) taken off, the work waiting for it
    cancelled."""
    app = pilot.app
    app.action_show(name)  # a key of the burst may have gone to another screen
    await settle(pilot)
    if len(app.screen_stack) > 1:
        app.workers.cancel_all()
        for _ in range(10):
            if len(app.screen_stack) == 1:
                break
            await app.pop_screen()
            await pilot.pause()
        await settle(pilot)
    app.set_focus(None)  # a field (the filter row) would take a screen key as text


@pytest.mark.parametrize("simulator", SIMULATORS)
@pytest.mark.parametrize("name", [info.name for info in SCREENS])
async def test_every_key_of_a_screen_in_bursts_leaves_the_console_running(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, name: str, simulator: str
) -> None:
    """The screen's keys and those of what it may open (dialogs, pushed screens, their
    widgets), each once or twice in a row, in a random order, posted at once; a burst
    per seed in turn on one console (at the smallest size the console supports), which
    never ends and still changes screens after them."""
    monkeypatch.chdir(tmp_path)  # exports and saved files land here
    keys = screen_keys(screen_class(BY_NAME[name])) | reachable_keys()
    app = make_app(name, account=DEMO_ACCOUNT_FOR.get(name), **SIMULATORS[simulator]())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for seed in SEEDS:
            post_burst(app, burst_of(keys, random.Random(f"{name} {simulator} {seed}")))
            await settle(pilot)
            await pilot.pause(0.1)
            assert app.is_running and app.return_code is None, f"{name}, seed {seed}: ended"
            await back_on(pilot, name)
        other = "scope" if name != "scope" else "agent"
        await pilot.press(BY_NAME[other].key)
        await pilot.pause()
        assert app.current_mode == other, f"{name}: a screen key did nothing after the bursts"


# ---------------------------------------------------------------------- what the bursts found


async def test_enter_twice_on_calls_opens_the_call_once(make_app: MakeApp) -> None:
    """Issue 38's recipe: the second Enter reached the call screen before it was built."""
    app = make_app("calls")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        post_burst(app, ("enter", "enter"))
        await settle(pilot)
        assert app.is_running and app.return_code is None
        assert [type(s).__name__ for s in app.screen_stack] == ["CallsScreen", "CallScreen"]
        assert "account" in str(app.screen.query_one("#call-header", Static).content)
        await pilot.press("escape")  # one esc: the call screen is on the stack once
        await pilot.pause()
        assert [type(s).__name__ for s in app.screen_stack] == ["CallsScreen"]


@pytest.mark.parametrize(
    ("gated", "left"),
    [(True, ["AgentScreen", "KeysScreen"]), (False, ["AgentScreen"])],
    ids=["key-gate", "no-key-gate"],
)
async def test_a_form_closed_by_esc_closes_though_a_key_opened_a_panel_over_it(
    make_app: MakeApp, gated: bool, left: list[str]
) -> None:
    """Esc on Settings closes it from a worker (it may ask first); ``?`` typed right
    after opened the keys panel over it meanwhile, which Textual's dismiss closed instead:
    Settings stayed, its answer given, and esc could never close it again.

    With the key gate, ``?`` waits for Settings to close and opens the panel over the
    Agent screen, as typed; without it (a key that reaches the app some other way),
    Settings still closes itself and whatever was opened over it."""
    app = make_app("agent", account=DEMO_ACCOUNT_FOR["agent"])
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("E")
        await settle(pilot)
        assert [type(s).__name__ for s in app.screen_stack] == ["AgentScreen", "SettingsScreen"]
        if not gated:
            app.key_gate.admit = lambda event: True  # type: ignore[method-assign]
        post_burst(app, ("escape", "question_mark"))
        await settle(pilot)
        await pilot.pause(0.1)
        assert [type(s).__name__ for s in app.screen_stack] == left


async def test_a_page_key_in_a_select_opened_by_the_same_burst_leaves_it_running(
    make_app: MakeApp,
) -> None:
    """A Select's list (Textual's option list) paged before its first layout."""
    app = make_app("journal")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.screen.query_one("#journal-method", Select).focus()
        post_burst(app, ("enter", "pagedown", "pagedown"))
        await settle(pilot)
        assert app.is_running and app.return_code is None
