"""The journal screen with a long journal and an edited one: pages, and inert text."""

from __future__ import annotations

import html
from typing import Any

from tests.helpers import MakeApp, settle, shown
from vagent_tui.api.transport import Exchange
from vagent_tui.services.journal import Journal
from vagent_tui.ui.screens.journal import PAGE_SIZE, JournalScreen


def screen_text(app: Any) -> str:
    return html.unescape(app.export_screenshot()).replace("\xa0", " ")


def write_entries(count: int, message: str = "IP entry created") -> None:
    journal = Journal(max_bytes=10**9)
    line = journal.entry_for(
        Exchange("POST", "/api/v2/sip/ipWhitelist", 1111, {"ip": "x"}, 201, message, 0.01), "w"
    ).to_line()
    journal.path.parent.mkdir(parents=True, exist_ok=True)
    with journal.path.open("w") as handle:
        for index in range(count):
            handle.write(line.replace('"x"', f'"{index}"'))


async def test_a_long_journal_opens_on_its_newest_page(make_app: MakeApp) -> None:
    write_entries(100_000)
    app = make_app("journal")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, JournalScreen)
        assert len(screen.entries) == PAGE_SIZE and screen.has_older
        assert screen.entries[0].body == {"ip": "99999"}, "not the newest entry first"
        assert "page 1" in str(screen.status.content)
        await pilot.press("n")
        await settle(pilot)
        assert screen.entries[0].body == {"ip": str(99_999 - PAGE_SIZE)}
        await pilot.press("p")
        await settle(pilot)
        assert screen.entries[0].body == {"ip": "99999"}


async def test_an_edited_journal_is_shown_inert(make_app: MakeApp) -> None:
    write_entries(3, message="\x1b]52;c;SGFja2Vk\x07 [@click=app.screenshot()]x[/] \u202e")
    app = make_app("journal")
    calls: list[str] = []

    def screenshot(*args: Any, **kwargs: Any) -> None:
        calls.append("screenshot")

    app.action_screenshot = screenshot  # type: ignore[method-assign]
    async with app.run_test(size=(160, 40)) as pilot:
        await settle(pilot)
        text = screen_text(app)
        assert "␛]52;c;SGFja2Vk" in text
        assert "[@click=app.screenshot()]x[/]" in text
        for char in ("\x1b", "\x07", "\u202e"):
            assert char not in text
        assert calls == [] and app.is_running
