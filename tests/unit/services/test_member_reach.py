"""The agent accounts a member may be limited to (services/member_reach.py), on the simulator."""

from __future__ import annotations

from vagent_tui.api.scope import classify
from vagent_tui.services.accounts import AccountDirectory
from vagent_tui.services.connect import demo_client
from vagent_tui.services.member_reach import choices_below


async def _directory(token: str) -> AccountDirectory:
    client = demo_client(token)
    owner = await client.get_account()
    return AccountDirectory(client, classify(owner), owner)


async def test_an_organizations_agent_accounts_from_its_own_key() -> None:
    directory = await _directory("demo-org")
    choices = await choices_below(directory, 1110)
    await directory.client.aclose()
    assert [c.id for c in choices.accounts] == [1111, 1112, 1113, 1118]
    assert choices.home_name == "Acme Dental Group" and choices.complete
    assert all(c.path == "" for c in choices.accounts)  # right below the home


async def test_a_resellers_agent_accounts_under_their_organizations() -> None:
    directory = await _directory("demo-reseller")
    choices = await choices_below(directory, 1100)
    org = await choices_below(directory, 1120)  # an organization below the key: read as one
    await directory.client.aclose()
    paths = {c.id: c.path for c in choices.accounts}
    assert paths[1111] == "Acme Dental Group" and paths[1121] == "Harbor Realty"
    assert [c.id for c in org.accounts] == [1121, 1122] and org.home_name == "Harbor Realty"
    assert choices.name_of(1121) == "Harbor Realty Leads" and choices.name_of(1) is None


async def test_the_walk_stops_at_the_limit_and_says_so() -> None:
    directory = await _directory("demo-reseller")
    choices = await choices_below(directory, 1100, limit=1)
    await directory.client.aclose()
    assert not choices.complete and choices.accounts
