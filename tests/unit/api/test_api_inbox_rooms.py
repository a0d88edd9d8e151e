"""The priority inbox (``GET /conversations``) and reading a room (``GET /messages/{roomId}``):
what is sent, how the published bare array is read, and what a reply that is not it does."""

from __future__ import annotations

import httpx
import pytest

from tests.unit.api.conftest import MakeClient
from tests.unit.api.helpers import Reply
from vagent_tui.api import models as m
from vagent_tui.api.client import Exchange
from vagent_tui.api.errors import ApiError, MalformedResponse
from vagent_tui.services.connect import demo_client

from .helpers import TOKEN, Recorder, ok, query

MESSAGE = {
    "message": "Hi, can I book for Tuesday?",
    "from": 900123,
    "fromUser": "Maria Garcia",
    "to": 1111,
    "toUser": "Acme Dental",
    "timestamp": 1763596783,
    "date": "2025-11-19T23:59:43.000Z",
    "roomId": "1111:240",
    "status": "success",
    "attachments": '["https://cdn.example.com/a.jpg"]',
    "gift": False,
    "drip": False,
    "uuid": "e99c2c27-0dd6-4de2-ad19-d67687c2a35f",
    "source": "sms",
    "roomInitiator": "maria.garcia",
    "futureField": {"nested": 1},
}
ROOM = {"roomId": "1:5000041", "name": "Maria", "destinationInboxType": "priority"}
PAGE = {"success": True, "pageSize": 20, "pageNumber": 2, "totalRooms": 41, "rooms": [ROOM]}


async def test_priority_inbox_sends_the_junk_inbox_paging(make_client: MakeClient) -> None:
    recorder = Recorder(ok(PAGE))
    client = make_client(recorder)

    page = await client.list_priority_rooms(page=2, page_size=20, target=1111)

    assert recorder.last.url.path == "/api/v2/conversations"
    assert query(recorder.last) == {
        "token": [TOKEN], "targetAccountId": ["1111"], "pagination": ["true"], "page": ["2"],
        "pageSize": ["20"],
    }  # fmt: skip
    assert isinstance(page, m.InboxPage) and page.total_rooms == 41
    assert page.rooms[0].room_id == "1:5000041"
    assert page.rooms[0].destination_inbox_type == "priority"


async def test_priority_inbox_sends_unread_only_when_set(make_client: MakeClient) -> None:
    recorder = Recorder(ok(PAGE))
    client = make_client(recorder)

    await client.list_priority_rooms(unread=True)

    assert query(recorder.last)["unread"] == ["true"]


async def test_priority_inbox_error_is_the_platform_message(make_client: MakeClient) -> None:
    reply = {"success": False, "message": "targetAccountId must select an agent account"}
    client = make_client(Recorder(ok(reply, status=400)))

    with pytest.raises(ApiError, match="must select an agent account"):
        await client.list_priority_rooms()


async def test_room_messages_read_the_published_bare_array(make_client: MakeClient) -> None:
    recorder = Recorder(ok([MESSAGE, None, {"message": "short"}]))
    client = make_client(recorder)
    heard: list[Exchange] = []
    client.observers.append(heard.append)

    messages = await client.list_room_messages("1111:240", target=1111)

    assert recorder.last.url.raw_path.startswith(b"/api/v2/messages/1111:240?")
    assert query(recorder.last) == {"token": [TOKEN], "targetAccountId": ["1111"]}
    assert len(messages) == 2, "a null item is skipped, the message kept"
    first = messages[0]
    assert isinstance(first, m.RoomMessage)
    assert (first.from_, first.from_user, first.to_user) == (900123, "Maria Garcia", "Acme Dental")
    assert first.sent_at is not None and first.sent_at.timestamp() == 1763596783
    assert first.links == ["https://cdn.example.com/a.jpg"]
    assert first.initiator == "maria.garcia"
    assert first.model_extra == {"futureField": {"nested": 1}}
    assert first.wire()["from"] == 900123
    assert messages[1].sent_at is None and messages[1].links == []
    assert [(e.method, e.path, e.status) for e in heard] == [
        ("GET", "/api/v2/messages/1111:240", 200)
    ]


async def test_room_id_is_one_path_segment(make_client: MakeClient) -> None:
    recorder = Recorder(ok([]))
    client = make_client(recorder)

    assert await client.list_room_messages("a/b?c#d:1") == []

    assert recorder.last.url.raw_path.startswith(b"/api/v2/messages/a%2Fb%3Fc%23d:1?")


