"""Request shape of every PlatformClient method: method, path, query, body, credential."""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from tests.unit.api.conftest import MakeClient
from vagent_tui.api import agent_extras_models as xm
from vagent_tui.api import billing_models as b
from vagent_tui.api import models as m
from vagent_tui.api import number_models
from vagent_tui.api import sip_models as sm
from vagent_tui.api.capture_models import CaptureQuery
from vagent_tui.api.client import PlatformClient
from vagent_tui.api.context_models import ContextRequest
from vagent_tui.api.errors import MalformedResponse, PlatformError, ReadOnlyRefused
from vagent_tui.api.integration_models import IntegrationUpdate
from vagent_tui.api.numbering_models import ProviderRequest
from vagent_tui.api.scope import ScopeLevel
from vagent_tui.api.targets import LevelTarget
from vagent_tui.api.task_models import TaskUpdate

from .helpers import BASE, TOKEN, Recorder, json_body, multipart_fields, ok, query

TARGET = 4242
ORG = LevelTarget(ScopeLevel.ORGANIZATION, 33)
NO_BODY = object()
MULTIPART = object()
"""A file sent as a form: its fields are checked by its own tests below."""
COMPUTER = "/api/v2/computer/accounts/"

Call = Callable[[PlatformClient, int | None], Awaitable[Any]]


@dataclass
class Case:
    id: str
    call: Call
    method: str
    path: str
    body: Any = NO_BODY
    params: dict[str, str] = field(default_factory=dict)
    takes_target: bool = True
    target_required: bool = False


async def _drain(stream: Any) -> None:
    """Read a stream to its end; the recorder's JSON reply is no file (that is fine here)."""
    with contextlib.suppress(MalformedResponse):
        async for _ in stream:
            pass


def adr() -> m.AdrExportConfig:
    return m.AdrExportConfig(
        delivery_protocol="SFTP",  # type: ignore[arg-type]  # the model lowers it
        rotation_minutes=30,  # type: ignore[arg-type]  # the model takes a number too
        host="ftp.example.com",
        port=2202,
        username="exporter",
        password="s3cret-pw",
    )


def stripe() -> b.BillingSystemConfig:
    return b.BillingSystemConfig(
        billing_system_type="stripe",
        api_key="sk_test_secret_1",
        publishable_key="pk_test_1",
        webhook_signing_key="whsec_secret_1",
    )


