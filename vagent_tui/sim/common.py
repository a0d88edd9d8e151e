"""Shared plumbing of the simulator: the error type, strict input parsing, paging.

Every handler raises :class:`SimError` for an expected failure; the endpoint wrapper in
``app.py`` turns it into the platform's envelope ``{"success": false, "message": ...}``.

Parsing is strict on purpose (the client must not get used to a forgiving server):

* query booleans are ``true``/``false`` (any case) or ``1``/``0``; anything else is 400;
* query integers are base-10 digits with an optional minus sign; anything else is 400;
* JSON bodies must be a JSON object; malformed JSON, another JSON type, a missing
  required field or a value of the wrong type (``true`` is not an integer) is 400.

Paging (``pagination``, ``page``, ``pageSize``) follows api-facts: ``page`` is 0-based,
``pageSize`` defaults to :data:`DEFAULT_PAGE_SIZE` and may not exceed
:data:`MAX_PAGE_SIZE`; ``page`` must be >= 0 and ``pageSize`` >= 1.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any, NamedTuple

DEFAULT_PAGE_SIZE = 20
MAX_PAGE_SIZE = 500

UNAUTHORIZED = "Unauthorized Request"
OUTSIDE = "Target account is outside your hierarchy"
NOT_PERMITTED = "Target account is not one of this key's permitted accounts (permittedAccountIds)"
RESTRICTED = (
    "This key is restricted to its permitted accounts (permittedAccountIds): send targetAccountId"
)
NEED_AGENT = "targetAccountId must select an agent account"


class SimError(Exception):
    """An expected failure: becomes ``{"success": false, "message": message}``."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def bad(message: str) -> SimError:
    """A 400 error."""
    return SimError(400, message)


def iso(ts: float) -> str:
    """Epoch seconds as ISO 8601 UTC with a ``Z`` suffix (millisecond precision)."""
    dt = datetime.fromtimestamp(ts, UTC)
    return dt.strftime("%Y-%m-%dT%H:%M:%S.") + f"{dt.microsecond // 1000:03d}Z"


def parse_bool(name: str, raw: str | None, default: bool | None = None) -> bool | None:
    """Parse a query boolean strictly; ``None`` when absent and no default."""
    if raw is None:
        return default
    low = raw.strip().lower()
    if low in ("true", "1"):
        return True
    if low in ("false", "0"):
        return False
    raise bad(f"{name} must be a boolean (true or false)")


def parse_int(name: str, raw: str | None) -> int | None:
    """Parse a query integer strictly; ``None`` when absent."""
    if raw is None:
        return None
    text = raw.strip()
    digits = text[1:] if text.startswith("-") else text
    if not digits.isdecimal() or not digits.isascii() or len(digits) > 18:
        raise bad(f"{name} must be an integer")
    return int(text)


class Paging(NamedTuple):
    """Validated paging parameters."""

    enabled: bool
    page: int
    page_size: int

    def window(self, total: int) -> tuple[int, int]:
        """Return ``(start, stop)`` indices of this page inside ``total`` items."""
        if not self.enabled:
            return 0, total
        start = min(self.page * self.page_size, total)
        return start, min(start + self.page_size, total)


def parse_paging(query: Mapping[str, str]) -> Paging:
    """Validate ``pagination``, ``page`` and ``pageSize``."""
    enabled = parse_bool("pagination", query.get("pagination"), False)
    page = parse_int("page", query.get("page"))
    size = parse_int("pageSize", query.get("pageSize"))
    if page is None:
        page = 0
    if size is None:
        size = DEFAULT_PAGE_SIZE
    if page < 0:
        raise bad("page must be an integer >= 0")
    if size < 1 or size > MAX_PAGE_SIZE:
        raise bad(f"pageSize must be an integer between 1 and {MAX_PAGE_SIZE}")
    return Paging(bool(enabled), page, size)


