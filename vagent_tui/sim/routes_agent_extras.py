"""The rest of the agent: the models the platform offers.

* ``GET /models/supported`` answers the map of model id to ``{provider, canReason}``,
  bare, as the vendor's example does (no ``success`` beside it; CONTRACT choice 120).
"""

from __future__ import annotations

from vagent_tui.sim.agent_extras import supported_models
from vagent_tui.sim.endpoint import Ctx, Reply, route


async def models_supported(_ctx: Ctx) -> Reply:
    return supported_models()


ROUTES = [
    route("/models/supported", models_supported),
]
