"""Keys typed faster than a frame never crash the console.

The keys are posted to the app in one go, as a terminal delivers a burst (a paste, a
held key, a fast typist over a slow link): no frame is drawn between them.
"""

from __future__ import annotations

from typing import Any

import pytest
from textual import events

from tests.helpers import MakeApp, settle

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