CASES = [
    Case("get_account", lambda c, t: c.get_account(target=t), "GET", "/api/v2/account"),
    Case(
        "list_functions",
        lambda c, t: c.list_functions(t),  # type: ignore[arg-type]  # the case gives a target
        "GET",
        "/api/v2/agent/functions",
        target_required=True,
    ),
    Case("list_voices", lambda c, t: c.list_voices(target=t), "GET", "/api/v2/agent/voices"),
    Case("list_models", lambda c, t: c.list_models(target=t), "GET", "/api/v2/models/supported"),
    Case(
        "check_agent_link",
        lambda c, t: c.check_agent_link("brandon", " weloveVida ", target=t),
        "GET",
        "/api/v2/checkAgentUrl",
        params={"targetUsername": "brandon", "slug": "welovevida"},
    ),
    Case(
        "get_agent_link",
        lambda c, t: c.get_agent_link("brandon", target=t),
        "GET",
        "/api/v2/agentUrl",
        params={"targetUsername": "brandon"},
    ),
    Case(
        "replace_version",
        lambda c, t: c.replace_version("cfg-12", 1750195000123, {"title": "A"}, target=t),
        "POST",
        "/api/v2/agent/cfg-12/versions/1750195000123",
        body={"snapshot": {"title": "A"}},
    ),
    Case(
        "update_own_details",
        lambda c, t: c.update_own_details(xm.OwnDetails(first_name=" Ada ", email="a@b.test")),
        "POST",
        "/api/v2/account",
        body={"firstName": "Ada", "email": "a@b.test"},
        takes_target=False,
    ),
    Case(
        "receive_message",
        lambda c, t: c.receive_message(
            xm.InboundMessage(target_agent="1111", source_address="+15551230001", message="Hi")
        ),
        "POST",
        "/api/v2/agent/receiveMessage",
        body={"targetAgent": "1111", "sourceAddress": "+15551230001", "message": "Hi"},
        takes_target=False,
    ),
    Case(
        "set_agent_link",
        lambda c, t: c.set_agent_link(
            xm.AgentLinkRequest(target_username="brandon", slug="WeLoveVida"), target=t
        ),
        "POST",
        "/api/v2/agentUrl",
        body={"targetUsername": "brandon", "slug": "welovevida"},
    ),
    Case(
        "get_agent",
        lambda c, t: c.get_agent("cfg-12", target=t),
        "GET",
        "/api/v2/agent/cfg-12",
    ),
    Case(
        "get_staging",
        lambda c, t: c.get_staging(target=t),
        "GET",
        "/api/v2/agentEventRules/staging",
    ),
    Case("get_live", lambda c, t: c.get_live(target=t), "GET", "/api/v2/agentEventRules/default"),
    Case(
        "get_slot",
        lambda c, t: c.get_slot("staging", target=t),
        "GET",
        "/api/v2/agentEventRules/staging",
    ),
    Case(
        "list_versions",
        lambda c, t: c.list_versions("cfg-12", target=t),
        "GET",
        "/api/v2/agent/cfg-12/versions",  # includeData only when asked
    ),
    Case(
        "list_versions_with_data",
        lambda c, t: c.list_versions("cfg-12", include_data=True, target=t),
        "GET",
        "/api/v2/agent/cfg-12/versions",
        params={"includeData": "true"},
    ),
    Case(
        "rename_version",
        lambda c, t: c.rename_version("cfg-12", 1750194180352, "  Before launch ", target=t),
        "PUT",
        "/api/v2/agent/cfg-12/versions/1750194180352/title",
        body={"title": "Before launch"},
    ),
    Case(
        "write_staging",
        lambda c, t: c.write_staging(
            {"agentVoice": "openai-ash", "speakingTimeout": 900}, target=t
        ),
        "POST",
        "/api/v2/agent",
        body={"agentVoice": "openai-ash", "speakingTimeout": 900},
    ),
    Case(
        "publish_staging",
        lambda c, t: c.publish_staging(target=t),
        "POST",
        "/api/v2/agent/publish",
        body={},
    ),
    Case(
        "revert_staging",
        lambda c, t: c.revert_staging(target=t),
        "POST",
        "/api/v2/agent/revert",
        body={},
    ),
    Case(
        "save_version",
        lambda c, t: c.save_version("cfg-12", " Before launch ", "staging", target=t),
        "POST",
        "/api/v2/agent/cfg-12/versions",
        body={"title": "Before launch", "source": "staging"},
    ),
    Case(
        "restore_version",
        lambda c, t: c.restore_version("cfg-12", 1750194180352, "default", target=t),
        "POST",
        "/api/v2/agent/cfg-12/versions/1750194180352/restore",
        body={"target": "default"},
    ),
    Case("list_tokens", lambda c, t: c.list_tokens(target=t), "GET", "/api/v2/tokens"),
    Case(
        "create_token",
        lambda c, t: c.create_token("ci key", target=t),
        "POST",
        "/api/v2/tokens",
        body={"type": "admin", "description": "ci key"},
    ),
    Case(
        "delete_token",
        lambda c, t: c.delete_token("old-token-value-1234", target=t),
        "DELETE",
        "/api/v2/tokens",
        body={"token": "old-token-value-1234"},
    ),
    Case(
        "set_adr_export",
        lambda c, t: c.set_adr_export(adr(), target=t),
        "POST",
        "/api/v2/billing/adrExportConfig",
        body={
            "deliveryProtocol": "sftp",
            "rotationMinutes": "30",
            "host": "ftp.example.com",
            "port": 2202,
            "username": "exporter",
            "password": "s3cret-pw",
        },
    ),
    Case(
        "set_adr_export_with_path",
        lambda c, t: c.set_adr_export(adr().model_copy(update={"path": "/in/adr"}), target=t),
        "POST",
        "/api/v2/billing/adrExportConfig",
        body={
            "deliveryProtocol": "sftp",
            "rotationMinutes": "30",
            "host": "ftp.example.com",
            "port": 2202,
            "username": "exporter",
            "password": "s3cret-pw",
            "path": "/in/adr",
        },
    ),
    Case(
        "list_sip_whitelist",
        lambda c, t: c.list_sip_whitelist(target=t),
        "GET",
        "/api/v2/sip/ipWhitelist",
    ),
    Case(
        "add_sip_entry",
        lambda c, t: c.add_sip_entry("2001:db8::1", "office", target=t),
        "POST",
        "/api/v2/sip/ipWhitelist",
        body={"ip": "2001:db8::1", "label": "office"},
    ),
    Case(
        "delete_sip_entry",
        lambda c, t: c.delete_sip_entry("192.0.2.10", target=t),
        "DELETE",
        "/api/v2/sip/ipWhitelist",
        body={"ip": "192.0.2.10"},
    ),
    Case("list_members", lambda c, t: c.list_members(target=t), "GET", "/api/v2/members"),
    Case(
        "get_member",
        lambda c, t: c.get_member(1119, target=t),
        "GET",
        "/api/v2/member",
        params={"targetMemberId": "1119"},
    ),
    Case(
        "invite_member",
        lambda c, t: c.invite_member(
            m.MemberInvite(email="a@b.test", permitted_account_ids=[1112]), target=t
        ),
        "POST",
        "/api/v2/member",
        body={
            "email": "a@b.test",
            "role": "admin",
            "permittedAccountIds": [1112],
            "sendWelcomeEmail": True,
        },
    ),
    Case(
        "update_member",
        lambda c, t: c.update_member(
            m.MemberUpdate(target_member_id=1119, email="a@b.test", role="member"), target=t
        ),
        "PUT",
        "/api/v2/member",
        body={
            "targetMemberId": 1119,
            "email": "a@b.test",
            "role": "member",
            "permittedAccountIds": [],
        },
    ),
    Case(
        "delete_member",
        lambda c, t: c.delete_member(1119, target=t),
        "DELETE",
        "/api/v2/member",
        body={"targetMemberId": 1119},
    ),
    Case(
        "one_time_login",
        lambda c, t: c.one_time_login("a@b.test", external_account_id="crm-1"),
        "GET",
        "/api/v2/auth/account/oneTimeAuthToken",
        params={"email": "a@b.test", "externalAccountId": "crm-1"},
        takes_target=False,
    ),
    Case("list_webhooks", lambda c, t: c.list_webhooks(target=t), "GET", "/api/v2/webhooks"),
    Case(
        "add_webhook",
        lambda c, t: c.add_webhook("https://hooks.example.com/in", "conversation", "crm", target=t),
        "POST",
        "/api/v2/webhooks",
        body={"url": "https://hooks.example.com/in", "label": "crm", "type": "conversation"},
    ),
    Case(
        "delete_webhook",
        lambda c, t: c.delete_webhook("https://hooks.example.com/in", target=t),
        "DELETE",
        "/api/v2/webhooks",
        body={"url": "https://hooks.example.com/in"},
    ),
    Case(
        "list_relay_types",
        lambda c, t: c.list_relay_types(target=t),
        "GET",
        "/api/v2/webhookRelay/types",
    ),
    Case("list_relays", lambda c, t: c.list_relays(target=t), "GET", "/api/v2/webhookRelay"),
    Case(
        "get_relay",
        lambda c, t: c.get_relay("twilioSMS", target=t),
        "GET",
        "/api/v2/webhookRelay/twilioSMS",
    ),
    Case(
        "save_relay",
        lambda c, t: c.save_relay(
            "twilio SMS",
            m.RelayRequest(
                url="https://relay.example.com/in",
                timeout=5000,
                headers=[("Authorization", "Bearer xyz"), ("X-Tag", "a"), ("X-Tag", "b")],
                success_status_codes=[200, 202],
            ),
            target=t,
        ),
        "POST",
        "/api/v2/webhookRelay/twilio SMS",  # (the decoded path: sent as twilio%20SMS)
        body={
            "url": "https://relay.example.com/in",
            "timeout": 5000,
            "headers": [{"Authorization": "Bearer xyz"}, {"X-Tag": "a"}, {"X-Tag": "b"}],
            "successStatusCodes": [200, 202],
        },
    ),
    Case(
        "delete_relay",
        lambda c, t: c.delete_relay("chargebee", target=t),
        "DELETE",
        "/api/v2/webhookRelay/chargebee",
    ),
    Case(
        "list_computer_accounts",
        lambda c, t: c.list_computer_accounts(target=t),
        "GET",
        "/api/v2/computer/accounts",
    ),
    Case("list_templates", lambda c, t: c.list_templates(target=t), "GET", "/api/v2/templates"),
    Case(
        "migrate_default",
        lambda c, t: c.migrate("tpl-1", target=t),
        "POST",
        "/api/v2/templates/tpl-1/migrate",
        body={"dryRun": True, "forceMigrateOverriddenFields": False},
    ),
    Case(
        "migrate_for_real",
        lambda c, t: c.migrate(
            "tpl-1",
            m.MigrationRequest(
                dry_run=False,
                sections_to_migrate=["instructions", "voice"],
                force_migrate_overridden_fields=True,
            ),
            target=t,
        ),
        "POST",
        "/api/v2/templates/tpl-1/migrate",
        body={
            "dryRun": False,
            "sectionsToMigrate": ["instructions", "voice"],
            "forceMigrateOverriddenFields": True,
        },
    ),
    Case(
        "migration_status",
        lambda c, t: c.migration_status("/api/v2/templates/migrations/task-9", target=t),
        "GET",
        "/api/v2/templates/migrations/task-9",
    ),
    Case(
        "list_junk_rooms_defaults",
        lambda c, t: c.list_junk_rooms(target=t),
        "GET",
        "/api/v2/junkConversations",
        params={"pagination": "true", "page": "0", "pageSize": "20"},  # unread when asked
    ),
    Case(
        "list_junk_rooms",
        lambda c, t: c.list_junk_rooms(page=3, page_size=50, unread=True, target=t),
        "GET",
        "/api/v2/junkConversations",
        params={"pagination": "true", "page": "3", "pageSize": "50", "unread": "true"},
    ),
    Case(
        "list_priority_rooms",
        lambda c, t: c.list_priority_rooms(page=3, page_size=50, unread=True, target=t),
        "GET",
        "/api/v2/conversations",
        params={"pagination": "true", "page": "3", "pageSize": "50", "unread": "true"},
    ),
    Case(
        "list_room_messages",
        lambda c, t: c.list_room_messages("1111:240", target=t),
        "GET",
        "/api/v2/messages/1111:240",
    ),
    # The conversation logs (the vendor's reference; api/logs.py).
    Case(
        "list_logs",
        lambda c, t: c.list_logs(m.LogQuery(start=1, filters=(("status", "failed"),)), target=t),
        "GET",
        "/api/v2/logs",
        params={"start": "1", "status": "failed", "page": "1", "pageSize": "20"},
    ),
    Case(
        "stream_logs_csv",
        lambda c, t: _drain(c.stream_logs_csv(target=t)),
        "GET",
        "/api/v2/logs",
        params={"format": "csv"},
    ),
    Case(
        "get_conversations",
        lambda c, t: c.get_conversations([m.ConversationRef("1:2", "u:3")], target=t),
        "POST",
        "/api/v2/conversation/batch",
        body={"items": [{"roomId": "1:2", "uuid": "u:3"}]},
    ),
    Case(
        "review_agent",
        lambda c, t: c.review_agent("cfg-12", target=t),
        "POST",
        "/api/v2/agent/autoReviewAgentConfiguration",
        body={"mode": "agent", "agentId": "cfg-12"},
    ),
    Case(
        "get_usage",
        lambda c, t: c.get_usage(
            m.UsageQuery(billing_period="previous", frequency="month", give_costs=False), target=t
        ),
        "GET",
        "/api/v2/stats/usage",
        params={
            "billingPeriod": "previous",
            "frequency": "month",
            "giveCosts": "false",
            "timeseries": "true",
        },
    ),
    Case(
        "get_current_plan",
        lambda c, t: c.get_current_plan(target=t),
        "GET",
        "/api/v2/product/currentPlan",
    ),
    Case(
        "get_product_plan",
        lambda c, t: c.get_product_plan("pplan-id-1", target=t),
        "GET",
        "/api/v2/product/productPlan/pplan-id-1",
    ),
    Case(
        "get_offered_plan",
        lambda c, t: c.get_offered_plan(target=t),
        "GET",
        "/api/v2/product/offeredPlan",
    ),
    Case(
        "get_available_plans",
        lambda c, t: c.get_available_plans(target=t),
        "GET",
        "/api/v2/product/allAvailablePlans",
    ),
    Case(
        "get_product_catalog",
        lambda c, t: c.get_product_catalog(target=t),
        "GET",
        "/api/v2/product/productCatalog",
    ),
    Case(
        "get_available_addons",
        lambda c, t: c.get_available_addons(target=t),
        "GET",
        "/api/v2/addon/available",
    ),
    Case(
        "get_daily_counts",
        lambda c, t: c.get_daily_counts(target=t),
        "GET",
        "/api/v2/tasks/dailyCounts",
    ),
    Case(
        "get_task_limits",
        lambda c, t: c.get_task_limits(target=t),
        "GET",
        "/api/v2/tasks/limits",
    ),
    Case(
        "place_call",
        lambda c, t: c.place_call(m.OutboundCallRequest(target="+15551230001"), target=t),
        "POST",
        "/api/v2/agent/outboundCall",
        body={"target": "+15551230001"},
    ),
    Case(
        "send_text",
        lambda c, t: c.send_text(
            m.OutboundSmsRequest(target="+15551230001", content="Hi", context="test"), target=t
        ),
        "POST",
        "/api/v2/agent/outboundSms",
        body={"target": "+15551230001", "content": "Hi", "context": "test"},
    ),
    Case(
        "list_tasks",
        lambda c, t: c.list_tasks(
            m.TaskQuery(limit=20, offset=40, since=5, sort="updatedAt", state="pending"), target=t
        ),
        "GET",
        "/api/v2/tasks",
        params={
            "limit": "20",
            "offset": "40",
            "since": "5",
            "sort": "updatedAt",
            "order": "desc",
            "state": "pending",
        },
    ),
    Case("get_task_stats", lambda c, t: c.get_task_stats(target=t), "GET", "/api/v2/tasks/stats"),
    Case(
        "get_task",
        lambda c, t: c.get_task("task-1", target=t),
        "GET",
        "/api/v2/tasks/task-1",
    ),
    Case(
        "create_task",
        lambda c, t: c.create_task(
            m.TaskRequest(target="+15551230001", scheduled_for=1_800_000_000), target=t
        ),
        "POST",
        "/api/v2/tasks",
        body={"target": "+15551230001", "scheduledFor": 1_800_000_000, "type": "call"},
    ),
    Case(
        "update_task_limits",
        lambda c, t: c.update_task_limits(
            m.TaskLimitsUpdate(cooldown_calls=3600, cooldown_texts=60, daily_calls=50), target=t
        ),
        "POST",
        "/api/v2/tasks/limits",
        body={"cooldowns": {"calls": 3600, "texts": 60}, "daily": {"calls": 50}},
    ),
    Case(
        "delete_task",
        lambda c, t: c.delete_task("task-1", target=t),
        "DELETE",
        "/api/v2/tasks/task-1",
    ),
    Case(
        "update_task",
        lambda c, t: c.update_task("task-1", TaskUpdate(scheduled_for=1_800_000_000), target=t),
        "POST",
        "/api/v2/tasks/task-1",
        body={"scheduledFor": 1_800_000_000},
    ),
    Case(
        "get_caller_context",
        lambda c, t: c.get_caller_context("+15551230001", target=t),
        "GET",
        "/api/v2/context",
        params={"target": "+15551230001"},
    ),
    Case(
        "update_caller_context",
        lambda c, t: c.update_caller_context(
            ContextRequest(target="+15551230001", context="Name: Dana\n"), target=t
        ),
        "POST",
        "/api/v2/context",
        body={"target": "+15551230001", "context": "Name: Dana\n"},
    ),
    Case(
        "recent_messages",
        lambda c, t: c.recent_messages(target=t),
        "GET",
        "/api/v2/messages/recent",
    ),
    # Child lists: scoped by their own target*Id, not by targetAccountId.
    Case(
        "create_reseller",
        lambda c, t: c.create_reseller(11, m.NewReseller(reseller_name=" Orbit ", email="")),
        "POST",
        "/api/v2/createReseller",
        params={"targetPartnerId": "11"},
        body={"resellerName": "Orbit", "resellerStatus": "enabled"},
        takes_target=False,
    ),
    Case(
        "create_organization",
        lambda c, t: c.create_organization(
            22, m.NewOrganization(org_name="Clinic", external_account_id="crm-1")
        ),
        "POST",
        "/api/v2/createOrganization",
        params={"targetResellerId": "22"},
        body={
            "orgName": "Clinic",
            "orgAccountType": "customer",
            "hipaaSetting": "inherit",
            "externalAccountId": "crm-1",
        },
        takes_target=False,
    ),
    Case(
        "create_account",
        lambda c, t: c.create_account(
            33, m.NewAgentAccount(account_name="Desk", external_billing_id="b-1")
        ),
        "POST",
        "/api/v2/createAccount",
        params={"targetOrganizationId": "33"},
        body={"accountName": "Desk", "externalBillingId": "b-1"},
        takes_target=False,
    ),
    Case(
        "update_account",
        lambda c, t: c.update_account(
            t,  # type: ignore[arg-type]  # the case gives a target
            m.AccountUpdate(active=False, external_account_id=None),
        ),
        "POST",
        "/api/v2/updateAccount",
        body={"active": False, "externalAccountId": None},  # only what was given; null removes
        target_required=True,
    ),
    Case(
        "update_organization",
        lambda c, t: c.update_organization(33, m.OrganizationUpdate(org_name="New name")),
        "POST",
        "/api/v2/updateOrganization",
        params={"targetOrganizationId": "33"},
        body={"orgName": "New name"},
        takes_target=False,
    ),
    Case(
        "delete_account",
        lambda c, t: c.delete_account(33, 44),
        "DELETE",
        "/api/v2/deleteAccount",
        params={"targetOrganizationId": "33"},
        body={"targetAccountId": 44},
        takes_target=False,
    ),
    Case(
        "delete_organization",
        lambda c, t: c.delete_organization(22, 33),
        "DELETE",
        "/api/v2/deleteOrganization",
        params={"targetResellerId": "22"},
        body={"targetOrganizationId": 33},
        takes_target=False,
    ),
    Case(
        "account_by_external_id",
        lambda c, t: c.account_by_external_id("crm 1"),
        "GET",
        "/api/v2/getAccountByExternalId",
        params={"externalAccountId": "crm 1"},
        takes_target=False,
    ),
    Case(
        "list_resellers",
        lambda c, t: c.list_resellers(11),
        "GET",
        "/api/v2/listResellers",
        params={"targetPartnerId": "11"},
        takes_target=False,
    ),
    Case(
        "list_resellers_paged",
        lambda c, t: c.list_resellers(11, page=2, page_size=25),
        "GET",
        "/api/v2/listResellers",
        params={"targetPartnerId": "11", "pagination": "true", "page": "2", "pageSize": "25"},
        takes_target=False,
    ),
    Case(
        "list_organizations",
        lambda c, t: c.list_organizations(22),
        "GET",
        "/api/v2/listOrganizations",
        params={"targetResellerId": "22"},
        takes_target=False,
    ),
    Case(
        "list_organizations_paged",
        lambda c, t: c.list_organizations(22, page=0, page_size=10),
        "GET",
        "/api/v2/listOrganizations",
        params={"targetResellerId": "22", "pagination": "true", "page": "0", "pageSize": "10"},
        takes_target=False,
    ),
    Case(
        "list_accounts",
        lambda c, t: c.list_accounts(33),
        "GET",
        "/api/v2/listAccounts",
        params={"targetOrganizationId": "33"},
        takes_target=False,
    ),
    Case(
        "list_accounts_paged",
        lambda c, t: c.list_accounts(33, page=1, page_size=5),
        "GET",
        "/api/v2/listAccounts",
        params={"targetOrganizationId": "33", "pagination": "true", "page": "1", "pageSize": "5"},
        takes_target=False,
    ),
    Case(
        "search_accounts",
        lambda c, t: c.search_accounts("acme", account_type="reseller"),
        "GET",
        "/api/v2/searchAccounts",
        params={"queryText": "acme", "accountType": "reseller"},
        takes_target=False,
    ),
    Case(
        "search_accounts_below_target",
        lambda c, t: c.search_accounts("pine", page=0, page_size=50, target=t),
        "GET",
        "/api/v2/searchAccounts",
        params={"queryText": "pine", "pagination": "true", "page": "0", "pageSize": "50"},
    ),
    Case(
        "search_accounts_paged",
        lambda c, t: c.search_accounts(page=4, page_size=100),
        "GET",
        "/api/v2/searchAccounts",
        params={"pagination": "true", "page": "4", "pageSize": "100"},
        takes_target=False,
    ),
    # Computer Agent routes: the account id is in the path, never anywhere else.
    Case(
        "recording_status",
        lambda c, t: c.recording_status(TARGET),
        "GET",
        f"/api/v2/computer/accounts/{TARGET}/workflow-recordings/status",
        takes_target=False,
    ),
    Case(
        "start_recording",
        lambda c, t: c.start_recording(TARGET, 3),
        "POST",
        f"/api/v2/computer/accounts/{TARGET}/workflow-recordings/start",
        body={"slotId": 3},
        takes_target=False,
    ),
    Case(
        "stop_recording",
        lambda c, t: c.stop_recording(TARGET),
        "POST",
        f"/api/v2/computer/accounts/{TARGET}/workflow-recordings/stop",
        body={},
        takes_target=False,
    ),
    Case(
        "create_automation_session",
        lambda c, t: c.create_automation_session(TARGET, 900),
        "POST",
        f"/api/v2/computer/accounts/{TARGET}/browser/automation-sessions",
        body={"ttlSeconds": 900},
        takes_target=False,
    ),
    Case(
        "list_workspace_files",
        lambda c, t: c.list_workspace_files(TARGET),
        "GET",
        f"/api/v2/computer/accounts/{TARGET}/workspace/files",
        takes_target=False,
    ),
    Case(
        "upload_file",
        lambda c, t: c.upload_file(TARGET, "docs/a.txt", b"x"),
        "POST",
        f"/api/v2/computer/accounts/{TARGET}/workspace/upload",
        body=MULTIPART,
        takes_target=False,
    ),
    Case("list_numbers", lambda c, t: c.list_numbers(target=t), "GET", "/api/v2/phoneNumbers"),
    Case(
        "search_numbers",
        lambda c, t: c.search_numbers(number_models.parse_search("Austin, TX"), target=t),
        "POST",
        "/api/v2/phoneNumber/search/local/locality",
        body={"city": "Austin", "region": "TX", "country": "US"},
    ),
    Case(
        "search_numbers_prefix",
        lambda c, t: c.search_numbers(number_models.parse_search("512"), target=t),
        "POST",
        "/api/v2/phoneNumber/search/local/prefix",
        body={"prefix": "512", "country": "US", "strict": True},
    ),
    Case(
        "search_numbers_phrase",
        lambda c, t: c.search_numbers(number_models.parse_search("*CAFE*"), target=t),
        "POST",
        "/api/v2/phoneNumber/search/local/phrase",
        body={"phrase": "*CAFE*", "country": "US"},
    ),
    Case(
        "buy_number",
        lambda c, t: c.buy_number("+15125550100", "US", target=t),
        "POST",
        "/api/v2/phoneNumber/assign",
        body={"number": "+15125550100", "country": "US"},
    ),
    Case(
        "bring_number",
        lambda c, t: c.bring_number("+15125550100", target=t),
        "POST",
        "/api/v2/phoneNumber/byo/assign",
        body={"number": "+15125550100"},
    ),
    Case(
        "return_number",
        lambda c, t: c.return_number("+15125550100", target=t),
        "POST",
        "/api/v2/phoneNumber/return",
        body={"number": "+15125550100"},
    ),
    Case(
        "list_sip_routes",
        lambda c, t: c.list_sip_routes(target=t),
        "GET",
        "/api/v2/sip/outboundRoutes",
    ),
    Case(
        "add_sip_route",
        lambda c, t: c.add_sip_route(" pbx.example.com:5070;transport=tcp ", target=t),
        "POST",
        "/api/v2/sip/outboundRoutes",
        body={"route": "pbx.example.com:5070;transport=tcp"},
    ),
    Case(
        "delete_sip_route",
        lambda c, t: c.delete_sip_route("1.1.1.1:5060;transport=udp", target=t),
        "DELETE",
        "/api/v2/sip/outboundRoutes",
        body={"route": "1.1.1.1:5060;transport=udp"},
    ),
    Case(
        "check_sip_aor",
        lambda c, t: c.check_sip_aor(sm.AorQuery(aor="1001@sip.example.com"), target=t),
        "POST",
        "/api/v2/sip/registration/available",
        body={"aor": "1001@sip.example.com"},
    ),
    Case(
        "get_sip_registration",
        lambda c, t: c.get_sip_registration(target=t),
        "GET",
        "/api/v2/sip/registration",
    ),
    Case(
        "save_sip_registration",
        lambda c, t: c.save_sip_registration(
            sm.SipRegistrationRequest(
                aor="1001@sip.example.com", password=" pw 1 ", transport="tls", port=5061
            ),
            target=t,
        ),
        "POST",
        "/api/v2/sip/registration",
        body={
            "aor": "1001@sip.example.com",
            "password": " pw 1 ",
            "transport": "TLS",
            "port": 5061,
        },
    ),
    Case(
        "delete_sip_registration",
        lambda c, t: c.delete_sip_registration(target=t),
        "DELETE",
        "/api/v2/sip/registration",
    ),
    Case(
        "upload_tasks_csv",
        lambda c, t: c.upload_tasks_csv(b"target\n+15551230001\n", dry_run=True, target=t),
        "POST",
        "/api/v2/tasks/csv",
        body=MULTIPART,
    ),
    # SIP captures and numbering providers (api/captures.py, api/numbering.py).
    Case(
        "get_sip_capture",
        lambda c, t: c.get_sip_capture(
            CaptureQuery(sip_call_id="a1@pbx.example", format="json", start_ms=1, end_ms=2),
            target=t,
        ),
        "GET",
        "/api/v2/sip/captures",
        params={"sipCallId": "a1@pbx.example", "format": "json", "from": "1", "to": "2"},
    ),
    Case(
        "list_numbering_providers",
        lambda c, t: c.list_numbering_providers(target=ORG),
        "GET",
        "/api/v2/numberingProviders",
        params={"targetOrganizationId": "33"},
        takes_target=False,
    ),
    Case(
        "create_numbering_provider",
        lambda c, t: c.create_numbering_provider(
            ProviderRequest(provider_id="Twilio", config={"accountSid": "AC1", "authToken": "tk"}),
            target=ORG,
        ),
        "POST",
        "/api/v2/numberingProvider",
        body={"providerId": "Twilio", "config": {"accountSid": "AC1", "authToken": "tk"}},
        params={"targetOrganizationId": "33"},
        takes_target=False,
    ),
    Case(
        "update_numbering_provider",
        lambda c, t: c.update_numbering_provider(
            ProviderRequest(provider_id="Twilio", default=True, enabled=False), target=ORG
        ),
        "PUT",
        "/api/v2/numberingProvider",
        body={"providerId": "Twilio", "default": True, "enabled": False},
        params={"targetOrganizationId": "33"},
        takes_target=False,
    ),
    Case(
        "buy_plan",
        lambda c, t: c.buy_plan(b.SubscribeRequest(product_plan_id="pro", term="year"), target=t),
        "POST",
        "/api/v2/product/subscribe",
        body={"productPlanId": "pro", "term": "year"},
    ),
    Case(
        "cancel_plan",
        lambda c, t: c.cancel_plan(b.CancelRequest(reason="too dear"), target=t),
        "DELETE",
        "/api/v2/product/cancel",
        body={"reason": "too dear"},
    ),
    Case(
        "set_billing_period",
        lambda c, t: c.set_billing_period(
            b.BillingPeriodRequest(start_date_timestamp=10, end_date_timestamp=20), target=t
        ),
        "POST",
        "/api/v2/billing/billingPeriod",
        body={"startDateTimestamp": 10, "endDateTimestamp": 20},
    ),
    Case(
        "get_billing_system",
        lambda c, t: c.get_billing_system(target=t),
        "GET",
        "/api/v2/billing/billingSystemConfig",
    ),
    Case(
        "set_billing_system",
        lambda c, t: c.set_billing_system(stripe(), target=t),
        "POST",
        "/api/v2/billing/billingSystemConfig",
        body={
            "billingSystemType": "stripe",
            "apiKey": "sk_test_secret_1",
            "publishableKey": "pk_test_1",
            "webhookSigningKey": "whsec_secret_1",
        },
    ),
    Case(
        "get_integration",
        lambda c, t: c.get_integration("crm", "v2", target=t),
        "GET",
        "/api/v2/integration/crm/v2",
    ),
    Case(
        "update_integration",
        lambda c, t: c.update_integration(
            "crm", "v1", IntegrationUpdate(app_data={"portalId": "7"}), target=t
        ),
        "PUT",
        "/api/v2/integration/crm/v1",
        body={"appData": {"portalId": "7"}},
    ),
]


