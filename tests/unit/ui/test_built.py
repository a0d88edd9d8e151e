"""`vagent_tui.ui.built`: work for a screen not built yet waits for it; a screen closes
itself, never the one a later key opened over it. On a bare Textual app (no console)."""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any

from textual.app import App, ComposeResult
from textual.command import CommandPalette
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

import vagent_tui.ui as ui_package
from vagent_tui.ui.built import ClosesItself, built, when_built
from vagent_tui.ui.textual_compat import QuietStartScreen


class Panel(ClosesItself[str], ModalScreen[str]):
    def compose(self) -> ComposeResult:
        yield Static("panel", id="body")


class Plain(ModalScreen[None]):
    """A dialog that is not a console one (Textual's own, say)."""

    def compose(self) -> ComposeResult:
        yield Static("plain", id="body")


async def test_work_for_a_screen_being_pushed_waits_until_it_is_built() -> None:
    seen: list[str] = []
    async with App[None]().run_test() as pilot:
        panel = Panel()
        pilot.app.push_screen(panel)  # not awaited: built later, in its own task
        assert not built(panel)
        when_built(panel, lambda: seen.append(str(panel.query_one("#body", Static).content)))
        assert seen == []
        await pilot.pause()
        assert built(panel)
        assert seen == ["panel"]
        when_built(panel, seen.append, "now")  # built: done at once
        assert seen == ["panel", "now"]


async def test_a_covered_screen_closes_itself_and_what_was_opened_over_it() -> None:
    answers: list[object] = []
    async with App[None]().run_test() as pilot:
        app = pilot.app
        panel = Panel()
        await app.push_screen(panel, answers.append)
        await app.push_screen(Plain(), answers.append)
        panel.dismiss("done")  # from a worker, say, after a key opened Plain over it
        await pilot.pause()
        assert app.screen_stack == [app.screen_stack[0]]
        assert answers == [None, "done"]
        panel.dismiss("again")  # closed already: the screen below stays
        await pilot.pause()
        assert len(app.screen_stack) == 1 and answers == [None, "done"]


async def test_a_screen_covered_by_one_still_being_built_closes_once_that_one_is() -> None:
    answers: list[object] = []
    async with App[None]().run_test() as pilot:
        app = pilot.app
        panel = Panel()
        await app.push_screen(panel, answers.append)
        app.push_screen(Plain())  # not built yet
        panel.dismiss("done")
        assert panel in app.screen_stack  # it waits
        await pilot.pause()
        await pilot.pause()
        assert len(app.screen_stack) == 1 and answers == ["done"]


def test_every_screen_and_dialog_of_the_console_closes_itself() -> None:
    for module in pkgutil.walk_packages(ui_package.__path__, ui_package.__name__ + "."):
        importlib.import_module(module.name)
    found: list[type[Any]] = []
    todo: list[type[Any]] = list(Screen.__subclasses__())
    while todo:
        klass = todo.pop()
        todo.extend(klass.__subclasses__())
        if klass.__module__.startswith("vagent_tui.ui."):
            found.append(klass)
    # The palette is Textual's: it closes itself from its own code, on top. QuietStartScreen
    # (textual_compat) is ClosesItself's own base, no screen of its own.
    console = [k for k in found if not issubclass(k, CommandPalette) and k is not QuietStartScreen]
    assert len(console) > 20
    assert [k.__name__ for k in console if not issubclass(k, ClosesItself)] == []
