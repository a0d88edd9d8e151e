"""A request's secrets kept out of what its reply says: one rule for every write.

A platform may echo back what it was sent ("invalid authToken 'abc...'"), in an error's
message or a success's. The secrets of a request are the string values of its JSON body
that its journal body masks (`REDACTED`) at the same place, at any depth (a SIP
password, a provider's credentials, a billing system's keys, an integration's secrets,
a relay's header values). `ApiTransport._attempts` masks them (`redact_text`, in every
encoding it knows) in the error it raises and the message it returns and tells its
observers (the journal, the status line), before anything else sees them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from vagent_tui.api.errors import REDACTED, ApiError, PlatformError, redact_text


def secrets_of(body: Any, journal: Any) -> tuple[str, ...]:
    """The string values of ``body`` that ``journal`` (its journaled copy) has as
    `REDACTED`: every string under a value masked whole (a dict or list of secrets)."""
    if journal is None or journal is body:
        return ()  # nothing masked (every read): no walk to set up
    found: dict[str, None] = {}  # ordered, each once

    def strings(value: Any) -> None:
        if isinstance(value, str):
            if value and value != REDACTED:
                found[value] = None
        elif isinstance(value, Mapping):
            for item in value.values():
                strings(item)
        elif isinstance(value, list | tuple):
            for item in value:
                strings(item)

    def walk(sent: Any, kept: Any) -> None:
        if isinstance(kept, str) and kept == REDACTED:
            strings(sent)
        elif isinstance(sent, Mapping) and isinstance(kept, Mapping):
            for key, value in sent.items():
                if key in kept:
                    walk(value, kept[key])
        elif isinstance(sent, list | tuple) and isinstance(kept, list | tuple):
            for value, masked in zip(sent, kept, strict=False):
                walk(value, masked)

    walk(body, journal)
    return tuple(found)


class Echoes(NamedTuple):
    """The secrets of one request, to mask wherever its reply may echo them."""

    secrets: tuple[str, ...] = ()

    @classmethod
    def of(cls, body: Any, journal: Any) -> Echoes:
        return cls(secrets_of(body, journal))

    def reply(self, result: object, message: str | None) -> str | None:
        """The reply's ``message`` masked; so is the ``message`` of ``result`` when that is
        the reply's JSON object (`ApiTransport.request`'s), in place: what the caller
        gets back says no secret either."""
        if not self.secrets or message is None:
            return message
        said = redact_text(message, *self.secrets)
        if isinstance(result, dict) and result.get("message") == message:
            result["message"] = said
        return said

    def error(self, exc: PlatformError) -> PlatformError:
        """``exc`` with the secrets masked wherever its text may hold them; an
        `ApiError`'s body (the reply as it came) dropped when it holds one."""
        if not self.secrets:
            return exc
        message = redact_text(exc.message, *self.secrets)
        body = repr(getattr(exc, "body", None))
        if message == exc.message and redact_text(body, *self.secrets) == body:
            return exc
        clone = exc.reworded(message)
        if isinstance(clone, ApiError):
            clone.body = None
        return clone
