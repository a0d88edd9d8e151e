"""SIP captures in the simulator (routes_captures.py, captures.py; CONTRACT 90-94).

The fake clock starts at 1_800_000_000; the calls are computed (`sim.calls`), each voice
call carrying its SIP Call-ID.
"""

from __future__ import annotations

from typing import Any

import pytest

from vagent_tui.api import models as m
from vagent_tui.api.capture_models import pcap_problem
from vagent_tui.sim import create_app

from .helpers import Sim, envelope

AGENT = 1111


async def _call(sim: Sim, status: str = "completed") -> dict[str, Any]:
    r = await sim.get("/logs", targetAccountId=AGENT, type="call", status=status, pageSize=1)
    entry: dict[str, Any] = r.json()["logs"][0]
    return entry


async def _capture(sim: Sim, call_id: str, token: str = "demo-partner", **params: Any) -> Any:
    return await sim.get("/sip/captures", token, sipCallId=call_id, **params)


async def test_only_calls_carry_a_sip_call_id(sim: Sim) -> None:
    r = await sim.get("/logs", targetAccountId=AGENT, type="sms", pageSize=3)
    assert {e["sipCallId"] for e in r.json()["logs"]} == {None}
    assert (await _call(sim))["sipCallId"].endswith("@sbc.sim.example")


@pytest.mark.parametrize(
    ("status", "finals"),
    [("completed", ["INVITE 200", "BYE 200"]), ("missed", ["INVITE 487", "CANCEL 200"]),
     ("failed", ["INVITE 503"])],
)  # fmt: skip
async def test_each_format_tells_the_same_dialog(sim: Sim, status: str, finals: list[str]) -> None:
    entry = await _call(sim, status)
    call_id = entry["sipCallId"]
    text = await _capture(sim, call_id, targetAccountId=AGENT)
    assert text.status_code == 200 and text.headers["content-type"].startswith("text/plain")
    assert text.text.startswith(entry["timestamp"]) and f"Call-ID: {call_id}" in text.text
    as_json = (await _capture(sim, call_id, format="json")).json()
    assert as_json["sipCallId"] == call_id and as_json["messages"][0]["method"] == "INVITE"
    transactions = (await _capture(sim, call_id, format="transaction")).json()["transactions"]
    assert [f"{t['method']} {t['final']}" for t in transactions if t["final"]] == finals
    raw = await _capture(sim, call_id, format="pcap")
    assert raw.headers["content-type"] == "application/vnd.tcpdump.pcap"
    assert pcap_problem(raw.content) is None
    assert raw.content.count(call_id.encode()) == len(as_json["messages"])


async def test_the_window_must_hold_the_call(sim: Sim) -> None:
    entry = await _call(sim)
    call_id = entry["sipCallId"]
    start_ms = int(call_id.rsplit("-", 1)[1].partition("@")[0]) * 1000
    window: dict[str, Any] = {"from": start_ms - 1, "to": start_ms + 1}
    found = await _capture(sim, call_id, **window)
    assert found.status_code == 200
    window = {"from": 0, "to": start_ms - 1}
    before = await _capture(sim, call_id, **window)
    envelope(before, 404, "No results found")


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"sipCallId": ""}, "sipCallId is required"),
        ({"format": "wav"}, "format must be text, pcap, json or transaction"),
        ({"from": "soon"}, "from must be an integer"),
        ({"from": 2, "to": 1}, "from must not be after to"),
    ],
)
async def test_a_query_it_cannot_answer_is_400(
    sim: Sim, params: dict[str, Any], message: str
) -> None:
    call_id = (await _call(sim))["sipCallId"]
    envelope(await sim.get("/sip/captures", **{"sipCallId": call_id, **params}), 400, message)


async def test_a_call_out_of_reach_is_not_found(sim: Sim) -> None:
    call_id = (await _call(sim))["sipCallId"]
    for token, call in (("demo-other", call_id), ("demo-partner", call_id.replace("@", "0@")),
                        ("demo-partner", "nobody@pbx.example")):  # fmt: skip
        envelope(await _capture(sim, call, token), 404, "No results found")


async def test_hostile_mode_plants_the_text_formats() -> None:
    import httpx

    app = create_app(clock=lambda: 1_800_000_000.0, hostile=True)
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://s") as c:
        sim = Sim(c, app.state.sim)
        call_id = (await _call(sim))["sipCallId"]
        text = (await _capture(sim, call_id)).text
        assert "User-Agent: vagent-sim" not in text and "\x1b" in text
        raw = (await _capture(sim, call_id, format="pcap")).content
        assert pcap_problem(raw) is None and b"\x1b" in raw


@pytest.mark.parametrize("kind", ["truncated", "cut", "malformed", "503", "refused"])
async def test_a_capture_hit_by_a_fault_is_asked_again_and_comes_whole(kind: str) -> None:
    from vagent_tui.api.capture_models import CaptureQuery
    from vagent_tui.services.connect import demo_client

    app = create_app(clock=lambda: 1_800_000_000.0)
    async with demo_client("demo-partner", sim_app=app) as client:
        client.backoff = 0
        r = await client.list_logs(m.LogQuery(filters=(("type", "call"),)), page_size=1,
                                   target=AGENT)  # fmt: skip
        call_id = r.logs[0].sip_call_id
        assert call_id is not None
        app.state.sim.faults.set(kind, path_contains="/sip/captures", remaining=1)
        got = await client.get_sip_capture(CaptureQuery(sip_call_id=call_id, format="pcap"),
                                           target=AGENT)  # fmt: skip
    assert pcap_problem(got.content) is None and app.state.sim.faults.count() == 1
    sent = [q for q in app.state.sim.requests if q.path.endswith("/sip/captures")]
    assert len(sent) == 2
