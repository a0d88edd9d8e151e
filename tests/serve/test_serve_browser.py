"""``vagent-tui serve`` in a real headless browser: Debian's Chromium driven by Playwright.

The page, opened at the address ``serve`` printed (its secret in it), must take the
secret as a cookie and leave the address bar without it, draw the console, be titled,
fetch nothing from anywhere but the server it was opened on (directly or through a
tunnel on another port), take keys, put a copy on the browser's clipboard, show no
token; a browser without the secret, or a page of another origin, must not get a
console. The terminal is drawn on a canvas: the test reads what the page's websocket
received through a terminal emulator (pyte), the same bytes xterm.js drew.

Skipped, saying why, where Playwright or a Chromium is missing. Playwright's own browser
download is never used: ``.ci/run`` installs Debian's ``chromium``.
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest

from tests.serve.helpers import SECRET, WAIT, Forwarder, OtherSite, Served, served

pytest.importorskip("textual_serve", reason="the 'serve' extra (textual-serve) is not installed")
pyte = pytest.importorskip("pyte", reason="pyte (in the test extra) is not installed")
playwright_api = pytest.importorskip(
    "playwright.sync_api", reason="playwright (in the test extra) is not installed"
)

CHROMIUM = os.environ.get("VAGENT_TEST_CHROMIUM") or shutil.which("chromium") or ""
if not CHROMIUM or not os.access(CHROMIUM, os.X_OK):
    pytest.skip(
        "no Chromium to drive (apt-get install chromium, or set VAGENT_TEST_CHROMIUM)",
        allow_module_level=True,
    )

BROWSER_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright_api.sync_playwright() as driver:
        try:
            launched = driver.chromium.launch(executable_path=CHROMIUM, args=BROWSER_ARGS)
        except playwright_api.Error as exc:
            pytest.skip(f"Chromium at {CHROMIUM} does not start: {str(exc)[:200]}")
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    folder = tmp_path_factory.mktemp("serve-browser")
    with served(folder, "--demo", "--screen", "voices", "--token", SECRET) as running:
        yield running


class Tab:
    """One page of the console: what it requested and what its terminal received."""

    def __init__(self, browser: Any, url: str) -> None:
        origin = url.split("/", 3)
        self.context = browser.new_context(viewport={"width": 1280, "height": 720})
        self.context.grant_permissions(
            ["clipboard-read", "clipboard-write"], origin="/".join(origin[:3])
        )
        self.page = self.context.new_page()
        self.requests: list[str] = []
        self.sockets: list[str] = []
        self.console: list[str] = []
        self.received = bytearray()
        self.size = (80, 24)
        self.page.on("request", lambda request: self.requests.append(request.url))
        self.page.on("websocket", self._socket)
        self.page.on("console", lambda message: self.console.append(message.text))
        self.page.goto(url)

    def _socket(self, socket: Any) -> None:
        self.sockets.append(socket.url)
        query = parse_qs(urlparse(socket.url).query)
        self.size = (int(query["width"][0]), int(query["height"][0]))

        def frame(payload: str | bytes) -> None:
            if isinstance(payload, bytes):
                self.received.extend(payload)

        socket.on("framereceived", frame)

    def screen(self) -> str:
        """The terminal's text now, as xterm.js drew it from the same bytes."""
        width, height = self.size
        terminal = pyte.Screen(width, height)
        pyte.ByteStream(terminal).feed(bytes(self.received))
        return "\n".join(terminal.display)

    def wait_for(self, what: Callable[[], bool], describe: str) -> None:
        deadline = time.monotonic() + WAIT
        while not what():
            if time.monotonic() > deadline:
                raise AssertionError(f"{describe}; the screen:\n{self.screen()}")
            self.page.wait_for_timeout(100)

    def close(self) -> None:
        self.context.close()


@pytest.fixture
def tab(browser: Any, server: Served) -> Iterator[Tab]:
    opened = Tab(browser, server.address)
    yield opened
    opened.close()


def _only_from(requests: list[str], port: int) -> list[str]:
    """The requests that went anywhere but 127.0.0.1:port or localhost:port."""
    elsewhere = []
    for url in requests:
        parts = urlparse(url)
        if parts.scheme == "data":
            continue
        if parts.hostname not in ("127.0.0.1", "localhost") or parts.port != port:
            elsewhere.append(url)
    return elsewhere


