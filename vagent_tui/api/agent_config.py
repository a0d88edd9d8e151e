"""The agent configuration (returned by the API as ``campaign``) and its parts."""

from __future__ import annotations

from pydantic import AliasChoices, Field

from vagent_tui.api.base import Items, NullAsEmpty, Resource


class FunctionEntry(Resource):
    """One entry of an agent configuration's ``actions``."""

    name: NullAsEmpty = ""
    instructions: NullAsEmpty = ""
    placeholder: str | None = None
    allowed: bool | None = None
    reason: str | None = None
    missing_requirement: str | None = None


class ReportingFieldValues(Resource):
    kind: str | None = None
    choices: Items[str] = Field(default_factory=list)


class ReportingField(Resource):
    key: NullAsEmpty = ""
    label: NullAsEmpty = ""
    instructions: NullAsEmpty = ""
    values: ReportingFieldValues | None = None


class EffectiveReportingField(ReportingField):
    """A reporting field in force for the agent, with the level it comes from."""

    source: str | None = None


class AppEntry(Resource):
    app_id: NullAsEmpty = ""
    version: str | None = None
    instructions: NullAsEmpty = ""
    enabled: bool | None = None


class SkillEntry(Resource):
    slug: NullAsEmpty = ""
    instructions: NullAsEmpty = ""


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
    links: Items[str] = Field(default_factory=list)
    keywords: Items[str] = Field(default_factory=list)
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
    actions: Items[FunctionEntry] = Field(default_factory=list)
    reporting_fields: Items[ReportingField] = Field(default_factory=list)
    apps: Items[AppEntry] = Field(default_factory=list)
    skills: Items[SkillEntry] = Field(default_factory=list)
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
    ignore_speech: Items[str] = Field(default_factory=list)
    no_contact_injection: bool | None = None
    no_convo_history: bool | None = None
    auto_recording_notification: str | bool | None = None
    """The spec shows the text ``"true"``; a boolean is read as well, and kept as sent."""
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
    active_event_rules: Items[str] = Field(default_factory=list)
    effective_reporting_fields: Items[EffectiveReportingField] = Field(default_factory=list)

    @property
    def agent_s2s_engine(self) -> str | None:
        return self.agent_s2_s_engine


# The alias generator would spell agent_s2_s_engine "agentS2SEngine": check it once.
assert AgentConfig.model_fields["agent_s2_s_engine"].alias == "agentS2SEngine"


class StagingWrite(Resource):
    """The reply to a staging write: the staging configuration as saved."""

    success: bool | None = None
    message: str | None = None
    campaign: AgentConfig | None = None


class Published(Resource):
    """The reply to a publish: the new live configuration and the version saved of it."""

    success: bool | None = None
    message: str | None = None
    version_id: int | None = None
    campaign: AgentConfig | None = None


class CreatedVersion(Resource):
    """``createdVersion`` of the reply to saving a version."""

    title: str | None = None
    version_id: int | None = None
