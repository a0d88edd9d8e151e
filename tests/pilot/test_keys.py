"""The way around: ctrl+p and : open the palette, which finds every screen and the
screen's actions; the footer always says how to get around; ? fits 80x24 and scrolls;
the list keys of the convention work on every list."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import pytest
from textual.command import CommandPalette
from textual.widgets import DataTable, Input

from tests.helpers import MakeApp, settle, shown, wait_for
from vagent_tui.ui.footer import KeysFooter
from vagent_tui.ui.keys_panel import KeysScreen
from vagent_tui.ui.registry import SCREENS
from vagent_tui.ui.screens.scope import ScopeScreen


@pytest.mark.parametrize("key", ["ctrl+p", "colon"])
async def test_ctrl_p_and_colon_open_the_palette(make_app: MakeApp, key: str) -> None:
    app = make_app("voices")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press(key)
        await wait_for(pilot, lambda: isinstance(app.screen, CommandPalette))


async def test_the_palette_goes_to_every_screen_by_name(make_app: MakeApp) -> None:
    """Every registered screen, from the one before it, in one app."""
    app = make_app("scope")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        for info in (*SCREENS[1:], SCREENS[0]):
            await pilot.press("ctrl+p")
            await wait_for(pilot, lambda: isinstance(app.screen, CommandPalette))
            palette = app.screen
            palette.query_one(Input).value = f"screen: {info.title}"
            await wait_for(pilot, _offers(app, f"screen: {info.title}"))
            await pilot.press("enter")
            await wait_for(pilot, _in_mode(app, info.name))
            await settle(pilot)


def _offers(app: Any, line: str) -> Callable[[], bool]:
    return lambda: line in _palette_text(app)


def _in_mode(app: Any, name: str) -> Callable[[], bool]:
    return lambda: app.current_mode == name


def _palette_text(app: Any) -> str:
    import html

    return html.unescape(app.export_screenshot()).replace("\xa0", " ")


async def test_the_palette_lists_every_screen_and_the_screens_hidden_actions(
    make_app: MakeApp,
) -> None:
    app = make_app("fleet")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert {f"screen: {info.title}" for info in SCREENS} <= set(titles)
        # Export is a screen action; Limit and Roll out too (hidden from the footer or not).
        assert {"fleet: Export CSV", "fleet: Limit", "fleet: Roll out"} <= set(titles)
        assert "Keys" in titles
        helps = {c.title: c.help for c in app.get_system_commands(app.screen)}
        assert "(key w)" in helps["fleet: Export CSV"]
        assert "(or --screen fleet)" in helps["screen: Fleet"]


async def test_a_keyless_screen_gets_a_key_from_the_keymap(make_app: MakeApp) -> None:
    app = make_app("scope")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.apply_keymap({"goto.fleet": "f6", "goto.journal": "f7"})
        await pilot.press("f6")
        await wait_for(pilot, lambda: app.current_mode == "fleet")
        await pilot.press("f7")
        await wait_for(pilot, lambda: app.current_mode == "journal")
        helps = {c.title: c.help for c in app.get_system_commands(app.screen)}
        assert "(key f6)" in helps["screen: Fleet"]


@pytest.mark.parametrize("size", [(80, 24), (60, 15), (120, 40)])
async def test_the_footer_always_says_how_to_get_around(make_app: MakeApp, size: Any) -> None:
    app = make_app("voices")
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        footer = app.screen.query_one(KeysFooter)
        assert footer.hint == "1-0 screens  : ^p commands  ? keys"
        line = footer.render().plain
        assert len(line) == size[0] and line.endswith(" 1-0 screens  : ^p commands  ? keys  ")
        assert footer.region.y == size[1] - 1


async def test_the_footer_hint_follows_the_keymap(make_app: MakeApp) -> None:
    app = make_app("voices")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.apply_keymap({"app.palette": "f1", "goto.voices": "f3"})
        app.screen.refresh_bindings()
        footer = app.screen.query_one(KeysFooter)

        await wait_for(pilot, lambda: ": f1 commands" in footer.hint)
        assert "screens" not in footer.hint  # a screen key moved: ? lists them
        assert ": f1 commands" in footer.render().plain


async def test_question_mark_fits_80x24_and_scrolls_with_the_keyboard(make_app: MakeApp) -> None:
    app = make_app("voices")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, KeysScreen))
        panel = app.screen
        assert isinstance(panel, KeysScreen)
        await settle(pilot)
        body = panel.body
        frame = panel.query_one("Vertical")
        assert frame.region.width <= 80 and frame.region.height <= 24
        assert body.max_scroll_y > 0  # more than fits: it must scroll
        assert "This screen: Voices" in _palette_text(app)
        assert "Copy id" in _palette_text(app)
        for key, where in (
            ("pagedown", lambda: body.scroll_y > 0),
            ("g", lambda: body.scroll_y == 0),
            ("G", lambda: body.scroll_y == body.max_scroll_y),
            ("home", lambda: body.scroll_y == 0),
            ("down", lambda: body.scroll_y == 1),
            ("j", lambda: body.scroll_y == 2),
            ("k", lambda: body.scroll_y == 1),
            ("end", lambda: body.scroll_y == body.max_scroll_y),
            ("pageup", lambda: body.scroll_y < body.max_scroll_y),
        ):
            await pilot.press(key)
            await wait_for(pilot, where)
        await pilot.press("G")
        await wait_for(pilot, lambda: "delete or remove the highlighted" in _palette_text(app))
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, KeysScreen))
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, KeysScreen))
        await pilot.press("question_mark")  # ? again closes it
        await wait_for(pilot, lambda: not isinstance(app.screen, KeysScreen))
        assert app.current_mode == "voices"


async def test_g_G_home_end_on_a_list(make_app: MakeApp) -> None:
    app = make_app("voices", account=1112)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        table = app.screen.query_one("#voices-table", DataTable)
        await wait_for(pilot, lambda: table.row_count > 3)
        table.focus()
        last = table.row_count - 1
        for key, row in (("G", last), ("g", 0), ("end", last), ("home", 0)):
            await pilot.press(key)

            def there(row: int = row) -> bool:
                return table.cursor_row == row

            await wait_for(pilot, there)
        await pilot.press("pagedown")
        await wait_for(pilot, lambda: table.cursor_row > 0)


async def test_enter_shows_and_hides_the_voice_detail(make_app: MakeApp) -> None:
    app = make_app("voices", account=1112)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        table = app.screen.query_one("#voices-table", DataTable)
        await wait_for(pilot, lambda: table.row_count > 0)
        table.focus()
        detail = app.screen.query_one("#voices-detail")
        shown = not detail.has_class("-hidden")
        await pilot.press("enter")
        await wait_for(pilot, lambda: detail.has_class("-hidden") == shown)
        await pilot.press("enter")
        await wait_for(pilot, lambda: detail.has_class("-hidden") != shown)


async def test_keys_a_focused_widget_hides_are_still_listed(make_app: MakeApp) -> None:
    # The voices table takes Enter for itself (and shows the detail through it): the
    # screen's Enter binding is not among Textual's active bindings, but ? and the
    # palette list it; a read-only profile's hidden write keys stay hidden.
    app = make_app("voices", account=1112)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.screen.query_one("#voices-table", DataTable).focus()
        await pilot.pause()
        assert "voices.detail" not in {a.binding.id for a in app.screen.active_bindings.values()}
        helps = {c.title: c.help for c in app.get_system_commands(app.screen)}
        assert "(key ⏎)" in helps["voices: Detail"]
        assert "voices: Use for agent" in helps
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, KeysScreen))
        assert "Detail: Show/hide detail" in _palette_text(app)
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, KeysScreen))
        app.connection = dataclasses.replace(app.connection, read_only=True)
        await settle(pilot)
        titles = {c.title for c in app.get_system_commands(app.screen)}
        assert "voices: Detail" in titles and "voices: Use for agent" not in titles


async def test_a_key_the_focused_widget_answers_is_listed_once(make_app: MakeApp) -> None:
    from vagent_tui.ui.keys_panel import screen_rows

    app = make_app("scope")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        shown(app, ScopeScreen).account_tree.focus()
        await pilot.pause()
        rows = screen_rows(app.bindings_of(app.screen), app.get_key_display)
        assert [what for keys, what in rows if keys == "⏎"] == ["Pick target: Act as this account"]
