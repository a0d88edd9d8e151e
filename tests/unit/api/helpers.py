"""Shared pieces of the API unit tests: a recording MockTransport handler and parsers."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Iterable
from email.parser import BytesParser
from email.policy import HTTP
from typing import Any

import httpx

from vagent_tui.api.client import PlatformClient

TOKEN = "SENTINEL-TOKEN-9f8e7d6c5b4a"
BASE = "http://platform.test"

Reply = httpx.Response | BaseException | Callable[[httpx.Request], httpx.Response]

ClientCall = Callable[[PlatformClient], Awaitable[Any]]
"""A call of the client, as the parametrized tests give it."""


def ok(payload: Any = None, status: int = 200, **kwargs: Any) -> httpx.Response:
    return httpx.Response(status, json={"success": True} if payload is None else payload, **kwargs)


class Recorder:
    """A MockTransport handler that records each request and plays replies in order.

    The last reply is repeated once the list runs out. A reply may be a response, an
    exception to raise, or a callable building a response from the request.
    """

    def __init__(self, *replies: Reply) -> None:
        self.replies: list[Reply] = list(replies) or [ok()]
        self.requests: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        request.read()
        self.requests.append(request)
        reply = self.replies[min(len(self.requests), len(self.replies)) - 1]
        if isinstance(reply, BaseException):
            raise reply
        if callable(reply) and not isinstance(reply, httpx.Response):
            return reply(request)
        return reply

    @property
    def calls(self) -> int:
        return len(self.requests)

    @property
    def last(self) -> httpx.Request:
        assert self.requests, "no request was sent"
        return self.requests[-1]

    def transport(self) -> httpx.MockTransport:
        return httpx.MockTransport(self)


def query(request: httpx.Request) -> dict[str, list[str]]:
    """Every query parameter with all its values."""
    params = request.url.params
    return {key: params.get_list(key) for key in params}


def json_body(request: httpx.Request) -> Any:
    return json.loads(request.content) if request.content else None


def multipart_fields(request: httpx.Request) -> dict[str, tuple[str | None, bytes]]:
    """Parse a multipart/form-data body: name -> (filename, content)."""
    content_type = request.headers["content-type"]
    assert content_type.startswith("multipart/form-data"), content_type
    raw = b"Content-Type: " + content_type.encode() + b"\r\n\r\n" + request.content
    message = BytesParser(policy=HTTP).parsebytes(raw)
    assert message.is_multipart()
    fields: dict[str, tuple[str | None, bytes]] = {}
    for part in message.iter_parts():
        name = part.get_param("name", header="content-disposition")
        payload = part.get_payload(decode=True)
        fields[str(name)] = (part.get_filename(), payload if isinstance(payload, bytes) else b"")
    return fields


def error_chain(exc: BaseException) -> Iterable[BaseException]:
    """The exception and every cause or context behind it."""
    seen: set[int] = set()
    stack = [exc]
    while stack:
        current = stack.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        yield current
        stack.extend(e for e in (current.__cause__, current.__context__) if e is not None)