async def _refused_read_only() -> frozenset[str]:
    """The cases a read-only client refuses before sending: the changes."""
    client = PlatformClient(BASE, TOKEN, transport=Recorder().transport(), get_retries=0)
    client.read_only = True
    refused = set()
    for case in CASES:
        try:
            await case.call(client, TARGET if case.takes_target else None)
        except ReadOnlyRefused:
            refused.add(case.id)
        except PlatformError:
            pass  # sent (a read), its reply not what it reads: no matter here
    await client.aclose()
    return frozenset(refused)


CHANGES = asyncio.run(_refused_read_only())
WRITES = [case for case in CASES if case.id in CHANGES]
"""The calls that change the platform (`test_api_errors.py`: never retried)."""


@dataclass(frozen=True)
class Seen:
    """What a case's call does, found by running it (no list kept by hand)."""

    methods: frozenset[str]
    """The client's public methods it calls."""
    reply: dict[str, Any]
    """A reply holding every list it reads (a reply without its list is refused)."""


_ASKED = re.compile(r"holds no (usable )?'?(\w+)'?( list)?")
_SEEN: dict[str, Seen] = {}


async def seen(case: Case) -> Seen:
    """The case's `Seen`: the reply grows by each list the client says it lacks."""
    if case.id in _SEEN:
        return _SEEN[case.id]
    reply: dict[str, Any] = {"success": True}
    called: set[str] = set()
    recorder = Recorder()
    client = PlatformClient(BASE, TOKEN, transport=recorder.transport(), get_retries=0)
    for name in dir(PlatformClient):
        if not name.startswith("_") and callable(getattr(PlatformClient, name)):
            setattr(client, name, _heard(getattr(client, name), name, called))
    try:
        while True:
            recorder.replies = [ok(reply)]
            try:
                await case.call(client, TARGET if case.takes_target else None)
            except MalformedResponse as exc:
                asked = _ASKED.search(exc.message)
                assert asked is not None and asked[2] not in reply, exc.message
                reply[asked[2]] = [] if asked[3] else "ott_0"  # a list, or the one-time token
                continue
            break
    finally:
        await client.aclose()
    _SEEN[case.id] = Seen(frozenset(called), reply)
    return _SEEN[case.id]


