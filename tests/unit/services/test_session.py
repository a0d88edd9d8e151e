"""Session: connect classifies the key, targets resolve or are refused, listeners hear."""

from __future__ import annotations

import pytest

from vagent_tui.api.errors import PlatformError
from vagent_tui.api.models import Account
from vagent_tui.api.scope import ScopeLevel
from vagent_tui.services.session import Session


class FakeClient:
    def __init__(self, owner: dict, accounts: dict[int, dict]) -> None:
        self.owner = owner
        self.accounts = accounts
        self.targets: list[int | None] = []

    async def get_account(self, *, target: int | None = None) -> Account:
        self.targets.append(target)
        if target is None:
            return Account.model_validate(self.owner)
        return Account.model_validate(self.accounts[target])


async def test_connect_and_switch_target() -> None:
    client = FakeClient(
        {"id": 1, "accountType": "partner", "name": "Partner"},
        {5: {"id": 5, "accountType": "account", "name": "Acme"}},
    )
    session = Session(client)  # type: ignore[arg-type]
    heard: list[int | None] = []
    session.listeners.append(lambda s: heard.append(s.target_id))
    scope = await session.connect()
    assert scope.level is ScopeLevel.PARTNER and scope.rule == 1
    assert session.target_id is None and not session.is_agent_selected
    assert session.context_line() == "acting as key owner Partner"
    session.set_target(await session.resolve(5))
    assert session.target_id == 5 and session.is_agent_selected
    assert session.context_line() == "acting as Acme (#5) via key of Partner"
    session.set_target(session.owner)  # the owner means "no target"
    assert session.target_id is None
    assert heard == [5, None]
    assert client.targets == [None, 5]


async def test_restricted_member_cannot_resolve_other_accounts() -> None:
    client = FakeClient(
        {"id": 9, "accountType": "user", "organizationId": 3, "permittedAccountIds": [5]},
        {5: {"id": 5, "accountType": "account"}, 6: {"id": 6, "accountType": "account"}},
    )
    session = Session(client)  # type: ignore[arg-type]
    scope = await session.connect()
    assert scope.level is ScopeLevel.ORGANIZATION and scope.restricted
    assert (await session.resolve(5)).id == 5
    with pytest.raises(PlatformError, match="restricted"):
        await session.resolve(6)
    assert client.targets == [None, 5]  # the refused one was never asked for
