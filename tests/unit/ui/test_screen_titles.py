"""A screen's title is named in one place: the registry for a registered screen.

`vagent_tui.ui.registry` names each registered screen's title (the palette, the go-to
keys and README read it) and `BaseScreen` hands it to the class as its ``TITLE``; a
class of the registry stating a ``TITLE`` of its own would name it twice (two names that
drift apart: the Inbox was "Junk inbox" on its class and "Inboxes" in the registry).
A screen shown from another one (a call, a room) is not registered and states its own.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path

import pytest

from tests import source
from vagent_tui.ui.registry import BY_TARGET


def _module(path: Path) -> str:
    return ".".join(path.relative_to(source.PACKAGE.parent).with_suffix("").parts)


def _states_title(node: ast.ClassDef) -> bool:
    for line in node.body:
        targets = line.targets if isinstance(line, ast.Assign) else [getattr(line, "target", None)]
        if any(isinstance(t, ast.Name) and t.id == "TITLE" for t in targets):
            return True
    return False


def titles_stated_twice(modules: Iterable[tuple[str, ast.Module]]) -> list[str]:
    """The registered screen classes (``"module:Class"``) whose body states a ``TITLE``."""
    return [
        target
        for module, tree in modules
        for node in tree.body
        if isinstance(node, ast.ClassDef)
        and (target := f"{module}:{node.name}") in BY_TARGET
        and _states_title(node)
    ]


def test_no_registered_screen_states_its_title() -> None:
    ui = source.python_files(source.UI)
    assert titles_stated_twice((_module(path), source.tree(path)) for path in ui) == []


@pytest.mark.parametrize("line", ['TITLE = "Tokens"', 'TITLE: ClassVar[str] = "Tokens"'])
def test_a_title_stated_on_a_registered_class_is_found(line: str) -> None:
    """The rule can fail: a ``TITLE`` on a class of the registry, and only there."""
    planted = ast.parse(f"class TokensScreen(BaseScreen):\n    {line}\n")
    assert titles_stated_twice([("vagent_tui.ui.screens.tokens", planted)]) == [
        "vagent_tui.ui.screens.tokens:TokensScreen"
    ]
    assert titles_stated_twice([("vagent_tui.ui.screens.call", planted)]) == []


def test_a_registered_screen_gets_the_registry_title() -> None:
    from vagent_tui.ui.screens.call import CallScreen
    from vagent_tui.ui.screens.inbox import InboxScreen
    from vagent_tui.ui.screens.tokens import TokensScreen

    assert BY_TARGET["vagent_tui.ui.screens.tokens:TokensScreen"].title == TokensScreen.TITLE
    assert InboxScreen.TITLE == "Inboxes"
    assert CallScreen.TITLE == "Call"  # not registered: its own
