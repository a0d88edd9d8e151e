"""Static catalogs: voices, agent functions and webhook relay types.

Availability is computed per selected account:

* Voices marked advanced (the ``elevenlabs`` and ``cartesia`` providers) need a plan of
  ``pro`` or ``enterprise``; on a ``starter`` plan they answer
  ``accountAvailability: {available: false, reason: "advanced_voice_required"}``.
* A function is not allowed, in this order of precedence, when it is retired (reason
  ``This function has been retired``), when it ``requirePaid`` and the account's plan is
  ``starter``, when it ``requireComputer`` and the agent has no
  ``computerDelegateAccountId``, or when it needs an integration the account has not
  connected (calendar, sms, payments, crm). ``missingRequirement`` names the setup step.
* Configured ``actions`` beyond a function's ``limit`` are marked not allowed
  (``Over the limit of N for this function``).
"""

from __future__ import annotations

from typing import Any

from vagent_tui.sim.account import Account

DOCS = "https://vida.io/docs/functions/"

# (provider, name, languages, s2s engines, standard tts, advanced, description)
_VOICE_ROWS: list[tuple[str, str, tuple[str, ...], tuple[str, ...], bool, bool, str]] = [
    ("openai", "Alloy", ("en-US", "multi"), ("openai",), True, False, "Neutral and balanced"),
    ("openai", "Ash", ("en-US", "multi"), ("openai",), True, False, "Warm, conversational"),
    ("openai", "Ballad", ("en-US",), ("openai",), True, False, "Soft storyteller"),
    ("openai", "Coral", ("en-US", "es-US"), ("openai",), True, False, "Friendly front desk"),
    ("openai", "Echo", ("en-US",), ("openai",), True, False, "Crisp and clear"),
    ("openai", "Sage", ("en-US", "multi"), ("openai",), True, False, "Calm, measured"),
    ("openai", "Shimmer", ("en-US", "fr-FR"), ("openai",), True, False, "Bright, upbeat"),
    ("openai", "Verse", ("en-US", "multi"), ("openai",), False, False, "Expressive, S2S only"),
    ("gemini", "Puck", ("en-US", "multi"), ("gemini",), False, False, "Playful"),
    ("gemini", "Charon", ("en-US", "de-DE"), ("gemini",), False, False, "Deep, informative"),
    ("gemini", "Kore", ("en-US", "es-ES"), ("gemini",), False, False, "Firm and even"),
    ("gemini", "Fenrir", ("en-US",), ("gemini",), False, False, "Excitable"),
    ("gemini", "Aoede", ("en-US", "fr-FR", "multi"), ("gemini",), False, False, "Breezy"),
    ("google", "Studio-O", ("en-US",), (), True, False, "Studio quality female"),
    ("google", "Studio-Q", ("en-US",), (), True, False, "Studio quality male"),
    ("google", "Neural2-A", ("es-MX",), (), True, False, "Mexican Spanish female"),
    ("google", "Neural2-B", ("es-ES",), (), True, False, "Castilian Spanish male"),
    ("google", "Neural2-C", ("fr-FR",), (), True, False, "Parisian French female"),
    ("google", "Neural2-D", ("de-DE",), (), True, False, "German male"),
    ("azure", "Jenny", ("en-US",), (), True, False, "Assistant style"),
    ("azure", "Dalia", ("es-MX",), (), True, False, "Cheerful Mexican Spanish"),
    ("azure", "Elvira", ("es-ES",), (), True, False, "Spanish newsreader"),
    ("azure", "Denise", ("fr-FR",), (), True, False, "French customer service"),
    ("azure", "Katja", ("de-DE",), (), True, False, "German friendly"),
    ("azure", "Paloma", ("es-US",), (), True, False, "US Spanish"),
    ("elevenlabs", "Rachel", ("en-US", "multi"), ("openai",), True, True, "Premium narrator"),
    ("elevenlabs", "Antoni", ("en-US", "es-MX", "multi"), (), True, True, "Premium bilingual"),
    ("elevenlabs", "Charlotte", ("en-US", "fr-FR"), (), True, True, "Premium seductive"),
    ("elevenlabs", "Matilda", ("de-DE", "multi"), (), True, True, "Premium German"),
    ("cartesia", "Sonic Sarah", ("en-US",), ("openai", "gemini"), True, True, "Low latency"),
    ("cartesia", "Sonic Mateo", ("es-US", "es-MX"), (), True, True, "Low latency Spanish"),
    ("deepgram", "Aura Asteria", ("en-US",), (), True, False, "Aura English"),
    ("deepgram", "Aura Orion", ("en-US",), (), True, False, "Aura English male"),
    ("deepgram", "Aura Celeste", ("es-ES", "es-MX"), (), True, False, "Aura Spanish"),
]


