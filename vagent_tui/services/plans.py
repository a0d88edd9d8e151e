"""A plan as the platform sends it: its fields as lines, its name and id, what the
catalog adds, today's counts against the limits, and the plan reads of the plans panel.

Nothing is guessed of a plan's shape: every leaf of the reply is a ``(path, text)``
line (`plan_lines`), the names of wrappers dropped; a name or a catalog id is looked
for under the usual keys only (`plan_name`, `plan_id`).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from vagent_tui.api.bounded import LeftOut
from vagent_tui.api.client import PlatformClient
from vagent_tui.api.usage_models import OpenReply
from vagent_tui.services.usage import as_number, fmt_number

PLAN_WRAPPERS = ("plan", "currentplan", "data", "product", "productplan")
"""Names of containers dropped from the front of a plan's field names."""


def _flat(node: Any, path: str = "") -> Iterable[tuple[str, Any]]:
    if isinstance(node, Mapping):
        for key, value in node.items():
            yield from _flat(value, f"{path}.{key}" if path else str(key))
    elif isinstance(node, list) and node and all(isinstance(v, Mapping) for v in node):
        for index, value in enumerate(node, 1):
            yield from _flat(value, f"{path}[{index}]")
    else:
        yield path, node


def plan_lines(plan: OpenReply) -> list[tuple[str, str]]:
    """Every leaf of the plan reply as ``(path, text)``, wrappers' names dropped."""
    out = []
    for path, value in _flat(plan.body()):
        parts = path.split(".")
        while len(parts) > 1 and parts[0].lower() in PLAN_WRAPPERS:
            parts.pop(0)
        number = as_number(value)
        if number is not None and not isinstance(value, str):
            text = fmt_number(number)
        elif isinstance(value, list):
            text = ", ".join(str(v) for v in value)
        else:
            text = "" if value is None else str(value)
        out.append((".".join(parts), text))
    return out


PLAN_NAMES = ("name", "planName", "title", "productName", "label", "id", "plan")


def plan_name(plan: OpenReply | None) -> str:
    """The plan's name where the reply has one under a usual key (at the top or inside
    the wrappers `plan_lines` drops), else "".

    Only those objects are looked at, not every field: the fleet asks this of every
    account.
    """
    if plan is None:
        return ""
    found: dict[str, Any] = {}
    node: Any = plan.body()
    while isinstance(node, Mapping):
        found.update((str(k), v) for k, v in node.items() if not isinstance(v, Mapping | list))
        node = next(
            (
                v
                for k, v in node.items()
                if str(k).lower() in PLAN_WRAPPERS and isinstance(v, Mapping)
            ),
            None,
        )
    for key in PLAN_NAMES:
        value = found.get(key)
        if value is None or isinstance(value, bool) or value == "":
            continue
        number = as_number(value) if not isinstance(value, str) else None
        return fmt_number(number) if number is not None else str(value)
    return ""


def plan_id(plan: OpenReply | None) -> str:
    """The plan's catalog id where the reply has one (``id``, ``productPlanId``), else ""."""
    if plan is None:
        return ""
    lines = dict(plan_lines(plan))
    return next((lines[k] for k in ("productPlanId", "planId", "id") if lines.get(k)), "")


def catalog_lines(plan: OpenReply | None, product: OpenReply | None) -> list[tuple[str, str]]:
    """What the catalog's plan says beyond the account's plan reply (lines of ``product``
    whose field or value the current plan does not have)."""
    if product is None:
        return []
    known = set(plan_lines(plan)) if plan is not None else set()
    return [line for line in plan_lines(product) if line not in known]


def today_lines(counts: OpenReply | None, limits: OpenReply | None) -> list[tuple[str, str]]:
    """Today's counts against the daily limits (``counts.x`` and ``limits.daily.x``):
    ``(name, "5 of 100")``; a count without a limit is the count alone."""
    sent = counts.body().get("counts") if counts else None
    daily = (limits.body().get("limits") or {}) if limits else {}
    caps = daily.get("daily") if isinstance(daily, Mapping) else None
    caps = caps if isinstance(caps, Mapping) else {}
    if not isinstance(sent, Mapping):
        return []
    out = []
    for name, value in sent.items():
        number = as_number(value)
        if number is None:
            continue
        cap = as_number(caps.get(name))
        text = fmt_number(number) + (f" of {fmt_number(cap)}" if cap is not None else "")
        out.append((str(name), text))
    return out


PlanRead = Callable[[PlatformClient, "int | None"], Awaitable[OpenReply]]
PLAN_READS: tuple[tuple[str, str, PlanRead], ...] = (
    ("Current plan", "/product/currentPlan", lambda c, t: c.get_current_plan(target=t)),
    ("Offered", "/product/offeredPlan", lambda c, t: c.get_offered_plan(target=t)),
    ("Available plans", "/product/allAvailablePlans",
     lambda c, t: c.get_available_plans(target=t)),
    ("Catalog", "/product/productCatalog", lambda c, t: c.get_product_catalog(target=t)),
    ("Add-ons", "/addon/available", lambda c, t: c.get_available_addons(target=t)),
)  # fmt: skip
"""The plan reads the plans panel shows: its title, the path, the client's method."""


@dataclass(frozen=True)
class PlanPart:
    """One plan read: its reply's fields as sent, or why it was not read."""

    title: str
    path: str
    reply: OpenReply | None = None
    error: str = ""

    @property
    def lines(self) -> list[tuple[str, str]]:
        """Every field of the reply as ``(path, text)`` (`plan_lines`: nothing guessed)."""
        return plan_lines(self.reply) if self.reply is not None else []

    @property
    def left_out(self) -> LeftOut:
        """What the reply held past the bounds it was read within (`OpenReply.left_out`)."""
        return self.reply.left_out if self.reply is not None else LeftOut()


_IN_RECORD = re.compile(r"^(.*?\[\d+\])\.(.+)$")


def record_groups(lines: Iterable[tuple[str, str]]) -> list[tuple[str, list[tuple[str, str]]]]:
    """``lines`` grouped by the record of a list they belong to (``plans[2].name`` ->
    ``plans[2]``, ``name``), in order; a field outside any list is a group of its own
    with the name "" (one line per record reads better than a line per field)."""
    out: list[tuple[str, list[tuple[str, str]]]] = []
    for key, value in lines:
        found = _IN_RECORD.match(key)
        record, field_name = (found.group(1), found.group(2)) if found else ("", key)
        if record and out and out[-1][0] == record:
            out[-1][1].append((field_name, value))
        else:
            out.append((record, [(field_name, value)]))
    return out


async def read_plans(client: PlatformClient, target: int | None) -> list[PlanPart]:
    """The account's plan, the plan offered to it, the plans available, the catalog and
    the add-ons, asked at once; a read the platform refuses or fails is that part's
    error (a catalog is a reseller's or partner's read), the others stand."""
    from vagent_tui.api.errors import PlatformError

    async def one(title: str, path: str, read: PlanRead) -> PlanPart:
        try:
            reply = await read(client, target)
        except PlatformError as exc:
            return PlanPart(title, path, error=exc.message)
        return PlanPart(title, path, reply)

    return list(await asyncio.gather(*(one(*read) for read in PLAN_READS)))
