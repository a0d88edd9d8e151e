"""aiohttp's pool sends a write once, even when its kept-alive connection breaks."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from vagent_tui.api.outgoing import Outgoing
from vagent_tui.api.pool import AiohttpPool


@pytest.mark.parametrize("method", ["DELETE", "PUT"])
async def test_a_write_whose_connection_breaks_is_not_sent_again(method: str) -> None:
    """aiohttp sends a PUT or a DELETE again by itself when the connection it reused
    breaks before the reply; here the server hears it once and the caller gets the
    fault (an unknown outcome, read back by the write path). Fails when aiohttp renames
    or stops reading the switch `never_resend` turns off."""
    from aiohttp import web
    from aiohttp.test_utils import TestServer

    heard: list[str] = []

    async def reply(request: web.Request) -> web.Response:
        heard.append(request.method)
        if request.method != "GET":
            assert request.transport is not None
            request.transport.close()  # the change made, the reply lost
            await asyncio.sleep(0.05)
        return web.json_response({"success": True})

    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", reply)
    async with TestServer(app, host="127.0.0.1") as server:
        pool = AiohttpPool(max_connections=1, keepalive_expiry=30.0, timeout=httpx.Timeout(5))
        try:
            first = await pool.open(Outgoing("GET", str(server.make_url("/a"))))
            await first.aread()
            await first.aclose()  # the connection goes back to the pool, kept alive
            with pytest.raises(Exception):  # noqa: B017 (aiohttp's fault, whichever)
                response = await pool.open(Outgoing(method, str(server.make_url("/a"))))
                await response.aread()
        finally:
            await pool.aclose()
    assert heard == ["GET", method]
