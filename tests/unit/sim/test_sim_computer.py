"""Computer Agents: accounts, recordings over time, browser sessions, workspace upload."""

from __future__ import annotations

from typing import Any

import pytest

from .helpers import FakeClock, Sim, envelope

BASE = "/computer/accounts/1118"


def upload_args(path: str, *, mode: str | None = "0644", overwrite: str | None = None,
                content: bytes = b"hello") -> dict[str, Any]:  # fmt: skip
    data = {"path": path}
    if mode is not None:
        data["mode"] = mode
    if overwrite is not None:
        data["overwrite"] = overwrite
    return {"data": data, "files": {"file": ("f.txt", content, "text/plain")}}


async def test_computer_accounts(sim: Sim) -> None:
    r = (await sim.get("/computer/accounts")).json()
    assert {a["id"] for a in r["accounts"]} == {1118, 1218, 1228}
    assert {"id", "name", "username", "organizationId", "slots"} <= r["accounts"][0].keys()
    r = (await sim.get("/computer/accounts", "demo-org")).json()
    assert [a["id"] for a in r["accounts"]] == [1118]
    assert (await sim.get("/computer/accounts", "demo-other")).json()["accounts"] == []


async def open_sessions(
    sim: Sim, count: int, token: str = "demo-org", ttl: int = 1800
) -> list[Any]:
    """Browser automation sessions on 1118: their slots (0, 1, ...)."""
    slots = []
    for _ in range(count):
        r = await sim.call("POST", BASE + "/browser/automation-sessions", token,
                           json={"ttlSeconds": ttl})  # fmt: skip
        assert r.status_code == 200, r.text
        slots.append(r.json()["slot"])
    return slots


async def test_recording_lifecycle(sim: Sim, clock: FakeClock) -> None:
    assert (await sim.get(BASE + "/workflow-recordings/status", "demo-org")).json() == {
        "success": True, "recording": None}  # fmt: skip
    assert await open_sessions(sim, 3) == [0, 1, 2]
    r = await sim.call("POST", BASE + "/workflow-recordings/start", "demo-org", json={"slotId": 0})
    assert r.status_code == 200
    body = r.json()
    assert body["success"] is True and body["state"] == "recording"
    assert body["slotId"] == 0 and body["finalized"] is False
    assert body["updatedAt"].endswith("Z") and body["evidenceRoot"]
    rec_id = body["recordingId"]
    envelope(await sim.call("POST", BASE + "/workflow-recordings/start", "demo-org",
                            json={"slotId": 1}), 409,
             "Only one recording or generation may be active")  # fmt: skip
    stop = (await sim.call("POST", BASE + "/workflow-recordings/stop", "demo-org")).json()
    assert stop["state"] == "stopping" and stop["recordingId"] == rec_id and stop["domainKey"]
    assert stop["analysisStatus"] == "pending"
    envelope(await sim.call("POST", BASE + "/workflow-recordings/stop", "demo-org"), 409)
    envelope(await sim.call("POST", BASE + "/workflow-recordings/start", "demo-org",
                            json={"slotId": 0}), 409)  # fmt: skip
    clock.advance(6)
    status = (await sim.get(BASE + "/workflow-recordings/status", "demo-org")).json()["recording"]
    assert status["state"] == "finalized" and status["finalized"] is True
    assert status["analysisStatus"] == "running"
    clock.advance(5)
    status = (await sim.get(BASE + "/workflow-recordings/status", "demo-org")).json()["recording"]
    assert status["analysisStatus"] == "completed"
    r = await sim.call("POST", BASE + "/workflow-recordings/start", "demo-org", json={"slotId": 2})
    assert r.status_code == 200 and r.json()["recordingId"] != rec_id


@pytest.mark.parametrize("body", [{"slotId": -1}, {"slotId": "0"}, {"slotId": 1.5},
                                  {"slotId": True}, {}])  # fmt: skip
async def test_recording_bad_slot(sim: Sim, body: dict[str, Any]) -> None:
    envelope(await sim.call("POST", BASE + "/workflow-recordings/start", json=body), 400)


NO_SESSION = "slotId {} is not the slot of an active browser automation session"


async def test_recording_needs_the_slot_of_an_existing_browser_session(
    sim: Sim, clock: FakeClock
) -> None:
    """The spec: "pass the exact slot of that session"; slot 99 starts nothing."""
    start = BASE + "/workflow-recordings/start"
    envelope(await sim.call("POST", start, json={"slotId": 99}), 400, NO_SESSION.format(99))
    envelope(await sim.call("POST", start, json={"slotId": 0}), 400, NO_SESSION.format(0))
    assert await open_sessions(sim, 1, ttl=60) == [0]
    envelope(await sim.call("POST", start, json={"slotId": 1}), 400, NO_SESSION.format(1))
    assert sim.state.recordings[1118] == []
    # Another Computer Agent's session is not this one's.
    r = await sim.call("POST", "/computer/accounts/1218/browser/automation-sessions",
                       json={"ttlSeconds": 600})  # fmt: skip
    assert r.json()["slot"] == 0
    clock.advance(61)  # 1118's session expired
    envelope(await sim.call("POST", start, json={"slotId": 0}), 400, NO_SESSION.format(0))
    assert await open_sessions(sim, 1) == [0]
    r = await sim.call("POST", start, json={"slotId": 0})
    assert r.status_code == 200 and r.json()["slotId"] == 0


