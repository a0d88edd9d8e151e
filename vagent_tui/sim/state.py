"""The simulator's state: accounts, the hierarchy, tokens, delegation and the request log.

One :class:`SimState` belongs to one simulator instance; every mutation shows in later
reads of the same instance and in no other.

Hierarchy: partner -> reseller -> organization -> agent account (``accountType``
``account``; Computer Agents are agent accounts with ``computerAgent`` true). Organization
members are ``user`` accounts whose parent is their organization.

Scope of a key (the spec's Authentication, rules 4 and 5), decided in one place,
:meth:`SimState.reach`, from the fields of the key owner's account, not from its
``accountType`` alone:

1. ``accountType`` partner, or ``organizationId`` equal to ``partnerId``: the partner
   account ``partnerId`` and everything below it;
2. ``accountType`` reseller, or ``organizationId`` equal to ``resellerId``: the reseller
   ``resellerId`` and everything below it;
3. ``accountType`` account: that account only;
4. ``accountType`` organization, or a ``user`` with an ``organizationId``: that
   organization and everything below it;
5. a nonempty ``permittedAccountIds`` restricts the key to exactly those accounts (those
   inside the scope of rules 1-4): not its organization, not the accounts below them.

No rule matched: the key acts on its own account only. Every route goes through it:

* ``targetAccountId`` (and the ``target*Id`` list parameters, and the account in a
  Computer Agent path) must name an account of the key's reach;
* without it a request acts on the key owner's own account (the spec delegates only
  through ``targetAccountId``): a user-shaped admin names its partner, reseller or
  organization to act there. A restricted member acts on nothing of its own: its
  requests must name a permitted account, 403 otherwise; only the account read (and the
  relay types catalog) describe it without one.
* Refusals are 403: ``Target account is outside your hierarchy`` for a key of rules 1-4
  (unknown ids are not told apart, so ids of other trees do not leak); ``Target account
  is not one of this key's permitted accounts (permittedAccountIds)`` for a restricted
  member, whatever the id; a member naming no target gets :data:`~vagent_tui.sim.common.RESTRICTED`.

This module is one thing: SimState, the simulator's one store and the scope rule that
guards it (the account record is `vagent_tui.sim.account`).
"""

from __future__ import annotations

import copy
import secrets
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, NamedTuple

from vagent_tui.sim.account import Account
from vagent_tui.sim.common import (
    NOT_PERMITTED,
    OUTSIDE,
    RESTRICTED,
    UNAUTHORIZED,
    SimError,
    parse_int,
)
from vagent_tui.sim.faults import Faults

SEPARATOR = "\x00"
"""Between an account's name and username in `SimState.matching_below`'s index (a
search text holding it is asked of each field on its own)."""


REQUEST_LOG_LIMIT = 50_000
"""Requests a simulator keeps in its log at most. A write's body is kept in it: without
a bound, a simulator serving rollouts to a fleet for an hour held every configuration
written, and its cycle collector walked them all again at each full collection. A test
reads far fewer."""


@dataclass
class LoggedRequest:
    """One handled request. The ``token`` query value is stored as ``***``."""

    method: str
    path: str
    query: dict[str, str]
    body: Any
    status: int


