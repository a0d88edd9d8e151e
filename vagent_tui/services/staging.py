"""Reading what a change is checked against, and writing it: one agent account at a time.

`read_context` reads the account's staging and live slots (and, when the change needs
them, its voices and functions) in parallel; `plan_for` plans a `Change` against that.
Before anything is written the slots are read again (`base_moved`): when
someone changed them since the plan, the caller shows what moved and asks again.
`read_slots` reads both slots back after a write whose reply never came, so that the
screen shows what the platform holds instead of retrying blindly.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from dataclasses import dataclass, replace
from typing import Any

from vagent_tui.api.agent_extras_models import MODEL_SETTINGS, ModelCatalog
from vagent_tui.api.client import PlatformClient
from vagent_tui.api.models import AgentConfig, FunctionDescriptor, Voice
from vagent_tui.services.changes import VOICE_BOUND, Change, Plan, plan_change
from vagent_tui.services.diff import FieldDiff, diff_configs


def wire(config: AgentConfig | None) -> dict[str, Any] | None:
    """A configuration as the platform sent it (camelCase; what a write sends back)."""
    return None if config is None else config.wire()


@dataclass(frozen=True)
class AgentContext:
    """One agent account's slots, and the lists a change is checked against."""

    staging: dict[str, Any] | None
    live: dict[str, Any] | None
    voices: list[Voice] | None = None
    functions: list[FunctionDescriptor] | None = None
    models: ModelCatalog | None = None
    models_unread: bool = False
    """The models were asked, but the platform's list failed or was empty: a model
    setting is not checked against it (said in the plan's notes), none refused."""

    @property
    def base(self) -> dict[str, Any]:
        """What a staging write starts from: staging, or live when staging is empty."""
        return self.staging if self.staging is not None else (self.live or {})

    @property
    def live_id(self) -> str | None:
        value = (self.live or {}).get("id")
        return value if isinstance(value, str) else None


async def read_context(
    client: PlatformClient,
    target: int | None,
    *,
    voices: bool = False,
    functions: bool = False,
    models: bool = False,
    lean: bool = False,
) -> AgentContext:
    """Staging and live (and the voices, functions or models lists when asked), in parallel.

    ``lean``: live is checked against the model only when it is the base (staging
    empty) or staging needed the model; otherwise it is left as sent, for a caller that
    only compares it with staging (`plan_account`'s note on other unpublished changes:
    from a platform that spells both slots alike, the same as the model's). Checking a
    configuration was the largest part of a rollout plan's own CPU per account.
    """
    reads: list[Awaitable[Any]] = [
        client.get_slot("staging", target=target, checked=not lean),
        client.get_slot("default", target=target, checked=not lean),
    ]
    # Only the reads the change needs: a rollout plan makes this call per account.
    if voices:
        reads.append(client.list_voices(target=target))
    if functions and target is not None:
        reads.append(client.list_functions(target))
    if models:
        reads.append(_models_of(client, target))
    staging, live, *lists = await asyncio.gather(*reads)
    if lean:
        sent = staging
        staging = None if sent is None else client.slot_as_sent(sent)
        if live is not None and (staging is None or staging is not sent):
            live = client.slot_as_sent(live)
    voice_list = lists.pop(0) if voices else None
    function_list = lists.pop(0) if functions and target is not None else None
    model_list = lists.pop(0) if models else None
    return AgentContext(
        staging, live, voice_list, function_list, model_list, models and model_list is None
    )


async def _models_of(client: PlatformClient, target: int | None) -> ModelCatalog | None:
    """The models the platform offers; None when their read failed or listed none (a
    model is then not checked, as a rollout's form does: the slots still matter)."""
    from vagent_tui.api.errors import PlatformError

    try:
        catalog = await client.list_models(target=target)
    except PlatformError:
        return None
    return catalog if catalog.read else None


MODELS_UNREAD = (
    "The platform's list of models (GET /models/supported) could not be read: the model "
    "named is not checked against it."
)


async def context_for(
    client: PlatformClient, target: int | None, change: Change, *, lean: bool = False
) -> AgentContext:
    """What ``change`` needs to be planned for ``target`` (``lean``: as `read_context`).

    The models offered are the platform's, the same for every account: a rollout
    (``lean``) checks them once at its form, not once per account.
    """
    voice_bound = any(name in VOICE_BOUND for name, _ in change.settings)
    names_model = any(name in MODEL_SETTINGS and value for name, value in change.settings)
    return await read_context(
        client, target, voices=change.voice is not None or voice_bound,
        functions=bool(change.functions), models=names_model and not lean, lean=lean,
    )  # fmt: skip


def plan_for(change: Change, context: AgentContext) -> Plan:
    plan = plan_change(
        change, context.base, voices=context.voices, functions=context.functions,
        models=context.models,
    )  # fmt: skip
    names_model = any(name in MODEL_SETTINGS and value for name, value in change.settings)
    if context.models_unread and names_model:
        return replace(plan, notes=(*plan.notes, MODELS_UNREAD))
    return plan


async def base_moved(
    client: PlatformClient, target: int | None, context: AgentContext
) -> tuple[AgentContext, list[FieldDiff]]:
    """The context with its slots read again, and what moved in the base a write starts
    from (staging, or live when staging is empty: a publish meanwhile moves it too)."""
    staging = await client.get_slot("staging", target=target)
    live = context.live
    if staging is None:
        live = await client.get_slot("default", target=target)
    fresh = replace(context, staging=staging, live=live)
    if fresh.base == context.base:
        return fresh, []
    return fresh, diff_configs(context.base, fresh.base)


@dataclass(frozen=True)
class Slots:
    """Staging and live as the platform holds them now (after a write, or its failure)."""

    staging: dict[str, Any] | None
    live: dict[str, Any] | None


async def read_slots(client: PlatformClient, target: int | None) -> Slots:
    staging, live = await asyncio.gather(
        client.get_slot("staging", target=target), client.get_slot("default", target=target)
    )
    return Slots(staging, live)
