"""Errors of the platform client, and redaction of the token.

The token travels in the query string, so every URL is a secret carrier: httpx embeds
the URL in its exception texts. Nothing here ever keeps the original httpx exception as
``__cause__`` or ``__context__`` text: each error is built from redacted parts only.
"""

from __future__ import annotations

import base64
import json
import logging
import re
from functools import lru_cache
from typing import Self
from urllib.parse import parse_qsl, quote, quote_plus, urlencode, urlsplit, urlunsplit

REDACTED = "***"
_SECRET_PARAMS = frozenset({"token", "password", "apikey", "api_key", "access_token"})
# Patterns kept as text: `re` compiles one on first use (and caches it), not at every start.
_TOKEN_IN_TEXT = r"(?i)\b(token|password|api_?key|access_token)=([^&\s'\"#]+)"


_USERINFO = r"(?i)\b([a-z][a-z0-9+.-]*://)[^/?#\s@'\"]+@"
"""``scheme://user:password@`` (or ``user@``) in free text: the whole userinfo is masked."""


def strip_userinfo(netloc: str) -> str:
    """``user:pass@host:port`` -> ``host:port``: what may be shown of a URL's authority."""
    return netloc.rpartition("@")[2]


def redact_url(url: object) -> str:
    """The URL with its userinfo and the value of every secret query parameter masked."""
    text = str(url)
    try:
        parts = urlsplit(text)
    except ValueError:
        return redact_text(text)
    netloc = parts.netloc
    if "@" in netloc:
        netloc = f"{REDACTED}@{strip_userinfo(netloc)}"
    if not parts.query and netloc == parts.netloc:
        return text
    pairs = [
        (key, REDACTED if key.lower() in _SECRET_PARAMS else value)
        for key, value in parse_qsl(parts.query, keep_blank_values=True)
    ]
    query = urlencode(pairs, safe="*") if parts.query else ""
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


_PERCENT = "%[0-9A-F]{2}"


@lru_cache(maxsize=32)
def encodings(secret: str) -> frozenset[str]:
    """The ways a server may echo ``secret`` back: as is, URL-encoded, JSON-escaped, base64."""
    forms = {secret, quote(secret, safe=""), quote_plus(secret), quote(secret)}
    forms |= {re.sub(_PERCENT, lambda m: m.group(0).lower(), f) for f in forms}
    forms.add(json.dumps(secret)[1:-1])
    forms.add(json.dumps(secret, ensure_ascii=False)[1:-1].replace("/", "\\/"))
    raw = secret.encode("utf-8")
    for encoded in (base64.b64encode(raw), base64.urlsafe_b64encode(raw)):
        text = encoded.decode("ascii")
        forms |= {text, text.rstrip("=")}
    return frozenset(f for f in forms if len(f) >= 4)


def redact_text(text: str, *secrets: str | None) -> str:
    """Text with ``token=...`` pairs, URL passwords and the given secrets masked.

    Each secret is masked in every form of `encodings`, longest first, so an echo of the
    token URL-encoded or JSON-escaped by a server does not slip through.
    """
    out = text
    # Each pattern needs a character most texts lack: looked for first (a scan of the
    # text in C), the pattern only then (a calls export redacts every entry's line, and
    # the two searches were a third of its time).
    if "=" in out:
        out = re.sub(_TOKEN_IN_TEXT, lambda m: f"{m.group(1)}={REDACTED}", out)
    if "@" in out and "://" in out:
        out = re.sub(_USERINFO, lambda m: f"{m.group(1)}{REDACTED}@", out)
    for secret in secrets:
        if secret and len(secret) >= 4:
            for form in _longest_first(secret):
                out = out.replace(form, REDACTED)
    return out


@lru_cache(maxsize=32)
def _longest_first(secret: str) -> tuple[str, ...]:
    return tuple(sorted(encodings(secret), key=len, reverse=True))


