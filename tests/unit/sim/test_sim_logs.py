"""The simulator's call history: GET /logs, POST /conversation/batch, GET /messages/recent."""

from __future__ import annotations

import asyncio
import csv
import io
import random
import tracemalloc
from collections.abc import MutableMapping
from datetime import datetime
from typing import Any

import httpx
import pytest

from vagent_tui.sim import call_entries as E
from vagent_tui.sim import calls as C
from vagent_tui.sim import create_app
from vagent_tui.sim.common import iso
from vagent_tui.sim.faults import Faults, SimulatedDrop

from .helpers import FakeClock, Sim, envelope

NOW = 1_800_000_000


async def logs(sim: Sim, token: str = "demo-partner", **params: Any) -> dict[str, Any]:
    r = await sim.get("/logs", token, **params)
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


def naive(
    agents: list[E.Agent], lo: int, hi: int, step: int, filters: list[tuple[str, str]]
) -> list[tuple[int, int]]:
    """Every matching entry by brute force, in the order the simulator promises."""
    out = []
    for agent in agents:
        for q in range((lo - agent.phase) // step - 1, hi // step + 2):
            at = q * step + agent.phase
            if not lo <= at <= hi:
                continue
            entry = E.entry(agent, q, step)
            if all(E.lookup(entry, k)[0] and E.text_of(E.lookup(entry, k)[1]) == v
                   for k, v in filters):  # fmt: skip
                out.append((q, -agent.phase, agent.id))
    out.sort(key=lambda x: (-x[0], x[1], x[2]))  # q down, phase down, id up
    return [(account, q) for q, _, account in out]


# ---------------------------------------------------------------------- the arithmetic


def test_paging_arithmetic_matches_brute_force() -> None:
    rng = random.Random(27)
    choices = [
        [],
        [("status", "failed")],
        [("eventType", "inbound-sms"), ("agentOutcome", "question_answered")],
        [("agentOutcome", "")],
        [("duration", "0")],
        [("org_id", "101")],
        [("status", "missed"), ("direction", "outbound")],
        [("metadata.tokens", "1200")],
    ]
    for _ in range(60):
        step = rng.choice([1, 2, 7, 60, 3888])
        ids = rng.sample(range(1000, 5000), rng.choice([1, 2, 3, 10, 25]))
        agents = [E.Agent(i, f"a{i}", 100 + i % 3, E.phase(i, step), E.pattern_shift(i))
                  for i in ids]  # fmt: skip
        hi = rng.randint(10**6, 10**6 + 50 * step)
        lo = hi - rng.randint(-5, 150 * step)
        filters = rng.choice(choices)
        query = C.Query(agents, lo, hi, step, C.Filters.of(filters))
        expected = naive(agents, lo, hi, step, filters)
        assert query.total() == len(expected)
        offset = rng.randint(0, len(expected))
        size = rng.randint(1, 50)
        got = [(a.id, q) for a, q in query.page(offset, size)]
        assert got == expected[offset : offset + size]


def test_the_same_entry_whenever_asked() -> None:
    agent = E.Agent(1111, "Front Desk", 1110, E.phase(1111, 3888), E.pattern_shift(1111))
    assert E.entry(agent, 462_000, 3888) == E.entry(agent, 462_000, 3888)
    assert E.entry(agent, 462_000, 3888) != E.entry(agent, 462_001, 3888)
    assert E.conversation(agent, 5, 60) == E.conversation(agent, 5, 60)


def test_patterns_hold_every_kind() -> None:
    assert {p["eventType"] for p in E.PATTERNS} == set(E.EVENT_TYPES)
    assert {p["status"] for p in E.PATTERNS} == set(E.STATUSES)
    assert {p["agentOutcome"] for p in E.PATTERNS} - {None} == set(E.OUTCOMES)


def test_a_million_entry_account_pages_without_holding_them() -> None:
    """1,000,000 entries: the total, a page deep in the history, a filtered page deep
    in it: memory stays flat (what a page holds, not what the history does)."""
    state = create_app(clock=FakeClock(NOW)).state.sim
    state.calls = 1_000_000
    caller = state.accounts[1111]
    agents = C.agents_below(state, caller, caller)
    lo, hi = C.window(state)
    step = C.step_of(state.calls)
    tracemalloc.start()
    try:
        everything = C.Query(agents, lo, hi, step, C.Filters())
        assert everything.total() == 1_000_000
        deep = everything.page(999_950, 100)
        failed = C.Query(agents, lo, hi, step, C.Filters.of([("status", "failed")]))
        n_failed = failed.total()
        deep_failed = failed.page(n_failed - 10, 20)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(deep) == 50 and len(deep_failed) == 10
    assert 90_000 < n_failed < 120_000  # 11 in 100 of the cycle
    assert peak < 2 * 1024 * 1024, peak
    entries = [E.entry(a, q, step) for a, q in deep_failed]
    assert all(e["status"] == "failed" for e in entries)


# ---------------------------------------------------------------------- GET /logs


async def test_logs_page_shape_and_totals(sim: Sim) -> None:
    body = await logs(sim, pageSize=7, page=2, includeFields="true")
    assert body["success"] is True and body["count"] == 7 == len(body["logs"])
    pages = body["pagination"]
    assert pages["page"] == 2 and pages["pageSize"] == 7
    assert pages["totalCount"] == body["totalCount"] > 7
    assert pages["totalPages"] == pages["pageCount"] == -(-body["totalCount"] // 7)
    assert pages["hasMore"] is True
    assert body["schema"][:3] == ["id", "timestamp", "account_id"]
    assert "metadata.convoId" in body["schema"]
    stamps = [e["timestamp"] for e in body["logs"]]
    assert stamps == sorted(stamps, reverse=True)
    without = await logs(sim, pageSize=1)
    assert "schema" not in without


async def test_pages_follow_each_other_without_gap_or_repeat(sim: Sim) -> None:
    whole = await logs(sim, "demo-agent", pageSize=60)
    ids = [e["id"] for e in whole["logs"]]
    parts = []
    for page in (1, 2, 3):
        parts += [e["id"] for e in (await logs(sim, "demo-agent", pageSize=20, page=page))["logs"]]
    assert parts == ids
    last = whole["pagination"]["totalPages"]
    past = await logs(sim, "demo-agent", pageSize=60, page=last + 5)
    assert past["logs"] == [] and past["totalCount"] == whole["totalCount"]
    assert past["pagination"]["hasMore"] is False


async def test_default_range_is_the_last_seven_days(sim: Sim, clock: FakeClock) -> None:
    body = await logs(sim, "demo-agent", pageSize=10_000)
    now = int(clock())
    stamps = {e["timestamp"] for e in body["logs"]}
    assert max(stamps) <= iso(now) and min(stamps) >= iso(now - 7 * 86400)
    step = C.step_of(C.DEFAULT_CALLS)
    assert abs(body["totalCount"] - 7 * 86400 // step) <= 1
    clock.advance(3 * step)
    later = await logs(sim, "demo-agent", pageSize=5)
    assert later["logs"][0]["id"] != body["logs"][0]["id"]  # new entries at the top
    assert body["logs"][0] in (await logs(sim, "demo-agent", pageSize=5))["logs"][:5]


async def test_time_range_is_inclusive(sim: Sim) -> None:
    some = (await logs(sim, "demo-agent", pageSize=3))["logs"]
    at = some[1]["timestamp"]
    seconds = int(datetime.fromisoformat(at.replace("Z", "+00:00")).timestamp())
    exact = await logs(sim, "demo-agent", start=seconds, end=seconds)
    assert [e["id"] for e in exact["logs"]] == [some[1]["id"]]


async def test_filters_on_patterned_nested_and_free_fields(sim: Sim) -> None:
    failed = await logs(sim, status="failed", pageSize=50)
    assert failed["totalCount"] > 0
    assert all(e["status"] == "failed" and e["agentOutcome"] is None for e in failed["logs"])
    both = await logs(sim, eventType="outbound-call", agentOutcome="voicemail", pageSize=50)
    assert all(e["eventType"] == "outbound-call" and e["agentOutcome"] == "voicemail"
               for e in both["logs"])  # fmt: skip
    one = failed["logs"][3]
    by_convo = await logs(sim, **{"metadata.convoId": one["metadata"]["convoId"]})
    assert [e["id"] for e in by_convo["logs"]] == [one["id"]]
    by_id = await logs(sim, id=one["id"], status="completed")
    assert by_id["logs"] == [] and by_id["totalCount"] == 0
    by_room = await logs(sim, roomId=one["roomId"], pageSize=100)
    assert by_room["totalCount"] >= 1
    assert all(e["roomId"] == one["roomId"] for e in by_room["logs"])
    by_account = await logs(sim, account_id="1112", pageSize=100)
    assert {e["account_id"] for e in by_account["logs"]} == {1112}
    nothing = await logs(sim, noSuchField="x")
    assert nothing["totalCount"] == 0 and nothing["logs"] == []


async def test_fields_cut_the_entries(sim: Sim) -> None:
    body = await logs(sim, fields="id, timestamp,metadata.convoId,nope", pageSize=2)
    for entry in body["logs"]:
        assert set(entry) == {"id", "timestamp", "metadata"}
        assert set(entry["metadata"]) == {"convoId"}


async def test_scope_the_key_sees_only_its_reach(sim: Sim) -> None:
    agent = await logs(sim, "demo-agent", pageSize=500)
    assert {e["account_id"] for e in agent["logs"]} == {1111}
    org = await logs(sim, "demo-org", pageSize=10_000)
    assert {e["account_id"] for e in org["logs"]} == {1111, 1112, 1113}
    member = await logs(sim, "demo-member", targetAccountId="1112", pageSize=500)
    assert {e["account_id"] for e in member["logs"]} == {1112}
    envelope(await sim.get("/logs", "demo-member"), 403)
    envelope(await sim.get("/logs", "demo-agent", targetAccountId="1112"), 403)
    envelope(await sim.get("/logs", "demo-other", targetAccountId="1111"), 403)
    envelope(await sim.get("/logs", None), 401)
    partner = await logs(sim, "demo-partner", pageSize=1)
    assert partner["totalCount"] == sum(
        [(await logs(sim, "demo-partner", targetAccountId=str(r), pageSize=1))["totalCount"]
         for r in (1100, 1200, 1300)]
    )  # fmt: skip


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"pageSize": "0"}, "pageSize must be an integer between 1 and 10000"),
        ({"pageSize": "10001"}, "pageSize must be an integer between 1 and 10000"),
        ({"page": "0"}, "page must be an integer >= 1"),
        ({"start": "yesterday"}, "start must be an integer"),
        ({"format": "xml"}, "format must be json or csv"),
        ({"includeFields": "maybe"}, "includeFields must be a boolean (true or false)"),
    ],
)
async def test_bad_values_are_400(sim: Sim, params: dict[str, str], message: str) -> None:
    envelope(await sim.get("/logs", **params), 400, message)


