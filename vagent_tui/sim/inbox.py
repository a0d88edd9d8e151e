"""Lazy inboxes: room ``i`` of an agent account is computed from ``(account id, i)``.

Nothing is stored, so ``rooms`` may be up to 1,000,000 per account at no memory cost and
any page costs O(pageSize):

* index 0 is the newest room; ``lastMessageTimestamp`` strictly decreases with the index
  (30 minutes apart, minus up to 15 minutes of hash-derived jitter);
* room ``i`` is unread iff ``i % 3 == 0``, so the k-th unread room is ``i = 3k`` and there
  are ``ceil(rooms / 3)`` unread rooms;
* ``roomId`` is ``"<accountId>:<n>"`` with ``n = rooms - i`` (stable under paging) in the
  junk inbox, ``n = PRIORITY_BASE + rooms - i`` in the priority inbox, so that a room id
  names one room of one inbox (``GET /messages/{roomId}`` finds it again).

Every room carries the spec's fields plus ``chatAgentCampaignId`` (api-facts) and the
simulator's extra ``unread`` boolean. ``GET /conversations`` (the priority inbox) uses the
same generator with another salt, the ``priority`` inbox type and messages that are not
junk.

Messages of a room (``GET /messages/{roomId}``, `room_messages`) are computed the same
way, from the room id alone, when asked for: nothing is stored, a room of a million-room
inbox costs what a room of a small one does. The simulator's choices, where api-facts
publishes only the fields:

* the reply is the JSON array of api-facts, oldest message first, every message of the
  room (the platform publishes no paging of it);
* a room holds 2 to 10 messages; one room in ten (``n % 10 == 0``) holds a long thread of
  120 to 299, so that a console has pages to turn;
* the last message is the room's ``lastMessage``, at its ``lastMessageTimestamp``;
* ``timestamp`` is in epoch seconds (the vendor's example, 1699633022 beside the date
  ``2023-11-10T16:17:02.000Z``), ``date`` the same instant as ISO text;
* ``from``/``to`` are user ids: the agent account's id, and the contact's (a number
  derived from the room); ``fromUser``/``toUser`` their display names; the contact
  starts every room, and ``roomInitiator`` is the contact's user name (the vendor's
  reference: the user name of who first made contact, a string, example ``brandon``): its
  name lower-cased, ``maria.garcia``, or the phone number of a caller who is not
  registered (`user_name`);
* ``status`` is ``success`` (delivered) except for one outbound message in eleven,
  ``failed``; ``source`` is the room's channel (``sms``, ``voice``, ``email`` or
  ``client``); ``attachments`` is a text holding a JSON array of URLs, ``"[]"`` for
  none (the vendor types it a string that holds the array, example ``"[]"``); one
  message in nine carries one or two;
* ``gift`` is false; ``drip`` is true on some outbound messages (automated follow-ups);
* ``uuid`` is derived from the room id and the message's index.
"""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any

from vagent_tui.sim.common import Paging, SimError, bad, iso

#: Newest room's timestamp (2025-11-20T00:00:00Z) -- fixed, so pages are reproducible.
NEWEST = 1_763_596_800
_MASK = (1 << 64) - 1
PRIORITY_SALT = 0x5A17
"""The salt of the priority inbox's rooms (the junk inbox's is 0)."""
PRIORITY_BASE = 5_000_000
"""Priority rooms are numbered above this (junk rooms from 1 to at most 1,000,000)."""
LONG_THREAD = 10
"""Every room whose number is a multiple of this holds a long thread."""

_FIRST = ["Jordan", "Maria", "Wei", "Aisha", "Lucas", "Priya", "Mateo", "Chloe", "Omar",
          "Hannah", "Diego", "Yuki", "Noah", "Fatima", "Liam", "Sofia"]  # fmt: skip
_LAST = ["Nguyen", "Garcia", "Smith", "Okafor", "Müller", "Rossi", "Kim", "Dubois",
         "Haddad", "Johnson", "Silva", "Tanaka"]  # fmt: skip
