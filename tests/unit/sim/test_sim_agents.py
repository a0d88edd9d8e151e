"""Functions, voices, configuration reads (every field), staging/live, versions."""

from __future__ import annotations

from typing import Any

import pytest

from .helpers import Sim, envelope

CONFIG_FIELDS = {
    "id", "title", "description", "brandName", "agentInstructions", "welcomeMessage",
    "links", "keywords", "agentModel", "agentThinking", "agentThinkingModel",
    "postConvoForceThinking", "timezone", "agentVoice", "agentTtsEngine", "agentLang",
    "agentS2SEngine", "agentSttEngine", "agentSttSmartFormatting", "actions",
    "reportingFields", "apps", "skills", "computerDelegateAccountId",
    "heartbeatInstructions", "heartbeatEvery", "heartbeatConfig", "backgroundAudio",
    "waitOnAnswer", "waitToGreet", "postAnswerDtmf", "interruptionWordCount",
    "interruptionMinimumSpeakingTime", "speakingTimeout", "speechProcessingDelay",
    "speechProcessingDelayInterruptionStep", "speechProcessingDelayMaxMultiplier",
    "callerResponseTimeout", "callerResponseTimeoutHangupCounter", "ignoreSpeech",
    "noContactInjection", "noConvoHistory", "autoRecordingNotification",
    "recordingNotificationPhrase", "preAnswerRingTime", "preAnswerSkipProcessingResults",
    "useAgentNumberForTransfers", "confirmTransfers", "monitorTransfers",
    "attendedTransfers", "attendedTransferBridgeTrigger", "attendedTransferCheckInTimeout",
    "transferConfirmTimeout", "announceTransferConnecting", "announceTransferConnected",
    "preTransferNotificationStart", "preTransferNotificationEnd", "enableRingback",
    "enableTransferRingback", "cnamAutoRejectRegex", "cnamAutoRejectCode",
    "cnamAutoTransferRegex", "cnamAutoTransferDestination", "activeEventRules",
    "effectiveReportingFields",
}  # fmt: skip
HEARTBEAT_FIELDS = {
    "activeHours", "model", "session", "target", "to", "accountId", "directPolicy",
    "includeReasoning", "includeSystemPromptSection", "suppressToolErrorWarnings",
    "lightContext", "isolatedSession", "skipWhenBusy", "ackMaxChars", "timeoutSeconds",
}  # fmt: skip
AGENTS = [1111, 1112, 1113, 1121, 1122, 1211, 1212, 1221, 1222, 1311, 1312, 1321, 1322]


async def test_functions_mix(sim: Sim) -> None:
    r = await sim.get("/agent/functions", targetAccountId=1113)
    assert r.status_code == 200
    body = r.json()
    assert body["success"] is True and isinstance(body["message"], str)
    fns = {f["name"]: f for f in body["functions"]}
    assert len(fns) >= 20
    keys = {"name", "label", "details", "placeholder", "limit", "hasSettings", "requirePaid",
            "requireComputer", "allowed", "reason", "missingRequirement", "docsPage"}  # fmt: skip
    assert all(keys == f.keys() for f in fns.values())
    assert any(f["limit"] is None for f in fns.values())
    assert any(f["docsPage"] for f in fns.values())
    # 1113 is a starter plan without a Computer Agent
    assert fns["webSearch"]["requirePaid"] and not fns["webSearch"]["allowed"]
    assert fns["runComputerTask"]["requireComputer"] and not fns["runComputerTask"]["allowed"]
    assert fns["runComputerTask"]["missingRequirement"]
    assert fns["transferCall"]["allowed"] and fns["transferCall"]["reason"] is None
    paid = {
        f["name"]: f
        for f in (await sim.get("/agent/functions", targetAccountId=1111)).json()["functions"]
    }
    assert paid["webSearch"]["allowed"] and paid["runComputerTask"]["allowed"]
    assert not paid["pauseRecording"]["allowed"]


async def test_functions_need_a_target_the_key_may_select(sim: Sim) -> None:
    envelope(await sim.get("/agent/functions", "demo-agent"), 400, "targetAccountId is required")
    envelope(await sim.get("/agent/functions", "demo-other", targetAccountId=1111), 403)
    # Any account is evaluated, an organization too: paid plan, no Computer Agent of its own.
    org = await sim.get("/agent/functions", targetAccountId=1110)
    fns = {f["name"]: f for f in org.json()["functions"]}
    assert org.status_code == 200 and fns["transferCall"]["allowed"]
    assert not fns["runComputerTask"]["allowed"] and fns["runComputerTask"]["missingRequirement"]


async def test_voices(sim: Sim) -> None:
    voices = (await sim.get("/agent/voices", targetAccountId=1113)).json()["voices"]
    assert len(voices) >= 30
    langs = {lang for v in voices for lang in v["languages"]}
    assert {"en-US", "es-MX", "es-ES", "es-US", "fr-FR", "de-DE", "multi"} <= langs
    assert {"openai", "gemini"} <= {e for v in voices for e in v["compatibleS2SEngines"]}
    assert any(not v["supportsStandardTts"] for v in voices)
    blocked = [v for v in voices if not v["accountAvailability"]["available"]]
    assert blocked and all(v["accountAvailability"]["reason"] == "advanced_voice_required"
                           for v in blocked)  # fmt: skip
    rich = (await sim.get("/agent/voices", targetAccountId=1111)).json()["voices"]
    assert all(v["accountAvailability"]["available"] for v in rich)


