"""The key footer of the screens: recomposed when the keys it shows change, only then."""

from __future__ import annotations

from typing import Any

from textual.widgets import Input

from tests.helpers import settle, wait_for
from vagent_tui.ui.widgets.footer import KeysFooter


def keys_of(footer: KeysFooter) -> list[Any]:
    return list(footer.query("FooterKey"))


async def test_binding_refreshes_that_change_nothing_keep_the_keys(make_app: Any) -> None:
    app = make_app("scope")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        footer = app.screen.query_one(KeysFooter)
        keys = keys_of(footer)
        assert keys
        for _ in range(3):  # what showing a screen does: resume, focus, ...
            app.screen.refresh_bindings()
        await settle(pilot)
        # The same key widgets, not a fresh copy per refresh.
        assert keys_of(footer) == keys
        assert all(key.is_attached for key in keys)


async def test_the_keys_follow_the_focus(make_app: Any) -> None:
    app = make_app("scope")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        footer = app.screen.query_one(KeysFooter)

        def descriptions() -> list[str]:
            return [key.description for key in keys_of(footer)]

        # The tree has the focus: its keys are shown, beside the screen's.
        await wait_for(pilot, lambda: {"Expand", "Filter"} <= set(descriptions()))
        app.screen.query_one("#scope-filter", Input).focus()
        await wait_for(pilot, lambda: "Filter" in descriptions() and "Expand" not in descriptions())
        app.screen.account_tree.focus()
        await wait_for(pilot, lambda: "Expand" in descriptions())
