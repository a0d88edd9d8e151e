"""Reply handling: replies become models, unknown fields are kept."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import httpx
import pytest

from tests.unit.api.conftest import MakeClient
from vagent_tui.api import models as m
from vagent_tui.api.client import Exchange, PlatformClient
from vagent_tui.api.errors import MalformedResponse

from .helpers import TOKEN, Recorder, ok

VOICE = {
    "id": "v-aria",
    "name": "Aria",
    "description": "Warm",
    "provider": "acme",
    "sampleUrl": "https://cdn.example.com/aria.mp3",
    "imageUrl": "https://cdn.example.com/aria.png",
    "languages": ["en-US", "es-MX"],
    "compatibleS2SEngines": ["openai"],
    "supportsStandardTts": True,
    "accountAvailability": {"available": False, "reason": "advanced_voice_required"},
    "futureField": {"nested": 1},
}


async def test_list_voices_parses_models_and_keeps_unknown_fields(make_client: MakeClient) -> None:
    client = make_client(Recorder(ok({"success": True, "voices": [VOICE, {"id": "v-2"}]})))

    voices = await client.list_voices()

    assert [v.id for v in voices] == ["v-aria", "v-2"]
    aria = voices[0]
    assert isinstance(aria, m.Voice)
    assert aria.compatible_s2_s_engines == ["openai"]
    assert aria.account_availability is not None
    assert aria.account_availability.reason == "advanced_voice_required"
    assert aria.available is False
    assert voices[1].available is True
    assert aria.model_extra == {"futureField": {"nested": 1}}


@pytest.mark.parametrize("reply", [{"success": True}, {"success": True, "voices": None}])
async def test_a_reply_without_its_list_is_not_an_empty_list(
    make_client: MakeClient, reply: dict[str, object]
) -> None:
    """Issue 24: ``{"success": true}`` alone said "0 voices"; nothing is known of them."""
    client = make_client(Recorder(ok(reply)))

    with pytest.raises(MalformedResponse, match="holds no 'voices' list"):
        await client.list_voices()


@pytest.mark.parametrize(
    ("call", "key"),
    [
        (lambda c: c.list_functions(1111), "functions"),
        (lambda c: c.list_webhooks(), "webhooks"),
        (lambda c: c.list_sip_whitelist(), "whitelist"),
        (lambda c: c.list_members(), "members"),
        (lambda c: c.list_tasks(), "tasks"),
        (lambda c: c.list_tokens(), "tokens"),
        (lambda c: c.list_templates(), "templates"),
        (lambda c: c.list_accounts(1110), "accounts"),
        (lambda c: c.list_junk_rooms(), "rooms"),
        (lambda c: c.list_room_messages("1111:1"), "messages"),
    ],
)
async def test_every_list_reader_refuses_a_reply_without_its_list(
    make_client: MakeClient, call: Callable[[PlatformClient], Awaitable[object]], key: str
) -> None:
    client = make_client(Recorder(ok({"success": True, "message": "ok"})))

    with pytest.raises(MalformedResponse, match=f"holds no '{key}' list"):
        await call(client)


async def test_an_empty_list_is_an_empty_list(make_client: MakeClient) -> None:
    client = make_client(Recorder(ok({"success": True, "voices": [], "webhooks": []})))

    assert await client.list_voices() == []
    assert await client.list_webhooks() == []


async def test_staging_null_campaign_is_none(make_client: MakeClient) -> None:
    client = make_client(Recorder(ok({"success": True, "message": "", "campaign": None})))

    assert await client.get_staging(target=5) is None


async def test_live_campaign_is_agent_config_with_extras(make_client: MakeClient) -> None:
    campaign = {"id": "cfg-5", "title": "Front desk", "agentS2SEngine": "openai", "newKnob": 7}
    client = make_client(Recorder(ok({"success": True, "message": "ok", "campaign": campaign})))

    config = await client.get_live(target=5)

    assert isinstance(config, m.AgentConfig)
    assert config.id == "cfg-5"
    assert config.agent_s2s_engine == "openai"
    assert config.model_extra == {"newKnob": 7}


async def test_get_agent_parses_campaign(make_client: MakeClient) -> None:
    client = make_client(Recorder(ok({"success": True, "campaign": {"id": "cfg-1"}})))

    config = await client.get_agent("cfg-1")

    assert config is not None and config.id == "cfg-1"


async def test_migrate_success_only_is_not_a_task(make_client: MakeClient) -> None:
    client = make_client(Recorder(ok({"success": True})))

    task = await client.migrate("tpl-1")

    assert task.success is True
    assert task.is_task is False
    assert task.task_id is None
    assert task.template_id == "tpl-1"


async def test_migrate_task_shape(make_client: MakeClient) -> None:
    reply = {
        "success": True,
        "taskId": "task-9",
        "status": "queued",
        "statusEndpoint": "/api/v2/templates/migrations/task-9",
        "message": "Migration queued",
        "agentsMatched": 12,
    }
    client = make_client(Recorder(ok(reply)))

    task = await client.migrate("tpl-1")

    assert task.is_task is True
    assert (task.task_id, task.status, task.message) == ("task-9", "queued", "Migration queued")
    assert task.status_endpoint == "/api/v2/templates/migrations/task-9"
    assert task.model_extra == {"agentsMatched": 12}


async def test_migration_status_tolerates_unknown_status_and_fields(
    make_client: MakeClient,
) -> None:
    reply = {
        "success": True,
        "taskId": "task-9",
        "status": "paused-by-operator",
        "counts": {"total": 3, "processed": 2, "changed": 1, "skipped": 1, "extraCount": 4},
        "history": [{"status": "queued", "at": "2025-01-01T00:00:00Z"}],
        "shiny": True,
    }
    client = make_client(Recorder(ok(reply)))

    task = await client.migration_status("/api/v2/templates/migrations/task-9")

    assert task.status == "paused-by-operator"
    assert task.counts is not None and task.counts.processed == 2
    assert task.counts.model_extra == {"extraCount": 4}
    assert task.history[0].status == "queued"
    assert task.model_extra == {"shiny": True}


async def test_get_account_reads_details(make_client: MakeClient) -> None:
    reply = {
        "success": True,
        "id": 77,
        "username": "ops@example.com",
        "details": {"accountType": "reseller", "organizationId": 77, "resellerId": 77},
    }
    client = make_client(Recorder(ok(reply)))

    account = await client.get_account()

    assert account.id == 77
    assert account.account_type is None
    assert account.scope_field("accountType") == "reseller"
    assert account.model_extra == {"success": True}


async def test_child_page_totals_and_items(make_client: MakeClient) -> None:
    reply = {
        "success": True,
        "totalResellers": 41,
        "pageSize": 2,
        "pageNumber": 3,
        "resellers": [{"id": 1, "name": "A"}, {"id": 2, "username": "b"}],
    }
    client = make_client(Recorder(ok(reply)))

    page = await client.list_resellers(9, page=3, page_size=2)

    assert isinstance(page, m.AccountPage)
    assert [a.id for a in page.items] == [1, 2]
    assert (page.total, page.page_size, page.page_number) == (41, 2, 3)
    assert [a.display_name for a in page.items] == ["A", "b"]


async def test_child_page_without_total_counts_items(make_client: MakeClient) -> None:
    client = make_client(Recorder(ok({"success": True, "accounts": [{"id": 1}]})))

    page = await client.list_accounts(3)

    assert page.total == 1


async def test_junk_rooms_page(make_client: MakeClient) -> None:
    reply = {
        "success": True,
        "pageSize": 20,
        "pageNumber": 0,
        "totalRooms": 1,
        "rooms": [
            {
                "roomId": "123:456",
                "name": "Unknown caller",
                "id": 9,
                "unregistered": True,
                "lastMessage": "hi",
                "lastMessageTimestamp": 1750194180,
                "chatAgentCampaignId": "cfg-5",
            }
        ],
    }
    client = make_client(Recorder(ok(reply)))

    page = await client.list_junk_rooms()

    assert isinstance(page, m.JunkRoomPage)
    assert (page.page_size, page.page_number, page.total_rooms) == (20, 0, 1)
    room = page.rooms[0]
    assert (room.room_id, room.id, room.chat_agent_campaign_id) == ("123:456", 9, "cfg-5")
    assert room.last_message_at is not None and room.last_message_at.year == 2025


async def test_create_token_returns_record(make_client: MakeClient) -> None:
    record = {
        "token": "new-secret-token-abcd",
        "description": "ci",
        "type": "admin",
        "timestamp": "1750194180352",
        "userId": 7,
    }
    reply = {"success": True, "message": "Token created successfully", "token": record}
    client = make_client(Recorder(ok(reply)))

    token = await client.create_token("ci")

    assert isinstance(token, m.TokenRecord)
    assert token.token == "new-secret-token-abcd"
    assert token.user_id == 7
    assert token.created_at is not None and token.created_at.year == 2025


async def test_rename_version_reply(make_client: MakeClient) -> None:
    reply = {"success": True, "versionId": 1750194180352, "newTitle": "Launch"}
    client = make_client(Recorder(ok(reply)))

    change = await client.rename_version("cfg-1", 1750194180352, "Launch")

    assert (change.version_id, change.new_title) == (1750194180352, "Launch")


async def test_recording_status_null_and_present(make_client: MakeClient) -> None:
    recording = {"state": "recording", "recordingId": "r-1", "slotId": 2, "finalized": False}
    client = make_client(
        Recorder(ok({"success": True, "recording": None}), ok({"recording": recording}))
    )

    assert await client.recording_status(5) is None
    status = await client.recording_status(5)
    assert status is not None and (status.recording_id, status.slot_id) == ("r-1", 2)


async def test_start_recording_reply_fields(make_client: MakeClient) -> None:
    reply = {
        "success": True,
        "state": "recording",
        "recordingId": "r-1",
        "slotId": 3,
        "finalized": False,
        "updatedAt": "2025-06-17T21:03:00Z",
        "evidenceRoot": "/evidence/r-1",
    }
    client = make_client(Recorder(ok(reply)))

    recording = await client.start_recording(5, 3)

    assert recording.evidence_root == "/evidence/r-1"
    assert recording.updated_at == "2025-06-17T21:03:00Z"
    assert recording.finalized is False


async def test_upload_result(make_client: MakeClient) -> None:
    reply = {"success": True, "path": "a.txt", "size": 3, "mode": "0644", "overwritten": False}
    client = make_client(Recorder(ok(reply)))

    result = await client.upload_file(5, "a.txt", b"abc")

    assert (result.path, result.size, result.overwritten) == ("a.txt", 3, False)


async def test_delete_relay_envelope_message(make_client: MakeClient) -> None:
    message = "Webhook Relay type 'chargebee' removed successfully."
    client = make_client(Recorder(ok({"success": True, "message": message})))

    envelope = await client.delete_relay("chargebee")

    assert envelope.success is True
    assert envelope.message == message


async def test_201_created_is_success(make_client: MakeClient) -> None:
    client = make_client(
        Recorder(ok({"success": True, "message": "IP entry created successfully"}, status=201))
    )

    envelope = await client.add_sip_entry("192.0.2.1")

    assert envelope.message == "IP entry created successfully"


async def test_observers_hear_exchanges_without_secrets(make_client: MakeClient) -> None:
    heard: list[Exchange] = []
    client = make_client(Recorder(ok({"success": True, "message": "done"})))
    client.observers.append(heard.append)

    await client.delete_token("old-token-value-0000-zzzz", target=8)
    await client.set_adr_export(
        m.AdrExportConfig(
            delivery_protocol="ftp", host="h.example", port=21, username="u", password="pw-99"
        )
    )
    relay = m.RelayRequest(url="https://r.example.com", headers=[("Authorization", "Bearer s3")])
    await client.save_relay("stripe", relay)

    assert [(e.method, e.path, e.target, e.status) for e in heard] == [
        ("DELETE", "/api/v2/tokens", 8, 200),
        ("POST", "/api/v2/billing/adrExportConfig", None, 200),
        ("POST", "/api/v2/webhookRelay/stripe", None, 200),
    ]
    text = repr(heard)
    assert "old-token-value-0000-zzzz" not in text
    assert "pw-99" not in text
    assert "Bearer s3" not in text and "Authorization" in text
    assert TOKEN not in text
    assert heard[0].message == "done"


async def test_observer_hears_failures(make_client: MakeClient) -> None:
    heard: list[Exchange] = []
    client = make_client(
        Recorder(httpx.Response(404, json={"success": False, "message": "No such agent"}))
    )
    client.observers.append(heard.append)

    with pytest.raises(Exception):  # noqa: B017 - the kind is tested elsewhere
        await client.get_agent("cfg-x")

    assert heard[0].status == 404
    assert heard[0].message == "No such agent"


async def test_relays_read_the_published_headers_and_the_old_object(
    make_client: MakeClient,
) -> None:
    """api-facts: ``headers`` is an array of single-key objects; one object is read too."""
    published = {
        "type": "twilioSMS",
        "url": "https://relay.example.com/sms",
        "timeout": 5000,
        "headers": [{"Authorization": "Bearer xyz"}, {"X-Tag": "a"}, None, {"X-Tag": "b"}],
        "successStatusCodes": [200, 202],
    }
    old = {"type": "chargebee", "headers": {"X-Relay-Source": "vida"}}
    odd = {"type": "stripe", "headers": "Authorization: Bearer xyz"}
    client = make_client(Recorder(ok({"success": True, "configs": [published, old, odd]})))

    relays = await client.list_relays()

    assert [r.type for r in relays] == ["twilioSMS", "chargebee", "stripe"]
    assert relays[0].headers == [("Authorization", "Bearer xyz"), ("X-Tag", "a"), ("X-Tag", "b")]
    assert relays[1].headers == [("X-Relay-Source", "vida")]
    assert relays[2].headers == []  # not a shape anyone published: nothing read, record kept
    assert relays[0].success_status_codes == [200, 202]


async def test_save_relay_reply_message(make_client: MakeClient) -> None:
    message = "Webhook Relay for type 'stripe' configured successfully."
    client = make_client(Recorder(ok({"success": True, "message": message})))

    reply = await client.save_relay("stripe", m.RelayRequest(url="https://relay.example.com/s"))

    assert reply.message == message


@pytest.mark.parametrize(
    "stamp",
    [1678829072, 1678829072.5, "1678829072", 1678829072000, "1678829072000", "2023-03-14T21:24:32"],
)
async def test_sip_and_webhook_timestamps_number_or_text(
    make_client: MakeClient, stamp: object
) -> None:
    """api-facts: a number (epoch seconds); numeric text, milliseconds and ISO read too."""
    entry = {"ip": "192.0.2.1", "label": "pbx", "timestamp": stamp, "userId": 5}
    hook = {"url": "https://h.example.com", "type": "agent", "timestamp": stamp}
    client = make_client(
        Recorder(ok({"success": True, "whitelist": [entry]}), ok({"webhooks": [hook]}))
    )

    (sip,) = await client.list_sip_whitelist()
    (webhook,) = await client.list_webhooks()

    for record in (sip, webhook):
        assert record.added_at is not None
        assert record.added_at.strftime("%Y-%m-%d %H:%M:%S") == "2023-03-14 21:24:32"


@pytest.mark.parametrize("stamp", [None, "", "soon", True, {"at": 1}, [1]])
async def test_an_unreadable_timestamp_keeps_the_record(
    make_client: MakeClient, stamp: object
) -> None:
    entry = {"ip": "192.0.2.1", "timestamp": stamp}
    client = make_client(Recorder(ok({"success": True, "whitelist": [entry]})))

    (sip,) = await client.list_sip_whitelist()

    assert sip.ip == "192.0.2.1" and sip.added_at is None
