"""Product code uses Textual's public API only; `ui/textual_compat.py` is the one exception.

Every ``x._name`` in the package is checked against the private names Textual defines;
a hit outside the compat module fails with the place, so a new use goes through (and is
tested in) `vagent_tui.ui.textual_compat` instead.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import textual

from tests import source
from tests.source import PACKAGE

ALLOWED = {PACKAGE / "ui" / "textual_compat.py"}


def _textual_private_names() -> set[str]:
    names: set[str] = set()
    for path in Path(textual.__file__).parent.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        names |= set(re.findall(r"self\.(_[a-z][A-Za-z0-9_]*)", text))
        names |= set(re.findall(r"def (_[a-z][A-Za-z0-9_]*)", text))
    return names


def _defined_in(text: str) -> set[str]:
    """Private names a module's own classes define: ``self._x = ...`` and ``def _x``."""
    names = set(re.findall(r"self\.(_[a-z][A-Za-z0-9_]*)\s*(?::[^=\n]*)?=[^=]", text))
    return names | set(re.findall(r"def (_[a-z][A-Za-z0-9_]*)", text))


def private_uses(
    text: str, private: set[str], tree: ast.Module | None = None
) -> list[tuple[int, str]]:
    """Uses of Textual's private names in ``text``.

    On ``self``/``cls`` a name the module defines itself is its own (a screen's
    ``_layout``); on anything else (``self.app._ready``, ``table._cache``) it is
    Textual's, whatever our modules call their own attributes.
    """
    own = _defined_in(text)
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(text) if tree is None else tree):
        if not isinstance(node, ast.Attribute) or node.attr not in private:
            continue
        on_self = isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")
        if on_self and node.attr in own:
            continue
        found.append((node.lineno, node.attr))
    return found


def test_no_private_textual_attribute_outside_the_compat_module() -> None:
    private = _textual_private_names()
    found = []
    for path in source.python_files():
        if path in ALLOWED:
            continue
        for line, name in private_uses(source.text(path), private, source.tree(path)):
            found.append(f"{path.relative_to(PACKAGE)}:{line} .{name}")
    assert not found, "private Textual API outside ui/textual_compat.py:\n" + "\n".join(found)


def test_the_check_sees_a_private_use() -> None:
    private = _textual_private_names()
    assert {"_clipboard", "_screen_stacks", "_keymap", "_parse_action", "_ready"} <= private
    planted = (
        "class Pane:\n"
        "    def _ready(self):\n"
        "        return self.app._ready()\n"  # the App's, though we have a _ready too
        "    def go(self):\n"
        "        self._keymap = {}\n"
        "        return self._ready(), self._keymap, self.app._clipboard\n"
    )
    assert private_uses(planted, private) == [(3, "_ready"), (6, "_clipboard")]
