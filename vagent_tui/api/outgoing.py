"""How a request is built: the one place its URL, query and body are made.

`RequestBuilder.build` turns what an endpoint asks (method, path, target, parameters,
body) into an `Outgoing`: the URL as it goes on the wire (origin, API prefix, path,
query with the token, all percent-encoded once), the body as bytes and its headers.
The sender hands that to its pool as it is, on every attempt (`vagent_tui.api.sender`,
`vagent_tui.api.pool`): nothing below builds the query again.

Token placement (spec rules 7 and 9): the credential is the ``token`` query parameter
of every request (never a header), first in the query; a target becomes the parameter
of its level (`vagent_tui.api.targets`). The URL is encoded as httpx encodes
``params=`` (``urlencode``: ``quote_plus``, ``true``/``false`` for booleans, a list
repeats its key), so an `Outgoing` is the request httpx's client would have built.
"""

from __future__ import annotations

import json as jsonlib
import re
from collections.abc import Mapping
from functools import lru_cache
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NamedTuple
from urllib.parse import quote, quote_plus

import httpx

if TYPE_CHECKING:
    # Imported when a request has a target: `vagent_tui.api.targets` imports the models
    # (pydantic), and a command's first request is built before them (`commands.early`).
    from vagent_tui.api.targets import Target

API_PREFIX = "/api/v2"
JSON_HEADERS: Mapping[str, str] = MappingProxyType({"Content-Type": "application/json"})
NO_HEADERS: Mapping[str, str] = MappingProxyType({})
_PATH_SAFE = "/:@!$&'()*+,;=-._~%"
"""What a path keeps unquoted: RFC 3986's path characters, and ``%`` (already encoded)."""
# Patterns kept as text: `re` compiles one on first use (and caches it), not at every start.
_PATH_UNSAFE = r"[^A-Za-z0-9/:@!$&'()*+,;=\-._~%]"


class Outgoing(NamedTuple):
    """One request as it is sent: built once, sent as it is on every attempt (a named
    tuple: a frozen dataclass cost a third of building the request)."""

    method: str
    url: str
    """The whole URL, encoded, its query holding the token: never shown or logged."""
    content: bytes | None = None
    headers: Mapping[str, str] = NO_HEADERS
    upload: bool = False
    """A file travels in the body: no overall deadline (a big file may take long)."""

    def __repr__(self) -> str:
        # The URL holds the key: a request shown anywhere shows its method only.
        return f"Outgoing({self.method}, ...)"


def normalise_base_url(base_url: str) -> str:
    """The platform's address without a trailing ``/`` or ``/api/v2``.

    Every path is sent with the ``/api/v2`` prefix, so a base URL copied with it (the
    spec writes ``{base_url}`` and then the prefixed paths) would double it. A path
    before the prefix (a gateway's) is kept.
    """
    base = base_url.strip().rstrip("/")
    while base.endswith(API_PREFIX):
        base = base.removesuffix(API_PREFIX).rstrip("/")
    return base


def encode_json(value: Any) -> bytes:
    """A JSON body as httpx encodes ``json=`` (compact, UTF-8, no NaN)."""
    text = jsonlib.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return text.encode("utf-8")


@lru_cache(maxsize=256)
def _quoted_name(name: str) -> str:
    """A query parameter's name as ``urlencode`` spells it (the names are few)."""
    return quote_plus(name)


def _text(value: Any) -> str:
    """A query value as httpx writes it (before quoting)."""
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return ""
    return str(value)


def _quoted_path(path: str) -> str:
    """``path`` percent-encoded as httpx sends it; unchanged when it already is."""
    if re.search(_PATH_UNSAFE, path) is None:
        return path
    return quote(path, safe=_PATH_SAFE)


def _origin(base_url: str) -> str:
    """The base URL as httpx sends it (an international host IDNA-encoded, a path
    quoted), without a trailing ``/``."""
    return str(httpx.URL(base_url)).rstrip("/")


class RequestBuilder:
    """Builds every request of one client: its origin and its token, quoted once."""

    def __init__(self, base_url: str, token: str) -> None:
        self.base_url = base_url
        self._origin = _origin(base_url)
        self._token_pair = f"token={quote_plus(token)}"

    def url_of(self, path: str, as_given: bool = False) -> str:
        """The path as observers and errors name it: under the API prefix unless
        ``as_given`` (then as it is: from the base URL's root, or an absolute URL)."""
        return path if as_given or path.startswith(API_PREFIX) else API_PREFIX + path

    def build(
        self,
        method: str,
        url: str,
        *,
        target: Target | None = None,
        params: Mapping[str, Any] | None = None,
        json: Any = None,
        data: Mapping[str, str] | None = None,
        files: Mapping[str, Any] | None = None,
    ) -> Outgoing:
        """The request ``method url`` (``url`` as `url_of` gives it), with the token,
        the target's parameter and ``params`` (``None`` values left out) in its query.

        Raises:
            ValueError: ``params`` holds ``token``, the key's own parameter.
        """
        parts = [self._token_pair]
        if target is not None:
            from vagent_tui.api.targets import target_param

            name, account_id = target_param(target)
            parts.append(f"{_quoted_name(name)}={account_id}")
        for key, value in (params or {}).items():
            if value is None:
                continue
            if key == "token":
                # The credential's parameter: a value here would stand beside the key.
                raise ValueError("'token' is the API key's query parameter: not sent as a filter")
            name = _quoted_name(key)
            kind = type(value)
            if kind is int:  # digits and "-": nothing to quote
                parts.append(f"{name}={value}")
            elif kind is str:
                parts.append(f"{name}={quote_plus(value)}")
            elif kind is bool:
                parts.append(f"{name}={'true' if value else 'false'}")
            elif isinstance(value, (list, tuple)):
                parts.extend(f"{name}={quote_plus(_text(item))}" for item in value)
            else:
                parts.append(f"{name}={quote_plus(_text(value))}")
        # A query of the path's own is kept, ours after it; an absolute URL is on the
        # platform's own origin (the caller checked it).
        where, mark, own = url.partition("?")
        origin = "" if "://" in where else self._origin
        query = f"{own}&" if mark and own else ""
        full = f"{origin}{_quoted_path(where)}?{query}{'&'.join(parts)}"
        if files or data:
            form = httpx.Request(method, full, data=data, files=files)
            headers = {k: v for k, v in form.headers.items() if k.lower() != "host"}
            return Outgoing(method, full, form.read(), headers, upload=bool(files))
        if json is None:
            return Outgoing(method, full)
        return Outgoing(method, full, encode_json(json), JSON_HEADERS)
