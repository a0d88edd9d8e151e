"""The rest of the agent: the models the platform offers (CONTRACT choice 120), the
agents' public links (choices 121-123), the key owner's details (125), messages in as a
contact would send them (126, 127)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

from vagent_tui.sim.account import Account
from vagent_tui.sim.common import OUTSIDE, SimError
from vagent_tui.sim.state import SimState, scope_rule

SUPPORTED_MODELS: dict[str, dict[str, Any]] = {
    "claude-haiku-4-5-20251001": {"provider": "anthropic", "canReason": True},
    "claude-opus-4-5-20251101": {"provider": "anthropic", "canReason": True},
    "claude-sonnet-4-5-20250929": {"provider": "anthropic", "canReason": True},
    "gemini-3-pro-preview": {"provider": "google", "canReason": True},
    "gemini-2.5-flash": {"provider": "google", "canReason": True},
    "gemini-2.5-pro": {"provider": "google", "canReason": True},
    "openai/gpt-oss-120b": {"provider": "groq", "canReason": True},
    "gpt-5.1": {"provider": "openai", "canReason": True},
    "gpt-4.1": {"provider": "openai", "canReason": False},
    # Not in the vendor's example, but named by the seeded configurations (`configs.py`).
    "gpt-4.1-mini": {"provider": "openai", "canReason": False},
    "o4-mini": {"provider": "openai", "canReason": True},
}
"""The vendor's example reply, and the two models the seeded agents use besides."""


def supported_models() -> dict[str, Any]:
    """``GET /models/supported``'s reply: a copy (a reply is never the state itself), with
    ``success`` beside the models as every reply of the simulator (choice 120)."""
    return {"success": True, **{key: dict(value) for key, value in SUPPORTED_MODELS.items()}}


# --------------------------------------------------------------------------- public links

SLUG = re.compile(r"^[a-z0-9](?:[a-z0-9-]{1,48}[a-z0-9])$")
BAD_SLUG = "slug must be 3 to 50 characters of a-z, 0-9 and -, not starting or ending with -"
SLUG_TAKEN = "Slug already in use"


def agent_of(state: SimState, caller: Account, target: Account, username: str) -> Account:
    """The agent account ``username`` names, if the key may act on it (choice 121)."""
    found = next((a for a in state.accounts.values() if a.username == username), None)
    if found is None and state.hostile:
        from vagent_tui.sim.hostile import PAYLOADS

        # Hostile replies plant text in every username the console is told, and the
        # console sends that back: it names the selected account (CONTRACT choice 121).
        if any(username == p.strip() for p in PAYLOADS):
            found = target
    if found is None:
        raise SimError(404, f"No account with username {username}")
    state.check(caller, found)
    if not state.is_within(target, found):
        raise SimError(403, OUTSIDE)
    if not found.is_agent:
        raise SimError(400, "targetUsername must name an agent account")
    return found


def checked_slug(raw: str) -> str:
    """``raw`` lowercased (as the vendor's example), or 400 when it is no slug."""
    slug = raw.strip().lower()
    if not SLUG.match(slug):
        raise SimError(400, BAD_SLUG)
    return slug


def holder(state: SimState, slug: str) -> int | None:
    return next((owner for owner, held in state.agent_links.items() if held == slug), None)


def link_of(state: SimState, agent: Account) -> str:
    """The agent's slug; one made from its username when it has none (the GET's "or
    create new one"), with a number added while another agent holds it."""
    slug = state.agent_links.get(agent.id)
    if slug is not None:
        return slug
    stem = re.sub(r"[^a-z0-9]+", "-", agent.username.lower()).strip("-")[:40] or "agent"
    stem = stem if len(stem) >= 3 else f"{stem}-agent"
    slug, n = stem, 1
    while holder(state, slug) is not None:
        n += 1
        slug = f"{stem}-{n}"
    state.agent_links[agent.id] = slug
    return slug


# --------------------------------------------------------------------------- own details

DETAILS = ("name", "firstName", "lastName", "email", "businessName", "businessAddress",
           "description", "image")  # fmt: skip
LEVEL_NAMES = {"partnerName": "partner", "resellerName": "reseller",
               "orgName": "organization", "accountName": "account"}  # fmt: skip
_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")


