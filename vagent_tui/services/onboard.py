"""Onboarding from a spreadsheet: organizations, agent accounts and members, planned
first, then created or updated with the rollout's engine.

A file (CSV, or JSON: a list of objects with the same keys) holds one row per thing:

=============  =====================================================================
column         meaning
=============  =====================================================================
``type``       ``organization``, ``account`` (an agent account) or ``member``
``external_id`` the CRM's id of an organization or account: the key it is matched on
               (``getAccountByExternalId``), so nothing is ever created twice
``name``       its name (required to create; blank on an update leaves it)
``parent``     an organization's reseller, an account's or member's organization:
               an external id, or ``#1234`` for a platform id; an organization's may
               be blank (the key's own reseller)
``billing_id`` the billing system's id (blank leaves it)
``active``     ``yes``/``no`` (blank leaves it; an update only)
``email``      an organization's admin email (create only); a member's email (its key)
``role``       a member's role (``admin`` when blank)
``accounts``   a member's accounts, external ids (or ``#ids``) between spaces; blank:
               every account of its organization
=============  =====================================================================

`plan_onboarding` reads what the platform holds for each row, nothing written, with at
most ``concurrency`` reads in flight (`vagent_tui.services.rollout.in_pool`, the
rollout's pool), and gives each row one outcome: ``create``, ``update`` (with the
diff), ``already`` (as the file says), ``refused`` (and why), ``unknown-parent`` or
``unreadable``. `apply_onboarding` writes the plan, organizations first, then accounts,
then members, each phase through the same pool, and records each row in a
`vagent_tui.services.rollout_apply.RolloutLog` (the rollout's log on disk, locked per
file): a row is marked sent before its write goes out, so a run killed mid-way leaves
the rows whose reply it never got marked, and the next run reads those back (by
external id, or the organization's members by email) before sending anything. A write
whose reply is lost is read back the same way, never resent blindly.

The log is named after the file's rows and the platform (`source_id`), so opening the
same file again after a dropped session finds the same log; the plan is made again
from what the platform holds then (what the killed run created is ``already``).
"""

from __future__ import annotations

import asyncio
import contextlib
import csv
import hashlib
import io
import json
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, TypeVar

from vagent_tui.api import models as m
from vagent_tui.api.client import PlatformClient
from vagent_tui.api.errors import ApiError, PlatformError, outcome_unknown
from vagent_tui.config import state_dir
from vagent_tui.services.fleet import csv_cell, describe
from vagent_tui.services.reread import read_again
from vagent_tui.services.rollout import DEFAULT_CONCURRENCY, in_pool
from vagent_tui.services.rollout_apply import AccountResult, RolloutLog
from vagent_tui.words import counted

T = TypeVar("T")
Kind = Literal["organization", "account", "member"]
KINDS: tuple[Kind, ...] = ("organization", "account", "member")
Outcome = Literal["create", "update", "already", "refused", "unknown-parent", "unreadable"]
OUTCOMES: tuple[Outcome, ...] = (
    "create", "update", "already", "refused", "unknown-parent", "unreadable",
)  # fmt: skip
LABELS: dict[str, str] = {
    "create": "will create", "update": "will update", "already": "already so",
    "refused": "refused", "unknown-parent": "unknown parent", "unreadable": "could not be read",
}  # fmt: skip
COLUMNS = ("type", "external_id", "name", "parent", "billing_id", "active", "email", "role",
           "accounts")  # fmt: skip
MAX_ROWS = 20_000
MAX_BYTES = 8 * 1024 * 1024
SENT = "sent: no reply yet"
"""The message of the mark a row gets before its write goes out."""

_YES = {"yes", "y", "true", "1", "on"}
_NO = {"no", "n", "false", "0", "off"}


@dataclass(frozen=True)
class Row:
    """One row of the file, as typed (cells stripped)."""

    line: int
    """Its number: the file's line (CSV) or the entry's position from 1 (JSON)."""
    kind: str
    external_id: str = ""
    name: str = ""
    parent: str = ""
    billing_id: str = ""
    active: str = ""
    email: str = ""
    role: str = ""
    accounts: str = ""

    @property
    def key(self) -> str:
        """What the row is matched on: a member's email, else the external id."""
        return self.email if self.kind == "member" else self.external_id


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

    @property
    def writes(self) -> bool:
        return self.outcome in ("create", "update")


class SourceError(ValueError):
    """A file that cannot be read as rows at all (the message says where)."""


# ------------------------------------------------------------------------------ reading


