"""``C`` on the Agent, Fleet and Inbox screens: the Calls screen for the account shown.

Kept apart from `calls` so that those screens do not load the call log's models
before Calls is first opened.
"""

from __future__ import annotations

from textual.binding import Binding

from vagent_tui.ui.screens.base import BaseScreen


def calls_binding(screen: str, tip: str) -> Binding:
    """The ``C`` key of ``screen`` (its id ``SCREEN.calls``)."""
    return Binding("C", "calls", "Calls", id=f"{screen}.calls", tooltip=tip)


async def show_calls(screen: BaseScreen, account_id: int | None) -> None:
    """Open Calls for ``account_id`` (None: every account below the key), in a message."""
    from vagent_tui.ui.screens.calls import CallsScreen

    await screen.app.run_action("app.show('calls')")
    # Switching screens is synchronous: the screen shown now is the Calls screen.
    screen.app.screen.post_message(
        CallsScreen.ShowAccount(account_id, client=screen.connection.client)
    )