async def test_room_messages_under_a_key_are_read_too(make_client: MakeClient) -> None:
    client = make_client(Recorder(ok({"success": True, "messages": [MESSAGE]})))

    (message,) = await client.list_room_messages("1111:240")

    assert message.message == MESSAGE["message"]


async def test_messages_of_unexpected_shapes_are_kept_and_shown(make_client: MakeClient) -> None:
    odd = {
        "message": 42, "from": "x", "fromUser": {"name": "Wei Kim", "id": 7}, "to": None,
        "timestamp": "1763596783", "attachments": [None, {"url": "https://x.example/f.pdf"},
                                                   "", "https://x.example/g.png"],
        "status": None, "source": ["sms"],
    }  # fmt: skip
    client = make_client(Recorder(ok([odd, {"date": "2025-11-19T23:59:43Z"}])))

    first, second = await client.list_room_messages("1:1")

    assert first.links == ["https://x.example/f.pdf", "https://x.example/g.png"]
    assert first.sent_at is not None and first.sent_at.timestamp() == 1763596783
    assert m.party(first.from_user, first.from_) == "Wei Kim"
    assert m.party(None, first.to) == "—" and m.party(None, 1111) == "#1111"
    assert second.sent_at is not None and second.sent_at.year == 2025


@pytest.mark.parametrize(
    ("reply", "error", "text"),
    [
        (
            ok({"success": False, "message": "Room not found"}, status=404),
            ApiError,
            "Room not found",
        ),
        (httpx.Response(200, content=b"[{"), MalformedResponse, "not JSON"),
        (ok("just text"), MalformedResponse, "not an object"),
        (ok({"success": True, "messages": "many"}), MalformedResponse, "not a list"),
    ],
    ids=["404", "truncated", "a-string", "messages-not-a-list"],
)
async def test_room_messages_errors(
    make_client: MakeClient, reply: Reply, error: type[Exception], text: str
) -> None:
    client = make_client(Recorder(reply))

    with pytest.raises(error, match=text):
        await client.list_room_messages("1111:240")


async def test_against_the_simulator() -> None:
    client = demo_client("demo-org")
    try:
        junk = await client.list_junk_rooms(page_size=5, target=1112)
        priority = await client.list_priority_rooms(page_size=5, target=1112)
        assert {r.room_id for r in junk.rooms}.isdisjoint(r.room_id for r in priority.rooms)
        assert priority.total_rooms == junk.total_rooms == 240
        room = priority.rooms[0]
        assert room.room_id is not None
        messages = await client.list_room_messages(room.room_id, target=1112)
        assert messages[-1].message == room.last_message
        assert messages[-1].sent_at == room.last_message_at
        with pytest.raises(ApiError) as caught:
            await client.list_room_messages(room.room_id, target=1113)
        assert caught.value.status == 404 and "Room not found" in caught.value.message
    finally:
        await client.aclose()


# The vendor's reference: roomInitiator is a user name (a string, example "brandon"),
# attachments a string (example "[]"). A user id or an array, as another platform (and
# this simulator once) sends, is read too.
@pytest.mark.parametrize(
    ("initiator", "shown"),
    [("brandon", "brandon"), ("+12005550100", "+12005550100"), (900123, "#900123"),
     ("  ", None), ("", None), (None, None), (True, None), ({"name": "x"}, None)],
)  # fmt: skip
def test_the_room_initiator_is_a_user_name_or_a_user_id(initiator: object, shown: str) -> None:
    message = m.RoomMessage.model_validate({"roomInitiator": initiator})
    assert message.initiator == shown
    assert message.wire()["roomInitiator"] == initiator  # kept as it came


@pytest.mark.parametrize(
    ("attachments", "links"),
    [
        ("[]", []),
        ('["https://a.example/x.jpg", "https://a.example/y.pdf"]',
         ["https://a.example/x.jpg", "https://a.example/y.pdf"]),
        (' [{"url": "https://a.example/z.png"}, null]', ["https://a.example/z.png"]),
        (["https://a.example/x.jpg"], ["https://a.example/x.jpg"]),
        ("https://a.example/x.jpg", ["https://a.example/x.jpg"]),
        ("[not json", ["[not json"]),
        ('{"url": "https://a.example/x.jpg"}', ['{"url": "https://a.example/x.jpg"}']),
        ("", []),
        (None, []),
    ],
)  # fmt: skip
def test_attachments_as_a_json_text_an_array_or_one_address(
    attachments: object, links: list[str]
) -> None:
    assert m.RoomMessage.model_validate({"attachments": attachments}).links == links
