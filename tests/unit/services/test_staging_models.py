"""The Agent screen's settings form checks a model against the platform's list only when
the list was read: a failed or empty list refuses nothing and the review says so."""

from __future__ import annotations

from typing import Any

import pytest

from vagent_tui.api.agent_extras_models import ModelCatalog
from vagent_tui.api.errors import MalformedResponse
from vagent_tui.services.changes import Change
from vagent_tui.services.connect import demo_client
from vagent_tui.services.staging import MODELS_UNREAD, context_for, plan_for

AGENT = 1111


async def _failed(*, target: int | None = None) -> ModelCatalog:
    raise MalformedResponse("The platform sent a reply that is not JSON (HTTP 200)")


async def _empty(*, target: int | None = None) -> ModelCatalog:
    return ModelCatalog.of_reply({"success": True, "models": {}})


@pytest.mark.parametrize("models", [_failed, _empty])
async def test_a_models_list_not_read_refuses_no_model(models: Any) -> None:
    client = demo_client("demo-partner")
    client.list_models = models  # type: ignore[method-assign]
    change = Change.of_settings({"agentModel": "gpt-9"})  # not offered: not known here
    context = await context_for(client, AGENT, change)
    plan = plan_for(change, context)
    assert not plan.refused and plan.body == {"agentModel": "gpt-9"}
    assert MODELS_UNREAD in plan.notes


async def test_a_models_list_read_refuses_a_model_not_offered() -> None:
    client = demo_client("demo-partner")
    change = Change.of_settings({"agentModel": "gpt-9"})
    plan = plan_for(change, await context_for(client, AGENT, change))
    assert [r.what for r in plan.refusals] == ["agentModel"] and MODELS_UNREAD not in plan.notes