def read_rows(text: str, *, json_file: bool = False) -> list[Row]:
    """The rows of a CSV (a header line first) or a JSON list of objects.

    A column or key not in `COLUMNS` is refused (a typo would silently leave a field
    out); a cell that is not text in JSON is taken as its text (``true``, ``12``).

    Raises:
        SourceError: not CSV/JSON of these columns, too large, no rows.
    """
    if len(text) > MAX_BYTES:
        raise SourceError(f"the file is larger than {MAX_BYTES // 2**20} MiB")
    records: list[tuple[int, Mapping[str, Any]]] = []
    if json_file:
        try:
            data = json.loads(text)
        except ValueError as exc:
            raise SourceError(f"not JSON: {exc}") from None
        if isinstance(data, dict) and isinstance(data.get("rows"), list):
            data = data["rows"]
        if not isinstance(data, list) or not all(isinstance(d, dict) for d in data):
            raise SourceError("the JSON is not a list of objects (one per row)")
        records = [(n, d) for n, d in enumerate(data, start=1)]
    else:
        reader = csv.DictReader(io.StringIO(text.removeprefix("\ufeff")))
        if not reader.fieldnames:
            raise SourceError("the file is empty: a header line names the columns")
        header = [h.strip().lower() for h in reader.fieldnames]
        reader.fieldnames = header
        unknown = [h for h in header if h not in COLUMNS]
        if unknown:
            raise SourceError(f"unknown column {unknown[0]!r} (columns: {', '.join(COLUMNS)})")
        if "type" not in header:
            raise SourceError("the header has no type column")
        records = [(reader.line_num, r) for r in reader]
    if len(records) > MAX_ROWS:
        raise SourceError(f"more than {MAX_ROWS:,} rows")
    rows: list[Row] = []
    for line, record in records:
        unknown = [str(k) for k in record if str(k).lower() not in COLUMNS]
        if unknown:
            raise SourceError(f"row {line}: unknown key {unknown[0]!r} "
                              f"(keys: {', '.join(COLUMNS)})")  # fmt: skip
        cells = {str(k).lower(): _cell(v) for k, v in record.items()}
        if not any(cells.values()):
            continue  # an empty line
        rows.append(Row(line, **{c: cells.get(c, "") for c in COLUMNS if c != "type"},
                        kind=cells.get("type", "").lower()))  # fmt: skip
    if not rows:
        raise SourceError("no rows under the header")
    return rows


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return " ".join(_cell(v) for v in value)
    return str(value).strip()


def source_id(rows: Sequence[Row], origin: str) -> str:
    """A stable name of a file's rows on one platform and key (its log's name)."""
    canonical = json.dumps([origin, [[r.line, r.kind, *(getattr(r, c) for c in COLUMNS[1:])]
                                     for r in rows]], separators=(",", ":"))  # fmt: skip
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:16]


def onboard_dir() -> Path:
    return state_dir() / "onboarding"


def log_for(rows: Sequence[Row], origin: str, directory: Path | None = None) -> RolloutLog:
    """The log of this file on this platform (found again when the file is opened again)."""
    return RolloutLog((directory or onboard_dir()) / f"{source_id(rows, origin)}.jsonl")


# ------------------------------------------------------------------------------ checks


def _ref_id(ref: str) -> int | None:
    """``#1234`` (or ``1234``) as a platform id; None for an external id."""
    text = ref.removeprefix("#")
    return int(text) if text.isascii() and text.isdecimal() and text else None


def _active(text: str) -> bool | None:
    low = text.lower()
    if low in _YES:
        return True
    if low in _NO:
        return False
    raise ValueError(f"active: {text!r} is not yes or no")


def row_problems(row: Row) -> list[str]:
    """What is wrong with a row on its own (before anything is read)."""
    problems: list[str] = []
    if row.kind not in KINDS:
        return [f"type {row.kind!r} is not organization, account or member"]
    if row.active:
        try:
            _active(row.active)
        except ValueError as exc:
            problems.append(str(exc))
    if row.kind == "member":
        try:
            m.MemberInvite(email=row.email, role=row.role or "admin")
        except ValueError as exc:
            problems.append(_first_error(exc))
        if not row.parent:
            problems.append("a member needs its organization in parent")
        if row.external_id or row.billing_id or row.active:
            problems.append("a member has no external_id, billing_id or active")
        return problems
    if not row.external_id:
        problems.append("external_id is required: it is what the row is matched on")
    if row.kind == "account" and not row.parent:
        problems.append("an account needs its organization in parent")
    if row.role or row.accounts:
        problems.append("role and accounts are a member's")
    if row.email and row.kind == "account":
        problems.append("an agent account has no email")
    if row.email and row.kind == "organization":
        try:
            m.NewOrganization(org_name="x", email=row.email)
        except ValueError as exc:
            problems.append(_first_error(exc))
    return problems