def page_reply(key: str, total_key: str, items: list[Any], paging: Paging) -> dict[str, Any]:
    """Slice ``items`` by ``paging`` into the platform's list wrapper."""
    start, stop = paging.window(len(items))
    size = paging.page_size if paging.enabled else len(items)
    return {
        "success": True,
        total_key: len(items),
        "pageSize": size,
        "pageNumber": paging.page if paging.enabled else 0,
        key: items[start:stop],
    }


def decode_json_object(raw: bytes, *, required: bool = True) -> dict[str, Any]:
    """Decode a request body that must be a JSON object."""
    if not raw.strip():
        if required:
            raise bad("Request body must be a JSON object")
        return {}
    try:
        value = json.loads(raw)
    except (ValueError, RecursionError):
        raise bad("Malformed JSON body") from None
    if not isinstance(value, dict):
        raise bad("Request body must be a JSON object")
    return value


_MISSING = object()


def req_str(body: Mapping[str, Any], key: str, *, allow_empty: bool = False) -> str:
    """A required string field (stripped)."""
    value = body.get(key, _MISSING)
    if value is _MISSING or value is None:
        raise bad(f"{key} is required")
    if not isinstance(value, str):
        raise bad(f"{key} must be a string")
    if not allow_empty and not value.strip():
        raise bad(f"{key} must not be empty")
    return value.strip()


def opt_str(body: Mapping[str, Any], key: str, default: str | None = None) -> str | None:
    """An optional string field; ``null`` counts as absent."""
    value = body.get(key)
    if value is None:
        return default
    if not isinstance(value, str):
        raise bad(f"{key} must be a string")
    return value.strip()


def req_int(body: Mapping[str, Any], key: str) -> int:
    """A required integer field (booleans and floats are refused)."""
    value = body.get(key, _MISSING)
    if value is _MISSING or value is None:
        raise bad(f"{key} is required")
    if isinstance(value, bool) or not isinstance(value, int):
        raise bad(f"{key} must be an integer")
    return value


def opt_bool(body: Mapping[str, Any], key: str, default: bool) -> bool:
    """An optional boolean field; ``null`` counts as absent."""
    value = body.get(key)
    if value is None:
        return default
    if not isinstance(value, bool):
        raise bad(f"{key} must be a boolean")
    return value


def opt_str_list(body: Mapping[str, Any], key: str) -> list[str] | None:
    """An optional array of strings; ``null`` counts as absent."""
    value = body.get(key)
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise bad(f"{key} must be an array of strings")
    return [v.strip() for v in value]


REDACTED_FIELDS = frozenset({"token", "password", "apiKey", "webhookSigningKey", "webhookPassword"})


_SECRET_ENDINGS = ("key", "keys", "secret", "secrets", "token", "tokens", "password",
                   "passwords", "passwd", "pwd", "credential", "credentials")  # fmt: skip


def json_copy(value: Any) -> Any:
    """A copy of a JSON-shaped ``value``: its dicts and lists new at any depth, the rest
    (texts, numbers, booleans, None: immutable) shared. `copy.deepcopy`'s memo and
    dispatch cost the demo's seed 2 ms at start-up for the same result."""
    if isinstance(value, dict):
        return {k: json_copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [json_copy(v) for v in value]
    return value


def _secret(name: str) -> bool:
    return name in REDACTED_FIELDS or name.lower().endswith(_SECRET_ENDINGS)


def redact(mapping: Mapping[str, Any]) -> dict[str, Any]:
    """Copy ``mapping`` with secret values replaced by ``***``, at any depth: a token, a
    password, a provider's credentials (``config``), an integration's keys (``appData``)."""

    def copy(value: Any) -> Any:
        if isinstance(value, Mapping):
            return {k: ("***" if _secret(str(k)) else copy(v)) for k, v in value.items()}
        if isinstance(value, list):
            return [copy(v) for v in value]
        return value

    return {k: ("***" if _secret(k) else copy(v)) for k, v in mapping.items()}
