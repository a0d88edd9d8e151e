"""Lazy inboxes: room ``i`` of an agent account is computed from ``(account id, i)``.

Nothing is stored, so ``rooms`` may be up to 1,000,000 per account at no memory cost and
any page costs O(pageSize):

* index 0 is the newest room; ``lastMessageTimestamp`` strictly decreases with the index
  (30 minutes apart, minus up to 15 minutes of hash-derived jitter);
* room ``i`` is unread iff ``i % 3 == 0``, so the k-th unread room is ``i = 3k`` and there
  are ``ceil(rooms / 3)`` unread rooms;
* ``roomId`` is ``"<accountId>:<n>"`` with ``n = rooms - i`` (stable under paging).

Every room carries the spec's fields plus ``chatAgentCampaignId`` (api-facts) and the
simulator's extra ``unread`` boolean. ``GET /conversations`` (the priority inbox) uses the
same generator with another salt and the ``priority`` inbox type.
"""

from __future__ import annotations

from typing import Any

from vagent_tui.sim.common import Paging

#: Newest room's timestamp (2025-11-20T00:00:00Z) -- fixed, so pages are reproducible.
NEWEST = 1_763_596_800
_MASK = (1 << 64) - 1

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
    n = total - i
    first = _FIRST[h % len(_FIRST)]
    last = _LAST[(h >> 8) % len(_LAST)]
    unregistered = (h >> 16) % 4 == 0
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
        "lastMessage": _JUNK[(h >> 40) % len(_JUNK)],
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
