"""The simulator grown to N agent accounts (``create_app(accounts=N)``, ``sim --accounts``)."""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from collections.abc import AsyncIterator

import httpx
import pytest

from vagent_tui.sim import SimState, create_app, demo_state
from vagent_tui.sim.faults import ERROR_MESSAGES, Faults, add_arguments, from_args
from vagent_tui.sim.fleet import AGENT_BASE

from .helpers import Sim


@pytest.fixture
async def big() -> AsyncIterator[Sim]:
    app = create_app(accounts=1000)
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://sim") as client:
        yield Sim(client, app.state.sim)


def _agents(state: SimState, root: int = 1000) -> list[int]:
    return [a.id for a in state.reachable(state.accounts[root]) if a.is_agent]


def test_default_seed_unchanged_and_growth_is_fast() -> None:
    plain = demo_state()
    start = time.perf_counter()
    grown = demo_state(agent_accounts=1000)
    assert time.perf_counter() - start < 1.0
    assert len(_agents(plain)) == 13
    assert len(_agents(grown)) == 1000
    for aid, cfg in plain.live.items():
        assert json.dumps(grown.live[aid], sort_keys=True) == json.dumps(cfg, sort_keys=True)
    assert set(plain.tokens) == set(grown.tokens)
    # nothing is built until read
    assert AGENT_BASE not in dict(grown.live.items())
    assert demo_state(agent_accounts=5).accounts.keys() == plain.accounts.keys()


def test_growth_is_deterministic() -> None:
    a, b = demo_state(agent_accounts=60), demo_state(agent_accounts=60)
    assert [x.name for x in a.accounts.values()] == [x.name for x in b.accounts.values()]
    assert a.live[AGENT_BASE + 7] == b.live[AGENT_BASE + 7]


def test_bad_count_refused() -> None:
    with pytest.raises(ValueError):
        demo_state(agent_accounts=-1)
    with pytest.raises(ValueError):
        demo_state(agent_accounts=100_001)


async def test_generated_agents_answer_the_fleet_questions(big: Sim) -> None:
    resellers = (await big.get("/listResellers", targetPartnerId=1000)).json()
    assert resellers["totalResellers"] == 3 + 10
    aid = AGENT_BASE + 123
    functions = (await big.get("/agent/functions", targetAccountId=aid)).json()
    assert functions["success"] and functions["functions"]
    allowed = {f["allowed"] for f in functions["functions"]}
    assert allowed == {True, False}
    live = (await big.get("/agentEventRules/default", targetAccountId=aid)).json()
    assert live["campaign"]["id"] == f"cfg-{aid}"
    assert live["campaign"]["agentVoice"]
    staging = (await big.get("/agentEventRules/staging", targetAccountId=aid)).json()
    assert staging["campaign"] is None
    junk = await big.get(
        "/junkConversations", targetAccountId=aid, unread="true", pagination="true", pageSize=1
    )
    assert junk.json()["totalRooms"] == 80
    versions = (await big.get(f"/agent/cfg-{aid}/versions")).json()
    assert versions == {"success": True, "versions": []}
    other = await big.get("/agent/functions", "demo-other", targetAccountId=aid)
    assert other.status_code == 403


async def test_a_rate_limit_refuses_past_n_requests_at_once() -> None:
    app = create_app(accounts=100, latency_ms=20)
    state = app.state.sim
    state.faults.max_in_flight = 5
    state.faults.retry_after = 2
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://sim") as client:

        async def ask(aid: int) -> httpx.Response:
            params: dict[str, str | int] = {"token": "demo-partner", "targetAccountId": aid}
            return await client.get("/api/v2/agent/functions", params=params)

        replies = await asyncio.gather(*(ask(AGENT_BASE + i) for i in range(12)))
        ok = [r for r in replies if r.status_code == 200]
        refused = [r for r in replies if r.status_code == 429]
        assert len(ok) == 5 and len(refused) == 7 and state.faults.throttled == 7
        assert {r.headers["Retry-After"] for r in refused} == {"2"}
        assert refused[0].json() == {"success": False, "message": ERROR_MESSAGES[429]}
        assert state.faults.in_flight == 0
        assert all(r.status_code == 200 for r in await asyncio.gather(*map(ask, [1111] * 5)))


def test_the_rate_limit_from_the_command_line() -> None:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    assert from_args(parser.parse_args(["--max-in-flight", "40"]), parser).max_in_flight == 40
    assert from_args(parser.parse_args([]), parser).max_in_flight is None
    with pytest.raises(ValueError):
        Faults(max_in_flight=0)
