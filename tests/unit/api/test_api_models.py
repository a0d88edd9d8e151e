"""Models: the spec's example shapes parse; request models refuse invalid input."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from vagent_tui.api import models as m
from vagent_tui.api.resources import AccountAvailability

REPORTING_FIELD = {
    "key": "callReason",
    "label": "Call reason",
    "instructions": "Why the caller called",
    "values": {"kind": "boolean", "choices": ["yes", "no"]},
}

AGENT_CONFIG: dict[str, Any] = {
    "id": "cfg-12",
    "title": "Front desk",
    "description": "Answers the main line",
    "brandName": "Acme",
    "agentInstructions": "Be brief.",
    "welcomeMessage": "Hello!",
    "links": ["https://acme.example"],
    "keywords": ["acme"],
    "agentModel": "gpt-x",
    "agentThinking": "low",
    "agentThinkingModel": "think-x",
    "postConvoForceThinking": False,
    "timezone": "America/New_York",
    "agentVoice": "v-aria",
    "agentTtsEngine": "acme-tts",
    "agentLang": "en-US",
    "agentS2SEngine": "openai",
    "agentSttEngine": "google",
    "agentSttSmartFormatting": True,
    "actions": [
        {
            "name": "transfer",
            "instructions": "Transfer billing calls",
            "placeholder": "When to transfer",
            "allowed": False,
            "reason": "Requires a paid plan",
            "missingRequirement": "paid_plan",
        }
    ],
    "reportingFields": [REPORTING_FIELD],
    "apps": [{"appId": "calendar", "version": "2", "instructions": "Book", "enabled": True}],
    "skills": [{"slug": "faq", "instructions": "Use the FAQ"}],
    "computerDelegateAccountId": 4242,
    "heartbeatInstructions": "Check the queue",
    "heartbeatEvery": "30m",
    "heartbeatConfig": {
        "activeHours": {"start": "09:00", "end": "17:30", "timezone": "Europe/Paris"},
        "model": "m",
        "session": "s",
        "target": "t",
        "to": "+15550100",
        "accountId": "99",
        "directPolicy": "allow",
        "includeReasoning": True,
        "includeSystemPromptSection": False,
        "suppressToolErrorWarnings": True,
        "lightContext": False,
        "isolatedSession": True,
        "skipWhenBusy": True,
        "ackMaxChars": 280,
        "timeoutSeconds": 45,
    },
    "backgroundAudio": "office",
    "waitOnAnswer": 1,
    "waitToGreet": True,
    "postAnswerDtmf": "1#",
    "interruptionWordCount": 3,
    "interruptionMinimumSpeakingTime": 3,
    "speakingTimeout": 1200,
    "speechProcessingDelay": 500,
    "speechProcessingDelayInterruptionStep": 500,
    "speechProcessingDelayMaxMultiplier": 4,
    "callerResponseTimeout": 13,
    "callerResponseTimeoutHangupCounter": 3,
    "ignoreSpeech": ["uh"],
    "noContactInjection": False,
    "noConvoHistory": True,
    "autoRecordingNotification": "true",
    "recordingNotificationPhrase": "This call is recorded",
    "preAnswerRingTime": 2,
    "preAnswerSkipProcessingResults": False,
    "useAgentNumberForTransfers": True,
    "confirmTransfers": True,
    "monitorTransfers": False,
    "attendedTransfers": True,
    "attendedTransferBridgeTrigger": "ready",
    "attendedTransferCheckInTimeout": 20,
    "transferConfirmTimeout": 30,
    "announceTransferConnecting": True,
    "announceTransferConnected": False,
    "preTransferNotificationStart": "Connecting you",
    "preTransferNotificationEnd": "Connected",
    "enableRingback": True,
    "enableTransferRingback": False,
    "cnamAutoRejectRegex": "^SPAM",
    "cnamAutoRejectCode": 603,
    "cnamAutoTransferRegex": "^VIP",
    "cnamAutoTransferDestination": "+15550101",
    "activeEventRules": ["rule-a"],
    "effectiveReportingFields": [{**REPORTING_FIELD, "source": "reseller"}],
}


def test_agent_config_every_spec_field_is_modelled() -> None:
    config = m.AgentConfig.model_validate(AGENT_CONFIG)

    # Nothing of the spec's field list fell into the catch-all for unknown fields.
    assert config.model_extra == {}
    assert config.heartbeat_config is not None
    assert config.heartbeat_config.model_extra == {}
    assert config.actions[0].model_extra == {}
    assert config.wire() == AGENT_CONFIG  # and it goes back out exactly as it came


def test_agent_config_values() -> None:
    config = m.AgentConfig.model_validate(AGENT_CONFIG)

    assert config.agent_s2s_engine == "openai"
    assert config.agent_s2_s_engine == "openai"
    assert config.computer_delegate_account_id == 4242
    assert config.auto_recording_notification == "true"
    hb = config.heartbeat_config
    assert hb is not None and hb.active_hours is not None
    assert (hb.active_hours.start, hb.active_hours.end) == ("09:00", "17:30")
    assert hb.active_hours.timezone == "Europe/Paris"
    assert (hb.direct_policy, hb.ack_max_chars, hb.timeout_seconds) == ("allow", 280, 45)
    assert config.actions[0].missing_requirement == "paid_plan"
    assert config.reporting_fields[0].values is not None
    assert config.reporting_fields[0].values.choices == ["yes", "no"]
    effective = config.effective_reporting_fields[0]
    assert isinstance(effective, m.EffectiveReportingField)
    assert (effective.key, effective.source) == ("callReason", "reseller")
    assert config.apps[0].app_id == "calendar"
    assert config.skills[0].slug == "faq"


def test_agent_config_s2s_alias_by_python_name() -> None:
    assert m.AgentConfig.model_validate({"agent_s2s_engine": "gemini"}).agent_s2s_engine == "gemini"


def test_agent_config_tolerates_missing_and_unknown_fields() -> None:
    config = m.AgentConfig.model_validate({"id": "cfg-1", "brandNewSetting": {"x": 1}})

    assert config.actions == [] and config.heartbeat_config is None
    assert config.model_extra == {"brandNewSetting": {"x": 1}}
    assert config.wire() == {"id": "cfg-1", "brandNewSetting": {"x": 1}}


def test_function_descriptor() -> None:
    descriptor = m.FunctionDescriptor.model_validate(
        {
            "name": "computerDelegate",
            "label": "Computer Agent",
            "details": "Delegate tasks",
            "placeholder": "What to delegate",
            "limit": None,
            "hasSettings": True,
            "requirePaid": True,
            "requireComputer": True,
            "allowed": False,
            "reason": "No Computer Agent configured",
            "missingRequirement": "computer_agent",
            "docsPage": None,
        }
    )

    assert descriptor.limit is None
    assert descriptor.require_computer is True
    assert descriptor.missing_requirement == "computer_agent"
    assert descriptor.model_extra == {}


def test_voice() -> None:
    voice = m.Voice.model_validate(
        {
            "id": "v-aria",
            "name": "Aria",
            "languages": ["en-US"],
            "compatibleS2SEngines": ["openai", "gemini"],
            "supportsStandardTts": False,
            "accountAvailability": {"available": True, "reason": ""},
        }
    )

    assert voice.compatible_s2_s_engines == ["openai", "gemini"]
    assert voice.available is True
    assert voice.model_extra == {}
    unavailable = voice.model_copy(
        update={"account_availability": AccountAvailability(available=False)}
    )
    assert unavailable.available is False


def test_junk_room_page() -> None:
    page = m.JunkRoomPage.model_validate(
        {
            "pageSize": 20,
            "pageNumber": 0,
            "totalRooms": 2,
            "rooms": [
                {
                    "roomId": "17:42",
                    "name": "+1 555 0100",
                    "id": 42,
                    "image": "https://cdn.example.com/a.png",
                    "vidaPhoneNumber": "+15550100",
                    "unregistered": True,
                    "unregisteredDisplayName": "Unknown",
                    "destinationInboxType": "junk",
                    "lastMessage": "Win a prize",
                    "lastMessageTimestamp": 1750194180,
                    "chatAgentCampaignId": "cfg-12",
                },
                {"roomId": "17:43", "id": 43},
            ],
        }
    )

    assert page.total_rooms == 2 and len(page.rooms) == 2
    room = page.rooms[0]
    assert room.model_extra == {}
    assert room.vida_phone_number == "+15550100"
    assert room.last_message_at is not None
    assert room.last_message_at.timestamp() == 1750194180
    assert page.rooms[1].last_message_at is None


def test_account_with_fields_inside_details() -> None:
    account = m.Account.model_validate(
        {
            "id": 501,
            "username": "ops@acme.example",
            "details": {
                "accountType": "organization",
                "organizationId": 501,
                "partnerId": 1,
                "resellerId": 20,
                "permittedAccountIds": [601, 602],
                "name": "Acme Ops",
                "superAdmin": False,
            },
        }
    )

    assert account.account_type is None
    assert account.scope_field("accountType") == "organization"
    assert account.scope_field("organizationId") == 501
    assert account.scope_field("permittedAccountIds") == [601, 602]
    assert account.scope_field("superAdmin") is False
    assert account.scope_field("unknownThing") is None
    assert account.display_name == "Acme Ops"


def test_account_top_level_beats_details() -> None:
    account = m.Account.model_validate(
        {"id": 1, "accountType": "reseller", "details": {"accountType": "partner"}}
    )

    assert account.scope_field("accountType") == "reseller"


def test_token_record() -> None:
    record = m.TokenRecord.model_validate(
        {
            "token": "tok-abcdef-123456",
            "description": "CI",
            "type": "admin",
            "timestamp": "1750194180352",
            "userId": 7,
        }
    )

    assert record.user_id == 7
    assert record.created_at is not None
    assert int(record.created_at.timestamp()) == 1750194180
    assert record.masked == "•" * 8 + "3456"


@pytest.mark.parametrize(
    ("payload", "is_task"),
    [
        ({"success": True}, False),
        (
            {
                "success": True,
                "taskId": "task-1",
                "status": "queued",
                "statusEndpoint": "/api/v2/templates/migrations/task-1",
                "message": "Queued",
            },
            True,
        ),
    ],
)
def test_migration_shapes(payload: dict[str, Any], is_task: bool) -> None:
    task = m.MigrationTask.model_validate(payload)

    assert task.is_task is is_task
    assert task.success is True
    assert task.model_extra == {}


def test_saved_version_time() -> None:
    version = m.SavedVersion.model_validate({"versionId": 1750194180352, "title": "Auto"})

    assert version.saved_at.year == 2025


# --------------------------------------------------------------------------- requests

ADR_OK: dict[str, Any] = {
    "delivery_protocol": "sftp",
    "host": "ftp.example.com",
    "port": 2202,
    "username": "exporter",
    "password": "pw",
}


def test_adr_wire_shape() -> None:
    body = m.AdrExportConfig(**{**ADR_OK, "delivery_protocol": "SFTP"}).wire()

    assert body == {
        "deliveryProtocol": "sftp",
        "rotationMinutes": "60",
        "host": "ftp.example.com",
        "port": 2202,
        "username": "exporter",
        "password": "pw",
    }


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({"rotation_minutes": 15}, {"rotationMinutes": "15"}),
        ({"rotation_minutes": " 0120 "}, {"rotationMinutes": "120"}),
        ({"delivery_protocol": "FTPS"}, {"deliveryProtocol": "ftps"}),
        ({"delivery_protocol": "ftp"}, {"deliveryProtocol": "ftp"}),
        ({"path": "/incoming/adr"}, {"path": "/incoming/adr"}),
        ({"port": 1}, {"port": 1}),
        ({"port": 65535}, {"port": 65535}),
        ({"host": "2001:db8::1"}, {"host": "2001:db8::1"}),
        ({"host": "192.0.2.10"}, {"host": "192.0.2.10"}),
        ({"host": "localhost"}, {"host": "localhost"}),
        ({"host": "sftp-1.files.example.co.uk."}, {"host": "sftp-1.files.example.co.uk."}),
    ],
)
def test_adr_accepts_valid(changes: dict[str, Any], expected: dict[str, Any]) -> None:
    body = m.AdrExportConfig(**{**ADR_OK, **changes}).wire()

    for key, value in expected.items():
        assert body[key] == value
    assert isinstance(body["rotationMinutes"], str)
    if "path" not in changes:
        assert "path" not in body


@pytest.mark.parametrize("path", ["", "   ", None])
def test_adr_empty_path_is_omitted(path: str | None) -> None:
    assert "path" not in m.AdrExportConfig(**ADR_OK, path=path).wire()


@pytest.mark.parametrize(
    "changes",
    [
        {"delivery_protocol": "scp"},
        {"delivery_protocol": "http"},
        {"delivery_protocol": ""},
        {"port": 0},
        {"port": 65536},
        {"port": -22},
        {"host": "bad host"},
        {"host": "300.1.1.1"},
        {"host": "1.2.3"},
        {"host": "999.999.999.999"},
        {"host": ""},
        {"host": "-leading.example.com"},
        {"host": "under_score.example.com"},
        {"host": "a..b.example.com"},
        {"host": "ftp.example.com:22"},
        {"host": "sftp://ftp.example.com"},
        {"host": "[1.2.3.4]"},
        {"host": "]::1["},
        {"host": "a" * 64 + ".example.com"},
        {"username": ""},
        {"password": ""},
        {"rotation_minutes": "0"},
        {"rotation_minutes": "ten"},
        {"rotation_minutes": "1.5"},
        {"rotation_minutes": True},
        {"unexpected": "field"},
    ],
    ids=repr,
)
def test_adr_refuses_invalid(changes: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        m.AdrExportConfig(**{**ADR_OK, **changes})


@pytest.mark.parametrize("missing", ["delivery_protocol", "host", "port", "username", "password"])
def test_adr_required_fields(missing: str) -> None:
    data = {k: v for k, v in ADR_OK.items() if k != missing}
    with pytest.raises(ValidationError):
        m.AdrExportConfig(**data)


def test_validation_error_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        m.AdrExportConfig(**{**ADR_OK, "port": 0})


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("ftp.example.com", True),
        ("2001:db8::1", True),
        ("::1", True),
        ("192.0.2.1", True),
        ("localhost", True),
        ("xn--bcher-kva.example", True),
        ("bad host", False),
        ("300.1.1.1", False),
        ("1.2.3.04", False),
        ("example.123", False),
        ("[2001:db8::1]", False),
        ("[1.2.3.4]", False),
        ("", False),
        ("x" * 254, False),
    ],
)
def test_is_hostname_or_ip(value: str, expected: bool) -> None:
    assert m.is_hostname_or_ip(value) is expected


@pytest.mark.parametrize(
    ("ip", "normalised"),
    [
        ("2001:db8::1", "2001:db8::1"),
        ("2001:DB8:0:0:0:0:0:1", "2001:db8::1"),
        (" 192.0.2.10 ", "192.0.2.10"),
        ("::1", "::1"),
    ],
)
def test_sip_entry_accepts_ips(ip: str, normalised: str) -> None:
    assert m.SipEntryRequest(ip=ip, label="x").wire() == {"ip": normalised, "label": "x"}


@pytest.mark.parametrize(
    "ip",
    ["1.2.3.256", "1.2.3", "192.0.2.1/32", "2001:db8::g", "2001:db8:::1", "", "example.com"],
)
def test_sip_entry_refuses_bad_ips(ip: str) -> None:
    with pytest.raises(ValidationError):
        m.SipEntryRequest(ip=ip)


def test_member_invite_wire_leaves_out_what_is_not_given() -> None:
    typed: Any = "1112, 1113"  # ids as typed in a form
    invite = m.MemberInvite(email="x@acme.test", permitted_account_ids=typed)
    assert invite.wire() == {"email": "x@acme.test", "role": "admin",
                             "permittedAccountIds": [1112, 1113],
                             "sendWelcomeEmail": True}  # fmt: skip
    full = m.MemberInvite(email="x@acme.test", role="member", redirect_url="https://a.test/w",
                          send_welcome_email=False).wire()  # fmt: skip
    assert full["redirectUrl"] == "https://a.test/w" and full["sendWelcomeEmail"] is False
    assert "permittedAccountIds" not in full


def test_member_update_sends_an_empty_list_to_lift_the_restriction() -> None:
    update = m.MemberUpdate(target_member_id=7, email="x@acme.test", role="admin")
    assert update.wire()["permittedAccountIds"] == []


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("email", "no-at-sign"),
        ("email", "two@@ats.test"),
        ("email", ""),
        ("role", "two words"),
        ("permitted_account_ids", "1112, abc"),
        ("redirect_url", "ftp://x.test"),
    ],
)
def test_member_invite_refuses(field: str, value: str) -> None:
    values: dict[str, Any] = {"email": "x@acme.test", field: value}
    with pytest.raises(ValidationError) as caught:
        m.MemberInvite(**values)
    assert caught.value.errors()[0]["loc"] == (field,)


def test_member_reads_leniently() -> None:
    member = m.Member.model_validate(
        {"id": 3, "email": None, "permittedAccountIds": [1, None, 2], "extra": {"a": 1}}
    )
    assert member.email == "" and member.permitted_account_ids == [1, 2] and member.restricted
    assert not m.Member.model_validate({}).restricted


@pytest.mark.parametrize("hook_type", list(m.WEBHOOK_TYPES))
def test_webhook_accepts_valid(hook_type: str) -> None:
    body = m.WebhookRequest(url="https://hooks.example.com/in?x=1", type=hook_type).wire()  # type: ignore[arg-type]  # a str of WEBHOOK_TYPES

    assert body == {"url": "https://hooks.example.com/in?x=1", "label": "", "type": hook_type}


@pytest.mark.parametrize(
    ("url", "hook_type"),
    [
        ("ftp://hooks.example.com/in", "conversation"),
        ("hooks.example.com/in", "conversation"),
        ("javascript:alert(1)", "conversation"),
        ("http://", "conversation"),
        ("https://bad host.example.com/", "conversation"),
        ("https://hooks.example.com:99999/", "conversation"),
        ("https://hooks.example.com/in", "unknown"),
        ("https://hooks.example.com/in", ""),
    ],
)
def test_webhook_refuses_invalid(url: str, hook_type: str) -> None:
    with pytest.raises(ValidationError):
        m.WebhookRequest(url=url, type=hook_type)  # type: ignore[arg-type]


@pytest.mark.parametrize("slot", [0, 3, 41])
def test_recording_start_accepts_slots(slot: int) -> None:
    assert m.RecordingStartRequest(slot_id=slot).wire() == {"slotId": slot}


@pytest.mark.parametrize("slot", [-1, True, False, "x", 1.5, None])
def test_recording_start_refuses_bad_slots(slot: Any) -> None:
    with pytest.raises(ValidationError):
        m.RecordingStartRequest(slot_id=slot)


@pytest.mark.parametrize(
    ("path", "mode"),
    [("docs/readme.txt", "0644"), ("a.txt", "755"), ("deep/er/file.bin", None), ("x", "0700")],
)
def test_upload_request_accepts_valid(path: str, mode: str | None) -> None:
    form = m.UploadRequest(path=path, mode=mode)

    assert (form.path, form.mode, form.overwrite) == (path, mode, False)


@pytest.mark.parametrize(
    ("path", "mode"),
    [
        ("../x", None),
        ("a/../../x", None),
        ("..", None),
        ("/abs", None),
        ("/etc/passwd", None),
        ("", None),
        ("ok.txt", "999"),
        ("ok.txt", "rw-r--r--"),
        ("ok.txt", "64"),
        ("ok.txt", "0o644"),
        ("ok.txt", "12345"),
    ],
)
def test_upload_request_refuses_invalid(path: str, mode: str | None) -> None:
    with pytest.raises(ValidationError):
        m.UploadRequest(path=path, mode=mode)


@pytest.mark.parametrize("title", ["", "   ", "\t\n"])
def test_title_refuses_empty(title: str) -> None:
    with pytest.raises(ValidationError):
        m.TitleRequest(title=title)


def test_title_is_stripped() -> None:
    assert m.TitleRequest(title="  Launch day ").wire() == {"title": "Launch day"}


def test_token_request_wire() -> None:
    assert m.TokenRequest(description="ci").wire() == {"type": "admin", "description": "ci"}
    # An empty description is sent (CONTRACT.md: the simulator takes it too).
    assert m.TokenRequest(description="  ").wire() == {"type": "admin", "description": ""}
    with pytest.raises(ValidationError):
        m.TokenRequest(type="", description="ci")


def test_migration_request_defaults_are_safe() -> None:
    assert m.MigrationRequest().wire() == {"dryRun": True, "forceMigrateOverriddenFields": False}
    assert m.MigrationRequest(sections_to_migrate=["voice"]).wire() == {
        "dryRun": True,
        "sectionsToMigrate": ["voice"],
        "forceMigrateOverriddenFields": False,
    }


def test_adr_password_is_sent_exactly_as_typed() -> None:
    config = m.AdrExportConfig(
        delivery_protocol=" SFTP ",  # type: ignore[arg-type]  # the model trims and lowers it
        host=" files.example.com ",
        port=22,
        username=" adr ",
        password=" pass word ",
    )
    body = config.wire()
    assert body["password"] == " pass word "
    assert (body["host"], body["username"], body["deliveryProtocol"]) == (
        "files.example.com",
        "adr",
        "sftp",
    )


def test_relay_request_sends_headers_as_published() -> None:
    request = m.RelayRequest(
        url=" https://relay.example.com/x ",
        headers=[(" Authorization ", "Bearer xyz"), ("X-Empty", "")],
    )
    assert request.wire() == {
        "url": "https://relay.example.com/x",
        "headers": [{"Authorization": "Bearer xyz"}, {"X-Empty": ""}],
    }


@pytest.mark.parametrize(
    ("fields", "where"),
    [
        ({"url": "ftp://relay.example.com"}, "url"),
        ({"url": "https://relay.example.com", "timeout": 0}, "timeout"),
        ({"url": "https://relay.example.com", "timeout": True}, "timeout"),
        ({"url": "https://relay.example.com", "headers": [("", "x")]}, "headers"),
        ({"url": "https://relay.example.com", "headers": [("Bad Name", "x")]}, "headers"),
        ({"url": "https://relay.example.com", "headers": [("X-A", "a\r\nX-B: b")]}, "headers"),
        ({"url": "https://relay.example.com", "success_status_codes": [99]}, "success"),
        ({"url": "https://relay.example.com", "success_status_codes": [600]}, "success"),
    ],
)
def test_relay_request_refuses(fields: dict[str, Any], where: str) -> None:
    with pytest.raises(ValidationError) as info:
        m.RelayRequest(**fields)
    assert str(info.value.errors()[0]["loc"][0]).startswith(where)


@pytest.mark.parametrize(
    ("text", "pairs"),
    [
        ("Authorization: Bearer xyz", [("Authorization", "Bearer xyz")]),
        ("X-A: 1\n\n  X-B:2  \nX-A: 3", [("X-A", "1"), ("X-B", "2"), ("X-A", "3")]),
        ("X-Empty:", [("X-Empty", "")]),
        ("", []),
    ],
)
def test_relay_header_lines_round_trip(text: str, pairs: list[tuple[str, str]]) -> None:
    assert m.parse_header_lines(text) == pairs
    assert m.parse_header_lines(m.header_lines(pairs)) == pairs


def test_relay_header_line_without_colon_is_refused() -> None:
    with pytest.raises(ValueError, match="line 2"):
        m.parse_header_lines("X-A: 1\nno colon here")


def test_creates_leave_out_the_empty_optional_fields() -> None:
    new = m.NewOrganization(org_name=" Clinic ", email="", account_name="Desk")
    assert new.wire() == {"orgName": "Clinic", "accountName": "Desk",
                          "orgAccountType": "customer", "hipaaSetting": "inherit"}  # fmt: skip
    assert m.NewAgentAccount(account_name="Desk").wire() == {"accountName": "Desk"}


@pytest.mark.parametrize(
    ("model", "field", "value"),
    [
        (m.NewAgentAccount, "account_name", "   "),
        (m.NewReseller, "reseller_name", ""),
        (m.NewOrganization, "org_name", " "),
        (m.NewOrganization, "email", "nobody"),
        (m.NewOrganization, "org_account_type", "vip"),
        (m.AccountUpdate, "account_name", " "),
        (m.OrganizationUpdate, "email", "x@"),
    ],
)
def test_provisioning_refuses_a_bad_value_at_its_field(
    model: type[m.Request], field: str, value: str
) -> None:
    needed = {"account_name": "A"} if model is m.NewAgentAccount else {}
    needed |= {"reseller_name": "R"} if model is m.NewReseller else {}
    needed |= {"org_name": "O"} if model is m.NewOrganization else {}
    with pytest.raises(ValidationError) as info:
        model(**{**needed, field: value})
    assert info.value.errors()[0]["loc"] == (field,)


def test_an_update_sends_only_what_was_given_and_null_removes_an_id() -> None:
    assert m.AccountUpdate(account_name="New").wire() == {"accountName": "New"}
    update = m.AccountUpdate(active=False, external_account_id="", external_billing_id=None)
    assert update.wire() == {"active": False, "externalAccountId": None,
                             "externalBillingId": None}  # fmt: skip
    assert m.OrganizationUpdate(org_name="X", active=True).wire() == {
        "orgName": "X",
        "active": True,
    }


def test_an_account_reads_its_external_ids_in_any_plausible_form() -> None:
    acc = m.Account.model_validate({"id": 1, "externalAccountId": 77, "externalBillingId": ["x"]})
    assert acc.external_account_id == "77" and acc.external_billing_id is None


def test_a_settings_change_with_nulls_and_reasons() -> None:
    reply = m.SettingsChange.model_validate(
        {"updatedSettings": None, "failedSettings": ["externalAccountId", None],
         "failedReasons": {"externalAccountId": "is already used"}}
    )  # fmt: skip
    assert reply.updated_settings == [] and reply.failed_settings == ["externalAccountId"]
    assert reply.reason("externalAccountId") == "is already used" and reply.reason("x") == ""


@pytest.mark.parametrize("number", ["5551230001", "+0551230001", "+1 555 123 0001", "+1555",
                                    "+1555123000112345", ""])  # fmt: skip
def test_outbound_requests_refuse_a_number_not_in_e164(number: str) -> None:
    for model in (m.OutboundCallRequest, m.TaskRequest):
        with pytest.raises(ValidationError) as info:
            model(target=number)
        assert info.value.errors()[0]["loc"] == ("target",)


def test_outbound_requests_wire_leaves_empty_fields_out() -> None:
    call = m.OutboundCallRequest(target=" +15551230001 ", context="", greeting="Hi")
    assert call.wire() == {"target": "+15551230001", "greeting": "Hi"}
    text = m.TaskRequest(type="text", target="+15551230001", content="Hello")
    assert text.wire() == {"target": "+15551230001", "type": "text", "content": "Hello"}


def test_a_text_needs_its_message() -> None:
    with pytest.raises(ValidationError) as info:
        m.TaskRequest(type="text", target="+15551230001")
    assert info.value.errors()[0]["loc"] == ("content",)
    with pytest.raises(ValidationError):
        m.OutboundSmsRequest(target="+15551230001", content="")


def test_task_query_params_leave_unset_out() -> None:
    assert m.TaskQuery().params() == {"limit": 50, "offset": 0, "sort": "createdAt",
                                      "order": "desc"}  # fmt: skip
    with pytest.raises(ValidationError):
        m.TaskQuery(sort="name")  # type: ignore[arg-type]


def test_task_limits_update_sends_each_group_given_whole_and_nothing_else() -> None:
    update = m.TaskLimitsUpdate(timezone="America/Chicago", days=[5, 1, 2, 1], start="09:00",
                                end="17:00", cooldown_texts=300)  # fmt: skip
    assert update.wire() == {
        "businessHours": {"timezone": "America/Chicago", "days": [1, 2, 5],
                          "start": "09:00", "end": "17:00"},
        "cooldowns": {"texts": 300},
    }  # fmt: skip
    assert update.groups == ["businessHours", "cooldowns"]
    assert m.TaskLimitsUpdate(concurrency_per_run=3).wire() == {"concurrencyPerRun": 3}
    assert m.TaskLimitsUpdate().wire() == {}


@pytest.mark.parametrize(
    ("values", "field"),
    [
        ({"timezone": "Mars/Olympus"}, "timezone"),
        ({"days": []}, "days"),
        ({"days": [8]}, "days"),
        ({"start": "9:00"}, "start"),
        ({"end": "24:01"}, "end"),
        ({"start": "17:00", "end": "09:00"}, "end"),
        ({"cooldown_calls": -1}, "cooldown_calls"),
        ({"cooldown_texts": 31 * 86400}, "cooldown_texts"),
        ({"daily_calls": -5}, "daily_calls"),
        ({"concurrency_per_run": 0}, "concurrency_per_run"),
    ],
)
def test_task_limits_update_refuses_a_bad_value_at_its_field(
    values: dict[str, Any], field: str
) -> None:
    hours = {"timezone": "UTC", "days": [1], "start": "09:00", "end": "17:00"}
    with pytest.raises(ValidationError) as info:
        m.TaskLimitsUpdate(**{**hours, **values})
    assert info.value.errors()[0]["loc"] == (field,)


def test_task_limits_update_refuses_business_hours_in_part() -> None:
    with pytest.raises(ValidationError):
        m.TaskLimitsUpdate(timezone="UTC")


@pytest.mark.parametrize(
    ("fields", "refused"),
    [({"email": "nobody"}, "email"), ({"image": "not a url"}, "image"),
     ({"email": "a@b.test", "image": "https://x.test/a.png"}, None)],
)  # fmt: skip
def test_own_details_check_the_email_and_the_image(
    fields: dict[str, str], refused: str | None
) -> None:
    from vagent_tui.api.agent_extras_models import OwnDetails

    if refused is None:
        assert OwnDetails(**fields).wire() == fields  # the fields not set are not sent
        return
    with pytest.raises(ValueError, match=refused):
        OwnDetails(**fields)
