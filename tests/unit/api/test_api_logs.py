"""The conversation logs' client methods: what is sent, what is read, how it fails."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
import tracemalloc
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from vagent_tui.api.client import PlatformClient
from vagent_tui.api.errors import (
    ApiError,
    MalformedResponse,
    RequestTimeout,
    TransportError,
    outcome_unknown,
)
from vagent_tui.api.log_models import (
    ConversationMessage,
    ConversationRef,
    LogEntry,
    LogPage,
    LogQuery,
)
from vagent_tui.api.transport import Exchange

from .conftest import MakeClient
from .helpers import TOKEN, Recorder, error_chain, json_body, ok, query

PAGE = {
    "success": True,
    "message": "Success",
    "logs": [
        {"id": "log_001", "timestamp": "2025-09-30T12:34:56.789Z", "account_id": "acct_123",
         "org_id": "org_456", "eventType": "message.created",
         "metadata": {"convoId": "c_abc", "tokens": 1234}},
    ],
    "count": 1,
    "totalCount": 5231,
    "pagination": {"page": 1, "pageSize": 20, "totalPages": 262, "totalCount": 5231,
                   "hasMore": True, "pageCount": 262},
    "schema": ["id", "timestamp", "account_id", "org_id", "eventType", "metadata"],
}  # fmt: skip
"""The reference's example reply."""


# ---------------------------------------------------------------------- what is sent


async def test_list_logs_sends_the_query_once_with_the_key(make_client: MakeClient) -> None:
    recorder = Recorder(ok(PAGE))
    client = make_client(recorder)
    q = LogQuery(start=100, end=200, fields=("id", "metadata.convoId"),
                 filters=(("eventType", "inbound-call"), ("metadata.convoId", "c 1"),
                          ("status", "failed"), ("status", "missed")))  # fmt: skip
    await client.list_logs(q, page=3, page_size=500, target=1111)
    sent = query(recorder.last)
    assert recorder.last.url.path == "/api/v2/logs"
    assert sent == {
        "token": [TOKEN],
        "targetAccountId": ["1111"],
        "start": ["100"],
        "end": ["200"],
        "fields": ["id,metadata.convoId"],
        "eventType": ["inbound-call"],
        "metadata.convoId": ["c 1"],
        "status": ["failed", "missed"],
        "page": ["3"],
        "pageSize": ["500"],
    }


async def test_include_fields_only_when_asked(make_client: MakeClient) -> None:
    recorder = Recorder(ok(PAGE))
    client = make_client(recorder)
    await client.list_logs()
    assert "includeFields" not in query(recorder.last)
    assert query(recorder.last)["page"] == ["1"] and query(recorder.last)["pageSize"] == ["20"]
    await client.list_logs(include_fields=True)
    assert query(recorder.last)["includeFields"] == ["true"]


@pytest.mark.parametrize(("page", "size"), [(0, 20), (1, 0), (1, 10_001), (True, 20), (1, 2.5)])
async def test_paging_out_of_range_sends_nothing(
    make_client: MakeClient, page: Any, size: Any
) -> None:
    recorder = Recorder(ok(PAGE))
    client = make_client(recorder)
    with pytest.raises(ValueError):
        await client.list_logs(page=page, page_size=size)
    assert recorder.calls == 0


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"filters": (("token", "abc"),)}, "carries the API key"),
        ({"filters": (("page", "2"),)}, "parameter of the request"),
        ({"filters": (("targetAccountId", "9"),)}, "parameter of the request"),
        ({"filters": (("", "x"),)}, "must not be empty"),
        ({"filters": (("a\x1bb", "x"),)}, "control characters"),
        ({"fields": ("",)}, "must not be empty"),
        ({"start": 10, "end": 5}, "start must not be after end"),
        ({"start": 1.5}, "whole Unix seconds"),
    ],
)
def test_a_query_that_cannot_be_sent_says_why(kwargs: dict[str, Any], words: str) -> None:
    with pytest.raises(ValueError, match=words):
        LogQuery(**kwargs)


