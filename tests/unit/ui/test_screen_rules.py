"""One way for each thing a screen does: its stylesheet, its width classes, its pages.

- Stylesheet: a screen names its own ``.tcss`` (beside its module) in ``CSS_PATH``;
  ``DEFAULT_CSS`` (filled by `ui/css.stylesheet`) is for widgets and dialogs only.
- Width: a screen's ``-wide``/``-narrow`` classes come from Textual's
  ``HORIZONTAL_BREAKPOINTS``, never from a hand-written width test in ``on_resize``.
- Pages: a screen with page keys is a `PagedScreen` and takes them from `page_keys`.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
from pathlib import Path
from typing import Any

import pytest
from textual.screen import Screen

import vagent_tui.ui.screens as screens_package
from vagent_tui.ui.screens.paging import PagedScreen


def _screen_classes() -> list[type[Screen[Any]]]:
    """Every screen class of ``ui/screens`` that is shown (not a base of another one)."""
    found: list[type[Screen[Any]]] = []
    for module_info in pkgutil.iter_modules(screens_package.__path__):
        module = importlib.import_module(f"{screens_package.__name__}.{module_info.name}")
        found += [
            value
            for value in vars(module).values()
            if inspect.isclass(value)
            and issubclass(value, Screen)
            and value.__module__ == module.__name__
        ]
    return [cls for cls in found if not any(o is not cls and issubclass(o, cls) for o in found)]


SCREENS = _screen_classes()


def test_the_screens_are_found() -> None:
    names = {cls.__name__ for cls in SCREENS}
    assert {"VoicesScreen", "AgentScreen", "InboxScreen", "RoomScreen", "SetupScreen"} <= names


DEFAULT_RULES = frozenset({"ComputerScreen"})
"""Screens whose rules are still default rules (`DEFAULT_CSS`): moved to ``CSS_PATH`` they
would beat the widgets' and app.tcss's and change the screen's look. Not to grow."""


@pytest.mark.parametrize("screen", SCREENS, ids=lambda cls: cls.__name__)
def test_a_screen_names_its_stylesheet_in_css_path(screen: type[Screen[Any]]) -> None:
    module = Path(inspect.getfile(screen))
    if screen.__name__ in DEFAULT_RULES:
        assert "CSS_PATH" not in vars(screen) and "DEFAULT_CSS" in vars(screen)
        return
    assert "DEFAULT_CSS" not in vars(screen), "a screen's rules go in CSS_PATH"
    css_path = vars(screen).get("CSS_PATH")
    assert css_path == module.with_suffix(".tcss").name
    assert (module.parent / css_path).is_file()


@pytest.mark.parametrize("screen", SCREENS, ids=lambda cls: cls.__name__)
def test_a_screens_width_classes_come_from_its_breakpoints(screen: type[Screen[Any]]) -> None:
    source = inspect.getsource(inspect.getmodule(screen))  # type: ignore[arg-type]
    assert not re.search(r"self\.set_class\([^)]*\"-(wide|narrow)\"", source)
    assert not re.search(r"^WIDE\b", source, re.MULTILINE)
    stylesheet = Path(inspect.getfile(screen)).with_suffix(".tcss")
    rules = stylesheet.read_text(encoding="utf-8") if stylesheet.is_file() else ""
    if f"{screen.__name__}.-wide" in rules:
        classes = {name for _, name in screen.HORIZONTAL_BREAKPOINTS or []}
        assert "-wide" in classes


@pytest.mark.parametrize("screen", SCREENS, ids=lambda cls: cls.__name__)
def test_a_screen_with_page_keys_is_paged(screen: type[Screen[Any]]) -> None:
    actions = {b.action for b in getattr(screen, "BINDINGS", []) if hasattr(b, "action")}
    if actions & {"next_page", "prev_page", "first_page", "last_page"}:
        assert issubclass(screen, PagedScreen)
        assert "action_next_page" not in vars(screen)  # the pager's, not a copy