class PlatformError(Exception):
    """Base of every error the client raises. Its text never holds the token."""

    kind = "error"
    reads = False
    """Set on the error of a request that only reads whatever its method (a batch read):
    its outcome is never unknown."""
    writes = False
    """Set on the error of a GET that changes the platform (a one-time login token):
    its outcome may be unknown, like a change's."""

    def __init__(self, message: str, *, method: str = "", url: str = "") -> None:
        self.message = message
        self.method = method
        self.url = redact_url(url) if url else ""
        super().__init__(message)

    def reworded(self, message: str) -> Self:
        """This error (its kind, status, request) with ``message`` instead: a caller
        says what it was doing. Nothing of the original rides along as context."""
        clone = type(self).__new__(type(self))
        clone.__dict__.update(self.__dict__)
        clone.message = message
        clone.args = (message,)
        return clone

    def describe(self) -> str:
        """One line for a person: what failed and where."""
        call = " ".join(p for p in (self.method, urlsplit(self.url).path) if p)
        where = f" ({call})" if self.url else ""
        return f"{self.message}{where}"

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.message!r}, url={self.url!r})"


class ReadOnlyRefused(PlatformError):
    """A change refused before sending: the client is read-only (a prod profile)."""

    kind = "read-only"


class ApiError(PlatformError):
    """The server answered with an error envelope or a non-2xx status."""

    kind = "api"

    def __init__(
        self,
        status: int,
        message: str,
        *,
        method: str = "",
        url: str = "",
        body: object = None,
    ) -> None:
        self.status = status
        self.body = body
        super().__init__(message or f"HTTP {status}", method=method, url=url)

    def __repr__(self) -> str:
        return f"ApiError(status={self.status}, message={self.message!r}, url={self.url!r})"


class TransportError(PlatformError):
    """The request did not get a reply: connection refused, reset, DNS failure..."""

    kind = "network"


class RequestTimeout(TransportError):
    """The server did not answer in time."""

    kind = "timeout"


class MalformedResponse(PlatformError):
    """The server answered, but not with the JSON the API promises."""

    kind = "malformed"

    def __init__(self, message: str, *, status: int = 0, method: str = "", url: str = "") -> None:
        self.status = status
        super().__init__(message, method=method, url=url)


class ReplyTooLarge(MalformedResponse):
    """The reply's body passed the size limit: refused before it was read whole.

    A subclass of `MalformedResponse`: after a write, the change may have been made.
    """

    kind = "too-large"


class _RedactingFilter(logging.Filter):
    """httpx logs every request URL at INFO level, the sender at DEBUG: the token must not
    reach a log."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a broken log call is not ours to fix; drop its args
            message = str(record.msg)
        record.msg = redact_text(message)
        record.args = ()
        return True


# Filters do not apply to records propagated from child loggers: name every logger
# of httpx and httpcore that may write a URL.
for _name in (
    "vagent_tui.api",
    "httpx",
    "httpcore",
    "httpcore.connection",
    "httpcore.http11",
    "httpcore.http2",
    "httpcore.proxy",
):
    logging.getLogger(_name).addFilter(_RedactingFilter())


GATEWAY_STATUSES = frozenset({502, 503, 504})
"""A proxy's answer, not the platform's: the request may have reached it anyway."""


def outcome_unknown(error: BaseException | str) -> bool:
    """A change that got no reply, one that could not be read, or a gateway's error
    instead of the platform's: it may have been made, so it is read back, never resent."""
    if not isinstance(error, PlatformError) or error.reads:
        return False
    if error.method in ("", "GET") and not error.writes:
        return False
    if isinstance(error, ApiError):
        return error.status in GATEWAY_STATUSES
    return isinstance(error, TransportError | MalformedResponse)


def retry_status(status: int) -> bool:
    """A status worth asking a read again for: the platform (or a gateway) failed or is
    busy (5xx, 429), not the request (4xx)."""
    return status >= 500 or status == 429


def transient(error: BaseException) -> bool:
    """A failed read that may well succeed when asked again.

    Yes: no reply (refused, reset, dropped mid-body, timed out: `TransportError`), a
    5xx or 429, a reply that could not be read (not JSON, cut short, JSON its model
    refuses: `MalformedResponse`), all of which a flaky link or a busy platform makes.
    No: a 4xx or an error envelope (the platform said no), a reply past the size limit
    (asking again would read as much again), anything not from the client. Only reads
    are asked again: whether a change may be resent is `outcome_unknown`'s question
    (never: it is read back).
    """
    if isinstance(error, TransportError):
        return True
    if isinstance(error, ReplyTooLarge):
        return False
    if isinstance(error, MalformedResponse):
        return True
    if isinstance(error, ApiError):
        return retry_status(error.status)
    return False