async def test_the_key_travels_once_even_in_a_stream(make_client: MakeClient) -> None:
    """The pagination ``token`` of the reference is never sent: one ``token``, the key."""
    recorder = Recorder(httpx.Response(200, content=b"id\r\n1\r\n",
                                       headers={"content-type": "text/csv"}))  # fmt: skip
    client = make_client(recorder)
    body = b"".join([c async for c in client.stream_logs_csv(LogQuery(start=1), target=7)])
    assert body == b"id\r\n1\r\n"
    sent = query(recorder.last)
    assert sent["token"] == [TOKEN] and sent["format"] == ["csv"]
    assert sent["targetAccountId"] == ["7"] and sent["start"] == ["1"]
    with pytest.raises(ValueError, match="API key"):
        async for _ in client.stream_get("/logs", params={"token": "stolen"}):
            pass


def test_filters_from_text() -> None:
    assert LogQuery.parse_filters('status=failed, eventType=inbound-call note="a b"') == (
        ("status", "failed"),
        ("eventType", "inbound-call"),
        ("note", "a b"),
    )
    with pytest.raises(ValueError, match="not key=value"):
        LogQuery.parse_filters("status")


# ---------------------------------------------------------------------- what is read


async def test_the_reference_example_reads(make_client: MakeClient) -> None:
    client = make_client(Recorder(ok(PAGE)))
    page = await client.list_logs()
    assert page.total == 5231 and page.has_more and page.total_pages == 262
    assert page.field_names[-1] == "metadata"
    entry = page.logs[0]
    assert entry.id == "log_001" and entry.account_id == "acct_123"
    assert entry.get("metadata.convoId") == "c_abc" and entry.get("nope.x") is None
    assert entry.at is not None and entry.at.year == 2025
    assert entry.conversation_ref is None
    assert entry.wire()["eventType"] == "message.created"


def test_entries_are_lenient() -> None:
    page = LogPage.model_validate({
        "logs": [None, {"timestamp": 1_700_000_000_000, "status": 5, "roomId": "1:2",
                        "uuid": "u:1", "extra": {"deep": [1]}},
                 {"timestamp": "nonsense", "conversationRef": {"roomId": "3:4", "uuid": "v"}},
                 {"metadata": {"roomId": "5:6", "uuid": "w"}}, {}],
        "totalCount": "12", "pagination": {"hasMore": "yes", "pageSize": "x"},
        "schema": ["a", None, 3],
    })  # fmt: skip
    assert len(page.logs) == 4 and page.total == 12 and page.has_more is False
    assert page.field_names == ["a", "3"]
    first, second, third, empty = page.logs
    assert first.at is not None and first.at.year == 2023 and not first.failed
    assert first.get("extra.deep") == [1]
    assert first.conversation_ref == ConversationRef("1:2", "u:1")
    assert second.at is None and second.conversation_ref == ConversationRef("3:4", "v")
    assert third.conversation_ref == ConversationRef("5:6", "w")
    assert empty.conversation_ref is None and empty.at is None
    assert LogPage.model_validate({"logs": None}).total == 0


def test_message_records_are_lenient() -> None:
    record = ConversationMessage.model_validate({
        "from": 1, "content-type": "text/plain", "timestamp": "1718463395",
        "callDialog": [{"role": "assistant", "content": "Hi"}, None, "odd", {"content": 5}],
        "attachments": '[{"content-url": "https://x/y.mp3"}, "https://z"]',
    })  # fmt: skip
    assert record.from_ == 1 and record.content_type == "text/plain"
    assert record.at is not None and record.at.year == 2024
    assert [(t.role, t.content) for t in record.turns] == [
        ("assistant", "Hi"), ("", "odd"), ("", "5"),
    ]  # fmt: skip
    assert record.attachment_texts == ["https://x/y.mp3", "https://z"]
    chat = ConversationMessage.model_validate({"callDialog": [], "chatDialog": [{"role": "user",
                                               "content": "yo"}], "attachments": None})  # fmt: skip
    assert chat.turns[0].content == "yo" and chat.attachment_texts == []


