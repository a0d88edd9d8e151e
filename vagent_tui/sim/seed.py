"""Deterministic seed data (no randomness except one ``random.Random(2024)``).

Main tree (demo tokens in brackets)::

    1000 Northwind Voice Partners        partner       [demo-partner]
      1001 Priya Raman                   user          [demo-partner-user] partner admin
      1100 Bluebird Telecom              reseller      [demo-reseller]
        1101 Marco Bellini               user          [demo-reseller-user] reseller admin
        1110 Acme Dental Group           organization  [demo-org]
          1111 Acme Dental Front Desk    agent         [demo-agent] enterprise, premium
          1112 Acme Dental Spanish Line  agent         pro
          1113 Acme Dental After Hours   agent         starter (no computer delegate)
          1117 Sam Okafor                user          [demo-org-user] organization admin
          1118 Acme Ops Computer Agent   Computer Agent
          1119 Dana Whitfield            user          [demo-member] permitted 1112, 1113
        1120 Harbor Realty               organization
          1121 Harbor Realty Leads       agent         premium
          1122 Harbor Realty Rentals     agent         LOCKED (active false)
      1200 Cascade Cloud Voice           reseller
        1210 Lakeside Clinics  (1211, 1212 agents; 1218 Computer Agent)
        1220 Metro Auto Repair (1221, 1222 agents; 1228 Computer Agent)
      1300 Summit Reseller Group         reseller
        1310 Pinecrest Law     (1311, 1312 agents)
        1320 Sunrise Hospitality (1321, 1322 agents)
    9000 Globex Partner Network          partner       [demo-other]
      9100 Globex Resale -> 9110 Initech Support -> 9111, 9112 agents

A ``user`` belongs to its parent: its ``organizationId`` is the parent's id, so the
partner's user 1001 has ``organizationId`` equal to ``partnerId`` (rule 1 of the spec),
the reseller's user 1101 ``organizationId`` equal to ``resellerId`` (rule 2), and the
organization's users 1117 (no ``permittedAccountIds``) and 1119 are organization admins
(rule 4), 1119 restricted to 1112 and 1113 (rule 5). The users are seeded last, with
the same generator, so that everything seeded before them is as it was without them.

Templates (reseller feature): ``tpl-dental-reception`` (1100; 1111 and 1112 behind, with
overrides: a migration task completes), ``tpl-realty-inbound`` (1100; 1121 up to date: a
dry run answers ``{success}`` alone), ``tpl-after-hours`` (1100; includes the locked
1122: its tasks end ``failed``), ``tpl-clinic-intake`` (1200), ``tpl-auto-service`` (1200).

Outbound tasks (`TASKS`), so that the Tasks screen shows work at once: calls and texts
on agents of Harbor Realty, Lakeside Clinics, Metro Auto Repair, Pinecrest Law and
Sunrise Hospitality (the partner sees them all; the reseller Bluebird, Harbor's; none is
Acme Dental's, whose 1111 the tests queue their own on). They are the one part of the
seed timed from the simulator's clock when it starts (a task's state is derived from the
clock: `vagent_tui.sim.outbound`): three ended in the last three hours (two finished,
one errored: its number ends in ``666``), so they are in the call log too; one starting
as the simulator does (running for ``task_seconds``); one due in 2 minutes and one in 20
(pending, then running, then finished, as a newcomer watches); a text due tomorrow.
Their ids, ``task-dNNNN`` (as wide as the others), are apart from the ids the simulator
gives (``task-NNNNN``).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from vagent_tui.sim import numbers, sip
from vagent_tui.sim.account import Account
from vagent_tui.sim.catalog import BROKEN_RELAY_TYPE, RELAY_TYPES
from vagent_tui.sim.common import iso
from vagent_tui.sim.configs import Profile, build_config, staging_variant

if TYPE_CHECKING:
    from vagent_tui.sim.state import SimState

#: Fixed epoch of the seed (2025-11-20T00:00:00Z); seeded times are before it.
SEED_EPOCH = 1_763_596_800

DEMO_TOKENS: dict[str, int] = {
    "demo-partner": 1000,
    "demo-reseller": 1100,
    "demo-org": 1110,
    "demo-agent": 1111,
    "demo-member": 1119,
    "demo-other": 9000,
    "demo-partner-user": 1001,
    "demo-reseller-user": 1101,
    "demo-org-user": 1117,
}

SECTIONS = ["instructions", "voice", "functions", "reportingFields", "transfers", "heartbeat"]

ALL = ("calendar", "sms", "payments", "crm")

# id, name, type, parent, plan, premium, integrations, extra
_ACCOUNTS: list[tuple[int, str, str, int | None, str, bool, tuple[str, ...], dict[str, Any]]] = [
    (1000, "Northwind Voice Partners", "partner", None, "enterprise", True, ALL, {}),
    (1100, "Bluebird Telecom", "reseller", 1000, "enterprise", True, ALL, {}),
    (1200, "Cascade Cloud Voice", "reseller", 1000, "pro", False, ALL, {}),
    (1300, "Summit Reseller Group", "reseller", 1000, "pro", True, ALL, {}),
    (1110, "Acme Dental Group", "organization", 1100, "enterprise", True, ALL, {}),
    (1120, "Harbor Realty", "organization", 1100, "pro", False, ALL, {}),
    (1210, "Lakeside Clinics", "organization", 1200, "enterprise", True, ALL, {}),
    (1220, "Metro Auto Repair", "organization", 1200, "starter", False, (), {}),
    (1310, "Pinecrest Law", "organization", 1300, "pro", True, ALL, {}),
    (1320, "Sunrise Hospitality", "organization", 1300, "pro", False, ALL, {}),
    (1111, "Acme Dental Front Desk", "account", 1110, "enterprise", True, ALL,
     {"computer_delegate": 1118}),
    (1112, "Acme Dental Spanish Line", "account", 1110, "pro", False, ("calendar",),
     {"computer_delegate": 1118}),
    (1113, "Acme Dental After Hours", "account", 1110, "starter", False, ("sms",), {}),
    (1118, "Acme Ops Computer Agent", "account", 1110, "enterprise", False, (),
     {"computer_agent": True, "slots": 4}),
    (1119, "Dana Whitfield", "user", 1110, "enterprise", False, (),
     {"permitted_ids": [1112, 1113], "role": "member"}),
    (1121, "Harbor Realty Leads", "account", 1120, "pro", True, ("calendar", "crm"), {}),
    (1122, "Harbor Realty Rentals", "account", 1120, "pro", False, (), {"active": False}),
    (1211, "Lakeside Intake", "account", 1210, "enterprise", True, ("calendar", "sms"),
     {"computer_delegate": 1218}),
    (1212, "Lakeside Billing", "account", 1210, "pro", False, ("payments", "crm"), {}),
    (1218, "Lakeside Computer Agent", "account", 1210, "enterprise", False, (),
     {"computer_agent": True, "slots": 2}),
    (1221, "Metro Service Desk", "account", 1220, "starter", False, (), {}),
    (1222, "Metro Parts Line", "account", 1220, "pro", False, ("crm",),
     {"computer_delegate": 1228}),
    (1228, "Metro Computer Agent", "account", 1220, "pro", False, (),
     {"computer_agent": True, "slots": 1}),
    (1311, "Pinecrest Intake", "account", 1310, "enterprise", True, ALL,
     {"computer_delegate": None}),
    (1312, "Pinecrest Spanish Intake", "account", 1310, "pro", False, ("calendar",), {}),
    (1321, "Sunrise Concierge", "account", 1320, "pro", True, ("sms", "crm"), {}),
    (1322, "Sunrise Reservations", "account", 1320, "pro", False, ("calendar",), {}),
    (9000, "Globex Partner Network", "partner", None, "enterprise", True, ALL, {}),
    (9100, "Globex Resale", "reseller", 9000, "pro", True, ALL, {}),
    (9110, "Initech Support", "organization", 9100, "pro", True, ALL, {}),
    (9111, "Initech Helpdesk", "account", 9110, "pro", True, ALL, {}),
    (9112, "Initech Billing Line", "account", 9110, "starter", False, (), {}),
]  # fmt: skip

# Admins who are users (seeded after everything else: see the module docstring).
_USERS: list[tuple[int, str, str, int | None, str, bool, tuple[str, ...], dict[str, Any]]] = [
    (1001, "Priya Raman", "user", 1000, "enterprise", False, (), {}),
    (1101, "Marco Bellini", "user", 1100, "enterprise", False, (), {}),
    (1117, "Sam Okafor", "user", 1110, "enterprise", False, (), {}),
]  # fmt: skip

_BASE = ("transferCall", "endCall", "lookupContact", "addNote")
# agent id -> profile
PROFILES: dict[int, Profile] = {
    1111: Profile("Acme Dental", "Front desk receptionist", "en-US", "elevenlabs-rachel",
                  None, "America/Chicago",
                  (*_BASE, "bookAppointment", "checkAvailability", "sendSms",
                   "collectPayment", "runComputerTask", "knowledgeBaseSearch"),
                  ("cleaning", "crown", "insurance")),
    1112: Profile("Acme Dental", "Spanish-language receptionist", "es-MX", "azure-dalia",
                  None, "America/Chicago",
                  (*_BASE, "bookAppointment", "sendSms", "browseWebsite", "pauseRecording"),
                  ("limpieza", "cita", "seguro")),
    1113: Profile("Acme Dental", "After-hours answering service", "en-US",
                  "elevenlabs-antoni", "openai", "America/Chicago",
                  (*_BASE, "transferToVoicemail", "scheduleCallback", "webSearch",
                   "runComputerTask", "endCall"),
                  ("emergency", "toothache")),
    1121: Profile("Harbor Realty", "Lead qualification agent", "en-US", "openai-coral",
                  "openai", "America/New_York",
                  (*_BASE, "bookAppointment", "createTicket", "lookupOrder"),
                  ("listing", "showing", "mortgage")),
    1122: Profile("Harbor Realty", "Rentals line", "en-US", "openai-sage", "openai",
                  "America/New_York", (*_BASE, "sendEmail"), ("lease", "deposit")),
    1211: Profile("Lakeside Clinics", "Patient intake coordinator", "en-US",
                  "cartesia-sonic-sarah", "gemini", "America/Denver",
                  (*_BASE, "bookAppointment", "cancelAppointment", "sendSms",
                   "runComputerTask", "fillWebForm", "escalateToHuman"),
                  ("referral", "new patient")),
    1212: Profile("Lakeside Clinics", "Billing assistant", "es-US", "azure-paloma", None,
                  "America/Denver", (*_BASE, "collectPayment", "createTicket", "sendEmail"),
                  ("invoice", "copay")),
    1221: Profile("Metro Auto Repair", "Service desk", "en-US", "deepgram-aura-orion", None,
                  "America/Los_Angeles",
                  (*_BASE, "bookAppointment", "collectPayment", "webSearch"),
                  ("oil change", "brakes")),
    1222: Profile("Metro Auto Repair", "Parts counter", "en-US", "google-studio-q", None,
                  "America/Los_Angeles", (*_BASE, "lookupOrder", "browseWebsite"),
                  ("part number", "warranty")),
    1311: Profile("Pinecrest Law", "Legal intake specialist", "en-US", "gemini-charon",
                  "gemini", "America/New_York",
                  ("transferCall",) * 12 + ("endCall", "addNote", "sendEmail"),
                  ("consultation", "retainer")),
    1312: Profile("Pinecrest Law", "Spanish legal intake", "es-ES", "google-neural2-b", None,
                  "Europe/Madrid", (*_BASE, "bookAppointment"), ("consulta", "abogado")),
    1321: Profile("Sunrise Hospitality", "Hotel concierge", "fr-FR", "azure-denise", None,
                  "Europe/Paris", (*_BASE, "sendSms", "tagConversation"),
                  ("réservation", "spa")),
    1322: Profile("Sunrise Hospitality", "Reservations desk", "de-DE", "gemini-kore",
                  "gemini", "Europe/Berlin", (*_BASE, "bookAppointment", "sendDtmf"),
                  ("Zimmer", "Buchung")),
    9111: Profile("Initech", "IT helpdesk", "en-US", "openai-echo", "openai",
                  "America/Chicago", (*_BASE, "createTicket"), ("printer", "password")),
    9112: Profile("Initech", "Billing line", "multi", "openai-alloy", "openai",
                  "America/Chicago", (*_BASE, "collectPayment"), ("invoice",)),
}  # fmt: skip

_STAGING_EMPTY = {1113, 1122, 1212, 1222, 1312, 9112}

# template id -> (name, owner reseller, revision, {agent: (revision, overrides)})
_TEMPLATES: dict[str, tuple[str, int, int, dict[int, tuple[int, list[str]]]]] = {
    "tpl-dental-reception": ("Dental reception", 1100, 4,
                             {1111: (3, ["welcomeMessage"]),
                              1112: (3, ["agentVoice", "welcomeMessage", "actions"])}),
    "tpl-realty-inbound": ("Realty inbound", 1100, 2, {1121: (2, [])}),
    "tpl-after-hours": ("After-hours answering", 1100, 3,
                        {1113: (2, []), 1122: (2, ["agentInstructions"])}),
    "tpl-clinic-intake": ("Clinic intake", 1200, 5,
                          {1211: (4, ["heartbeatConfig"]), 1212: (5, [])}),
    "tpl-auto-service": ("Auto service desk", 1200, 1, {1221: (1, []), 1222: (1, [])}),
}  # fmt: skip

# account, kind, target, minutes from the start (the task starts then), the task's fields
TASKS: list[tuple[int, str, str, int, dict[str, Any]]] = [
    (1211, "call", "+13035550141", -180, {"context": "Remind the patient of tomorrow's visit",
                                          "externalTaskId": "ehr-4471"}),
    (1212, "text", "+13035550188", -150,
     {"content": "Your invoice #2231 is ready: reply PAY to settle it by phone."}),
    (1221, "call", "+12135550666", -95, {"context": "The brake parts arrived: book a slot"}),
    (1311, "call", "+12125550107", 0, {"context": "Follow up on the consultation request",
                                       "greeting": "Hello, this is Pinecrest Law."}),
    (1121, "call", "+16175550123", 2, {"context": "Callback: asked about the Elm St listing"}),
    (1321, "call", "+33155550199", 20, {"context": "Confirm the late check-in"}),
    (1211, "text", "+13035550177", 24 * 60,
     {"content": "Lakeside Clinics: your referral was received; we will call to book."}),
]  # fmt: skip
"""The seeded outbound tasks: see the module docstring."""

_VERSION_TITLES = ["Initial launch", "Before holiday hours", "Spring promo script",
                   "New transfer numbers"]  # fmt: skip


def _account(row: tuple[Any, ...], parents: dict[int, Account]) -> Account:
    aid, name, kind, parent_id, plan, premium, integrations, extra = row
    parent = parents.get(parent_id) if parent_id is not None else None
    username = name.lower().replace(" ", ".").replace("-", "")
    acc = Account(id=aid, username=username, name=name, account_type=kind, parent_id=parent_id,
                  plan=plan, vida_premium=premium, integrations=integrations,
                  created_at=iso(SEED_EPOCH - 86400 * (400 - aid % 300)), **extra)  # fmt: skip
    if kind == "partner":
        acc.partner_id = aid
    elif parent is not None:
        acc.partner_id = parent.partner_id
        acc.reseller_id = aid if kind == "reseller" else parent.reseller_id
        if kind == "organization":
            acc.organization_id = aid
        elif kind == "account":
            acc.organization_id = parent.organization_id
        elif kind == "user":
            acc.organization_id = parent.id
    return acc


def seed(state: SimState) -> None:
    """Fill an empty ``state`` with the seed data described in the module docstring."""
    rnd = random.Random(2024)
    state.relay_types = [dict(t) for t in RELAY_TYPES]
    for row in _ACCOUNTS:
        acc = _account(row, state.accounts)
        state.accounts[acc.id] = acc
    for token, aid in DEMO_TOKENS.items():
        state.tokens[token] = {"token": token, "description": "Demo token", "type": "admin",
                               "timestamp": str((SEED_EPOCH - 86400 * 30) * 1000),
                               "userId": aid}  # fmt: skip
    for acc in state.accounts.values():
        _seed_tokens(state, acc, rnd)
        _seed_integrations(state, acc, rnd)
    # Acme Dental buys its numbers through Twilio (the credentials are made up).
    twilio = {"accountSid": "AC5eed0000000000000000000000001110",
              "authToken": "seeded-auth-token-1110"}  # fmt: skip
    state.numbering[1110] = {"Twilio": {"providerId": "Twilio", "default": True, "enabled": True,
                                        "config": twilio}}  # fmt: skip
    # The partner bills its customers through Stripe (CONTRACT choice 133); its
    # resellers have no billing system (a read answers 404).
    state.billing_systems[1000] = {"billingSystemType": "stripe", "apiKey": "sk_live_demo1000",
                                   "publishableKey": "pk_live_demo1000",
                                   "webhookSigningKey": "whsec_demo1000"}  # fmt: skip
    for aid, profile in PROFILES.items():
        acc = state.accounts[aid]
        live = build_config(acc, profile, rnd)
        state.live[aid] = live
        state.staging[aid] = None if aid in _STAGING_EMPTY else staging_variant(live, rnd)
        state.versions[aid] = _versions(live, rnd)
    for tid, (name, owner, revision, agents) in _TEMPLATES.items():
        state.templates[tid] = {
            "id": tid, "name": name, "owner": owner, "revision": revision,
            "sections": list(SECTIONS),
            "updatedAt": iso(SEED_EPOCH - 86400 * (revision + 2)),
            "overrides": {aid: list(fields) for aid, (_, fields) in agents.items()},
        }  # fmt: skip
        for aid, (agent_rev, _) in agents.items():
            for cfg in (state.live[aid], state.staging[aid]):
                if cfg is not None:
                    cfg["templateId"] = tid
                    cfg["templateRevision"] = agent_rev
    for acc in state.accounts.values():
        if acc.computer_agent:
            state.files[acc.id] = {
                p: {"path": p, "size": size, "mode": "0644", "updatedAt": iso(SEED_EPOCH - 7200)}
                for p, size in (("notes/readme.txt", 812), ("scripts/export_orders.py", 2304),
                                ("data/price-list.csv", 15872))
            }  # fmt: skip
            state.recordings[acc.id] = []
            state.sessions[acc.id] = []
    for row in _USERS:
        acc = _account(row, state.accounts)
        state.accounts[acc.id] = acc
        _seed_tokens(state, acc, rnd)
        _seed_integrations(state, acc, rnd)
    _seed_tasks(state)
    voice_agents = [acc for acc in state.accounts.values() if acc.is_agent]
    numbers.seed_numbers(state, voice_agents, SEED_EPOCH - 86400 * 20)


def _seed_tasks(state: SimState) -> None:
    """`TASKS`, stored as `vagent_tui.sim.outbound` stores a queued task: a task starting
    later was queued now for then (``scheduledFor``), one starting earlier was queued
    then, to start at once."""
    now = int(state.now())
    for number, (account, kind, target, minutes, fields) in enumerate(TASKS, 1):
        start = now + 60 * minutes
        task = {**fields, "target": target, "id": f"task-d{number:04d}", "type": kind,
                "accountId": account, "createdAt": min(now, start),
                "scheduledFor": start if start > now else None, "startAt": start,
                "heldBy": None}  # fmt: skip
        state.outbound[task["id"]] = task


def _seed_tokens(state: SimState, acc: Account, rnd: random.Random) -> None:
    for k in range(1 + acc.id % 2):
        token = f"sk_{acc.id}_{rnd.getrandbits(64):016x}"
        state.tokens[token] = {"token": token, "type": "admin",
                               "description": ["CRM sync", "Reporting export"][k],
                               "timestamp": str((SEED_EPOCH - 86400 * (90 - 20 * k)) * 1000),
                               "userId": acc.id}  # fmt: skip


def _seed_integrations(state: SimState, acc: Account, rnd: random.Random) -> None:
    ts = SEED_EPOCH - 86400 * 12  # a number of seconds (api-facts), unlike token timestamps
    state.sip[acc.id] = [
        {"userId": acc.id, "label": label, "timestamp": ts, "ip": ip}
        for label, ip in (
            ("Office PBX", f"203.0.113.{acc.id % 200 + 1}"),
            ("Backup trunk", f"198.51.100.{acc.id % 150 + 7}"),
            ("Carrier v6", f"2001:db8::{acc.id:x}"),
        )
    ][: 2 + acc.id % 2]
    sip.seed(state, acc)
    slug = acc.username.replace(".", "-")
    state.webhooks[acc.id] = [
        {"userId": acc.id, "label": "CRM conversations", "timestamp": ts,
         "url": f"https://hooks.{slug}.example.com/conversation", "type": "conversation"},
        {"userId": acc.id, "label": "New contacts", "timestamp": ts,
         "url": f"https://hooks.{slug}.example.com/contact", "type": "contact"},
    ]  # fmt: skip
    relays: dict[str, dict[str, Any]] = {}
    if acc.vida_premium:
        for rtype in ("twilioSMS", "chargebee", BROKEN_RELAY_TYPE):
            relays[rtype] = {
                "type": rtype,
                "url": f"https://relay.{slug}.example.com/{rtype.lower()}",
                "timeout": rnd.choice([5000, 10000, 15000]),
                "headers": [{"X-Relay-Source": "vida"}],
                "successStatusCodes": [200, 201, 202],
            }
    state.relays[acc.id] = relays


def _versions(live: dict[str, Any], rnd: random.Random) -> list[dict[str, Any]]:
    out = []
    ms = (SEED_EPOCH - 86400 * 60) * 1000 + rnd.randrange(86_400_000)
    for k in range(3 + rnd.randrange(3)):
        ms += rnd.randrange(2, 9) * 86_400_000 + rnd.randrange(86_400_000)
        human = k % 2 == 0
        title = _VERSION_TITLES[(k // 2) % len(_VERSION_TITLES)] if human else f"Auto-{ms}"
        snap = dict(live)
        snap["speechProcessingDelay"] = live["speechProcessingDelay"] - 100 * (k % 3)
        out.append({"versionId": ms, "title": title, "createdAt": iso(ms / 1000), "snapshot": snap})
    out.reverse()  # newest first
    return out