def _heard(method: Callable[..., Any], name: str, called: set[str]) -> Callable[..., Any]:
    def heard(*args: Any, **kwargs: Any) -> Any:
        called.add(name)
        return method(*args, **kwargs)

    return heard


def test_the_changes_are_found_by_the_read_only_refusal() -> None:
    """A PUT or a DELETE always changes; a POST may only read (a batch read, a review:
    `request(..., reads=True)`); a GET may change (the one-time login: ``writes=True``)."""
    assert all(c.id in CHANGES for c in CASES if c.method in ("PUT", "DELETE", "PATCH"))
    assert any(c.method == "POST" for c in WRITES) and any(c.method == "GET" for c in WRITES)


def _variants() -> list[Any]:
    out = []
    for case in CASES:
        targets: list[int | None] = [None] if not case.takes_target else [TARGET]
        if case.takes_target and not case.target_required:
            targets.append(None)
        for target in targets:
            label = f"{case.id}-{'target' if target else 'no-target'}"
            out.append(pytest.param(case, target, id=label))
    return out


def assert_credential(request: Any) -> None:
    """The token rides once in the query, never in a header."""
    assert query(request)["token"] == [TOKEN]
    assert "authorization" not in request.headers
    for name, value in request.headers.items():
        assert TOKEN not in value, name


