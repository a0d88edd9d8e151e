"""The rest of the agent: the models the platform offers (``/models/supported``), the
agent's public link (``/agentUrl``, ``/checkAgentUrl``), a saved version replaced
(``POST /agent/{agentId}/versions/{versionId}``), the key owner's own details
(``POST /account``), a message in as a contact would send it (``/agent/receiveMessage``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from vagent_tui.api.replies import Json
from vagent_tui.api.streaming import StreamingTransport

if TYPE_CHECKING:
    from vagent_tui.api import agent_extras_models as x


def _models() -> type[x.ModelCatalog]:
    # Not at import: the client is built at start-up, its models on first use.
    from vagent_tui.api.agent_extras_models import ModelCatalog

    return ModelCatalog


class AgentExtrasApi(StreamingTransport):
    """The models the platform offers; the agent's public link."""

    async def list_models(self, *, target: int | None = None) -> x.ModelCatalog:
        """``GET /models/supported``: model id -> provider and ``canReason``."""

        def parse(payload: Json) -> x.ModelCatalog:
            return _models().of_reply(payload)

        return await self.get("/models/supported", parse, target=target)

    async def check_agent_link(
        self, username: str, slug: str, *, target: int | None = None
    ) -> x.SlugCheck:
        """``GET /checkAgentUrl``: whether ``slug`` (lowercased) is free for the agent."""
        from vagent_tui.api.agent_extras_models import SlugCheck, slug_of

        params = {"targetUsername": username, "slug": slug_of(slug)}
        return await self.get(
            "/checkAgentUrl", lambda p: self._parse(SlugCheck, p, url="/checkAgentUrl"),
            target=target, params=params,
        )  # fmt: skip

    async def get_agent_link(self, username: str, *, target: int | None = None) -> x.AgentLink:
        """``GET /agentUrl``: the agent's link. The platform makes one when the agent has
        none ("or create new one"), so the GET is sent as a change: once, refused on a
        read-only profile, journaled (CONTRACT choice 121)."""
        from vagent_tui.api.agent_extras_models import AgentLink

        payload = await self.request(
            "GET", "/agentUrl", target=target, params={"targetUsername": username}, writes=True
        )
        return self._parse(AgentLink, payload, url="/agentUrl")

    async def set_agent_link(
        self, link: x.AgentLinkRequest, *, target: int | None = None
    ) -> x.AgentLink:
        """``POST /agentUrl``: a new slug for the agent; its old link stops working."""
        from vagent_tui.api.agent_extras_models import AgentLink

        payload = await self.request("POST", "/agentUrl", target=target, json=link.wire())
        return self._parse(AgentLink, payload, method="POST", url="/agentUrl")

    async def replace_version(
        self,
        agent_config_id: str,
        version_id: int,
        snapshot: Mapping[str, Any],
        *,
        target: int | None = None,
    ) -> x.ReplacedVersion:
        """``POST /agent/{id}/versions/{versionId}``: the saved version's snapshot becomes
        ``snapshot`` (a whole configuration); its title stays."""
        from vagent_tui.api.agent_extras_models import ReplacedVersion

        path = f"/agent/{quote(agent_config_id, safe='')}/versions/{int(version_id)}"
        payload = await self.request("POST", path, target=target, json={"snapshot": dict(snapshot)})
        return self._parse(ReplacedVersion, payload, method="POST", url=path)

    async def update_own_details(self, details: x.OwnDetails) -> dict[str, Any]:
        """``POST /account`` without a target: the key owner's own details. The reply's
        shape is not published ("updated account details"): it is kept as sent."""
        return await self.request("POST", "/account", json=details.wire())

    async def receive_message(self, message: x.InboundMessage) -> x.QueuedMessage:
        """``POST /agent/receiveMessage`` (a reseller's or partner's key): the agent gets
        ``message`` as from ``source_address``; its answer goes to a webhook, not here."""
        from vagent_tui.api.agent_extras_models import QueuedMessage

        path = "/agent/receiveMessage"
        payload = await self.request("POST", path, json=message.wire())
        return self._parse(QueuedMessage, payload, method="POST", url=path)