@pytest.mark.parametrize("aid", AGENTS)
async def test_every_agent_has_a_full_live_config(sim: Sim, aid: int) -> None:
    r = await sim.get(f"/agent/cfg-{aid}")
    assert r.status_code == 200
    cfg = r.json()["campaign"]
    assert cfg.keys() >= CONFIG_FIELDS
    assert cfg["id"] == f"cfg-{aid}"
    assert cfg["heartbeatConfig"].keys() >= HEARTBEAT_FIELDS
    assert {"start", "end", "timezone"} <= cfg["heartbeatConfig"]["activeHours"].keys()
    assert cfg["autoRecordingNotification"] == "true"
    for action in cfg["actions"]:
        assert {"name", "instructions", "placeholder", "allowed", "reason",
                "missingRequirement"} <= action.keys()  # fmt: skip
    for field in cfg["reportingFields"]:
        assert {"kind", "choices"} <= field["values"].keys()
    assert all("source" in f for f in cfg["effectiveReportingFields"])
    assert all({"appId", "version", "instructions", "enabled"} <= a.keys() for a in cfg["apps"])
    assert all({"slug", "instructions"} <= s.keys() for s in cfg["skills"])


async def test_configs_hold_disallowed_and_over_limit_actions(sim: Sim) -> None:
    after_hours = (await sim.get("/agent/cfg-1113")).json()["campaign"]["actions"]
    assert any(not a["allowed"] for a in after_hours)
    law = (await sim.get("/agent/cfg-1311")).json()["campaign"]["actions"]
    over = [a for a in law if a["name"] == "transferCall" and not a["allowed"]]
    assert len(over) == 2 and "limit" in over[0]["reason"]


async def test_agent_read_errors(sim: Sim) -> None:
    envelope(await sim.get("/agent/cfg-999999"), 404)
    envelope(await sim.get("/agent/nonsense"), 404)
    envelope(await sim.get("/agent/cfg-1111", "demo-other"), 403)
    envelope(await sim.get("/agent/cfg-1111", "demo-member"), 403)
    assert (await sim.get("/agent/cfg-1112", "demo-member")).status_code == 200
    envelope(await sim.get("/agent/cfg-1111", targetAccountId=1112), 403)


async def test_staging_and_live(sim: Sim) -> None:
    live = (await sim.get("/agentEventRules/default", "demo-agent")).json()
    staging = (await sim.get("/agentEventRules/staging", "demo-agent")).json()
    assert live["success"] and staging["success"]
    assert live["campaign"]["id"] == staging["campaign"]["id"] == "cfg-1111"
    assert live["campaign"]["welcomeMessage"] != staging["campaign"]["welcomeMessage"]
    empty = (await sim.get("/agentEventRules/staging", targetAccountId=1113)).json()
    assert empty["success"] is True and empty["campaign"] is None
    envelope(await sim.get("/agentEventRules/default", "demo-org"), 400,
             "targetAccountId must select an agent account")  # fmt: skip
    envelope(await sim.get("/agentEventRules/staging", "demo-member", targetAccountId=1111), 403)


async def test_versions_list_and_rename(sim: Sim) -> None:
    r = (await sim.get("/agent/cfg-1111/versions", "demo-agent")).json()
    versions = r["versions"]
    assert len(versions) >= 3
    ids = [v["versionId"] for v in versions]
    assert ids == sorted(ids, reverse=True) and all(i > 1_600_000_000_000 for i in ids)
    assert any(v["title"] == f"Auto-{v['versionId']}" for v in versions)
    assert any(not v["title"].startswith("Auto-") for v in versions)
    assert "snapshot" not in versions[0]
    full = (await sim.get("/agent/cfg-1111/versions", "demo-agent", includeData="true")).json()
    assert full["versions"][0]["snapshot"]["id"] == "cfg-1111"
    vid = ids[1]
    r = await sim.call("PUT", f"/agent/cfg-1111/versions/{vid}/title", "demo-agent",
                       json={"title": "Renamed"})  # fmt: skip
    assert r.json() == {"success": True, "versionId": vid, "newTitle": "Renamed"}
    again = (await sim.get("/agent/cfg-1111/versions", "demo-agent")).json()["versions"]
    assert again[1]["title"] == "Renamed" and again[1]["versionId"] == vid


@pytest.mark.parametrize(
    ("path", "body", "status"),
    [
        ("/agent/cfg-1111/versions/1/title", {"title": "x"}, 404),
        ("/agent/cfg-1111/versions/abc/title", {"title": "x"}, 400),
        ("/agent/cfg-1111/versions/{vid}/title", {"title": ""}, 400),
        ("/agent/cfg-1111/versions/{vid}/title", {"title": 7}, 400),
        ("/agent/cfg-1111/versions/{vid}/title", {}, 400),
        ("/agent/cfg-1111/versions/{vid}/title", {"title": "x" * 121}, 400),
        ("/agent/cfg-1112/versions/{vid}/title", {"title": "x"}, 403),
    ],
)
async def test_rename_errors(sim: Sim, path: str, body: dict[str, Any], status: int) -> None:
    vid = sim.state.versions[1111][0]["versionId"]
    r = await sim.call("PUT", path.format(vid=vid), "demo-agent", json=body)
    envelope(r, status)


async def test_rename_malformed_json(sim: Sim) -> None:
    vid = sim.state.versions[1111][0]["versionId"]
    headers = {"content-type": "application/json"}
    path = f"/agent/cfg-1111/versions/{vid}/title"
    r = await sim.call("PUT", path, "demo-agent", content=b'{"title": ', headers=headers)
    envelope(r, 400, "Malformed JSON body")