def _voice_id(provider: str, name: str) -> str:
    return f"{provider}-{name.lower().replace(' ', '-')}"


VOICES: list[dict[str, Any]] = [
    {
        "id": _voice_id(p, n),
        "name": n,
        "description": d,
        "provider": p,
        "sampleUrl": f"https://cdn.example.com/voices/{_voice_id(p, n)}.mp3",
        "imageUrl": f"https://cdn.example.com/voices/{_voice_id(p, n)}.png",
        "languages": list(langs),
        "compatibleS2SEngines": list(s2s),
        "supportsStandardTts": std,
        "advanced": adv,
    }
    for p, n, langs, s2s, std, adv, d in _VOICE_ROWS
]


def voices_for(account: Account) -> list[dict[str, Any]]:
    """The voices list with ``accountAvailability`` computed for ``account``."""
    out = []
    for voice in VOICES:
        item = {k: v for k, v in voice.items() if k != "advanced"}
        if voice["advanced"] and account.plan == "starter":
            item["accountAvailability"] = {"available": False, "reason": "advanced_voice_required"}
        else:
            item["accountAvailability"] = {"available": True, "reason": ""}
        out.append(item)
    return out


# name, label, details, limit, hasSettings, requirePaid, requireComputer, needs, docs
_FUNCTION_ROWS: list[tuple[str, str, str, int | None, bool, bool, bool, str | None, bool]] = [
    ("transferCall", "Transfer call", "Transfer the caller to a phone number or SIP URI.",
     10, True, False, False, None, True),
    ("endCall", "End call", "Hang up politely when the conversation is over.",
     1, False, False, False, None, False),
    ("sendSms", "Send SMS", "Text the caller a link or summary.", 3, True, False, False,
     "sms", True),
    ("sendEmail", "Send email", "Email a summary to a recipient.", 5, True, False, False,
     None, True),
    ("bookAppointment", "Book appointment", "Book a slot in the connected calendar.", 1, True,
     False, False, "calendar", True),
    ("checkAvailability", "Check availability", "Read free slots from the calendar.", 1,
     False, False, False, "calendar", False),
    ("cancelAppointment", "Cancel appointment", "Cancel a booked appointment.", 1, False,
     False, False, "calendar", False),
    ("lookupContact", "Look up contact", "Find the caller in the contact list.", None, False,
     False, False, None, False),
    ("updateContact", "Update contact", "Save details the caller gives.", None, True, False,
     False, None, False),
    ("addNote", "Add note", "Attach a note to the conversation.", None, False, False, False,
     None, False),
    ("tagConversation", "Tag conversation", "Apply a tag for routing and reporting.", 5,
     False, False, False, None, False),
    ("sendDtmf", "Send DTMF", "Press keys to navigate a phone menu.", 1, False, False, False,
     None, True),
    ("transferToVoicemail", "Voicemail", "Send the caller to voicemail.", 1, False, False,
     False, None, False),
    ("scheduleCallback", "Schedule callback", "Queue an outbound call for later.", 2, True,
     True, False, None, True),
    ("collectPayment", "Collect payment", "Take a card payment over the phone.", 1, True,
     True, False, "payments", True),
    ("webSearch", "Web search", "Search the web for up-to-date answers.", 1, False, True,
     False, None, True),
    ("knowledgeBaseSearch", "Knowledge base", "Answer from uploaded documents.", 3, True,
     True, False, None, True),
    ("createTicket", "Create ticket", "Open a support ticket in the CRM.", 2, True, True,
     False, "crm", True),
    ("lookupOrder", "Look up order", "Find an order by number in the CRM.", 1, False, False,
     False, "crm", False),
    ("runComputerTask", "Computer task", "Delegate a task to the Computer Agent.", 3, True,
     False, True, None, True),
    ("browseWebsite", "Browse website", "Have the Computer Agent read a web page.", 2, False,
     False, True, None, True),
    ("fillWebForm", "Fill web form", "Have the Computer Agent submit a web form.", 2, True,
     True, True, None, True),
    ("escalateToHuman", "Escalate to human", "Page the on-call team.", 1, True, False, False,
     "sms", False),
    ("pauseRecording", "Pause recording", "Pause call recording (retired).", 1, False, False,
     False, "retired", False),
]  # fmt: skip

