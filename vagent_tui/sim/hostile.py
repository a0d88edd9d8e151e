"""Hostile mode: the simulator's replies carry text meant to drive a terminal.

`vagent-tui sim --hostile` and `vagent-tui --demo --hostile` serve the usual data with
every display text replaced by strings an attacker would plant in a name: escape
sequences (OSC 52 writes the clipboard, OSC 0 retitles the window, ``ESC[2J`` clears
the screen, ``ESC[?1049l`` leaves the alternate screen, a C1 CSI), bidi overrides,
zero-width characters, newlines, a NUL, a 10,000-character value, and Textual/Rich
markup (``[@click=...]`` would run an action, a lone ``[/]`` ended the app). Every list
of records also repeats its first record, so keys (an IP, a URL, an id) come twice.

It works mostly on the replies, not on the state: the rules of the simulator stay as
they are, and keys the console sends back (ids, IPs, URLs, types, paths) are left alone
in the replies so that every screen still works. Keys that may hold any text get hostile
records of their own in the state instead (`plant_keys`: a webhook URL, a relay type, a
workspace path carrying escape sequences), so they stay consistent when sent back.
Values with a type of their own (times, statuses that drive polling, enumerations) are
left alone: a status no client knows is the ``unknown-status`` fault's job; a recording's
``state`` and a migration's ``history`` statuses are only shown, so they are planted.
Error replies get a hostile ``message``. The choice of string is deterministic.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Awaitable, Callable, MutableMapping
from itertools import count
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from vagent_tui.sim.state import SimState

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
        "id", "ip", "url", "token", "type", "path", "slug", "appId", "key", "uuid", "routes",
        "agentVoice", "statusEndpoint", "cdpUrl", "sampleUrl", "imageUrl", "docsPage",
        "fromNumber", "toNumber",  # a call's caller: sent back by K (GET/POST /context)
        "messageUuid",  # matched in GET /messages/recent (POST /agent/receiveMessage)
        # Values with a type of their own (times, enumerations, flags as text).
        "accountType", "status", "analysisStatus", "finalized", "mode",
        "timestamp", "date", "updatedAt", "expiresAt", "createdAt", "startedAt",
        "deliveryProtocol", "rotationMinutes", "autoRecordingNotification", "source",
        "activeHours", "start", "end", "timezone", "vidaPhoneNumber", "kind", "version",
        "number",
        # Names the console sends back as keys (a numbering provider's credential keys).
        "configFields",
    }
)  # fmt: skip
"""Keys whose string values are served as they are."""

_ID_KEY = re.compile(r"(Id|Ids|At|Timestamp)$")

LOGS = frozenset({"history"})
"""Lists whose records are only shown (a migration's statuses so far): every text planted."""

KEY_PAYLOAD = "\x1b]52;c;SGFja2Vk\x07\x1b]0;pwned\x07\x9b2J\u202e[bold]"
"""Hostile text that stays a usable key: no whitespace (the simulator's URL rule), no
``/`` (a relay type travels as one path segment)."""


class Planter:
    """Replaces display texts in a reply with `PAYLOADS`, each in turn. A text keeps the
    payload it was first given (by its key and value), so one record reads the same on
    every read, as a platform holding hostile names serves them: a change planned on a
    read is still what the next read holds. A payload written back stays itself. Error
    messages take the next payload each time."""

    def __init__(self) -> None:
        self._turn = count()
        self._given: dict[tuple[str, str], str] = {}

    def next(self) -> str:
        return PAYLOADS[next(self._turn) % len(PAYLOADS)]

    def planted(self, key: str, value: str) -> str:
        if value in _PAYLOAD_SET:
            return value
        given = self._given.get((key, value))
        if given is None:
            given = self._given[(key, value)] = self.next()
        return given

    def reply(self, value: Any, key: str = "", *, log: bool = False) -> Any:
        """A copy of a decoded JSON reply with display texts planted and lists doubled.

        The first record of a list comes twice, identical: every key a console may use
        for a row (an id, an IP, a URL, a function's or a template's name) repeats.
        """
        if isinstance(value, dict):
            return {k: self.reply(v, k, log=log) for k, v in value.items()}
        if isinstance(value, list):
            in_log = log or key in LOGS
            items = [self.reply(item, key, log=in_log) for item in value]
            if items and isinstance(value[0], dict):
                items.insert(1, copy.deepcopy(items[0]))  # the first record, twice
            return items
        if isinstance(value, str) and value and not (_time(key) if log else _kept(key)):
            return self.planted(key, value)
        return value

    def error(self, value: Any) -> Any:
        if isinstance(value, dict) and isinstance(value.get("message"), str):
            return {**value, "message": f"{self.next()} ({value['message']})"}
        return value


_PAYLOAD_SET = frozenset(PAYLOADS)


def _kept(key: str) -> bool:
    return key in KEPT_KEYS or bool(_ID_KEY.search(key))


def _time(key: str) -> bool:
    return key in ("at", "timestamp") or key.endswith("At")


def plant_keys(state: SimState) -> None:
    """Give the state records whose keys are hostile text that stays a usable key.

    Every account with webhooks gets a webhook whose URL carries escape sequences and
    markup (still an http(s) URL with a host: it can be deleted); every relay owner a
    relay whose type (added to the known relay types), URL and header name do; every
    SIP trunk an outbound route whose host does; every Computer Agent a workspace file
    whose path does. The webhook and the relay go first, so that the list's repeated
    first record is theirs.
    """
    for account_id, hooks in state.webhooks.items():
        hooks.insert(0, {
            "userId": account_id, "label": "hostile key", "timestamp": 1_700_000_000,
            "url": f"https://hooks.hostile.example.com/{KEY_PAYLOAD}", "type": "conversation",
        })  # fmt: skip
    rtype = f"{KEY_PAYLOAD}relay"
    for relays in state.relays.values():
        if relays:
            relay = {
                "type": rtype,
                "url": f"https://relay.hostile.example.com/{KEY_PAYLOAD}",
                "timeout": 5000,
                "headers": [{f"X-{KEY_PAYLOAD}": "vida"}],
                "successStatusCodes": [200],
            }
            relays_first = {rtype: relay, **relays}
            relays.clear()
            relays.update(relays_first)
    if not any(t["name"] == rtype for t in state.relay_types):
        # A type the platform knows, or it would be 404 "not supported" everywhere.
        state.relay_types.insert(0, {"name": rtype, "description": "hostile key"})
    for trunk in state.sip_trunk.values():
        # a SIP outbound route the console lists and sends back to remove it
        trunk["routes"].insert(0, f"{KEY_PAYLOAD}.hostile.example.com:5060")
    for files in state.files.values():
        path = f"notes/{KEY_PAYLOAD}.txt"
        files[path] = {"path": path, "size": 10, "mode": "0644",
                       "updatedAt": "2024-01-01T00:00:00.000Z"}  # fmt: skip


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
        passing = False

        async def keep(message: Message) -> None:
            nonlocal passing
            if message["type"] == "http.response.start":
                start.update(message)
                headers = message.get("headers", [])
                # Only JSON is planted here: another body (a streamed CSV file, planted
                # by its route) goes out as it comes, never held whole.
                passing = not any(k.lower() == b"content-type" and b"json" in v for k, v in headers)
                if passing:
                    await send(message)
                return
            if passing:
                await send(message)
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