async def test_an_api_error_carries_its_message(make_client: MakeClient) -> None:
    body = {"success": False, "message": "An error occurred while fetching conversation logs.",
            "error": "Detailed"}  # fmt: skip
    client = make_client(Recorder(httpx.Response(500, json=body)), get_retries=0)
    with pytest.raises(ApiError) as info:
        await client.list_logs()
    assert info.value.status == 500
    assert info.value.message == "An error occurred while fetching conversation logs."


async def test_a_503_is_retried_then_read(make_client: MakeClient) -> None:
    message = "Conversation logs service not available"
    busy = httpx.Response(503, json={"success": False, "message": message})
    recorder = Recorder(busy, ok(PAGE))
    client = make_client(recorder, get_retries=2)
    assert (await client.list_logs()).total == 5231
    assert recorder.calls == 2


# ---------------------------------------------------------------------- streaming


async def _chunks(*parts: bytes, fail: BaseException | None = None) -> AsyncIterator[bytes]:
    for part in parts:
        yield part
    if fail is not None:
        raise fail


def csv_reply(*parts: bytes, fail: BaseException | None = None) -> httpx.Response:
    return httpx.Response(200, headers={"content-type": "text/csv; charset=utf-8"},
                          content=_chunks(*parts, fail=fail))  # fmt: skip


async def test_a_stream_yields_as_it_arrives(make_client: MakeClient) -> None:
    parts = [b"id,status\r\n", b"log_1,ok\r\n" * 1000, b"log_2,failed\r\n"]
    client = make_client(Recorder(csv_reply(*parts)))
    got = [c async for c in client.stream_logs_csv(chunk_bytes=1024)]
    assert len(got) > 5 and b"".join(got) == b"".join(parts)


async def test_no_logs_for_csv_is_an_api_error(make_client: MakeClient) -> None:
    body = {"success": False, "message": "No logs found for CSV export"}
    client = make_client(Recorder(httpx.Response(404, json=body)))
    with pytest.raises(ApiError) as info:
        async for _ in client.stream_logs_csv():
            pass
    assert info.value.status == 404 and info.value.message == "No logs found for CSV export"


async def test_a_json_success_where_a_file_was_asked_is_malformed(make_client: MakeClient) -> None:
    client = make_client(Recorder(ok(PAGE)))
    with pytest.raises(MalformedResponse, match="where a file was asked"):
        async for _ in client.stream_logs_csv():
            pass


async def test_a_stream_is_retried_only_before_its_body(make_client: MakeClient) -> None:
    busy = httpx.Response(503, json={"success": False, "message": "busy"})
    recorder = Recorder(busy, httpx.ConnectError(f"refused token={TOKEN}"), csv_reply(b"a\r\n"))
    client = make_client(recorder, get_retries=2)
    assert b"".join([c async for c in client.stream_logs_csv()]) == b"a\r\n"
    assert recorder.calls == 3
    broken = Recorder(csv_reply(b"a\r\n", fail=httpx.ReadError(f"reset ?token={TOKEN}")))
    client = make_client(broken, get_retries=2)
    got: list[bytes] = []
    with pytest.raises(TransportError) as info:
        async for chunk in client.stream_logs_csv(chunk_bytes=3):
            got.append(chunk)
    assert broken.calls == 1 and b"".join(got) == b"a\r\n"
    for exc in error_chain(info.value):
        assert TOKEN not in f"{exc} {exc!r}"


async def test_a_stream_that_stalls_is_a_timeout(make_client: MakeClient) -> None:
    client = make_client(Recorder(csv_reply(b"a\r\n", fail=httpx.ReadTimeout("slow"))))
    with pytest.raises(RequestTimeout):
        async for _ in client.stream_logs_csv():
            pass


