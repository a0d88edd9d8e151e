"""Pydantic models of every resource of the platform API.

Response models (`Resource` subclasses) are lenient: the spec marks no response field
as required, so every field has a default, and unknown fields are kept (``extra="allow"``)
so nothing the server sends is lost. Request models (`Request` subclasses, in
`vagent_tui.api.requests`, re-exported here) are strict.

Python names are snake_case; the wire names are the camelCase aliases.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from pydantic import ConfigDict, Field, field_validator, model_validator

from vagent_tui.api.base import Items, MaybeItems, NullAsDefault, Resource

if TYPE_CHECKING:
    from vagent_tui.api.agent_config import (
        AgentConfig,
        CreatedVersion,
        EffectiveReportingField,
        FunctionEntry,
        Published,
        ReportingField,
        StagingWrite,
    )
    from vagent_tui.api.log_models import (
        BatchReply,
        BatchResult,
        ConversationMessage,
        ConversationRef,
        LogEntry,
        LogPage,
        LogQuery,
    )
    from vagent_tui.api.migration_models import (
        FINAL_STATUSES,
        MigrationCounts,
        MigrationTask,
        Template,
    )
    from vagent_tui.api.requests import (
        MEMBER_ROLES,
        WEBHOOK_TYPES,
        AccountUpdate,
        AdrExportConfig,
        Header,
        MemberInvite,
        MemberUpdate,
        MigrationRequest,
        NewAgentAccount,
        NewOrganization,
        NewReseller,
        OneTimeLoginRequest,
        OrganizationUpdate,
        RecordingStartRequest,
        RelayRequest,
        Request,
        RestoreRequest,
        SipEntryRequest,
        Slot,
        TitleRequest,
        TokenRequest,
        UploadRequest,
        VersionRequest,
        WebhookRequest,
        check_http_url,
        check_ip,
        check_octal_mode,
        header_lines,
        is_hostname_or_ip,
        parse_header_lines,
    )
    from vagent_tui.api.resources import (
        AgentReview,
        AutomationSession,
        ComputerAccount,
        Envelope,
        FunctionDescriptor,
        InboxPage,
        InboxRoom,
        JunkRoom,
        JunkRoomPage,
        Member,
        RelayConfig,
        RelayType,
        RoomMessage,
        SavedVersion,
        SettingsChange,
        SipEntry,
        TitleChange,
        TokenRecord,
        UploadResult,
        Voice,
        Webhook,
        WorkflowRecording,
        WorkspaceFile,
        mask_secret,
        party,
    )
    from vagent_tui.api.task_models import (
        ENDED_STATES,
        TASK_STATES,
        CsvRow,
        CsvUpload,
        OutboundCallRequest,
        OutboundSmsRequest,
        OutboundTask,
        QueuedTasks,
        TaskLimitsUpdate,
        TaskPage,
        TaskQuery,
        TaskRequest,
        TaskStats,
        check_e164,
    )
    from vagent_tui.api.usage_models import OpenReply, UsageQuery

# The public names, the re-exported ones included: a strict type checker takes an import
# for a re-export only when `__all__` lists it.
__all__ = [
    "ENDED_STATES",
    "FINAL_STATUSES",
    "MEMBER_ROLES",
    "TASK_STATES",
    "WEBHOOK_TYPES",
    "Account",
    "AccountPage",
    "AccountUpdate",
    "AdrExportConfig",
    "AgentConfig",
    "AgentReview",
    "AutomationSession",
    "BatchReply",
    "BatchResult",
    "ComputerAccount",
    "ConversationMessage",
    "ConversationRef",
    "CreatedVersion",
    "CsvRow",
    "CsvUpload",
    "EffectiveReportingField",
    "Envelope",
    "FunctionDescriptor",
    "FunctionEntry",
    "Header",
    "InboxPage",
    "InboxRoom",
    "JunkRoom",
    "JunkRoomPage",
    "LogEntry",
    "LogPage",
    "LogQuery",
    "Member",
    "MemberInvite",
    "MemberUpdate",
    "MigrationCounts",
    "MigrationRequest",
    "MigrationTask",
    "NewAgentAccount",
    "NewOrganization",
    "NewReseller",
    "OneTimeLoginRequest",
    "OpenReply",
    "OrganizationUpdate",
    "OutboundCallRequest",
    "OutboundSmsRequest",
    "OutboundTask",
    "Published",
    "QueuedTasks",
    "RecordingStartRequest",
    "RelayConfig",
    "RelayRequest",
    "RelayType",
    "ReportingField",
    "Request",
    "Resource",
    "RestoreRequest",
    "RoomMessage",
    "SavedVersion",
    "SettingsChange",
    "SipEntry",
    "SipEntryRequest",
    "Slot",
    "StagingWrite",
    "TaskLimitsUpdate",
    "TaskPage",
    "TaskQuery",
    "TaskRequest",
    "TaskStats",
    "Template",
    "TitleChange",
    "TitleRequest",
    "TokenRecord",
    "TokenRequest",
    "UploadRequest",
    "UploadResult",
    "UsageQuery",
    "VersionRequest",
    "Voice",
    "Webhook",
    "WebhookRequest",
    "WorkflowRecording",
    "WorkspaceFile",
    "check_e164",
    "check_http_url",
    "check_ip",
    "check_octal_mode",
    "header_lines",
    "is_hostname_or_ip",
    "mask_secret",
    "parse_header_lines",
    "party",
]  # fmt: skip

# Every model but the account's (resources.py, migration_models.py, agent_config.py) and
# the request models (requests.py) are re-exported so that `models` names every resource
# of the API. They are imported on first use (PEP 562), not at start-up: the first screen
# reads accounts only.
_REEXPORTED = dict.fromkeys(
    ("AgentConfig", "CreatedVersion", "EffectiveReportingField", "FunctionEntry", "Published",
     "ReportingField", "StagingWrite"),
    "vagent_tui.api.agent_config",
) | dict.fromkeys(
    ("WEBHOOK_TYPES", "MEMBER_ROLES", "MemberInvite", "MemberUpdate", "OneTimeLoginRequest",
     "AdrExportConfig",
     "Header", "MigrationRequest",
     "RecordingStartRequest", "RelayRequest", "Request", "RestoreRequest", "SipEntryRequest",
     "Slot", "TitleRequest", "TokenRequest", "UploadRequest", "VersionRequest",
     "WebhookRequest", "NewReseller", "NewOrganization", "NewAgentAccount", "AccountUpdate",
     "OrganizationUpdate", "check_http_url", "check_ip", "check_octal_mode", "header_lines",
     "is_hostname_or_ip", "parse_header_lines"),
    "vagent_tui.api.requests",
) | dict.fromkeys(
    ("FINAL_STATUSES", "MigrationCounts", "MigrationTask", "Template"),
    "vagent_tui.api.migration_models",
) | dict.fromkeys(
    ("BatchReply", "BatchResult", "ConversationMessage", "ConversationRef", "LogEntry",
     "LogPage", "LogQuery"),
    "vagent_tui.api.log_models",
) | dict.fromkeys(
    ("FunctionDescriptor", "Voice", "SavedVersion", "TitleChange",
     "ComputerAccount", "TokenRecord", "WorkflowRecording", "AutomationSession",
     "UploadResult", "WorkspaceFile", "JunkRoom", "JunkRoomPage", "RoomMessage", "SipEntry",
     "Webhook", "RelayType", "RelayConfig", "Envelope", "mask_secret", "party", "InboxRoom",
     "InboxPage", "AgentReview", "Member", "SettingsChange"),
    "vagent_tui.api.resources",
) | dict.fromkeys(
    ("ENDED_STATES", "TASK_STATES", "CsvRow", "CsvUpload", "OutboundCallRequest",
     "OutboundSmsRequest", "OutboundTask", "QueuedTasks", "TaskPage", "TaskQuery",
     "TaskLimitsUpdate", "TaskRequest", "TaskStats", "check_e164"),
    "vagent_tui.api.task_models",
) | dict.fromkeys(("OpenReply", "UsageQuery"), "vagent_tui.api.usage_models")  # fmt: skip


def __getattr__(name: str) -> Any:
    module = _REEXPORTED.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_REEXPORTED})


# --------------------------------------------------------------------------- accounts


_SENT_FIELDS: dict[frozenset[str], set[str]] = {}
"""One set per combination of fields an account was sent with (see `Account`)."""
_SENT_FIELDS_KEPT = 256  # a platform sending odd fields per account cannot grow it more


class Account(Resource):
    """An account, as read by ``GET /account`` or listed by the child lists.

    The scope fields may sit at the top level or inside ``details`` (api-facts):
    `scope_field` reads both.
    """

    # The first screen reads accounts; frozen: they share their sets of fields sent.
    model_config = ConfigDict(defer_build=False, frozen=True)

    id: int | None = None
    username: str | None = None
    name: str | None = None
    account_type: str | None = None
    organization_id: int | str | None = None
    partner_id: int | str | None = None
    reseller_id: int | str | None = None
    parent_id: int | None = None
    permitted_account_ids: MaybeItems[int] = None
    super_admin: bool | None = None
    active: bool | None = None
    vida_premium: bool | None = None
    computer_agent: bool | None = None
    external_account_id: str | None = None
    """The caller's own CRM id (``createAccount``, ``updateAccount``), if set."""
    external_billing_id: str | None = None
    details: dict[str, Any] | None = None

    @field_validator("external_account_id", "external_billing_id", mode="before")
    @classmethod
    def _as_text(cls, value: Any) -> Any:
        """An id sent as a number is the same id; any other shape is no id (an account
        list is never refused for a field the console only shows)."""
        if isinstance(value, str) or value is None:
            return value
        if isinstance(value, int | float) and not isinstance(value, bool):
            return str(value)
        return None

    @model_validator(mode="after")
    def _share_fields_set(self) -> Account:
        """Accounts come by the ten thousand (Fleet and Rollout list every one below the
        key) and nearly all carry the same fields: they share one set of the fields sent
        (a set of its own is 0.7 KB, about a third of an account). Accounts are frozen,
        so nothing adds to a shared set.
        """
        sent = self.__pydantic_fields_set__
        if len(_SENT_FIELDS) < _SENT_FIELDS_KEPT:
            sent = _SENT_FIELDS.setdefault(frozenset(sent), sent)
        object.__setattr__(self, "__pydantic_fields_set__", sent)
        return self

    def scope_field(self, name: str) -> Any:
        """A scope field by wire name, from the top level or else from ``details``."""
        field = _ACCOUNT_WIRE_TO_FIELD.get(name)
        value = getattr(self, field) if field else (self.model_extra or {}).get(name)
        if value is None and self.details:
            value = self.details.get(name)
        return value

    @property
    def display_name(self) -> str:
        for candidate in (self.name, self.scope_field("name"), self.username):
            if candidate:
                return str(candidate)
        return f"#{self.id}" if self.id is not None else "?"


_ACCOUNT_WIRE_TO_FIELD = {info.alias or name: name for name, info in Account.model_fields.items()}


def _no_accounts() -> list[Account]:
    # Not `list` itself: pydantic reads a factory's signature, and a builtin's is parsed
    # from its text by `inspect`, which compiles the tokenizer's patterns (2 ms at start-up).
    return []


class AccountPage(Resource):
    """A page of a child-account list (resellers, organizations or accounts)."""

    model_config = ConfigDict(defer_build=False)

    items: Items[Account] = Field(default_factory=_no_accounts)
    total: NullAsDefault[int] = 0
    page_size: int | None = None
    page_number: int | None = None
