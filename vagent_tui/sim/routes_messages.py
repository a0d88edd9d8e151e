"""Reading a room: ``GET /messages/{roomId}`` (api-facts; not in the spec).

The room must be one of the selected agent account's (either inbox): any other id,
another account's room included, is 404 ``Room not found``; an id that is not
``<number>:<number>`` is 400. The selected account must be an agent account, as for the
inboxes. The reply is the bare JSON array api-facts publishes; see
:mod:`vagent_tui.sim.inbox` for how messages are made.
"""

from __future__ import annotations

from typing import Any

from vagent_tui.sim.endpoint import Ctx, route
from vagent_tui.sim.inbox import room_messages


async def messages(ctx: Ctx) -> list[dict[str, Any]]:
    acc = ctx.agent_target()
    return room_messages(acc.id, ctx.path("roomId"), ctx.state.rooms, agent_name=acc.name)


ROUTES = [
    route("/messages/{roomId}", messages),
]
