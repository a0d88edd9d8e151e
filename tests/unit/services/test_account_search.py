"""`AccountDirectory.search`: ``searchAccounts`` first, the tree walk only as a fallback
that says when it stopped short; on the in-process simulator (its scope rules)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.helpers import id_of
from vagent_tui.api.errors import ApiError
from vagent_tui.api.scope import classify
from vagent_tui.services.accounts import AccountDirectory, Matches
from vagent_tui.services.connect import demo_client

SEARCH = "/api/v2/searchAccounts"
LISTS = ("/api/v2/listResellers", "/api/v2/listOrganizations", "/api/v2/listAccounts")


async def directory_for(token: str, **sim: Any) -> tuple[Any, AccountDirectory]:
    client = demo_client(token, **sim)
    owner = await client.get_account()
    return client, AccountDirectory(client, classify(owner), owner)


def requests_to(client: Any, *paths: str) -> list[Any]:
    return [r for r in client.sim_app.state.sim.requests if r.path in paths]


def ids(matches: Matches) -> list[int | None]:
    return [a.id for a in matches.accounts]


async def test_one_search_request_and_no_walk() -> None:
    client, found = await directory_for("demo-partner")
    matches = await found.search("pine")
    assert matches.how == "search" and not matches.partial and not matches.fallback
    assert ids(matches)[:3] == [1310, 1311, 1312]  # Pinecrest Law, Intake, Spanish Intake
    # Not the key owner, known, whose name holds p-artners, northw-i-nd, … in order.
    assert ids(matches) == [1310, 1311, 1312] and matches.total == 3 and matches.more == 0
    (request,) = requests_to(client, SEARCH)
    assert request.query["queryText"] == "pine" and request.query["pageSize"] == "50"
    assert requests_to(client, *LISTS) == []


async def test_finds_agents_deep_in_a_large_tree_with_a_count_of_the_rest() -> None:
    """100,000 agents: the one asked for is found, and "a" says how many more match."""
    client, found = await directory_for("demo-partner", accounts=100_000)
    matches = await found.search("Fleet Agent 99876")
    assert [a.display_name for a in matches.accounts] == ["Fleet Agent 99876"]
    wide = await found.search("fleet agent")
    assert len(wide.accounts) == 50 and wide.total >= 99_987 and wide.more == wide.total - 50
    assert requests_to(client, *LISTS) == []


async def test_a_text_typed_on_from_a_whole_answer_is_narrowed_without_asking() -> None:
    """An answer that held every match answers the texts that hold its text; an answer
    cut at the page, or a text that does not hold it, asks the platform."""
    client, found = await directory_for("demo-partner")
    pine = await found.search("pine")
    assert pine.total == 3 and not pine.more
    narrowed = await found.search("pinecrest l")
    assert ids(narrowed) == [1310] and narrowed.total == 1  # Pinecrest Law
    assert [r.query["queryText"] for r in requests_to(client, SEARCH)] == ["pine"]
    await found.search("pin")  # not the text typed on: asked
    assert [r.query["queryText"] for r in requests_to(client, SEARCH)] == ["pine", "pin"]

    client, large = await directory_for("demo-partner", accounts=10_000)
    wide = await large.search("fleet agent")
    assert wide.more
    exact = await large.search("fleet agent 01234")  # the page held only some: asked
    assert [a.display_name for a in exact.accounts] == ["Fleet Agent 01234"]
    assert len(requests_to(client, SEARCH)) == 2


async def test_a_user_shaped_admin_searches_below_the_account_its_rule_names() -> None:
    client, found = await directory_for("demo-partner-user")
    matches = await found.search("metro")
    assert {1220, 1221, 1222, 1228} <= set(ids(matches))
    assert requests_to(client, SEARCH)[0].query["targetAccountId"] == "1000"


async def test_a_restricted_member_filters_its_permitted_accounts_without_searching() -> None:
    client, found = await directory_for("demo-member")
    matches = await found.search("acme")
    assert matches.how == "walk" and not matches.partial
    assert sorted(id_of(a) for a in matches.accounts) == [1112, 1113]  # never 1111, its sibling
    assert requests_to(client, SEARCH) == []


async def test_a_refused_search_walks_the_tree_from_then_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    client, found = await directory_for("demo-partner")

    async def refuse(*args: Any, **kwargs: Any) -> Any:
        raise ApiError(404, "Not found")

    monkeypatch.setattr(client, "search_accounts", refuse)
    matches = await found.search("lakeside bil")
    assert matches.how == "walk" and "HTTP 404" in matches.fallback
    assert ids(matches)[0] == 1212 and not matches.partial
    assert not found.can_search()
    again = await found.search("lakeside")
    assert again.how == "walk" and "refused searchAccounts (HTTP 404)" in again.fallback


async def test_a_failed_search_walks_this_time_and_searches_again_next_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    client, found = await directory_for("demo-partner")
    real = client.search_accounts
    calls = {"n": 0}

    async def flaky(*args: Any, **kwargs: Any) -> Any:
        calls["n"] += 1
        if calls["n"] == 1:
            raise ApiError(500, "Internal error")
        return await real(*args, **kwargs)

    monkeypatch.setattr(client, "search_accounts", flaky)
    assert (await found.search("metro")).how == "walk"
    assert found.can_search() and (await found.search("metro")).how == "search"


async def test_a_walk_that_stops_short_says_so() -> None:
    """The fallback at 10,000 agents with a small limit: partial, never "no match"."""
    _client, found = await directory_for("demo-partner", accounts=10_000)
    found.search_refused = "refused"
    found.walk_limit = 50
    seen: list[int] = []
    walk = await found.walk(progress=seen.append)
    assert not walk.complete and seen and seen[-1] == len(walk.accounts)
    matches = await found.search("Fleet Agent 09999")
    assert matches.how == "walk" and "only the first" in matches.partial


async def test_known_accounts_are_found_by_id_and_kind_too() -> None:
    _client, found = await directory_for("demo-partner")
    await found.children(found.owner)  # the resellers are known
    assert ids(await found.search("1200")) == [1200]
    by_kind = await found.search("reseller")
    assert {1100, 1200, 1300} <= set(ids(by_kind))


async def test_an_id_not_known_yet_is_read_by_its_id_once() -> None:
    """The field offers ids; ``searchAccounts`` matches names only: an id typed that is
    not known is read by its id (one request), an id the key does not reach is not
    asked again, and a short number asks nothing."""
    client, found = await directory_for("demo-partner")
    matches = await found.search("1121")
    assert ids(matches) == [1121] and matches.total == 1
    reads = [r for r in requests_to(client, "/api/v2/account") if r.query.get("targetAccountId")]
    assert [r.query["targetAccountId"] for r in reads] == ["1121"]
    assert ids(await found.search("1121")) == [1121]  # known now: not read again
    assert ids(await found.search("9999")) == [] and ids(await found.search("9999")) == []
    reads = [r for r in requests_to(client, "/api/v2/account") if r.query.get("targetAccountId")]
    assert [r.query["targetAccountId"] for r in reads] == ["1121", "9999"]
    await found.search("11")
    assert len(requests_to(client, "/api/v2/account")) == len(reads) + 1  # the owner's


async def test_search_results_know_their_parent_for_the_path() -> None:
    _client, found = await directory_for("demo-partner")
    matches = await found.search("sunrise concierge")
    assert ids(matches)[0] == 1321
    assert found.parents[1321] == 1320


async def test_an_id_read_that_fails_is_asked_again_next_time() -> None:
    """Only a refusal (403, 404) keeps an id from being read again: a failure (a 500
    after the read's retries) finds nothing this time, and the next search asks."""
    from vagent_tui.sim.faults import Faults

    client, found = await directory_for("demo-partner")
    sim = client.sim_app.state.sim
    sim.faults = Faults(kinds=["500"], path_contains="/api/v2/account", remaining=20)
    assert ids(await found.search("1121")) == []
    sim.faults = Faults()
    assert ids(await found.search("1121")) == [1121]
