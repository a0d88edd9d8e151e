"""`vagent_tui.ui.built`: work for a screen not built yet waits for it. On a bare Textual
app (no console)."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.screen import ModalScreen
from textual.widgets import Static

from vagent_tui.ui.built import built, when_built


class Panel(ModalScreen[str]):
    def compose(self) -> ComposeResult:
        yield Static("panel", id="body")


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
