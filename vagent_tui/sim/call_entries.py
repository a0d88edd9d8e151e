"""One entry of the lazy call history: what entry ``q`` of a voice agent account holds.

Everything an entry says is derived from ``(SEED, account, q)``, nothing is stored: its
time from the account's phase on the grid (`vagent_tui.sim.calls`), its patterned fields
(type, direction, status, outcome) from ``PATTERNS[(q + pattern_shift(a)) % CYCLE]``,
the rest (caller, contact, room, ids, dialog, summary) from a hash of the three. The same
entry is the same whenever it is asked for: a page, an export, a transcript and a SIP
capture (`vagent_tui.sim.captures`) of one call agree.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from vagent_tui.sim.common import iso

if TYPE_CHECKING:
    from vagent_tui.sim.account import Account

SEED = 0x27CA115
CONTACTS = 400
"""Contacts per account: a contact's calls share one room."""
CONTACT_BASE = 7_000_000
"""Call rooms are ``<accountId>:<CONTACT_BASE + contact>`` (no inbox room uses those)."""
CYCLE = 100
_MASK = (1 << 64) - 1

PATTERNED = ("type", "direction", "eventType", "status", "agentOutcome")
"""Fields whose value follows ``PATTERNS``: filters on them are arithmetic."""

# (type, direction, status, agentOutcome, how many of the CYCLE)
_KINDS: tuple[tuple[str, str, str, str | None, int], ...] = (
    ("call", "inbound", "completed", "appointment_booked", 14),
    ("call", "inbound", "completed", "question_answered", 19),
    ("call", "inbound", "completed", "transferred", 7),
    ("call", "inbound", "completed", "callback_requested", 5),
    ("call", "inbound", "completed", "caller_hung_up", 6),
    ("call", "inbound", "missed", "voicemail", 6),
    ("call", "inbound", "failed", None, 5),
    ("call", "outbound", "completed", "appointment_booked", 4),
    ("call", "outbound", "completed", "question_answered", 3),
    ("call", "outbound", "completed", "callback_requested", 3),
    ("call", "outbound", "missed", "voicemail", 5),
    ("call", "outbound", "failed", None, 3),
    ("sms", "inbound", "completed", "question_answered", 8),
    ("sms", "inbound", "completed", "appointment_booked", 3),
    ("sms", "inbound", "failed", None, 1),
    ("sms", "outbound", "completed", "question_answered", 4),
    ("sms", "outbound", "completed", "callback_requested", 2),
    ("sms", "outbound", "failed", None, 2),
)


def _patterns() -> tuple[dict[str, Any], ...]:
    rows: list[dict[str, Any]] = []
    for kind, direction, status, outcome, n in _KINDS:
        row = {"type": kind, "direction": direction, "eventType": f"{direction}-{kind}",
               "status": status, "agentOutcome": outcome}  # fmt: skip
        rows.extend(dict(row) for _ in range(n))
    assert len(rows) == CYCLE
    random.Random(SEED).shuffle(rows)
    return tuple(rows)


PATTERNS = _patterns()
EVENT_TYPES = ("inbound-call", "outbound-call", "inbound-sms", "outbound-sms")
OUTCOMES = tuple(sorted({k[3] for k in _KINDS if k[3]}))
STATUSES = ("completed", "missed", "failed")

_FAILURES = ("carrier_error", "agent_timeout", "transfer_failed", "media_error")
_FIRST = ["Jordan", "Maria", "Wei", "Aisha", "Lucas", "Priya", "Mateo", "Chloe", "Omar",
          "Hannah", "Diego", "Yuki", "Noah", "Fatima", "Liam", "Sofia"]  # fmt: skip
_LAST = ["Nguyen", "Garcia", "Smith", "Okafor", "Müller", "Rossi", "Kim", "Dubois",
         "Haddad", "Johnson", "Silva", "Tanaka"]  # fmt: skip
_ASKS = {
    "appointment_booked": ("I'd like to book an appointment, is Thursday possible?",
                           "Thursday at 2 pm works, thanks."),
    "question_answered": ("What are your opening hours this weekend?",
                          "Great, that's all I needed."),
    "transferred": ("I need to speak with someone about my invoice.",
                    "Sure, I'll hold."),
    "callback_requested": ("Can someone call me back this afternoon?",
                           "After 3 pm is best."),
    "caller_hung_up": ("Hello? Is this the right number?", "..."),
    "voicemail": ("", ""),
}  # fmt: skip
_ANSWERS = {
    "appointment_booked": "You're booked for Thursday at 2 pm. You'll get a reminder.",
    "question_answered": "We're open 9 am to 1 pm on Saturday and closed on Sunday.",
    "transferred": "Let me transfer you to our billing team now.",
    "callback_requested": "Noted: someone will call you back after 3 pm today.",
    "caller_hung_up": "Yes, you've reached us. How can I help?",
    "voicemail": "",
}
_SUMMARIES = {
    "appointment_booked": "Caller booked an appointment for Thursday 2 pm.",
    "question_answered": "Caller asked about weekend opening hours; answered.",
    "transferred": "Caller asked about an invoice; transferred to billing.",
    "callback_requested": "Caller asked for a call back after 3 pm.",
    "caller_hung_up": "Caller hung up before stating a request.",
    "voicemail": "No answer; voicemail left.",
}