_JUNK = [
    "Congratulations! You have been selected for a free cruise. Press 1 now.",
    "Your car's extended warranty is about to expire.",
    "Final notice regarding your student loan forgiveness application.",
    "Hi, is this the owner? I can get you to the top of Google today.",
    "We detected suspicious activity on your account, reply YES to verify.",
    "Hello? ... (caller hung up)",
    "Lower your credit card interest rate today, limited time offer.",
    "This is an automated message about your business listing.",
    "Quick question about your merchant processing fees.",
    "Wrong number, sorry!",
]
_PRIORITY = [
    "Hi, I'd like to book a cleaning for next Tuesday afternoon.",
    "Can you confirm my appointment on Friday at 10?",
    "Do you take walk-ins on Saturdays?",
    "I need to reschedule, something came up at work.",
    "What are your opening hours over the holidays?",
    "Is parking available near the office?",
    "Thanks, see you then!",
    "Could you send me the invoice again? I can't find it.",
]
_REPLIES = [
    "Thanks for reaching out! How can I help you today?",
    "I can help with that. What day and time work best for you?",
    "You're all set. You'll get a reminder the day before.",
    "Sorry to hear that, let me check what we have available.",
    "Our hours are 8 am to 6 pm, Monday to Saturday.",
    "I've passed your message on to the team; someone will call you back.",
    "Just following up on your last message, do you still need help?",
]
_SOURCES = ("sms", "voice", "email", "client")


def _mix(x: int) -> int:
    """splitmix64 finaliser: a cheap, well-spread integer hash."""
    x = (x + 0x9E3779B97F4A7C15) & _MASK
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK
    return x ^ (x >> 31)