async def test_every_public_method_has_a_case() -> None:
    public = {
        name
        for name in dir(PlatformClient)
        if not name.startswith("_") and callable(getattr(PlatformClient, name))
    }
    # request and get carry the others' requests; the rest send nothing
    plumbing = {"request", "get", "aclose", "uses_token", "backoff_delay", "stream_get", "redact",
                "slot_as_sent"}  # fmt: skip
    covered = set().union(*[(await seen(case)).methods for case in CASES])
    missing = public - plumbing - covered
    assert not missing, f"methods without a request-shape case: {sorted(missing)}"


@pytest.mark.parametrize(("case", "target"), _variants())
async def test_request_shape(make_client: MakeClient, case: Case, target: int | None) -> None:
    recorder = Recorder(ok((await seen(case)).reply))
    client = make_client(recorder)

    await case.call(client, target)

    assert recorder.calls == 1
    request = recorder.last
    assert request.method == case.method
    assert request.url.path == case.path
    assert request.url.host == "platform.test"
    assert_credential(request)

    params = query(request)
    params.pop("token")
    if target is not None:
        assert params.pop("targetAccountId") == [str(TARGET)]
    else:
        assert "targetAccountId" not in params
    assert params == {key: [value] for key, value in case.params.items()}

    if case.body is MULTIPART:
        assert request.headers["content-type"].startswith("multipart/form-data")
    elif case.body is NO_BODY:
        assert request.content == b""
    else:
        assert request.headers["content-type"] == "application/json"
        assert json_body(request) == case.body
    if case.path.startswith(COMPUTER):  # the account is in the path, never a target
        assert "targetAccountId" not in request.url.query.decode()
        assert b"targetAccountId" not in request.content
        assert str(TARGET) not in request.url.query.decode()


