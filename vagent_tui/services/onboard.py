"""Onboarding from a spreadsheet: organizations, agent accounts and members, planned
first (here), then created or updated by the bulk engine (`vagent_tui.services.onboard_apply`).

The file's columns and how it is read: `vagent_tui.services.onboard_rows`.
`plan_onboarding` reads what the platform holds for each row, nothing written, with at
most ``concurrency`` reads in flight (`vagent_tui.services.bulk.in_pool`, the engine's
pool), and gives each row one outcome: ``create``, ``update`` (with the diff),
``already`` (as the file says), ``refused`` (and why), ``unknown-parent`` or
``unreadable``. Opening the same file again after a dropped session plans it again from
what the platform holds then (what the killed run created is ``already``).
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal, TypeVar

from vagent_tui.api import models as m
from vagent_tui.api.client import PlatformClient
from vagent_tui.api.errors import ApiError, PlatformError
from vagent_tui.api.scope import ScopeLevel
from vagent_tui.services.bulk import DEFAULT_CONCURRENCY, in_pool
from vagent_tui.services.fleet import describe
from vagent_tui.services.onboard_rows import (
    KINDS,
    Problem,
    Row,
    parse_active,
    ref_id,
    row_problems,
)
from vagent_tui.services.reread import read_again
from vagent_tui.services.session import Connection
from vagent_tui.words import counted

T = TypeVar("T")
Outcome = Literal["create", "update", "already", "refused", "unknown-parent", "unreadable"]
OUTCOMES: tuple[Outcome, ...] = (
    "create", "update", "already", "refused", "unknown-parent", "unreadable",
)  # fmt: skip
LABELS: dict[str, str] = {
    "create": "will create", "update": "will update", "already": "already so",
    "refused": "refused", "unknown-parent": "unknown parent", "unreadable": "could not be read",
}  # fmt: skip


@dataclass(frozen=True)
class RowPlan:
    """What applying would do for one row."""

    row: Row
    outcome: Outcome
    changes: tuple[str, ...] = ()
    """One line per field: ``name: "a" → "b"`` (an update), ``name: "a"`` (a create)."""
    reasons: tuple[str, ...] = ()
    target_id: int | None = None
    """The platform's id of what is updated (an account, a member)."""
    parent_id: int | None = None
    """The parent's id when it exists now (None: created by this file first)."""
    body: dict[str, Any] = field(default_factory=dict)
    """An update's settings (wire names) or a member's change (ids resolved at apply)."""
    bring: str = ""
    """A number the customer brings, to assign to the account after its create or update
    (its ``phone_number``, when the account does not hold it yet): a fee."""

    @property
    def writes(self) -> bool:
        return self.outcome in ("create", "update")


def _a(noun: str | None) -> str:
    noun = noun or "?"
    return f"{'an' if noun[:1] in 'aeiou' else 'a'} {noun}"


def _show(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False) if value is not None else "none"


# ------------------------------------------------------------------------------ planning


@dataclass
class OnboardPlan:
    """A file's rows planned, in the file's order."""

    rows: list[RowPlan]
    origin: str = ""
    source: str = ""
    """The file's name, as given."""
    default_parent: int | None = None
    """The reseller an organization goes under when its parent is blank."""

    def counts(self) -> Counter[str]:
        return Counter(p.outcome for p in self.rows)

    def writing(self) -> list[RowPlan]:
        return [p for p in self.rows if p.writes]

    def summary(self) -> str:
        counts = self.counts()
        return ", ".join(f"{counts.get(o, 0):,} {LABELS[o]}" for o in OUTCOMES if counts.get(o))

    def what_it_writes(self) -> str:
        """``create 2 organizations, 40 accounts; update 3 accounts, 1 member``."""
        parts: list[str] = []
        for outcome in ("create", "update"):
            counts = Counter(p.row.kind for p in self.rows if p.outcome == outcome)
            if counts:
                things = ", ".join(counted(counts[k], k) for k in KINDS if counts[k])
                parts.append(f"{outcome} {things}")
        brought = sum(1 for p in self.rows if p.writes and p.bring)
        if brought:
            parts.append(f"bring {counted(brought, 'phone number')} (a fee each)")
        return "; ".join(parts) or "nothing"


