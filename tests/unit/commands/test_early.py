"""A command's first request sent while the program imports (`vagent_tui.commands.early`),
and a command that imports no Textual."""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from vagent_tui import cli
from vagent_tui.commands import early
from vagent_tui.services.connect import real_client

ROOT = Path(__file__).resolve().parents[3]
OWNER = {"account": {"id": 1000, "name": "Northwind", "accountType": "partner"}}


class Platform:
    """A loopback platform that answers every GET with the key owner, and counts."""

    def __init__(self) -> None:
        self.paths: list[str] = []
        self.cut_first = False
        """The first reply declares its whole length and sends half of it, then closes."""
        platform = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self) -> None:
                platform.paths.append(self.path)
                body = json.dumps(OWNER).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                if platform.cut_first and len(platform.paths) == 1:
                    self.wfile.write(body[: len(body) // 2])
                    self.close_connection = True
                    return
                self.wfile.write(body)

            def log_message(self, *_: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


@pytest.fixture(autouse=True)
def _nothing_left_early() -> Iterator[None]:
    """A reply sent early in one test is never another test's."""
    yield
    early._sent = None


@pytest.fixture
def platform(monkeypatch: pytest.MonkeyPatch) -> Iterator[Platform]:
    served = Platform()
    monkeypatch.setenv("VAGENT_BASE_URL", served.url)
    monkeypatch.setenv("VAGENT_TOKEN", "key-1")
    for name in early.PROXY_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    yield served
    served.server.shutdown()
    served.server.server_close()


def _first_read(token: str) -> tuple[int | None, bool]:
    """The key owner as a client of ``token`` reads it after `early.hand_over`."""

    async def read() -> tuple[int | None, bool]:
        client = real_client(early_url(), token)
        try:
            given = early.hand_over(client)
            return (await client.get_account()).id, given
        finally:
            await client.aclose()

    return asyncio.run(read())


def early_url() -> str:
    import os

    return os.environ["VAGENT_BASE_URL"]


def _wait_sent() -> None:
    sent = early._sent
    assert sent is not None
    assert sent.reply.done.wait(timeout=10)


def test_the_key_owners_read_goes_early_and_the_client_takes_its_reply_once(
    platform: Platform,
) -> None:
    early.start(["get", "accounts", "-o", "json"])
    _wait_sent()
    assert platform.paths == ["/api/v2/account?token=key-1"]  # the client's own request
    assert _first_read("key-1") == (1000, True)
    assert len(platform.paths) == 1  # the client's first read took the early reply
    assert _first_read("key-1") == (1000, False)  # nothing early left: asked again
    assert len(platform.paths) == 2


def test_a_client_of_another_key_never_takes_the_reply(platform: Platform) -> None:
    early.start(["get", "accounts", "--base-url", platform.url])
    _wait_sent()
    assert _first_read("key-2") == (1000, True)
    assert platform.paths[-1] == "/api/v2/account?token=key-2"  # sent as it always is


def test_an_early_failure_leaves_the_request_to_the_client(
    platform: Platform, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refused(transport: object, outgoing: object) -> None:
        raise OSError("connection refused")

    monkeypatch.setattr(early, "_exchange", refused)
    early.start(["get", "accounts"])
    _wait_sent()
    assert platform.paths == []
    assert _first_read("key-1") == (1000, True)
    assert platform.paths == ["/api/v2/account?token=key-1"]


def test_a_reply_cut_short_is_left_to_the_client(platform: Platform) -> None:
    """A reply shorter than its Content-Length (the connection dropped) is no reply: the
    client asks again itself, and reads the whole one."""
    platform.cut_first = True
    early.start(["get", "accounts"])
    _wait_sent()
    sent = early._sent
    assert sent is not None and sent.reply.reply is None
    assert _first_read("key-1") == (1000, True)
    assert len(platform.paths) == 2


def test_an_ipv6_address_without_a_port_is_asked_on_its_schemes_port(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """http.client would take the last group of a bare IPv6 address for the port."""
    import http.client

    from vagent_tui.api.outgoing import Outgoing

    seen: list[tuple[str, int]] = []

    class Connection:
        def __init__(self, host: str, port: int, **_: object) -> None:
            seen.append((host, port))
            raise OSError("not on the wire in a test")

    monkeypatch.setattr(http.client, "HTTPConnection", Connection)
    monkeypatch.setattr(http.client, "HTTPSConnection", Connection)
    for url in ("http://[::1]/api/v2/account?token=k", "https://[2001:db8::1]/api/v2/account"):
        with pytest.raises(OSError):
            early._exchange(None, Outgoing("GET", url))
    assert seen == [("::1", 80), ("2001:db8::1", 443)]


@pytest.mark.parametrize(
    ("words", "options"),
    [
        (["get", "accounts", "-o", "json"], {}),
        (["--profile", "lab", "get", "accounts"], {"--profile": "lab"}),
        (["get", "accounts", "--base-url=http://x", "-q"], {"--base-url": "http://x"}),
        (["get", "accounts", "--demo"], None),  # the simulator in-process
        (["get", "accounts", "--token", "t"], None),  # refused: nothing sent
        (["get", "accounts", "-qh"], None),  # help
        (["get", "accounts", "--prof", "lab"], None),  # an abbreviation: the parser's
        (["schema", "accounts"], None),  # offline
        (["--profile", "get"], None),  # the console, with a profile named "get"
        (["get", "accounts", "--profile"], None),  # a usage error
    ],
)
def test_only_a_plain_command_line_sends_early(
    words: list[str], options: dict[str, str] | None
) -> None:
    assert early._options(words) == options


def test_every_command_that_does_not_connect_is_offline() -> None:
    """A command whose parser says ``connects=False`` sends nothing early."""

    def leaves(
        parser: argparse.ArgumentParser, path: tuple[str, ...]
    ) -> Iterator[tuple[tuple[str, ...], argparse.ArgumentParser]]:
        subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        if not subs:
            yield path, parser
        for sub in subs:
            for name, child in sub.choices.items():
                yield from leaves(child, (*path, name))

    offline = {
        path for path, p in leaves(cli.build_parser(), ()) if p.get_default("connects") is False
    }
    assert offline == set(early.OFFLINE_COMMANDS)


# A command's run, then a client of a real platform made (its pool: aiohttp), in a fresh
# interpreter: the modules it imported.
IMPORTED = """
import contextlib, io, json, sys
from vagent_tui.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    assert main(["get", "accounts", "-o", "json", "--demo"]) == 0
from vagent_tui.commands import early
from vagent_tui.services.connect import real_client
real_client("http://127.0.0.1:9", "t")
print(json.dumps(sorted(sys.modules)))
"""


def test_a_command_imports_no_textual() -> None:
    done = subprocess.run(
        [sys.executable, "-c", IMPORTED], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    loaded = set(json.loads(done.stdout.splitlines()[-1]))
    assert {"vagent_tui.commands.get_accounts", "aiohttp"} <= loaded  # the check is live
    # rich comes with httpx (its command line, httpx._main); Textual never.
    assert sorted(m for m in loaded if m.split(".")[0] == "textual") == []
    assert (
        sorted(
            m for m in loaded if m.startswith("vagent_tui.ui.") and m != "vagent_tui.ui.registry"
        )
        == []
    )