async def test_upload_is_multipart_with_account_in_path_only(make_client: MakeClient) -> None:
    recorder = Recorder()
    client = make_client(recorder)

    await client.upload_file(TARGET, "docs/notes.txt", b"hello\x00world", mode="0644")

    request = recorder.last
    assert request.method == "POST"
    assert request.url.path == f"/api/v2/computer/accounts/{TARGET}/workspace/upload"
    assert_credential(request)
    assert query(request) == {"token": [TOKEN]}
    fields = multipart_fields(request)
    assert set(fields) == {"path", "file", "overwrite", "mode"}
    assert fields["path"] == (None, b"docs/notes.txt")
    assert fields["overwrite"] == (None, b"false")
    assert fields["mode"] == (None, b"0644")
    assert fields["file"] == ("notes.txt", b"hello\x00world")
    assert b"targetAccountId" not in request.content


async def test_upload_overwrite_true_and_explicit_filename(make_client: MakeClient) -> None:
    recorder = Recorder()
    client = make_client(recorder)

    await client.upload_file(TARGET, "a/b.csv", b"x,y", overwrite=True, filename="local.csv")

    fields = multipart_fields(recorder.last)
    assert fields["overwrite"] == (None, b"true")
    assert fields["file"] == ("local.csv", b"x,y")
    assert "mode" not in fields


