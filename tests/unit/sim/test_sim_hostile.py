"""The simulator's hostile mode plants hostile text and repeated keys in its replies."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import quote

import httpx
import pytest

from vagent_tui.sim import create_app
from vagent_tui.sim.hostile import KEPT_KEYS, KEY_PAYLOAD, LOGS, PAYLOADS, Planter, plant_keys

from .helpers import API, FakeClock

AGENT, RESELLER, COMPUTER = 1111, 1100, 1118
READS: list[tuple[str, dict[str, Any]]] = [
    ("/account", {}),
    ("/account", {"targetAccountId": AGENT}),
    ("/listResellers", {}),
    ("/listOrganizations", {"targetResellerId": RESELLER}),
    ("/listAccounts", {"targetOrganizationId": 1110}),
    ("/searchAccounts", {"queryText": "a"}),
    ("/tokens", {}),
    ("/junkConversations", {"targetAccountId": AGENT, "pageSize": 4}),
    ("/conversations", {"targetAccountId": AGENT, "pageSize": 4}),
    ("/messages/1111:240", {"targetAccountId": AGENT}),
    ("/sip/ipWhitelist", {}),
    ("/webhooks", {}),
    ("/webhookRelay/types", {}),
    ("/webhookRelay", {}),
    ("/webhookRelay/twilioSMS", {}),
    ("/agent/functions", {"targetAccountId": AGENT}),
    ("/agent/voices", {"targetAccountId": AGENT}),
    ("/agentEventRules/staging", {"targetAccountId": AGENT}),
    ("/agentEventRules/default", {"targetAccountId": AGENT}),
    ("/agent/cfg-1111", {"targetAccountId": AGENT}),
    ("/agent/cfg-1111/versions", {"targetAccountId": AGENT, "includeData": "true"}),
    ("/computer/accounts", {}),
    (f"/computer/accounts/{COMPUTER}/workflow-recordings/status", {}),
    (f"/computer/accounts/{COMPUTER}/workspace/files", {}),
    ("/templates", {"targetAccountId": RESELLER}),
    ("/templates/tpl-dental-reception", {"targetAccountId": RESELLER}),
    ("/templates/migrations/{task}", {"targetAccountId": RESELLER}),
]
"""Every read the simulator serves (a recording and a migration task started first)."""


class Pair:
    """The same simulator twice: plain (with the hostile keys of the state) and hostile."""

    def __init__(self, plain: httpx.AsyncClient, hostile: httpx.AsyncClient) -> None:
        self.plain, self.hostile = plain, hostile
        self.task = ""

    async def both(self, method: str, path: str, **params: Any) -> tuple[Any, Any]:
        query = {"token": "demo-partner", **params}
        replies = [
            await client.request(method, API + path.format(task=self.task), params=query)
            for client in (self.plain, self.hostile)
        ]
        assert replies[0].status_code == replies[1].status_code < 300, replies[1].text
        return replies[0].json(), replies[1].json()


@pytest.fixture
async def pair() -> AsyncIterator[Pair]:
    plain_app = create_app(clock=FakeClock())
    plant_keys(plain_app.state.sim)  # the same records, served as they are
    hostile_app = create_app(clock=FakeClock(), hostile=True)
    plain_transport = httpx.ASGITransport(app=plain_app)
    hostile_transport = httpx.ASGITransport(app=hostile_app)
    async with (
        httpx.AsyncClient(transport=plain_transport, base_url="http://sim") as plain,
        httpx.AsyncClient(transport=hostile_transport, base_url="http://sim") as hostile,
    ):
        both = Pair(plain, hostile)
        for client in (plain, hostile):
            reply = await client.post(
                f"{API}/computer/accounts/{COMPUTER}/browser/automation-sessions",
                params={"token": "demo-partner"},
                json={"ttlSeconds": 1800},
            )
            assert reply.status_code < 300, reply.text
            reply = await client.post(
                f"{API}/computer/accounts/{COMPUTER}/workflow-recordings/start",
                params={"token": "demo-partner"},
                json={"slotId": reply.json()["slot"]},
            )
            assert reply.status_code < 300, reply.text
            reply = await client.post(
                f"{API}/templates/tpl-dental-reception/migrate",
                params={"token": "demo-partner", "targetAccountId": RESELLER},
                json={"dryRun": True},
            )
            assert reply.status_code < 300, reply.text
            both.task = reply.json()["taskId"]
        yield both


def kept(key: str, log: bool) -> bool:
    """A value the hostile mode serves as it is (an identity, a time, a typed value)."""
    if log:
        return key == "at"
    return key in KEPT_KEYS or key.endswith(("Id", "Ids", "At", "Timestamp"))


def check(plain: Any, hostile: Any, where: str, key: str = "", log: bool = False) -> int:
    """Assert ``hostile`` is ``plain`` planted; returns how many texts were planted."""
    if isinstance(plain, dict):
        assert isinstance(hostile, dict) and hostile.keys() == plain.keys(), where
        return sum(check(plain[k], hostile[k], f"{where}.{k}", k, log) for k in plain)
    if isinstance(plain, list):
        log = log or key in LOGS
        assert isinstance(hostile, list), where
        if plain and isinstance(plain[0], dict):
            assert len(hostile) == len(plain) + 1, f"{where}: the first record is not repeated"
            assert hostile[0] == hostile[1], f"{where}: the repeated record differs"
            hostile = hostile[1:]
        assert len(hostile) == len(plain), where
        return sum(
            check(p, h, f"{where}[{i}]", key, log)
            for i, (p, h) in enumerate(zip(plain, hostile, strict=True))
        )
    if isinstance(plain, str) and plain and not kept(key, log):
        assert hostile in PAYLOADS, f"{where}: {hostile!r} is not hostile"
        return 1
    assert hostile == plain, f"{where}: changed although kept"
    return 0


@pytest.mark.parametrize(("path", "params"), READS, ids=[p + str(q) for p, q in READS])
async def test_every_text_of_every_read_is_hostile(
    pair: Pair, path: str, params: dict[str, Any]
) -> None:
    plain, hostile = await pair.both("GET", path, **params)
    planted = check(plain, hostile, path)
    assert planted > 0 or any(KEY_PAYLOAD in t for t in texts(hostile)), f"{path}: not hostile"


async def test_the_fields_that_feed_the_screens_are_planted(pair: Pair) -> None:
    """The fields the issue names (Select options among them) are among those planted."""
    wanted = {
        "/agent/voices": ["name", "description", "languages", "provider", "compatibleS2SEngines"],
        "/agent/functions": ["label", "details", "reason", "placeholder", "name"],
        "/agentEventRules/default": ["title", "agentInstructions", "welcomeMessage", "brandName"],
        "/agent/cfg-1111/versions": ["title"],
        "/tokens": ["description"],
        "/sip/ipWhitelist": ["label"],
        "/webhooks": ["label"],
        "/webhookRelay/types": ["name", "description"],
        "/templates": ["name"],
        "/templates/migrations/{task}": ["message", "status"],  # status: in the history
        "/computer/accounts": ["name"],
        f"/computer/accounts/{COMPUTER}/workflow-recordings/status": ["state"],
        "/junkConversations": [
            "name", "lastMessage", "unregisteredDisplayName", "destinationInboxType",
        ],
        "/listResellers": ["name", "username"],
        "/messages/1111:240": ["message", "fromUser", "toUser", "attachments"],
    }  # fmt: skip
    params = {p: q for p, q in READS}
    for path, keys in wanted.items():
        _, hostile = await pair.both("GET", path, **params[path])
        planted = set(planted_keys(hostile))
        assert set(keys) <= planted, f"{path}: {sorted(set(keys) - planted)} not planted"


def texts(value: Any) -> list[str]:
    if isinstance(value, dict):
        return [t for v in value.values() for t in texts(v)] + [str(k) for k in value]
    if isinstance(value, list):
        return [t for v in value for t in texts(v)]
    return [value] if isinstance(value, str) else []


def planted_keys(value: Any, key: str = "") -> list[str]:
    if isinstance(value, dict):
        return [k2 for k, v in value.items() for k2 in planted_keys(v, k)]
    if isinstance(value, list):
        return [k2 for v in value for k2 in planted_keys(v, key)]
    return [key] if isinstance(value, str) and value in PAYLOADS else []


async def test_keys_repeat_in_every_list(pair: Pair) -> None:
    """Two SIP entries of one IP, two webhooks of one URL, and so on."""
    params = {p: q for p, q in READS}
    for path, items, key in [
        ("/sip/ipWhitelist", "whitelist", "ip"),
        ("/webhooks", "webhooks", "url"),
        ("/agent/voices", "voices", "id"),
        ("/agent/functions", "functions", "name"),
        (f"/computer/accounts/{COMPUTER}/workspace/files", "files", "path"),
        ("/computer/accounts", "accounts", "id"),
        ("/agent/cfg-1111/versions", "versions", "versionId"),
        ("/junkConversations", "rooms", "roomId"),
        ("/templates", "templates", "id"),
        ("/tokens", "tokens", "token"),
        ("/webhookRelay", "configs", "type"),
        ("/listResellers", "resellers", "id"),
    ]:
        _, hostile = await pair.both("GET", path, **params[path])
        values = [record[key] for record in hostile[items]]
        assert len(values) > len(set(values)), f"{path}: no {key} repeated"


async def test_hostile_keys_are_served_and_still_work(pair: Pair) -> None:
    """A webhook URL, a relay type and a workspace path carrying escape sequences."""
    _, hooks = await pair.both("GET", "/webhooks")
    url = hooks["webhooks"][0]["url"]
    assert KEY_PAYLOAD in url
    _, relays = await pair.both("GET", "/webhookRelay")
    rtype = relays["configs"][0]["type"]
    assert KEY_PAYLOAD in rtype and KEY_PAYLOAD in relays["configs"][0]["url"]
    _, files = await pair.both("GET", f"/computer/accounts/{COMPUTER}/workspace/files")
    assert any(KEY_PAYLOAD in f["path"] for f in files["files"])
    # Sent back, they name their record: a read, then deletes that succeed.
    token = {"token": "demo-partner"}
    client = pair.hostile
    relay_path = f"{API}/webhookRelay/{quote(rtype, safe='')}"
    reply = await client.get(relay_path, params=token)
    assert reply.status_code == 200 and reply.json()["config"]["type"] == rtype
    reply = await client.delete(relay_path, params=token)
    assert reply.status_code == 200, reply.text
    reply = await client.request("DELETE", f"{API}/webhooks", params=token, json={"url": url})
    assert reply.status_code == 200, reply.text
    _, hooks = await pair.both("GET", "/webhooks")  # plain still has it, hostile not
    assert all(h["url"] != url for h in hooks["webhooks"])


async def test_error_messages_are_hostile_too() -> None:
    app = create_app(hostile=True)
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://sim") as client:
        for path in ("/webhookRelay/nosuchtype", "/nosuchpath", "/agent/functions"):
            reply = await client.get(API + path, params={"token": "demo-partner"})
            body = reply.json()
            assert reply.status_code >= 400 and body["success"] is False
            assert any(body["message"].startswith(p) for p in PAYLOADS), body


async def test_without_the_switch_nothing_is_planted() -> None:
    app = create_app(clock=FakeClock())
    hooks = app.state.sim.webhooks.values()
    assert not any(KEY_PAYLOAD in hook["url"] for hooks_of in hooks for hook in hooks_of)
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://sim") as client:
        for path, params in READS:
            if "{task}" in path or "workflow-recordings" in path:
                continue
            reply = await client.get(API + path, params={"token": "demo-partner", **params})
            assert reply.status_code == 200, path
            assert not planted_keys(reply.json()), path
            assert "\x1b" not in reply.text and "\\u001b" not in reply.text, path
            body = reply.json()
            lists = [body] if isinstance(body, list) else body.values()  # a bare array
            records = [v for v in lists if isinstance(v, list) and v]
            for items in records:
                if isinstance(items[0], dict) and len(items) > 1:
                    assert items[0] != items[1], f"{path}: a record repeated"


def test_every_payload_comes_in_turn_and_the_set_is_hostile() -> None:
    planter = Planter()
    assert [planter.next() for _ in PAYLOADS] == list(PAYLOADS)
    joined = "".join(PAYLOADS)
    for needle in ("\x1b]52;c;SGFja2Vk\x07", "\x1b]0;pwned\x07", "\x1b[2J", "\x1b[?1049l",
                   "\x9b2J", "\u202e", "\u200b", "\n", "\r", "\x00", "[/]", "[bold red]",
                   "[@click=app.screenshot()]", "[link=http://evil"):  # fmt: skip
        assert needle in joined
    assert max(len(p) for p in PAYLOADS) >= 10_000


def test_the_choice_is_deterministic() -> None:
    reply = {"items": [{"id": 1, "name": "a", "label": "b"}, {"id": 2, "name": "c"}]}
    assert Planter().reply(reply) == Planter().reply(reply)
