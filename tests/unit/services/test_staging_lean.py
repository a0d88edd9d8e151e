"""A rollout's lean reads: only the configuration used as a base is checked against the model."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from vagent_tui.api.errors import MalformedResponse
from vagent_tui.api.scope import classify
from vagent_tui.services.accounts import AccountDirectory
from vagent_tui.services.agent_listing import fleet_accounts
from vagent_tui.services.changes import Change
from vagent_tui.services.connect import demo_client
from vagent_tui.services.rollout_apply import _base_now
from vagent_tui.services.rollout_planning import plan_account
from vagent_tui.services.staging import read_context

AGENT = 1111


def counting(client: Any) -> list[Any]:
    """The configurations ``client`` checks from now on (`slot_as_sent`'s arguments)."""
    checked: list[Any] = []
    real = client.slot_as_sent

    def slot_as_sent(campaign: Any, path: str = "/agentEventRules") -> Any:
        checked.append(campaign)
        return real(campaign, path)

    client.slot_as_sent = slot_as_sent
    return checked


def with_staging(client: Any, **changes: Any) -> Any:
    sim = client.sim_app.state.sim
    sim.staging[AGENT] = {**copy.deepcopy(sim.live[AGENT]), **changes}
    return sim


async def test_lean_checks_staging_and_leaves_live_as_sent() -> None:
    client = demo_client("demo-partner")
    sim = with_staging(client, speakingTimeout=1234)
    checked = counting(client)
    context = await read_context(client, AGENT, lean=True)
    assert context.staging is not None and context.staging["speakingTimeout"] == 1234
    assert context.live == sim.live[AGENT]
    assert [c["speakingTimeout"] for c in checked] == [1234]  # staging only


async def test_lean_checks_live_when_it_is_the_base() -> None:
    client = demo_client("demo-partner")
    client.sim_app.state.sim.staging[AGENT] = None
    checked = counting(client)
    context = await read_context(client, AGENT, lean=True)
    assert context.staging is None and context.live is not None
    assert checked == [context.live]


async def test_a_live_the_model_refuses_does_not_stop_a_plan() -> None:
    client = demo_client("demo-partner")
    sim = with_staging(client)
    sim.live[AGENT]["speakingTimeout"] = {"not": "a number"}
    with pytest.raises(MalformedResponse):  # checked: live is refused (asked again first)
        await read_context(client, AGENT)
    owner = await client.get_account()
    accounts = await fleet_accounts(AccountDirectory(client, classify(owner), owner))
    (account,) = [a for a in accounts if a.id == AGENT]
    plan = await plan_account(client, account, Change.of_settings({"speakingTimeout": 900}))
    assert plan is not None and plan.outcome == "change"
    assert plan.body == {"speakingTimeout": 900}
    assert plan.notes  # live differs from staging: the note on other unpublished changes


async def test_a_refused_live_is_refused_when_it_is_the_base() -> None:
    client = demo_client("demo-partner")
    sim = client.sim_app.state.sim
    sim.staging[AGENT] = None
    sim.live[AGENT]["speakingTimeout"] = {"not": "a number"}
    with pytest.raises(MalformedResponse):
        await read_context(client, AGENT, lean=True)


async def test_the_apply_checks_only_the_base_it_returns() -> None:
    client = demo_client("demo-partner")
    with_staging(client, speakingTimeout=1234)
    checked = counting(client)
    base = await _base_now(client, AGENT)
    assert base is not None and base["speakingTimeout"] == 1234
    assert len(checked) == 1
