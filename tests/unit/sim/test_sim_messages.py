"""Reading a room (``GET /messages/{roomId}``) and the priority inbox's own room ids:
messages made on demand from the room id, the same every time, fast at a million rooms."""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest

from vagent_tui.sim import create_app
from vagent_tui.sim.inbox import PRIORITY_BASE, user_name

from .helpers import API, Sim, envelope

MESSAGE_FIELDS = {
    "message", "from", "fromUser", "to", "toUser", "timestamp", "date", "roomId", "status",
    "attachments", "gift", "drip", "uuid", "source", "roomInitiator",
}  # fmt: skip


async def first_rooms(
    sim: Sim, path: str, token: str = "demo-agent", **params: object
) -> list[Any]:
    reply = await sim.get(path, token, pagination="true", pageSize=20, **params)
    assert reply.status_code == 200, reply.text
    return list(reply.json()["rooms"])


async def test_a_room_reads_as_the_published_array(sim: Sim) -> None:
    room = (await first_rooms(sim, "/junkConversations"))[0]
    reply = await sim.get(f"/messages/{room['roomId']}", "demo-agent")
    assert reply.status_code == 200
    messages = reply.json()
    assert isinstance(messages, list) and len(messages) >= 2
    assert all(m.keys() == MESSAGE_FIELDS for m in messages)
    assert all(m["roomId"] == room["roomId"] for m in messages)
    stamps = [m["timestamp"] for m in messages]
    assert stamps == sorted(stamps), "oldest first"
    last = messages[-1]
    # The room's last message, at its time: epoch seconds, as the room's and the vendor's.
    assert last["message"] == room["lastMessage"]
    assert last["timestamp"] == room["lastMessageTimestamp"]
    moment = datetime.fromtimestamp(last["timestamp"], UTC)
    assert last["date"] == moment.strftime("%Y-%m-%dT%H:%M:%S.000Z")
    assert {m["source"] for m in messages} <= {"sms", "voice", "email", "client"}
    assert {m["status"] for m in messages} <= {"success", "failed"}
    # The contact opened the room; the agent account is the other side.
    first = messages[0]
    assert first["to"] == 1111 and first["from"] != 1111
    assert {m["from"] for m in messages} <= {1111, first["from"]}
    assert len({m["uuid"] for m in messages}) == len(messages)


# The types the vendor's reference gives the fields of a room's message (GET
# /api/v2/messages/{roomId}): numbers, strings, booleans.
VENDOR_TYPES: dict[str, type | tuple[type, ...]] = {
    "message": str, "from": int, "fromUser": str, "to": int, "toUser": str,
    "timestamp": int, "date": str, "roomId": str, "status": str, "attachments": str,
    "gift": bool, "drip": bool, "uuid": str, "source": str, "roomInitiator": str,
}  # fmt: skip


@pytest.mark.parametrize("room_id", ["1111:240", "1111:239", f"1111:{PRIORITY_BASE + 7}"])
async def test_every_field_has_the_vendors_type(sim: Sim, room_id: str) -> None:
    messages = (await sim.get(f"/messages/{room_id}", "demo-agent")).json()
    for m in messages:
        wrong = {k: m[k] for k, kind in VENDOR_TYPES.items() if not isinstance(m[k], kind)}
        assert not wrong, wrong
        assert not isinstance(m["from"], bool) and not isinstance(m["to"], bool)
        # A text holding a JSON array of addresses ("[]" for none).
        links = json.loads(m["attachments"])
        assert isinstance(links, list) and all(u.startswith("https://") for u in links)


async def test_the_room_initiator_is_the_contacts_user_name(sim: Sim) -> None:
    rooms = await first_rooms(sim, "/junkConversations")
    named = next(r for r in rooms if not r["unregistered"] and r["name"].isascii())
    unknown = next(r for r in rooms if r["unregistered"])
    for room, expected in ((named, ".".join(named["name"].lower().split())),
                           (unknown, unknown["vidaPhoneNumber"])):  # fmt: skip
        messages = (await sim.get(f"/messages/{room['roomId']}", "demo-agent")).json()
        assert {m["roomInitiator"] for m in messages} == {expected}
        # The contact wrote first, under the name the room shows.
        contact = room["unregisteredDisplayName"] or room["name"]
        assert messages[0]["fromUser"] == contact


