"""What ``vagent-tui get KIND`` runs for the screens' lists (`vagent_tui.commands.get`).

Each kind reads through the service or the client call its screen uses, with the
connection the runner opened (the target: ``--account`` or the profile's), and writes
plain dicts (their shapes: `vagent_tui.commands.shapes_reads`) as they come. The text
filter (``--filter``) keeps the items whose shown columns hold every word, as a screen's
``/`` keeps rows; ``--limit`` stops after so many items.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from vagent_tui.commands.contract import CommandError, Refused
from vagent_tui.commands.output import Output, cell_text

if TYPE_CHECKING:
    from vagent_tui.api.models import FunctionDescriptor, OutboundTask, Voice
    from vagent_tui.commands.runner import Context


# ---------------------------------------------------------------------------- values


def iso(moment: datetime | None) -> str | None:
    """A time as ISO 8601 in UTC (``2026-12-07T09:30:00Z``), None for none."""
    if moment is None:
        return None
    return moment.astimezone(UTC).isoformat().replace("+00:00", "Z")


def text(value: Any) -> str | None:
    """A value the platform may send of any type, as text (None stays None; a number or
    a list becomes its JSON)."""
    if value is None:
        return None
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, default=str)


def integer(value: Any) -> int | None:
    """An id the platform may send as a number or numeric text; None otherwise."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isdecimal():
        return int(value.strip())
    return None


# ---------------------------------------------------------------------------- writing


class Items:
    """The items of one kind: filtered by ``--filter``'s words, cut at ``--limit``."""

    def __init__(self, ctx: Context, kind: str, columns: Sequence[str]) -> None:
        self.out: Output = ctx.output(kind, columns)
        self.columns = tuple(columns)
        self.words = tuple(str(getattr(ctx.args, "filter", "") or "").lower().split())
        self.limit: int | None = getattr(ctx.args, "limit", None)

    def __enter__(self) -> Items:
        return self

    def __exit__(self, *exc: object) -> None:
        self.out.close()

    @property
    def full(self) -> bool:
        return self.limit is not None and self.out.count >= self.limit

    def holds(self, item: Mapping[str, Any]) -> bool:
        """Every word of ``--filter`` is in the item's shown columns (any case)."""
        if not self.words:
            return True
        row = " ".join(cell_text(item.get(c)) for c in self.columns).lower()
        return all(word in row for word in self.words)

    def write(self, item: Mapping[str, Any]) -> bool:
        """Write ``item`` if it holds the words; False once ``--limit`` items are out."""
        if self.full:
            return False
        if self.holds(item):
            self.out.write(item)
        return not self.full


# ---------------------------------------------------------------------------- agents


async def get_agents(ctx: Context) -> int:
    from vagent_tui.services.accounts import AccountDirectory
    from vagent_tui.services.agent_listing import list_agents
    from vagent_tui.services.rollout_pick import AccountFilter, pick_accounts

    conn = ctx.connection
    if conn.scope is None or conn.owner is None:
        raise CommandError("not connected")
    ctx.messages.say("listing the agent accounts below the key")
    listing = await list_agents(conn.api, AccountDirectory(conn.api, conn.scope, conn.owner))
    below: int | None = ctx.args.below
    if below is not None and below != conn.owner.id and not listing.path_of(below):
        raise Refused(f"account {below} is not below this key")
    words = str(ctx.args.filter or "")
    picked = pick_accounts(
        listing.accounts, path_of=listing.path_of, under=below,
        account_filter=AccountFilter(tuple(words.casefold().split())),
    )  # fmt: skip
    columns = ("id", "name", "username", "parent_id", "path")
    with ctx.output("agents", columns) as out:
        for account in picked:
            if ctx.args.limit is not None and out.count >= ctx.args.limit:
                break
            account_id = account.id or 0
            chain = listing.path_of(account_id)
            out.write({
                "id": account_id,
                "name": account.display_name,
                "username": account.username,
                "parent_id": listing.parents.get(account_id),
                "path": [a.display_name for a in chain if a.id != account_id],
            })  # fmt: skip
    return 0


# ---------------------------------------------------------------------------- config


async def get_config(ctx: Context) -> int:
    from vagent_tui.services.agents import load_agent
    from vagent_tui.services.masking import public_config

    conn = ctx.connection
    if not conn.is_agent_selected:
        kind = conn.acting_type or "this"
        raise CommandError(
            f"an agent's configuration needs an agent account ({kind} account selected): "
            "give one with --account ID (vagent-tui get agents lists them)"
        )
    slots = await load_agent(conn.api, conn.target_id)
    live = slots.live.wire() if slots.live is not None else None
    staging = slots.staging.wire() if slots.staging is not None else None
    shown_staging = staging if staging is not None else live
    differing = sorted(
        k for k in (live or {}).keys() | (staging or {}).keys()
        if staging is not None and live is not None and live.get(k) != staging.get(k)
    )  # fmt: skip
    wanted = (ctx.args.slot,) if ctx.args.slot else ("staging", "live")
    columns = ("account_id", "slot", "staging_is_empty", "id", "title", "differing_fields")
    with Items(ctx, "config", columns) as items:
        for slot in wanted:
            config = shown_staging if slot == "staging" else live
            # The command line's one rule (as pull and the diffs): every secret masked,
            # the key too; what the platform computes kept (this is a read).
            public = None if config is None else public_config(config, conn.api.redact,
                                                               computed=True)  # fmt: skip
            items.write({
                "account_id": conn.acting_id,
                "slot": slot,
                "staging_is_empty": staging is None,
                "id": text((public or {}).get("id")),
                "title": text((public or {}).get("title")),
                "differing_fields": differing if slot == "staging" else [],
                "config": public,
            })  # fmt: skip
    return 0