def mix(x: int) -> int:
    """splitmix64 finaliser: a cheap, well-spread integer hash."""
    x = (x + 0x9E3779B97F4A7C15) & _MASK
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK
    return x ^ (x >> 31)


def phase(account_id: int, step: int) -> int:
    return mix(SEED ^ (account_id * 0x9E3779B1)) % step


def pattern_shift(account_id: int) -> int:
    """``g(a)``: where the account enters the cycle of `PATTERNS`."""
    return mix(SEED ^ 0x5EED ^ (account_id << 20)) % CYCLE


def _entry_hash(account_id: int, q: int) -> int:
    return mix(SEED ^ (account_id << 40) ^ (q * 0x100000001B3))


def _uuid(h: int) -> str:
    a, b = mix(h ^ 0xA), mix(h + 0xB)
    hexed = f"{a:016x}{b:016x}"
    return f"{hexed[:8]}-{hexed[8:12]}-4{hexed[13:16]}-a{hexed[17:20]}-{hexed[20:32]}"


def _phone(x: int) -> str:
    return f"+1{200 + x % 800:03d}555{(x >> 12) % 10000:04d}"


def sip_call_id(h: int, account_id: int, at: int) -> str:
    """The SIP Call-ID of a call (`vagent_tui.sim.captures` reads the account and the
    time back from it: nothing is stored)."""
    return f"{mix(h ^ 0xC) & 0xFFFFFFFFFFFF:012x}-{account_id}-{at}@sbc.sim.example"


def text_of(value: Any) -> str:
    """A field's value as a filter compares it (and as a CSV cell shows it).

    Text as it is, ``true``/``false``, numbers in JSON form, ``null`` as the empty
    text, lists and objects as compact JSON.
    """
    if type(value) is str:  # exactly str; a subclass is shown below like any other value
        return value
    kind = type(value)
    if value is None:
        return ""
    if kind is bool:
        return "true" if value else "false"
    if kind is int:
        return str(value)
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def lookup(entry: Mapping[str, Any], path: str) -> tuple[bool, Any]:
    """``(found, value)`` of a top-level or dotted field (``metadata.convoId``)."""
    value: Any = entry
    for part in path.split("."):
        if not isinstance(value, Mapping) or part not in value:
            return False, None
        value = value[part]
    return True, value


# ---------------------------------------------------------------------- one entry


@dataclass(frozen=True, slots=True)
class Agent:
    """What an entry needs of its account."""

    id: int
    name: str
    org_id: int | None
    phase: int
    shift: int


def agent_of(account: Account, step: int) -> Agent:
    org = account.organization_id if account.organization_id is not None else account.parent_id
    return Agent(account.id, account.name, org, phase(account.id, step),
                 pattern_shift(account.id))  # fmt: skip


def entry(agent: Agent, q: int, step: int) -> dict[str, Any]:
    """Log entry ``q`` of ``agent`` (free-form, as ``GET /logs`` serves it)."""
    a = agent.id
    h = _entry_hash(a, q)
    pat = PATTERNS[(q + agent.shift) % CYCLE]
    at = q * step + agent.phase
    kind, status, outcome = pat["type"], pat["status"], pat["agentOutcome"]
    contact = h % CONTACTS
    ours, theirs = _phone(mix(a)), _phone(mix((a << 16) ^ contact))
    inbound = pat["direction"] == "inbound"
    if kind == "sms":
        duration = 0
    elif status == "completed":
        duration = 30 + (h >> 8) % 870
    elif status == "failed":
        duration = (h >> 8) % 20
    else:
        duration = 0
    failure = _FAILURES[(h >> 20) % len(_FAILURES)] if status == "failed" else None
    if failure is not None:
        summary = f"{'Call' if kind == 'call' else 'Message'} failed: {failure}."
    else:
        summary = _SUMMARIES[outcome or "question_answered"]
    first, last = _FIRST[(h >> 24) % len(_FIRST)], _LAST[(h >> 28) % len(_LAST)]
    hexed = _uuid(h)
    uuid = f"{hexed}:{at}" if kind == "call" else f"{hexed}:{at}:{at + 60 + (h >> 32) % 600}"
    return {
        "id": f"log_{a}_{q}",
        "timestamp": iso(at),
        "account_id": a,
        "org_id": agent.org_id,
        "eventType": pat["eventType"],
        "type": kind,
        "direction": pat["direction"],
        "status": status,
        "agentOutcome": outcome,
        "duration": duration,
        "fromNumber": theirs if inbound else ours,
        "toNumber": ours if inbound else theirs,
        "contactName": f"{first} {last}",
        "roomId": f"{a}:{CONTACT_BASE + contact}",
        "uuid": uuid,
        "summary": summary,
        "failureReason": failure,
        "usdRate": round(duration * 0.0015 + (0.0079 if kind == "sms" else 0.0), 4),
        "agentConfigId": f"cfg-{a}",
        "sipCallId": sip_call_id(h, a, at) if kind == "call" else None,
        "metadata": {
            "convoId": f"c_{a}_{q}",
            "tokens": 200 + (h >> 36) % 3000,
            "latencyMs": 300 + (h >> 48) % 1200,
        },
    }


