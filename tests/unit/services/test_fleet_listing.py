"""The agent listing Fleet and Rollout share: compact rows, the same accounts as
`fleet_accounts`, the same paths as the directory's, one listing per client."""

from __future__ import annotations

import pytest

from vagent_tui.services.accounts import AccountDirectory
from vagent_tui.services.agent_listing import AgentListings, AgentRow, fleet_accounts, list_agents
from vagent_tui.services.connect import demo_client
from vagent_tui.services.session import open_connection


@pytest.mark.parametrize("token", ["demo-partner", "demo-member", "demo-org"])
@pytest.mark.parametrize("extra", [0, 450])
async def test_listing_matches_fleet_accounts_and_the_directory(token: str, extra: int) -> None:
    client = demo_client(token, accounts=extra) if extra else demo_client(token)
    connection = await open_connection(client, label=token)
    assert connection.scope is not None and connection.owner is not None

    def directory() -> AccountDirectory:
        assert connection.scope is not None and connection.owner is not None
        return AccountDirectory(client, connection.scope, connection.owner)

    full = directory()
    accounts = await fleet_accounts(full)
    listing = await list_agents(client, directory())
    assert [r.id for r in listing.accounts] == [a.id for a in accounts]
    assert [r.display_name for r in listing.accounts] == [a.display_name for a in accounts]
    assert all(type(r) is AgentRow for r in listing.accounts)
    for account in accounts:
        assert account.id is not None
        assert [a.id for a in listing.path_of(account.id)] == [
            a.id for a in full.path_of(account.id)
        ], account.id
    await client.aclose()


async def test_one_listing_per_client_until_fresh_or_another_client() -> None:
    client, other = demo_client("demo-partner"), demo_client("demo-partner")
    connection = await open_connection(client, label="a")
    assert connection.scope is not None and connection.owner is not None
    made: list[AccountDirectory] = []

    def directory() -> AccountDirectory:
        assert connection.scope is not None and connection.owner is not None
        made.append(AccountDirectory(client, connection.scope, connection.owner))
        return made[-1]

    listings = AgentListings()
    first = await listings.get(client, directory)
    assert await listings.get(client, directory) is first and len(made) == 1
    assert await listings.get(client, directory, fresh=True) is not first and len(made) == 2
    again = await listings.get(client, directory)
    assert await listings.get(other, directory) is not again and len(made) == 3
    await client.aclose()
    await other.aclose()
