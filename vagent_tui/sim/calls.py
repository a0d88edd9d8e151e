"""Lazy call history: log entry ``q`` of an agent account is computed from ``(account, q)``.

Nothing is stored: an account may hold 1,000,000 entries at no memory cost, and a page
of any query costs about O(pageSize + accounts in the query), not O(history).

The time grid (the simulator's choice; the platform publishes none):

* ``state.calls`` entries per voice agent account (default `DEFAULT_CALLS`), one every
  ``step = RETENTION // calls`` seconds (at least 1): entry ``q`` of account ``a`` happens
  at ``q * step + phase(a)`` epoch seconds, ``phase(a)`` in ``[0, step)`` derived from
  the account id. An account's history is the ``calls`` entries of the window
  ``(now - calls * step, now]``: as the clock moves, new entries appear at the top and
  the oldest leave (what a follow poller sees);
* entry ``q`` is the same whenever it is asked for (derived from ``(SEED, a, q)``);
* several accounts merge newest first: because ``phase < step``, the order is by ``q``
  descending, then by phase descending (then by id). So a query over ``K`` accounts is a
  grid of rows (one ``q`` each) of ``K`` positions, clipped at both ends by the time
  range: position ``v`` of the merged stream is ``(Q - q) * K + p``, and the first and
  last valid ``v`` follow from two bisections over the phases.

Filters on the *patterned* fields (``type``, ``direction``, ``eventType``, ``status``,
``agentOutcome``) stay arithmetic: those fields of entry ``(a, q)`` are
``PATTERNS[(q + g(a)) % CYCLE]``, so a full row's matches depend only on ``q % CYCLE``
(their count per row is precomputed, a period of rows is skipped at once). Filters on
``account_id``/``org_id`` narrow the accounts; ``id`` and ``metadata.convoId`` name one
entry. Any other ``key=value`` filter (a top-level or dotted field) is checked entry by
entry over the range: O(range), bounded by the time range asked for.

This module is one thing: the lazy call history, the one model every log read and export
is computed from.
"""

from __future__ import annotations

import bisect
import functools
import json
import random
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from vagent_tui.sim.common import iso

if TYPE_CHECKING:
    from vagent_tui.sim.state import Account, SimState

SEED = 0x27CA115
DEFAULT_CALLS = 2_000
"""Entries per voice agent account unless ``state.calls`` says otherwise."""
MAX_CALLS = 1_000_000
RETENTION = 90 * 86_400
"""The history spans about this many seconds (``calls * step``)."""
DEFAULT_WINDOW = 7 * 86_400
"""``start`` defaults to ``end`` minus this (the reference: the last 7 days)."""
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