async def test_computer_path_rules(sim: Sim) -> None:
    envelope(await sim.get("/computer/accounts/1111/workspace/files"), 400)
    envelope(await sim.get("/computer/accounts/1218/workspace/files", "demo-org"), 403)
    envelope(await sim.get("/computer/accounts/abc/workspace/files"), 400)
    r = await sim.get(BASE + "/workspace/files", targetAccountId=1112)
    envelope(r, 400)
    assert (await sim.get(BASE + "/workspace/files", targetAccountId=1118)).status_code == 200


async def test_browser_sessions(sim: Sim, clock: FakeClock) -> None:
    path = "/computer/accounts/1228/browser/automation-sessions"
    r = await sim.call("POST", path, json={"ttlSeconds": 60})
    body = r.json()
    assert r.status_code == 200 and body["slot"] == 0
    assert body["cdpUrl"].startswith("wss://") and isinstance(body["headers"], dict)
    envelope(await sim.call("POST", path, json={"ttlSeconds": 60}), 409)  # one slot only
    clock.advance(61)
    assert (await sim.call("POST", path, json={"ttlSeconds": 120})).status_code == 200
    for ttl in (59, 1801, "60", None):
        envelope(await sim.call("POST", path, json={"ttlSeconds": ttl}), 400)


async def test_upload_success_and_overwrite(sim: Sim) -> None:
    r = await sim.call("POST", BASE + "/workspace/upload", "demo-org",
                       **upload_args("reports/q3.csv", mode="755"))  # fmt: skip
    assert r.status_code == 200
    body = r.json()
    assert body["success"] is True and body["path"] == "reports/q3.csv"
    assert body["size"] == 5 and body["mode"] == "0755" and body["overwritten"] is False
    files = (await sim.get(BASE + "/workspace/files", "demo-org")).json()["files"]
    assert "reports/q3.csv" in {f["path"] for f in files}
    envelope(await sim.call("POST", BASE + "/workspace/upload", "demo-org",
                            **upload_args("reports/q3.csv")), 409)  # fmt: skip
    envelope(await sim.call("POST", BASE + "/workspace/upload", "demo-org",
                            **upload_args("notes/readme.txt", overwrite="false")), 409)  # fmt: skip
    r = await sim.call(
        "POST",
        BASE + "/workspace/upload",
        "demo-org",
        **upload_args("./notes/readme.txt", overwrite="true", content=b"x"),
    )
    assert r.status_code == 200 and r.json()["overwritten"] is True and r.json()["size"] == 1
    log = sim.state.requests[-1]
    assert log.body == ["file", "mode", "overwrite", "path"]


@pytest.mark.parametrize(
    ("path", "status"),
    [
        ("AGENTS.md", 403),
        ("settings.json", 403),
        ("instructions.md", 403),
        (".system/hooks.sh", 403),
        ("public/index.html", 403),
        ("../escape.txt", 400),
        ("notes/../../escape.txt", 400),
        ("/etc/passwd", 400),
        ("C:/x.txt", 400),
        ("~/x.txt", 400),
        ("dir/", 400),
        ("", 400),
        ("a\\b.txt", 400),
    ],
)
async def test_upload_refusals(sim: Sim, path: str, status: int) -> None:
    r = await sim.call("POST", BASE + "/workspace/upload", **upload_args(path, overwrite="true"))
    envelope(r, status)


@pytest.mark.parametrize("mode", ["rw-r--r--", "999", "0o644", "64", "", "12345"])
async def test_upload_bad_mode(sim: Sim, mode: str) -> None:
    envelope(await sim.call("POST", BASE + "/workspace/upload", **upload_args("a.txt", mode=mode)),
             400)  # fmt: skip


async def test_upload_malformed(sim: Sim) -> None:
    envelope(await sim.call("POST", BASE + "/workspace/upload", json={"path": "a"}), 400)
    r = await sim.call("POST", BASE + "/workspace/upload", data={"path": "a.txt"},
                       files={"other": ("f", b"x")})  # fmt: skip
    envelope(r, 400)
    r = await sim.call("POST", BASE + "/workspace/upload",
                       **upload_args("a.txt", overwrite="perhaps"))  # fmt: skip
    envelope(r, 400)
    r = await sim.call("POST", BASE + "/workspace/upload", content=b"--x\r\ngarbage",
                       headers={"content-type": "multipart/form-data; boundary=x"})  # fmt: skip
    envelope(r, 400)
