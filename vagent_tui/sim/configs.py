"""Agent configurations: a builder that fills every field of the spec's table.

The live configuration of agent account ``N`` has id ``cfg-N``; its staging
configuration carries the same id. Values follow api-facts' documented defaults where
one exists (interruptionWordCount 3, speakingTimeout 1200, cnamAutoRejectCode 603,
autoRecordingNotification ``"true"`` as text, ...), varied a little per agent by a
seeded ``random.Random`` so that lists do not look cloned.

``computerDelegateAccountId`` is always present; it is ``null`` for agents without a
Computer Agent (their ``requireComputer`` functions are then not allowed). Template
agents also carry the simulator's extra fields ``templateId`` and ``templateRevision``.
"""

from __future__ import annotations

import random
from typing import Any, NamedTuple

from vagent_tui.sim.account import Account
from vagent_tui.sim.catalog import FUNCTIONS, evaluate_actions
from vagent_tui.sim.common import json_copy


class Profile(NamedTuple):
    """What an agent does; the seed picks one per agent account."""

    brand: str
    purpose: str
    lang: str
    voice: str
    s2s: str | None
    timezone: str
    actions: tuple[str, ...]
    keywords: tuple[str, ...]

    def branded(self, brand: str) -> Profile:
        """This profile for another brand."""
        return Profile(
            brand,
            self.purpose,
            self.lang,
            self.voice,
            self.s2s,
            self.timezone,
            self.actions,
            self.keywords,
        )


def _reporting(source: str | None = None) -> list[dict[str, Any]]:
    fields = [
        {"key": "callReason", "label": "Call reason",
         "instructions": "Why the caller called, in a few words.",
         "values": {"kind": "choice", "choices": ["new booking", "reschedule", "question",
                                                   "complaint", "other"]}},
        {"key": "appointmentBooked", "label": "Appointment booked",
         "instructions": "True when an appointment was booked on this call.",
         "values": {"kind": "boolean", "choices": []}},
        {"key": "callerSentiment", "label": "Caller sentiment",
         "instructions": "How the caller felt at the end of the call.",
         "values": {"kind": "choice", "choices": ["positive", "neutral", "negative"]}},
    ]  # fmt: skip
    if source is not None:
        for f in fields:
            f["source"] = source
    return fields


