"""The rule for when a screen calls the client and when a service (ARCHITECTURE.md,
"Screen or service"), read off the code of ``ui/``.

A function in ``ui/`` (a ``def`` or a ``lambda``: the fetch of a `BaseScreen.load`, the
send or read back of a `Write`) sends at most one request on any path through it (an
``if`` may choose which one) and none inside a loop or a comprehension. What pages, fans
out, combines requests, plans, retries or polls is a service's (``services/``), which the
screen calls once.
"""

from __future__ import annotations

import ast
import inspect
from collections.abc import Iterator, Sequence
from functools import cache
from pathlib import Path

import pytest

from vagent_tui.api.client import PlatformClient

UI = Path(__file__).resolve().parents[3] / "vagent_tui" / "ui"
Function = ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda
LOOPS = (ast.For, ast.AsyncFor, ast.While, ast.ListComp, ast.SetComp, ast.DictComp,
         ast.GeneratorExp)  # fmt: skip
CLIENT_NAMES = frozenset({"api", "client"})
"""A local name that holds the client (``api = c.api``); ``X.api`` is the client too."""


@cache
def requests() -> frozenset[str]:
    """The client's methods that send a request: its public coroutines, but closing it."""
    return frozenset(
        name for name, member in inspect.getmembers(PlatformClient)
        if inspect.iscoroutinefunction(member) and not name.startswith("_") and name != "aclose"
    )  # fmt: skip


def is_request(node: ast.AST) -> bool:
    """``c.api.list_voices(...)``, ``api.get_live(...)``: a call that sends a request."""
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
        return False
    receiver = node.func.value
    to_client = (isinstance(receiver, ast.Attribute) and receiver.attr == "api") or (
        isinstance(receiver, ast.Name) and receiver.id in CLIENT_NAMES
    )
    return to_client and node.func.attr in requests()


class Count:
    """Requests on the busiest path of one function, and those sent in a loop."""

    def __init__(self) -> None:
        self.in_loops: list[int] = []

    def block(self, statements: Sequence[ast.stmt], loop: bool) -> int:
        total = 0
        for n, statement in enumerate(statements):
            if isinstance(statement, ast.If) and _ends(statement.body):
                # if ...: return ...  -- what follows is the other branch
                rest = [*statement.orelse, *statements[n + 1 :]]
                branches = max(self.block(statement.body, loop), self.block(rest, loop))
                return total + self.node(statement.test, loop) + branches
            total += self.node(statement, loop)
        return total

    def node(self, node: ast.AST, loop: bool) -> int:
        if isinstance(node, Function):
            return 0  # counted on its own
        if isinstance(node, ast.If):
            return self.node(node.test, loop) + max(
                self.block(node.body, loop), self.block(node.orelse, loop)
            )
        if isinstance(node, ast.IfExp):
            return self.node(node.test, loop) + max(
                self.node(node.body, loop), self.node(node.orelse, loop)
            )
        if isinstance(node, ast.Try):
            return (self.block(node.body, loop) + self.block(node.orelse, loop)
                    + max((self.block(h.body, loop) for h in node.handlers), default=0)
                    + self.block(node.finalbody, loop))  # fmt: skip
        loop = loop or isinstance(node, LOOPS)
        total = 0
        if is_request(node):
            total = 1
            if loop:
                self.in_loops.append(getattr(node, "lineno", 0))
        for child in ast.iter_child_nodes(node):
            total += self.node(child, loop)
        return total


def _ends(statements: Sequence[ast.stmt]) -> bool:
    return bool(statements) and isinstance(statements[-1], ast.Return | ast.Raise)


def problems_in(source: str, where: str) -> Iterator[str]:
    """What in ``source`` breaks the rule, one line each."""
    for function in ast.walk(ast.parse(source)):
        if not isinstance(function, Function):
            continue
        count = Count()
        body = function.body if isinstance(function.body, list) else [ast.Expr(function.body)]
        most = count.block(body, loop=False)
        name = getattr(function, "name", "<lambda>")
        if most > 1:
            yield (f"{where}:{function.lineno} {name} sends {most} requests on one path: "
                   "a service combines them")  # fmt: skip
        for line in count.in_loops:
            yield f"{where}:{line} {name} sends a request in a loop: a service pages or polls"


def test_no_screen_combines_pages_or_repeats_requests() -> None:
    found = [
        problem
        for path in sorted(UI.rglob("*.py"))
        for problem in problems_in(path.read_text(encoding="utf-8"), str(path.relative_to(UI)))
    ]
    assert found == [], "\n".join(found)


@pytest.mark.parametrize(
    ("source", "broken"),
    [
        # one read, one write and its read back, a choice: allowed
        ("lambda c: c.api.list_voices(target=c.target_id)", False),
        ("async def send(c):\n    if kind:\n        return await c.api.delete_account(1)\n"
         "    return await c.api.delete_organization(1)\n", False),
        ("async def read(c):\n    x = await c.api.get_live() if a else await c.api.get_staging()\n",
         False),
        ("async def read(c):\n    try:\n        return await c.api.list_relays()\n"
         "    except E:\n        return None\n", False),
        # two requests in a row, a fan-out, a page loop, a poll: a service's
        ("async def read(api):\n    s = await api.get_staging()\n    return await api.get_live()\n",
         True),
        ("async def read(c):\n    return await gather(c.api.list_voices(), c.api.get_live())\n",
         True),
        # a fallback: a second request when the first failed
        ("async def read(c):\n    try:\n        return await c.api.list_relays()\n"
         "    except E:\n        return await c.api.list_voices()\n", True),
        ("async def read(c):\n    return [await c.api.list_tasks(page=n) for n in range(3)]\n",
         True),
        ("async def follow(self):\n    while True:\n        await self.start.api.get_task(1)\n",
         True),
        ("async def read(client):\n    if a:\n        await client.get_live()\n"
         "    await client.get_staging()\n", True),
    ],
)  # fmt: skip
def test_the_check_tells_one_request_from_several(source: str, broken: bool) -> None:
    assert bool(list(problems_in(source, "x.py"))) is broken