def step_of(calls: int) -> int:
    """Seconds between two entries of one account."""
    return max(1, RETENTION // max(1, calls))


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


# ---------------------------------------------------------------------- queries


@dataclass(frozen=True)
class Filters:
    """The filters of one query, sorted by how they can be answered."""

    patterned: tuple[tuple[str, str], ...] = ()
    accounts: tuple[tuple[str, str], ...] = ()
    """``account_id`` / ``org_id``: narrow the accounts."""
    named: tuple[tuple[str, str], ...] = ()
    """``id`` / ``metadata.convoId``: name one entry."""
    generic: tuple[tuple[str, str], ...] = ()

    @classmethod
    def of(cls, pairs: Sequence[tuple[str, str]]) -> Filters:
        groups: dict[str, list[tuple[str, str]]] = {"p": [], "a": [], "n": [], "g": []}
        for key, value in pairs:
            if key in PATTERNED:
                groups["p"].append((key, value))
            elif key in ("account_id", "org_id"):
                groups["a"].append((key, value))
            elif key in ("id", "metadata.convoId"):
                groups["n"].append((key, value))
            else:
                groups["g"].append((key, value))
        return cls(*(tuple(groups[k]) for k in "pang"))


def _residues(filters: Filters) -> frozenset[int]:
    return frozenset(
        i for i, pat in enumerate(PATTERNS)
        if all(text_of(pat[key]) == value for key, value in filters.patterned)
    )  # fmt: skip


def _named(value: str, prefix: str) -> tuple[int, int] | None:
    """``(account, q)`` of ``log_<a>_<q>`` / ``c_<a>_<q>``, or None."""
    head, _, rest = value.partition("_")
    left, _, right = rest.partition("_")
    if head != prefix or not (left.isdecimal() and right.isdecimal()):
        return None
    if len(left) > 18 or len(right) > 18:
        return None
    return int(left), int(right)


class AgentSet:
    """The accounts of a query in merge order (phase down, then id), with what the
    arithmetic needs of them. Built once per key, root and size of the world
    (`agents_below`), so a page of a 10,000-account query does not sort them again."""

    def __init__(self, agents: Iterable[Agent]) -> None:
        self.agents = sorted(agents, key=lambda a: (-a.phase, a.id))
        self.phases_up = sorted(a.phase for a in self.agents)
        self.shifts = [0] * CYCLE
        for agent in self.agents:
            self.shifts[agent.shift] += 1
        self.by_id = {a.id: a for a in self.agents}

    def __len__(self) -> int:
        return len(self.agents)


class Query:
    """One query's matches, newest first, over a set of accounts and a time range.

    Args:
        agents: the accounts the query covers (the key may select each).
        lo / hi: inclusive epoch-second bounds (already clipped to the retention).
        step: seconds between entries of one account.
        filters: what the entries must match.
    """

    def __init__(self, agents: Sequence[Agent] | AgentSet, lo: int, hi: int, step: int,
                 filters: Filters) -> None:  # fmt: skip
        if filters.accounts:
            chosen = list(agents.agents if isinstance(agents, AgentSet) else agents)
            for key, value in filters.accounts:
                attr = "org_id" if key == "org_id" else "id"
                chosen = [a for a in chosen if text_of(getattr(a, attr)) == value]
            agents = chosen
        group = agents if isinstance(agents, AgentSet) else AgentSet(agents)
        self.group = group
        self.step = step
        self.filters = filters
        self.agents = group.agents
        self.k = k = len(self.agents)
        self.residues = _residues(filters)
        self.everything = len(self.residues) == CYCLE
        self.lo, self.hi = lo, hi
        phases_up = group.phases_up
        self.top = hi // step
        if k == 0 or lo > hi or not self.residues:
            self.v_start = self.v_end = 0
        else:
            bottom = lo // step
            above_hi = k - bisect.bisect_right(phases_up, hi - self.top * step)
            at_or_above_lo = k - bisect.bisect_left(phases_up, lo - bottom * step)
            self.v_start = above_hi
            self.v_end = max(above_hi, (self.top - bottom) * k + at_or_above_lo)
        # Matches per full row, by q % CYCLE.
        if self.everything:
            self.per_row = [k] * CYCLE
        else:
            shifts = group.shifts
            self.per_row = [
                sum(n for s, n in enumerate(shifts) if n and (r + s) % CYCLE in self.residues)
                for r in range(CYCLE)
            ]
        self.per_period = sum(self.per_row)
        self.arithmetic = not filters.generic and not filters.named

    # -- positions

    def at(self, v: int) -> tuple[Agent, int]:
        return self.agents[v % self.k], self.top - v // self.k

    def _matches(self, agent: Agent, q: int) -> bool:
        return (q + agent.shift) % CYCLE in self.residues

    def _row_count(self, v: int, end: int) -> int:
        """Pattern matches among positions ``[v, end)`` of one row."""
        if self.everything:
            return end - v
        q = self.top - v // self.k
        base = (self.top - q) * self.k
        if v == base and end == base + self.k:
            return self.per_row[q % CYCLE]
        return sum(1 for p in range(v - base, end - base) if self._matches(self.agents[p], q))

    def _seek(self, skip: int) -> int | None:
        """``v`` of the pattern match after ``skip`` others, or None past the end."""
        if self.everything:
            v = self.v_start + skip
            return v if v < self.v_end else None
        v, k = self.v_start, self.k
        while v < self.v_end:
            row_end = (v // k + 1) * k
            end = min(row_end, self.v_end)
            if v % k == 0 and end == row_end and self.per_period:
                full_rows = (self.v_end - v) // k
                if skip >= self.per_period and full_rows >= CYCLE:
                    periods = min(skip // self.per_period, full_rows // CYCLE)
                    skip -= periods * self.per_period
                    v += periods * CYCLE * k
                    continue
            count = self._row_count(v, end)
            if skip < count:
                for w in range(v, end):
                    if self._matches(*self.at(w)):
                        if skip == 0:
                            return w
                        skip -= 1
            skip -= count
            v = end
        return None

    def _walk(self, v: int | None) -> Iterator[tuple[Agent, int]]:
        """Pattern matches from position ``v`` on, in order."""
        if v is None:
            return
        while v < self.v_end:
            agent, q = self.at(v)
            if self._matches(agent, q):
                yield agent, q
            v += 1

    def _named_candidates(self) -> list[tuple[Agent, int]] | None:
        if not self.filters.named:
            return None
        found: set[tuple[int, int]] | None = None
        for key, value in self.filters.named:
            named = _named(value, "log" if key == "id" else "c")
            these = {named} if named is not None else set()
            found = these if found is None else found & these
        by_id = self.group.by_id
        out = []
        for account_id, q in found or ():
            agent = by_id.get(account_id)
            if agent is not None and self.lo <= q * self.step + agent.phase <= self.hi:
                out.append((agent, q))
        return out

    def _keep(self, agent: Agent, q: int) -> bool:
        if not self.filters.generic:
            return True
        log = entry(agent, q, self.step)
        for key, value in self.filters.generic:
            found, got = lookup(log, key)
            if not found or text_of(got) != value:
                return False
        return True

    def _all(self) -> Iterator[tuple[Agent, int]]:
        named = self._named_candidates()
        source = iter(named) if named is not None else self._walk(self._seek(0))
        for agent, q in source:
            if (named is None or self._matches(agent, q)) and self._keep(agent, q):
                yield agent, q

    # -- answers

    def total(self) -> int:
        if not self.arithmetic:
            return sum(1 for _ in self._all())
        if self.everything:
            return max(0, self.v_end - self.v_start)
        if self.v_end <= self.v_start:
            return 0
        total, v, k = 0, self.v_start, self.k
        while v < self.v_end:
            row_end = (v // k + 1) * k
            end = min(row_end, self.v_end)
            if v % k == 0 and end == row_end:
                full_rows = (self.v_end - v) // k
                if full_rows >= CYCLE:
                    periods = full_rows // CYCLE
                    total += periods * self.per_period
                    v += periods * CYCLE * k
                    continue
            total += self._row_count(v, end)
            v = end
        return total

    def iter_from(self, offset: int) -> Iterator[tuple[Agent, int]]:
        """The matches from the ``offset``-th on (0-based), newest first."""
        if self.arithmetic:
            yield from self._walk(self._seek(offset))
            return
        for n, match in enumerate(self._all()):
            if n >= offset:
                yield match

    def page(self, offset: int, size: int) -> list[tuple[Agent, int]]:
        out = []
        for match in self.iter_from(offset):
            out.append(match)
            if len(out) >= size:
                break
        return out


def project(log: Mapping[str, Any], fields: Sequence[str] | None) -> dict[str, Any]:
    """The entry cut to ``fields`` (dotted names build nested objects); all without."""
    if not fields:
        return dict(log)
    out: dict[str, Any] = {}
    for name in fields:
        found, value = lookup(log, name)
        if not found:
            continue
        *parents, leaf = name.split(".")
        node = out
        for part in parents:
            node = node.setdefault(part, {})
        node[leaf] = value
    return out


@functools.lru_cache(maxsize=64)
def _paths(columns: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(name.split(".")) for name in columns)


def flat_row(log: Mapping[str, Any], columns: Sequence[str]) -> list[str]:
    """One CSV row: each column's value as `text_of` gives it (missing: empty)."""
    row = []
    for path in _paths(tuple(columns)):
        value: Any = log
        for part in path:
            value = value.get(part) if isinstance(value, dict) else None
        row.append(text_of(value))
    return row


# ---------------------------------------------------------------------- state helpers


def calls_per_account(state: SimState) -> int:
    return max(0, min(MAX_CALLS, int(getattr(state, "calls", DEFAULT_CALLS))))


def window(state: SimState) -> tuple[int, int]:
    """The inclusive epoch-second range every account's history covers now."""
    now = int(state.now())
    calls = calls_per_account(state)
    return now - calls * step_of(calls) + 1, now


def agents_below(state: SimState, caller: Account, root: Account) -> AgentSet:
    """The voice agent accounts at or below ``root`` that ``caller``'s key may select.

    Kept per key, root, number of accounts and step in ``state.call_groups`` (16 at
    most): the simulator never moves an account, and a page asks for them again.
    """
    step = step_of(calls_per_account(state))
    key = (caller.id, root.id, len(state.accounts), step)
    group: AgentSet | None = state.call_groups.get(key)
    if group is None:
        below = state.selectable_below(caller, root, lambda a: a.is_agent)
        group = AgentSet(agent_of(a, step) for a in below)
        if len(state.call_groups) >= 16:
            state.call_groups.clear()
        state.call_groups[key] = group
    return group


def find(state: SimState, agents: AgentSet, room_id: str, uuid: str) -> tuple[Agent, int] | None:
    """The entry a batch item names, or None (unknown, out of reach, out of retention)."""
    left, sep, _ = room_id.partition(":")
    parts = uuid.split(":")
    if not (sep and left.isdecimal() and len(parts) in (2, 3) and parts[1].isdecimal()):
        return None
    if len(left) > 18 or len(parts[1]) > 18:
        return None
    account_id, at = int(left), int(parts[1])
    agent = agents.by_id.get(account_id)
    if agent is None:
        return None
    step = step_of(calls_per_account(state))
    q, rest = divmod(at - agent.phase, step)
    lo, hi = window(state)
    if rest or not lo <= at <= hi:
        return None
    log = entry(agent, q, step)
    if log["roomId"] != room_id or log["uuid"] != uuid:
        return None
    return agent, q