async def test_a_streamed_body_never_hands_out_the_key(make_client: MakeClient) -> None:
    """Split across chunks, URL-encoded or not: the key is masked before it is yielded."""
    half = len(TOKEN) // 2
    parts = [b"note\r\nsee " + TOKEN[:half].encode(), TOKEN[half:].encode() + b" and ",
             TOKEN.replace("-", "%2D").encode() + b"\r\n"]  # fmt: skip
    client = make_client(Recorder(csv_reply(*parts)))
    body = b"".join([c async for c in client.stream_logs_csv(chunk_bytes=4)])
    assert TOKEN.encode() not in body and b"***" in body
    assert body.startswith(b"note\r\nsee ***")


async def test_leaving_a_stream_early_closes_it(make_client: MakeClient) -> None:
    closed = asyncio.Event()

    class Endless(httpx.AsyncByteStream):
        async def __aiter__(self) -> AsyncIterator[bytes]:
            while True:
                yield b"row\r\n" * 100

        async def aclose(self) -> None:
            closed.set()

    reply = httpx.Response(200, headers={"content-type": "text/csv"}, stream=Endless())
    client = make_client(Recorder(reply))
    stream = client.stream_logs_csv()
    async for _ in stream:
        break
    await stream.aclose()
    assert closed.is_set()


# ---------------------------------------------------------------------- batch and recent


def _batch_reply(request: httpx.Request) -> httpx.Response:
    items = json_body(request)["items"]
    results = [{"success": True, "roomId": i["roomId"], "uuid": i["uuid"], "message": "Success",
                "conversation": [{"callDialog": [{"role": "user", "content": i["uuid"]}]}]}
               for i in items]  # fmt: skip
    stats = {"requested": len(items), "ok": len(items), "failed": 0}
    return httpx.Response(200, json={"success": True, "stats": stats, "results": results})


async def test_a_long_batch_goes_in_requests_of_200(make_client: MakeClient) -> None:
    recorder = Recorder(_batch_reply)
    client = make_client(recorder)
    refs = [ConversationRef(f"1:{n}", f"u{n}:1") for n in range(450)]
    reply = await client.get_conversations(refs, target=1110)
    assert [len(json_body(r)["items"]) for r in recorder.requests] == [200, 200, 50]
    assert all(r.method == "POST" and r.url.path == "/api/v2/conversation/batch"
               for r in recorder.requests)  # fmt: skip
    assert query(recorder.last)["targetAccountId"] == ["1110"]
    assert reply.stats is not None and reply.stats.requested == 450 and reply.stats.ok == 450
    assert [r.uuid for r in reply.results] == [r.uuid for r in refs]
    found = reply.by_ref()[refs[321]]
    assert found.ok and found.conversation[0].turns[0].content == "u321:1"


@pytest.mark.parametrize(("room_id", "uuid"), [(5, "a:1"), ("1:1", None), ("1:1", ["a"])])
def test_a_conversation_is_named_by_two_texts(room_id: object, uuid: object) -> None:
    """The vendor's batch item requires roomId and uuid as strings (400 otherwise): the
    client cannot make a reference of anything else, so it never sends one."""
    with pytest.raises(ValueError, match="roomId and uuid are text"):
        ConversationRef(room_id, uuid)  # type: ignore[arg-type]


async def test_a_batch_reply_without_stats_is_counted(make_client: MakeClient) -> None:
    results = [{"success": True, "roomId": "1:1", "uuid": "a"}, {"success": False,
               "roomId": "1:2", "uuid": "b", "message": "nope"}, None]  # fmt: skip
    client = make_client(Recorder(ok({"results": results})))
    reply = await client.get_conversations(
        [ConversationRef("1:1", "a"), ConversationRef("1:2", "b")]
    )
    assert reply.stats is not None and (reply.stats.ok, reply.stats.failed) == (1, 1)
    assert reply.by_ref()[ConversationRef("1:2", "b")].message == "nope"


