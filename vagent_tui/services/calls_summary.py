"""The calls of one account in a time range, counted: what a fleet question shows
(count, failed, by outcome; no Textual)."""

from __future__ import annotations

import time
from dataclasses import dataclass

from vagent_tui.api.client import PlatformClient
from vagent_tui.api.log_models import MAX_PAGE_SIZE, LogEntry
from vagent_tui.services.calls import DAY, CallFilters


@dataclass(frozen=True)
class CallsSummary:
    """Calls of one account in a time range: how many, how many failed, by outcome."""

    count: int
    failed: int
    by_outcome: tuple[tuple[str, int], ...]
    """``(agentOutcome, count)``, most frequent first; ``—`` for entries without one."""

    def outcome_texts(self) -> tuple[str, ...]:
        return tuple(f"{name} {n}" for name, n in self.by_outcome)


SUMMARY_FIELDS = ("id", "timestamp", "type", "eventType", "status", "agentOutcome")


def _is_call(entry: LogEntry) -> bool:
    """An entry of a call: ``type`` ``call``, else an ``eventType`` naming one; an
    entry that says neither counts as a call (the platform's entries are calls and
    messages; nothing else is known)."""
    kind = entry.type if isinstance(entry.type, str) else None
    if kind:
        return kind.lower() == "call"
    event = entry.event_type if isinstance(entry.event_type, str) else None
    if event:
        return "call" in event.lower()
    return True


async def calls_summary(
    api: PlatformClient,
    account_id: int | None,
    *,
    start: int,
    end: int | None = None,
    max_pages: int = 10,
) -> CallsSummary:
    """Count the calls of ``account_id`` in ``[start, end]``: pages of 10,000 entries
    with only the fields it needs (one request for up to 10,000 entries)."""
    filters = CallFilters(start=start, end=end, account_id=account_id, fields=SUMMARY_FIELDS)
    count = failed = 0
    outcomes: dict[str, int] = {}
    for page in range(1, max_pages + 1):
        got = await api.list_logs(
            filters.query(), page=page, page_size=MAX_PAGE_SIZE, target=account_id
        )
        for entry in got.logs:
            if not _is_call(entry):
                continue
            count += 1
            failed += entry.failed
            outcome = entry.agent_outcome
            name = outcome if isinstance(outcome, str) and outcome else "—"
            outcomes[name] = outcomes.get(name, 0) + 1
        if not got.has_more or not got.logs:
            break
    ranked = tuple(sorted(outcomes.items(), key=lambda kv: (-kv[1], kv[0])))
    return CallsSummary(count, failed, ranked)


async def calls_last_24h(
    api: PlatformClient, account_id: int, *, now: float | None = None
) -> CallsSummary:
    """`calls_summary` of the 24 hours up to ``now`` (the client's clock by default)."""
    moment = int(time.time() if now is None else now)
    return await calls_summary(api, account_id, start=moment - DAY)
