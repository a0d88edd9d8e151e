"""The agent listing Fleet and Rollout share: compact rows, the same accounts as
`fleet_accounts`, the same paths as the directory's, one listing per client."""

from __future__ import annotations

import asyncio
import gc
import tracemalloc

import pytest

from vagent_tui.api.models import Account
from vagent_tui.services.accounts import AccountDirectory
from vagent_tui.services.agent_listing import (
    AgentListings,
    AgentRow,
    each_at_most,
    fleet_accounts,
    list_agents,
)
from vagent_tui.services.agent_rows import RowColumns
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


def _account(account_id: int, name: str, username: str | None) -> Account:
    return Account.model_validate(
        {"id": account_id, "name": name, "username": username, "accountType": "account"}
    )


def test_rows_come_out_by_id_once_each_whatever_order_the_pages_came_in() -> None:
    columns = RowColumns()
    columns.add([_account(30, "c", "c.user"), _account(31, "ć", None)], 3)  # an org read later
    columns.add([_account(10, "a", ""), _account(11, "b", "b.user")], 1)
    columns.add([], 2)  # an organization without agent accounts
    rows = columns.rows()
    assert list(rows) == [
        AgentRow(10, "a", ""), AgentRow(11, "b", "b.user"),
        AgentRow(30, "c", "c.user"), AgentRow(31, "ć", None),
    ]  # fmt: skip
    assert [rows.parent_of(i) for i in (10, 31, 99)] == [1, 3, None]
    assert rows.get(11) == AgentRow(11, "b", "b.user") and rows.get(12) is None
    assert list(rows[1:3]) == [AgentRow(11, "b", "b.user"), AgentRow(30, "c", "c.user")]
    assert rows[-1] == AgentRow(31, "ć", None)
    assert list(rows[::2]) == [AgentRow(10, "a", ""), AgentRow(30, "c", "c.user")]

    interleaved = RowColumns()
    interleaved.add([_account(5, "e", None), _account(1, "x", "x")], 1)
    interleaved.add([_account(3, "d", "d"), _account(1, "y", None)], 2)  # 1 again: the last
    assert list(interleaved.rows()) == [
        AgentRow(1, "y", None), AgentRow(3, "d", "d"), AgentRow(5, "e", None)
    ]  # fmt: skip
    assert interleaved.rows().parent_of(1) == 2


async def test_at_most_so_many_reads_are_under_way_and_each_outcome_is_in_its_place() -> None:
    under_way, most = 0, 0

    async def read(item: int) -> int:
        nonlocal under_way, most
        under_way += 1
        most = max(most, under_way)
        await asyncio.sleep(0)
        under_way -= 1
        if item == 3:
            raise ValueError(item)
        return item * 10

    outcomes = await each_at_most(4, read, range(10))
    assert most == 4
    assert [o if isinstance(o, int) else repr(o) for o in outcomes] == [
        0, 10, 20, "ValueError(3)", 40, 50, 60, 70, 80, 90
    ]  # fmt: skip


async def test_a_listing_keeps_less_than_200_bytes_an_account() -> None:
    """An account's id, parent, name and username in columns shared by all (about 100
    bytes); a row object and two strings each, and the organizations above kept whole,
    were twice and more that."""
    client = demo_client("demo-partner", accounts=2000)
    connection = await open_connection(client, label="demo")
    assert connection.scope is not None and connection.owner is not None
    directory = AccountDirectory(client, connection.scope, connection.owner)
    gc.collect()
    tracemalloc.start(40)  # deep enough to see whether the listing made a block
    try:
        before = tracemalloc.take_snapshot()
        listing = await list_agents(client, directory)
        del directory
        gc.collect()
        after = tracemalloc.take_snapshot()
    finally:
        tracemalloc.stop()
    # What the listing made and kept, not what the simulator keeps of its requests.
    listing_made = [
        tracemalloc.Filter(True, "*/vagent_tui/services/agent_listing.py", all_frames=True),
        tracemalloc.Filter(False, "*/vagent_tui/sim/*", all_frames=True),
    ]
    kept = sum(s.size_diff for s in after.filter_traces(listing_made).compare_to(
        before.filter_traces(listing_made), "filename"))  # fmt: skip
    assert len(listing.accounts) >= 2000
    assert kept / len(listing.accounts) < 200, kept
    await client.aclose()
