"""Pydantic models of every resource of the platform API.

Response models (`Resource` subclasses) are lenient: the spec marks no response field
as required, so every field has a default, and unknown fields are kept (``extra="allow"``)
so nothing the server sends is lost. Request models (`Request` subclasses) are strict:
they refuse what the platform would refuse before anything is sent, with a message a
form can show at the field it concerns.

Python names are snake_case; the wire names are the camelCase aliases.
"""

from __future__ import annotations

import ipaddress
import re
from datetime import UTC, datetime
from typing import Any, Literal

from pydantic import (
    AliasChoices,
    BaseModel,
    ConfigDict,
    Field,
    field_validator,
)
from pydantic.alias_generators import to_camel


class Resource(BaseModel):
    """Base of response models: every field optional, unknown fields kept."""

    model_config = ConfigDict(
        alias_generator=to_camel,
        populate_by_name=True,
        extra="allow",
    )

    def wire(self) -> dict[str, Any]:
        """The model as the server spelt it (aliases, extras kept, unset left out)."""
        return self.model_dump(by_alias=True, exclude_unset=True)


class Request(BaseModel):
    """Base of request models: strict, no unknown fields."""

    model_config = ConfigDict(
        alias_generator=to_camel,
        populate_by_name=True,
        extra="forbid",
        str_strip_whitespace=True,
    )

    def wire(self) -> dict[str, Any]:
        """The JSON body to send."""
        return self.model_dump(by_alias=True, mode="json")


# --------------------------------------------------------------------------- agents


class FunctionEntry(Resource):
    """One entry of an agent configuration's ``actions``."""

    name: str = ""
    instructions: str = ""
    placeholder: str | None = None
    allowed: bool | None = None
    reason: str | None = None
    missing_requirement: str | None = None


class ReportingFieldValues(Resource):
    kind: str | None = None
    choices: list[str] = Field(default_factory=list)


class ReportingField(Resource):
    key: str = ""
    label: str = ""
    instructions: str = ""
    values: ReportingFieldValues | None = None


class EffectiveReportingField(ReportingField):
    """A reporting field in force for the agent, with the level it comes from."""

    source: str | None = None


class AppEntry(Resource):
    app_id: str = ""
    version: str | None = None
    instructions: str = ""
    enabled: bool | None = None


class SkillEntry(Resource):
    slug: str = ""
    instructions: str = ""


class ActiveHours(Resource):
    start: str | None = None
    end: str | None = None
    timezone: str | None = None


class HeartbeatConfig(Resource):
    active_hours: ActiveHours | None = None
    model: str | None = None
    session: str | None = None
    target: str | None = None
    to: str | None = None
    account_id: str | None = None
    direct_policy: str | None = None
    include_reasoning: bool | None = None
    include_system_prompt_section: bool | None = None
    suppress_tool_error_warnings: bool | None = None
    light_context: bool | None = None
    isolated_session: bool | None = None
    skip_when_busy: bool | None = None
    ack_max_chars: int | None = None
    timeout_seconds: int | None = None