class Lookups:
    """Accounts by external id and members by organization, each read once (shared by
    every row that needs it, also when many ask at the same time)."""

    def __init__(self, client: PlatformClient) -> None:
        self.client = client
        self._accounts: dict[Any, asyncio.Future[Any]] = {}
        self._members: dict[Any, asyncio.Future[Any]] = {}

    async def account(self, external_id: str) -> m.Account | None:
        """The account holding ``external_id`` (None: none; 404). Other errors raise."""

        async def read() -> m.Account | None:
            try:
                return await read_again(
                    self.client, lambda: self.client.account_by_external_id(external_id)
                )
            except ApiError as exc:
                if exc.status != 404:
                    raise
                return None

        return await _once(self._accounts, external_id, read)

    def forget(self, external_id: str) -> None:
        self._accounts.pop(external_id, None)

    def forget_members(self, organization_id: int) -> None:
        self._members.pop(organization_id, None)

    async def holds(self, account_id: int, number: str) -> bool:
        """Whether the account holds ``number`` now (read each time: it may change)."""
        client = self.client
        held = await read_again(client, lambda: client.list_numbers(target=account_id))
        return any(n.number == number for n in held)

    async def members(self, organization_id: int) -> list[m.Member]:
        client = self.client
        return await _once(
            self._members, organization_id,
            lambda: read_again(client, lambda: client.list_members(target=organization_id)),
        )  # fmt: skip


async def _once(
    cache: dict[Any, asyncio.Future[Any]], key: Any, read: Callable[[], Awaitable[T]]
) -> T:
    """``read()`` once per key: those asking meanwhile wait for the same answer."""
    future = cache.get(key)
    if future is not None:
        result: T = await asyncio.shield(future)
        return result
    future = asyncio.get_running_loop().create_future()
    cache[key] = future
    try:
        value = await read()
    except asyncio.CancelledError:
        cache.pop(key, None)
        future.cancel()
        raise
    except BaseException as exc:
        cache.pop(key, None)  # asked again by the next row that needs it
        future.set_exception(exc)
        future.exception()  # retrieved: those waiting get it, nothing logs it as lost
        raise
    future.set_result(value)
    return value


def parent_of(account: m.Account) -> int | None:
    if account.parent_id is not None:
        return account.parent_id
    org = account.organization_id
    return int(org) if isinstance(org, int) or (isinstance(org, str) and org.isdecimal()) else None


def default_parent(connection: Connection) -> int | None:
    """The reseller an organization row with a blank parent goes under: the target when
    it is a reseller, else the key's own reseller (None: neither; such a row is refused)."""
    target = connection.target
    if target is not None:
        kind = str(target.scope_field("accountType") or "").lower()
        return target.id if kind == "reseller" else None
    scope = connection.scope
    if scope is not None and scope.level is ScopeLevel.RESELLER:
        return scope.account_id
    return None


async def plan_onboarding(
    client: PlatformClient,
    rows: Sequence[Row],
    *,
    default_parent: int | None = None,
    concurrency: int = DEFAULT_CONCURRENCY,
    on_plan: Callable[[RowPlan], object] | None = None,
    origin: str = "",
    source: str = "",
) -> OnboardPlan:
    """Plan every row, at most ``concurrency`` reads in flight; nothing is written.

    ``default_parent``: the reseller an organization row with a blank parent goes under
    (the key's own, when the key is a reseller's). A row that names the same thing as
    an earlier row (the same kind and key) is refused, so one run writes each once.
    """
    lookups = Lookups(client)
    results: dict[int, RowPlan] = {}
    first_of: dict[tuple[str, str], int] = {}
    in_file: dict[str, Row] = {}  # organizations and accounts of the file, by external id
    checked: list[Row] = []
    for row in rows:
        problems = row_problems(row)
        key = (row.kind, row.key.casefold() if row.kind == "member" else row.key)
        if not problems and key in first_of:
            column = "email" if row.kind == "member" else "external_id"
            problems = [Problem(f"the same {row.kind} as row {first_of[key]}", column)]
        if problems:
            results[row.line] = RowPlan(row, "refused", reasons=tuple(problems))
            continue
        first_of[key] = row.line
        if row.kind != "member":
            in_file.setdefault(row.external_id, row)
        checked.append(row)

    def done(plan: RowPlan) -> None:
        results[plan.row.line] = plan
        if on_plan is not None:
            on_plan(plan)

    for plan in list(results.values()):
        if on_plan is not None:
            on_plan(plan)

    # Accounts first (their lookups are what the members' accounts need), members then.
    tree_rows = [r for r in checked if r.kind != "member"]
    member_rows = [r for r in checked if r.kind == "member"]

    async def each(row: Row) -> None:
        try:
            done(await _plan_row(lookups, row, in_file, default_parent, results))
        except PlatformError as exc:
            done(RowPlan(row, "unreadable", reasons=(describe(exc),)))

    await in_pool(tree_rows, concurrency, each)
    _orphans(tree_rows, in_file, results)
    await in_pool(member_rows, concurrency, each)
    _orphans(member_rows, in_file, results)
    ordered = [results[r.line] for r in rows if r.line in results]
    return OnboardPlan(ordered, origin=origin, source=source, default_parent=default_parent)


