"""A binding whose action reaches a write is declared to write (`vagent_tui.ui.safety.Key`).

Read from the code: from each bound ``action_*`` method, follow what it calls or hands
on (``self.name`` of its own class, and methods of the console's other classes called
on a widget or dialog) until a write is met: a worker in a ``write-*`` group (every
write runs in one: `vagent_tui.ui.failures.WRITE_GROUP_PREFIX`), the write path
(`SELF_WRITE_CALLS`, `WRITE_CALLS`) or a dialog that sends (a `FormModal`). Such a
binding that does not say ``does=WRITES`` or ``DESTRUCTIVE`` would stay on a read-only
profile's footer and palette (the transport would still refuse the request), so the
test names it.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import sys
from collections.abc import Callable, Iterator
from functools import cache
from types import FunctionType

from textual.binding import Binding
from textual.dom import DOMNode

from tests.source import function_tree
from vagent_tui.ui.convention import action_name
from vagent_tui.ui.failures import WRITE_GROUP_PREFIX
from vagent_tui.ui.keys import binding_owners
from vagent_tui.ui.safety import SPENDS, WRITES, Key, does_of
from vagent_tui.ui.writes import Spend

WRITE_CALLS = frozenset({"write_from", "staging_write", "stage_change"})
"""Functions that write when called (besides ``write-*`` workers): a pane's ``write_from``
(`vagent_tui.ui.writes`) and the staging flow's `Write`."""
SPEND = Spend.__name__
"""A write that spends money is built as a `Spend` (`vagent_tui.ui.writes`)."""
SELF_WRITE_CALLS = frozenset({"write", "written"})
"""A screen's write path (`BaseScreen.write`, `BaseScreen.written`), called on ``self``
(another object's ``written()``, a rollout log's, writes nothing)."""


def _ours() -> list[type[DOMNode]]:
    return [owner for owner in binding_owners() if owner.__module__.startswith("vagent_tui.")]


@cache
def _all_classes() -> tuple[type, ...]:
    found: list[type] = []
    for name, module in list(sys.modules.items()):
        if name.startswith("vagent_tui.ui") and module is not None:
            found += [
                v for v in vars(module).values() if inspect.isclass(v) and v.__module__ == name
            ]
    return tuple(found)


@cache
def _function(owner: type, name: str) -> Callable[..., object] | None:
    for klass in owner.__mro__:
        value = vars(klass).get(name)
        if isinstance(value, FunctionType):
            return value
        wrapped = getattr(value, "__wrapped__", None)  # a @work method
        if isinstance(wrapped, FunctionType):
            return wrapped
    return None


_tree = function_tree


@cache
def _is_write_worker(node: ast.FunctionDef | ast.AsyncFunctionDef, module: str) -> bool:
    for decorator in node.decorator_list:
        if not isinstance(decorator, ast.Call):
            continue
        for keyword in decorator.keywords:
            if keyword.arg == "group":
                group = eval(  # a constant or a module constant (APPLY_GROUP)
                    compile(ast.Expression(keyword.value), "<group>", "eval"),
                    vars(sys.modules[module]),
                )
                if isinstance(group, str) and group.startswith(WRITE_GROUP_PREFIX):
                    return True
    return False


def _names_used(node: ast.AST, module: str) -> Iterator[tuple[bool, str]]:
    """(on self, name) of every attribute read or called, and every plain name called.

    An attribute of a module (``cfg.save``) is no method of the console's classes.
    """
    names = vars(sys.modules[module])
    for sub in ast.walk(node):
        if isinstance(sub, ast.Attribute):
            receiver = sub.value.id if isinstance(sub.value, ast.Name) else ""
            if not inspect.ismodule(names.get(receiver)):
                yield receiver == "self", sub.attr
        elif isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name):
            yield False, sub.func.id


def _imported_here(node: ast.AST) -> dict[str, str]:
    """The names a function imports for itself (``from m import Form`` inside it, as a
    screen loaded at start-up does for what it first uses): name -> module."""
    found = {}
    for sub in ast.walk(node):
        if isinstance(sub, ast.ImportFrom) and sub.module and sub.level == 0:
            for alias in sub.names:
                found[alias.asname or alias.name] = sub.module
    return found


def _opens_a_writing_screen(module: str, name: str, local: dict[str, str] | None = None) -> bool:
    """``name`` in ``module`` (or imported by the function itself, ``local``) is a screen
    or dialog that writes: it has a key declared to write (the Agent's ``E`` opens the
    settings form, whose ``ctrl+s`` writes), or a ``write-*`` worker (`FormModal` sends
    what its button submits)."""
    value = vars(sys.modules[module]).get(name)
    sends = False
    if value is None and local and name in local:
        # Imported on first use (a screen of the first frame): a dialog that sends by
        # itself. A screen whose own key writes is asked by that key, declared there.
        value = getattr(importlib.import_module(local[name]), name, None)
        sends = True
    return inspect.isclass(value) and issubclass(value, DOMNode) and _writes(value, sends)


