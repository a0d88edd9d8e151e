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

PACKAGE = Path(__file__).resolve().parents[2] / "vagent_tui"
ALLOWED = {PACKAGE / "ui" / "textual_compat.py"}


def _textual_private_names() -> set[str]:
    names: set[str] = set()
    for path in Path(textual.__file__).parent.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        names |= set(re.findall(r"self\.(_[a-z][A-Za-z0-9_]*)", text))
        names |= set(re.findall(r"def (_[a-z][A-Za-z0-9_]*)", text))
    return names


def _our_private_names() -> set[str]:
    """Names our own classes define: ``self._x = ...`` and ``def _x``."""
    names: set[str] = set()
    for path in PACKAGE.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        names |= set(re.findall(r"self\.(_[a-z][A-Za-z0-9_]*)\s*(?::[^=\n]*)?=[^=]", text))
        names |= set(re.findall(r"def (_[a-z][A-Za-z0-9_]*)", text))
    return names


def test_no_private_textual_attribute_outside_the_compat_module() -> None:
    private = _textual_private_names() - _our_private_names()
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path in ALLOWED:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr in private:
                found.append(f"{path.relative_to(PACKAGE)}:{node.lineno} .{node.attr}")
    assert not found, "private Textual API outside ui/textual_compat.py:\n" + "\n".join(found)


def test_the_check_sees_a_private_use() -> None:
    private = _textual_private_names()
    assert {"_clipboard", "_screen_stacks", "_keymap", "_parse_action"} <= private