def _orphans(rows: Iterable[Row], in_file: Mapping[str, Row], results: dict[int, RowPlan]) -> None:
    """A row to create under a parent of the file that will not be created: its parent
    is unknown (planned at once, its parent's plan may not have been made yet)."""
    for row in rows:
        plan = results[row.line]
        parent = in_file.get(row.parent)
        if plan.outcome != "create" or plan.parent_id is not None or parent is None:
            continue
        if row.kind == "organization" and not row.parent:
            continue
        above = results.get(parent.line)
        if above is not None and above.outcome != "create":
            why = f"{row.parent}: its row ({parent.line}) is {LABELS[above.outcome]}"
            results[row.line] = RowPlan(row, "unknown-parent", reasons=(Problem(why, "parent"),))


async def _resolve(
    lookups: Lookups,
    ref: str,
    kind: str,
    in_file: Mapping[str, Row],
    results: Mapping[int, RowPlan],
) -> tuple[int | None, str | None]:
    """The parent ``ref`` names: (its id, None), (None, None) when this file creates it
    first, (None, why) when unknown."""  # fmt: skip
    number = ref_id(ref)
    if number is not None:
        return number, None
    found = await lookups.account(ref)
    if found is not None:
        if found.account_type not in (None, kind):
            return None, f"{ref} is {_a(found.account_type)}, not {_a(kind)}"
        return found.id, None
    row = in_file.get(ref)
    if row is not None and row.kind == kind:
        earlier = results.get(row.line)
        if earlier is not None and not earlier.writes:
            return None, f"{ref}: its row ({row.line}) is {LABELS[earlier.outcome]}"
        return None, None
    return None, f"no {kind} has the external id {ref}, on the platform or in the file"


async def _plan_row(
    lookups: Lookups,
    row: Row,
    in_file: Mapping[str, Row],
    default_parent: int | None,
    results: Mapping[int, RowPlan],
) -> RowPlan:
    if row.kind == "member":
        return await _plan_member(lookups, row, in_file, results)
    parent_kind = "reseller" if row.kind == "organization" else "organization"
    found_task = asyncio.ensure_future(lookups.account(row.external_id))
    try:
        if row.kind == "organization" and not row.parent:
            parent_id, why = default_parent, (
                None if default_parent is not None
                else "parent is blank and the key is not a reseller's: name the reseller"
            )  # fmt: skip
        else:
            parent_id, why = await _resolve(lookups, row.parent, parent_kind, in_file, results)
        found = await found_task
    finally:
        if not found_task.done():
            found_task.cancel()
    if found is not None:
        return await _with_number(lookups, plan_existing(row, found, parent_id))
    if why is not None:
        return RowPlan(row, "unknown-parent", reasons=(Problem(why, "parent"),))
    if not row.name:
        return RowPlan(row, "refused", reasons=(Problem("name is required to create it", "name"),))
    if row.active and not parse_active(row.active):
        why = "active no: a new account is created active; create it, then set active no"
        return RowPlan(row, "refused", reasons=(Problem(why, "active"),))
    changes = [f"{k}: {_show(v)}" for k, v in _create_fields(row).items() if v]
    if parent_id is None:
        changes.append(f"under {row.parent}, created by row {in_file[row.parent].line}")
    if row.phone_number:
        changes.append(_bring_line(row.phone_number))
    return RowPlan(row, "create", changes=tuple(changes), parent_id=parent_id,
                   bring=row.phone_number)  # fmt: skip


def _bring_line(number: str) -> str:
    return f"phone_number: bring {number} (a fee)"


async def _with_number(lookups: Lookups, plan: RowPlan) -> RowPlan:
    """An existing account's plan with its ``phone_number``: brought when it does not
    hold it yet (an update, even with nothing else to change)."""
    number = plan.row.phone_number
    if not number or plan.outcome not in ("update", "already") or plan.target_id is None:
        return plan
    if await lookups.holds(plan.target_id, number):
        return plan
    return replace(plan, outcome="update", changes=(*plan.changes, _bring_line(number)),
                   bring=number)  # fmt: skip