class AgentConfig(Resource):
    """An agent configuration (the API returns it as ``campaign``)."""

    id: str | None = None
    title: str | None = None
    description: str | None = None
    brand_name: str | None = None
    agent_instructions: str | None = None
    welcome_message: str | None = None
    links: list[str] = Field(default_factory=list)
    keywords: list[str] = Field(default_factory=list)
    agent_model: str | None = None
    agent_thinking: str | None = None
    agent_thinking_model: str | None = None
    post_convo_force_thinking: bool | None = None
    timezone: str | None = None
    agent_voice: str | None = None
    agent_tts_engine: str | None = None
    agent_lang: str | None = None
    agent_s2_s_engine: str | None = Field(
        default=None, validation_alias=AliasChoices("agentS2SEngine", "agent_s2s_engine")
    )
    agent_stt_engine: str | None = None
    agent_stt_smart_formatting: bool | None = None
    actions: list[FunctionEntry] = Field(default_factory=list)
    reporting_fields: list[ReportingField] = Field(default_factory=list)
    apps: list[AppEntry] = Field(default_factory=list)
    skills: list[SkillEntry] = Field(default_factory=list)
    computer_delegate_account_id: int | None = None
    heartbeat_instructions: str | None = None
    heartbeat_every: str | None = None
    heartbeat_config: HeartbeatConfig | None = None
    background_audio: str | None = None
    wait_on_answer: int | None = None
    wait_to_greet: bool | None = None
    post_answer_dtmf: str | None = None
    interruption_word_count: int | None = None
    interruption_minimum_speaking_time: int | None = None
    speaking_timeout: int | None = None
    speech_processing_delay: int | None = None
    speech_processing_delay_interruption_step: int | None = None
    speech_processing_delay_max_multiplier: int | None = None
    caller_response_timeout: int | None = None
    caller_response_timeout_hangup_counter: int | None = None
    ignore_speech: list[str] = Field(default_factory=list)
    no_contact_injection: bool | None = None
    no_convo_history: bool | None = None
    auto_recording_notification: str | None = None
    recording_notification_phrase: str | None = None
    pre_answer_ring_time: int | None = None
    pre_answer_skip_processing_results: bool | None = None
    use_agent_number_for_transfers: bool | None = None
    confirm_transfers: bool | None = None
    monitor_transfers: bool | None = None
    attended_transfers: bool | None = None
    attended_transfer_bridge_trigger: str | None = None
    attended_transfer_check_in_timeout: int | None = None
    transfer_confirm_timeout: int | None = None
    announce_transfer_connecting: bool | None = None
    announce_transfer_connected: bool | None = None
    pre_transfer_notification_start: str | None = None
    pre_transfer_notification_end: str | None = None
    enable_ringback: bool | None = None
    enable_transfer_ringback: bool | None = None
    cnam_auto_reject_regex: str | None = None
    cnam_auto_reject_code: int | None = None
    cnam_auto_transfer_regex: str | None = None
    cnam_auto_transfer_destination: str | None = None
    active_event_rules: list[str] = Field(default_factory=list)
    effective_reporting_fields: list[EffectiveReportingField] = Field(default_factory=list)

    @property
    def agent_s2s_engine(self) -> str | None:
        return self.agent_s2_s_engine


# The alias generator would spell agent_s2_s_engine "agentS2SEngine": check it once.
assert AgentConfig.model_fields["agent_s2_s_engine"].alias == "agentS2SEngine"


class FunctionDescriptor(Resource):
    """An entry of the functions list, evaluated for the selected account."""

    name: str = ""
    label: str = ""
    details: str = ""
    placeholder: str | None = None
    limit: int | None = None
    has_settings: bool | None = None
    require_paid: bool | None = None
    require_computer: bool | None = None
    allowed: bool | None = None
    reason: str | None = None
    missing_requirement: str | None = None
    docs_page: str | None = None


class AccountAvailability(Resource):
    available: bool | None = None
    reason: str | None = None


class Voice(Resource):
    id: str = ""
    name: str = ""
    description: str | None = None
    provider: str | None = None
    sample_url: str | None = None
    image_url: str | None = None
    languages: list[str] = Field(default_factory=list)
    compatible_s2_s_engines: list[str] = Field(
        default_factory=list,
        validation_alias=AliasChoices("compatibleS2SEngines", "compatible_s2s_engines"),
    )
    supports_standard_tts: bool | None = None
    account_availability: AccountAvailability | None = None

    @property
    def available(self) -> bool:
        """A voice without an availability verdict is taken as available."""
        aa = self.account_availability
        return aa is None or aa.available is not False


assert Voice.model_fields["compatible_s2_s_engines"].alias == "compatibleS2SEngines"


class SavedVersion(Resource):
    """A saved snapshot of a live configuration, identified by its epoch-ms score."""

    version_id: int = 0
    title: str = ""
    snapshot: dict[str, Any] | None = None

    @property
    def saved_at(self) -> datetime:
        return datetime.fromtimestamp(self.version_id / 1000, tz=UTC)