def test_a_user_name_is_ascii_letters_and_digits() -> None:
    base = {"unregistered": False, "vidaPhoneNumber": "+12005550100"}
    assert user_name({**base, "name": "Lucas Müller"}) == "lucas.muller"
    assert user_name({**base, "name": "  Chloé  O'Neil "}) == "chloe.o.neil"
    assert user_name({**base, "name": "日本"}) == "+12005550100"
    assert user_name({**base, "name": "Wei Kim", "unregistered": True}) == "+12005550100"


async def test_the_same_room_reads_the_same_every_time(sim: Sim) -> None:
    one = (await sim.get("/messages/1111:240", "demo-agent")).json()
    two = (await sim.get("/messages/1111:240", "demo-agent")).json()
    assert one == two


async def test_one_room_in_ten_is_a_long_thread_with_attachments(sim: Sim) -> None:
    long = (await sim.get("/messages/1111:240", "demo-agent")).json()
    short = (await sim.get("/messages/1111:239", "demo-agent")).json()
    assert 120 <= len(long) < 300 and 2 <= len(short) <= 10
    links = [url for m in long for url in json.loads(m["attachments"])]
    assert links and all(url.startswith("https://") for url in links)
    assert any(m["status"] == "failed" for m in long)


async def test_priority_rooms_have_ids_of_their_own(sim: Sim) -> None:
    junk = await first_rooms(sim, "/junkConversations")
    priority = await first_rooms(sim, "/conversations")
    assert {r["roomId"] for r in junk}.isdisjoint(r["roomId"] for r in priority)
    assert {r["id"] for r in junk}.isdisjoint(r["id"] for r in priority)
    assert priority[0]["roomId"] == f"1111:{PRIORITY_BASE + 240}"
    assert {r["destinationInboxType"] for r in priority} == {"priority"}
    junk_texts = {r["lastMessage"] for r in junk}
    assert junk_texts.isdisjoint(r["lastMessage"] for r in priority)
    messages = (await sim.get(f"/messages/{priority[1]['roomId']}", "demo-agent")).json()
    assert messages[-1]["message"] == priority[1]["lastMessage"]


async def test_a_target_agent_reads_its_own_rooms_only(sim: Sim) -> None:
    rooms = await first_rooms(sim, "/junkConversations", "demo-org", targetAccountId=1112)
    reply = await sim.get(f"/messages/{rooms[0]['roomId']}", "demo-org", targetAccountId=1112)
    assert reply.status_code == 200 and reply.json()[0]["to"] == 1112
    # Another account's room is not told apart from a room that does not exist.
    other = await sim.get(f"/messages/{rooms[0]['roomId']}", "demo-org", targetAccountId=1113)
    envelope(other, 404, "Room not found")


MISSING = ["1111:0", "1111:241", f"1111:{PRIORITY_BASE}", f"1111:{PRIORITY_BASE + 241}",
           "1112:1", "1111:" + "9" * 30]  # fmt: skip


@pytest.mark.parametrize("room_id", MISSING)
async def test_rooms_that_do_not_exist(sim: Sim, room_id: str) -> None:
    envelope(await sim.get(f"/messages/{room_id}", "demo-agent"), 404, "Room not found")


@pytest.mark.parametrize("room_id", ["abc", "1111", "1111:", ":5", "1111:-5", "1111:5:6", "١:٢"])
async def test_malformed_room_ids(sim: Sim, room_id: str) -> None:
    reply = await sim.get(f"/messages/{room_id}", "demo-agent")
    envelope(reply, 400, "roomId must be of the form <number>:<number>")


async def test_messages_need_an_agent_account_and_a_token(sim: Sim) -> None:
    envelope(await sim.get("/messages/1111:1", "demo-org"), 400)
    envelope(await sim.get("/messages/1111:1", None), 401, "Unauthorized Request")
    envelope(await sim.get("/messages/1111:1", "demo-other", targetAccountId=1111), 403)


async def test_a_million_rooms_read_quickly() -> None:
    app = create_app(rooms=1_000_000)
    transport = httpx.ASGITransport(app=app)
    started = time.perf_counter()
    async with httpx.AsyncClient(transport=transport, base_url="http://sim") as client:
        for room_id in ("1111:1000000", "1111:1", f"1111:{PRIORITY_BASE + 1_000_000}",
                        "1111:500000", "1111:123457"):  # fmt: skip
            reply = await client.get(f"{API}/messages/{room_id}", params={"token": "demo-agent"})
            assert reply.status_code == 200 and reply.json()[0]["roomId"] == room_id
    assert time.perf_counter() - started < 3.0