def build_config(account: Account, profile: Profile, rnd: random.Random) -> dict[str, Any]:
    """The live configuration of ``account`` (every field of the spec's table)."""
    actions = [
        {
            "name": name,
            "instructions": f"Use {FUNCTIONS[name]['label'].lower()} when the caller asks for it.",
            "placeholder": FUNCTIONS[name]["placeholder"],
        }
        for name in profile.actions
    ]
    effective = _reporting("reseller")[:1] + _reporting("organization")[1:2] + _reporting("agent")
    slug = profile.brand.lower().replace(" ", "")
    cfg: dict[str, Any] = {
        "id": f"cfg-{account.id}",
        "title": account.name,
        "description": f"{profile.purpose} for {profile.brand}.",
        "brandName": profile.brand,
        "agentInstructions": (
            f"You are the {profile.purpose.lower()} of {profile.brand}. Greet callers warmly, "
            "find out what they need, use your functions when they help, and never invent "
            "prices, diagnoses or legal advice. Keep answers under three sentences."
        ),
        "welcomeMessage": f"Thanks for calling {profile.brand}, how can I help you today?",
        "links": [f"https://www.{slug}.example.com", f"https://www.{slug}.example.com/faq"],
        "keywords": list(profile.keywords),
        "agentModel": rnd.choice(["gpt-4.1", "gpt-4.1-mini", "gemini-2.5-flash"]),
        "agentThinking": rnd.choice(["low", "medium", "none"]),
        "agentThinkingModel": "o4-mini",
        "postConvoForceThinking": rnd.random() < 0.3,
        "timezone": profile.timezone,
        "agentVoice": profile.voice,
        "agentTtsEngine": profile.voice.split("-", 1)[0],
        "agentLang": profile.lang,
        "agentS2SEngine": profile.s2s,
        "agentSttEngine": rnd.choice(["deepgram", "google", "deepgramflux", "openai"]),
        "agentSttSmartFormatting": True,
        "actions": evaluate_actions(account, actions),
        "reportingFields": _reporting(),
        "apps": [
            {
                "appId": "google-calendar",
                "version": "2.3.1",
                "instructions": "Book into the Front Desk calendar.",
                "enabled": "calendar" in account.integrations,
            },
            {
                "appId": "hubspot",
                "version": "1.8.0",
                "instructions": "Log every call as an engagement.",
                "enabled": "crm" in account.integrations,
            },
        ],
        "skills": [
            {"slug": "spell-names", "instructions": "Spell back names letter by letter."},
            {"slug": "confirm-numbers", "instructions": "Repeat phone numbers in groups."},
        ],
        "computerDelegateAccountId": account.computer_delegate,
        "heartbeatInstructions": "Check for missed calls and summarise them for the owner.",
        "heartbeatEvery": rnd.choice(["30m", "1h", "4h"]),
        "heartbeatConfig": {
            "activeHours": {"start": "08:00", "end": "18:00", "timezone": profile.timezone},
            "model": "gpt-4.1-mini",
            "session": "heartbeat",
            "target": "owner",
            "to": "+15555550100",
            "accountId": str(account.id),
            "directPolicy": "allow",
            "includeReasoning": False,
            "includeSystemPromptSection": True,
            "suppressToolErrorWarnings": False,
            "lightContext": True,
            "isolatedSession": True,
            "skipWhenBusy": True,
            "ackMaxChars": 300,
            "timeoutSeconds": 120,
        },
        "backgroundAudio": rnd.choice(["office", "none", "cafe"]),
        "waitOnAnswer": rnd.choice([0, 1, 2]),
        "waitToGreet": rnd.random() < 0.5,
        "postAnswerDtmf": "",
        "interruptionWordCount": 3,
        "interruptionMinimumSpeakingTime": 3,
        "speakingTimeout": 1200,
        "speechProcessingDelay": rnd.choice([300, 500, 700]),
        "speechProcessingDelayInterruptionStep": 500,
        "speechProcessingDelayMaxMultiplier": 4,
        "callerResponseTimeout": 13,
        "callerResponseTimeoutHangupCounter": 3,
        "ignoreSpeech": ["uh-huh", "mm-hmm"],
        "noContactInjection": False,
        "noConvoHistory": rnd.random() < 0.2,
        "autoRecordingNotification": "true",
        "recordingNotificationPhrase": "This call may be recorded for quality purposes.",
        "preAnswerRingTime": rnd.choice([0, 2, 4]),
        "preAnswerSkipProcessingResults": False,
        "useAgentNumberForTransfers": True,
        "confirmTransfers": True,
        "monitorTransfers": rnd.random() < 0.5,
        "attendedTransfers": rnd.random() < 0.4,
        "attendedTransferBridgeTrigger": "accept",
        "attendedTransferCheckInTimeout": 20,
        "transferConfirmTimeout": 30,
        "announceTransferConnecting": True,
        "announceTransferConnected": False,
        "preTransferNotificationStart": "Please hold while I connect you.",
        "preTransferNotificationEnd": "You are now connected.",
        "enableRingback": True,
        "enableTransferRingback": True,
        "cnamAutoRejectRegex": "^(SPAM|SCAM) LIKELY$",
        "cnamAutoRejectCode": 603,
        "cnamAutoTransferRegex": "^VIP ",
        "cnamAutoTransferDestination": "+15555550199",
        "activeEventRules": ["missed-call-followup", "after-hours-voicemail"],
        "effectiveReportingFields": effective,
    }
    return cfg


def staging_variant(live: dict[str, Any], rnd: random.Random) -> dict[str, Any]:
    """A staging draft that differs from ``live`` in a few fields."""
    draft: dict[str, Any] = json_copy(live)
    draft["welcomeMessage"] = live["welcomeMessage"].replace("how can I help", "what can I do")
    draft["speechProcessingDelay"] = live["speechProcessingDelay"] + 200
    draft["keywords"] = [*live["keywords"], "holiday hours"]
    draft["waitToGreet"] = not live["waitToGreet"]
    if rnd.random() < 0.5:
        draft["agentThinking"] = "high"
    return draft
