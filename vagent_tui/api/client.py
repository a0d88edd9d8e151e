"""`PlatformClient`: one async method per endpoint of the platform API.

The credential travels in the ``token`` query parameter of every request (never a
header, per the spec). A target account becomes ``targetAccountId`` in the query,
except on the Computer Agent routes whose path already holds the account id.

Every failure surfaces as a `PlatformError` subclass whose text and repr never hold the
token: `ApiError` (an error envelope or a non-2xx status, with the server's
``message``), `TransportError` / `RequestTimeout` (no reply), `MalformedResponse`
(a reply that is not the JSON the API promises).

GET requests are retried a bounded number of times with exponential backoff and jitter
on transport faults, 5xx and 429 (honouring ``Retry-After``); POST, PUT and DELETE are
never retried automatically: a token, a migration or a deletion must not happen twice.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar
from urllib.parse import quote, urlsplit

import httpx
from pydantic import BaseModel, ValidationError

from vagent_tui.api import models as m
from vagent_tui.api.errors import (
    ApiError,
    MalformedResponse,
    PlatformError,
    RequestTimeout,
    TransportError,
    redact_text,
    redact_url,
)

API_PREFIX = "/api/v2"
DEFAULT_TIMEOUT = 15.0
ModelT = TypeVar("ModelT", bound=BaseModel)
Json = dict[str, Any]


class _RedactingFilter(logging.Filter):
    """httpx logs every request URL at INFO level: the token must not reach a log."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a broken log call is not ours to fix; drop its args
            message = str(record.msg)
        record.msg = redact_text(message)
        record.args = ()
        return True


# Filters do not apply to records propagated from child loggers: name every logger
# of httpx and httpcore that may write a URL.
for _name in (
    "httpx",
    "httpcore",
    "httpcore.connection",
    "httpcore.http11",
    "httpcore.http2",
    "httpcore.proxy",
):
    logging.getLogger(_name).addFilter(_RedactingFilter())


@dataclass(frozen=True, slots=True)
class Exchange:
    """What an observer hears of one request: no token, ever."""

    method: str
    path: str
    target: int | None
    body: Any
    status: int | None
    message: str | None
    elapsed: float


Observer = Callable[[Exchange], None]


def _as_bool(value: bool) -> str:
    return "true" if value else "false"


