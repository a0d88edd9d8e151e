"""The simulator's agent review (``POST /agent/autoReviewAgentConfiguration``)."""

from __future__ import annotations

from typing import Any

import httpx

from vagent_tui.sim import create_app

PATH = "/api/v2/agent/autoReviewAgentConfiguration"


async def post(body: Any, token: str = "demo-partner", target: int | None = 1111) -> httpx.Response:
    transport = httpx.ASGITransport(app=create_app())
    params: dict[str, Any] = {"token": token}
    if target is not None:
        params["targetAccountId"] = target
    async with httpx.AsyncClient(transport=transport, base_url="http://sim") as client:
        return await client.post(PATH, params=params, json=body)


async def test_agent_mode_reviews_what_the_agent_runs_next() -> None:
    reply = await post({"mode": "agent", "agentId": "cfg-1111"})
    assert reply.status_code == 200
    body = reply.json()
    assert body["agentId"] == "cfg-1111"
    assert (
        body["greetingSuggestion"] == "Thank you for calling Acme Dental. How can I help you today?"
    )
    assert "Confirm names" in body["agentInstructionsSuggestion"]
    assert {a["name"] for a in body["actionSuggestions"]} >= {"transferCall"}
    assert all(a["promptSuggestion"] for a in body["appSuggestions"])
    again = await post({"mode": "agent", "agentId": "cfg-1111"})
    assert again.json() == body  # the same text, the same suggestions


async def test_fields_mode_answers_one_suggestion_per_field() -> None:
    reply = await post({"mode": "fields", "agentId": "cfg-1111",
                        "fields": [{"key": "greeting"}, {"key": "agentInstructions"}]})  # fmt: skip
    assert reply.status_code == 200
    items = reply.json()
    assert [i["key"] for i in items] == ["greeting", "agentInstructions"]
    assert items[0]["value"].startswith("Thanks for calling Acme Dental")
    assert all(i["promptSuggestion"] for i in items)


async def test_refusals() -> None:
    cases: list[tuple[Any, int, str]] = [
        ({"mode": "agent"}, 400, "agentId is required in agent mode"),
        ({"mode": "loud", "agentId": "cfg-1111"}, 400, "mode must be fields or agent"),
        ({"mode": "fields", "fields": [{"key": "greeting"}]}, 400, "templateId or agentId"),
        ({"mode": "agent", "agentId": "cfg-999999"}, 404, "Agent configuration not found"),
    ]
    for body, status, message in cases:
        reply = await post(body)
        assert reply.status_code == status, body
        assert message in reply.json()["message"]
