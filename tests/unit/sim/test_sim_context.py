"""What an agent knows about a caller in the simulator (CONTRACT choices 110-111)."""

from __future__ import annotations

from vagent_tui.sim import caller_context

from .helpers import Sim, envelope

AGENT = 1111
ORG = 1110
CALLER = "+15551230001"


async def test_a_post_replaces_the_text_whole(sim: Sim) -> None:
    for text in ("Name: Dana", "Name: Dana Lee\nPrefers texts", ""):
        r = await sim.call("POST", "/context", json={"target": CALLER, "context": text},
                           params={"targetAccountId": AGENT})  # fmt: skip
        assert r.status_code == 201, r.text
        got = await sim.get("/context", targetAccountId=AGENT, target=CALLER)
        assert got.json() == {"success": True, "context": text}
    other = await sim.get("/context", targetAccountId=1112, target=CALLER)
    assert other.json()["context"] == caller_context.made(CALLER)  # another agent's


async def test_refusals(sim: Sim) -> None:
    for body, word in (({"target": "+1 555 123 0001", "context": "x"}, "E.164"),
                       ({"context": "x"}, "target is required"),
                       ({"target": CALLER}, "context is required"),
                       ({"target": CALLER, "context": "x" * 10_001}, "10,000")):  # fmt: skip
        r = await sim.call("POST", "/context", json=body, params={"targetAccountId": AGENT})
        envelope(r, 400)
        assert word in r.json()["message"]
    envelope(await sim.get("/context", targetAccountId=ORG, target=CALLER), 400)
    envelope(await sim.get("/context", targetAccountId=AGENT), 400)


def test_some_callers_are_known_without_a_post() -> None:
    made = [caller_context.made(f"+1555123{n:04d}") for n in range(30)]
    assert any(made) and not all(made)


def test_hostile_mode_keeps_a_calls_numbers_which_k_sends_back() -> None:
    from vagent_tui.sim.hostile import Planter

    planted = Planter().reply({"fromNumber": CALLER, "toNumber": "+15559990000", "summary": "s"})
    assert planted["fromNumber"] == CALLER and planted["toNumber"] == "+15559990000"
    assert planted["summary"] != "s"