def update_details(account: Account, body: Any) -> dict[str, Any]:
    """``POST /account`` (choice 125): every field checked before any is set."""
    if not isinstance(body, dict) or not body:
        raise SimError(400, "body must be a nonempty object of account details")
    for key, value in body.items():
        if key not in DETAILS and key not in LEVEL_NAMES:
            raise SimError(400, f"{key} is not an account detail")
        if not isinstance(value, str):
            raise SimError(400, f"{key} must be a string")
        level = LEVEL_NAMES.get(key)
        if level is not None and account.account_type != level:
            raise SimError(400, f"{key} is for {level} accounts only")
        if key == "email" and not _EMAIL.match(value):
            raise SimError(400, "email is not an email address")
        if key in ("name", *LEVEL_NAMES) and not value.strip():
            raise SimError(400, f"{key} must not be empty")
    for key, value in body.items():
        if key in ("name", *LEVEL_NAMES):
            account.name = value.strip()
        elif key == "email":
            account.email_address = value
        else:
            account.profile[key] = value
    return {"success": True, "message": "Account updated", **account.read()}


# --------------------------------------------------------------------------- messages in

INVALID_USER = "Invalid Vida user"
RESELLER_OR_PARTNER = "Reseller or partner account required"


def agent_named(state: SimState, caller: Account, target: Account, name: str) -> Account:
    """The agent ``targetAgent`` names: an account id or a username (choice 126), within
    the key's reach and the selected account."""
    text = name.strip()
    if text.isascii() and text.isdecimal():
        found = state.accounts.get(int(text))
    else:
        found = next((a for a in state.accounts.values() if a.username == text), None)
    if found is None or not found.is_agent:
        raise SimError(400, INVALID_USER)
    state.check(caller, found)
    if not state.is_within(target, found):
        raise SimError(403, OUTSIDE)
    return found


def receive(state: SimState, caller: Account, target: Account, body: Any) -> dict[str, Any]:
    """``POST /agent/receiveMessage`` (choices 126, 127): the message and the agent's
    answer kept as message records; the reply names the message queued."""
    if scope_rule(caller)[0] not in (1, 2):
        raise SimError(403, RESELLER_OR_PARTNER)
    if not isinstance(body, dict):
        raise SimError(400, "body must be a JSON object")
    fields = {}
    for key in ("targetAgent", "sourceAddress", "message"):
        value = body.get(key)
        if not isinstance(value, str) or not value.strip():
            raise SimError(400, f"{key} is required")
        fields[key] = value.strip()
    hook = body.get("outboundMessageWebhookUrl")
    if hook is not None and (
        not isinstance(hook, str) or not hook.startswith(("http://", "https://"))
    ):
        raise SimError(400, "outboundMessageWebhookUrl must be an http(s) URL")
    agent = agent_named(state, caller, target, fields["targetAgent"])
    now = state.now()
    state.counter += 1
    uuid = f"msg-{agent.id}-{state.counter}"
    source, text = fields["sourceAddress"], fields["message"]
    answer = (f"Hi, this is {agent.name}. Thanks for your message (“{text[:200]}”): "
              "how can I help?")  # fmt: skip
    dialog = [{"role": "user", "content": text}, {"role": "assistant", "content": answer}]
    common = {"roomId": f"{agent.id}:in-{source}", "content-type": "text/plain",
              "type": "message", "source": "receiveMessage", "status": "success",
              "deliveredTo": hook or "the organization's outboundMessageWebhookUrl",
              "chatDialog": dialog}  # fmt: skip
    records = [
        {**common, "uuid": f"{uuid}-answer", "from": agent.id, "fromUser": agent.name,
         "to": source, "toUser": source, "message": answer, "direction": "outbound",
         "timestamp": int(now) + 1, "date": _iso(now + 1)},
        {**common, "uuid": uuid, "from": source, "fromUser": source, "to": agent.id,
         "toUser": agent.name, "message": text, "direction": "inbound",
         "timestamp": int(now), "date": _iso(now)},
    ]  # fmt: skip
    state.messages_in.setdefault(agent.id, [])[:0] = records
    return {"success": True, "messageUuid": uuid}


def received_for(state: SimState, agent_ids: Iterable[int]) -> list[dict[str, Any]]:
    """The messages in (and answers) of ``agent_ids``, newest first (`GET /messages/recent`)."""
    out = [m for agent in agent_ids for m in state.messages_in.get(agent, [])]
    return sorted(out, key=lambda m: -int(m["timestamp"]))


def _iso(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%dT%H:%M:%S.000Z")