def dialog(agent: Agent, q: int, log: Mapping[str, Any]) -> list[dict[str, str]]:
    """The turns of entry ``q``: ``[{role, content}]`` (empty for a voicemail)."""
    outcome = log.get("agentOutcome") or "question_answered"
    if log.get("status") == "failed":
        if log.get("type") == "sms":
            return [{"role": "user", "content": "Are you open today?"}]
        return [{"role": "assistant", "content": f"Thanks for calling {agent.name}."}]
    if outcome == "voicemail":
        return []
    ask, thanks = _ASKS[outcome]
    turns = [
        {"role": "assistant", "content": f"Thanks for calling {agent.name}, how can I help?"},
        {"role": "user", "content": ask},
        {"role": "assistant", "content": _ANSWERS[outcome]},
    ]
    h = _entry_hash(agent.id, q)
    for k in range((h >> 40) % 4):
        turns.append({"role": "user", "content": "One more thing: do you have parking?"})
        turns.append({"role": "assistant", "content": f"Yes, there are {2 + k} spaces behind "
                                                      "the building."})  # fmt: skip
    turns.append({"role": "user", "content": thanks})
    return turns


def conversation(agent: Agent, q: int, step: int) -> dict[str, Any]:
    """Entry ``q`` as a message record (``GET /messages/recent``, the batch's items)."""
    log = entry(agent, q, step)
    at = q * step + agent.phase
    turns = dialog(agent, q, log)
    inbound = log["direction"] == "inbound"
    contact_id = 100_000_000 + int(log["roomId"].partition(":")[2])
    ours, theirs = (agent.id, agent.name), (contact_id, log["contactName"])
    sender, receiver = (theirs, ours) if inbound else (ours, theirs)
    call = log["type"] == "call"
    attachments = []
    if call and log["status"] == "completed":
        attachments.append({
            "content-type": "audio/mp3", "filename": "recording.mp3",
            "content-url": f"https://cdn.example.com/calls/{agent.id}/{q}.mp3",
            "attachmentType": "call",
        })  # fmt: skip
    return {
        "from": sender[0],
        "fromUser": sender[1],
        "to": receiver[0],
        "toUser": receiver[1],
        "rate": log["usdRate"],
        "usdRate": log["usdRate"],
        "timestamp": at,
        "date": iso(at),
        "message": turns[-1]["content"] if turns else log["summary"],
        "content-type": "text/plain",
        "disposition-notification": None,
        "roomId": log["roomId"],
        "status": "failed" if log["status"] == "failed" else "success",
        "attachments": attachments,
        "isLive": False,
        "aiAgent": True,
        "aiReward": None,
        "aiRewardUsd": None,
        "aiLeadRating": None,
        "aiLeadRatingReason": None,
        "aiAgentOverride": None,
        "gift": False,
        "source": "voice" if call else "sms",
        "uuid": log["uuid"],
        "campaignId": log["agentConfigId"],
        "fromNumber": log["fromNumber"],
        "toNumber": log["toNumber"],
        "notify": False,
        "targetInbox": "inbox",
        "type": log["type"],
        "duration": log["duration"],
        "direction": log["direction"],
        "missedCall": log["status"] == "missed",
        "bypassAgent": False,
        "cnamSpam": False,
        "selfCall": False,
        "callingUserIsContact": inbound,
        "agentOutcome": log["agentOutcome"],
        "summary": log["summary"],
        "callDialog": turns if call else [],
        "chatDialog": [] if call else turns,
        "agentReplyCount": sum(1 for t in turns if t["role"] == "assistant"),
        "campaign": False,
        "diversion": None,
        "voicemailRecording": (
            f"https://cdn.example.com/voicemail/{agent.id}/{q}.mp3"
            if log["agentOutcome"] == "voicemail" else None
        ),
        "eventType": log["eventType"],
        "forcedCampaign": False,
    }  # fmt: skip


def schema_fields() -> list[str]:
    """The inferred field list (``includeFields``): top-level names, then dotted ones."""
    sample = entry(Agent(1, "x", 1, 0, 0), 1, 60)
    dotted = [f"{k}.{sub}" for k, v in sample.items() if isinstance(v, dict) for sub in v]
    return [*sample, *dotted]


CSV_COLUMNS: tuple[str, ...] = tuple(name for name in schema_fields() if name != "metadata")
"""The CSV header when no ``fields`` are asked for: every field, ``metadata`` flattened."""
