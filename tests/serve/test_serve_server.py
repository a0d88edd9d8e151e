"""``vagent-tui serve`` over HTTP, without a browser: who may connect, the page, the token.

A real server in a subprocess; aiohttp's client plays the browser (sending the Origin
header a page would) and the foreign pages (another port, another site, no Origin).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("textual_serve", reason="the 'serve' extra (textual-serve) is not installed")

import aiohttp
import httpx

from tests.serve.helpers import SECRET, WAIT, Forwarder, Served, served


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    with served(tmp_path_factory.mktemp("serve"), "--demo", "--token", SECRET) as running:
        yield running


async def _websocket(
    port: int, origin: str | None, *, host: str | None = None
) -> tuple[int, bytes]:
    """(HTTP status of the upgrade, first bytes of the console's screen if accepted)."""
    headers = {} if origin is None else {"Origin": origin}
    if host is not None:
        headers["Host"] = host
    url = f"http://127.0.0.1:{port}/ws?width=100&height=30"
    async with aiohttp.ClientSession(skip_auto_headers=["Origin"]) as session:
        try:
            async with session.ws_connect(url, headers=headers, origin=None) as ws:
                drawn = b""
                while len(drawn) < 2000:
                    message = await asyncio.wait_for(ws.receive(), WAIT)
                    if message.type != aiohttp.WSMsgType.BINARY:
                        if message.type in (aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.ERROR):
                            break
                        continue
                    drawn += message.data
                return 101, drawn
        except aiohttp.WSServerHandshakeError as refused:
            return refused.status, b""


def test_the_start_up_line_masks_the_token(server: Served) -> None:
    out = server.output()
    assert f"on http://127.0.0.1:{server.port}" in out
    assert "--demo --token ****" in out
    assert SECRET not in out


def test_the_page_is_relative_titled_and_fetches_nothing_elsewhere(server: Served) -> None:
    page = httpx.get(server.url)
    assert page.status_code == 200
    html = page.text
    assert "<title>vagent-tui</title>" in html
    assert SECRET not in html and "--token" not in html
    # no absolute URL: everything is relative to wherever the page was opened
    assert not re.search(r"""(?:src|href)\s*=\s*["'](?:[a-z]+:)?//""", html), html
    assert "127.0.0.1" not in html and str(server.port) not in html
    assert "googleapis" not in html and "://" not in html.replace("http://www.w3.org", "")
    policy = page.headers["content-security-policy"]
    assert "connect-src 'self'" in policy and "default-src 'none'" in policy
    for asset in re.findall(r"""(?:src|href)="(static/[^"]+)\"""", html):
        assert httpx.get(server.url + asset).status_code == 200, asset


def test_a_page_on_a_non_loopback_host_name_is_refused(server: Served) -> None:
    # DNS rebinding: a site whose name now points at 127.0.0.1
    page = httpx.get(server.url, headers={"Host": f"rebind.example:{server.port}"})
    assert page.status_code == 403


def test_the_websocket_from_the_page_itself_is_accepted(server: Served) -> None:
    status, drawn = asyncio.run(_websocket(server.port, f"http://127.0.0.1:{server.port}"))
    assert status == 101 and drawn
    # the console started for it has no token on its command line (ps shows those)
    assert SECRET not in server.output()


@pytest.mark.parametrize(
    "origin",
    [
        "http://127.0.0.1:1",  # a page served on another local port
        "http://localhost:{port}",  # another origin than the Host the request names
        "https://evil.example",
        "null",  # a sandboxed frame or a file: page
        None,  # not a browser: refused too (the page is the only client)
    ],
)
def test_a_websocket_from_another_origin_is_refused(server: Served, origin: str | None) -> None:
    if origin is not None:
        origin = origin.format(port=server.port)
    status, drawn = asyncio.run(_websocket(server.port, origin))
    assert status == 403 and drawn == b""
    assert "refused a websocket" in server.output()


def test_a_rebound_host_is_refused_even_with_a_matching_origin(server: Served) -> None:
    host = f"rebind.example:{server.port}"
    status, _ = asyncio.run(_websocket(server.port, f"http://{host}", host=host))
    assert status == 403


def test_through_a_tunnel_on_another_port_the_page_and_websocket_work(server: Served) -> None:
    with Forwarder(server.port) as tunnel:
        page = httpx.get(f"http://127.0.0.1:{tunnel.port}/")
        assert page.status_code == 200 and "<title>vagent-tui</title>" in page.text
        origin = f"http://localhost:{tunnel.port}"
        status, drawn = asyncio.run(
            _websocket(tunnel.port, origin, host=f"localhost:{tunnel.port}")
        )
        assert status == 101 and drawn
        # the server's own origin is a foreign one for a request through the tunnel
        status, _ = asyncio.run(_websocket(tunnel.port, f"http://127.0.0.1:{server.port}"))
        assert status == 403


def test_the_consoles_command_line_has_no_token(tmp_path: Path) -> None:
    with served(tmp_path, "--demo", "--token=" + SECRET) as running:

        async def open_and_look() -> list[str]:
            origin = f"http://127.0.0.1:{running.port}"
            async with (
                aiohttp.ClientSession() as session,
                session.ws_connect(
                    f"http://127.0.0.1:{running.port}/ws?width=80&height=24", origin=origin
                ) as ws,
            ):
                await asyncio.wait_for(ws.receive(), WAIT)
                return running.console_command_lines()

        lines = asyncio.run(open_and_look())
        assert any("vagent_tui --demo" in line for line in lines), lines
        assert not any(SECRET in line for line in lines)
        assert SECRET not in running.output()
