"""Calls: what the agents did, for one account or every account below the key (no Textual).

What a Calls screen asks for, on the conversation logs (``GET /logs``) and the
conversations behind them (``POST /conversation/batch``):

* `CallFilters`: the query as a value (time range, account, event type, outcome,
  status, free ``key=value`` filters, fields), with the words that show it
  (`CallFilters.describe`) and its `LogQuery`;
* `fetch_transcripts` reads the conversations of a page through the batch operation
  (one request per page, 200 entries at most each), and `TranscriptCache` keeps them so
  opening one from a page shown costs nothing.

A page of the query is one request (``client.list_logs(filters.query(), page=...)``,
paged by `vagent_tui.services.paging.Pager` on the screen); beside this module:
`calls_follow` (``tail -f``), `calls_export` (the whole query to a file) and
`calls_summary` (what a fleet question shows).

Times sent are whole Unix seconds; the client's clock decides "the last 24 hours".
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from vagent_tui.api.client import PlatformClient
from vagent_tui.api.log_models import (
    MAX_BATCH,
    BatchResult,
    ConversationRef,
    LogEntry,
    LogQuery,
)

HOUR = 3600
DAY = 24 * HOUR
WEEK = 7 * DAY
PRESETS: dict[str, int] = {"hour": HOUR, "day": DAY, "week": WEEK}
"""The time ranges offered by name: the last hour, day or week."""
PAGE_SIZES = (50, 100, 200, 500)


# --------------------------------------------------------------------------- the query


_RELATIVE = re.compile(r"^-?\s*(\d+)\s*([smhdw])$")
_UNITS = {"s": 1, "m": 60, "h": HOUR, "d": DAY, "w": WEEK}


def parse_time(text: str, *, now: float) -> int:
    """A moment typed by a person, as Unix seconds.

    Accepts whole Unix seconds (``1763640000``), a time back from ``now`` (``90m``,
    ``-2h``, ``3d``, ``1w``) and ISO 8601 (``2025-11-20``, ``2025-11-20T14:30``, with
    ``Z`` or an offset; without one it is UTC). Raises ValueError with a message for
    the field.
    """
    value = text.strip()
    if not value:
        raise ValueError("a time is needed")
    if value.isdecimal():
        return _in_range(int(value), value)
    relative = _RELATIVE.match(value.lower())
    if relative:
        return _in_range(int(now) - int(relative.group(1)) * _UNITS[relative.group(2)], value)
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00").replace(" ", "T", 1))
    except ValueError:
        raise ValueError(
            f"{value!r} is not a time: try 2h, 3d, 2025-11-20T14:30 or Unix seconds"
        ) from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return _in_range(int(moment.timestamp()), value)


LAST_MOMENT = 253_402_300_799
"""9999-12-31T23:59:59Z: the last moment a time can be shown (and sent) as a date."""


def _in_range(seconds: int, typed: str) -> int:
    if not 0 <= seconds <= LAST_MOMENT:
        shown = typed if len(typed) <= 40 else typed[:40] + "…"
        raise ValueError(f"{shown!r} is out of range: a time from 1970 to the year 9999")
    return seconds


@dataclass(frozen=True)
class CallFilters:
    """One query of the call log, as the screen holds it (a value: change by `replace`).

    ``account_id`` is the account the query covers (``targetAccountId``: an agent, or
    a level whose agents all count); None is the key owner's own scope. ``start`` /
    ``end`` are Unix seconds (None: the platform's default, the last 7 days up to now).
    ``event_type``, ``outcome`` (``agentOutcome``) and ``status`` are filters like the
    free ``extra`` ones (``key=value``, sent as given).
    """

    start: int | None = None
    end: int | None = None
    account_id: int | None = None
    event_type: str | None = None
    outcome: str | None = None
    status: str | None = None
    extra: tuple[tuple[str, str], ...] = ()
    fields: tuple[str, ...] = ()
    preset: str | None = None
    """The name of the time range (``hour``/``day``/``week``) when it came from one."""

    @classmethod
    def last(cls, preset: str, *, now: float, **others: Any) -> CallFilters:
        """The last hour, day or week up to ``now`` (``preset`` a key of `PRESETS`)."""
        seconds = PRESETS[preset]
        return cls(start=int(now) - seconds, end=None, preset=preset, **others)

    def with_range(self, start: int | None, end: int | None) -> CallFilters:
        """Another time range (typed: no preset). Raises ValueError if start > end."""
        if start is not None and end is not None and start > end:
            raise ValueError("the start must not be after the end")
        return replace(self, start=start, end=end, preset=None)

    def cleared(self) -> CallFilters:
        """No filters (the account and the fields stay: they are where, not what)."""
        return CallFilters(account_id=self.account_id, fields=self.fields)

    def pairs(self) -> tuple[tuple[str, str], ...]:
        named = (("eventType", self.event_type), ("agentOutcome", self.outcome),
                 ("status", self.status))  # fmt: skip
        return tuple((k, v) for k, v in named if v) + self.extra

    def query(self) -> LogQuery:
        """The request's `LogQuery`; ValueError for a filter that cannot be sent."""
        return LogQuery(start=self.start, end=self.end, fields=self.fields, filters=self.pairs())

    def describe(self, *, local: bool = False) -> list[str]:
        """The active filters as short texts, in a stable order (for the filter line)."""
        out: list[str] = []
        if self.preset:
            out.append(f"last {self.preset}")
        elif self.start is not None or self.end is not None:
            out.append(f"{_when(self.start, local)} → {_when(self.end, local)}")
        else:
            out.append("last 7 days")
        if self.account_id is not None:
            out.append(f"account #{self.account_id}")
        out.extend(f"{key}={value}" for key, value in self.pairs())
        return out

    @property
    def active(self) -> bool:
        """Whether anything narrows the query beyond the platform's defaults."""
        return bool(self.pairs()) or self.start is not None or self.end is not None


def _when(seconds: int | None, local: bool) -> str:
    if seconds is None:
        return "now"
    moment = datetime.fromtimestamp(seconds, UTC)
    if local:
        moment = moment.astimezone()
    return moment.strftime("%Y-%m-%d %H:%M") + ("" if local else " UTC")


# --------------------------------------------------------------------------- transcripts


def refs_of(entries: Iterable[LogEntry]) -> list[ConversationRef]:
    """The conversations a page's entries name, once each, in order."""
    return list(dict.fromkeys(r for r in (e.conversation_ref for e in entries) if r is not None))


async def fetch_transcripts(
    api: PlatformClient, entries: Iterable[LogEntry], *, target: int | None = None
) -> dict[ConversationRef, BatchResult]:
    """The conversations behind a page's entries, by reference: one batch request per
    200 conversations (one for a page of up to 200), never one per row. Entries that
    name no conversation are left out; a failed item is a result with ``ok`` False."""
    refs = refs_of(entries)
    if not refs:
        return {}
    reply = await api.get_conversations(refs, target=target)
    return reply.by_ref()


class TranscriptCache:
    """The conversations fetched with the pages shown, the most recent ``limit`` kept."""

    def __init__(self, limit: int = 2_000) -> None:
        self.limit = limit
        self._items: OrderedDict[ConversationRef, BatchResult] = OrderedDict()

    def __len__(self) -> int:
        return len(self._items)

    def add(self, results: dict[ConversationRef, BatchResult]) -> None:
        for ref, result in results.items():
            self._items[ref] = result
            self._items.move_to_end(ref)
        while len(self._items) > self.limit:
            self._items.popitem(last=False)

    def get(self, entry: LogEntry) -> BatchResult | None:
        ref = entry.conversation_ref
        return self._items.get(ref) if ref is not None else None

    def missing(self, entries: Iterable[LogEntry]) -> list[LogEntry]:
        """The entries whose conversation is not here yet (and that name one)."""
        return [
            e for e in entries if e.conversation_ref is not None and self.get(e) is None
        ]  # fmt: skip

    def clear(self) -> None:
        self._items.clear()


__all__ = [
    "DAY",
    "MAX_BATCH",
    "PAGE_SIZES",
    "PRESETS",
    "CallFilters",
    "TranscriptCache",
    "fetch_transcripts",
    "parse_time",
    "refs_of",
]
