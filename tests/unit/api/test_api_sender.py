"""The sender's choice of pool and proxy (`vagent_tui.api.sender`)."""

from __future__ import annotations

import pytest

from vagent_tui.api.sender import PROXY_VARIABLES, environment_proxy


@pytest.mark.parametrize(
    ("variables", "base", "proxy"),
    [
        ({}, "https://p.example", None),
        ({"HTTPS_PROXY": "http://proxy:3128"}, "https://p.example", "http://proxy:3128"),
        ({"HTTPS_PROXY": "http://proxy:3128"}, "http://p.example", None),
        ({"HTTP_PROXY": "proxy:8080"}, "http://p.example:81/gw", "http://proxy:8080"),
        ({"ALL_PROXY": "http://all:1"}, "https://p.example", "http://all:1"),
        ({"HTTPS_PROXY": "http://proxy:3128", "NO_PROXY": "p.example"}, "https://p.example", None),
        ({"HTTPS_PROXY": "http://proxy:3128", "NO_PROXY": "other"}, "https://p.example",
         "http://proxy:3128"),
    ],
)  # fmt: skip
def test_the_proxy_is_the_one_the_environment_names_for_the_platform(
    monkeypatch: pytest.MonkeyPatch, variables: dict[str, str], base: str, proxy: str | None
) -> None:
    for name in (*PROXY_VARIABLES, "NO_PROXY", "no_proxy"):
        monkeypatch.delenv(name, raising=False)
    for name, value in variables.items():
        monkeypatch.setenv(name, value)
    assert environment_proxy(base) == proxy


async def test_aiohttps_pool_asks_for_what_httpx_decodes_and_a_compressed_reply_is_read() -> None:
    import gzip

    from aiohttp import web
    from aiohttp.test_utils import TestServer

    from vagent_tui.api.client import PlatformClient
    from vagent_tui.api.pool import AiohttpPool

    asked: list[str] = []

    async def reply(request: web.Request) -> web.Response:
        asked.append(request.headers.get("Accept-Encoding", ""))
        body = gzip.compress(b'{"success": true, "id": 7, "accountType": "partner"}')
        return web.Response(body=body, headers={"Content-Encoding": "gzip"},
                            content_type="application/json")  # fmt: skip

    app = web.Application()
    app.router.add_get("/api/v2/account", reply)
    async with TestServer(app, host="127.0.0.1") as server:
        client = PlatformClient(str(server.make_url("/")), "k")
        try:
            assert isinstance(client.sender.pool, AiohttpPool)
            assert (await client.get_account()).id == 7
        finally:
            await client.aclose()
    assert asked == ["gzip, deflate"]
