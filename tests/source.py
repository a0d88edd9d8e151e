"""The package's source, read and parsed once per test process for the source rules.

Every test that reads the code (the safe path, inert text, declared writes, colours,
words, private Textual names) goes through here: each module is read and parsed once,
however many rules look at it.
"""

from __future__ import annotations

import ast
import inspect
from collections.abc import Callable
from functools import cache
from pathlib import Path

import vagent_tui

PACKAGE = Path(vagent_tui.__file__).resolve().parent
UI = PACKAGE / "ui"

FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef


@cache
def python_files(root: Path = PACKAGE) -> tuple[Path, ...]:
    """The ``.py`` files under ``root``, in order."""
    return tuple(sorted(root.rglob("*.py")))


def text(path: Path) -> str:
    """A source file's text (read once for a file of the package)."""
    return _text(path) if path.is_relative_to(PACKAGE) else path.read_text(encoding="utf-8")


def tree(path: Path) -> ast.Module:
    """A source file's syntax tree, parsed once for a file of the package (shared: a rule
    reads it, never changes it). A file elsewhere (a rule's own test) is parsed anew."""
    if path.is_relative_to(PACKAGE):
        return _tree(path)
    return ast.parse(text(path), filename=str(path))


@cache
def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


@cache
def _tree(path: Path) -> ast.Module:
    return ast.parse(_text(path), filename=str(path))


@cache
def _functions(path: Path) -> dict[int, FunctionNode]:
    """Every function of a file by its first line (its first decorator's, as Python counts)."""
    found: dict[int, FunctionNode] = {}
    for node in ast.walk(tree(path)):
        if isinstance(node, FunctionNode):
            found[min([node.lineno, *(d.lineno for d in node.decorator_list)])] = node
    return found


def function_tree(function: Callable[..., object]) -> FunctionNode | None:
    """The syntax tree of one of the package's functions (a decorated one's own, as
    `inspect.getsource` finds it), None for one elsewhere."""
    function = inspect.unwrap(function)
    try:
        path = Path(inspect.getfile(function)).resolve()
    except TypeError:
        return None
    if not path.is_relative_to(PACKAGE):
        return None
    code = getattr(function, "__code__", None)
    return None if code is None else _functions(path).get(code.co_firstlineno)