def _spacing(total: int) -> int:
    """Seconds between rooms: half an hour, tighter for big inboxes so that even a
    million rooms span about two years rather than reaching back before 1970."""
    return max(30, min(1800, (2 * 365 * 86400) // max(1, total)))


def room(account_id: int, i: int, total: int, *, salt: int = 0) -> dict[str, Any]:
    """Room ``i`` (0 = newest) of an inbox of ``total`` rooms."""
    h = _mix((account_id << 24) ^ (i * 0x100000001B3) ^ salt)
    n = total - i + (PRIORITY_BASE if salt else 0)
    first = _FIRST[h % len(_FIRST)]
    last = _LAST[(h >> 8) % len(_LAST)]
    unregistered = (h >> 16) % 4 == 0
    texts = _PRIORITY if salt else _JUNK
    phone = f"+1{200 + (h >> 20) % 800:03d}555{(h >> 32) % 10000:04d}"
    return {
        "roomId": f"{account_id}:{n}",
        "name": phone if unregistered else f"{first} {last}",
        "id": account_id * 10_000_000 + n,
        "image": f"https://cdn.example.com/avatars/{h % 97}.png",
        "vidaPhoneNumber": phone,
        "unregistered": unregistered,
        "unregisteredDisplayName": f"Unknown caller {phone[-4:]}" if unregistered else "",
        "destinationInboxType": "priority" if salt else "junk",
        "lastMessage": texts[(h >> 40) % len(texts)],
        "lastMessageTimestamp": NEWEST - i * _spacing(total) - (h >> 48) % 30,
        "chatAgentCampaignId": f"cfg-{account_id}",
        "unread": i % 3 == 0,
    }


def inbox_page(
    account_id: int, total: int, paging: Paging, *, unread: bool, salt: int = 0
) -> dict[str, Any]:
    """One page of the inbox; with ``unread`` only unread rooms (i = 0, 3, 6, ...).

    The pagination flag does not switch paging off here: an inbox may hold a million
    rooms, so ``page``/``pageSize`` always apply (pageSize defaults to 20).
    """
    count = (total + 2) // 3 if unread else total
    start = min(paging.page * paging.page_size, count)
    stop = min(start + paging.page_size, count)
    step = 3 if unread else 1
    rooms = [room(account_id, k * step, total, salt=salt) for k in range(start, stop)]
    return {
        "success": True,
        "pageSize": paging.page_size,
        "pageNumber": paging.page,
        "totalRooms": count,
        "rooms": rooms,
    }


def locate(account_id: int, room_id: str, total: int) -> tuple[int, int]:
    """``(i, salt)`` of the room ``room_id`` of this account's inboxes of ``total`` rooms.

    Raises 400 for an id that is not ``<number>:<number>``, 404 for a room this account
    does not have (another account's room included: its existence is not told).
    """
    left, sep, right = room_id.partition(":")
    if not (sep and left.isascii() and left.isdecimal() and right.isascii() and right.isdecimal()):
        raise bad("roomId must be of the form <number>:<number>")
    if len(left) > 18 or len(right) > 18:
        raise SimError(404, "Room not found")
    owner, n = int(left), int(right)
    if owner == account_id and 1 <= n <= total:
        return total - n, 0
    if owner == account_id and PRIORITY_BASE < n <= PRIORITY_BASE + total:
        return PRIORITY_BASE + total - n, PRIORITY_SALT
    raise SimError(404, "Room not found")


def message_count(account_id: int, n: int) -> int:
    """How many messages room ``n`` holds: 2 to 10, a long thread of 120 to 299 in one in ten."""
    h = _mix((account_id << 32) ^ (n * 0x9E3779B1) ^ 0xC0FFEE)
    return 120 + h % 180 if n % LONG_THREAD == 0 else 2 + h % 9


# Patterns kept as text: `re` compiles one on first use (and caches it), not at every start.
_NOT_NAME = r"[^a-z0-9]+"


def user_name(room: dict[str, Any]) -> str:
    """The user name of the contact of a room: its name, lower-cased, letters and digits
    only, words joined by ``.`` (``Müller`` is ``muller``); a caller who is not registered
    (or whose name has no such letter) goes by the phone number it called from."""
    name = room.get("name")
    if not room.get("unregistered") and isinstance(name, str):
        folded = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
        handle = re.sub(_NOT_NAME, ".", folded.lower()).strip(".")
        if handle:
            return handle
    return str(room["vidaPhoneNumber"])


def _uuid(h: int, k: int) -> str:
    a, b = _mix(h ^ k), _mix(h + k + 1)
    hexed = f"{a:016x}{b:016x}"
    return f"{hexed[:8]}-{hexed[8:12]}-4{hexed[13:16]}-a{hexed[17:20]}-{hexed[20:32]}"


def room_messages(
    account_id: int, room_id: str, total: int, *, agent_name: str
) -> list[dict[str, Any]]:
    """Every message of the room ``room_id``, oldest first (see the module's docstring)."""
    i, salt = locate(account_id, room_id, total)
    the_room = room(account_id, i, total, salt=salt)
    n = int(room_id.partition(":")[2])
    count = message_count(account_id, n)
    h = _mix((account_id << 24) ^ (n * 0x100000001B3) ^ 0xFACE)
    contact = 100_000_000 + h % 900_000_000
    contact_name = the_room["unregisteredDisplayName"] or the_room["name"]
    initiator = user_name(the_room)
    source = _SOURCES[h % len(_SOURCES)] if salt else ("voice", "sms")[h % 2]
    inbound_texts = _PRIORITY if salt else _JUNK
    # Times from the newest back: the last message is the room's last message.
    stamps = [the_room["lastMessageTimestamp"]]
    for k in range(count - 1, 0, -1):
        stamps.append(stamps[-1] - 60 - _mix(h ^ k) % 3600)
    stamps.reverse()
    out: list[dict[str, Any]] = []
    for k in range(count):
        hk = _mix(h ^ (k * 0xD6E8FEB86659FD93))
        last = k == count - 1
        inbound = k == 0 or last or (hk >> 3) % 2 == 0
        if last:
            text = the_room["lastMessage"]
        elif inbound:
            text = inbound_texts[(hk >> 8) % len(inbound_texts)]
        else:
            text = _REPLIES[(hk >> 8) % len(_REPLIES)]
        ours, theirs = (account_id, agent_name), (contact, contact_name)
        sender, receiver = (theirs, ours) if inbound else (ours, theirs)
        attachments = []
        if hk % 9 == 0:
            kinds = ("jpg", "pdf", "png")
            for j in range(1 + (hk >> 20) % 2):
                kind = kinds[(hk >> (24 + j)) % len(kinds)]
                attachments.append(f"https://cdn.example.com/rooms/{account_id}-{n}/{k}-{j}.{kind}")
        out.append({
            "message": text,
            "from": sender[0],
            "fromUser": sender[1],
            "to": receiver[0],
            "toUser": receiver[1],
            "timestamp": stamps[k],
            "date": iso(stamps[k]),
            "roomId": room_id,
            "status": "failed" if not inbound and (hk >> 12) % 11 == 0 else "success",
            "attachments": json.dumps(attachments),
            "gift": False,
            "drip": not inbound and (hk >> 16) % 5 == 0,
            "uuid": _uuid(h, k),
            "source": source,
            "roomInitiator": initiator,
        })  # fmt: skip
    return out