async def test_the_token_parameter_is_the_key_only(sim: Sim) -> None:
    r = await sim.client.get("/api/v2/logs", params=[("token", "demo-agent"), ("token", "x")])
    # Starlette reads the last value: the simulator takes it as the key, never a page.
    envelope(r, 401)


# ---------------------------------------------------------------------- CSV


async def test_csv_header_and_rows(sim: Sim) -> None:
    r = await sim.get("/logs", "demo-agent", format="csv", status="failed")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/csv")
    assert "attachment" in r.headers["content-disposition"]
    assert b"\r\n" in r.content
    rows = list(csv.reader(io.StringIO(r.text)))
    assert rows[0] == list(E.CSV_COLUMNS)
    assert "metadata.convoId" in rows[0] and "metadata" not in rows[0]
    json_page = await logs(sim, "demo-agent", status="failed", pageSize=10_000)
    assert len(rows) - 1 == json_page["totalCount"]
    first = dict(zip(rows[0], rows[1], strict=True))
    entry = json_page["logs"][0]
    assert first["id"] == entry["id"] and first["agentOutcome"] == ""
    assert first["metadata.convoId"] == entry["metadata"]["convoId"]
    assert first["duration"] == str(entry["duration"])


async def test_csv_columns_follow_fields_and_ignore_paging(sim: Sim) -> None:
    r = await sim.get("/logs", "demo-agent", format="csv", fields="timestamp,id,metadata",
                      pageSize=1, page=3)  # fmt: skip
    rows = list(csv.reader(io.StringIO(r.text)))
    assert rows[0] == ["timestamp", "id", "metadata"]
    assert rows[1][2].startswith('{"convoId":')
    assert len(rows) > 3


