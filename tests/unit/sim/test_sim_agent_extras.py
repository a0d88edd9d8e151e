"""The rest of the agent, through the client against the simulator: the models offered."""

from __future__ import annotations

from vagent_tui.services.changes import Change
from vagent_tui.services.connect import demo_client
from vagent_tui.services.staging import context_for, plan_for

AGENT = 1111


async def test_models_offered_hold_what_the_seeded_agents_use() -> None:
    client = demo_client("demo-reseller")
    models = await client.list_models()
    assert models.models["gpt-4.1"].provider == "openai"
    assert models.models["gpt-4.1"].can_reason is False
    live = await client.get_live(target=AGENT)
    assert live is not None and models.refusal(str(live.wire()["agentModel"])) is None


async def test_a_staging_change_to_a_model_not_offered_is_refused() -> None:
    client = demo_client("demo-reseller")
    change = Change.of_settings({"agentModel": "gpt-9"})
    plan = plan_for(change, await context_for(client, AGENT, change))
    assert [r.what for r in plan.refusals] == ["agentModel"]
    fine = Change.of_settings({"agentModel": "gemini-2.5-pro"})
    assert not plan_for(fine, await context_for(client, AGENT, fine)).refused