# ---------------------------------------------------------------------------- voices


def voice_item(voice: Voice) -> dict[str, Any]:
    availability = voice.account_availability
    return {
        "id": voice.id,
        "name": voice.name,
        "provider": voice.provider,
        "languages": list(voice.languages),
        "s2s_engines": list(voice.compatible_s2_s_engines),
        "standard_tts": voice.supports_standard_tts,
        "available": voice.available,
        "unavailable_reason": availability.reason if availability and not voice.available
        else None,
        "description": voice.description,
    }  # fmt: skip


async def get_voices(ctx: Context) -> int:
    from vagent_tui.services.agents import VoiceFilter, filter_voices

    conn, args = ctx.connection, ctx.args
    voices = await conn.api.list_voices(target=conn.target_id)
    wanted = VoiceFilter(
        language=args.language, engine=args.engine, standard_tts=args.tts,
        available=args.available, text=str(args.filter or "").strip(),
    )  # fmt: skip
    columns = ("id", "name", "provider", "languages", "s2s_engines", "standard_tts", "available")
    out: Output
    with ctx.output("voices", columns) as out:
        for voice in filter_voices(voices, wanted):
            if args.limit is not None and out.count >= args.limit:
                break
            out.write(voice_item(voice))
    return 0


# ---------------------------------------------------------------------------- functions


async def get_functions(ctx: Context) -> int:
    from vagent_tui.api.models import AgentConfig
    from vagent_tui.services.agents import cross_check, functions_with_slots, in_view

    conn = ctx.connection
    acting = conn.acting_id
    is_agent = conn.is_agent_selected
    functions, live, staging = await functions_with_slots(
        conn.api, acting or 0, conn.target_id, agent=is_agent
    )
    if isinstance(live, BaseException):
        raise live  # the screen shows the list and says this; a script is told it failed
    configured: Counter[str] | None = None
    findings = []
    if isinstance(live, AgentConfig):
        configured = Counter(a.name for a in live.actions)
        findings = cross_check(functions, live.actions)
    staged = Counter(a.name for a in staging.actions) if staging is not None else None
    if staged is None and configured is not None:
        staged = configured  # staging empty: it is live's
    columns = ("name", "label", "allowed", "limit", "require_paid", "require_computer",
               "configured", "staged")  # fmt: skip
    with Items(ctx, "functions", columns) as items:
        for fn in functions:
            if not in_view(fn, ctx.args.view, configured, findings):
                continue
            item = function_item(fn, configured, staged, [f.text for f in findings
                                                          if f.name == fn.name])  # fmt: skip
            if not items.write(item):
                break
    return 0


def function_item(
    fn: FunctionDescriptor,
    configured: Counter[str] | None,
    staged: Counter[str] | None,
    problems: list[str],
) -> dict[str, Any]:
    return {
        "name": fn.name,
        "label": fn.label,
        "allowed": fn.allowed,
        "reason": fn.reason,
        "limit": fn.limit,
        "require_paid": fn.require_paid,
        "require_computer": fn.require_computer,
        "missing_requirement": fn.missing_requirement,
        "docs_page": fn.docs_page,
        "configured": configured.get(fn.name, 0) if configured is not None else None,
        "staged": staged.get(fn.name, 0) if staged is not None else None,
        "problems": problems,
    }


# ---------------------------------------------------------------------------- members


async def get_members(ctx: Context) -> int:
    conn = ctx.connection
    members = await conn.api.list_members(target=conn.target_id)
    columns = ("id", "email", "name", "role", "status", "permitted_account_ids")
    with Items(ctx, "members", columns) as items:
        for member in members:
            item = {
                "id": member.id,
                "email": member.email,
                "name": member.name,
                "role": member.role,
                "status": member.status,
                "restricted": member.restricted,
                "permitted_account_ids": list(member.permitted_account_ids),
                "organization_id": member.organization_id,
            }
            if not items.write(item):
                break
    return 0


# ---------------------------------------------------------------------------- numbers


async def get_numbers(ctx: Context) -> int:
    conn = ctx.connection
    held = await conn.api.list_numbers(target=conn.target_id)
    columns = ("number", "locality", "region", "country", "source", "monthly_price",
               "currency", "since")  # fmt: skip
    with Items(ctx, "numbers", columns) as items:
        for number in held:
            price = number.price
            item = {
                "number": number.number,
                "locality": text(number.locality),
                "region": text(number.region),
                "country": text(number.country),
                "source": text(number.source),
                "monthly_price": str(price) if price is not None else None,
                "currency": text(number.currency),
                "since": iso(number.since),
            }
            if not items.write(item):
                break
    return 0