async def test_csv_of_nothing_is_404(sim: Sim) -> None:
    envelope(await sim.get("/logs", format="csv", status="nope"), 404,
             "No logs found for CSV export")  # fmt: skip


async def test_csv_is_streamed_in_chunks() -> None:
    """The route hands the body out row batch by row batch (it never builds it whole)."""
    app = create_app(clock=FakeClock(NOW))
    app.state.sim.calls = 20_000
    chunks: list[bytes] = []

    asked = asyncio.Event()

    async def receive() -> dict[str, Any]:
        if asked.is_set():  # the client stays connected
            await asyncio.Event().wait()
        asked.set()
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: MutableMapping[str, Any]) -> None:
        if message["type"] == "http.response.body" and message.get("body"):
            chunks.append(message["body"])

    scope = {"type": "http", "method": "GET", "path": "/api/v2/logs", "raw_path": b"/api/v2/logs",
             "query_string": b"token=demo-agent&format=csv&start=0", "headers": [],
             "http_version": "1.1", "scheme": "http", "server": ("sim", 80), "root_path": "",
             "client": ("t", 1)}  # fmt: skip
    await app(scope, receive, send)
    assert len(chunks) > 10
    assert max(len(c) for c in chunks) < 400_000


# ---------------------------------------------------------------------- batch and recent


