"""Every screen of the console: its name (for ``--screen``), key, title and class.

The title here is the one place a registered screen's title is named: the palette, the
go-to keys and README read it, and the screen class gets it as its ``TITLE``
(`vagent_tui.ui.screens.base.BaseScreen`); a screen shown from another one (a call, a
room) is not registered and states its ``TITLE`` itself (a test keeps the rule:
tests/unit/ui/test_screen_titles.py).

Screen modules are imported only when a screen is first shown, to keep start-up fast.
README's list of ``--screen`` names is `markdown`'s table, written between its markers
by ``vagent-tui keys --write-readme README.md`` (a test fails when README differs).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from textual.screen import Screen


class ScreenInfo(NamedTuple):
    """A screen of the console: its name, key, title and where its class lives."""

    name: str
    key: str
    title: str
    target: str  # "module:Class"
    help: str

    def load(self) -> Screen[Any]:
        """Import the screen's module (first use only) and make the screen."""
        module, _, name = self.target.partition(":")
        screen_class: type[Screen[Any]] = getattr(importlib.import_module(module), name)
        return screen_class()


_P = "vagent_tui.ui.screens."

SCREENS: tuple[ScreenInfo, ...] = (
    ScreenInfo(
        "scope",
        "1",
        "Scope",
        _P + "scope:ScopeScreen",
        "Who the key belongs to; pick the target account",
    ),
    ScreenInfo(
        "agent",
        "2",
        "Agent",
        _P + "agent:AgentScreen",
        "Staging and live configuration, saved versions",
    ),
    ScreenInfo("voices", "3", "Voices", _P + "voices:VoicesScreen", "Browse and filter the voices"),
    ScreenInfo(
        "functions",
        "4",
        "Functions",
        _P + "functions:FunctionsScreen",
        "Function availability checked against the agent",
    ),
    ScreenInfo(
        "inbox",
        "5",
        "Inboxes",
        _P + "inbox:InboxScreen",
        "Junk and priority inbox rooms, paged by the server; Enter opens a room",
    ),
    ScreenInfo(
        "migrations",
        "6",
        "Migrations",
        _P + "migrations:MigrationsScreen",
        "Template migrations: start, dry run, watch",
    ),
    ScreenInfo(
        "tokens", "7", "Tokens", _P + "tokens:TokensScreen", "API tokens: list (masked) and create"
    ),
    ScreenInfo(
        "sip",
        "8",
        "SIP",
        _P + "sip:SipScreen",
        "SIP: IP whitelist, outbound routes, the agent's registration to a PBX",
    ),
    ScreenInfo(
        "webhooks",
        "9",
        "Webhooks",
        _P + "webhooks:WebhooksScreen",
        "Webhook destinations and relay configurations",
    ),
    ScreenInfo(
        "numbers",
        "",
        "Phone numbers",
        _P + "numbers:NumbersScreen",
        "The account's phone numbers: search, buy, bring your own, return",
    ),
    ScreenInfo(
        "members",
        "",
        "Members",
        _P + "members:MembersScreen",
        "Who can act where: invite, change and remove members of the organization",
    ),
    ScreenInfo(
        "computer",
        "0",
        "Computer Agents",
        _P + "computer:ComputerScreen",
        "Workflow recordings and workspace uploads",
    ),
    ScreenInfo(
        "calls",
        "",
        "Calls",
        _P + "calls:CallsScreen",
        "Calls and messages: filter, transcripts, follow, export",
    ),
    ScreenInfo(
        "tasks",
        "",
        "Tasks",
        _P + "tasks:TasksScreen",
        "Outbound calls and texts: states, today's counts, queue, edit, cancel or delete one",
    ),
    ScreenInfo(
        "billing",
        "",
        "ADR export",
        _P + "billing:BillingScreen",
        "Call-detail record export to your file server",
    ),
    ScreenInfo(
        "usage",
        "",
        "Usage",
        _P + "usage:UsageScreen",
        "Usage and costs of the account by period or dates, its plan, today's counts",
    ),
    ScreenInfo(
        "numbering",
        "",
        "Numbering providers",
        _P + "numbering:NumberingScreen",
        "Through whom an organization's numbers are bought: add, credentials, default, enable",
    ),
    ScreenInfo(
        "integrations",
        "",
        "Integrations",
        _P + "integrations:IntegrationsScreen",
        "An integration's data by its slug, secrets masked; edit it after a review",
    ),
    ScreenInfo(
        "journal",
        "",
        "Journal",
        _P + "journal:JournalScreen",
        "Every change made from this console, with copy as curl",
    ),
    ScreenInfo(
        "fleet",
        "",
        "Fleet",
        _P + "fleet:FleetScreen",
        "Ask one question of every account below the key",
    ),
    ScreenInfo(
        "rollout",
        "",
        "Rollout",
        _P + "rollout:RolloutScreen",
        "One change to many agent accounts: plan, apply, publish in waves",
    ),
    ScreenInfo(
        "onboard",
        "",
        "Onboard",
        _P + "onboard:OnboardScreen",
        "Organizations, accounts and members from a CSV or JSON file: plan, then apply",
    ),
)

BY_NAME = {info.name: info for info in SCREENS}
BY_TARGET = {info.target: info for info in SCREENS}
"""A registered screen's entry by its class (``"module:Class"``)."""