class PlatformClient:
    """An async client of the platform's ``/api/v2`` over one `httpx.AsyncClient`."""

    def __init__(
        self,
        base_url: str,
        token: str,
        *,
        transport: httpx.AsyncBaseTransport | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        get_retries: int = 2,
        backoff: float = 0.25,
        max_retry_after: float = 10.0,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self._token = token
        self.get_retries = get_retries
        self.backoff = backoff
        self.max_retry_after = max_retry_after
        self.observers: list[Observer] = []
        self._http = httpx.AsyncClient(
            base_url=self.base_url,
            transport=transport,
            timeout=httpx.Timeout(timeout, connect=min(timeout, 5.0)),
            follow_redirects=False,
        )

    # ------------------------------------------------------------------ lifecycle

    def __repr__(self) -> str:
        return f"PlatformClient(base_url={self.base_url!r}, token={m.mask_secret(self._token)!r})"

    @property
    def host(self) -> str:
        return urlsplit(self.base_url).netloc or self.base_url

    async def aclose(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> PlatformClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    # ------------------------------------------------------------------ transport

    async def request(
        self,
        method: str,
        path: str,
        *,
        target: int | None = None,
        params: Mapping[str, Any] | None = None,
        json: Any = None,
        data: Mapping[str, str] | None = None,
        files: Mapping[str, Any] | None = None,
        journal_body: Any = None,
    ) -> Json:
        """Send one request and return the reply's JSON object, or raise.

        ``path`` is relative to the API prefix unless it already starts with it.
        """
        url = path if path.startswith(API_PREFIX) else API_PREFIX + path
        query: dict[str, Any] = {"token": self._token}
        if target is not None:
            query["targetAccountId"] = int(target)
        for key, value in (params or {}).items():
            if value is None:
                continue
            query[key] = _as_bool(value) if isinstance(value, bool) else value
        attempts = 1 + (self.get_retries if method == "GET" else 0)
        loop = asyncio.get_running_loop()
        started = loop.time()
        for attempt in range(attempts):
            failure, response = await self._send(method, url, query, json, data, files)
            delay = self._retry_delay(attempt, attempts, failure, response)
            if delay is None:
                break
            await asyncio.sleep(delay)
        body = journal_body if journal_body is not None else json
        if failure is not None:
            self._notify(method, url, target, body, None, failure.message, loop.time() - started)
            raise failure
        assert response is not None
        result = self._decode(method, url, response)
        if isinstance(result, PlatformError):
            status = getattr(result, "status", response.status_code)
            self._notify(method, url, target, body, status, result.message, loop.time() - started)
            raise result
        message = result.get("message")
        self._notify(
            method,
            url,
            target,
            body,
            response.status_code,
            message if isinstance(message, str) else None,
            loop.time() - started,
        )
        return result

    async def _send(
        self,
        method: str,
        url: str,
        query: Mapping[str, Any],
        json: Any,
        data: Mapping[str, str] | None,
        files: Mapping[str, Any] | None,
    ) -> tuple[PlatformError | None, httpx.Response | None]:
        # Errors are built outside the except blocks so that no httpx exception (whose
        # text embeds the URL, token included) rides along as __context__.
        failure: PlatformError | None = None
        try:
            response = await self._http.request(
                method, url, params=query, json=json, data=data, files=files
            )
        except httpx.TimeoutException:
            failure = RequestTimeout(
                f"The platform did not answer in time ({self.host})", method=method, url=url
            )
        except httpx.TransportError as exc:
            reason = redact_text(str(exc) or type(exc).__name__, self._token)
            failure = TransportError(
                f"Could not reach the platform at {self.host}: {reason}", method=method, url=url
            )
        if failure is not None:
            return failure, None
        return None, response

    def _retry_delay(
        self,
        attempt: int,
        attempts: int,
        failure: PlatformError | None,
        response: httpx.Response | None,
    ) -> float | None:
        """Seconds to wait before the next attempt, or None to stop here."""
        if attempt + 1 >= attempts:
            return None
        if failure is not None:
            if not isinstance(failure, TransportError):
                return None
        elif response is None or not (response.status_code >= 500 or response.status_code == 429):
            return None
        delay = self.backoff * (2**attempt) * (1 + random.random())
        if response is not None:
            retry_after = response.headers.get("Retry-After", "")
            if retry_after.strip().isdigit():
                delay = max(delay, float(retry_after))
        return min(delay, self.max_retry_after)

    def _decode(self, method: str, url: str, response: httpx.Response) -> Json | PlatformError:
        status = response.status_code
        try:
            payload = response.json()
        except ValueError:
            payload = None
            if status < 400 or response.content.strip():
                kind = (
                    "an empty reply" if not response.content.strip() else "a reply that is not JSON"
                )
                if status >= 400:
                    return ApiError(status, f"HTTP {status}: {kind}", method=method, url=url)
                return MalformedResponse(
                    f"The platform sent {kind} (HTTP {status})",
                    status=status,
                    method=method,
                    url=url,
                )
        if status >= 400 or (isinstance(payload, dict) and payload.get("success") is False):
            message = payload.get("message") if isinstance(payload, dict) else None
            if not isinstance(message, str) or not message.strip():
                message = f"HTTP {status} {response.reason_phrase}".strip()
            return ApiError(
                status, redact_text(message, self._token), method=method, url=url, body=payload
            )
        if not isinstance(payload, dict):
            return MalformedResponse(
                f"The platform sent JSON that is not an object (HTTP {status})",
                status=status,
                method=method,
                url=url,
            )
        return payload

    def _notify(
        self,
        method: str,
        url: str,
        target: int | None,
        body: Any,
        status: int | None,
        message: str | None,
        elapsed: float,
    ) -> None:
        if not self.observers:
            return
        exchange = Exchange(method, url, target, body, status, message, elapsed)
        for observer in list(self.observers):
            observer(exchange)

    @staticmethod
    def _parse(model: type[ModelT], value: Any, *, method: str = "", url: str = "") -> ModelT:
        try:
            return model.model_validate(value if value is not None else {})
        except ValidationError as exc:
            fields = ", ".join(
                ".".join(str(p) for p in e["loc"]) or "reply" for e in exc.errors()[:3]
            )
        # Raised outside the except block: the ValidationError quotes the reply's values
        # (which may echo a secret) and must not ride along even as suppressed __context__.
        raise MalformedResponse(
            f"The platform's reply has fields of an unexpected type: {fields}",
            method=method,
            url=url,
        )

    def _parse_list(self, model: type[ModelT], payload: Json, key: str, url: str) -> list[ModelT]:
        items = payload.get(key)
        if items is None:
            return []
        if not isinstance(items, list):
            raise MalformedResponse(f"The platform's reply has {key!r} that is not a list", url=url)
        return [self._parse(model, item, url=url) for item in items]

    async def _get_list(
        self,
        model: type[ModelT],
        path: str,
        key: str,
        *,
        target: int | None = None,
        params: Mapping[str, Any] | None = None,
    ) -> list[ModelT]:
        payload = await self.request("GET", path, target=target, params=params)
        return self._parse_list(model, payload, key, path)

    async def _envelope(self, method: str, path: str, **kwargs: Any) -> m.Envelope:
        payload = await self.request(method, path, **kwargs)
        return self._parse(m.Envelope, payload, method=method, url=path)

    # ------------------------------------------------------------------ accounts

    async def get_account(self, *, target: int | None = None) -> m.Account:
        """``GET /account``: the key owner, or the selected account with a target."""
        payload = await self.request("GET", "/account", target=target)
        account = payload.get("account") if isinstance(payload.get("account"), dict) else payload
        return self._parse(m.Account, account, url="/account")

    async def _child_page(
        self,
        path: str,
        key: str,
        total_key: str,
        params: dict[str, Any],
        page: int | None,
        page_size: int | None,
    ) -> m.AccountPage:
        if page is not None:
            params.update(pagination=True, page=page, pageSize=page_size or 50)
        payload = await self.request("GET", path, params=params)
        items = self._parse_list(m.Account, payload, key, path)
        total = payload.get(total_key)
        return m.AccountPage(
            items=items,
            total=total if isinstance(total, int) else len(items),
            page_size=payload.get("pageSize"),
            page_number=payload.get("pageNumber"),
        )

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
    ) -> m.AccountPage:
        params = {"queryText": query_text or None, "accountType": account_type}
        return await self._child_page(
            "/searchAccounts", "accounts", "totalAccounts", params, page, page_size
        )

    # ------------------------------------------------------------------ agents

    async def list_functions(self, target: int) -> list[m.FunctionDescriptor]:
        """``GET /agent/functions``: ``targetAccountId`` is required here."""
        return await self._get_list(
            m.FunctionDescriptor, "/agent/functions", "functions", target=target
        )

    async def list_voices(self, *, target: int | None = None) -> list[m.Voice]:
        return await self._get_list(m.Voice, "/agent/voices", "voices", target=target)

    async def _campaign(self, path: str, target: int | None) -> m.AgentConfig | None:
        payload = await self.request("GET", path, target=target)
        campaign = payload.get("campaign")
        if campaign is None:
            return None
        return self._parse(m.AgentConfig, campaign, url=path)

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

    async def list_versions(
        self, agent_config_id: str, *, include_data: bool = False, target: int | None = None
    ) -> list[m.SavedVersion]:
        return await self._get_list(
            m.SavedVersion,
            f"/agent/{quote(agent_config_id, safe='')}/versions",
            "versions",
            target=target,
            params={"includeData": include_data},
        )

    async def rename_version(
        self, agent_config_id: str, version_id: int, title: str, *, target: int | None = None
    ) -> m.TitleChange:
        """``PUT .../versions/{versionId}/title``: changes only the display title."""
        body = m.TitleRequest(title=title).wire()
        path = f"/agent/{quote(agent_config_id, safe='')}/versions/{int(version_id)}/title"
        payload = await self.request("PUT", path, target=target, json=body)
        return self._parse(m.TitleChange, payload, method="PUT", url=path)

    # ------------------------------------------------------------------ tokens

    async def list_tokens(self, *, target: int | None = None) -> list[m.TokenRecord]:
        return await self._get_list(m.TokenRecord, "/tokens", "tokens", target=target)

    async def create_token(
        self, description: str, *, type: str = "admin", target: int | None = None
    ) -> m.TokenRecord:
        body = m.TokenRequest(type=type, description=description).wire()
        payload = await self.request("POST", "/tokens", target=target, json=body)
        return self._parse(m.TokenRecord, payload.get("token"), method="POST", url="/tokens")

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
        self, config: m.AdrExportConfig, *, target: int | None = None
    ) -> m.Envelope:
        body = config.wire()
        return await self._envelope(
            "POST",
            "/billing/adrExportConfig",
            target=target,
            json=body,
            journal_body={**body, "password": "***"},
        )

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

    # ------------------------------------------------------------------ webhooks

    async def list_webhooks(self, *, target: int | None = None) -> list[m.Webhook]:
        return await self._get_list(m.Webhook, "/webhooks", "webhooks", target=target)

    async def add_webhook(
        self, url: str, type: str, label: str = "", *, target: int | None = None
    ) -> m.Envelope:
        body = m.WebhookRequest(url=url, type=type, label=label).wire()  # type: ignore[arg-type]
        return await self._envelope("POST", "/webhooks", target=target, json=body)

    async def delete_webhook(self, url: str, *, target: int | None = None) -> m.Envelope:
        return await self._envelope("DELETE", "/webhooks", target=target, json={"url": url})

    async def list_relay_types(self, *, target: int | None = None) -> list[m.RelayType]:
        return await self._get_list(m.RelayType, "/webhookRelay/types", "types", target=target)

    async def list_relays(self, *, target: int | None = None) -> list[m.RelayConfig]:
        return await self._get_list(m.RelayConfig, "/webhookRelay", "configs", target=target)

    async def get_relay(self, relay_type: str, *, target: int | None = None) -> m.RelayConfig:
        path = f"/webhookRelay/{quote(relay_type, safe='')}"
        payload = await self.request("GET", path, target=target)
        return self._parse(m.RelayConfig, payload.get("config", payload), url=path)

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
        payload = await self.request("GET", path)
        recording = payload.get("recording", payload)
        if recording is None:
            return None
        return self._parse(m.WorkflowRecording, recording, url=path)

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
        """Upload one file into the Computer Agent workspace (multipart/form-data)."""
        form = m.UploadRequest(path=path, overwrite=overwrite, mode=mode)
        data = {"path": form.path, "overwrite": _as_bool(form.overwrite)}
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
        )
        return self._parse(m.UploadResult, payload, method="POST", url=url)

    async def list_workspace_files(self, account_id: int) -> list[m.WorkspaceFile]:
        return await self._get_list(
            m.WorkspaceFile, self._computer(account_id, "/workspace/files"), "files"
        )

    # ------------------------------------------------------------------ templates

    async def list_templates(self, *, target: int | None = None) -> list[m.Template]:
        return await self._get_list(m.Template, "/templates", "templates", target=target)

    async def migrate(
        self,
        template_id: str,
        request: m.MigrationRequest | None = None,
        *,
        target: int | None = None,
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
        self, status_endpoint: str, *, target: int | None = None
    ) -> m.MigrationTask:
        """Read a task at its ``statusEndpoint`` (a path, or a URL on the same origin)."""
        parts = urlsplit(status_endpoint)
        if parts.scheme or parts.netloc:
            base = urlsplit(self.base_url)
            if (parts.scheme, parts.netloc) != (base.scheme, base.netloc):
                raise PlatformError(
                    f"The status endpoint is on another host ({parts.netloc}); "
                    "the token is not sent there"
                )
        path = parts.path
        if not path.startswith("/"):
            path = "/" + path
        payload = await self.request("GET", path, target=target)
        return self._parse(m.MigrationTask, payload, url=path)

    # ------------------------------------------------------------------ messaging

    async def list_junk_rooms(
        self,
        *,
        page: int = 0,
        page_size: int = 20,
        unread: bool = False,
        target: int | None = None,
    ) -> m.JunkRoomPage:
        params = {"pagination": True, "page": page, "pageSize": page_size, "unread": unread}
        payload = await self.request("GET", "/junkConversations", target=target, params=params)
        return self._parse(m.JunkRoomPage, payload, url="/junkConversations")


__all__ = ["Exchange", "PlatformClient", "redact_url"]