async def test_batch_answers_each_item(sim: Sim) -> None:
    entries = (await logs(sim, "demo-org", pageSize=5))["logs"]
    items = [{"roomId": e["roomId"], "uuid": e["uuid"]} for e in entries]
    items += [{"roomId": "1111:7000001", "uuid": "nope:1"}, {"roomId": "", "uuid": "a:1"}]
    r = await sim.call("POST", "/conversation/batch", "demo-org", json={"items": items})
    body = r.json()
    assert body["stats"] == {"requested": 7, "ok": 5, "failed": 2}
    results = body["results"]
    assert [x["roomId"] for x in results[:5]] == [e["roomId"] for e in entries]
    first = results[0]["conversation"][0]
    assert first["uuid"] == entries[0]["uuid"] and first["summary"] == entries[0]["summary"]
    assert first["agentOutcome"] == entries[0]["agentOutcome"]
    assert results[5]["message"] == "Conversation not found"
    assert results[6]["message"] == "roomId and uuid are required"
    # The vendor's result: roomId, uuid and message are strings, success a boolean.
    for x in results:
        assert all(isinstance(x[k], str) for k in ("roomId", "uuid", "message"))
        assert isinstance(x["success"], bool)


async def test_batch_hides_other_accounts(sim: Sim) -> None:
    entry = (await logs(sim, "demo-org", account_id="1112", pageSize=1))["logs"][0]
    item = {"roomId": entry["roomId"], "uuid": entry["uuid"]}
    r = await sim.call("POST", "/conversation/batch", "demo-agent", json={"items": [item]})
    assert r.json()["results"][0] == {**item, "success": False,
                                      "message": "Conversation not found"}  # fmt: skip


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({}, "items array is required"),
        ({"items": []}, "items array is required"),
        ({"items": "x"}, "items array is required"),
        ({"items": [{"roomId": "1:1", "uuid": "a:1"}] * 201},
         "items array holds more than 200 items"),
    ],
)  # fmt: skip
async def test_batch_bad_bodies_are_400(sim: Sim, body: dict[str, Any], message: str) -> None:
    envelope(await sim.call("POST", "/conversation/batch", json=body), 400, message)