class SimState:
    """All mutable data of one simulator instance (empty: `world.demo_state` fills it).

    A plain class: there is one per simulator, never compared, and generating the
    methods of a dataclass of 45 fields took 2 ms of the demo's start.

    Args:
        rooms: junk-inbox rooms per agent account (0..1,000,000).
        task_seconds: duration of a migration task and of a recording's finalization.
        clock: returns epoch seconds; injected by tests to move time by hand.
        latency_ms: artificial delay added to every request.
    """

    def __init__(
        self,
        *,
        rooms: int = 240,
        task_seconds: float = 10.0,
        clock: Callable[[], float] = time.time,
        latency_ms: int = 0,
        calls: int = 2_000,
    ) -> None:
        if not 0 <= rooms <= 1_000_000:
            raise ValueError("rooms must be between 0 and 1,000,000")
        if not 0 <= calls <= 1_000_000:
            raise ValueError("calls must be between 0 and 1,000,000")
        if task_seconds <= 0:
            raise ValueError("task_seconds must be positive")
        self.rooms = rooms
        self.task_seconds = task_seconds
        self.clock = clock
        self.latency_ms = latency_ms
        self.calls = calls
        """Call log entries per voice agent account (0..1,000,000; `vagent_tui.sim.calls`)."""
        self.usage_shape: str = "totals"
        """The shape of ``GET /stats/usage``'s reply: ``totals``, ``rows`` or ``empty``
        (`vagent_tui.sim.routes_usage`); tests change it to run the console against another."""
        self.huge: bool = False
        """Huge mode is on: the open-ended replies (usage, plans, add-ons, today's counts)
        hold 100,000 keys and an 8 MiB text (`vagent_tui.sim.huge`)."""
        self.hostile: bool = False
        """Hostile mode is on: what the hostile middleware does not see (a CSV stream) is
        planted by its route."""
        self.accounts: dict[int, Account] = {}
        self.tokens: dict[str, dict[str, Any]] = {}
        self.issued_logins: list[str] = []
        """A hash of each one-time login token issued (`routes_members`), never its value."""
        self.live: dict[int, dict[str, Any]] = {}
        self.staging: dict[int, dict[str, Any] | None] = {}
        self.versions: dict[int, list[dict[str, Any]]] = {}
        self.sip: dict[int, list[dict[str, Any]]] = {}
        self.numbering: dict[int, dict[str, dict[str, Any]]] = {}
        """Each organization's numbering providers by ``providerId`` (`sim.numbering`)."""
        self.sip_trunk: dict[int, dict[str, Any]] = {}
        """Outbound routes and the registration per account (`vagent_tui.sim.sip`)."""
        self.webhooks: dict[int, list[dict[str, Any]]] = {}
        self.relays: dict[int, dict[str, dict[str, Any]]] = {}
        self.relay_types: list[dict[str, str]] = []
        """The relay types the platform knows (``GET /webhookRelay/types``); others are 404."""
        self.adr: dict[int, dict[str, Any]] = {}
        self.templates: dict[str, dict[str, Any]] = {}
        self.tasks: dict[str, dict[str, Any]] = {}
        self.outbound: dict[str, dict[str, Any]] = {}
        """Outbound tasks by id (`vagent_tui.sim.outbound`): calls and texts queued."""
        self.caller_context: dict[tuple[int, str], str] = {}
        """What each agent was told about a caller, by (agent id, number or username)
        (`vagent_tui.sim.caller_context`)."""
        self.task_limits: dict[int, dict[str, Any]] = {}
        """An organization's task limits where they are not `outbound.DEFAULT_LIMITS` (keyed
        by `outbound.organization_of`: a reseller or partner is its own)."""
        self.subscriptions: dict[int, dict[str, Any]] = {}
        """The plan each account subscribed to, its term and what it was charged (`sim.billing`)."""
        self.billing_periods: dict[int, dict[str, Any]] = {}
        """An organization's billing period as last set (``POST /billing/billingPeriod``)."""
        self.billing_systems: dict[int, dict[str, Any]] = {}
        """A reseller's or partner's billing system configuration, as sent (`sim.billing`)."""
        self.integrations: dict[int, dict[str, dict[str, Any]]] = {}
        """Each account's integration data by ``slug/version`` (`sim.routes_integrations`)."""
        self.recordings: dict[int, list[dict[str, Any]]] = {}
        self.numbers: dict[int, list[dict[str, Any]]] = {}
        """The phone numbers each agent account holds (`vagent_tui.sim.numbers`)."""
        self.sessions: dict[int, list[dict[str, Any]]] = {}
        self.files: dict[int, dict[str, dict[str, Any]]] = {}
        self.agent_links: dict[int, str] = {}
        """Each agent account's public link slug (`vagent_tui.sim.agent_extras`)."""
        self.messages_in: dict[int, list[dict[str, Any]]] = {}
        """Messages sent to each agent by ``POST /agent/receiveMessage``, and its answers, as
        message records, newest first (`vagent_tui.sim.agent_extras`)."""
        self.requests: list[LoggedRequest] = []
        """The requests handled, oldest first: the newest `REQUEST_LOG_LIMIT` at most
        (`vagent_tui.sim.endpoint.record` drops the older half past it)."""
        self.call_groups: dict[tuple[int, ...], Any] = {}
        """The call log's account sets per key and root (`vagent_tui.sim.calls.agents_below`)."""
        self.counter: int = 0
        self.highest_id: int = 0
        """The highest account id ever given: a deleted account's id is never given again."""
        self.faults: Faults = Faults()
        self.instance: str = secrets.token_hex(4)
        """A name of this simulator, new each time one is made: it starts from the seed, so
        it is another platform than any made before (the embedded demo's identity, which the
        console keys its onboarding and rollout logs by: `services.connect.SimClient`)."""
        self._below: dict[tuple[Any, ...], list[Account]] = {}
        """`selectable_below`'s accounts per reach, root and number of accounts."""
        self._texts: dict[tuple[Any, ...], list[str]] = {}
        """`matching_below`'s index (choice 70): per `_below` list, each account's lowered
        name and username, kept until a name changes (`names_changed`) or the tree does."""
        self._external: tuple[int, dict[str, list[int]]] | None = None
        """`with_external_id`'s index: the number of accounts it was built at, and the ids
        holding each ``externalAccountId``."""

    # -- someone else ---------------------------------------------------------------
    def edit_staging(self, account_id: int, /, **settings: Any) -> dict[str, Any]:
        """Change an agent's staging as another admin would, behind the console's back.

        For tests and demos: no request is logged. An empty staging starts from live,
        as the platform's own staging write does. Returns the new staging.
        """
        base = self.staging.get(account_id) or self.live[account_id]
        draft = {**copy.deepcopy(base), **copy.deepcopy(settings)}
        self.staging[account_id] = draft
        return draft

    # -- time and ids -------------------------------------------------------------
    def now(self) -> float:
        return float(self.clock())

    def next_id(self) -> int:
        self.counter += 1
        return self.counter

    # -- request log ----------------------------------------------------------------
    def clear_log(self) -> None:
        """Forget every logged request."""
        self.requests.clear()

    def count(self, method: str | None = None, path: str | None = None) -> int:
        """How many logged requests match ``method`` and/or ``path`` (exact)."""
        return sum(
            1
            for r in self.requests
            if (method is None or r.method == method) and (path is None or r.path == path)
        )

    # -- hierarchy --------------------------------------------------------------------
    def account(self, account_id: int) -> Account:
        return self.accounts[account_id]

    def children(self, account_id: int) -> list[Account]:
        return [a for a in self.accounts.values() if a.parent_id == account_id]

    def ancestors(self, account: Account) -> Iterator[Account]:
        parent = account.parent_id
        while parent is not None and parent in self.accounts:
            acc = self.accounts[parent]
            yield acc
            parent = acc.parent_id

    def is_within(self, root: Account, account: Account) -> bool:
        """True when ``account`` is ``root`` or a descendant of it."""
        return account.id == root.id or any(a.id == root.id for a in self.ancestors(account))

    def reach(self, caller: Account) -> Reach:
        """The scope of ``caller``'s key: the one place the rules are applied."""
        rule, root_id = scope_rule(caller)
        root = self.accounts.get(root_id) if root_id is not None else None
        if rule is None or root is None:
            rule, root = None, caller
        permitted = frozenset(caller.permitted_ids) if caller.permitted_ids else None
        return Reach(rule, root, permitted)

    def can_target(self, caller: Account, target: Account) -> bool:
        """Whether ``caller``'s key may act on ``target`` (see the module docstring)."""
        reach = self.reach(caller)
        if not self.is_within(reach.root, target):
            return False
        return reach.permitted is None or target.id in reach.permitted

    def reachable(self, caller: Account) -> list[Account]:
        """Every account ``caller`` may select, in id order."""
        return [a for a in sorted(self.accounts.values(), key=lambda a: a.id)
                if self.can_target(caller, a)]  # fmt: skip

    def selectable_below(
        self, caller: Account, root: Account, where: Callable[[Account], bool] | None = None
    ) -> list[Account]:
        """Accounts at or below ``root`` that ``caller``'s key may select, in id order.

        The rule of `can_target` (inside the reach's root, and a permitted id for a
        restricted member), worked out once per reach and root and kept while the number
        of accounts stays the same (the simulator never moves an account), so a search
        over 100,000 accounts is one pass of ``where`` (e.g. a text match, asked live:
        names may change).
        """
        below = self._selectable(caller, root)[1]
        return below[:] if where is None else [a for a in below if where(a)]

    def _selectable(self, caller: Account, root: Account) -> tuple[tuple[Any, ...], list[Account]]:
        """`selectable_below`'s list (kept: never to be changed by the caller) and its key."""
        reach = self.reach(caller)
        key = (reach.root.id, reach.permitted, root.id, len(self.accounts))
        below = self._below.get(key)
        if below is None:
            in_root, in_reach = self._inside(root.id), self._inside(reach.root.id)
            below = [
                a
                for a in sorted(self.accounts.values(), key=lambda a: a.id)
                if (reach.permitted is None or a.id in reach.permitted)
                and in_root(a)
                and in_reach(a)
            ]
            if len(self._below) >= 16:
                self._below.clear()
                self._texts.clear()
            self._below[key] = below
        return key, below

    def matching_below(
        self, caller: Account, root: Account, text: str, kind: str | None = None
    ) -> list[Account]:
        """`selectable_below`'s accounts whose lowered name or username holds ``text``
        (already lowered; empty: all), of type ``kind`` when given, in id order.

        The answer of one pass over every account asking ``name.lower()`` and
        ``username.lower()``, from an index of those lowered texts (choice 70) instead:
        a search over 100,000 accounts costs a few milliseconds, not tens.
        """
        key, below = self._selectable(caller, root)
        if text and SEPARATOR not in text:
            texts = self._texts.get(key)
            if texts is None:
                texts = self._texts[key] = [
                    f"{a.name.lower()}{SEPARATOR}{a.username.lower()}" for a in below
                ]
            found = [a for a, t in zip(below, texts, strict=True) if text in t]
        elif text:  # a text holding the separator: asked of each field on its own
            found = [a for a in below if text in a.name.lower() or text in a.username.lower()]
        else:
            found = below[:]
        return found if kind is None else [a for a in found if a.account_type == kind]

    def names_changed(self) -> None:
        """An account's name or username was changed: `matching_below` reads them again."""
        self._texts.clear()

    def new_account_id(self) -> int:
        """An id no account has had (ids of deleted accounts are not reused: data kept
        under an id must never reappear on another account)."""
        self.highest_id = max(self.highest_id, max(self.accounts, default=0)) + 1
        return self.highest_id

    def tree_changed(self) -> None:
        """An account was added or removed: forget what was worked out from the tree
        (`selectable_below` keys on the number of accounts only, which a removal and an
        addition leave the same)."""
        self._below.clear()
        self._texts.clear()
        self.call_groups.clear()
        self._external = None

    def external_ids_changed(self) -> None:
        """An account's ``externalAccountId`` was set or removed."""
        self._external = None

    def with_external_id(self, external_id: str) -> list[Account]:
        """The accounts holding ``external_id``, in id order.

        Looked up in an index built on first use and kept until an id or the tree
        changes: onboarding a spreadsheet asks once per row, and a pass over every
        account each time made a 1,000-row plan cost the simulator seconds.
        """
        count = len(self.accounts)
        if self._external is None or self._external[0] != count:
            index: dict[str, list[int]] = {}
            for acc in sorted(self.accounts.values(), key=lambda a: a.id):
                if acc.external_account_id:
                    index.setdefault(acc.external_account_id, []).append(acc.id)
            self._external = (count, index)
        ids = self._external[1].get(external_id, ())
        return [self.accounts[i] for i in ids if i in self.accounts]

    def _inside(self, root_id: int) -> Callable[[Account], bool]:
        """``is_within`` for one root, remembering the answer for every account it passes."""
        memo: dict[int, bool] = {root_id: True}

        def inside(account: Account) -> bool:
            known = memo.get(account.id)
            if known is not None:
                return known
            chain: list[int] = []
            current: Account | None = account
            answer = False
            while current is not None:
                known = memo.get(current.id)
                if known is not None:
                    answer = known
                    break
                if current.id in chain:  # a cycle: never inside
                    break
                chain.append(current.id)
                parent = current.parent_id
                current = self.accounts.get(parent) if parent is not None else None
            for account_id in chain:
                memo[account_id] = answer
            return answer

        return inside

    # -- auth ---------------------------------------------------------------------------
    def authenticate(self, token: str | None) -> Account:
        record = self.tokens.get(token or "")
        if not token or record is None or record["userId"] not in self.accounts:
            raise SimError(401, UNAUTHORIZED)
        return self.accounts[record["userId"]]

    def select(self, caller: Account, raw: str | None, name: str = "targetAccountId") -> Account:
        """The account a request acts on: the id ``raw`` if sent, else the key's own.

        Raises:
            SimError: 400 for an id that is not an integer; 403 for an account outside
                the key's reach, or no id from a restricted member.
        """
        target_id = parse_int(name, raw)
        reach = self.reach(caller)
        if target_id is None:
            if reach.permitted is not None:
                raise SimError(403, RESTRICTED)
            return caller
        return self.check(caller, self.accounts.get(target_id))

    def check(self, caller: Account, target: Account | None) -> Account:
        """``target`` if ``caller``'s key may act on it, else the 403 of its scope.

        An unknown account (None) is refused like one of another tree.
        """
        if target is None or not self.can_target(caller, target):
            permitted = self.reach(caller).permitted
            raise SimError(403, OUTSIDE if permitted is None else NOT_PERMITTED)
        return target

    def describe(self, caller: Account, raw: str | None) -> Account:
        """The account a read describes: the key owner itself, or a selected account."""
        target_id = parse_int("targetAccountId", raw)
        if target_id is None or target_id == caller.id:
            return caller
        return self.select(caller, raw)


def scope_rule(account: Account) -> tuple[int | None, int | None]:
    """The first of the spec's rules 1-4 that matches, and the id of the account it names.

    Applied to the fields, so a ``user`` whose ``organizationId`` is its partner's id is a
    partner admin; ``(None, None)`` when no rule matches.
    """
    org = account.organization_id
    if account.account_type == "partner":
        return 1, account.id
    if org is not None and org == account.partner_id:
        return 1, account.partner_id
    if account.account_type == "reseller":
        return 2, account.id
    if org is not None and org == account.reseller_id:
        return 2, account.reseller_id
    if account.account_type == "account":
        return 3, account.id
    if account.account_type == "organization":
        return 4, account.id
    if account.account_type == "user" and org is not None:
        return 4, org
    return None, None


class Reach(NamedTuple):
    """What a key may act on (see the module docstring).

    Attributes:
        rule: the rule (1-4) that gave the scope, None when none matched.
        root: the account at the top of the scope (the key owner itself when no rule
            matched).
        permitted: rule 5: the only accounts a restricted member may act on.
    """

    rule: int | None
    root: Account
    permitted: frozenset[int] | None