def _first_error(exc: ValueError) -> str:
    errors = getattr(exc, "errors", None)
    if callable(errors):
        found = errors()
        if found:
            where = ".".join(str(p) for p in found[0].get("loc", ()))
            return f"{where}: {found[0].get('msg', '')}".removeprefix(": ")
    return str(exc)


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
        return "; ".join(parts) or "nothing"


class _Lookups:
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


def _parent_of(account: m.Account) -> int | None:
    if account.parent_id is not None:
        return account.parent_id
    org = account.organization_id
    return int(org) if isinstance(org, int) or (isinstance(org, str) and org.isdecimal()) else None


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
    lookups = _Lookups(client)
    results: dict[int, RowPlan] = {}
    first_of: dict[tuple[str, str], int] = {}
    in_file: dict[str, Row] = {}  # organizations and accounts of the file, by external id
    checked: list[Row] = []
    for row in rows:
        problems = row_problems(row)
        key = (row.kind, row.key.casefold() if row.kind == "member" else row.key)
        if not problems and key in first_of:
            problems = [f"the same {row.kind} as row {first_of[key]}"]
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
            results[row.line] = RowPlan(row, "unknown-parent", reasons=(why,))


async def _resolve(
    lookups: _Lookups,
    ref: str,
    kind: str,
    in_file: Mapping[str, Row],
    results: Mapping[int, RowPlan],
) -> tuple[int | None, str | None]:
    """The parent ``ref`` names: (its id, None), (None, None) when this file creates it
    first, (None, why) when unknown."""  # fmt: skip
    number = _ref_id(ref)
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
    lookups: _Lookups,
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
        return _plan_existing(row, found, parent_id)
    if why is not None:
        return RowPlan(row, "unknown-parent", reasons=(why,))
    if not row.name:
        return RowPlan(row, "refused", reasons=("name is required to create it",))
    if row.active and not _active(row.active):
        return RowPlan(
            row,
            "refused",
            reasons=("active no: a new account is created active; create it, then set active no",),
        )
    changes = [f"{k}: {_show(v)}" for k, v in _create_fields(row).items() if v]
    if parent_id is None:
        changes.append(f"under {row.parent}, created by row {in_file[row.parent].line}")
    return RowPlan(row, "create", changes=tuple(changes), parent_id=parent_id)


def _create_fields(row: Row) -> dict[str, Any]:
    if row.kind == "organization":
        return {"orgName": row.name, "email": row.email or None,
                "externalAccountId": row.external_id,
                "externalBillingId": row.billing_id or None}  # fmt: skip
    return {"accountName": row.name, "externalAccountId": row.external_id,
            "externalBillingId": row.billing_id or None}  # fmt: skip


def _plan_existing(row: Row, found: m.Account, parent_id: int | None) -> RowPlan:
    want_type = row.kind
    if found.account_type not in (None, want_type):
        return RowPlan(row, "refused", target_id=found.id, reasons=(
            f"external id {row.external_id} is held by {found.display_name} ({found.id}), "
            f"{_a(found.account_type)}, not {_a(row.kind)}",))  # fmt: skip
    above = _parent_of(found)
    if row.parent and parent_id != above and not (row.kind == "organization" and
                                                  found.reseller_id == parent_id):  # fmt: skip
        return RowPlan(row, "refused", target_id=found.id, reasons=(
            f"external id {row.external_id} is held by {found.display_name} ({found.id}) "
            f"under {above}, not under {row.parent}: a move is not offered",))  # fmt: skip
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
        active = _active(row.active)
        if active != found.active:
            body["active"] = active
            changes.append(f"active: {_show(found.active)} → {_show(active)}")
    outcome: Outcome = "update" if body else "already"
    return RowPlan(row, outcome, changes=tuple(changes), target_id=found.id,
                   parent_id=above, body=body)  # fmt: skip