async def test_a_batch_is_a_read_retried_like_a_get(make_client: MakeClient) -> None:
    busy = httpx.Response(503, json={"success": False, "message": "busy"})
    recorder = Recorder(busy, busy, _batch_reply)
    client = make_client(recorder, get_retries=3)
    heard: list[Exchange] = []
    client.observers.append(heard.append)
    reply = await client.get_conversations([ConversationRef("1:1", "a")])
    assert recorder.calls == 3 and reply.stats is not None and reply.stats.ok == 1
    # a read, though a POST: not a change for the journal
    assert [e.method for e in heard] == ["POST"] and not heard[0].is_change


async def test_a_failed_batch_is_a_failed_read_not_an_unknown_change(
    make_client: MakeClient,
) -> None:
    busy = httpx.Response(503, json={"success": False, "message": "busy"})
    recorder = Recorder(busy, busy, busy)
    client = make_client(recorder, get_retries=2)
    with pytest.raises(ApiError) as caught:
        await client.get_conversations([ConversationRef("1:1", "a")])
    assert recorder.calls == 3
    assert not outcome_unknown(caught.value)


async def test_a_batch_reads_on_a_read_only_profile(make_client: MakeClient) -> None:
    recorder = Recorder(_batch_reply)
    client = make_client(recorder)
    client.read_only = True  # what a read-only profile sets
    reply = await client.get_conversations([ConversationRef("1:1", "a")])
    assert recorder.calls == 1 and reply.stats is not None and reply.stats.ok == 1


async def test_recent_messages_bare_or_wrapped(make_client: MakeClient) -> None:
    records = [{"uuid": "a", "callDialog": [{"role": "user", "content": "hi"}]}, None]
    client = make_client(Recorder(httpx.Response(200, json=records),
                                  ok({"success": True, "messages": records})))  # fmt: skip
    bare = await client.recent_messages(target=1111)
    wrapped = await client.recent_messages()
    assert [m.uuid for m in bare] == [m.uuid for m in wrapped] == ["a"]
    assert bare[0].turns[0].content == "hi"


# ---------------------------------------------------------------------- against the simulator


async def test_the_client_against_the_simulator() -> None:
    from vagent_tui.services.connect import demo_client

    client = demo_client("demo-org", clock=lambda: 1_800_000_000.0)
    try:
        page = await client.list_logs(LogQuery(filters=(("status", "failed"),)), page_size=30,
                                      include_fields=True)  # fmt: skip
        assert page.total > 30 and page.has_more and "metadata.convoId" in page.field_names
        assert all(isinstance(e, LogEntry) and e.failed for e in page.logs)
        refs = [e.conversation_ref for e in page.logs]
        assert all(refs)
        reply = await client.get_conversations([r for r in refs if r])
        assert reply.stats is not None and reply.stats.ok == 30
        transcript = reply.results[0].conversation[0]
        assert transcript.uuid == page.logs[0].uuid
        csv_body = b"".join([c async for c in client.stream_logs_csv(
            LogQuery(fields=("id", "status"), filters=(("status", "failed"),)))])  # fmt: skip
        assert csv_body.count(b"\r\n") == page.total + 1
        recent = await client.recent_messages(target=1111)
        assert recent and recent[0].turns is not None
    finally:
        await client.aclose()


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def test_a_big_export_over_loopback_is_never_held_whole() -> None:
    """~15,000 rows (about 4 MB) from a simulator in another process, through a real
    socket: the client's memory peaks far below the body's size."""
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "vagent_tui.sim", "--port", str(port), "--accounts", "100"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    client = PlatformClient(f"http://127.0.0.1:{port}", "demo-partner", timeout=60)
    try:
        for _ in range(500):
            try:
                await client.get_account()
                break
            except TransportError:
                await asyncio.sleep(0.05)
        size = chunks = 0
        tracemalloc.start()
        try:
            async for chunk in client.stream_logs_csv():
                size += len(chunk)
                chunks += 1
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        assert size > 3_000_000 and chunks > 20
        assert peak < size / 4, (peak, size)
    finally:
        await client.aclose()
        server.terminate()
        server.wait(timeout=10)
