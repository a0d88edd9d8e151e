"""Applying an onboarding plan (`vagent_tui.services.onboard`) with the bulk engine.

`apply_onboarding` writes the plan, organizations first, then accounts, then members,
each phase a run of `vagent_tui.services.bulk.apply_each` and recorded in the file's
`vagent_tui.services.bulk.RolloutLog` (`vagent_tui.services.onboard_rows.log_for`): a row
is marked sent before its write goes out, so a run killed mid-way leaves the rows whose
reply it never got marked, and the next run reads those back (by external id, or the
organization's members by email) before sending anything. A write whose reply is lost is
read back the same way, never resent blindly.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from vagent_tui.api import models as m
from vagent_tui.api.client import PlatformClient
from vagent_tui.api.errors import PlatformError, outcome_unknown
from vagent_tui.inert import csv_cell
from vagent_tui.services.bulk import (
    DEFAULT_CONCURRENCY,
    AccountResult,
    Attempt,
    Refused,
    RolloutLog,
    apply_each,
)
from vagent_tui.services.fleet import describe
from vagent_tui.services.onboard import Lookups, OnboardPlan, RowPlan, parent_of, plan_existing
from vagent_tui.services.onboard_rows import COLUMNS, KINDS


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
    lookups = Lookups(client)
    results: list[AccountResult] = []

    async def prepare(p: RowPlan, earlier: AccountResult | None) -> AccountResult | Attempt:
        line = p.row.line
        if earlier is not None and await _there(lookups, p):
            return AccountResult(line, "write", "written", "found written (an earlier run)")
        if earlier is not None and p.bring:
            # the account was written by the earlier run, its number not (yet): bring it
            found = await _account_there(lookups, p)
            if found is not None:
                return Attempt(lambda: _bring(client, p, found),
                               lambda: lookups.holds(found, p.bring))  # fmt: skip
        target = await _target_of(lookups, p)
        return Attempt(lambda: _send(client, lookups, p, target),
                       lambda: _read_back(lookups, p, target))  # fmt: skip

    for kind in KINDS:
        todo = [p for p in plan.rows if p.row.kind == kind and p.writes]
        results += await apply_each(
            todo, log, "write", _line, prepare, mark_sent=True, concurrency=concurrency,
            on_result=on_result, stop=stop,
        )  # fmt: skip
        if stop is not None and stop():
            break
    return results


def _line(p: RowPlan) -> int:
    return p.row.line


async def _there(lookups: Lookups, p: RowPlan) -> bool:
    """Whether the platform holds what the row says (read back, nothing sent)."""
    row = p.row
    if row.kind == "member":
        org_id = await _org_of(lookups, p)
        members = await lookups.members(org_id)
        ids = sorted(await _account_ids(lookups, p.body["accounts"]))
        return any(x.email.casefold() == row.email.casefold() and (x.role or "") == p.body["role"]
                   and sorted(x.permitted_account_ids) == ids for x in members)  # fmt: skip
    found_id = await _account_there(lookups, p)
    if found_id is None:
        return False
    return not p.bring or await lookups.holds(found_id, p.bring)


async def _account_there(lookups: Lookups, p: RowPlan) -> int | None:
    """The id of the row's organization or account when the platform holds it as the row
    says (a create: its external id is there, never created a second time)."""
    row = p.row
    lookups.forget(row.external_id)
    found = await lookups.account(row.external_id)
    if found is None or found.id is None:
        return None
    if p.outcome == "create":
        return found.id
    # its settings as the row says (its number is asked on its own)
    as_planned = plan_existing(row, found, parent_of(found)).outcome == "already"
    return found.id if as_planned else None


async def _read_back(lookups: Lookups, p: RowPlan, target: int) -> bool:
    """`_there` after a lost reply (the members read again first)."""
    if p.row.kind == "member":  # an update's target is the member, its organization the
        # plan's parent
        lookups.forget_members(p.parent_id if p.outcome == "update" and
                               p.parent_id is not None else target)  # fmt: skip
    there = await _there(lookups, p)
    if there:
        _created(lookups, p)
    return there


async def _org_of(lookups: Lookups, p: RowPlan) -> int:
    if p.parent_id is not None:
        return p.parent_id
    found = await lookups.account(p.row.parent)
    if found is None or found.id is None:
        raise Refused(f"its parent {p.row.parent} was not created: nothing sent")
    return found.id


async def _target_of(lookups: Lookups, p: RowPlan) -> int:
    """The id the write goes to: the parent of a create, the record of an update."""
    if p.outcome == "update" and p.target_id is not None:
        return p.target_id
    if p.row.kind == "organization" and not p.row.parent:
        if p.parent_id is None:
            raise Refused("no reseller to create it under")
        return p.parent_id
    return await _org_of(lookups, p)


async def _account_ids(lookups: Lookups, refs: Iterable[int | str]) -> list[int]:
    ids: list[int] = []
    for ref in refs:
        if isinstance(ref, int):
            ids.append(ref)
            continue
        found = await lookups.account(ref)
        if found is None or found.id is None:
            raise Refused(f"account {ref} was not created: nothing sent")
        ids.append(found.id)
    return ids


async def _send(client: PlatformClient, lookups: Lookups, p: RowPlan, target: int) -> str:
    """One write; its success line (raises `PlatformError` as the client does, `Refused`
    when the platform made an update in part). An account's number the customer brings
    goes after it, once: its refusal fails the row with what was written said (a rerun
    plans the number again); its lost reply is read back with the row."""
    message = await _send_row(client, lookups, p, target)
    _created(lookups, p)
    if not p.bring:
        return message
    account = target if p.outcome == "update" else _made_id(message)
    if account is None:
        found = await lookups.account(p.row.external_id)
        account = found.id if found is not None else None
    if account is None:
        raise Refused(f"{message}; its account was not found again: {p.bring} not brought")
    try:
        brought = await _bring(client, p, account)
    except PlatformError as exc:
        if outcome_unknown(exc):
            raise
        raise Refused(f"{message}; {p.bring} not brought: {describe(exc)}") from None
    return f"{message}; {brought}" if message != "updated" or p.body else brought


def _made_id(message: str) -> int | None:
    text = message.removeprefix("created ")
    return int(text) if text != message and text.isdecimal() else None


async def _bring(client: PlatformClient, p: RowPlan, account: int) -> str:
    await client.bring_number(p.bring, target=account)
    return f"brought {p.bring}"


async def _send_row(client: PlatformClient, lookups: Lookups, p: RowPlan, target: int) -> str:
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
    if not p.body:
        return "updated"  # nothing but its number to bring
    reply: m.SettingsChange
    if row.kind == "organization":
        reply = await client.update_organization(target, m.OrganizationUpdate(**_snake(p.body)))
    else:
        reply = await client.update_account(target, m.AccountUpdate(**_snake(p.body)))
    if reply.failed_settings:
        failed = "; ".join(f"{s} ({reply.reason(s) or 'refused'})" for s in reply.failed_settings)
        raise Refused(f"saved: {', '.join(reply.updated_settings) or 'nothing'}; "
                      f"not saved: {failed}")  # fmt: skip
    return "updated"


_SNAKE = {"orgName": "org_name", "accountName": "account_name", "active": "active",
          "externalBillingId": "external_billing_id"}  # fmt: skip


def _snake(body: Mapping[str, Any]) -> dict[str, Any]:
    return {_SNAKE[k]: v for k, v in body.items()}


def _created(lookups: Lookups, p: RowPlan) -> None:
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