class TitleChange(Resource):
    version_id: int | None = None
    new_title: str | None = None


# --------------------------------------------------------------------------- accounts


class Account(Resource):
    """An account, as read by ``GET /account`` or listed by the child lists.

    The scope fields may sit at the top level or inside ``details`` (api-facts):
    `scope_field` reads both.
    """

    id: int | None = None
    username: str | None = None
    name: str | None = None
    account_type: str | None = None
    organization_id: int | str | None = None
    partner_id: int | str | None = None
    reseller_id: int | str | None = None
    parent_id: int | None = None
    permitted_account_ids: list[int] | None = None
    super_admin: bool | None = None
    active: bool | None = None
    vida_premium: bool | None = None
    computer_agent: bool | None = None
    details: dict[str, Any] | None = None

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


class AccountPage(Resource):
    """A page of a child-account list (resellers, organizations or accounts)."""

    items: list[Account] = Field(default_factory=list)
    total: int = 0
    page_size: int | None = None
    page_number: int | None = None


class ComputerAccount(Resource):
    id: int | None = None
    name: str | None = None
    username: str | None = None
    organization_id: int | None = None


# --------------------------------------------------------------------------- tokens


class TokenRecord(Resource):
    token: str = ""
    description: str | None = None
    type: str | None = None
    timestamp: str | None = None
    user_id: int | None = None

    def __repr_args__(self):  # type: ignore[no-untyped-def]
        # A token record must never print its secret.
        for key, value in super().__repr_args__():
            yield key, (mask_secret(value) if key == "token" else value)

    @property
    def masked(self) -> str:
        return mask_secret(self.token)

    @property
    def created_at(self) -> datetime | None:
        return _epoch_text(self.timestamp)


def mask_secret(value: Any) -> str:
    """Show a secret as its last four characters at most, never in full."""
    text = str(value or "")
    if len(text) <= 8:
        return "•" * 8
    return "•" * 8 + text[-4:]


def _epoch_text(value: Any) -> datetime | None:
    """Numeric text as seconds or milliseconds since the epoch, else an ISO date."""
    if value is None or value == "":
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        try:
            parsed = datetime.fromisoformat(str(value).replace("Z", "+00:00"))
        except ValueError:
            return None
        return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)
    if number > 1e11:
        number /= 1000
    try:
        return datetime.fromtimestamp(number, tz=UTC)
    except (OverflowError, OSError, ValueError):
        return None


# --------------------------------------------------------------------------- computer


class WorkflowRecording(Resource):
    state: str | None = None
    recording_id: str | None = None
    slot_id: int | None = None
    finalized: bool | None = None
    updated_at: str | None = None
    evidence_root: str | None = None
    analysis_status: str | None = None
    domain_key: str | None = None


class AutomationSession(Resource):
    cdp_url: str | None = None
    headers: dict[str, Any] | None = None
    slot: int | None = None
    expires_at: str | None = None


class UploadResult(Resource):
    """The reply of a workspace upload; the spec shows none of its fields."""

    message: str | None = None
    path: str | None = None
    size: int | None = None
    mode: str | None = None
    overwritten: bool | None = None


class WorkspaceFile(Resource):
    path: str = ""
    size: int | None = None
    mode: str | None = None
    updated_at: str | None = None


# --------------------------------------------------------------------------- messaging


class JunkRoom(Resource):
    room_id: str | None = None
    name: str | None = None
    id: int | None = None
    image: str | None = None
    vida_phone_number: str | None = None
    unregistered: bool | None = None
    unregistered_display_name: str | None = None
    destination_inbox_type: str | None = None
    last_message: str | None = None
    last_message_timestamp: int | None = None
    chat_agent_campaign_id: str | int | None = None

    @property
    def last_message_at(self) -> datetime | None:
        return _epoch_text(self.last_message_timestamp)