async def _plan_member(
    lookups: _Lookups, row: Row, in_file: Mapping[str, Row], results: Mapping[int, RowPlan]
) -> RowPlan:
    org_id, why = await _resolve(lookups, row.parent, "organization", in_file, results)
    if why is not None:
        return RowPlan(row, "unknown-parent", reasons=(why,))
    role = row.role or "admin"
    refs = row.accounts.replace(",", " ").split()
    wanted: list[int | str] = []
    for ref in refs:
        account_id, missing = await _resolve(lookups, ref, "account", in_file, results)
        if missing is not None:
            return RowPlan(row, "unknown-parent", reasons=(f"accounts: {missing}",))
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


# ------------------------------------------------------------------------------ applying


async def apply_onboarding(
    client: PlatformClient,
    plan: OnboardPlan,
    log: RolloutLog,
    *,
    concurrency: int = DEFAULT_CONCURRENCY,
    on_result: Callable[[AccountResult], object] | None = None,
    stop: Callable[[], bool] | None = None,
) -> list[AccountResult]:
    """Write every ``create``/``update`` row not done yet (by ``log``): organizations,
    then accounts, then members, ``concurrency`` rows at a time.

    Each row is marked sent in ``log`` before its write goes out. A row an earlier run
    marked (and never settled) is read back first: found as the file says, it is
    ``written`` without a write. A write whose reply is lost is read back, never sent
    again: ``written`` when it is there, else ``unknown``. A row whose parent could not
    be created is ``failed`` with the reason, and nothing is sent for it.

    Raises:
        RolloutBusy: another run of this file is under way.
    """
    log.hold()
    lookups = _Lookups(client)
    results: list[AccountResult] = []

    def settle(result: AccountResult) -> None:
        log.record(result)
        results.append(result)
        if on_result is not None:
            with contextlib.suppress(Exception):  # a progress display's failure is its own
                on_result(result)

    async def each(p: RowPlan) -> None:
        line = p.row.line
        earlier = log.results.get((line, "write"))
        try:
            if earlier is not None and await _there(lookups, p):
                settle(AccountResult(line, "write", "written", "found written (an earlier run)"))
                return
            target = await _target_of(lookups, p)
        except PlatformError as exc:
            settle(AccountResult(line, "write", "failed", describe(exc)))
            return
        except LookupError as exc:
            settle(AccountResult(line, "write", "failed", str(exc)))
            return
        log.record(AccountResult(line, "write", "unknown", SENT))  # before it goes out
        settle(await _write_row(client, lookups, p, target))

    for kind in KINDS:
        todo = [
            p for p in plan.rows
            if p.row.kind == kind and p.writes and not log.done(p.row.line, "write")
        ]  # fmt: skip
        await in_pool(todo, concurrency, each, stop=stop)
        if stop is not None and stop():
            break
    return results


async def _there(lookups: _Lookups, p: RowPlan) -> bool:
    """Whether the platform holds what the row says (read back, nothing sent)."""
    row = p.row
    if row.kind == "member":
        org_id = await _org_of(lookups, p)
        members = await lookups.members(org_id)
        ids = sorted(await _account_ids(lookups, p.body["accounts"]))
        return any(x.email.casefold() == row.email.casefold() and (x.role or "") == p.body["role"]
                   and sorted(x.permitted_account_ids) == ids for x in members)  # fmt: skip
    lookups.forget(row.external_id)
    found = await lookups.account(row.external_id)
    if found is None:
        return False
    if p.outcome == "create":
        return True  # its external id is there: never created a second time
    return _plan_existing(row, found, _parent_of(found)).outcome == "already"


async def _org_of(lookups: _Lookups, p: RowPlan) -> int:
    if p.parent_id is not None:
        return p.parent_id
    found = await lookups.account(p.row.parent)
    if found is None or found.id is None:
        raise LookupError(f"its parent {p.row.parent} was not created: nothing sent")
    return found.id


async def _target_of(lookups: _Lookups, p: RowPlan) -> int:
    """The id the write goes to: the parent of a create, the record of an update."""
    if p.outcome == "update" and p.target_id is not None:
        return p.target_id
    if p.row.kind == "organization" and not p.row.parent:
        if p.parent_id is None:
            raise LookupError("no reseller to create it under")
        return p.parent_id
    return await _org_of(lookups, p)


async def _account_ids(lookups: _Lookups, refs: Iterable[int | str]) -> list[int]:
    ids: list[int] = []
    for ref in refs:
        if isinstance(ref, int):
            ids.append(ref)
            continue
        found = await lookups.account(ref)
        if found is None or found.id is None:
            raise LookupError(f"account {ref} was not created: nothing sent")
        ids.append(found.id)
    return ids


