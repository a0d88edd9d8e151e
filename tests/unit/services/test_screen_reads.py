"""The reads that screens hand to a service because they take more than one request
(ARCHITECTURE.md, "Screen or service"), against the in-process simulator."""

from __future__ import annotations

from typing import Any

import pytest

from vagent_tui.api.errors import ApiError, TransportError
from vagent_tui.services.agents import functions_with_slots, review_now, saved_versions
from vagent_tui.services.connect import demo_client
from vagent_tui.services.relays import read_relays
from vagent_tui.services.reread import poll
from vagent_tui.services.rollout_planning import catalog_of

AGENT = 1111


def sim(client: Any) -> Any:
    return client.sim_app.state.sim


async def test_saved_versions_of_the_live_configuration_or_the_one_named() -> None:
    client = demo_client("demo-reseller")
    live = await client.get_live(target=AGENT)
    assert live is not None and live.id
    ident, versions = await saved_versions(client, AGENT, None)
    assert ident == live.id
    assert versions == await client.list_versions(live.id, include_data=True, target=AGENT)
    sim(client).clear_log()
    assert (await saved_versions(client, AGENT, live.id))[0] == live.id
    assert sim(client).count("GET", "/agentEventRules/default") == 0  # named: live not read


class Failing:
    """A client whose agent reads fail (or whose functions list does)."""

    def __init__(self, functions: bool = True) -> None:
        self.functions = functions
        self.asked: list[str] = []

    async def list_functions(self, target: int) -> list[str]:
        self.asked.append("functions")
        if not self.functions:
            raise ApiError(403, "not yours")
        return ["transferCall"]

    async def get_live(self, *, target: int | None = None) -> None:
        self.asked.append("live")
        raise ApiError(500, "down")

    async def get_staging(self, *, target: int | None = None) -> None:
        self.asked.append("staging")
        raise ApiError(500, "down")


async def test_functions_with_slots_keep_the_functions_when_the_agent_fails() -> None:
    client = demo_client("demo-reseller")
    functions, live, staging = await functions_with_slots(client, AGENT, AGENT, agent=True)
    assert functions and live is not None and staging is not None
    del sim(client).staging[AGENT]
    assert (await functions_with_slots(client, AGENT, AGENT, agent=True))[2] is None
    failing: Any = Failing()
    got: tuple[Any, ...] = await functions_with_slots(failing, AGENT, AGENT, agent=True)
    assert got[0] == ["transferCall"] and isinstance(got[1], ApiError) and got[2] is None
    not_agent: Any = Failing()
    alone: tuple[Any, ...] = await functions_with_slots(not_agent, AGENT, None, agent=False)
    assert alone == (["transferCall"], None, None)
    assert not_agent.asked == ["functions"]
    refused: Any = Failing(functions=False)
    with pytest.raises(ApiError, match="not yours"):
        await functions_with_slots(refused, AGENT, AGENT, agent=True)


async def test_review_now_reviews_staging_else_live() -> None:
    client = demo_client("demo-reseller")
    source, config, review = await review_now(client, AGENT)
    assert source == "staging" and config and review is not None
    del sim(client).staging[AGENT]
    source, config, review = await review_now(client, AGENT)
    assert source == "live (staging is empty)" and config and review is not None


async def test_catalog_and_relays_each_one_answer() -> None:
    client = demo_client("demo-reseller")
    voices, functions, models = await catalog_of(client, AGENT)
    assert voices and functions and models is not None and "gpt-4.1" in models.models
    types, configs, refused = await read_relays(client, AGENT)
    assert types and refused is None and configs is not None
    sim(client).accounts[AGENT].vida_premium = False  # relays are premium: HTTP 403
    types, configs, refused = await read_relays(client, AGENT)
    assert types and configs is None and refused


@pytest.mark.parametrize("times", [0, 3])
async def test_poll_asks_each_time_and_hands_failures_on(times: int) -> None:
    asked: list[int] = []

    async def read() -> int:
        asked.append(len(asked))
        if len(asked) == 2:
            raise TransportError("reset", method="GET")
        return len(asked)

    got = [g async for g in poll(read, every=0, times=times)]
    assert len(asked) == times
    assert [g if isinstance(g, int) else "failed" for g in got] == [1, "failed", 3][:times]
