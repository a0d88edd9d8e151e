"""Numbering providers: what the platform supports, what each organization configured,
and the rules of a change (CONTRACT choices 95-99).

An organization's providers live in ``state.numbering[org id][providerId]`` as
``{providerId, default, enabled, config}``; the credentials are kept, and never sent
back: a listed provider's ``config`` holds each key set with ``********``.

Credential keys: the provider's ``configFields`` (Twilio's ``accountSid``, ``authToken``).
The reference's POST example spells them with the provider's name first
(``twilioAccountSid``) and its PUT example without: both are taken and stored without it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from vagent_tui.sim.common import SimError, bad

SUPPORTED: tuple[dict[str, Any], ...] = (
    {"providerId": "Twilio", "name": "Twilio", "configFields": ["accountSid", "authToken"]},
    {"providerId": "Telnyx", "name": "Telnyx", "configFields": ["apiKey", "connectionId"]},
    {"providerId": "Bandwidth", "name": "Bandwidth",
     "configFields": ["accountNumber", "username", "password"]},
)  # fmt: skip
MASK = "********"
REFUSED_ACCOUNT = "Numbering providers require a reseller or partner account"
NOT_FOUND = "Numbering provider not found"


def supported(provider_id: str) -> dict[str, Any]:
    for entry in SUPPORTED:
        if entry["providerId"] == provider_id:
            return entry
    raise bad(f"Unknown numbering provider: {provider_id}")


def listing(providers: Mapping[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """Every supported provider, saying whether (and how) the organization configured it."""
    out = []
    for entry in SUPPORTED:
        held = providers.get(entry["providerId"])
        item: dict[str, Any] = {**entry, "configured": held is not None}
        if held is not None:
            item.update(default=held["default"], enabled=held["enabled"],
                        config=dict.fromkeys(held["config"], MASK))  # fmt: skip
        out.append(item)
    return out


def _key(provider: dict[str, Any], key: str) -> str:
    """``key`` as stored: the provider's prefix dropped (``twilioAuthToken``)."""
    fields = provider["configFields"]
    if key in fields:
        return key
    prefix = provider["providerId"].lower()
    if key.lower().startswith(prefix) and len(key) > len(prefix):
        rest = key[len(prefix) :]
        plain = rest[0].lower() + rest[1:]
        if plain in fields:
            return plain
    raise bad(f"config.{key} is not a {provider['providerId']} credential "
              f"({', '.join(fields)})")  # fmt: skip


def read_config(provider: dict[str, Any], value: Any) -> dict[str, str]:
    """The ``config`` of a body, keys as stored; 400 for another shape or key."""
    if not isinstance(value, dict):
        raise bad("config must be an object of text values")
    out: dict[str, str] = {}
    for key, secret in value.items():
        if not isinstance(secret, str) or not secret.strip():
            raise bad(f"config.{key} must be non-empty text")
        out[_key(provider, key)] = secret
    return out


def flag(body: Mapping[str, Any], name: str) -> bool | None:
    value = body.get(name)
    if value is None:
        return None
    if not isinstance(value, bool):
        raise bad(f"{name} must be true or false")
    return value


def add(providers: dict[str, dict[str, Any]], body: Mapping[str, Any]) -> None:
    """``POST``: a new provider; 400 for a duplicate, an unknown one, a credential
    missing, or a default that is not enabled."""
    provider_id = body.get("providerId")
    if not isinstance(provider_id, str) or not provider_id.strip():
        raise bad("providerId is required")
    entry = supported(provider_id)
    if "config" not in body:
        raise bad("config is required")
    config = read_config(entry, body["config"])
    if provider_id in providers:
        raise bad("Numbering provider already exists")
    missing = [f for f in entry["configFields"] if f not in config]
    if missing:
        raise bad(f"config.{missing[0]} is required")
    default = bool(flag(body, "default"))
    enabled = flag(body, "enabled")
    enabled = True if enabled is None else enabled
    _check(default, enabled)
    if default:
        for held in providers.values():
            held["default"] = False
    providers[provider_id] = {"providerId": provider_id, "default": default,
                              "enabled": enabled, "config": config}  # fmt: skip


def change(providers: dict[str, dict[str, Any]], body: Mapping[str, Any]) -> None:
    """``PUT``: the fields sent replace the provider's (credentials key by key); 404 for
    a provider not configured; the default moves when another is made the default."""
    provider_id = body.get("providerId")
    if not isinstance(provider_id, str) or not provider_id.strip():
        raise bad("providerId is required")
    held = providers.get(provider_id)
    if held is None:
        raise SimError(404, NOT_FOUND)
    config = read_config(supported(provider_id), body["config"]) if "config" in body else {}
    default, enabled = flag(body, "default"), flag(body, "enabled")
    new_default = held["default"] if default is None else default
    new_enabled = held["enabled"] if enabled is None else enabled
    if held["default"] and default is False:
        raise bad("Only one numbering provider can be set as default: make another the default")
    _check(new_default, new_enabled)
    if new_default and not held["default"]:
        for other in providers.values():
            other["default"] = False
    held.update(default=new_default, enabled=new_enabled, config={**held["config"], **config})


def _check(default: bool, enabled: bool) -> None:
    if default and not enabled:
        raise bad("The default numbering provider must be enabled")


def journaled(body: Mapping[str, Any]) -> dict[str, Any]:
    """The body as the request log keeps it: credentials as ``***``."""
    config = body.get("config")
    if isinstance(config, dict):
        return {**body, "config": dict.fromkeys(config, "***")}
    return dict(body)