@pytest.mark.parametrize(
    "bad",
    [
        {"path": "../escape.txt"},
        {"path": "/etc/passwd"},
        {"path": "docs/notes.txt", "mode": "999"},
    ],
)
async def test_upload_refuses_bad_form_without_sending(
    make_client: MakeClient, bad: dict[str, str]
) -> None:
    recorder = Recorder()
    client = make_client(recorder)

    with pytest.raises(ValueError):
        await client.upload_file(TARGET, bad["path"], b"x", mode=bad.get("mode"))
    assert recorder.calls == 0


@pytest.mark.parametrize("ttl", [59, 1801])
async def test_automation_session_ttl_bounds_checked_before_sending(
    make_client: MakeClient, ttl: int
) -> None:
    recorder = Recorder()
    client = make_client(recorder)

    with pytest.raises(ValueError):
        await client.create_automation_session(TARGET, ttl)
    assert recorder.calls == 0


async def test_start_recording_refuses_negative_slot_without_sending(
    make_client: MakeClient,
) -> None:
    recorder = Recorder()
    client = make_client(recorder)

    with pytest.raises(ValueError):
        await client.start_recording(TARGET, -1)
    assert recorder.calls == 0


@pytest.mark.parametrize(
    "endpoint",
    [
        "templates/migrations/task-9",  # relative: from the API's root
        "/api/v2/templates/migrations/task-9",
        "http://platform.test/api/v2/templates/migrations/task-9",
    ],
)
async def test_migration_status_accepts_relative_and_same_origin(
    make_client: MakeClient, endpoint: str
) -> None:
    recorder = Recorder(
        lambda request: __import__("httpx").Response(
            200, json={"success": True, "taskId": "task-9", "status": "running"}
        )
    )
    client = make_client(recorder)

    task = await client.migration_status(endpoint)

    assert recorder.last.url.path == "/api/v2/templates/migrations/task-9"
    assert recorder.last.url.host == "platform.test"
    assert_credential(recorder.last)
    assert task.task_id == "task-9"
    assert task.status == "running"


