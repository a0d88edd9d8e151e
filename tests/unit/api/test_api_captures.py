"""SIP captures in the client (api/captures.py, api/capture_models.py; CONTRACT 90-94)."""

from __future__ import annotations

import struct
from datetime import UTC, datetime

import httpx
import pytest
from pydantic import ValidationError

from tests.unit.api.conftest import MakeClient
from vagent_tui.api.capture_models import CaptureQuery, SipCapture, pcap_problem
from vagent_tui.api.errors import ApiError, MalformedResponse
from vagent_tui.api.log_models import LogEntry

from .helpers import TOKEN, Recorder, query


def pcap(*payloads: bytes) -> bytes:
    out = [struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65_535, 101)]
    for n, payload in enumerate(payloads):
        out.append(struct.pack("<IIII", 1_700_000_000 + n, 0, len(payload), len(payload)))
        out.append(payload)
    return b"".join(out)


def reply(content: bytes, media: str, status: int = 200) -> httpx.Response:
    return httpx.Response(status, content=content, headers={"content-type": media})


def ask(fmt: str = "text") -> CaptureQuery:
    return CaptureQuery(sip_call_id="abc@pbx.example", format=fmt)  # type: ignore[arg-type]


async def test_a_pcap_comes_as_its_bytes_with_the_query_sent(make_client: MakeClient) -> None:
    body = pcap(b"INVITE sip:x SIP/2.0\r\n\r\n", b"SIP/2.0 200 OK\r\n\r\n")
    recorder = Recorder(reply(body, "application/vnd.tcpdump.pcap"))
    got = await make_client(recorder).get_sip_capture(ask("pcap"), target=1111)
    assert got.content == body and got.is_binary
    sent = query(recorder.last)
    assert sent["sipCallId"] == ["abc@pbx.example"] and sent["format"] == ["pcap"]
    assert sent["targetAccountId"] == ["1111"] and "from" not in sent


async def test_a_pcap_cut_short_is_asked_again_then_refused(make_client: MakeClient) -> None:
    cut = pcap(b"INVITE sip:x SIP/2.0\r\n\r\n")[:-5]
    recorder = Recorder(reply(cut, "application/vnd.tcpdump.pcap"))
    with pytest.raises(MalformedResponse, match="ends inside a packet"):
        await make_client(recorder, get_retries=2).get_sip_capture(ask("pcap"))
    assert recorder.calls == 3


async def test_a_pcap_that_echoes_the_key_keeps_its_length(make_client: MakeClient) -> None:
    body = pcap(b"X-Key: " + TOKEN.encode() + b"\r\n")
    recorder = Recorder(reply(body, "application/vnd.tcpdump.pcap"))
    got = await make_client(recorder).get_sip_capture(ask("pcap"))
    assert TOKEN.encode() not in got.content and len(got.content) == len(body)
    assert pcap_problem(got.content) is None


async def test_text_is_shown_as_it_came_with_the_key_masked(make_client: MakeClient) -> None:
    recorder = Recorder(reply(f"INVITE [bold]x[/] {TOKEN}\n".encode(), "text/plain"))
    got = await make_client(recorder).get_sip_capture(ask("text"))
    assert "[bold]x[/]" in got.text and TOKEN not in got.text


@pytest.mark.parametrize("fmt", ["json", "transaction"])
async def test_a_json_capture_is_indented_and_its_refusal_an_error(
    make_client: MakeClient, fmt: str
) -> None:
    good = reply(b'{"success":true,"messages":[{"raw":"INVITE"}]}', "application/json")
    got = await make_client(Recorder(good)).get_sip_capture(ask(fmt))
    assert got.text.startswith("{\n") and '"raw": "INVITE"' in got.text
    refused = reply(b'{"success":false,"message":"No results found"}', "application/json")
    with pytest.raises(ApiError, match="No results found"):
        await make_client(Recorder(refused)).get_sip_capture(ask(fmt))


async def test_a_404_is_the_platforms_message(make_client: MakeClient) -> None:
    recorder = Recorder(reply(b'{"success":false,"message":"No results found"}',
                              "application/json", 404))  # fmt: skip
    with pytest.raises(ApiError) as caught:
        await make_client(recorder).get_sip_capture(ask("pcap"))
    assert caught.value.status == 404 and recorder.calls == 1


@pytest.mark.parametrize("content", [b"", b"GIF89a", pcap()[:20], pcap(b"ab") + b"\x00"])
def test_what_is_not_a_whole_pcap(content: bytes) -> None:
    assert pcap_problem(content) is not None


def test_the_window_is_five_minutes_either_side_of_the_call() -> None:
    start = datetime(2026, 1, 1, tzinfo=UTC)
    q = CaptureQuery.around("a@b", "json", start, 60)
    ms = int(start.timestamp() * 1000)
    assert q.params() == {"sipCallId": "a@b", "format": "json", "from": ms - 300_000,
                          "to": ms + 360_000}  # fmt: skip
    assert "from" not in CaptureQuery.around("a@b", "text", None, 60).params()


@pytest.mark.parametrize("call_id", ["", "a b@c", "a\x1b[2J", "x" * 1025])
def test_a_call_id_that_cannot_be_one_is_refused(call_id: str) -> None:
    with pytest.raises(ValidationError):
        CaptureQuery(sip_call_id=call_id)


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        ({"sipCallId": "a@b"}, "a@b"),
        ({"metadata": {"sipCallId": "m@b"}}, "m@b"),
        ({"sipCallId": None, "type": "sms"}, None),
        ({"sipCallId": 42}, None),
        ({}, None),
    ],
)
def test_an_entry_carries_a_sip_call_id_or_none(
    fields: dict[str, object], expected: str | None
) -> None:
    assert LogEntry.model_validate(fields).sip_call_id == expected


def test_text_of_a_capture_replaces_what_is_not_utf8() -> None:
    assert SipCapture("text", "text/plain", b"ok \xff").text == "ok \ufffd"
