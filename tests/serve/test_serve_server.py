"""``vagent-tui serve`` over HTTP, without a browser: who may connect, the page, the token.

A real server in a subprocess; aiohttp's client plays the browser (sending the Origin
header a page would, and the cookie the page got for the run's secret) and the foreign
clients (another port, another site, no Origin, and another local user's program that
forges the Origin but has no secret).
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


def _cookie(port: int, secret: str) -> dict[str, str]:
    """The Cookie header a browser sends once the page on ``port`` took ``secret``."""
    return {"Cookie": f"vagent-tui-{port}={secret}"}


async def _websocket(
    port: int,
    origin: str | None,
    *,
    host: str | None = None,
    secret: str | None = None,
    cookie_port: int | None = None,
    query: str = "",
) -> tuple[int, bytes]:
    """(HTTP status of the upgrade, first bytes of the console's screen if accepted).

    ``secret``: sent as the page's cookie would be, for the port of ``host`` (or
    ``port``, or ``cookie_port``); ``query``: more of the websocket URL's query.
    """
    headers = {} if origin is None else {"Origin": origin}
    if host is not None:
        headers["Host"] = host
    if secret is not None:
        seen_port = int(host.rpartition(":")[2]) if host else port
        headers.update(_cookie(cookie_port or seen_port, secret))
    url = f"http://127.0.0.1:{port}/ws?width=100&height=30{query}"
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
    assert f"on 127.0.0.1:{server.port}" in out
    assert "--demo --token ****" in out
    assert SECRET not in out


def test_the_address_with_the_runs_secret_is_printed_once_and_never_logged(
    server: Served,
) -> None:
    assert server.address == f"http://127.0.0.1:{server.port}/?token={server.secret}"
    assert len(server.secret) >= 40  # secrets.token_urlsafe(32)
    # Use it, get it wrong, send it to the websocket: the log says so, masked.
    httpx.get(server.address)
    httpx.get(server.url + "?token=wrong-" + server.secret[:10])
    asyncio.run(_websocket(server.port, None, query=f"&token={server.secret}"))
    printed, logged = server.printed(), server.logged()
    assert printed.count(server.secret) == 1
    assert server.secret not in logged and server.secret[:10] not in logged
    assert "token=****" in logged  # the requests are logged, their secret masked


def _page(server: Served) -> httpx.Response:
    """The page as the browser gets it from the printed address (the cookie exchanged)."""
    with httpx.Client(base_url=server.url) as browser:
        exchange = browser.get(server.address)
        assert exchange.status_code == 303
        return browser.get(exchange.headers["location"])


def test_the_printed_address_gives_a_strict_http_only_cookie_and_leaves_the_url(
    server: Served,
) -> None:
    exchange = httpx.get(server.address + "&fontsize=20")
    assert exchange.status_code == 303
    # relative, so a tunnel's port stays; the secret leaves the address bar and history
    assert exchange.headers["location"] == "./?fontsize=20"
    cookie = exchange.headers["set-cookie"]
    assert cookie.startswith(f"vagent-tui-{server.port}={server.secret};")
    attributes = {part.strip().lower() for part in cookie.split(";")[1:]}
    assert {"httponly", "samesite=strict", "path=/"} <= attributes
    assert exchange.headers["cache-control"] == "no-store"
    page = _page(server)
    assert page.status_code == 200 and "<title>vagent-tui</title>" in page.text
    assert server.secret not in page.text


@pytest.mark.parametrize(
    "how",
    ["nothing", "wrong token", "empty token", "wrong cookie", "cookie of another port"],
)
def test_the_page_needs_the_runs_secret(server: Served, how: str) -> None:
    # Another local user forges what a browser would send, without the secret.
    headers = {"Origin": f"http://127.0.0.1:{server.port}"}
    url = server.url
    if how == "wrong token":
        url += "?token=" + server.secret[:-1] + ("A" if server.secret[-1] != "A" else "B")
    elif how == "empty token":
        url += "?token="
    elif how == "wrong cookie":
        headers.update(_cookie(server.port, "x" * len(server.secret)))
    elif how == "cookie of another port":
        headers.update(_cookie(server.port + 1, server.secret))
    page = httpx.get(url, headers=headers)
    assert page.status_code == 403
    assert "set-cookie" not in page.headers
    assert "<title>" not in page.text and "open the address it printed" in page.text
    assert "refused a page" in server.logged()


def test_a_download_needs_the_runs_secret(server: Served) -> None:
    assert httpx.get(server.url + "download/anything").status_code == 403
    answer = httpx.get(
        server.url + "download/anything", headers=_cookie(server.port, server.secret)
    )
    assert answer.status_code == 404  # past the check: no such download


def test_the_page_is_relative_titled_and_fetches_nothing_elsewhere(server: Served) -> None:
    page = _page(server)
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
    page = httpx.get(server.address, headers={"Host": f"rebind.example:{server.port}"})
    assert page.status_code == 403


def test_the_websocket_from_the_page_itself_is_accepted(server: Served) -> None:
    origin = f"http://127.0.0.1:{server.port}"
    status, drawn = asyncio.run(_websocket(server.port, origin, secret=server.secret))
    assert status == 101 and drawn
    # the console started for it has no token on its command line (ps shows those)
    assert SECRET not in server.output()


def test_a_websocket_with_the_secret_in_its_query_is_accepted(server: Served) -> None:
    origin = f"http://127.0.0.1:{server.port}"
    status, drawn = asyncio.run(_websocket(server.port, origin, query=f"&token={server.secret}"))
    assert status == 101 and drawn


@pytest.mark.parametrize(
    "secret", [None, "", "wrong", "cookie of another port", "the secret's first half"]
)
def test_a_program_forging_the_pages_origin_without_the_secret_gets_no_console(
    server: Served, secret: str | None
) -> None:
    """Issue 24: any local program can send the page's Origin; it has no secret."""
    origin = f"http://127.0.0.1:{server.port}"
    cookie_port = None
    if secret == "cookie of another port":  # another run's page, on the same host name
        cookie_port, secret = server.port + 1, server.secret
    elif secret == "the secret's first half":
        secret = server.secret[: len(server.secret) // 2]
    status, drawn = asyncio.run(
        _websocket(server.port, origin, secret=secret, cookie_port=cookie_port)
    )
    assert status == 403 and drawn == b""
    assert "refused a websocket without this run's secret" in server.logged()
    status, _ = asyncio.run(_websocket(server.port, origin, query="&token=wrong"))
    assert status == 403


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
    # with the secret: the origin check holds on its own
    status, drawn = asyncio.run(_websocket(server.port, origin, secret=server.secret))
    assert status == 403 and drawn == b""
    assert "refused a websocket" in server.output()


def test_a_rebound_host_is_refused_even_with_a_matching_origin(server: Served) -> None:
    host = f"rebind.example:{server.port}"
    status, _ = asyncio.run(
        _websocket(server.port, f"http://{host}", host=host, secret=server.secret)
    )
    assert status == 403


def test_through_a_tunnel_on_another_port_the_page_and_websocket_work(server: Served) -> None:
    with Forwarder(server.port) as tunnel:
        base = f"http://localhost:{tunnel.port}/"
        with httpx.Client(base_url=base, follow_redirects=True) as browser:
            page = browser.get(f"{base}?token={server.secret}")
            assert page.status_code == 200 and "<title>vagent-tui</title>" in page.text
            assert str(page.url) == base  # the secret left the address
            assert browser.cookies.get(f"vagent-tui-{tunnel.port}") == server.secret
        origin = f"http://localhost:{tunnel.port}"
        status, drawn = asyncio.run(
            _websocket(tunnel.port, origin, host=f"localhost:{tunnel.port}", secret=server.secret)
        )
        assert status == 101 and drawn
        # the server's own origin is a foreign one for a request through the tunnel
        status, _ = asyncio.run(
            _websocket(tunnel.port, f"http://127.0.0.1:{server.port}", secret=server.secret)
        )
        assert status == 403


def test_the_consoles_command_line_has_no_token(tmp_path: Path, server: Served) -> None:
    with served(tmp_path, "--demo", "--token=" + SECRET) as running:

        async def open_and_look() -> list[str]:
            origin = f"http://127.0.0.1:{running.port}"
            async with (
                aiohttp.ClientSession() as session,
                session.ws_connect(
                    f"http://127.0.0.1:{running.port}/ws?width=80&height=24",
                    origin=origin,
                    headers=_cookie(running.port, running.secret),
                ) as ws,
            ):
                await asyncio.wait_for(ws.receive(), WAIT)
                return running.console_command_lines()

        lines = asyncio.run(open_and_look())
        assert any("vagent_tui --demo" in line for line in lines), lines
        assert not any(SECRET in line for line in lines)
        assert not any(running.secret in line for line in lines)
        assert SECRET not in running.output()
        # every run has its own secret: one run's does not open another
        assert running.secret != server.secret
        other = httpx.get(running.url + "?token=" + server.secret)
        assert other.status_code == 403