@pytest.mark.parametrize(
    "endpoint",
    [
        "https://evil.test/api/v2/templates/migrations/task-9",
        "http://evil.test/api/v2/templates/migrations/task-9",
        "//evil.test/api/v2/templates/migrations/task-9",
        "https://platform.test/api/v2/templates/migrations/task-9",  # another scheme
        "http://platform.test:8080/api/v2/templates/migrations/task-9",  # another port
    ],
)
async def test_migration_status_refuses_other_origin_without_sending(
    make_client: MakeClient, endpoint: str
) -> None:
    recorder = Recorder()
    client = make_client(recorder)

    with pytest.raises(PlatformError) as info:
        await client.migration_status(endpoint)

    assert recorder.calls == 0
    assert TOKEN not in str(info.value)


async def test_request_accepts_prefixed_and_unprefixed_paths(make_client: MakeClient) -> None:
    recorder = Recorder()
    client = make_client(recorder)

    await client.request("GET", "/account")
    await client.request("GET", "/api/v2/account")

    assert [r.url.path for r in recorder.requests] == ["/api/v2/account"] * 2


async def test_agent_config_id_is_escaped_in_path(make_client: MakeClient) -> None:
    recorder = Recorder()
    client = make_client(recorder)

    await client.get_agent("a/b?c")

    assert recorder.last.url.raw_path.startswith(b"/api/v2/agent/a%2Fb%3Fc?")
    assert query(recorder.last) == {"token": [TOKEN]}


def test_the_default_transport_is_aiohttps_pool_unless_a_proxy_or_a_choice_says_not(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import httpx

    from vagent_tui.api.pool import AiohttpPool, HttpxPool
    from vagent_tui.api.sender import PROXY_VARIABLES, default_pool

    timeout = httpx.Timeout(5)
    for name in (*PROXY_VARIABLES, "VAGENT_TRANSPORT"):
        monkeypatch.delenv(name, raising=False)
    assert isinstance(default_pool("http://h", timeout), AiohttpPool)
    monkeypatch.setenv("HTTPS_PROXY", "http://proxy.example:3128")
    # httpx's own pool honours the proxy; aiohttp would not
    assert isinstance(default_pool("http://h", timeout), HttpxPool)
    monkeypatch.delenv("HTTPS_PROXY")
    monkeypatch.setenv("VAGENT_TRANSPORT", "httpx")
    assert isinstance(default_pool("http://h", timeout), HttpxPool)


@pytest.mark.parametrize("dry_run", [True, False])
async def test_tasks_csv_is_multipart_with_dry_run(make_client: MakeClient, dry_run: bool) -> None:
    recorder = Recorder()
    client = make_client(recorder)

    await client.upload_tasks_csv(b"target\n+15551230001\n", dry_run=dry_run, target=TARGET)

    request = recorder.last
    assert (request.method, request.url.path) == ("POST", "/api/v2/tasks/csv")
    assert_credential(request)
    assert query(request)["targetAccountId"] == [str(TARGET)]
    fields = multipart_fields(request)
    assert fields["dryRun"] == (None, b"true" if dry_run else b"false")
    assert fields["csv"] == ("tasks.csv", b"target\n+15551230001\n")