_NEEDS = {
    "calendar": ("Calendar integration is not connected",
                 "Connect a calendar app (Google Calendar or Outlook)"),
    "sms": ("No SMS-capable number on this account", "Add an SMS-enabled phone number"),
    "payments": ("Payments are not connected", "Connect a Stripe account in Apps"),
    "crm": ("No CRM is connected", "Connect a CRM app (HubSpot or Salesforce)"),
}  # fmt: skip

FUNCTIONS: dict[str, dict[str, Any]] = {
    name: {
        "name": name,
        "label": label,
        "details": details,
        "placeholder": f"Describe when the agent should use {label.lower()} and what to say.",
        "limit": limit,
        "hasSettings": settings,
        "requirePaid": paid,
        "requireComputer": computer,
        "needs": needs,
        "docsPage": f"{DOCS}{name}" if docs else None,
    }
    for name, label, details, limit, settings, paid, computer, needs, docs in _FUNCTION_ROWS
}


def function_access(account: Account, name: str) -> tuple[bool, str | None, str | None]:
    """``(allowed, reason, missingRequirement)`` of function ``name`` for ``account``."""
    fn = FUNCTIONS.get(name)
    if fn is None or fn["needs"] == "retired":
        return False, "This function has been retired", None
    if fn["requirePaid"] and not account.paid:
        return False, "This function requires a paid account", "Upgrade to a paid plan"
    if fn["requireComputer"] and account.computer_delegate is None:
        return (False, "No Computer Agent is configured for this agent",
                "Set computerDelegateAccountId to a Computer Agent account")  # fmt: skip
    needs = fn["needs"]
    if needs and needs not in account.integrations:
        reason, missing = _NEEDS[needs]
        return False, reason, missing
    return True, None, None


def functions_for(account: Account) -> list[dict[str, Any]]:
    """The function descriptors evaluated for ``account``."""
    out = []
    for name, fn in FUNCTIONS.items():
        allowed, reason, missing = function_access(account, name)
        item = {k: v for k, v in fn.items() if k != "needs"}
        item.update(allowed=allowed, reason=reason, missingRequirement=missing)
        out.append(item)
    return out


def evaluate_actions(account: Account, actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Fill ``allowed``/``reason``/``missingRequirement`` of configured actions."""
    seen: dict[str, int] = {}
    out = []
    for action in actions:
        name = action["name"]
        seen[name] = seen.get(name, 0) + 1
        allowed, reason, missing = function_access(account, name)
        limit = FUNCTIONS.get(name, {}).get("limit")
        if allowed and limit is not None and seen[name] > limit:
            allowed, reason = False, f"Over the limit of {limit} for this function"
        out.append({**action, "allowed": allowed, "reason": reason, "missingRequirement": missing})
    return out


RELAY_TYPES: list[dict[str, str]] = [
    {"name": "twilioSMS", "description": "Relay inbound Twilio SMS webhooks"},
    {"name": "chargebee", "description": "Relay Chargebee billing events"},
    {"name": "stripe", "description": "Relay Stripe payment events"},
    {"name": "hubspot", "description": "Relay HubSpot CRM events"},
    {"name": "calendly", "description": "Relay Calendly booking events"},
    {"name": "legacyCrm", "description": "Legacy CRM relay (simulator: storage is broken)"},
]
#: Deleting this relay type always answers 500 ``Internal error`` (its storage is broken).
BROKEN_RELAY_TYPE = "legacyCrm"
