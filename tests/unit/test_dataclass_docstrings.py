"""Every dataclass of the package has a docstring of its own.

Without one, ``dataclasses`` writes one from ``inspect.signature`` as the class is made,
at import: 3 ms of the demo's start for one record of the first screen's path.
"""

from __future__ import annotations

import ast

from tests import source
from tests.source import PACKAGE


def undocumented_dataclasses(tree: ast.Module) -> list[tuple[int, str]]:
    """``(line, name)`` of each class decorated with ``dataclass`` and no docstring."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.ClassDef) or ast.get_docstring(node):
            continue
        for decorator in node.decorator_list:
            target = decorator.func if isinstance(decorator, ast.Call) else decorator
            name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
            if name == "dataclass":
                found.append((node.lineno, node.name))
    return found


def test_every_dataclass_has_a_docstring() -> None:
    missing = [
        f"{path.relative_to(PACKAGE)}:{line} {name}"
        for path in source.python_files()
        for line, name in undocumented_dataclasses(source.tree(path))
    ]
    assert not missing, "dataclasses without a docstring:\n" + "\n".join(missing)


def test_the_check_sees_an_undocumented_dataclass() -> None:
    tree = ast.parse(
        "@dataclass(frozen=True)\nclass A:\n    x: int\n\n"
        '@dataclasses.dataclass\nclass B:\n    """B."""\n\n    y: int\n'
    )
    assert undocumented_dataclasses(tree) == [(2, "A")]
