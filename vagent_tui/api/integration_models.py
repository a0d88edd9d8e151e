"""An integration's data (``/integration/{slug}/{version}``: ``appData``), and which of
its values are secrets: a value whose key names a key, a secret, a token or a password
is masked wherever the console shows it (`masked`) and journaled as set, not as sent.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import Field, field_validator

from vagent_tui.api.base import Resource
from vagent_tui.api.errors import REDACTED
from vagent_tui.api.requests import Request

NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$")
"""A slug or a version the console sends: one path segment, no space, no slash."""
SECRET_WORDS = ("key", "secret", "token", "password", "passwd", "pwd", "passphrase",
                "credential", "auth", "bearer", "signature", "cookie", "session")  # fmt: skip
MASK = "••••••••"
_WORDS = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")


def secret_name(name: str) -> bool:
    """Whether a key of ``appData`` names a secret: one of its words (``apiKey``,
    ``client_secret``, ``accessToken``, ``smtpPassword``, ``apiKeys``, ``authHeader``) is
    or ends with a key, secret, token, password, credential, auth and the like, plural or
    not: more masked, never less."""
    words = [w.lower() for w in _WORDS.findall(name)] or [name.lower()]
    # A plural names secrets too (apiKeys, tokens): the word without its s is asked too.
    return any(w.endswith(SECRET_WORDS) or w.rstrip("s").endswith(SECRET_WORDS) for w in words)


def masked(data: Any, *, mask: str = MASK) -> Any:
    """``data`` with every secret's value replaced by ``mask`` (an empty one kept, so
    that "not set" still reads so), at any depth."""
    if isinstance(data, dict):
        return {
            k: (mask if secret_name(str(k)) and v not in (None, "") else masked(v, mask=mask))
            for k, v in data.items()
        }
    if isinstance(data, list):
        return [masked(v, mask=mask) for v in data]
    return data


def name_problem(what: str, text: str) -> str | None:
    """Why ``text`` cannot be an integration's slug or version; None when it can."""
    if not text:
        return f"the {what} is required"
    if not NAME.match(text):
        return f"a {what} is letters, digits, '.', '_' or '-' (at most 100, no space or /)"
    return None


class IntegrationData(Resource):
    """``GET`` or ``PUT /integration/{slug}/{version}``'s reply."""

    app_id: str | None = None
    app_version: str | None = None
    app_data: dict[str, Any] = Field(default_factory=dict)
    message: Any = None
    """The platform's word on a PUT, where it says one (the file shows none)."""

    @field_validator("app_data", mode="before")
    @classmethod
    def _object(cls, value: Any) -> Any:
        return {} if value is None else value


class IntegrationUpdate(Request):
    """``PUT /integration/{slug}/{version}``: the whole ``appData`` (an object)."""

    app_data: dict[str, Any]

    def journal(self) -> dict[str, Any]:
        """The body as journaled: secrets said as set."""
        return {"appData": masked(self.app_data, mask=REDACTED)}
