"""Templates and migrations (a reseller feature).

Templates are a resource of a reseller, so (spec rule 9) the reseller is selected by
``targetResellerId`` (checked like ``targetAccountId``; 400 when it names another kind
of account): a partner key names one of its resellers so. Without it the selected
account (the key owner, or ``targetAccountId``, which the simulator also takes for a
reseller) must be a reseller. Anything else is 403 ``Templates are a reseller feature;
select a reseller account``. A template id unknown
to that reseller is 404 ``Template not found``; a task id unknown to it is 404
``Migration task not found``. Lifecycle and counts: :mod:`vagent_tui.sim.migrations`.
"""

from __future__ import annotations

from typing import Any

from vagent_tui.sim import migrations
from vagent_tui.sim.account import Account
from vagent_tui.sim.common import SimError, opt_bool, opt_str_list
from vagent_tui.sim.endpoint import Ctx, route

FEATURE = "Templates are a reseller feature; select a reseller account"


def _reseller(ctx: Ctx) -> Account:
    acc = ctx.level_target({"targetResellerId": "reseller"})
    if acc.account_type != "reseller":
        raise SimError(403, FEATURE)
    return acc


def _template(ctx: Ctx, reseller: Account) -> dict[str, Any]:
    template = ctx.state.templates.get(ctx.path("templateId"))
    if template is None or template["owner"] != reseller.id:
        raise SimError(404, "Template not found")
    return template


async def templates_list(ctx: Ctx) -> dict[str, Any]:
    reseller = _reseller(ctx)
    items = [
        migrations.template_summary(ctx.state, t)
        for t in ctx.state.templates.values()
        if t["owner"] == reseller.id
    ]
    return {"success": True, "templates": items}


async def template_read(ctx: Ctx) -> dict[str, Any]:
    reseller = _reseller(ctx)
    template = _template(ctx, reseller)
    summary = migrations.template_summary(ctx.state, template)
    summary["agents"] = [
        {"accountId": aid, "agentConfigId": f"cfg-{aid}",
         "templateRevision": ctx.state.live[aid].get("templateRevision"),
         "overriddenFields": list(fields)}
        for aid, fields in template["overrides"].items()
    ]  # fmt: skip
    return {"success": True, "template": summary}


async def migrate(ctx: Ctx) -> dict[str, Any]:
    reseller = _reseller(ctx)
    template = _template(ctx, reseller)
    body = await ctx.json(required=False)
    dry_run = opt_bool(body, "dryRun", True)
    force = opt_bool(body, "forceMigrateOverriddenFields", False)
    sections = opt_str_list(body, "sectionsToMigrate")
    return migrations.start(ctx.state, template, dry_run=dry_run, sections=sections, force=force)


async def migration_status(ctx: Ctx) -> dict[str, Any]:
    reseller = _reseller(ctx)
    task = ctx.state.tasks.get(ctx.path("taskId"))
    if task is None or task["owner"] != reseller.id:
        raise SimError(404, "Migration task not found")
    return migrations.view(ctx.state, task)


ROUTES = [
    route("/templates", templates_list),
    route("/templates/migrations/{taskId}", migration_status),
    route("/templates/{templateId}", template_read),
    route("/templates/{templateId}/migrate", migrate, "POST"),
]