# ---------------------------------------------------------------------------- tasks


def task_item(task: OutboundTask) -> dict[str, Any]:
    return {
        "id": text(task.id),
        "account_id": integer(task.account_id),
        "type": text(task.type),
        "state": text(task.state),
        "target": text(task.target),
        "created_at": iso(task.when("created_at")),
        "updated_at": iso(task.when("updated_at")),
        "scheduled_for": iso(task.when("scheduled_for")),
        "started_at": iso(task.when("started_at")),
        "finished_at": iso(task.when("finished_at")),
        "result": task.result,
        "error": task.error,
        "waits_for": task.waits_for or None,
        "log_id": text(task.log_id),
        "external_task_id": text(task.external_task_id),
    }


async def get_tasks(ctx: Context) -> int:
    from vagent_tui.commands.get import TASK_WINDOWS
    from vagent_tui.services.page_walk import walk_pages
    from vagent_tui.services.paging import Ask, Pager
    from vagent_tui.services.tasks import PAGE_SIZE, TaskFilter, total_of

    conn, args = ctx.connection, ctx.args
    asked = TaskFilter(state=args.state, window=TASK_WINDOWS.index(args.window))
    now = datetime.now(UTC).timestamp()  # one window for every page: the list holds still
    pager: Pager[TaskFilter, OutboundTask] = Pager.of(asked, PAGE_SIZE)

    async def fetch(ask: Ask[TaskFilter]) -> tuple[list[OutboundTask], int | None]:
        page = await conn.api.list_tasks(ask.query.query(ask.page, now, ask.size),
                                         target=conn.target_id)  # fmt: skip
        return list(page.tasks), total_of(page)

    columns = ("id", "account_id", "type", "state", "target", "scheduled_for", "updated_at")
    with Items(ctx, "tasks", columns) as items:
        # The words filter after the pages come: --limit counts the items written.
        async for tasks in walk_pages(pager, fetch, key=lambda t: t.key or object()):
            ctx.messages.progress(items.out.count, pager.total, "tasks")
            if not all(items.write(task_item(task)) for task in tasks):
                break
    return 0


# ---------------------------------------------------------------------------- journal


async def get_journal(ctx: Context) -> int:
    from vagent_tui.services.journal import Journal, JournalFilter

    args = ctx.args
    filters = JournalFilter(
        text=str(args.filter or ""), method=args.method or "", status=args.status or "",
        profile=args.journal_profile or "", source=args.source or "",
    )  # fmt: skip
    columns = ("time", "source", "method", "path", "target", "status", "message", "profile")
    out: Output
    with ctx.output("journal", columns) as out:
        for entry in Journal().entries(filters):
            if args.limit is not None and out.count >= args.limit:
                break
            out.write({
                "time": entry.time,
                "profile": entry.profile,
                "source": entry.source,
                "method": entry.method,
                "path": entry.path,
                "target": entry.target,
                "target_param": entry.target_param,
                "status": entry.status,
                "ok": entry.ok,
                "message": entry.message,
                "elapsed_ms": entry.elapsed_ms,
                "body": entry.body,
            })  # fmt: skip
    return 0


# ---------------------------------------------------------------------------- tokens, webhooks


async def get_tokens(ctx: Context) -> int:
    conn = ctx.connection
    records = await conn.api.list_tokens(target=conn.target_id)
    columns = ("token", "description", "type", "created_at", "user_id")
    with Items(ctx, "tokens", columns) as items:
        for record in records:
            item = {
                "token": record.masked,  # never the value
                "description": record.description,
                "type": record.type,
                "created_at": iso(record.created_at),
                "user_id": record.user_id,
            }
            if not items.write(item):
                break
    return 0


async def get_webhooks(ctx: Context) -> int:
    conn = ctx.connection
    hooks = await conn.api.list_webhooks(target=conn.target_id)
    columns = ("url", "label", "type", "added_at", "user_id")
    with Items(ctx, "webhooks", columns) as items:
        for hook in hooks:
            item = {
                "url": hook.url,
                "label": hook.label,
                "type": hook.type,
                "added_at": iso(hook.added_at),
                "user_id": hook.user_id,
            }
            if not items.write(item):
                break
    return 0


# ---------------------------------------------------------------------------- sip


async def get_sip_whitelist(ctx: Context) -> int:
    conn = ctx.connection
    entries = await conn.api.list_sip_whitelist(target=conn.target_id)
    columns = ("ip", "label", "added_at", "user_id")
    with Items(ctx, "sip-whitelist", columns) as items:
        for entry in entries:
            item = {
                "ip": entry.ip,
                "label": entry.label,
                "added_at": iso(entry.added_at),
                "user_id": entry.user_id,
            }
            if not items.write(item):
                break
    return 0


async def get_sip_routes(ctx: Context) -> int:
    conn = ctx.connection
    routes = await conn.api.list_sip_routes(target=conn.target_id)
    with Items(ctx, "sip-routes", ("route",)) as items:
        for route in routes:
            if not items.write({"route": route}):
                break
    return 0
