"""Numbering providers of an organization (``GET /numberingProviders``, ``POST`` and
``PUT /numberingProvider``; CONTRACT choices 95-99).

A provider read keeps no credential: its ``config`` is read as the names of the keys
that are set, the values dropped as the reply is read (`NumberingProvider.config_set`),
so nothing the platform echoes can be shown, logged or copied. A request holds the
credentials typed (``repr=False``) and says for the journal only which were set
(`ProviderRequest.journal`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from pydantic import ConfigDict, Field, field_validator

from vagent_tui.api.base import Items, NullAsEmpty, Resource
from vagent_tui.api.errors import REDACTED
from vagent_tui.api.log_models import LaxBool
from vagent_tui.api.requests import Request

SET = REDACTED
"""What the journal holds for each credential sent: the journal's own mask, so its
"copy as curl" says which values to fill in, and the transport masks an echo of them."""
_KEY = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,63}")


def _key_names(value: Any) -> Any:
    """A ``config`` object read as the names of its keys whose value is set (never the
    values); anything else as no names."""
    if isinstance(value, Mapping):
        return sorted(str(k) for k, v in value.items() if v not in (None, ""))
    return []


def _names(value: Any) -> Any:
    """A list of names (``configFields``): its text items; anything else none."""
    if isinstance(value, list):
        return [item for item in value if isinstance(item, str) and item]
    return []


class NumberingProvider(Resource):
    """One numbering provider: supported by the platform, configured or not for the
    organization (the simulator's reply, choice 95).

    Unknown fields are dropped, unlike other records: the platform may send a
    provider's credentials under names the console does not know (choice 97).
    """

    model_config = ConfigDict(extra="ignore")

    provider_id: NullAsEmpty = ""
    name: Any = None
    is_default: LaxBool = Field(default=None, alias="default")
    enabled: LaxBool = None
    configured: LaxBool = None
    config_fields: Items[str] = Field(default_factory=list)
    """The credential keys the provider needs, as the platform names them."""
    config_set: list[str] = Field(default_factory=list, alias="config")
    """The names of the credential keys that are set; their values are never kept."""

    @field_validator("config_fields", mode="before")
    @classmethod
    def _fields(cls, value: Any) -> Any:
        return _names(value)

    @field_validator("config_set", mode="before")
    @classmethod
    def _set(cls, value: Any) -> Any:
        return _key_names(value)

    @property
    def is_configured(self) -> bool:
        """Configured for the organization: ``configured``, else any credential set."""
        if self.configured is not None:
            return self.configured
        return bool(self.config_set)


class ProviderRequest(Request):
    """A provider added (``POST``: ``config`` required) or changed (``PUT``: each field
    sent only when set). Credentials are sent exactly as typed (no trimming)."""

    model_config = ConfigDict(str_strip_whitespace=False, hide_input_in_errors=True)

    provider_id: str = Field(min_length=1, max_length=100)
    default: bool | None = None
    enabled: bool | None = None
    config: dict[str, str] | None = Field(default=None, repr=False)

    @field_validator("provider_id")
    @classmethod
    def _provider(cls, value: str) -> str:
        value = value.strip()
        if not value or not value.isprintable():
            raise ValueError("a provider id is printable text")
        return value

    @field_validator("config")
    @classmethod
    def _config(cls, value: dict[str, str] | None) -> dict[str, str] | None:
        if value is None:
            return None
        for key, secret in value.items():
            if not _KEY.fullmatch(key):
                raise ValueError(f"{key!r} is not a credential key name (letters, digits, _)")
            if not secret.strip():
                raise ValueError(f"{key} must not be blank")
            if not secret.isprintable():
                raise ValueError(f"{key} holds control characters")
        return value

    def wire(self) -> dict[str, Any]:
        """The body: ``providerId`` and each other field that is set."""
        body: dict[str, Any] = {"providerId": self.provider_id}
        for name in ("default", "enabled", "config"):
            value = getattr(self, name)
            if value is not None:
                body[name] = dict(value) if name == "config" else value
        return body

    def journal(self) -> dict[str, Any]:
        """The body as the journal keeps it: each credential as `SET`, never its value."""
        body = self.wire()
        if self.config is not None:
            body["config"] = dict.fromkeys(self.config, SET)
        return body
