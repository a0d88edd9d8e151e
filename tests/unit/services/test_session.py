"""Connection: connect classifies the key, targets resolve or are refused, values are new."""

from __future__ import annotations

from typing import Any

import pytest

from vagent_tui.api.errors import PlatformError
from vagent_tui.api.models import Account
from vagent_tui.api.scope import ScopeLevel
from vagent_tui.services.session import Connection, open_connection


class FakeClient:
    def __init__(self, owner: dict[str, Any], accounts: dict[int, dict[str, Any]]) -> None:
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
    start = Connection(client)  # type: ignore[arg-type]
    connection = await start.connect()
    assert start.scope is None and not start.connected  # a value: never changed in place
    scope = connection.scope
    assert scope is not None and scope.level is ScopeLevel.PARTNER and scope.rule == 1
    assert connection.target_id is None and not connection.is_agent_selected
    assert connection.context_line() == "acting as key owner Partner"
    acme = connection.with_target(await connection.resolve(5))
    assert acme.target_id == 5 and acme.is_agent_selected
    assert acme.context_line() == "acting as Acme (#5) via key of Partner"
    assert not acme.same_context(connection) and acme.same_context(acme.with_target(acme.target))
    back = acme.with_target(acme.owner)  # the owner means "no target"
    assert back.target_id is None and back.same_context(connection)
    assert client.targets == [None, 5]


async def test_restricted_member_cannot_resolve_other_accounts() -> None:
    client = FakeClient(
        {"id": 9, "accountType": "user", "organizationId": 3, "permittedAccountIds": [5]},
        {5: {"id": 5, "accountType": "account"}, 6: {"id": 6, "accountType": "account"}},
    )
    connection = await open_connection(client, label="t")  # type: ignore[arg-type]
    scope = connection.scope
    assert scope is not None and scope.level is ScopeLevel.ORGANIZATION and scope.restricted
    assert (await connection.resolve(5)).id == 5
    with pytest.raises(PlatformError, match="restricted"):
        await connection.resolve(6)
    assert client.targets == [None, 5]  # the refused one was never asked for


@pytest.mark.parametrize(
    ("owner", "answered"),
    [
        ({"accountType": "partner"}, True),
        ({"accountType": "reseller"}, True),
        ({"accountType": "user", "organizationId": 7, "resellerId": 7}, True),  # rule 2
        ({"accountType": "reseller", "permittedAccountIds": [5]}, False),
        ({"accountType": "organization"}, False),
        ({"accountType": "account"}, False),
        ({"accountType": "organization", "superAdmin": True}, True),
        ({"accountType": "mystery"}, False),
    ],
)
async def test_reseller_or_partner_key(owner: dict[str, Any], answered: bool) -> None:
    """What the vendor calls "Reseller/Partner only" (getAccountByExternalId) is offered
    to such a key (a super admin's too: vida-skill), not to another; not before connecting."""
    start = Connection(FakeClient({"id": 1, "name": "K", **owner}, {}))  # type: ignore[arg-type]
    assert not start.reseller_or_partner_key
    assert (await start.connect()).reseller_or_partner_key is answered
