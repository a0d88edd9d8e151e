"""`PlatformClient`: one async method per endpoint of the platform API.

The credential travels in the ``token`` query parameter of every request (never a
header, per the spec). A target account becomes ``targetAccountId`` in the query,
except on the Computer Agent routes whose path already holds the account id. The
request machinery (errors, retries, redaction, observers) is in `transport`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, TypeGuard
from urllib.parse import parse_qsl, quote, urlsplit, urlunsplit

from vagent_tui.api import models as m
from vagent_tui.api.errors import MalformedResponse, PlatformError, redact_url
from vagent_tui.api.logs import LogsApi
from vagent_tui.api.outbound import OutboundApi
from vagent_tui.api.outgoing import API_PREFIX
from vagent_tui.api.provisioning import ProvisioningApi
from vagent_tui.api.replies import Json, no_list
from vagent_tui.api.targets import Target
from vagent_tui.api.transport import (
    TARGET_PARAMS,
    Exchange,
    Observer,
    as_bool,
)


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _with_rooms(payload: Json, url: str) -> Json:
    """An inbox page's reply, which must hold its ``rooms`` list (absent or null is no
    list, not an empty one)."""
    if payload.get("rooms") is None:
        raise no_list("rooms", url)
    return payload


def _as_asked(page: m.InboxPage, params: Mapping[str, Any]) -> m.InboxPage:
    """A page whose ``pageSize`` or ``pageNumber`` came null (or not at all): what was asked."""
    if page.page_size is None:
        page.page_size = params["pageSize"]
    if page.page_number is None:
        page.page_number = params["page"]
    return page


@dataclass(frozen=True)
class OneTimeLogin:
    """A one-time login token: a credential, kept out of ``repr`` (and so of logs)."""

    token: str = field(repr=False)
    member_added: bool | None
    """The platform said it added the email as a member (None: it did not say)."""
    message: str


ONE_TIME_LOGIN = "/auth/account/oneTimeAuthToken"


class PlatformClient(ProvisioningApi, OutboundApi, LogsApi):
    """An async client of the platform's ``/api/v2`` (the conversation logs' endpoints
    in `vagent_tui.api.logs`)."""

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

    # ------------------------------------------------------------------ agents

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

    # ------------------------------------------------------------------ computer agents

    @staticmethod
    def _computer(account_id: int, rest: str = "") -> str:
        return f"/computer/accounts/{int(account_id)}{rest}"

    async def list_computer_accounts(self, *, target: int | None = None) -> list[m.ComputerAccount]:
        return await self._get_list(
            m.ComputerAccount, "/computer/accounts", "accounts", target=target
        )

    async def recording_status(self, account_id: int) -> m.WorkflowRecording | None:
        path = self._computer(account_id, "/workflow-recordings/status")

        def parse(payload: Json) -> m.WorkflowRecording | None:
            recording = payload.get("recording", payload)
            if recording is None:
                return None
            return self._parse(m.WorkflowRecording, recording, url=path)

        return await self.get(path, parse)

    async def start_recording(self, account_id: int, slot_id: int) -> m.WorkflowRecording:
        """Start a browser workflow recording; the account id rides in the path only."""
        body = m.RecordingStartRequest(slot_id=slot_id).wire()
        path = self._computer(account_id, "/workflow-recordings/start")
        payload = await self.request("POST", path, json=body)
        return self._parse(m.WorkflowRecording, payload, method="POST", url=path)

    async def stop_recording(self, account_id: int) -> m.WorkflowRecording:
        path = self._computer(account_id, "/workflow-recordings/stop")
        payload = await self.request("POST", path, json={})
        return self._parse(m.WorkflowRecording, payload, method="POST", url=path)

    async def create_automation_session(
        self, account_id: int, ttl_seconds: int = 600
    ) -> m.AutomationSession:
        if not 60 <= ttl_seconds <= 1800:
            raise ValueError("ttl_seconds must be between 60 and 1800")
        path = self._computer(account_id, "/browser/automation-sessions")
        payload = await self.request("POST", path, json={"ttlSeconds": ttl_seconds})
        return self._parse(m.AutomationSession, payload, method="POST", url=path)

    async def upload_file(
        self,
        account_id: int,
        path: str,
        content: bytes,
        *,
        filename: str | None = None,
        overwrite: bool = False,
        mode: str | None = None,
    ) -> m.UploadResult:
        """Upload one file into the Computer Agent workspace (multipart/form-data).

        Any success status is a success: the spec shows no fields of the reply, so one
        that is empty or not JSON gives an `UploadResult` without fields.
        """
        form = m.UploadRequest(path=path, overwrite=overwrite, mode=mode)
        data = {"path": form.path, "overwrite": as_bool(form.overwrite)}
        if form.mode:
            data["mode"] = form.mode
        name = filename or form.path.rsplit("/", 1)[-1]
        url = self._computer(account_id, "/workspace/upload")
        payload = await self.request(
            "POST",
            url,
            data=data,
            files={"file": (name, content, "application/octet-stream")},
            journal_body={**data, "file": f"<{len(content)} bytes>"},
            # "200 on success; response body fields: not shown" (the spec).
            body_optional=True,
        )
        return self._parse(m.UploadResult, payload, method="POST", url=url)

    async def list_workspace_files(self, account_id: int) -> list[m.WorkspaceFile]:
        return await self._get_list(
            m.WorkspaceFile, self._computer(account_id, "/workspace/files"), "files"
        )

    # ------------------------------------------------------------------ templates

    # Templates are a reseller feature: a reseller is selected by ``targetResellerId``
    # (a `LevelTarget`, rule 9), not by ``targetAccountId``.

    async def list_templates(self, *, target: Target | None = None) -> list[m.Template]:
        return await self._get_list(m.Template, "/templates", "templates", target=target)

    async def migrate(
        self,
        template_id: str,
        request: m.MigrationRequest | None = None,
        *,
        target: Target | None = None,
    ) -> m.MigrationTask:
        """Start a template migration: a dry run unless the request says otherwise."""
        body = (request or m.MigrationRequest()).wire()
        path = f"/templates/{quote(template_id, safe='')}/migrate"
        payload = await self.request("POST", path, target=target, json=body)
        task = self._parse(m.MigrationTask, payload, method="POST", url=path)
        if task.template_id is None:
            task.template_id = template_id
        return task

    async def migration_status(
        self, status_endpoint: str, *, target: Target | None = None
    ) -> m.MigrationTask:
        """Read a task at its ``statusEndpoint``, used as the platform gave it.

        An absolute URL must be on the platform's own origin (the token is sent to no
        other host: `PlatformError` otherwise, nothing sent); a path from the root is
        taken from the base URL (a gateway's path before it is kept); a relative path
        from the API's root, ``{base_url}/api/v2/``. Nothing is added to its path, and its
        query is kept, except a ``token`` or target parameter of its own: this client's
        ride instead.
        """
        parts = urlsplit(status_endpoint)
        if parts.scheme or parts.netloc:
            base = urlsplit(self.base_url)
            if (parts.scheme, parts.netloc) != (base.scheme, base.netloc):
                raise PlatformError(
                    f"The status endpoint is on another host ({parts.netloc}); "
                    "the token is not sent there"
                )
            url = urlunsplit((parts.scheme, parts.netloc, parts.path or "/", "", ""))
        elif parts.path.startswith("/"):
            url = parts.path
        else:
            url = f"{API_PREFIX}/{parts.path}"
        params: dict[str, list[str]] = {}
        for key, value in parse_qsl(parts.query, keep_blank_values=True):
            if key != "token" and key not in TARGET_PARAMS:
                params.setdefault(key, []).append(value)
        return await self.get(
            url,
            lambda payload: self._parse(m.MigrationTask, payload, url=parts.path),
            target=target,
            params=params,
            as_given=True,
        )

    # ------------------------------------------------------------------ messaging

    async def list_junk_rooms(
        self,
        *,
        page: int = 0,
        page_size: int = 20,
        unread: bool = False,
        target: int | None = None,
    ) -> m.JunkRoomPage:
        params: dict[str, Any] = {"pagination": True, "page": page, "pageSize": page_size}
        if unread:  # an optional flag: sent only when set
            params["unread"] = True
        return await self.get(
            "/junkConversations",
            lambda payload: _as_asked(
                self._parse(
                    m.JunkRoomPage,
                    _with_rooms(payload, "/junkConversations"),
                    url="/junkConversations",
                ),
                params,
            ),
            target=target,
            params=params,
        )

    async def list_priority_rooms(
        self,
        *,
        page: int = 0,
        page_size: int = 20,
        unread: bool = False,
        target: int | None = None,
    ) -> m.InboxPage:
        """``GET /conversations``: the priority inbox, paged like the junk inbox.

        ``unread`` is sent only when set: an unset flag is the platform's default.
        """
        params = {"pagination": True, "page": page, "pageSize": page_size}
        if unread:
            params["unread"] = True
        return await self.get(
            "/conversations",
            lambda payload: _as_asked(
                self._parse(
                    m.InboxPage, _with_rooms(payload, "/conversations"), url="/conversations"
                ),
                params,
            ),
            target=target,
            params=params,
        )

    async def list_room_messages(
        self, room_id: str, *, target: int | None = None
    ) -> list[m.RoomMessage]:
        """``GET /messages/{roomId}``: every message of a room (the platform pages none).

        The published reply is a bare JSON array; an object holding the list under
        ``messages`` is read too. ``null`` items are skipped.
        """
        path = f"/messages/{quote(room_id, safe=':')}"
        return await self._get_bare_list(m.RoomMessage, path, "messages", target=target)


__all__ = ["Exchange", "Observer", "PlatformClient", "redact_url"]
