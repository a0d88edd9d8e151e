"""Item shapes of ``rollout`` and ``agent`` (`vagent_tui.commands.schemas`)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel

from vagent_tui.commands.schemas import Item

PlanOutcome = Literal["change", "already", "refused", "unreadable"]
StepResult = Literal["written", "published", "changed-meanwhile", "failed", "unknown", "nothing"]


class RolloutPlanItem(Item):
    """``rollout plan``: what the change would do to one account (nothing is written)."""

    account_id: int
    name: str
    outcome: PlanOutcome
    """``change``: its staging would be written; ``already``: it already is so;
    ``refused``: the change does not fit it (``reasons``); ``unreadable``: a read failed."""
    changes: list[str]
    """One line per difference: ``agentVoice: "a" → "b"``."""
    reasons: list[str]
    notes: list[str]


class RolloutResultItem(Item):
    """``rollout apply`` and ``rollout publish``: one account's step."""

    account_id: int
    name: str
    step: Literal["write", "publish"]
    outcome: PlanOutcome
    """The plan's outcome for the account."""
    result: StepResult | None
    """``written``/``published``: done; ``changed-meanwhile``: its staging moved since the
    plan (or the write), nothing sent; ``failed``: the platform refused (``message``);
    ``unknown``: the reply never came and reading back did not find it (never resent);
    ``nothing``: nothing to publish (staging empty, or the account not written yet).
    None: the plan has nothing to write for the account (``outcome``, ``message``)."""
    earlier: bool
    """The result is an earlier run's (the console's or another job's): nothing sent now."""
    message: str


class AgentDiffItem(Item):
    """``agent diff``: one field in which staging differs from live."""

    path: str
    """The setting (``speakingTimeout``), or a list's entry (``actions[bookAppointment]``)."""
    kind: Literal["changed", "added", "removed"]
    old: Any
    new: Any
    lines: list[str]
    """Long text compared line by line (``- ``, ``+ ``, ``  `` prefixed), or an entry's fields."""


class AgentPublishItem(Item):
    """``agent publish``: what the publish did."""

    account_id: int | None
    result: Literal["published", "nothing", "unknown"]
    version_id: int | None
    """The version the platform saved of the new live."""
    changes: list[str]
    """What went live: one line per field."""
    message: str


SHAPES: dict[str, type[BaseModel]] = {
    "rollout-plan": RolloutPlanItem,
    "rollout-result": RolloutResultItem,
    "agent-diff": AgentDiffItem,
    "agent-publish": AgentPublishItem,
}