@cache
def _writes(value: type[DOMNode], sends: bool) -> bool:
    for klass in value.__mro__:
        if not klass.__module__.startswith("vagent_tui.ui"):
            continue
        if not sends and any(does_of(b).writes for b in vars(klass).get("BINDINGS", ())):
            return True
        for attribute in vars(klass):
            function = _function(klass, attribute)
            node = _tree(function) if function is not None else None
            if node is not None and _is_write_worker(node, klass.__module__):
                return True
    return False


@cache
def _methods_named(name: str) -> tuple[tuple[type, Callable[..., object]], ...]:
    """The console's widgets and screens with a method ``name``, and that method."""
    found = []
    for other in _all_classes():
        method = _function(other, name) if issubclass(other, DOMNode) else None
        if method is not None and method.__module__.startswith("vagent_tui.ui"):
            found.append((other, method))
    return tuple(found)


def write_path(owner: type, action: str, *, spends: bool = False) -> list[str] | None:
    """The chain of methods from ``action_<action>`` of ``owner`` to a write, or None.

    ``spends``: to a write that spends money instead (one that builds a `Spend`)."""
    start = _function(owner, f"action_{action}")
    if start is None:
        return None
    seen: set[Callable[..., object]] = set()
    todo: list[tuple[type, Callable[..., object], list[str]]] = [
        (owner, start, [f"{owner.__name__}.action_{action}"])
    ]
    while todo:
        klass, function, chain = todo.pop()
        if function in seen:
            continue
        seen.add(function)
        node = _tree(function)
        if node is None:
            continue
        if not spends and _is_write_worker(node, function.__module__):
            return chain
        local = _imported_here(node)
        for on_self, name in _names_used(node, function.__module__):
            if spends and name == SPEND:
                return [*chain, name]
            if not spends and (
                name in WRITE_CALLS
                or (on_self and name in SELF_WRITE_CALLS)
                or _opens_a_writing_screen(function.__module__, name, local)
            ):
                return [*chain, name]
            if on_self:
                found = _function(klass, name)
                if found is not None and found.__module__.startswith("vagent_tui.ui"):
                    todo.append((klass, found, [*chain, name]))
                continue
            for other, found in _methods_named(name):
                if other is not klass:
                    todo.append((other, found, [*chain, f"{other.__name__}.{name}"]))
    return None


def test_every_binding_that_reaches_a_write_is_declared_to_write() -> None:
    undeclared = []
    for owner in _ours():
        for binding in vars(owner)["BINDINGS"]:
            if not isinstance(binding, Binding) or binding.action.startswith("app."):
                continue
            chain = write_path(owner, action_name(binding.action))
            if chain is not None and not does_of(binding).writes:
                undeclared.append(f"{binding.id}: {' -> '.join(chain)}")
    assert undeclared == [], "declare these Key(..., does=WRITES or DESTRUCTIVE):\n" + "\n".join(
        undeclared
    )


def test_every_binding_declared_to_write_reaches_a_write() -> None:
    """The declaration is not a guess either: each writing key leads to a write."""
    for owner in _ours():
        for binding in vars(owner)["BINDINGS"]:
            if does_of(binding).writes:
                assert isinstance(binding, Binding)
                assert write_path(owner, action_name(binding.action)), binding.id


def test_a_key_that_spends_money_is_declared_to_spend_and_only_such_a_key() -> None:
    """A binding whose action builds a `Spend` says ``does=SPENDS`` (it counts as writing
    for everything else: read-only hides and refuses it), and one that says so builds one."""
    wrong = []
    for owner in _ours():
        for binding in vars(owner)["BINDINGS"]:
            if not isinstance(binding, Binding) or binding.action.startswith("app."):
                continue
            chain = write_path(owner, action_name(binding.action), spends=True)
            if (chain is not None) != (does_of(binding) is SPENDS):
                wrong.append(f"{binding.id}: {' -> '.join(chain or ['builds no Spend'])}")
    assert wrong == [], "declare Key(..., does=SPENDS) exactly where a Spend is built:\n" + (
        "\n".join(wrong)
    )


def test_the_check_finds_a_write_behind_an_undeclared_key() -> None:
    from vagent_tui.ui.screens.sip import SipScreen

    assert write_path(SipScreen, "delete") is not None
    assert write_path(SipScreen, "reload") is None
    assert does_of(Binding("d", "delete")) is not WRITES
    assert does_of(Key("d", "delete", does=WRITES)) is WRITES
