"""Keymap values are checked against Textual's key names; the app shows config warnings."""

from __future__ import annotations

from pathlib import Path

import pytest

from vagent_tui import config as cfg
from vagent_tui.ui import convention
from vagent_tui.ui.app import VagentApp
from vagent_tui.ui.keys import catalog
from vagent_tui.ui.keyspec import config_warnings, key_problem


@pytest.mark.parametrize(
    "keys",
    ["f2", "ctrl+g", "ctrl+g, f3", "?", "G", "question_mark", "escape", "space", "shift+tab",
     "pageup", "alt+left", "ctrl+shift+a", "minus", "full_stop", "newline"],
)  # fmt: skip
def test_keys_textual_delivers(keys: str) -> None:
    assert key_problem(keys) is None


@pytest.mark.parametrize(
    ("keys", "said"),
    [
        ("F2", "'F2', not a key name"),
        ("Escape", "'Escape', not a key name"),
        ("pgup", "'pgup', not a key name"),
        ("ctrl+", "'ctrl+', not a key name"),
        ("control+g", "'control' is not a modifier"),
        ("f2,,f3", "an empty key"),
        (" ", "an empty key"),
    ],
)
def test_keys_textual_never_delivers(keys: str, said: str) -> None:
    problem = key_problem(keys)
    assert problem is not None and said in problem


def test_every_default_key_of_the_console_passes() -> None:
    no_key = convention.NO_KEY_PREFIX  # a screen without a key: the keymap gives one
    found = [(i.id, i.key) for i in catalog() if not i.key.startswith(no_key)]
    assert [(k, key) for k, key in found if key_problem(key)] == []


def test_config_warnings_name_file_profile_and_binding(tmp_path: Path) -> None:
    config = cfg.Config(path=tmp_path / "c.toml", warnings=["earlier"])
    config.profiles["lab"] = cfg.Profile(
        "lab", "https://x.example", keymap={"goto.scope": "f2", "goto.voices": "Ctrl+V"}
    )
    assert config_warnings(config) == [
        "earlier",
        f"{tmp_path / 'c.toml'}: profile 'lab': keymap 'goto.voices' has 'Ctrl+V': "
        "'Ctrl' is not a modifier (alt, ctrl, hyper, meta, shift, super)",
    ]


async def test_the_app_shows_config_warnings() -> None:
    app = VagentApp(None, config=cfg.Config(), config_warnings=["c.toml: unknown key 'x'"])
    async with app.run_test(notifications=True) as pilot:
        await pilot.pause()
        shown = [(n.title, n.message, n.severity) for n in app._notifications]
    assert ("Config file", "c.toml: unknown key 'x'", "warning") in shown
