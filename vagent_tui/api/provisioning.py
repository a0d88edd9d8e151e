"""The tree's own operations: create, update and delete resellers, organizations and
agent accounts, and find one by its external id (issue 28; CONTRACT choices 40-47)."""

from __future__ import annotations

from vagent_tui.api import models as m
from vagent_tui.api.replies import Json
from vagent_tui.api.scope import ScopeLevel
from vagent_tui.api.streaming import StreamingTransport
from vagent_tui.api.targets import LevelTarget, Target


class ProvisioningApi(StreamingTransport):
    """``/createReseller``, ``/createOrganization``, ``/createAccount``, the updates, the
    deletes and ``/getAccountByExternalId``."""

    def _created(self, payload: Json, method: str, path: str) -> m.Account | None:
        """The account a create answers: under ``account``, ``organization`` or
        ``reseller``, whichever holds an object (the reference shows a string there);
        None when none does."""
        for key in ("account", "organization", "reseller"):
            value = payload.get(key)
            if isinstance(value, dict):
                return self._parse(m.Account, value, method=method, url=path)
        return None

    async def _create(
        self, path: str, level: ScopeLevel, parent_id: int, body: m.Request
    ) -> m.Account | None:
        target = LevelTarget(level, parent_id)
        payload = await self.request("POST", path, target=target, json=body.wire())
        return self._created(payload, "POST", path)

    async def create_reseller(self, partner_id: int, new: m.NewReseller) -> m.Account | None:
        """``POST /createReseller`` under ``partner_id``: the new reseller, if answered."""
        return await self._create("/createReseller", ScopeLevel.PARTNER, partner_id, new)

    async def create_organization(
        self, reseller_id: int, new: m.NewOrganization
    ) -> m.Account | None:
        """``POST /createOrganization`` under ``reseller_id``."""
        return await self._create("/createOrganization", ScopeLevel.RESELLER, reseller_id, new)

    async def create_account(
        self, organization_id: int, new: m.NewAgentAccount
    ) -> m.Account | None:
        """``POST /createAccount`` under ``organization_id``."""
        return await self._create("/createAccount", ScopeLevel.ORGANIZATION, organization_id, new)

    async def _settings(self, path: str, target: Target, json: Json) -> m.SettingsChange:
        payload = await self.request("POST", path, target=target, json=json)
        return self._parse(m.SettingsChange, payload, method="POST", url=path)

    async def update_account(self, account_id: int, update: m.AccountUpdate) -> m.SettingsChange:
        """``POST /updateAccount``: what was applied and what failed (a partial success
        is a success; nothing applied is an error carrying the platform's message)."""
        return await self._settings("/updateAccount", account_id, update.wire())

    async def update_organization(
        self, organization_id: int, update: m.OrganizationUpdate
    ) -> m.SettingsChange:
        """``POST /updateOrganization`` (as `update_account`)."""
        target = LevelTarget(ScopeLevel.ORGANIZATION, organization_id)
        return await self._settings("/updateOrganization", target, update.wire())

    async def delete_account(self, organization_id: int, account_id: int) -> m.Envelope:
        """``DELETE /deleteAccount``: an agent account of ``organization_id`` (a 404:
        already gone)."""
        target = LevelTarget(ScopeLevel.ORGANIZATION, organization_id)
        body = {"targetAccountId": account_id}
        return await self._envelope("DELETE", "/deleteAccount", target=target, json=body)

    async def delete_organization(self, reseller_id: int, organization_id: int) -> m.Envelope:
        """``DELETE /deleteOrganization``: an organization of ``reseller_id``."""
        target = LevelTarget(ScopeLevel.RESELLER, reseller_id)
        body = {"targetOrganizationId": organization_id}
        return await self._envelope("DELETE", "/deleteOrganization", target=target, json=body)

    async def account_by_external_id(self, external_id: str) -> m.Account:
        """``GET /getAccountByExternalId``: the account of the key's reach holding
        ``external_id`` (``account`` in the reply, or the reply itself); 404 when none."""

        def parse(payload: Json) -> m.Account:
            account = payload.get("account")
            return self._parse(
                m.Account,
                account if isinstance(account, dict) else payload,
                url="/getAccountByExternalId",
            )

        params = {"externalAccountId": external_id}
        return await self.get("/getAccountByExternalId", parse, params=params)
