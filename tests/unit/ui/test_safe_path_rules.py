"""The safe path is the only easy path: the code shows outside text no other way.

These rules read the source of ``vagent_tui/ui``. The hostile walk (tests/hostile)
proves the screens inert with hostile data; these rules stop a new screen from
reaching for a way around `vagent_tui.ui.text` in the first place.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests import source
from tests.source import UI

SOURCES = source.python_files(UI)
ALLOWED_CALLS = {"safe", "safe_rich", "safe_markup", "Text", "Content", "inert"}
"""What a `Static`/`Label` may be given besides a literal: inert or non-markup text."""


def _name(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def _markup_false(call: ast.Call) -> bool:
    return any(
        k.arg == "markup" and isinstance(k.value, ast.Constant) and k.value.value is False
        for k in call.keywords
    )


def _problems(path: Path) -> list[str]:
    tree = source.tree(path)
    found: list[str] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        where = f"{path.relative_to(UI.parent)}:{node.lineno}"
        name = _name(node.func)
        for keyword in node.keywords:
            if keyword.arg == "markup" and not (
                isinstance(keyword.value, ast.Constant) and keyword.value.value is False
            ):
                found.append(f"{where}: markup= other than False")
        if name == "from_markup" and not (node.args and isinstance(node.args[0], ast.Constant)):
            found.append(f"{where}: from_markup of a value that is not a literal")
        if name in ("Static", "Label") and node.args and not _markup_false(node):
            first = node.args[0]
            literal = isinstance(first, ast.Constant)
            wrapped = isinstance(first, ast.Call) and _name(first.func) in ALLOWED_CALLS
            if not (literal or wrapped):
                found.append(f"{where}: {name}() of a value that may be markup: use safe()")
    return found


@pytest.mark.parametrize("path", SOURCES, ids=[str(p.relative_to(UI)) for p in SOURCES])
def test_outside_text_has_no_way_around_the_safe_path(path: Path) -> None:
    assert _problems(path) == []


def test_the_rules_catch_what_they_are_for(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text(
        "Static(name)\n"
        "Label(f'{x}')\n"
        "app.notify(msg, markup=True)\n"
        "Content.from_markup(server_text)\n",
        encoding="utf-8",
    )
    global UI
    saved, UI = UI, tmp_path
    try:
        assert len(_problems(bad)) == 4
    finally:
        UI = saved
    good = tmp_path / "good.py"
    good.write_text(
        "Static('x')\nStatic(safe(name))\nLabel(name, markup=False)\n", encoding="utf-8"
    )
    UI = tmp_path
    try:
        assert _problems(good) == []
    finally:
        UI = saved
