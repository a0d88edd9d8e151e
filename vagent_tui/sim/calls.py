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

This module is one thing: the grid of the lazy call history and the queries over it (which
entries a page, a filter or a count holds); what one entry holds is
`vagent_tui.sim.call_entries`.
"""

from __future__ import annotations

import bisect
import functools
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from vagent_tui.sim.call_entries import (
    CYCLE,
    PATTERNED,
    PATTERNS,
    Agent,
    agent_of,
    entry,
    lookup,
    text_of,
)

if TYPE_CHECKING:
    from vagent_tui.sim.account import Account
    from vagent_tui.sim.state import SimState

DEFAULT_CALLS = 2_000
"""Entries per voice agent account unless ``state.calls`` says otherwise."""
MAX_CALLS = 1_000_000
RETENTION = 90 * 86_400
"""The history spans about this many seconds (``calls * step``)."""
DEFAULT_WINDOW = 7 * 86_400
"""``start`` defaults to ``end`` minus this (the reference: the last 7 days)."""


def step_of(calls: int) -> int:
    """Seconds between two entries of one account."""
    return max(1, RETENTION // max(1, calls))


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
