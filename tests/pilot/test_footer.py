"""The key footer of the screens: one line, repainted when the keys it shows change."""

from __future__ import annotations

from typing import Any

from rich.style import Style
from textual.widgets import Input

from tests.helpers import MakeApp, settle, shown, wait_for
from vagent_tui.ui.footer import KeysFooter
from vagent_tui.ui.screens.scope import ScopeScreen


async def test_binding_refreshes_that_change_nothing_keep_the_keys(make_app: MakeApp) -> None:
    app = make_app("scope")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        footer = app.screen.query_one(KeysFooter)
        items = footer.items
        assert items
        painted: list[int] = []

        def refresh(*args: Any, **kwargs: Any) -> KeysFooter:
            painted.append(1)
            return footer

        footer.refresh = refresh  # type: ignore[method-assign]
        for _ in range(3):  # what showing a screen does: resume, focus, ...
            app.screen.refresh_bindings()
        await settle(pilot)
        assert footer.items is items and not painted
        assert not footer.children  # one line drawn by one widget, no key widgets


async def test_the_keys_follow_the_focus(make_app: MakeApp) -> None:
    app = make_app("scope")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        footer = app.screen.query_one(KeysFooter)

        def descriptions() -> list[str]:
            return [item.description for item in footer.shown_items]

        # The tree has the focus: its keys are shown, beside the screen's.
        await wait_for(pilot, lambda: {"Expand", "Filter"} <= set(descriptions()))
        app.screen.query_one("#scope-filter", Input).focus()
        await wait_for(pilot, lambda: "Filter" in descriptions() and "Expand" not in descriptions())
        shown(app, ScopeScreen).account_tree.focus()
        await wait_for(pilot, lambda: "Expand" in descriptions())


async def test_a_key_shows_whole_or_not_at_all_and_the_hint_stays(make_app: MakeApp) -> None:
    app = make_app("migrations")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        footer = app.screen.query_one(KeysFooter)
        shown = footer.shown_items
        assert 0 < len(shown) < len(footer.items)  # 80 columns: not every key
        assert shown == list(footer.items[: len(shown)])  # the first ones, in order
        line = footer.render().plain
        assert len(line) == 80 and footer.region.y == 23
        assert line.endswith(" 1-0 screens  : ^p commands  ? keys  ")
        for item in shown:
            assert f" {item.display} {item.description} " in line
        left_out = footer.items[len(shown)]
        assert f" {left_out.display} {left_out.description}" not in line
        await pilot.resize_terminal(200, 24)
        await wait_for(pilot, lambda: footer.shown_items == list(footer.items))


async def test_a_click_on_a_key_presses_it_and_a_disabled_one_rings(make_app: MakeApp) -> None:
    app = make_app("voices")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        footer = app.screen.query_one(KeysFooter)
        pressed: list[str] = []
        rung: list[int] = []
        app.simulate_key = lambda key: pressed.append(key)  # type: ignore[method-assign]
        app.bell = lambda: rung.append(1)  # type: ignore[method-assign]
        start = 0
        for item in footer.shown_items:
            await pilot.click(footer, offset=(start + 1, 0))
            assert (pressed[-1:] == [item.key]) if item.enabled else rung
            start += len(f" {item.display} {item.description} ")
        assert pressed
        await pilot.hover(footer, offset=(1, 0))
        assert footer.tooltip == footer.shown_items[0].tooltip


async def test_a_disabled_key_is_dim_and_rings() -> None:
    from textual.app import App, ComposeResult

    class Keys(App[None]):
        BINDINGS = [("x", "ring", "Ring"), ("y", "go", "Go"), ("z", "zoom", "Zoom")]

        def compose(self) -> ComposeResult:
            yield KeysFooter(show_hint=False)

        def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
            return None if action == "go" else True  # None: shown, disabled

    app = Keys()
    async with app.run_test(size=(60, 5)) as pilot:
        footer = app.query_one(KeysFooter)
        await wait_for(pilot, lambda: len(footer.shown_items) == 3)
        assert footer.render().plain.rstrip() == " x Ring  y Go  z Zoom"
        assert [item.enabled for item in footer.shown_items] == [True, False, True]
        dim = [span for span in footer.render().spans if Style.parse(str(span.style)).dim]
        assert [(s.start, s.end) for s in dim] == [(8, 14)]  # " y Go ", the disabled key
        pressed: list[str] = []
        rung: list[int] = []
        app.simulate_key = lambda key: pressed.append(key)  # type: ignore[method-assign]
        app.bell = lambda: rung.append(1)  # type: ignore[method-assign]
        await pilot.click(footer, offset=(8, 0))  # on "y Go"
        assert (pressed, rung) == ([], [1])
        await pilot.click(footer, offset=(1, 0))  # on "x Ring"
        assert (pressed, rung) == (["x"], [1])
        await pilot.click(footer, offset=(15, 0))  # on "z Zoom"
        assert (pressed, rung) == (["x", "z"], [1])
        await pilot.hover(footer, offset=(8, 0))
        assert footer.tooltip == "Go" and footer.styles.pointer == "pointer"
        await pilot.hover(footer, offset=(30, 0))  # past the keys
        assert footer.tooltip is None and footer.styles.pointer == "default"


async def test_a_click_on_the_hint_runs_what_its_keys_run(make_app: MakeApp) -> None:
    """Issue 24: the way-around hint looked like keys, and a click on it did nothing."""
    from textual.app import App
    from textual.command import CommandInput, CommandPalette

    def palette_open() -> bool:
        palette_app: App[Any] = app  # is_open takes an App[object]: VagentApp is an App[None]
        return CommandPalette.is_open(palette_app)

    from vagent_tui.ui.keys_panel import KeysScreen

    app = make_app("voices")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        footer = app.screen.query_one(KeysFooter)
        line = footer.render().plain

        async def click(words: str) -> None:
            await pilot.click(footer, offset=(line.index(words) + 1, 0))
            await pilot.pause()

        await click("? keys")
        await wait_for(pilot, lambda: isinstance(app.screen, KeysScreen))
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, KeysScreen))

        await click(": ^p commands")
        await wait_for(pilot, palette_open)
        assert app.screen.query_one(CommandInput).value == ""
        await pilot.press("escape")
        await wait_for(pilot, lambda: not palette_open())

        await click("1-0 screens")
        await wait_for(pilot, palette_open)
        await wait_for(pilot, lambda: app.screen.query_one(CommandInput).value == "screen: ")
        await pilot.hover(footer, offset=(line.index("? keys") + 1, 0))
        await pilot.press("escape")
        await wait_for(pilot, lambda: not palette_open())
        await pilot.hover(footer, offset=(line.index("? keys") + 1, 0))
        assert footer.tooltip == "?: keys" and footer.styles.pointer == "pointer"
