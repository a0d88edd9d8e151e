"""Staging writes, publish, revert, version create and restore."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from .helpers import FakeClock, Sim, envelope


async def write(sim: Sim, body: object, token: str = "demo-agent", **params: Any) -> httpx.Response:
    return await sim.call("POST", "/agent", token, params=params, json=body)


async def test_write_keeps_omitted_fields_and_replaces_lists(sim: Sim) -> None:
    before = (await sim.get("/agentEventRules/staging", "demo-agent")).json()["campaign"]
    actions = [{"name": "endCall", "instructions": "Hang up when done."}]
    r = await write(sim, {"welcomeMessage": "Hi there", "actions": actions})
    assert r.status_code == 200, r.text
    staged = (await sim.get("/agentEventRules/staging", "demo-agent")).json()["campaign"]
    assert staged["welcomeMessage"] == "Hi there"
    assert staged["keywords"] == before["keywords"]
    assert [a["name"] for a in staged["actions"]] == ["endCall"]
    assert staged["actions"][0]["allowed"] is True and staged["actions"][0]["placeholder"]
    live = (await sim.get("/agentEventRules/default", "demo-agent")).json()["campaign"]
    assert live["welcomeMessage"] != "Hi there"


async def test_write_on_empty_staging_starts_from_live(sim: Sim) -> None:
    r = await write(sim, {"waitOnAnswer": 2}, "demo-partner", targetAccountId=1113)
    assert r.status_code == 200
    staged = (await sim.get("/agentEventRules/staging", targetAccountId=1113)).json()["campaign"]
    live = (await sim.get("/agentEventRules/default", targetAccountId=1113)).json()["campaign"]
    assert staged["waitOnAnswer"] == 2 and staged["agentInstructions"] == live["agentInstructions"]


@pytest.mark.parametrize(
    ("body", "token"),
    [
        ({"nope": 1}, "demo-agent"),
        ({"id": "cfg-1"}, "demo-agent"),
        ({"waitOnAnswer": "2"}, "demo-agent"),
        ({"waitToGreet": 1}, "demo-agent"),
        ({"keywords": [1]}, "demo-agent"),
        ({"agentVoice": "nobody"}, "demo-agent"),
        ({"agentVoice": "elevenlabs-rachel"}, "demo-member"),  # starter plan target below
        ({"agentLang": "english"}, "demo-agent"),
        ({"agentS2SEngine": "claude"}, "demo-agent"),
        ({"agentSttEngine": "whisper"}, "demo-agent"),
        ({"computerDelegateAccountId": 1218}, "demo-agent"),
        ({"actions": [{"name": "teleport", "instructions": "x"}]}, "demo-agent"),
        ({"actions": [{"name": "pauseRecording", "instructions": "x"}]}, "demo-agent"),
        ({"actions": [{"name": "endCall", "instructions": "x"}] * 2}, "demo-agent"),
        ({"actions": [{"name": "endCall"}]}, "demo-agent"),
        ({"apps": [{"appId": "x"}]}, "demo-agent"),
        (
            {
                "reportingFields": [
                    {"key": "k", "label": "l", "instructions": "i", "values": {"kind": 1}}
                ]
            },
            "demo-agent",
        ),
    ],
)
async def test_write_rejects(sim: Sim, body: dict[str, Any], token: str) -> None:
    params = {"targetAccountId": 1113} if token == "demo-member" else {}
    envelope(await write(sim, body, token, **params), 400)


async def test_write_refuses_paid_function_on_starter(sim: Sim) -> None:
    r = await write(sim, {"actions": [{"name": "webSearch", "instructions": "x"}]},
                    "demo-member", targetAccountId=1113)  # fmt: skip
    envelope(r, 400, "Function 'webSearch' is not available: This function requires a paid account")


async def test_write_needs_agent_and_reach(sim: Sim) -> None:
    envelope(await write(sim, {"waitOnAnswer": 1}, "demo-org"), 400)
    envelope(await write(sim, {"waitOnAnswer": 1}, "demo-member", targetAccountId=1111), 403)
    envelope(await sim.call("POST", "/agent", "demo-agent", content=b"[]"), 400)


async def test_publish_and_revert(sim: Sim, clock: FakeClock) -> None:
    envelope(await sim.call("POST", "/agent/publish", "demo-partner",
                            params={"targetAccountId": 1113}), 400)  # fmt: skip
    await write(sim, {"welcomeMessage": "Published hello"})
    count = len(sim.state.versions[1111])
    r = await sim.call("POST", "/agent/publish", "demo-agent")
    assert r.status_code == 200 and r.json()["campaign"]["welcomeMessage"] == "Published hello"
    live = (await sim.get("/agentEventRules/default", "demo-agent")).json()["campaign"]
    assert live["welcomeMessage"] == "Published hello"
    assert (await sim.get("/agentEventRules/staging", "demo-agent")).json()["campaign"] is None
    versions = (await sim.get("/agent/cfg-1111/versions", "demo-agent")).json()["versions"]
    assert len(versions) == count + 1 and versions[0]["title"].startswith("Auto-")
    await write(sim, {"welcomeMessage": "Draft"})
    r = await sim.call("POST", "/agent/revert", "demo-agent")
    assert r.status_code == 200
    assert (await sim.get("/agentEventRules/staging", "demo-agent")).json()["campaign"] is None


async def test_version_create_and_restore(sim: Sim) -> None:
    r = await sim.call("POST", "/agent/cfg-1111/versions", "demo-agent",
                       json={"title": "Before launch", "source": "default"})  # fmt: skip
    assert r.status_code == 201
    created = r.json()["createdVersion"]
    assert created["title"] == "Before launch"
    versions = (await sim.get("/agent/cfg-1111/versions", "demo-agent")).json()["versions"]
    assert versions[0]["versionId"] == created["versionId"]
    oldest = versions[-1]["versionId"]
    r = await sim.call("POST", f"/agent/cfg-1111/versions/{oldest}/restore", "demo-agent",
                       json={"target": "staging"})  # fmt: skip
    assert r.status_code == 200
    staged = (await sim.get("/agentEventRules/staging", "demo-agent")).json()["campaign"]
    assert staged == sim.state.versions[1111][-1]["snapshot"]
    envelope(await sim.call("POST", "/agent/cfg-1111/versions/1/restore", "demo-agent",
                            json={"target": "staging"}), 404)  # fmt: skip
    envelope(await sim.call("POST", f"/agent/cfg-1111/versions/{oldest}/restore", "demo-agent",
                            json={"target": "prod"}), 400)  # fmt: skip
    envelope(await sim.call("POST", "/agent/cfg-1113/versions", "demo-partner",
                            json={"title": "x", "source": "staging"}), 400)  # fmt: skip
    envelope(await sim.call("POST", "/agent/cfg-1111/versions", "demo-agent",
                            json={"source": "default"}), 400)  # fmt: skip


def test_edit_staging_is_someone_else_changing_the_agent() -> None:
    from vagent_tui.sim import demo_state

    state = demo_state()
    state.staging[1112] = None
    draft = state.edit_staging(1112, speakingTimeout=777)
    assert draft["speakingTimeout"] == 777
    assert draft["agentVoice"] == state.live[1112]["agentVoice"]  # started from live
    assert state.staging[1112] is draft and state.live[1112]["speakingTimeout"] != 777
    assert not state.requests


async def test_someone_else_route_changes_staging_without_a_token(sim: Sim) -> None:
    r = await sim.client.post("/_sim/agents/1113/staging", json={"speakingTimeout": 4242})
    assert r.status_code == 200 and r.json()["campaign"]["speakingTimeout"] == 4242
    staged = (await sim.get("/agentEventRules/staging", targetAccountId=1113)).json()
    assert staged["campaign"]["speakingTimeout"] == 4242
    assert (sim.state.staging[1113] or {}).get("speakingTimeout") == 4242
    assert (await sim.client.post("/_sim/agents/999999/staging", json={})).status_code == 404
    assert (await sim.client.post("/_sim/agents/x/staging", json={})).status_code in (400, 404)


async def test_restore_into_live_follows_the_delegate_and_odd_fields_do_not_crash(sim: Sim) -> None:
    versions = (await sim.get("/agent/cfg-1111/versions", "demo-agent",
                              includeData="true")).json()["versions"]  # fmt: skip
    oldest = versions[-1]
    sim.state.accounts[1111].computer_delegate = 424242
    r = await sim.call("POST", f"/agent/cfg-1111/versions/{oldest['versionId']}/restore",
                       "demo-agent", json={"target": "default"})  # fmt: skip
    assert r.status_code == 200
    expected = oldest["snapshot"].get("computerDelegateAccountId")
    assert sim.state.accounts[1111].computer_delegate == expected
    sim.state.edit_staging(1111, simOnlyField="x")  # in staging, not in live
    r = await sim.call("POST", "/agent", "demo-agent", json={"simOnlyField": "y"})
    assert r.status_code == 200
