"""An agent configuration with nothing secret in it: what a pulled folder holds.

A configuration may carry secrets the console never shows in a journal or an error: a
value under a key that names one (an ``apiKey``, a ``password``, a relay's ``headers``:
the journal's rule, `vagent_tui.services.journal.mask_body`, and the wider rule of an
integration's data, `vagent_tui.api.integration_models.secret_name`), a password in a
URL or a ``token=`` pair in free text (`vagent_tui.api.errors.redact_text`), the
connection's own key wherever it appears. `public_config` replaces each with `MASK`,
at any depth. What the platform computes on every read (an action's ``allowed``,
``reason``, ``missingRequirement``; ``effectiveReportingFields``) is left out, as the
configuration diffs leave it out (`vagent_tui.services.diff`): it is nobody's edit.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from vagent_tui.api.errors import REDACTED, redact_text
from vagent_tui.api.integration_models import secret_name
from vagent_tui.services.diff import COMPUTED_ENTRY_FIELDS, IGNORED_FIELDS
from vagent_tui.services.journal import SECRET_KEYS

MASK = REDACTED
"""What a secret reads as (``***``, as in the journal)."""
NOT_SECRETS = frozenset({("reportingFields", "key"), ("heartbeatConfig", "session"),
                         ("heartbeatConfig", "isolatedSession")})  # fmt: skip
"""Fields of the spec's configuration whose names read like a secret's and are not (a
reporting field's ``key`` names it): ``(the list or object holding it, its name)``."""


def secret_key(name: str) -> bool:
    """Whether a key's value is a secret: the journal's keys, ``headers``, and every name
    an integration's data masks (more masked, never less)."""
    lowered = name.lower()
    return lowered in SECRET_KEYS or lowered == "headers" or secret_name(name)


def _masked_whole(value: Any) -> Any:
    """Every text under a secret key masked; ``true``, numbers and empty values kept (a
    flag such as ``isolatedSession`` is not a secret, and "not set" still reads so)."""
    if isinstance(value, str):
        return MASK if value else value
    if isinstance(value, Mapping):
        return {str(k): _masked_whole(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_masked_whole(v) for v in value]
    return value


Redact = Callable[[str], str]


def _public(value: Any, redact: Redact | None, holder: str = "") -> Any:
    """``value`` made public; ``holder``: the name of the field that holds it."""
    if isinstance(value, str):
        text = redact_text(value)
        return text if redact is None else redact(text)
    if isinstance(value, Mapping):
        out: dict[str, Any] = {}
        for key, item in value.items():
            name = str(key)
            if holder == "actions" and name in COMPUTED_ENTRY_FIELDS:
                continue
            if secret_key(name) and (holder, name) not in NOT_SECRETS:
                out[name] = _masked_whole(item)
            else:
                out[name] = _public(item, redact, name)
        return out
    if isinstance(value, list | tuple):
        return [_public(item, redact, holder) for item in value]
    return value


def public_config(config: Mapping[str, Any], redact: Redact | None = None) -> dict[str, Any]:
    """``config`` with every secret `MASK` and what the platform computes left out;
    ``redact`` masks more in each text (the connection's key:
    `vagent_tui.api.streaming.StreamingTransport.redact`)."""
    public = _public({k: v for k, v in config.items() if k not in IGNORED_FIELDS}, redact)
    assert isinstance(public, dict)
    return public


def holds_mask(value: Any) -> bool:
    """Whether ``value`` holds `MASK` anywhere (a masked secret written back)."""
    if isinstance(value, str):
        return MASK in value
    if isinstance(value, Mapping):
        return any(holds_mask(v) for v in value.values())
    if isinstance(value, list | tuple):
        return any(holds_mask(v) for v in value)
    return False
