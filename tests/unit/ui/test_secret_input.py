"""Every field that takes a secret is a `SecretInput`: drawn masked, never copied out."""

from __future__ import annotations

import ast

from textual.app import App, ComposeResult

from tests import source
from tests.source import UI
from vagent_tui.ui.widgets.secret_input import SecretInput


def test_no_masked_field_but_the_secret_input() -> None:
    """``password=True`` (Textual's mask only: its copy and cut still take the text) or
    ``.password = ...`` appear nowhere in the console but `SecretInput` itself."""
    found = []
    for path in source.python_files(UI):
        if path.name == "secret_input.py":
            continue
        for node in ast.walk(source.tree(path)):
            if isinstance(node, ast.keyword) and node.arg == "password":
                found.append(f"{path.name}:{node.value.lineno}")
            if (
                isinstance(node, ast.Attribute)
                and node.attr == "password"
                and isinstance(node.ctx, ast.Store)
            ):
                found.append(f"{path.name}:{node.lineno}")
    assert not found, found


class _Field(App[None]):
    def compose(self) -> ComposeResult:
        yield SecretInput(id="secret")


async def test_a_secret_typed_is_drawn_masked_and_never_copied() -> None:
    app = _Field()
    async with app.run_test(size=(40, 3)) as pilot:
        await pilot.press(*"hunter2")
        field = app.query_one(SecretInput)
        assert field.value == "hunter2" and field.password
        await pilot.press("ctrl+a", "ctrl+c")
        field.action_copy()
        field.action_cut()
        assert app.clipboard == "" and field.value == "hunter2"
