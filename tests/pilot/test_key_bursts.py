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
from typing import Any

import pytest
from textual import events
from textual.command import CommandList, CommandPalette

from tests.helpers import MakeApp, settle, wait_for
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
        char = CHARS.get(key, key if len(key) == 1 else None)
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
