"""The simulator's hostile mode plants hostile text and repeated keys in its replies."""

from __future__ import annotations

from typing import Any

import httpx

from vagent_tui.sim import create_app
from vagent_tui.sim.hostile import PAYLOADS, Planter


async def get(hostile: bool, path: str, **params: Any) -> tuple[int, Any]:
    app = create_app(hostile=hostile)
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://sim") as client:
        reply = await client.get(path, params={"token": "demo-partner", **params})
    return reply.status_code, reply.json()


async def test_display_texts_are_planted_and_keys_kept() -> None:
    _, plain = await get(False, "/api/v2/sip/ipWhitelist")
    _, hostile = await get(True, "/api/v2/sip/ipWhitelist")
    entries = hostile["whitelist"]
    assert len(entries) == len(plain["whitelist"]) + 1
    assert entries[0]["ip"] == entries[1]["ip"] == plain["whitelist"][0]["ip"]
    assert all(e["label"] in PAYLOADS for e in entries)
    assert [e["ip"] for e in entries[1:]] == [e["ip"] for e in plain["whitelist"]]


async def test_voices_languages_and_engines_are_hostile() -> None:
    _, reply = await get(True, "/api/v2/agent/voices")
    voice = reply["voices"][0]
    assert voice["id"] == reply["voices"][1]["id"]
    assert voice["name"] in PAYLOADS
    assert all(language in PAYLOADS for language in voice["languages"])


async def test_error_messages_are_hostile_too() -> None:
    status, reply = await get(True, "/api/v2/webhookRelay/nosuchtype")
    assert status >= 400 and reply["success"] is False
    assert any(reply["message"].startswith(p) for p in PAYLOADS)


async def test_without_the_switch_nothing_changes() -> None:
    _, reply = await get(False, "/api/v2/agent/voices")
    assert not any(v["name"] in PAYLOADS for v in reply["voices"])


def test_every_payload_comes_in_turn_and_the_set_is_hostile() -> None:
    planter = Planter()
    assert [planter.next() for _ in PAYLOADS] == list(PAYLOADS)
    joined = "".join(PAYLOADS)
    for needle in ("\x1b]52;", "\x1b]0;", "\x1b[2J", "\x1b[?1049l", "\x9b", "\u202e",
                   "\u200b", "\n", "\x00", "[/]", "[@click="):  # fmt: skip
        assert needle in joined
    assert max(len(p) for p in PAYLOADS) >= 10_000
