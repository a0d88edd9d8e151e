"""The lazy junk inbox: paging, unread filter, a million rooms, bad paging values."""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest

from vagent_tui.sim import create_app

from .helpers import API, Sim, envelope

ROOM_FIELDS = {
    "roomId", "name", "id", "image", "vidaPhoneNumber", "unregistered",
    "unregisteredDisplayName", "destinationInboxType", "lastMessage",
    "lastMessageTimestamp", "chatAgentCampaignId",
}  # fmt: skip


async def test_default_inbox(sim: Sim) -> None:
    r = (await sim.get("/junkConversations", "demo-agent", pagination="true")).json()
    assert r["success"] is True
    assert r["totalRooms"] == 240 and r["pageSize"] == 20 and r["pageNumber"] == 0
    rooms = r["rooms"]
    assert len(rooms) == 20
    assert all(room.keys() >= ROOM_FIELDS for room in rooms)
    stamps = [room["lastMessageTimestamp"] for room in rooms]
    assert stamps == sorted(stamps, reverse=True)
    assert {room["unread"] for room in rooms} == {True, False}
    assert all(room["chatAgentCampaignId"] == "cfg-1111" for room in rooms)
    left, right = rooms[0]["roomId"].split(":")
    assert left.isdigit() and right.isdigit()
    assert rooms[0]["vidaPhoneNumber"].startswith("+")


async def test_pages_are_contiguous_and_deterministic(sim: Sim) -> None:
    a = (await sim.get("/junkConversations", "demo-agent", pagination="true", page=0,
                       pageSize=10)).json()["rooms"]  # fmt: skip
    b = (await sim.get("/junkConversations", "demo-agent", pagination="true", page=1,
                       pageSize=10)).json()["rooms"]  # fmt: skip
    both = (await sim.get("/junkConversations", "demo-agent", pagination="true", page=0,
                          pageSize=20)).json()["rooms"]  # fmt: skip
    assert a + b == both
    assert len({room["roomId"] for room in both}) == 20


async def test_unread_only(sim: Sim) -> None:
    r = (await sim.get("/junkConversations", "demo-agent", pagination="true", unread="true",
                       pageSize=500)).json()  # fmt: skip
    assert r["totalRooms"] == 80 and len(r["rooms"]) == 80
    assert all(room["unread"] for room in r["rooms"])


async def test_page_past_the_end_is_empty(sim: Sim) -> None:
    r = (await sim.get("/junkConversations", "demo-agent", pagination="true", page=99)).json()
    assert r["rooms"] == [] and r["totalRooms"] == 240 and r["pageNumber"] == 99


async def test_partial_last_page(sim: Sim) -> None:
    r = (await sim.get("/junkConversations", "demo-agent", pagination="true", page=2,
                       pageSize=100)).json()  # fmt: skip
    assert len(r["rooms"]) == 40


@pytest.mark.parametrize(
    "params",
    [
        {"page": -1},
        {"page": "x"},
        {"page": "1.0"},
        {"pageSize": 0},
        {"pageSize": 501},
        {"pageSize": "ten"},
        {"unread": "maybe"},
        {"pagination": "yes"},
    ],
)
async def test_bad_paging_values(sim: Sim, params: dict[str, Any]) -> None:
    query = {"pagination": "true", **params}
    envelope(await sim.get("/junkConversations", "demo-agent", **query), 400)


async def test_inbox_needs_an_agent_account(sim: Sim) -> None:
    envelope(await sim.get("/junkConversations", "demo-org", pagination="true"), 400)
    r = await sim.get("/junkConversations", "demo-org", pagination="true", targetAccountId=1112)
    assert r.status_code == 200 and r.json()["rooms"][0]["chatAgentCampaignId"] == "cfg-1112"


async def test_priority_inbox_has_the_same_shape(sim: Sim) -> None:
    r = (await sim.get("/conversations", "demo-agent", pagination="true")).json()
    assert r["totalRooms"] == 240
    assert r["rooms"][0].keys() >= ROOM_FIELDS


async def test_a_million_rooms_quickly() -> None:
    app = create_app(rooms=1_000_000)
    transport = httpx.ASGITransport(app=app)
    started = time.perf_counter()
    async with httpx.AsyncClient(transport=transport, base_url="http://sim") as client:

        async def page(number: int, unread: str) -> dict[str, Any]:
            params: dict[str, str | int] = {
                "token": "demo-agent", "pagination": "true", "page": number,
                "pageSize": 500, "unread": unread,
            }  # fmt: skip
            reply: dict[str, Any] = (
                await client.get(API + "/junkConversations", params=params)
            ).json()
            return reply

        first = await page(0, "false")
        assert first["totalRooms"] == 1_000_000 and len(first["rooms"]) == 500
        assert first["rooms"][0]["roomId"] == "1111:1000000"
        last = await page(1999, "false")
        assert len(last["rooms"]) == 500 and last["rooms"][-1]["roomId"] == "1111:1"
        unread_tail = await page(666, "true")
        assert unread_tail["totalRooms"] == 333_334
        assert len(unread_tail["rooms"]) == 334
        assert all(r["unread"] for r in unread_tail["rooms"])
        assert unread_tail["rooms"][-1]["roomId"] == "1111:1"
        past = await page(5000, "false")
        assert past["rooms"] == [] and past["totalRooms"] == 1_000_000
    assert len(app.state.sim.requests) == 4
    assert time.perf_counter() - started < 3.0


async def test_rooms_option_bounds() -> None:
    with pytest.raises(ValueError):
        create_app(rooms=1_000_001)
    app = create_app(rooms=0)
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://sim") as client:
        r = await client.get(API + "/junkConversations",
                             params={"token": "demo-agent", "pagination": "true"})  # fmt: skip
        assert r.json()["totalRooms"] == 0 and r.json()["rooms"] == []