def _create_fields(row: Row) -> dict[str, Any]:
    if row.kind == "organization":
        return {"orgName": row.name, "email": row.email or None,
                "externalAccountId": row.external_id,
                "externalBillingId": row.billing_id or None}  # fmt: skip
    return {"accountName": row.name, "externalAccountId": row.external_id,
            "externalBillingId": row.billing_id or None}  # fmt: skip


def plan_existing(row: Row, found: m.Account, parent_id: int | None) -> RowPlan:
    want_type = row.kind
    if found.account_type not in (None, want_type):
        return RowPlan(row, "refused", target_id=found.id, reasons=(Problem(
            f"external id {row.external_id} is held by {found.display_name} ({found.id}), "
            f"{_a(found.account_type)}, not {_a(row.kind)}", "type"),))  # fmt: skip
    above = parent_of(found)
    if row.parent and parent_id != above and not (row.kind == "organization" and
                                                  found.reseller_id == parent_id):  # fmt: skip
        why = (f"external id {row.external_id} is held by {found.display_name} ({found.id}) "
               f"under {above}, not under {row.parent}: a move is not offered")  # fmt: skip
        return RowPlan(row, "refused", target_id=found.id, reasons=(Problem(why, "parent"),))
    name_key = "orgName" if row.kind == "organization" else "accountName"
    body: dict[str, Any] = {}
    changes: list[str] = []
    if row.name and row.name != (found.name or ""):
        body[name_key] = row.name
        changes.append(f"name: {_show(found.name)} → {_show(row.name)}")
    if row.billing_id and row.billing_id != (found.external_billing_id or ""):
        body["externalBillingId"] = row.billing_id
        changes.append(f"billing_id: {_show(found.external_billing_id)} → {_show(row.billing_id)}")
    if row.active:
        active = parse_active(row.active)
        if active != found.active:
            body["active"] = active
            changes.append(f"active: {_show(found.active)} → {_show(active)}")
    outcome: Outcome = "update" if body else "already"
    return RowPlan(row, outcome, changes=tuple(changes), target_id=found.id,
                   parent_id=above, body=body)  # fmt: skip


async def _plan_member(
    lookups: Lookups, row: Row, in_file: Mapping[str, Row], results: Mapping[int, RowPlan]
) -> RowPlan:
    org_id, why = await _resolve(lookups, row.parent, "organization", in_file, results)
    if why is not None:
        return RowPlan(row, "unknown-parent", reasons=(Problem(why, "parent"),))
    role = row.role or "admin"
    refs = row.accounts.replace(",", " ").split()
    wanted: list[int | str] = []
    for ref in refs:
        account_id, missing = await _resolve(lookups, ref, "account", in_file, results)
        if missing is not None:
            return RowPlan(
                row, "unknown-parent", reasons=(Problem(f"accounts: {missing}", "accounts"),)
            )
        wanted.append(account_id if account_id is not None else ref)
    body = {"email": row.email, "role": role, "accounts": wanted}
    shown = " ".join(str(a) for a in wanted) or "every account"
    if org_id is None:  # its organization is created by this file first
        return RowPlan(row, "create", changes=(f"invite {row.email} as {role}, to {shown}",),
                       body=body)  # fmt: skip
    members = await lookups.members(org_id)
    same = [x for x in members if x.email.casefold() == row.email.casefold()]
    if not same:
        return RowPlan(row, "create", changes=(f"invite {row.email} as {role}, to {shown}",),
                       parent_id=org_id, body=body)  # fmt: skip
    member = same[0]
    changes: list[str] = []
    if (member.role or "") != role:
        changes.append(f"role: {_show(member.role)} → {_show(role)}")
    have = sorted(member.permitted_account_ids)
    ids_now = [a for a in wanted if isinstance(a, int)]
    if len(ids_now) < len(wanted) or sorted(ids_now) != have:
        before = " ".join(str(a) for a in have) or "every account"
        changes.append(f"accounts: {before} → {shown}")
    outcome: Outcome = "update" if changes else "already"
    body["email"] = member.email  # matched regardless of case: its own spelling is kept
    return RowPlan(row, outcome, changes=tuple(changes), target_id=member.id, parent_id=org_id,
                   body=body)  # fmt: skip
