"""On a flaky link the work gets done: every fault kind of the simulator, at 15 % of the
requests, and the jobs finish (issue 24, section 4), not only stay alive. The screens'
jobs (Rollout of 200 accounts, Fleet, Scope, Voices, Functions, the inbox) are in
`tests.faults.test_flaky_screens`; here the client and the services under them.

The draws are keyed (`Faults(keyed=True)`): each request's fault depends on the seed and
the request, not on the order in which hundreds of concurrent requests reach the
simulator, so a run fails the same requests every time. The client keeps its retry
budget (``get_retries=2``) with no pauses (``backoff=0``, ``Retry-After: 0``) and a short
deadline, so that a ``timeout`` costs half a second, not fifteen.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.faults.helpers import faulty_client
from vagent_tui.api.errors import PlatformError, transient
from vagent_tui.services import agent_listing
from vagent_tui.services.accounts import AccountDirectory
from vagent_tui.services.agent_listing import AgentListings
from vagent_tui.services.inbox import inbox_pager, read_inbox_page
from vagent_tui.services.session import open_connection
from vagent_tui.sim.faults import ALL_KINDS, Faults
from vagent_tui.sim.fleet import ORG_BASE

RATE = 0.15
FLAKY_CLIENT = {"timeout": 1.0, "get_retries": 2, "backoff": 0.0, "max_retry_after": 0.0}
"""A deadline of a second: a planted timeout costs that much, and a loaded machine (CI
with every worker busy) still answers a request that was not planted in time."""
ACCOUNTS = 200
AGENTS = ACCOUNTS  # the grown tree holds this many voice agents (the seed's 13 included)

READ_FAILURE = {
    "timeout": True, "500": True, "503": True, "429": True, "refused": True,
    "malformed": True, "truncated": True, "cut": True, "wrong-types": True,
    "extra-fields": False, "unknown-status": False,
}  # fmt: skip
"""Whether a GET meeting each kind fails (and is asked again) or reads as it is."""


def flaky(*kinds: str, seed: int = 24, rate: float = RATE, **sim: Any) -> Any:
    faults = Faults(kinds=list(kinds), rate=rate, seed=seed, keyed=True, retry_after=0,
                    timeout_seconds=30.0)  # fmt: skip
    return faulty_client(faults=faults, client_options=FLAKY_CLIENT, **sim)


def faults_of(client: Any) -> Faults:
    faults: Faults = client.sim_app.state.sim.faults
    return faults


async def directory_of(client: Any) -> AccountDirectory:
    faults = faults_of(client)
    kinds, rate = faults.kinds, faults.rate
    faults.lift()  # connecting is not what is tried here
    connection = await open_connection(client, label="flaky")
    faults.set(*kinds, rate=rate or 0.0)
    assert connection.scope is not None and connection.owner is not None
    return AccountDirectory(client, connection.scope, connection.owner)


def test_every_kind_of_the_simulator_is_classified() -> None:
    assert set(READ_FAILURE) == set(ALL_KINDS), "a new fault kind: say how a read meets it"


@pytest.mark.parametrize("kind", ALL_KINDS)
async def test_a_read_meeting_each_kind_once_succeeds(kind: str) -> None:
    client = flaky(kind, rate=1.0)
    faults_of(client).remaining = 1
    voices = await client.list_voices(target=1111)
    assert voices
    sim = client.sim_app.state.sim
    assert faults_of(client).count(kind) == 1
    # Asked again when it failed; a request that timed out was never logged by the sim.
    expected = (2 if READ_FAILURE[kind] else 1) - (kind == "timeout")
    assert sim.count("GET", "/api/v2/agent/voices") == expected
    await client.aclose()


@pytest.mark.parametrize("kind", ["refused", "timeout", "503", "cut", "malformed"])
async def test_a_write_meeting_a_fault_is_never_sent_again(kind: str) -> None:
    client = flaky(kind, rate=1.0, accounts=0)
    faults_of(client).methods = frozenset({"POST"})
    with pytest.raises(PlatformError):
        await client.write_staging({"speakingTimeout": 777}, target=1111)
    assert faults_of(client).count() == 1  # one POST reached the simulator, once
    await client.aclose()


async def test_a_page_that_keeps_failing_fails_the_listing_and_r_goes_on_from_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(agent_listing, "PAGE_SIZE", 4)  # an organization of 10: 3 pages
    client = flaky("truncated", rate=0.0, accounts=ACCOUNTS)
    directory = await directory_of(client)
    faults = faults_of(client)
    broken = {"targetOrganizationId": str(ORG_BASE), "page": "1"}
    original = faults.pick

    def pick(method: str, path: str, query: str = "") -> str | None:
        asked = dict(pair.partition("=")[::2] for pair in query.split("&"))
        if path.endswith("/listAccounts") and broken.items() <= asked.items():
            return "truncated"  # every time: the second page of one organization
        return original(method, path, query)

    monkeypatch.setattr(faults, "pick", pick)
    listings = AgentListings()
    with pytest.raises(PlatformError) as info:
        await listings.get(client, lambda: directory)
    message = info.value.message
    assert message.startswith(f"Could not read page 2 of the accounts below {ORG_BASE} "), message
    assert "(asked 9 times)" in message and "not JSON" in message
    assert transient(info.value)  # the screen offers r

    sim = client.sim_app.state.sim
    sim.clear_log()
    broken = {"never": "again"}
    listing = await listings.get(client, lambda: directory, fresh=True)  # r
    assert len(listing.accounts) == AGENTS
    asked = [(r.query.get("targetOrganizationId"), r.query.get("page")) for r in sim.requests]
    assert asked == [(str(ORG_BASE), "1"), (str(ORG_BASE), "2")]  # only what was missing
    await client.aclose()


async def test_the_scope_tree_is_walked_whole() -> None:
    client = flaky(accounts=ACCOUNTS)
    directory = await directory_of(client)
    walk = await directory.walk()
    assert walk.complete
    assert sum(1 for a in walk.accounts if a.scope_field("accountType") == "account") >= AGENTS
    await client.aclose()


async def test_voices_and_functions_of_every_seed_agent_are_read() -> None:
    client = flaky()
    for account_id in (1111, 1112, 1113, 1121, 1122, 1211, 1212, 1221, 1222, 1311):
        assert await client.list_voices(target=account_id)
        assert await client.list_functions(account_id)
    await client.aclose()


async def test_the_inbox_is_paged_to_its_end() -> None:
    client = flaky(rooms=200)
    pager = inbox_pager(20)
    seen: list[str] = []
    while True:
        ask = pager.wanted
        reply = await read_inbox_page(client, ask, 1111)
        pager.settle(ask, reply.rooms, reply.total_rooms)
        seen += [room.room_id or "" for room in reply.rooms]
        if pager.page >= (pager.last_page or 0):
            break
        pager.ask(pager.page + 1)
    assert pager.total == 200 and len(set(seen)) == 200
    await client.aclose()
