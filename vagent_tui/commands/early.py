"""A command's first request, on its way while the rest of the program is imported.

Every command that connects reads the key owner first (``GET /account``, what
`vagent_tui.services.session.open_connection` sends), and before it the program imports
the client, its models and its connection pool: hundreds of milliseconds, against a
bare script's few dozen. `start` looks at the command line before the parser is even
built: when it names a command that connects, and the connection is plain (the
environment, a profile's token from the environment or its file; no ``--demo``, no
``--token``, no token command, no proxy), it builds that very request with the client's
own builder (`vagent_tui.api.outgoing.RequestBuilder`: the token where the client puts
it) and sends it from a thread, with the standard library's HTTP client (already
imported with httpx; httpx's own transport would import httpcore first, tens of
milliseconds of CPU that the command then waits for), while the program goes on.

`hand_over` gives the reply to the client the command opens: its first request, if it is
exactly the one sent (the same URL, so the same platform and key), takes that reply
instead of going out again, and goes through the client's whole policy from there (size
cap, decoding, retries, observers and the journal). Anything else (another first
request, a failure, a reply not back in time) and the reply is dropped: the client sends
as it always does. Nothing here writes anything anywhere or says anything: a failure is
the client's to report, with its own words, when it asks again.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from contextlib import suppress
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    import ssl

    import httpx

    from vagent_tui.api.client import PlatformClient
    from vagent_tui.api.outgoing import Outgoing
    from vagent_tui.api.pool import Pool

OFFLINE_COMMANDS: frozenset[tuple[str, ...]] = frozenset(
    {("schema",), ("fleet", "questions"), ("get", "journal")}
)
"""Commands (their words) that run without connecting: no request for them. A test
checks every command whose parser says ``connects=False`` is here."""
CONNECTION_OPTIONS = ("--profile", "--base-url")
NOT_EARLY = frozenset({"--demo", "--token", "-h", "--help", "--version"})
"""Options after which the command sends nothing early: another connection, none, or
no command at all."""
PROXY_VARIABLES = ("HTTPS_PROXY", "HTTP_PROXY", "ALL_PROXY", "https_proxy", "http_proxy",
                   "all_proxy")  # fmt: skip
"""With one of these set the client's pool goes through a proxy (`api.sender`): the
first request goes with the others."""
CONNECT_TIMEOUT = 5.0
READ_TIMEOUT = 15.0
"""The client's timeouts (`vagent_tui.api.transport.DEFAULT_TIMEOUT`, connect at most 5 s)."""
ACCEPT_ENCODING = "gzip, deflate"
"""What the client's pool asks for (the reply's body is decoded by the client)."""
REPLY_CAP = 1024 * 1024
"""A key owner's reply is a few hundred bytes: a longer one is left to the client (its
own cap and its own words)."""


class Reply(NamedTuple):
    status: int
    headers: list[tuple[bytes, bytes]]
    body: bytes
    """As it came on the wire (the client's reply decodes it)."""


class Pending:
    """The reply a thread is reading: set once (None: no reply), awaited by the command's
    event loop. (``concurrent.futures`` would do, but it is imported later, by asyncio:
    not before the first request.)"""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.done = threading.Event()
        self.reply: Reply | None = None
        self._wake: list[Callable[[], None]] = []

    def set(self, reply: Reply | None) -> None:
        with self._lock:
            self.reply = reply
            self.done.set()
            wake, self._wake = self._wake, []
        for call in wake:
            call()

    async def get(self) -> Reply | None:
        """The reply, once the thread has it (cancelled with the request that waits)."""
        import asyncio

        loop = asyncio.get_running_loop()
        ready: asyncio.Future[None] = loop.create_future()

        def resolve() -> None:
            if not ready.done():
                ready.set_result(None)

        def wake() -> None:
            with suppress(RuntimeError):  # the loop has closed: nobody waits any more
                loop.call_soon_threadsafe(resolve)

        with self._lock:
            if self.done.is_set():
                return self.reply
            self._wake.append(wake)
        await ready
        return self.reply


class Sent(NamedTuple):
    outgoing: Outgoing
    reply: Pending


_sent: Sent | None = None


def _options(words: Sequence[str]) -> dict[str, str] | None:
    """``--profile`` and ``--base-url`` as the command line gives them, or None when the
    command line is anything but plain (an abbreviation, an option of another connection,
    an offline command): the first request then waits for the parser."""
    from vagent_tui.commands.registry import COMMAND_NAMES

    found: dict[str, str] = {}
    given = set(words)
    if any(set(offline) <= given for offline in OFFLINE_COMMANDS):
        return None
    values: set[int] = set()
    for index, word in enumerate(words):
        if word == "--":
            break  # argparse's end of options
        name, equals, value = word.partition("=")
        if name in NOT_EARLY:
            return None
        if not word.startswith("--"):
            if word.startswith("-") and "h" in word[1:]:
                return None  # -h, or -qh: help
            continue
        if name in CONNECTION_OPTIONS:
            if not equals:
                if index + 1 >= len(words):
                    return None
                value = words[index + 1]
                values.add(index + 1)
            found[name] = value  # the last one wins, as argparse's
        elif any(option.startswith(name) for option in (*CONNECTION_OPTIONS, *NOT_EARLY)):
            return None  # argparse takes an abbreviation: the parser decides
    named = (w for i, w in enumerate(words) if i not in values and w in COMMAND_NAMES)
    return found if any(named) else None