async def _send(client: PlatformClient, lookups: _Lookups, p: RowPlan, target: int) -> str:
    """One write; its success line (raises `PlatformError` as the client does)."""
    row = p.row
    if row.kind == "member":
        ids = await _account_ids(lookups, p.body["accounts"])
        if p.outcome == "create":
            invite = m.MemberInvite(email=row.email, role=p.body["role"],
                                    permitted_account_ids=ids, send_welcome_email=True)  # fmt: skip
            await client.invite_member(invite, target=target)
            return "invited"
        assert p.target_id is not None
        update = m.MemberUpdate(target_member_id=p.target_id, email=p.body["email"],
                                role=p.body["role"], permitted_account_ids=ids)  # fmt: skip
        await client.update_member(update, target=p.parent_id)
        return "updated"
    if p.outcome == "create":
        if row.kind == "organization":
            new_org = m.NewOrganization(org_name=row.name, email=row.email or None,
                                        external_account_id=row.external_id,
                                        external_billing_id=row.billing_id or None)  # fmt: skip
            made = await client.create_organization(target, new_org)
        else:
            new_account = m.NewAgentAccount(account_name=row.name,
                                            external_account_id=row.external_id,
                                            external_billing_id=row.billing_id or None)  # fmt: skip
            made = await client.create_account(target, new_account)
        return f"created {made.id}" if made is not None and made.id is not None else "created"
    reply: m.SettingsChange
    if row.kind == "organization":
        reply = await client.update_organization(target, m.OrganizationUpdate(**_snake(p.body)))
    else:
        reply = await client.update_account(target, m.AccountUpdate(**_snake(p.body)))
    if reply.failed_settings:
        failed = "; ".join(f"{s} ({reply.reason(s) or 'refused'})" for s in reply.failed_settings)
        raise _Partial(f"saved: {', '.join(reply.updated_settings) or 'nothing'}; "
                       f"not saved: {failed}")  # fmt: skip
    return "updated"


class _Partial(Exception):
    """An update the platform made in part (its message says which settings)."""


_SNAKE = {"orgName": "org_name", "accountName": "account_name", "active": "active",
          "externalBillingId": "external_billing_id"}  # fmt: skip


def _snake(body: Mapping[str, Any]) -> dict[str, Any]:
    return {_SNAKE[k]: v for k, v in body.items()}


async def _write_row(
    client: PlatformClient, lookups: _Lookups, p: RowPlan, target: int
) -> AccountResult:
    line = p.row.line
    try:
        message = await _send(client, lookups, p, target)
    except _Partial as exc:
        return AccountResult(line, "write", "failed", str(exc))
    except LookupError as exc:
        return AccountResult(line, "write", "failed", str(exc))
    except PlatformError as exc:
        if not outcome_unknown(exc):
            return AccountResult(line, "write", "failed", describe(exc))
        try:
            if p.row.kind == "member":  # read the members again (an update's target is
                # the member, its organization the plan's parent)
                lookups.forget_members(p.parent_id if p.outcome == "update" and
                                       p.parent_id is not None else target)  # fmt: skip
            there = await _there(lookups, p)
        except (PlatformError, LookupError):
            return AccountResult(line, "write", "unknown", describe(exc))
        why = f"{describe(exc)}; read back: {'there' if there else 'not there'}"
        if there:
            _created(lookups, p)
        return AccountResult(line, "write", "written" if there else "unknown", why)
    _created(lookups, p)
    return AccountResult(line, "write", "written", message)


def _created(lookups: _Lookups, p: RowPlan) -> None:
    """A row is on the platform now: what was read of its external id before (a 404,
    kept for the rows under it) is read again when they ask."""
    if p.row.kind != "member" and p.row.external_id:
        lookups.forget(p.row.external_id)


def results_csv(plan: OnboardPlan, log: RolloutLog | None) -> str:
    """One line per row: the row's cells, its plan and its result (spreadsheet-safe)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["line", *COLUMNS, "plan", "changes", "reasons", "result", "message"])
    for p in plan.rows:
        r = p.row
        result = log.results.get((r.line, "write")) if log is not None else None
        cells = [r.kind, *(getattr(r, c) for c in COLUMNS[1:])]
        writer.writerow([
            str(r.line), *(csv_cell(c) for c in cells), p.outcome,
            csv_cell("; ".join(p.changes)), csv_cell("; ".join(p.reasons)),
            result.result if result is not None else "",
            csv_cell(result.message) if result is not None else "",
        ])  # fmt: skip
    return out.getvalue()