class JunkRoomPage(Resource):
    page_size: int = 0
    page_number: int = 0
    total_rooms: int = 0
    rooms: list[JunkRoom] = Field(default_factory=list)


# --------------------------------------------------------------------------- billing / sip / hooks


class AdrExportConfig(Request):
    """The call-detail record export settings (request: strict).

    Surrounding spaces are trimmed from every field but the password, which is sent
    exactly as typed.
    """

    model_config = ConfigDict(str_strip_whitespace=False)

    delivery_protocol: Literal["sftp", "ftps", "ftp"]
    rotation_minutes: str = "60"
    host: str
    port: int = Field(ge=1, le=65535)
    username: str = Field(min_length=1)
    password: str = Field(min_length=1, repr=False)
    path: str | None = None

    @field_validator("host", "username", "path", mode="before")
    @classmethod
    def _trim(cls, value: Any) -> Any:
        return value.strip() if isinstance(value, str) else value

    @field_validator("delivery_protocol", mode="before")
    @classmethod
    def _lower_protocol(cls, value: Any) -> Any:
        return value.strip().lower() if isinstance(value, str) else value

    @field_validator("rotation_minutes", mode="before")
    @classmethod
    def _rotation(cls, value: Any) -> str:
        if isinstance(value, bool):
            raise ValueError("rotation minutes must be a whole number of minutes")
        text = str(value).strip()
        if not text.isdigit() or int(text) < 1:
            raise ValueError("rotation minutes must be a whole number of minutes, at least 1")
        return str(int(text))

    @field_validator("host")
    @classmethod
    def _host(cls, value: str) -> str:
        if not is_hostname_or_ip(value):
            raise ValueError("host must be a host name or an IP address")
        return value

    @field_validator("path")
    @classmethod
    def _path(cls, value: str | None) -> str | None:
        return value or None

    def wire(self) -> dict[str, Any]:
        body = super().wire()
        if body.get("path") is None:
            body.pop("path", None)  # the server then uses the user's home folder
        return body


_HOST_LABEL = re.compile(r"^(?!-)[A-Za-z0-9-]{1,63}(?<!-)$")


def is_hostname_or_ip(value: str) -> bool:
    """True for an IPv4/IPv6 address or a syntactically valid DNS host name."""
    if not value or len(value) > 253:
        return False
    try:
        # A bare address only: "[::1]" is URL syntax, and strip("[]") would also
        # have let "[1.2.3.4]" or "]::1[" through, to be sent to the server as is.
        ipaddress.ip_address(value)
        return True
    except ValueError:
        pass
    labels = value.rstrip(".").split(".")
    if labels[-1].isdigit():  # 300.1.1.1 is not a name either
        return False
    return all(_HOST_LABEL.match(label) for label in labels)


def check_ip(value: str) -> str:
    """Normalise an IPv4 or IPv6 address, or raise ValueError with a readable message."""
    try:
        return str(ipaddress.ip_address(value.strip()))
    except ValueError:
        raise ValueError(f"{value!r} is not an IPv4 or IPv6 address") from None


def check_http_url(value: str) -> str:
    """Accept an absolute http(s) URL with a host, or raise ValueError."""
    from urllib.parse import urlsplit

    text = value.strip()
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https"):
        raise ValueError("URL must start with http:// or https://")
    host = parts.hostname or ""
    if not host or not is_hostname_or_ip(host):
        raise ValueError("URL must name a valid host")
    if any(ch.isspace() for ch in text):
        raise ValueError("URL must not contain spaces")
    try:
        parts.port  # noqa: B018 - raises on a bad port
    except ValueError:
        raise ValueError("URL has an invalid port") from None
    return text


class SipEntry(Resource):
    ip: str = ""
    label: str | None = None
    timestamp: str | int | None = None
    user_id: int | None = None

    @property
    def added_at(self) -> datetime | None:
        return _epoch_text(self.timestamp)


class SipEntryRequest(Request):
    ip: str
    label: str = ""

    @field_validator("ip")
    @classmethod
    def _ip(cls, value: str) -> str:
        return check_ip(value)


