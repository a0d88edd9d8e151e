"""Replies have a size cap: a body past it is refused before it is read whole."""

from __future__ import annotations

import asyncio
import gzip
from collections.abc import AsyncIterator

import httpx
import pytest

from tests.unit.api.helpers import BASE, TOKEN
from vagent_tui.api.big_replies import AT_ONCE, BIG
from vagent_tui.api.client import PlatformClient
from vagent_tui.api.errors import MalformedResponse, ReplyTooLarge
from vagent_tui.api.sender import MIB, default_max_reply_bytes


class Endless(httpx.AsyncByteStream):
    """A chunked body with no length that goes on for ``total`` bytes; counts what was read."""

    def __init__(self, total: int, chunk: int = 64 * 1024) -> None:
        self.total, self.chunk, self.sent = total, chunk, 0

    async def __aiter__(self) -> AsyncIterator[bytes]:
        yield b'{"success": true, "name": "'
        while self.sent < self.total:
            self.sent += self.chunk
            yield b"x" * self.chunk
        yield b'"}'


def client_with(handler: httpx.MockTransport, **kwargs: object) -> PlatformClient:
    return PlatformClient(BASE, TOKEN, transport=handler, **kwargs)  # type: ignore[arg-type]


async def test_a_reply_without_a_length_is_cut_at_the_limit() -> None:
    stream = Endless(total=50 * MIB)
    calls = []

    def handler(request: httpx.Request) -> httpx.Response:
        calls.append(request)
        return httpx.Response(200, stream=stream)

    client = client_with(httpx.MockTransport(handler), max_reply_bytes=MIB)
    with pytest.raises(ReplyTooLarge) as caught:
        await client.get_account()
    assert "more than 1 MiB" in caught.value.message
    assert TOKEN not in str(caught.value)
    assert stream.sent <= 2 * MIB, "the body was read past the limit"
    assert len(calls) == 1, "a reply that is too large is not asked for again"


async def test_a_declared_length_past_the_limit_is_refused_unread() -> None:
    stream = Endless(total=4 * MIB)

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, headers={"content-length": str(5 * MIB)}, stream=stream)

    client = client_with(httpx.MockTransport(handler), max_reply_bytes=MIB)
    with pytest.raises(ReplyTooLarge):
        await client.get_account()
    assert stream.sent == 0


async def test_a_compressed_bomb_is_counted_as_it_unpacks() -> None:
    body = gzip.compress(b'{"success": true, "name": "' + b"x" * (20 * MIB) + b'"}')
    assert len(body) < MIB

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, headers={"content-encoding": "gzip"}, content=body)

    client = client_with(httpx.MockTransport(handler), max_reply_bytes=2 * MIB)
    with pytest.raises(ReplyTooLarge):
        await client.get_account()


async def test_replies_under_the_limit_read_as_before() -> None:
    body = gzip.compress(b'{"success": true, "id": 7, "accountType": "partner"}')

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, headers={"content-encoding": "gzip"}, content=body)

    account = await client_with(httpx.MockTransport(handler)).get_account()
    assert account.id == 7


def test_a_too_large_reply_to_a_write_may_have_been_applied() -> None:
    assert issubclass(ReplyTooLarge, MalformedResponse)


def test_the_limit_is_16_mib_or_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("VAGENT_MAX_REPLY_MB", raising=False)
    assert default_max_reply_bytes() == 16 * MIB
    monkeypatch.setenv("VAGENT_MAX_REPLY_MB", "64")
    assert default_max_reply_bytes() == 64 * MIB
    client = client_with(httpx.MockTransport(lambda r: httpx.Response(200)))
    assert client.sender.max_reply_bytes == 64 * MIB
    for bad in ("-1", "lots", "0"):
        monkeypatch.setenv("VAGENT_MAX_REPLY_MB", bad)
        assert default_max_reply_bytes() == 16 * MIB


class Watched(httpx.AsyncByteStream):
    """A body of ``size`` bytes sent in chunks, giving way between them; counts the
    bodies read past ``past`` bytes at the same time (``reading``, its highest in
    ``most``): past `BIG`, a reader that asks for a chunk after the one that took it
    past had a place."""

    reading = 0
    most = 0

    def __init__(self, size: int, chunk: int = 256 * 1024, past: int = BIG) -> None:
        self.size, self.chunk, self.past = size, chunk, past

    async def __aiter__(self) -> AsyncIterator[bytes]:
        cls = type(self)
        counted = False
        try:
            yield b'{"success": true, "name": "'
            for sent in range(0, self.size, self.chunk):
                if sent > self.past and not counted:
                    counted = True
                    cls.reading += 1
                    cls.most = max(cls.most, cls.reading)
                await asyncio.sleep(0)  # other replies may be read meanwhile
                yield b"x" * self.chunk
            yield b'"}'
        finally:
            cls.reading -= counted


@pytest.mark.parametrize("declared", [True, False], ids=["length-declared", "chunked"])
async def test_big_replies_are_read_two_at_a_time(declared: bool) -> None:
    size = 2 * MIB  # past BIG: a big reply
    Watched.reading = Watched.most = 0

    def handler(request: httpx.Request) -> httpx.Response:
        length = {"content-length": str(size + 29)} if declared else {}
        return httpx.Response(200, headers=length, stream=Watched(size))

    client = client_with(httpx.MockTransport(handler))
    accounts = await asyncio.gather(*(client.get_current_plan() for _ in range(8)))
    assert len(accounts) == 8
    assert Watched.most == AT_ONCE, "the big replies were read all at once"


async def test_small_replies_never_wait() -> None:
    Watched.reading = Watched.most = 0

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, stream=Watched(BIG // 2, chunk=BIG // 8, past=-1))

    client = client_with(httpx.MockTransport(handler))
    await asyncio.gather(*(client.get_current_plan() for _ in range(8)))
    assert Watched.most == 8


async def test_a_big_reply_on_aiohttps_pool_waits_for_a_place() -> None:
    """The requests on aiohttp's pool (`api.pool`, the default) wait too; a small reply
    does not."""
    from aiohttp import web
    from aiohttp.test_utils import TestServer

    from vagent_tui.api.pool import AiohttpPool

    big = b'{"success": true, "name": "' + b"x" * (2 * MIB) + b'"}'

    async def reply(request: web.Request) -> web.Response:
        small = request.path.endswith("offeredPlan")
        return web.Response(body=b'{"success": true}' if small else big,
                            content_type="application/json")  # fmt: skip

    app = web.Application()
    app.router.add_get("/api/v2/product/{name}", reply)
    async with TestServer(app, host="127.0.0.1") as server:
        client = PlatformClient(str(server.make_url("/")), TOKEN)
        try:
            assert isinstance(client.sender.pool, AiohttpPool), "the default is aiohttp's"
            places = client.sender.big_replies.places()
            for _ in range(client.sender.big_replies.at_once):
                await places.acquire()  # every place taken
            waiting = asyncio.ensure_future(client.get_current_plan())
            assert (await client.get_offered_plan()).body() == {}
            await asyncio.sleep(0.2)
            assert not waiting.done(), "a big reply was read without a place"
            places.release()
            assert len((await waiting).body()["name"]) < 3_000
        finally:
            await client.aclose()
