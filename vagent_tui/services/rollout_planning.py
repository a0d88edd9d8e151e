"""Making a rollout plan: each account read and the change planned against it.

`plan_rollout` reads every account of the rollout (at most ``concurrency`` in flight, the
bulk engine's pool), `plan_account` one of them: staging, live and, when the change needs
them, voices and functions, a read that fails on a flaky link asked again. A failing
account is its ``unreadable`` outcome and never stops the others. `catalog_of` is what
the Rollout form checks a change's names against before planning. The plan they make,
and its file: `vagent_tui.services.rollout`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from vagent_tui.api.client import PlatformClient
from vagent_tui.services.accounts import NamedAccount
from vagent_tui.services.bulk import DEFAULT_CONCURRENCY, in_pool
from vagent_tui.services.changes import Change
from vagent_tui.services.diff import diff_configs
from vagent_tui.services.fleet import describe
from vagent_tui.services.reread import read_again
from vagent_tui.services.rollout import (
    AccountPlan,
    Outcome,
    RolloutPlan,
    change_lines,
    change_problem,
    pack,
)
from vagent_tui.services.staging import context_for, plan_for
from vagent_tui.words import counted

if TYPE_CHECKING:
    from vagent_tui.api.agent_extras_models import ModelCatalog
    from vagent_tui.api.models import FunctionDescriptor, Voice


async def catalog_of(
    client: PlatformClient, account_id: int
) -> tuple[list[Voice], list[FunctionDescriptor], ModelCatalog | None]:
    """The voices and functions one account may name and the models the platform offers,
    asked at once (the form checks a change's names against them before planning).

    The models are None when their read failed or listed none: the voices and functions
    still check.
    """
    voices, functions, models = await asyncio.gather(
        client.list_voices(target=account_id), client.list_functions(account_id),
        client.list_models(target=account_id), return_exceptions=True,
    )  # fmt: skip
    for got in (voices, functions):
        if isinstance(got, BaseException):
            raise got
    assert isinstance(voices, list) and isinstance(functions, list)
    if isinstance(models, BaseException) or not models.read:
        return voices, functions, None  # an empty list would refuse every model
    return voices, functions, models


async def plan_account(
    client: PlatformClient,
    account: NamedAccount,
    change: Change,
    keep: Callable[[Mapping[str, Any]], bool] | None = None,
) -> AccountPlan | None:
    """One account's plan; a failed read is its ``unreadable`` outcome, never raised.

    None: ``keep`` turned the account's configuration down (a filter on its voice...).
    """
    account_id = account.id or 0
    name = account.display_name
    try:
        # A read that fails on a flaky link is asked again: one account out of hundreds
        # must not be left out of the plan for a dropped reply.
        context = await read_again(
            client, lambda: context_for(client, account_id, change, lean=True)
        )
    except Exception as exc:  # one account's failure is its outcome
        return AccountPlan(account_id, name, "unreadable", reasons=(describe(exc),))
    if keep is not None and not keep(context.base):
        return None
    plan = plan_for(change, context)
    if plan.refused:
        reasons = tuple(str(r) for r in plan.refusals)
        return AccountPlan(account_id, name, "refused", reasons=reasons)
    outcome: Outcome = "already" if plan.already else "change"
    notes = plan.notes
    if outcome == "change" and context.staging is not None and context.staging != context.live:
        # Compared first: most stagings equal live, and then nothing needs to be listed.
        drafts = diff_configs(context.live or {}, context.staging)
        if drafts:
            notes += (f"staging already holds {counted(len(drafts), 'other unpublished change')}: "
                      "the rollout's publish leaves this account out",)  # fmt: skip
    return AccountPlan(
        account_id, name, outcome, body=plan.body, changes=change_lines(plan.diffs, client.redact),
        packed_base=pack(context.base) if outcome == "change" else None, notes=notes,
    )  # fmt: skip


async def plan_rollout(
    client: PlatformClient,
    accounts: Sequence[NamedAccount],
    change: Change,
    *,
    concurrency: int = DEFAULT_CONCURRENCY,
    on_plan: Callable[[AccountPlan | None], object] | None = None,
    keep: Callable[[Mapping[str, Any]], bool] | None = None,
    origin: str = "",
    chosen: str = "",
) -> RolloutPlan:
    """Plan ``change`` for every account, at most ``concurrency`` accounts at a time.

    ``on_plan`` gets each account's plan as it is made (progress; None for an account
    that ``keep`` left out). The result keeps the order of ``accounts``. Cancelling the
    awaiting task stops the reads in flight.

    Raises:
        ValueError: no account could take the change (`change_problem`).
    """
    problem = change_problem(change)
    if problem:
        raise ValueError(problem)
    accounts = list({a.id: a for a in accounts}.values())  # one entry per account
    results: dict[int, AccountPlan | None] = {}

    async def each(account: NamedAccount) -> None:
        plan = await plan_account(client, account, change, keep)
        results[account.id or 0] = plan
        if on_plan is not None:
            on_plan(plan)

    await in_pool(accounts, concurrency, each)
    planned = [p for a in accounts if (p := results[a.id or 0]) is not None]
    return RolloutPlan(change, planned, origin=origin, chosen=chosen,
                       left_out=len(accounts) - len(planned))  # fmt: skip
