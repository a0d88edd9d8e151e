"""The scalar settings of an agent configuration: how each is edited and checked.

Types come from the spec's table of the agent configuration. The values and defaults
that api-facts.md documents are shown as hints, never enforced: the platform did not
say they are limits, and it answers a value it refuses with a message of its own.
Only the forms the spec states are checked: integers are whole numbers, booleans are
booleans, ``agentLang`` is a language tag (``xx-XX``, or ``multi``), ``timezone`` a
Region/City zone name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal

SettingKind = Literal["text", "long", "int", "bool"]


@dataclass(frozen=True)
class Setting:
    """One editable setting: its wire name, label, kind, group and hint."""

    name: str
    label: str
    kind: SettingKind
    group: str
    hint: str = ""
    nullable: bool = False
    """An empty field means ``null`` (otherwise an empty text is sent as ``""``)."""


_LANG = re.compile(r"^([a-z]{2}-[A-Z]{2}|multi)$")
_ZONE = re.compile(r"^(UTC|[A-Z][A-Za-z_]+(/[A-Za-z0-9_+\-]+)+)$")

IDENTITY, MODEL, SPEECH, TIMING, CALLS, TRANSFERS, CNAM, COMPUTER, HEARTBEAT = (
    "Identity and instructions", "Model and thinking", "Language and speech engines",
    "Timings and counters", "Call handling", "Transfers", "Caller name (CNAM)",
    "Computer Agent", "Check-ins",
)  # fmt: skip

SETTINGS: tuple[Setting, ...] = (
    Setting("title", "Title", "text", IDENTITY),
    Setting("description", "Description", "text", IDENTITY),
    Setting("brandName", "Brand name", "text", IDENTITY),
    Setting("welcomeMessage", "Welcome message", "long", IDENTITY),
    Setting("agentInstructions", "Instructions", "long", IDENTITY),
    Setting("timezone", "Time zone", "text", IDENTITY, "Region/City, e.g. America/Chicago"),
    Setting("agentModel", "Model", "text", MODEL, "a model id of GET /models/supported"),
    Setting("agentThinking", "Thinking", "text", MODEL, "e.g. low"),
    Setting("agentThinkingModel", "Thinking model", "text", MODEL),
    Setting("postConvoForceThinking", "Force thinking after the call", "bool", MODEL),
    Setting("agentLang", "Language", "text", SPEECH,
            "xx-XX or multi; documented: en-US (default), multi, es-MX, es-ES, es-US"),
    Setting("agentTtsEngine", "TTS engine", "text", SPEECH, "e.g. elevenlabs"),
    Setting("agentS2SEngine", "S2S engine", "text", SPEECH,
            "empty (none: standard TTS), openai or gemini", nullable=True),
    Setting("agentSttEngine", "STT engine", "text", SPEECH,
            "google, deepgram (default), deepgramflux or openai"),
    Setting("agentSttSmartFormatting", "STT smart formatting", "bool", SPEECH, "default true"),
    Setting("waitOnAnswer", "Wait on answer", "int", TIMING),
    Setting("waitToGreet", "Wait to greet", "bool", TIMING),
    Setting("preAnswerRingTime", "Pre-answer ring time", "int", TIMING),
    Setting("interruptionWordCount", "Interruption word count", "int", TIMING, "default 3"),
    Setting("interruptionMinimumSpeakingTime", "Interruption minimum speaking time", "int",
            TIMING, "default 3"),
    Setting("speakingTimeout", "Speaking timeout", "int", TIMING, "default 1200"),
    Setting("speechProcessingDelay", "Speech processing delay", "int", TIMING, "default 500"),
    Setting("speechProcessingDelayInterruptionStep", "… interruption step", "int", TIMING,
            "default 500"),
    Setting("speechProcessingDelayMaxMultiplier", "… max multiplier", "int", TIMING,
            "default 4"),
    Setting("callerResponseTimeout", "Caller response timeout", "int", TIMING, "default 13"),
    Setting("callerResponseTimeoutHangupCounter", "… hang up after", "int", TIMING,
            "default 3"),
    Setting("backgroundAudio", "Background audio", "text", CALLS),
    Setting("postAnswerDtmf", "DTMF after answer", "text", CALLS),
    Setting("preAnswerSkipProcessingResults", "Skip processing results before answer", "bool",
            CALLS),
    Setting("noContactInjection", "No contact injection", "bool", CALLS),
    Setting("noConvoHistory", "No conversation history", "bool", CALLS),
    Setting("autoRecordingNotification", "Recording notification", "text", CALLS,
            'text, documented "true" (default)'),
    Setting("recordingNotificationPhrase", "Recording notification phrase", "text", CALLS),
    Setting("enableRingback", "Ringback", "bool", CALLS),
    Setting("useAgentNumberForTransfers", "Agent number for transfers", "bool", TRANSFERS),
    Setting("confirmTransfers", "Confirm transfers", "bool", TRANSFERS),
    Setting("transferConfirmTimeout", "Transfer confirm timeout", "int", TRANSFERS,
            "default 30"),
    Setting("monitorTransfers", "Monitor transfers", "bool", TRANSFERS),
    Setting("attendedTransfers", "Attended transfers", "bool", TRANSFERS),
    Setting("attendedTransferBridgeTrigger", "Attended transfer bridge trigger", "text",
            TRANSFERS),
    Setting("attendedTransferCheckInTimeout", "Attended transfer check-in timeout", "int",
            TRANSFERS),
    Setting("announceTransferConnecting", "Announce “connecting”", "bool", TRANSFERS),
    Setting("announceTransferConnected", "Announce “connected”", "bool", TRANSFERS),
    Setting("preTransferNotificationStart", "Pre-transfer notification start", "text",
            TRANSFERS),
    Setting("preTransferNotificationEnd", "Pre-transfer notification end", "text", TRANSFERS),
    Setting("enableTransferRingback", "Transfer ringback", "bool", TRANSFERS),
    Setting("cnamAutoRejectRegex", "Reject callers named (regex)", "text", CNAM),
    Setting("cnamAutoRejectCode", "Reject with SIP code", "int", CNAM, "default 603"),
    Setting("cnamAutoTransferRegex", "Transfer callers named (regex)", "text", CNAM),
    Setting("cnamAutoTransferDestination", "Transfer them to", "text", CNAM),
    Setting("computerDelegateAccountId", "Computer Agent account", "int", COMPUTER,
            "the account functions delegate to; empty: none", nullable=True),
    Setting("heartbeatInstructions", "Check-in instructions", "long", HEARTBEAT),
    Setting("heartbeatEvery", "Check in every", "text", HEARTBEAT),
)  # fmt: skip

BY_NAME: dict[str, Setting] = {s.name: s for s in SETTINGS}


def check_value(name: str, value: Any) -> str | None:
    """Why ``value`` cannot be sent as setting ``name`` (None: it can)."""
    setting = BY_NAME.get(name)
    if setting is None:
        return f"{name} is not an editable setting"
    if value is None:
        return None if setting.nullable else "a value is needed"
    if setting.kind == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            return "a whole number is needed"
        return None
    if setting.kind == "bool":
        return None if isinstance(value, bool) else "true or false is needed"
    if not isinstance(value, str):
        return "text is needed"
    if name == "agentLang" and not _LANG.match(value):
        return "a language tag like en-US (xx-XX), or multi"
    if name == "timezone" and not _ZONE.match(value):
        return "a Region/City zone name like America/Chicago, or UTC"
    return None


def parse_value(name: str, text: str) -> Any:
    """The value a form field's ``text`` stands for.

    Raises:
        ValueError: the text is not a value of the setting (the message says why).
    """
    setting = BY_NAME[name]
    raw = text.strip() if setting.kind != "long" else text
    if setting.nullable and not raw.strip():
        return None
    value: Any = raw
    if setting.kind == "int":
        if not re.fullmatch(r"[+-]?\d+", raw):
            raise ValueError("a whole number is needed")
        value = int(raw)
    elif setting.kind == "bool":
        lowered = raw.lower()
        if lowered not in ("true", "false"):
            raise ValueError("true or false is needed")
        value = lowered == "true"
    problem = check_value(name, value)
    if problem:
        raise ValueError(problem)
    return value


def form_text(name: str, value: Any) -> str:
    """How a current value shows in its form field."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
