"""Keys typed ahead are handled where the focus is once the keys before them were handled
(`vagent_tui.ui.typeahead`), in a minimal app: no platform, no console."""

from __future__ import annotations

import asyncio
from functools import partial
from typing import Any, ClassVar

from textual import events, work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import ModalScreen, Screen
from textual.widgets import Input

from tests.helpers import wait_for
from vagent_tui.ui.typeahead import OPENING_PREFIX, TypeAheadApp

KEY_NAMES = {"\t": "tab", " ": "space", "@": "at", ".": "full_stop"}


class _Form(ModalScreen[None]):
    def compose(self) -> ComposeResult:
        yield Input(id="one")
        yield Input(id="two")


class _Gated(TypeAheadApp[None]):
    """Two fields; ``a`` (not in a field) opens a form of two more, as a list's key does."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("a", "open_form")]

    def __init__(self, *, gated: bool = True) -> None:
        super().__init__()
        self.gated = gated

    def compose(self) -> ComposeResult:
        yield Input(id="first")
        yield Input(id="second")

    def action_open_form(self) -> None:
        self.push_screen(_Form())

    async def on_event(self, event: events.Event) -> None:
        if self.gated:
            await super().on_event(event)
        else:
            await App.on_event(self, event)


def burst(app: App[Any], text: str) -> None:
    """``text`` posted to the app as one burst of keys, a terminal's way (no pause)."""
    for char in text:
        app.post_message(events.Key(KEY_NAMES.get(char, char), char))


def all_read(app: _Gated) -> bool:
    """The app has read every key posted (none left in its queue) and holds none: until
    the app reads the first key of a burst, nothing is held yet either."""
    return not app.message_queue_size and not app.key_gate.holding


def values(app: App[Any]) -> list[str]:
    return [field.value for field in app.screen.query(Input)]


async def typed(text: str, *, gated: bool = True, focus_first: bool = True) -> list[str]:
    app = _Gated(gated=gated)
    async with app.run_test(size=(60, 12)) as pilot:
        if focus_first:
            app.query_one("#first", Input).focus()
        else:
            app.set_focus(None)
        await pilot.pause()
        burst(app, text)
        await wait_for(pilot, partial(all_read, app))
        await pilot.pause()
        await pilot.pause()
        return values(app)


async def test_text_behind_a_tab_lands_in_the_next_field() -> None:
    assert await typed("Zeta Org\tz@zeta.example") == ["Zeta Org", "z@zeta.example"]


async def test_without_the_gate_it_does_not() -> None:
    """The fault the gate exists for, so that the test above can fail."""
    assert await typed("Zeta Org\tz@zeta.example", gated=False) != ["Zeta Org", "z@zeta.example"]


async def test_text_behind_the_key_that_opens_a_form_lands_in_its_first_field() -> None:
    assert await typed("aZeta\tLine", focus_first=False) == ["Zeta", "Line"]


async def test_the_quit_key_is_never_held() -> None:
    app = _Gated()
    async with app.run_test(size=(60, 12)) as pilot:
        app.set_focus(None)
        await pilot.pause()
        burst(app, "ax")
        await wait_for(pilot, lambda: app.key_gate.holding > 0)
        assert app.key_gate.admit(events.Key("ctrl+q", None)), "quit held behind other keys"
        assert not app.key_gate.admit(events.Key("y", "y")), "a key not held behind others"
        await wait_for(pilot, partial(all_read, app))
        await pilot.pause()
        assert values(app) == ["xy", ""]


async def test_a_paste_waits_its_turn_too() -> None:
    app = _Gated()
    async with app.run_test(size=(60, 12)) as pilot:
        app.set_focus(None)
        await pilot.pause()
        burst(app, "a")
        app.post_message(events.Paste("pasted"))
        await wait_for(pilot, partial(all_read, app))
        await pilot.pause()
        assert values(app) == ["pasted", ""]


class _Reads(Screen[None]):
    """``b`` reads (a worker of the ``open-`` kind), then opens the form."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("b", "read_then_open")]

    def compose(self) -> ComposeResult:
        yield Input(id="first")

    def action_read_then_open(self) -> None:
        self.read_then_open()

    @work(group=OPENING_PREFIX + "form")
    async def read_then_open(self) -> None:
        await asyncio.sleep(0.05)  # the platform's reply
        self.app.push_screen(_Form())


class _GatedReads(_Gated):
    def on_mount(self) -> None:
        self.push_screen(_Reads())


async def test_text_behind_a_key_whose_form_comes_after_a_read_lands_in_the_form() -> None:
    app = _GatedReads()
    async with app.run_test(size=(60, 12)) as pilot:
        await pilot.pause()
        app.set_focus(None)
        burst(app, "bZeta\tLine")
        await wait_for(pilot, lambda: isinstance(app.screen, _Form) and not app.key_gate.holding)
        await pilot.pause()
        await pilot.pause()
        assert values(app) == ["Zeta", "Line"]
