"""Which Computer Agents the Computer screen offers for the target account."""

from __future__ import annotations

from vagent_tui.services.agents import computer_accounts_for
from vagent_tui.services.connect import demo_client


async def test_an_organization_offers_the_computer_agents_below_it() -> None:
    async with demo_client("demo-partner") as client:
        choice = await computer_accounts_for(client, 1110, agent_selected=False)
    assert [a.id for a in choice.accounts] == [1118] and choice.delegate_of is None


async def test_a_voice_agent_offers_the_one_it_delegates_to() -> None:
    async with demo_client("demo-partner") as client:
        choice = await computer_accounts_for(client, 1111, agent_selected=True)
    assert [a.id for a in choice.accounts] == [1118] and choice.delegate_of == 1111


async def test_a_voice_agent_without_a_delegate_offers_none() -> None:
    async with demo_client("demo-partner") as client:
        choice = await computer_accounts_for(client, 1113, agent_selected=True)
    assert choice.accounts == [] and choice.delegate_of is None


async def test_a_failed_delegate_look_up_gives_the_plain_answer() -> None:
    async with demo_client("demo-partner") as client:
        client.sim_app.state.sim.faults.set("500", path_contains="agentEventRules")
        choice = await computer_accounts_for(client, 1111, agent_selected=True)
    assert choice.accounts == [] and choice.delegate_of is None
