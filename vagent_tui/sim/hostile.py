"""Hostile mode: the simulator's replies carry text meant to drive a terminal.

`vagent-tui sim --hostile` and `vagent-tui --demo --hostile` serve the usual data with
every display text replaced by strings an attacker would plant in a name: escape
sequences (OSC 52 writes the clipboard, OSC 0 retitles the window, ``ESC[2J`` clears
the screen, ``ESC[?1049l`` leaves the alternate screen, a C1 CSI), bidi overrides,
zero-width characters, newlines, a NUL, a 10,000-character value, and Textual/Rich
markup (``[@click=...]`` would run an action, a lone ``[/]`` ended the app). Every list
of records also repeats its first record, so keys (an IP, a URL, an id) come twice.

It works on the replies, not on the state: the state (and every rule of the simulator)
stays as it is, and keys the console sends back (ids, IPs, URLs, types, paths) are
left alone so that every screen still works. Values with a type of their own (times,
statuses, enumerations) are left alone too: their parsing is tested elsewhere. Error
replies get a hostile ``message``. The choice of string is deterministic.
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable, MutableMapping
from itertools import count
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

PAYLOADS: tuple[str, ...] = (
    "Acme \x1b]52;c;SGFja2Vk\x07 clip",
    "\x1b]0;pwned\x07 title",
    "wipe \x1b[2J\x1b[H screen",
    "leave \x1b[?1049l alt",
    "c1 \x9b2J csi",
    "bidi \u202eevil\u202c txt",
    "zero\u200bwidth\u200d",
    "two\nlines\rback",
    "[@click=app.screenshot()]click me[/]",
    "lone [/] close",
    "[bold red]loud",
    "[link=http://evil.example]link[/link]",
    "nul \x00 byte",
    "long " + "A" * 10_000,
)
"""The strings planted, in turn, in every display text."""

KEPT_KEYS = frozenset(
    {
        # Identities the console sends back or matches on.
        "id", "ip", "url", "token", "type", "path", "slug", "appId", "key", "uuid",
        "agentVoice", "statusEndpoint", "cdpUrl", "sampleUrl", "imageUrl", "docsPage",
        # Values with a type of their own (times, enumerations, flags as text).
        "accountType", "status", "state", "analysisStatus", "finalized", "mode",
        "timestamp", "date", "updatedAt", "expiresAt", "createdAt", "startedAt",
        "deliveryProtocol", "rotationMinutes", "autoRecordingNotification", "source",
        "activeHours", "start", "end", "timezone", "vidaPhoneNumber", "kind", "version",
    }
)  # fmt: skip
"""Keys whose string values are served as they are."""

_ID_KEY = re.compile(r"(Id|Ids|At|Timestamp)$")


class Planter:
    """Replaces display texts in a reply, in turn with each of `PAYLOADS`."""

    def __init__(self) -> None:
        self._turn = count()

    def next(self) -> str:
        return PAYLOADS[next(self._turn) % len(PAYLOADS)]

    def reply(self, value: Any, key: str = "") -> Any:
        """A copy of a decoded JSON reply with display texts planted and lists doubled."""
        if isinstance(value, dict):
            return {k: self.reply(v, k) for k, v in value.items()}
        if isinstance(value, list):
            items = [self.reply(item, key) for item in value]
            if items and isinstance(value[0], dict):
                items.insert(1, self.reply(value[0], key))  # the first record, twice
            return items
        if isinstance(value, str) and value and not _kept(key):
            return self.next()
        return value

    def error(self, value: Any) -> Any:
        if isinstance(value, dict) and isinstance(value.get("message"), str):
            return {**value, "message": f"{self.next()} ({value['message']})"}
        return value


def _kept(key: str) -> bool:
    return key in KEPT_KEYS or bool(_ID_KEY.search(key))


class HostileReplies:
    """ASGI middleware: JSON replies pass through a `Planter` on their way out."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.planter = Planter()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start: Message = {}
        body: list[bytes] = []

        async def keep(message: Message) -> None:
            if message["type"] == "http.response.start":
                start.update(message)
                return
            if message["type"] == "http.response.body":
                body.append(message.get("body", b""))
                if not message.get("more_body"):
                    await self._send(start, b"".join(body), send)
                return
            await send(message)

        await self.app(scope, receive, keep)

    async def _send(self, start: Message, raw: bytes, send: Send) -> None:
        headers = list(start.get("headers", []))
        is_json = any(k.lower() == b"content-type" and b"json" in v for k, v in headers)
        if is_json:
            try:
                decoded = json.loads(raw)
            except ValueError:
                decoded = None  # a malformed reply on purpose (faults): left as it is
            else:
                status = int(start.get("status", 200))
                planted = (
                    self.planter.error(decoded) if status >= 400 else self.planter.reply(decoded)
                )
                raw = json.dumps(planted).encode("utf-8")
                headers = [(k, v) for k, v in headers if k.lower() != b"content-length"]
                headers.append((b"content-length", str(len(raw)).encode("ascii")))
        await send({**start, "headers": headers})
        await send({"type": "http.response.body", "body": raw})
