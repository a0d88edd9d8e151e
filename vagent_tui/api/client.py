"""`PlatformClient`: one async method per endpoint of the platform API.

The credential travels in the ``token`` query parameter of every request (never a
header, per the spec). A target account becomes ``targetAccountId`` in the query,
except on the Computer Agent routes whose path already holds the account id. The
request machinery (errors, retries, redaction, observers) is in `transport`.

The endpoints of an area of many live in a class of their own that `PlatformClient`
inherits: the agent (`agents`), the inboxes (`inbox`), templates and migrations
(`templates`), Computer Agents (`computer`), the tree's provisioning (`provisioning`),
outbound calls and tasks (`outbound`), the conversation logs (`logs`), phone numbers
(`numbers`), SIP captures (`captures`), numbering providers (`numbering`), SIP routes
and registration (`sip`), what the agent knows about a caller (`caller_context`), plans'
subscriptions and the billing settings (`billing`), an integration's data
(`integrations`), the models the platform offers and the agent's link, versions and
messages in (`agent_extras`). Here: accounts, tokens, billing, usage and plans, SIP,
members and webhooks.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TypeGuard
from urllib.parse import quote

from vagent_tui.api import models as m
from vagent_tui.api.agent_extras import AgentExtrasApi
from vagent_tui.api.agents import AgentsApi
from vagent_tui.api.billing import BillingApi
from vagent_tui.api.caller_context import ContextApi
from vagent_tui.api.captures import CapturesApi
from vagent_tui.api.computer import ComputerApi
from vagent_tui.api.errors import MalformedResponse, redact_url
from vagent_tui.api.inbox import InboxApi
from vagent_tui.api.integrations import IntegrationsApi
from vagent_tui.api.listeners import Exchange, Observer
from vagent_tui.api.logs import LogsApi
from vagent_tui.api.numbering import NumberingApi
from vagent_tui.api.numbers import NumbersApi
from vagent_tui.api.outbound import OutboundApi
from vagent_tui.api.provisioning import ProvisioningApi
from vagent_tui.api.replies import Json
from vagent_tui.api.sip import SipApi
from vagent_tui.api.targets import Target
from vagent_tui.api.templates import TemplatesApi


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class OneTimeLogin:
    """A one-time login token: a credential, kept out of ``repr`` (and so of logs)."""

    token: str = field(repr=False)
    member_added: bool | None
    """The platform said it added the email as a member (None: it did not say)."""
    message: str


ONE_TIME_LOGIN = "/auth/account/oneTimeAuthToken"


class PlatformClient(
    AgentsApi,
    InboxApi,
    TemplatesApi,
    ComputerApi,
    ProvisioningApi,
    OutboundApi,
    LogsApi,
    NumbersApi,
    CapturesApi,
    NumberingApi,
    SipApi,
    ContextApi,
    BillingApi,
    IntegrationsApi,
    AgentExtrasApi,
):
    """An async client of the platform's ``/api/v2`` (the areas it inherits: the module's
    docstring)."""

    # ------------------------------------------------------------------ accounts

    async def get_account(self, *, target: int | None = None) -> m.Account:
        """``GET /account``: the key owner, or the selected account with a target."""

        def parse(payload: Json) -> m.Account:
            account = payload.get("account")
            return self._parse(
                m.Account, account if isinstance(account, dict) else payload, url="/account"
            )

        return await self.get("/account", parse, target=target)

    async def _child_page(
        self,
        path: str,
        key: str,
        total_key: str,
        params: dict[str, Any],
        page: int | None,
        page_size: int | None,
        target: int | None = None,
    ) -> m.AccountPage:
        if page is not None:
            params.update(pagination=True, page=page, pageSize=page_size or 50)

        def parse(payload: Json) -> m.AccountPage:
            items = self._parse_list(m.Account, payload, key, path)
            total, size, number = (payload.get(k) for k in (total_key, "pageSize", "pageNumber"))
            return m.AccountPage(
                items=items,
                total=total if _is_int(total) else len(items),
                page_size=size if _is_int(size) else None,
                page_number=number if _is_int(number) else None,
            )

        return await self.get(path, parse, params=params, target=target)

    async def list_resellers(
        self, partner_id: int, *, page: int | None = None, page_size: int | None = None
    ) -> m.AccountPage:
        params = {"targetPartnerId": partner_id}
        return await self._child_page(
            "/listResellers", "resellers", "totalResellers", params, page, page_size
        )

    async def list_organizations(
        self, reseller_id: int, *, page: int | None = None, page_size: int | None = None
    ) -> m.AccountPage:
        params = {"targetResellerId": reseller_id}
        return await self._child_page(
            "/listOrganizations", "organizations", "totalOrganizations", params, page, page_size
        )

    async def list_accounts(
        self, organization_id: int, *, page: int | None = None, page_size: int | None = None
    ) -> m.AccountPage:
        params = {"targetOrganizationId": organization_id}
        return await self._child_page(
            "/listAccounts", "accounts", "totalAccounts", params, page, page_size
        )

    async def search_accounts(
        self,
        query_text: str | None = None,
        *,
        account_type: str | None = None,
        page: int | None = None,
        page_size: int | None = None,
        target: int | None = None,
    ) -> m.AccountPage:
        """``GET /searchAccounts``: accounts below the selected one (``target``, else the
        key owner) whose name or username holds ``query_text``; ``total`` counts them all."""
        params = {"queryText": query_text or None, "accountType": account_type}
        return await self._child_page(
            "/searchAccounts", "accounts", "totalAccounts", params, page, page_size, target
        )

    # ------------------------------------------------------------------ tokens

    async def list_tokens(self, *, target: int | None = None) -> list[m.TokenRecord]:
        return await self._get_list(m.TokenRecord, "/tokens", "tokens", target=target)

    async def create_token(
        self, description: str, *, type: str = "admin", target: int | None = None
    ) -> m.TokenRecord:
        """``POST /tokens``: a new token; its secret is in the reply, and nowhere else.

        The spec shows ``token`` as a record; a reply whose ``token`` is the bare secret
        is read too, its other fields then taken from the reply's top level (or, when
        absent there, from what was asked).
        """
        body = m.TokenRequest(type=type, description=description).wire()
        payload = await self.request("POST", "/tokens", target=target, json=body)
        token = payload.get("token")
        if isinstance(token, str):
            envelope = ("success", "message")
            token = {**body, **{k: v for k, v in payload.items() if k not in envelope}}
        return self._parse(m.TokenRecord, token, method="POST", url="/tokens")

    async def delete_token(self, token: str, *, target: int | None = None) -> m.Envelope:
        return await self._envelope(
            "DELETE",
            "/tokens",
            target=target,
            json={"token": token},
            journal_body={"token": m.mask_secret(token)},
        )

    # ------------------------------------------------------------------ billing

    async def set_adr_export(
        self, config: m.AdrExportConfig, *, target: Target | None = None
    ) -> m.Envelope:
        """``POST /billing/adrExportConfig``: configured at partner, reseller or organization
        level (api-facts), so an account of those levels is selected by the parameter of
        its level (a `LevelTarget`, rule 9)."""
        body = config.wire()
        return await self._envelope(
            "POST",
            "/billing/adrExportConfig",
            target=target,
            json=body,
            journal_body={**body, "password": "***"},
        )

    # ------------------------------------------------------------------ usage and plans

    async def _read_open(
        self, path: str, *, target: Target | None, params: dict[str, Any] | None = None
    ) -> m.OpenReply:
        """A read whose reply is published only as "an object": kept whole."""
        return await self.get(
            path, lambda payload: self._parse(m.OpenReply, payload, url=path),
            target=target, params=params,
        )  # fmt: skip

    async def get_usage(
        self, query: m.UsageQuery | None = None, *, target: int | None = None
    ) -> m.OpenReply:
        """``GET /stats/usage``: the keys and numbers the platform sends, as sent."""
        params = (query or m.UsageQuery()).params()
        return await self._read_open("/stats/usage", target=target, params=params)

    async def get_current_plan(self, *, target: int | None = None) -> m.OpenReply:
        """``GET /product/currentPlan``: the plan the account is on (shape not published)."""
        return await self._read_open("/product/currentPlan", target=target)

    async def get_product_plan(self, plan_id: str, *, target: int | None = None) -> m.OpenReply:
        """``GET /product/productPlan/{id}``: what a plan of the catalog includes."""
        path = f"/product/productPlan/{quote(plan_id, safe='')}"
        return await self._read_open(path, target=target)

    async def get_offered_plan(self, *, target: int | None = None) -> m.OpenReply:
        """``GET /product/offeredPlan``: the plan offered to the account (shape not published)."""
        return await self._read_open("/product/offeredPlan", target=target)

    async def get_available_plans(self, *, target: int | None = None) -> m.OpenReply:
        """``GET /product/allAvailablePlans``: every plan available (shape not published)."""
        return await self._read_open("/product/allAvailablePlans", target=target)

    async def get_product_catalog(self, *, target: int | None = None) -> m.OpenReply:
        """``GET /product/productCatalog``: a reseller's or partner's catalog of plans."""
        return await self._read_open("/product/productCatalog", target=target)

    async def get_available_addons(self, *, target: int | None = None) -> m.OpenReply:
        """``GET /addon/available``: the add-ons of the account's plan (shape not published)."""
        return await self._read_open("/addon/available", target=target)

    async def get_daily_counts(self, *, target: int | None = None) -> m.OpenReply:
        """``GET /tasks/dailyCounts``: today's calls, texts and tasks (under ``counts``)."""
        return await self._read_open("/tasks/dailyCounts", target=target)

    async def get_task_limits(self, *, target: int | None = None) -> m.OpenReply:
        """``GET /tasks/limits``: the daily limits (under ``limits.daily``) and the rest."""
        return await self._read_open("/tasks/limits", target=target)

    async def update_task_limits(
        self, update: m.TaskLimitsUpdate, *, target: int | None = None
    ) -> m.Envelope:
        """``POST /tasks/limits``: the groups of limits that changed (a non-super-admin
        may not send ``daily`` or ``concurrencyPerRun``: 403)."""
        return await self._envelope("POST", "/tasks/limits", target=target, json=update.wire())

    # ------------------------------------------------------------------ sip

    async def list_sip_whitelist(self, *, target: int | None = None) -> list[m.SipEntry]:
        return await self._get_list(m.SipEntry, "/sip/ipWhitelist", "whitelist", target=target)

    async def add_sip_entry(
        self, ip: str, label: str = "", *, target: int | None = None
    ) -> m.Envelope:
        body = m.SipEntryRequest(ip=ip, label=label).wire()
        return await self._envelope("POST", "/sip/ipWhitelist", target=target, json=body)

    async def delete_sip_entry(self, ip: str, *, target: int | None = None) -> m.Envelope:
        return await self._envelope("DELETE", "/sip/ipWhitelist", target=target, json={"ip": ip})

    # ------------------------------------------------------------------ members

    async def list_members(self, *, target: int | None = None) -> list[m.Member]:
        """``GET /members``: the members of the selected account's organization."""
        return await self._get_list(m.Member, "/members", "members", target=target)

    async def get_member(self, member_id: int, *, target: int | None = None) -> m.Member:
        """``GET /member``: one member (``member`` in the reply, or the reply itself)."""

        def parse(payload: Json) -> m.Member:
            member = payload.get("member")
            return self._parse(
                m.Member, member if isinstance(member, dict) else payload, url="/member"
            )

        return await self.get("/member", parse, params={"targetMemberId": member_id}, target=target)

    async def invite_member(
        self, invite: m.MemberInvite, *, target: int | None = None
    ) -> m.Envelope:
        """``POST /member``: an invitation (the reference answers 201 and a message)."""
        return await self._envelope("POST", "/member", target=target, json=invite.wire())

    async def update_member(
        self, update: m.MemberUpdate, *, target: int | None = None
    ) -> m.Envelope:
        """``PUT /member``: email, role and accounts (``[]``: no restriction)."""
        return await self._envelope("PUT", "/member", target=target, json=update.wire())

    async def delete_member(self, member_id: int, *, target: int | None = None) -> m.Envelope:
        """``DELETE /member``: the member loses access (a 404: already gone)."""
        return await self._envelope(
            "DELETE", "/member", target=target, json={"targetMemberId": member_id}
        )

    async def one_time_login(
        self, email: str, *, external_account_id: str | None = None
    ) -> OneTimeLogin:
        """``GET /auth/account/oneTimeAuthToken``: a single-use login token for ``email``.

        A GET that changes the platform: an email that is no member, with
        ``external_account_id``, is added as a member of that account's organization.
        So it is sent once (never retried), refused on a read-only profile, and journaled
        with the email and the external id, never the token (`ApiTransport.request`'s
        ``writes``). A reseller or partner key is required.
        """
        params = {"email": email, "externalAccountId": external_account_id or None}
        sent = {k: v for k, v in params.items() if v is not None}
        payload = await self.request(
            "GET", ONE_TIME_LOGIN, params=params, writes=True, journal_body=sent
        )
        token = payload.get("authToken")
        if not isinstance(token, str) or not token.strip() or not token.strip().isprintable():
            # Answered, yet no token (or one with control characters, which the dialog
            # that shows it once must not pass to the terminal): a member may have been
            # added all the same.
            error = MalformedResponse(
                "The platform's reply holds no usable authToken", method="GET", url=ONE_TIME_LOGIN
            )
            error.writes = True
            raise error
        added = payload.get("memberAdded")
        message = payload.get("message")
        return OneTimeLogin(
            token.strip(),
            added if isinstance(added, bool) else None,
            message if isinstance(message, str) else "",
        )

    # ------------------------------------------------------------------ webhooks

    async def list_webhooks(self, *, target: int | None = None) -> list[m.Webhook]:
        return await self._get_list(m.Webhook, "/webhooks", "webhooks", target=target)

    async def add_webhook(
        self, url: str, type: str, label: str = "", *, target: int | None = None
    ) -> m.Envelope:
        request = m.WebhookRequest.model_validate({"url": url, "type": type, "label": label})
        body = request.wire()
        return await self._envelope("POST", "/webhooks", target=target, json=body)

    async def delete_webhook(self, url: str, *, target: int | None = None) -> m.Envelope:
        return await self._envelope("DELETE", "/webhooks", target=target, json={"url": url})

    async def list_relay_types(self, *, target: int | None = None) -> list[m.RelayType]:
        return await self._get_list(m.RelayType, "/webhookRelay/types", "types", target=target)

    async def list_relays(self, *, target: int | None = None) -> list[m.RelayConfig]:
        return await self._get_list(m.RelayConfig, "/webhookRelay", "configs", target=target)

    async def get_relay(self, relay_type: str, *, target: int | None = None) -> m.RelayConfig:
        path = f"/webhookRelay/{quote(relay_type, safe='')}"
        return await self.get(
            path,
            lambda payload: self._parse(m.RelayConfig, payload.get("config", payload), url=path),
            target=target,
        )

    async def save_relay(
        self, relay_type: str, request: m.RelayRequest, *, target: int | None = None
    ) -> m.Envelope:
        """``POST /webhookRelay/{type}``: configure (or replace) that type's relay.

        The journal keeps the header names, not their values (an ``Authorization``
        header is a secret of the receiving end).
        """
        body = request.wire()
        hidden = [{name: "***" for name in header} for header in body["headers"]]
        return await self._envelope(
            "POST",
            f"/webhookRelay/{quote(relay_type, safe='')}",
            target=target,
            json=body,
            journal_body={**body, "headers": hidden},
        )

    async def delete_relay(self, relay_type: str, *, target: int | None = None) -> m.Envelope:
        """``DELETE /webhookRelay/{type}``; the five outcomes come back as messages."""
        return await self._envelope(
            "DELETE", f"/webhookRelay/{quote(relay_type, safe='')}", target=target
        )


__all__ = ["Exchange", "Observer", "PlatformClient", "redact_url"]
