"""``GET``/``PUT /integration/{integrationSlug}/{integrationVersion}``: an account's
integration data (CONTRACT choices 135-137).

The data is made from the account on its first read (`made`): each integration the
account has connected (``calendar``, ``sms``, ``payments``, ``crm``) is a slug at
``v1`` with data of its kind, secrets included; nothing else exists (404). A PUT
replaces the whole ``appData`` of data that exists.
"""

from __future__ import annotations

from typing import Any

from vagent_tui.sim.account import Account
from vagent_tui.sim.common import SimError, bad
from vagent_tui.sim.endpoint import Ctx, route
from vagent_tui.sim.state import SimState

NOT_FOUND = "Integration data not found"
KINDS: dict[str, dict[str, Any]] = {
    "calendar": {"provider": "google", "calendarId": "{user}@calendar.example",
                 "apiKey": "AIza-{id}-calendar-key", "bufferMinutes": 15},
    "sms": {"provider": "twilio", "accountSid": "AC{id}", "authToken": "tw-{id}-token",
            "fromNumber": "+1415555{id4}"},
    "payments": {"provider": "stripe", "secretKey": "sk_test_{id}", "currency": "USD",
                 "webhook": {"url": "https://pay.example/{id}", "signingSecret": "whsec_{id}"}},
    "crm": {"provider": "hubspot", "portalId": "{id}", "accessToken": "pat-{id}",
            "fields": ["name", "phone", "email"], "owner": {"email": "{user}@example.com",
                                                            "password": "crm-{id}-pw"}},
}  # fmt: skip


def _fill(value: Any, acc: Account) -> Any:
    if isinstance(value, dict):
        return {k: _fill(v, acc) for k, v in value.items()}
    if isinstance(value, list):
        return [_fill(v, acc) for v in value]
    if isinstance(value, str):
        return value.format(id=acc.id, id4=f"{acc.id % 10000:04d}", user=acc.username)
    return value


def made(state: SimState, acc: Account) -> dict[str, dict[str, Any]]:
    """The account's integrations by ``slug/version``, made on first use (choice 135)."""
    held = state.integrations.get(acc.id)
    if held is None:
        held = {f"{name}/v1": _fill(KINDS[name], acc) for name in acc.integrations if name in KINDS}
        state.integrations[acc.id] = held
    return held


def _key(ctx: Ctx) -> str:
    return f"{ctx.path('integrationSlug')}/{ctx.path('integrationVersion')}"


def _reply(ctx: Ctx, data: dict[str, Any], message: str) -> dict[str, Any]:
    return {"success": True, "message": message, "appId": ctx.path("integrationSlug"),
            "appVersion": ctx.path("integrationVersion"), "appData": data}  # fmt: skip


async def read(ctx: Ctx) -> dict[str, Any]:
    data = made(ctx.state, ctx.target).get(_key(ctx))
    if data is None:
        raise SimError(404, NOT_FOUND)
    return _reply(ctx, data, "Integration data found")


async def update(ctx: Ctx) -> dict[str, Any]:
    """Replace the whole ``appData`` of existing data (choice 136)."""
    body = await ctx.json()
    data = body.get("appData")
    if not isinstance(data, dict):
        raise bad("appData is required")
    held = made(ctx.state, ctx.target)
    if _key(ctx) not in held:
        raise SimError(404, NOT_FOUND)
    held[_key(ctx)] = data
    return _reply(ctx, data, "Integration data updated successfully")


PATH = "/integration/{integrationSlug}/{integrationVersion}"
ROUTES = [route(PATH, read, "GET"), route(PATH, update, "PUT")]