def start(words: Sequence[str]) -> None:
    """Send the key owner's read now, if the command line allows (the module's
    docstring); never raises, never waits."""
    global _sent
    _sent = None
    options = _options(words)
    if options is None or any(os.environ.get(name) for name in PROXY_VARIABLES):
        return
    try:
        outgoing = _first_request(options.get("--profile"), options.get("--base-url"))
    except Exception:  # the command resolves the connection again and says what is wrong
        return
    if outgoing is None:
        return
    context: ssl.SSLContext | None = None
    if outgoing.url.startswith("https:"):
        try:
            import httpx

            # Made here, not in the thread: the certificates take milliseconds of CPU
            # that the thread would wait for while this one imports. Those of the
            # client's pools (httpx's).
            context = httpx.create_ssl_context()
        except Exception:  # the client says it, when it connects in its own way
            return
    reply = Pending()
    threading.Thread(target=_send, args=(context, outgoing, reply), daemon=True).start()
    _sent = Sent(outgoing, reply)


def _first_request(profile_name: str | None, base_url: str | None) -> Outgoing | None:
    """``GET /account`` as the client of this connection builds it (None: no plain
    connection: none configured, or its token from a command)."""
    from vagent_tui import config as cfg
    from vagent_tui import credentials
    from vagent_tui.api.outgoing import RequestBuilder, normalise_base_url

    config = cfg.load()
    profile = config.profile(profile_name)
    if profile is not None and profile.token_command and not os.environ.get("VAGENT_TOKEN"):
        return None  # it may ask for a passphrase: only once, and after the parser
    found = credentials.resolve_connection(config, profile_name=profile_name, base_url=base_url)
    if found is None or cfg.base_url_problem(found.base_url):
        return None
    builder = RequestBuilder(normalise_base_url(found.base_url), found.token)
    return builder.build("GET", builder.url_of("/account"))


def _send(context: ssl.SSLContext | None, outgoing: Outgoing, reply: Pending) -> None:
    """The request on the wire (in a thread), its reply read whole, or None whatever went
    wrong (the client then sends it again itself, and says what went wrong)."""
    result: Reply | None = None
    try:
        result = _exchange(context, outgoing)
    except Exception:  # not a word of it here (it may quote the URL, token and all)
        result = None
    reply.set(result)


def _exchange(context: ssl.SSLContext | None, outgoing: Outgoing) -> Reply | None:
    import http.client
    from urllib.parse import urlsplit

    parts = urlsplit(outgoing.url)
    # The port always given: http.client would read the last group of an IPv6 address
    # without one ([::1]) as its port.
    host, port = parts.hostname or "", parts.port or (443 if parts.scheme == "https" else 80)
    connection = (
        http.client.HTTPSConnection(host, port, timeout=CONNECT_TIMEOUT, context=context)
        if parts.scheme == "https"
        else http.client.HTTPConnection(host, port, timeout=CONNECT_TIMEOUT)
    )
    try:
        connection.connect()
        if connection.sock is not None:
            connection.sock.settimeout(READ_TIMEOUT)
        target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        headers = {**outgoing.headers, "Accept-Encoding": ACCEPT_ENCODING}
        connection.request(outgoing.method, target, body=outgoing.content, headers=headers)
        response = connection.getresponse()
        declared = response.getheader("content-length", "") or ""
        if declared.isdecimal() and int(declared) > REPLY_CAP:
            return None
        body = bytearray()
        while chunk := response.read(64 * 1024):  # de-chunked, not decoded
            body += chunk
            if len(body) > REPLY_CAP:
                return None
        if declared.isdecimal() and len(body) != int(declared):
            return None  # cut short: http.client returns what came, without a word
        raw = [(name.encode("latin-1"), value.encode("latin-1"))
               for name, value in response.getheaders()]  # fmt: skip
        return Reply(response.status, raw, bytes(body))
    finally:
        connection.close()


class _FirstReply:
    """The client's pool, whose first request takes the early reply when it is the one
    sent; then the pool itself again."""

    def __init__(self, client: PlatformClient, sent: Sent) -> None:
        self.client = client
        self.inner: Pool = client.sender.pool
        self.sent = sent

    async def open(self, outgoing: Outgoing) -> httpx.Response:
        import httpx

        self.client.sender.pool = self.inner  # one request only, whatever it is
        if outgoing == self.sent.outgoing:
            reply = await self.sent.reply.get()
            if reply is not None:
                return httpx.Response(reply.status, headers=reply.headers, content=reply.body)
        return await self.inner.open(outgoing)

    async def aclose(self) -> None:
        await self.inner.aclose()


def hand_over(client: PlatformClient) -> bool:
    """Give the early request's reply to ``client``'s first request (the module's
    docstring); whether there was one to give."""
    global _sent
    sent, _sent = _sent, None
    if sent is None:
        return False
    client.sender.pool = _FirstReply(client, sent)
    return True