def test_the_console_draws_takes_keys_and_copies_to_the_browser(tab: Tab, server: Served) -> None:
    assert tab.page.title() == "vagent-tui"
    tab.wait_for(lambda: "Voices ·" in tab.screen(), "the console never drew its header")
    tab.wait_for(lambda: "openai-alloy" in tab.screen(), "the voices never showed")

    tab.page.focus("textarea.xterm-helper-textarea")
    tab.page.keyboard.press("y")
    tab.wait_for(lambda: "Copied voice id" in tab.screen(), "y did not copy")
    # the server has no TERM: the copy still reached the browser's clipboard (OSC 52)
    assert "browser did not take it" in tab.screen().replace("\n", " ").replace("  ", " ")
    assert tab.page.evaluate("navigator.clipboard.readText()") == "openai-alloy"

    assert tab.sockets == [f"ws://127.0.0.1:{server.port}/ws?" + tab.sockets[0].split("?")[1]]
    assert _only_from(tab.requests + tab.sockets, server.port) == []
    assert len(tab.requests) >= 4  # the page, its stylesheet, script and font

    shown = tab.page.content() + tab.screen() + "\n".join(tab.console) + server.output()
    assert SECRET not in shown
    assert not any(SECRET in line for line in server.console_command_lines())
    # the run's secret: printed once, in no log line, not in the page
    assert server.printed().count(server.secret) == 1
    assert server.secret not in tab.page.content() + server.logged()


def test_the_secret_becomes_a_cookie_the_page_cannot_read_and_leaves_the_url(
    tab: Tab, server: Served
) -> None:
    tab.wait_for(lambda: "Voices ·" in tab.screen(), "the console never drew its header")
    assert tab.page.url == server.url  # no ?token= in the address bar
    assert server.secret not in tab.page.evaluate("location.href + document.cookie")
    cookies = tab.context.cookies()
    assert [(c["name"], c["httpOnly"], c["sameSite"]) for c in cookies] == [
        (f"vagent-tui-{server.port}", True, "Strict")
    ]
    assert cookies[0]["value"] == server.secret
    # reloading the page (the address without the secret) keeps working: the cookie
    tab.received.clear()
    tab.page.reload()
    tab.wait_for(lambda: "Voices ·" in tab.screen(), "no console after a reload")
    # nor is it in the history: one step back is the blank page the tab started on
    tab.page.go_back()
    assert tab.page.url == "about:blank"


def test_a_browser_without_the_secret_gets_no_console(browser: Any, server: Served) -> None:
    tab = Tab(browser, server.url)
    try:
        assert tab.page.title() != "vagent-tui"
        assert "open the address it printed" in tab.page.content()
        assert tab.sockets == []
        wrong = Tab(browser, server.url + "?token=" + "A" * len(server.secret))
        try:
            assert "open the address it printed" in wrong.page.content()
            assert wrong.sockets == [] and wrong.context.cookies() == []
        finally:
            wrong.close()
    finally:
        tab.close()


def test_a_ping_parameter_makes_the_page_call_nowhere(browser: Any, server: Served) -> None:
    tab = Tab(browser, server.address + "&ping=http://ping.example/x")
    try:
        tab.wait_for(lambda: "openai-alloy" in tab.screen(), "the voices never showed")
        assert _only_from(tab.requests + tab.sockets, server.port) == []
        assert "ping=" not in tab.page.url
    finally:
        tab.close()


def test_through_a_tunnel_on_another_port_the_page_works(browser: Any, server: Served) -> None:
    with Forwarder(server.port) as tunnel:
        tab = Tab(browser, f"http://localhost:{tunnel.port}/?token={server.secret}")
        try:
            assert tab.page.title() == "vagent-tui"
            assert tab.page.url == f"http://localhost:{tunnel.port}/"
            tab.wait_for(lambda: "openai-alloy" in tab.screen(), "no console through the tunnel")
            tab.page.focus("textarea.xterm-helper-textarea")
            tab.page.keyboard.press("Enter")  # hide the detail pane
            tab.wait_for(lambda: "Description" not in tab.screen(), "enter changed nothing")
            assert tab.sockets and tab.sockets[0].startswith(f"ws://localhost:{tunnel.port}/ws?")
            assert _only_from(tab.requests + tab.sockets, tunnel.port) == []
        finally:
            tab.close()


def test_a_page_of_another_origin_gets_no_console(browser: Any, server: Served) -> None:
    """A page on another local port opens the console's websocket: the browser is refused.

    The browser holds the console's cookie (ports do not part sites: it is sent along);
    the origin check refuses it.
    """
    context = browser.new_context()
    page = context.new_page()
    try:
        page.goto(server.address)
        assert context.cookies()
        with OtherSite() as other:
            page.goto(f"http://127.0.0.1:{other.port}/")
            outcome = page.evaluate(
                """port => new Promise(done => {
                    const socket = new WebSocket(`ws://127.0.0.1:${port}/ws?width=80&height=24`);
                    socket.onopen = () => done("opened");
                    socket.onclose = () => done("closed");
                })""",
                server.port,
            )
        assert outcome == "closed"
        assert f"Origin http://127.0.0.1:{other.port}" in server.output()
    finally:
        context.close()
