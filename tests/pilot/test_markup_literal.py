"""Server text with markup characters is shown literally on every screen that shows it."""

from __future__ import annotations

import html
from typing import Any

import pytest

from tests.helpers import MakeApp, settle
from vagent_tui.sim import catalog

MARK = "[bold red]X[/]"
MARKS = {
    "scope": "[bold red]X[/] reseller",
    "voices": "[link=x]voice[/link]",
    "sip": "[red]sip[/]",
    "webhooks": "[b]hook[/b]",
    "tokens": "[i]token[/i]",
}


def seed(app: Any) -> None:
    sim = app.connection.api.sim_app.state.sim
    sim.accounts[1000].name = MARK
    sim.accounts[1100].name = MARK + " reseller"
    sim.sip.setdefault(1000, []).append(
        {"userId": 1000, "label": MARKS["sip"], "timestamp": "1750194180352", "ip": "192.0.2.77"}
    )
    sim.webhooks.setdefault(1000, []).insert(
        0, {"userId": 1000, "label": MARKS["webhooks"], "timestamp": "1750194180352",
            "url": "https://x.example/[b]", "type": "incoming"}
    )  # fmt: skip
    for record in sim.tokens.values():
        if record["userId"] == 1000:
            record["description"] = MARKS["tokens"]


def screen_text(app: Any) -> str:
    svg = app.export_screenshot()
    return html.unescape(svg).replace("\xa0", " ")


async def test_server_text_with_markup_is_literal(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(catalog.VOICES[0], "name", MARKS["voices"])
    app = make_app("scope")
    seed(app)
    async with app.run_test(size=(160, 50)) as pilot:
        await settle(pilot)
        for screen, mark in MARKS.items():
            app.action_show(screen)
            await settle(pilot)
            text = screen_text(app)
            assert MARK in text, f"{screen}: the account name in the header is not literal"
            assert mark in text, f"{screen}: {mark} not shown literally"
