"""The agent of an account: its functions, voices, slots (staging and live), saved
versions, and the changes to them (write, publish, revert, save, restore)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal
from urllib.parse import quote

from vagent_tui.api import models as m
from vagent_tui.api.replies import Json
from vagent_tui.api.streaming import StreamingTransport


class AgentsApi(StreamingTransport):
    """``/agent``, ``/agentEventRules`` and the saved versions of an agent."""

    async def list_functions(
        self, target: int, *, shared: bool = False
    ) -> list[m.FunctionDescriptor]:
        """``GET /agent/functions``: ``targetAccountId`` is required here.

        ``shared``: the descriptors may be those of an earlier like reply, read only.
        """
        return await self._get_list(
            m.FunctionDescriptor, "/agent/functions", "functions", target=target, shared=shared
        )

    async def list_voices(self, *, target: int | None = None) -> list[m.Voice]:
        return await self._get_list(m.Voice, "/agent/voices", "voices", target=target)

    async def _campaign(self, path: str, target: int | None) -> m.AgentConfig | None:
        def parse(payload: Json) -> m.AgentConfig | None:
            campaign = payload.get("campaign")
            return None if campaign is None else self._parse(m.AgentConfig, campaign, url=path)

        return await self.get(path, parse, target=target)

    async def get_slot(
        self,
        slot: Literal["staging", "default"],
        *,
        target: int | None = None,
        checked: bool = True,
    ) -> dict[str, Any] | None:
        """A slot (``staging``, or ``default``: live) as the platform spelt it, what
        ``get_staging(...).wire()`` gives, without building the model when the reply
        needs nothing of it (`vagent_tui.api.as_sent`); None when the slot is empty.

        Checked like the model inside the retry policy: a reply the model refuses is
        asked again. Not ``checked``: any JSON object is taken as it came (for a caller
        that checks it itself, `slot_as_sent`, or only compares it).
        """
        path = f"/agentEventRules/{slot}"

        def parse(payload: Json) -> dict[str, Any] | None:
            campaign = payload.get("campaign")
            if campaign is None:
                return None
            if not checked and type(campaign) is dict:
                return campaign
            return self.slot_as_sent(campaign, path)

        return await self.get(path, parse, target=target)

    def slot_as_sent(self, campaign: Any, path: str = "/agentEventRules") -> dict[str, Any]:
        """A slot's configuration as a checked `get_slot` gives it.

        Raises:
            MalformedResponse: the model refuses it.
        """
        config: dict[str, Any] = self._as_sent(m.AgentConfig, campaign, url=path)
        return config

    async def get_agent(
        self, agent_config_id: str, *, target: int | None = None
    ) -> m.AgentConfig | None:
        return await self._campaign(f"/agent/{quote(agent_config_id, safe='')}", target)

    async def get_staging(self, *, target: int | None = None) -> m.AgentConfig | None:
        """The staging slot of the selected account; None when staging is empty."""
        return await self._campaign("/agentEventRules/staging", target)

    async def get_live(self, *, target: int | None = None) -> m.AgentConfig | None:
        """The live (``default``) slot of the selected account."""
        return await self._campaign("/agentEventRules/default", target)

    async def review_agent(
        self, agent_config_id: str, *, target: int | None = None
    ) -> m.AgentReview:
        """``POST /agent/autoReviewAgentConfiguration`` in ``agent`` mode: the platform's
        suggestions for the agent's instructions, greeting, actions and apps.

        A read, though a POST: it changes nothing, so it is retried like a GET and allowed
        on a read-only profile (``reads``). The reply is read leniently: an object of the
        suggestions, else nothing suggested.
        """
        payload = await self.request(
            "POST",
            "/agent/autoReviewAgentConfiguration",
            target=target,
            json={"mode": "agent", "agentId": agent_config_id},
            reads=True,
            body_optional=True,
        )
        return self._parse(
            m.AgentReview, payload, method="POST", url="/agent/autoReviewAgentConfiguration"
        )

    async def list_versions(
        self, agent_config_id: str, *, include_data: bool = False, target: int | None = None
    ) -> list[m.SavedVersion]:
        return await self._get_list(
            m.SavedVersion,
            f"/agent/{quote(agent_config_id, safe='')}/versions",
            "versions",
            target=target,
            # Optional flags go only when set: nobody asked for includeData=false.
            params={"includeData": True} if include_data else None,
        )

    async def rename_version(
        self, agent_config_id: str, version_id: int, title: str, *, target: int | None = None
    ) -> m.TitleChange:
        """``PUT .../versions/{versionId}/title``: changes only the display title."""
        body = m.TitleRequest(title=title).wire()
        path = f"/agent/{quote(agent_config_id, safe='')}/versions/{int(version_id)}/title"
        payload = await self.request("PUT", path, target=target, json=body)
        return self._parse(m.TitleChange, payload, method="PUT", url=path)

    # ------------------------------------------------------------------ agent changes

    async def write_staging(
        self, settings: Mapping[str, Any], *, target: int | None = None
    ) -> m.StagingWrite:
        """``POST /agent``: these settings (wire names) into the staging slot.

        Omitted settings keep their staging values; ``actions``, ``apps``, ``skills``
        and ``reportingFields`` replace whole, so a caller sends their full new lists.
        """
        if not settings:
            raise ValueError("a staging write needs at least one setting")
        payload = await self.request("POST", "/agent", target=target, json=dict(settings))
        return self._parse(m.StagingWrite, payload, method="POST", url="/agent")

    async def publish_staging(self, *, target: int | None = None) -> m.Published:
        """``POST /agent/publish``: staging becomes live (and a version of it is saved)."""
        payload = await self.request("POST", "/agent/publish", target=target, json={})
        return self._parse(m.Published, payload, method="POST", url="/agent/publish")

    async def revert_staging(self, *, target: int | None = None) -> m.Envelope:
        """``POST /agent/revert``: staging is emptied; live stays as it is."""
        return await self._envelope("POST", "/agent/revert", target=target, json={})

    async def save_version(
        self, agent_config_id: str, title: str, source: m.Slot, *, target: int | None = None
    ) -> m.CreatedVersion:
        """``POST /agent/{id}/versions``: a saved version of staging or live (``default``).

        ``agent_config_id`` is the live configuration's id (versions belong to it).
        """
        body = m.VersionRequest(title=title, source=source).wire()
        path = f"/agent/{quote(agent_config_id, safe='')}/versions"
        payload = await self.request("POST", path, target=target, json=body)
        created = payload.get("createdVersion")
        return self._parse(
            m.CreatedVersion, created if isinstance(created, dict) else {}, method="POST", url=path
        )

    async def restore_version(
        self, agent_config_id: str, version_id: int, into: m.Slot, *, target: int | None = None
    ) -> m.Envelope:
        """``POST .../versions/{versionId}/restore``: the snapshot into staging or live."""
        body = m.RestoreRequest(target=into).wire()
        path = f"/agent/{quote(agent_config_id, safe='')}/versions/{int(version_id)}/restore"
        return await self._envelope("POST", path, target=target, json=body)
