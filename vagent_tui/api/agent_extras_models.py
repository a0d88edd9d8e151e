"""The rest of the agent: the models the platform offers (``GET /models/supported``) and
the agent's public link (``/agentUrl``, ``/checkAgentUrl``).

The models' reply is a map of model id to ``{provider, canReason}`` (the vendor's
reference); a key whose value is not an object (a ``success`` flag beside the map) is
no model, and a map wrapped in a single ``models`` or ``data`` is unwrapped (else the
wrapper's name would be the one model offered, and every real one refused). A link is
named by its slug, which the platform lowercases (its example: ``weloveVida`` checked,
``welovevida`` answered): the console lowercases it first.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import Field, field_validator

from vagent_tui.api.base import NullAsEmpty, Resource
from vagent_tui.api.checks import check_email, check_http_url
from vagent_tui.api.replies import parse_model
from vagent_tui.api.requests import Request

MODELS_PATH = "/models/supported"
MODEL_SETTINGS = ("agentModel", "agentThinkingModel")
"""The settings that name a model: checked against what the platform offers."""


class SupportedModel(Resource):
    """One model the platform offers: who provides it, whether it can reason."""

    id: NullAsEmpty = ""
    provider: str | None = None
    can_reason: bool | None = None


MODEL_WRAPPERS = ("models", "data")
"""The keys a models reply may wrap its map in (``{"success": true, "models": {...}}``)."""


def _wraps_models(value: Any) -> bool:
    """Whether ``value`` is a wrapper's content: a map of models (objects) or a list."""
    if isinstance(value, list):
        return True
    return isinstance(value, Mapping) and all(isinstance(v, Mapping) for v in value.values())


@dataclass(frozen=True)
class ModelCatalog:
    """Every model the platform offers, by id."""

    models: Mapping[str, SupportedModel]

    @classmethod
    def of_reply(cls, payload: Mapping[str, Any]) -> ModelCatalog:
        """The models of a reply: the map at its top, or under a single ``models`` or
        ``data`` wrapper (an object of models; a list of records with an ``id``)."""
        inner = [payload[k] for k in MODEL_WRAPPERS if _wraps_models(payload.get(k))]
        found: Any = inner[0] if len(inner) == 1 else payload
        if isinstance(found, list):
            found = {
                str(item["id"]): item
                for item in found
                if isinstance(item, Mapping) and isinstance(item.get("id"), str) and item["id"]
            }
        models = {
            str(key): parse_model(SupportedModel, {**value, "id": str(key)}, url=MODELS_PATH)
            for key, value in found.items()
            if isinstance(value, Mapping)
        }
        return cls(models)

    @property
    def read(self) -> bool:
        """Whether the platform listed any model: an empty list checks nothing (every
        model would be refused), so it is taken as not read."""
        return bool(self.models)

    def refusal(self, model_id: str) -> str | None:
        """Why ``model_id`` cannot be set (None: the platform offers it)."""
        if model_id in self.models:
            return None
        return f"{model_id} is not a model the platform offers (GET /models/supported)"

    def describe(self, model_id: str) -> str:
        """``openai · reasons`` for a model offered; what is known otherwise."""
        model = self.models.get(model_id)
        if model is None:
            return "not offered by the platform"
        reasons = {True: "can reason", False: "cannot reason", None: "reasoning not said"}
        return f"{model.provider or 'provider not said'} · {reasons[model.can_reason]}"


class AgentLink(Resource):
    """The agent's public link: its slug (``GET``/``POST /agentUrl``)."""

    slug: str | None = None


class SlugCheck(Resource):
    """Whether a slug is free (``GET /checkAgentUrl``), as the platform spells it."""

    available: bool | None = None
    slug: str | None = None


def slug_of(text: str) -> str:
    """A slug as the platform keeps it: lowercased, without spaces around it."""
    return text.strip().lower()


class AgentLinkRequest(Request):
    """A new public link for the agent ``target_username``: it replaces the old one."""

    target_username: str = Field(min_length=1)
    slug: str = Field(min_length=1)

    @field_validator("slug")
    @classmethod
    def _lowered(cls, value: str) -> str:
        if any(c.isspace() for c in value) or not value.isprintable():
            raise ValueError("a slug has no spaces or control characters")
        return slug_of(value)


class ReplacedVersion(Resource):
    """``POST /agent/{agentId}/versions/{versionId}``'s reply: the version replaced."""

    version_id: int | None = None


OWN_DETAILS: tuple[tuple[str, str], ...] = (
    ("name", "Name"),
    ("first_name", "First name"),
    ("last_name", "Last name"),
    ("email", "Email"),
    ("business_name", "Business name"),
    ("business_address", "Business address"),
    ("description", "Description"),
    ("image", "Image URL"),
)
"""The details of ``POST /account`` the console edits, with their labels (the level names,
``partnerName`` and the like, are the account tree's: its edit forms name them)."""


class OwnDetails(Request):
    """``POST /account``: the key owner's own details; only the fields set are sent."""

    name: str | None = None
    first_name: str | None = None
    last_name: str | None = None
    email: str | None = None
    business_name: str | None = None
    business_address: str | None = None
    description: str | None = None
    image: str | None = None

    @field_validator("email")
    @classmethod
    def _email(cls, value: str | None) -> str | None:
        return check_email(value) if value else value

    @field_validator("image")
    @classmethod
    def _image(cls, value: str | None) -> str | None:
        return check_http_url(value) if value else value

    def wire(self) -> dict[str, Any]:
        return {k: v for k, v in super().wire().items() if v is not None}


class InboundMessage(Request):
    """``POST /agent/receiveMessage``: a message to the agent as a contact would send it.

    The agent's answer is POSTed to ``outbound_message_webhook_url``, or to the
    organization's default when it is not sent (the vendor: "must pass
    outboundMessageWebhookUrl or configure on the organization")."""

    target_agent: str = Field(min_length=1)
    source_address: str = Field(min_length=1)
    message: str = Field(min_length=1)
    outbound_message_webhook_url: str | None = None

    @field_validator("outbound_message_webhook_url")
    @classmethod
    def _hook(cls, value: str | None) -> str | None:
        return check_http_url(value) if value else None

    def wire(self) -> dict[str, Any]:
        return {k: v for k, v in super().wire().items() if v is not None}


class QueuedMessage(Resource):
    """``POST /agent/receiveMessage``'s reply: the message queued, by its uuid."""

    message_uuid: str | None = None
