"""The rest of the agent: the models the platform offers (``/models/supported``)."""

from __future__ import annotations

from vagent_tui.api import agent_extras_models as x
from vagent_tui.api.replies import Json
from vagent_tui.api.streaming import StreamingTransport


class AgentExtrasApi(StreamingTransport):
    """The models the platform offers."""

    async def list_models(self, *, target: int | None = None) -> x.ModelCatalog:
        """``GET /models/supported``: model id -> provider and ``canReason``."""

        def parse(payload: Json) -> x.ModelCatalog:
            return x.ModelCatalog.of_reply(payload)

        return await self.get("/models/supported", parse, target=target)