WEBHOOK_TYPES = ("conversation", "incoming", "contact", "agent", "onboarding")


class Webhook(Resource):
    url: str = ""
    label: str | None = None
    type: str | None = None
    timestamp: str | int | None = None
    user_id: int | None = None

    @property
    def added_at(self) -> datetime | None:
        return _epoch_text(self.timestamp)


class WebhookRequest(Request):
    url: str
    label: str = ""
    type: Literal["conversation", "incoming", "contact", "agent", "onboarding"]

    @field_validator("url")
    @classmethod
    def _url(cls, value: str) -> str:
        return check_http_url(value)


class RelayType(Resource):
    name: str = ""
    description: str | None = None


class RelayConfig(Resource):
    type: str = ""
    url: str | None = None
    timeout: int | None = None
    headers: dict[str, Any] | None = None
    success_status_codes: list[int] | None = None


class TokenRequest(Request):
    type: str = Field(default="admin", min_length=1)
    description: str = Field(min_length=1, max_length=200)


class TitleRequest(Request):
    title: str = Field(min_length=1, max_length=200)


class RecordingStartRequest(Request):
    slot_id: int = Field(ge=0)

    @field_validator("slot_id", mode="before")
    @classmethod
    def _no_bool(cls, value: Any) -> Any:
        if isinstance(value, bool):
            raise ValueError("slot id must be a whole number")
        return value


_OCTAL_MODE = re.compile(r"^0?[0-7]{3,4}$")


def check_octal_mode(value: str) -> str:
    """File mode as octal text (``644``, ``0644``, ``0755``), else ValueError."""
    text = value.strip()
    if not _OCTAL_MODE.match(text):
        raise ValueError("mode must be octal text such as 0644 or 755")
    return text


class UploadRequest(Request):
    """The form fields of a workspace upload (the file travels beside them)."""

    path: str = Field(min_length=1)
    overwrite: bool = False
    mode: str | None = None

    @field_validator("path")
    @classmethod
    def _path(cls, value: str) -> str:
        if value.startswith("/") or ".." in value.split("/"):
            raise ValueError("path must stay inside the workspace (relative, no '..')")
        return value

    @field_validator("mode")
    @classmethod
    def _mode(cls, value: str | None) -> str | None:
        return check_octal_mode(value) if value else None


# --------------------------------------------------------------------------- templates


class Template(Resource):
    id: str = ""
    name: str | None = None
    revision: int | str | None = None
    agent_count: int | None = None
    sections: list[str] = Field(default_factory=list)
    updated_at: str | None = None


class MigrationRequest(Request):
    dry_run: bool = True
    sections_to_migrate: list[str] = Field(default_factory=list)
    force_migrate_overridden_fields: bool = False

    def wire(self) -> dict[str, Any]:
        body = super().wire()
        if not body["sectionsToMigrate"]:
            body.pop("sectionsToMigrate")  # no limit: every section
        return body


class MigrationCounts(Resource):
    total: int | None = None
    processed: int | None = None
    changed: int | None = None
    skipped: int | None = None
    overrides_kept: int | None = None
    overrides_replaced: int | None = None


class StatusChange(Resource):
    status: str | None = None
    at: str | float | int | None = None


class MigrationTask(Resource):
    """A migration reply: ``{success}`` alone (nothing queued) or a task.

    Status values are not published; the client tolerates any string.
    """

    success: bool | None = None
    task_id: str | None = None
    status: str | None = None
    status_endpoint: str | None = None
    message: str | None = None
    template_id: str | None = None
    dry_run: bool | None = None
    counts: MigrationCounts | None = None
    history: list[StatusChange] = Field(default_factory=list)

    @property
    def is_task(self) -> bool:
        return bool(self.task_id)


FINAL_STATUSES = frozenset(
    {"completed", "failed", "succeeded", "success", "error", "cancelled", "canceled", "done"}
)


class Envelope(Resource):
    """The success / message envelope every reply carries."""

    success: bool | None = None
    message: str | None = None