GOOD = {"roomId": "1111:7000001", "uuid": "nope:1"}


@pytest.mark.parametrize(
    ("item", "message"),
    [
        ({"roomId": 5, "uuid": "a:1"}, "items[1].roomId must be a string"),
        ({"roomId": "1:1", "uuid": None}, "items[1].uuid must be a string"),
        ({"roomId": "1:1", "uuid": ["a"]}, "items[1].uuid must be a string"),
        ({"roomId": {"id": 1}, "uuid": 7}, "items[1].roomId must be a string"),
        ({"uuid": "a:1"}, "items[1].roomId is required"),
        ({"roomId": "1:1"}, "items[1].uuid is required"),
        ("1111:1", "items[1] must be an object with roomId and uuid"),
        (None, "items[1] must be an object with roomId and uuid"),
    ],
)  # fmt: skip
async def test_a_batch_item_that_is_not_two_strings_is_an_invalid_body(
    sim: Sim, item: Any, message: str
) -> None:
    """The vendor requires both fields as strings and answers them as strings: such an
    item is not echoed as it came, the request is refused and nothing is looked up."""
    body = {"items": [GOOD, item, GOOD]}
    reply = await sim.call("POST", "/conversation/batch", "demo-agent", json=body)
    envelope(reply, 400, f"Invalid request body: {message}")


async def test_recent_messages_follow_the_logs(sim: Sim) -> None:
    r = await sim.get("/messages/recent", "demo-agent")
    recent = r.json()
    assert isinstance(recent, list) and len(recent) == 50
    newest = (await logs(sim, "demo-agent", pageSize=50))["logs"]
    assert [m["uuid"] for m in recent] == [e["uuid"] for e in newest]
    call = next(m for m in recent if m["type"] == "call" and m["agentOutcome"] == "transferred")
    assert call["callDialog"] and {t["role"] for t in call["callDialog"]} == {"assistant", "user"}
    sms = next(m for m in recent if m["type"] == "sms")
    assert sms["chatDialog"] and sms["callDialog"] == []
    assert len(call) >= 45


# ---------------------------------------------------------------------- faults, hostile


async def test_faults_reach_the_logs(sim: Sim) -> None:
    sim.state.faults.set("503", path_contains="/logs")
    envelope(await sim.get("/logs"), 503)
    sim.state.faults.set("wrong-types", path_contains="/logs")
    body = (await sim.get("/logs")).json()
    assert isinstance(body["logs"], str)


async def test_an_altering_fault_drops_a_csv_after_its_first_chunk() -> None:
    app = create_app(clock=FakeClock(NOW), faults=Faults())
    app.state.sim.faults.set("truncated", path_contains="/logs")
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://sim") as client:
        with pytest.raises(SimulatedDrop):
            await client.get("/api/v2/logs", params={"token": "demo-partner", "format": "csv"})


async def test_hostile_mode_plants_in_json_and_csv() -> None:
    app = create_app(clock=FakeClock(NOW), hostile=True)
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://sim") as client:
        query = {"token": "demo-agent", "pageSize": "3"}
        body = (await client.get("/api/v2/logs", params=query)).json()
        entry = body["logs"][0]
        assert entry["summary"] in _payloads() and entry["contactName"] in _payloads()
        assert body["logs"][1] == entry  # the first record twice
        assert entry["roomId"].startswith("1111:") and ":" in entry["uuid"]  # keys kept
        r = await client.get("/api/v2/logs", params={**query, "format": "csv"})
        rows = list(csv.reader(io.StringIO(r.text)))
        assert rows[0] == list(E.CSV_COLUMNS)
        planted = dict(zip(rows[0], rows[1], strict=True))
        assert planted["summary"] in _payloads()
        assert planted["id"].startswith("log_1111_")


def _payloads() -> tuple[str, ...]:
    from vagent_tui.sim.hostile import PAYLOADS

    return PAYLOADS
