"""A 403 from a relay endpoint is shown with the platform's message (issue 15, point 13).

The documented 403 of a relay delete is the premium message, but a 403 may also be a
forbidden operation or a target the key may not act on: the console does not tell the
user "premium" on its own, it shows what the platform said.
"""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets import Static

from tests.helpers import MakeApp, settle, shown
from vagent_tui.api.errors import ApiError
from vagent_tui.ui.dialogs import ConfirmModal
from vagent_tui.ui.screens.base import BaseScreen
from vagent_tui.ui.screens.webhooks import WebhooksScreen

FORBIDDEN = "Forbidden: relays are managed by your reseller"


def _status(app: Any) -> str:
    return str(shown(app, BaseScreen).status.content)


def _notice(app: Any) -> str:
    return str(app.screen.query_one("#relay-notice", Static).render())


async def test_a_403_on_the_relay_list_shows_the_servers_message(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app("webhooks")

    async def refuse(*args: Any, **kwargs: Any) -> Any:
        raise ApiError(403, FORBIDDEN)

    monkeypatch.setattr(app.connection.api, "list_relays", refuse)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, WebhooksScreen)
        assert screen.premium is False  # the configurations are unknown
        notice = _notice(app)
        assert FORBIDDEN in notice and "premium" not in notice.lower()
        assert "premium" not in _status(app).lower()
        await pilot.press("t")
        await settle(pilot)
        detail = str(screen.query_one("#relay-detail-text", Static).render())
        assert "premium" not in detail.lower()


async def test_a_403_on_a_relay_delete_shows_the_servers_message(make_app: MakeApp) -> None:
    app = make_app("webhooks")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = shown(app, WebhooksScreen)

        async def refuse(*args: Any, **kwargs: Any) -> Any:
            raise ApiError(403, FORBIDDEN)

        app.connection.api.delete_relay = refuse  # type: ignore[method-assign]
        await pilot.press("t")
        await settle(pilot)
        table = screen.relay_table
        rows = [r.name for r in screen.relays]
        table.move_cursor(row=rows.index("chargebee"))
        await pilot.press("d")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmModal)
        await pilot.click("#confirm")
        await settle(pilot)
        assert screen.last_outcome == (403, FORBIDDEN)
        status = _status(app)
        assert f"HTTP 403: {FORBIDDEN}" in status and "premium" not in status.lower()
