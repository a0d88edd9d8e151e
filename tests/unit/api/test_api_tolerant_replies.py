"""Replies the platform may send, read without costing more than they must (issue 15).

A ``null`` where a string or a list is expected keeps the record (point 6); fields
whose type the platform does not promise are read in each plausible form (point 7); an
upload answered 200 without a JSON object is a success (point 8).
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.unit.api.conftest import MakeClient
from tests.unit.api.helpers import Reply
from vagent_tui.api import models as m
from vagent_tui.api.errors import ApiError, MalformedResponse

from .helpers import Recorder, ok

# --------------------------------------------------------------------------- point 6: nulls


async def test_a_voice_with_null_strings_and_null_list_items_is_kept(
    make_client: MakeClient,
) -> None:
    voices = [
        None,
        {"id": "v-1", "name": None, "description": None, "languages": ["en-US", None],
         "compatibleS2SEngines": None},
        {"id": "v-2", "name": "Bea"},
    ]  # fmt: skip
    client = make_client(Recorder(ok({"success": True, "voices": voices})))

    got = await client.list_voices()

    assert [v.id for v in got] == ["v-1", "v-2"]
    assert got[0].name == ""
    assert got[0].languages == ["en-US"]
    assert got[0].compatible_s2_s_engines == []


async def test_a_function_with_null_label_and_details_is_kept(make_client: MakeClient) -> None:
    functions = [{"name": "transfer", "label": None, "details": None, "placeholder": None}, None]
    client = make_client(Recorder(ok({"success": True, "functions": functions})))

    got = await client.list_functions(1111)

    assert [(f.name, f.label, f.details) for f in got] == [("transfer", "", "")]


async def test_a_token_record_with_nulls_is_kept(make_client: MakeClient) -> None:
    tokens = [{"token": None, "description": None, "type": None, "timestamp": None}]
    client = make_client(Recorder(ok({"success": True, "tokens": [*tokens, None]})))

    got = await client.list_tokens()

    assert len(got) == 1
    assert got[0].token == "" and got[0].description is None and got[0].created_at is None


async def test_a_room_page_with_null_rooms_keeps_the_others(make_client: MakeClient) -> None:
    rooms = [None, {"roomId": "1:2", "name": None, "lastMessage": None}]
    page = {"success": True, "pageSize": 20, "pageNumber": 0, "totalRooms": 2, "rooms": rooms}
    client = make_client(Recorder(ok(page)))

    got = await client.list_junk_rooms()

    assert [r.room_id for r in got.rooms] == ["1:2"]
    assert got.total_rooms == 2


async def test_an_agent_configuration_with_nulls_in_lists_and_strings_is_kept(
    make_client: MakeClient,
) -> None:
    campaign: dict[str, Any] = {
        "id": "cfg-1",
        "title": None,
        "links": None,
        "keywords": ["a", None],
        "ignoreSpeech": [None],
        "activeEventRules": None,
        "actions": [None, {"name": "transfer", "instructions": None, "placeholder": None}],
        "reportingFields": [
            {"key": "reason", "label": None, "instructions": None,
             "values": {"kind": None, "choices": ["yes", None]}},
            None,
        ],
        "effectiveReportingFields": [None, {"key": "k", "label": None, "source": None}],
        "apps": [{"appId": None, "instructions": None}, None],
        "skills": [{"slug": "faq", "instructions": None}, None],
    }  # fmt: skip
    client = make_client(Recorder(ok({"success": True, "campaign": campaign})))

    config = await client.get_live()

    assert config is not None and config.id == "cfg-1"
    assert config.title is None
    assert config.links == [] and config.keywords == ["a"] and config.ignore_speech == []
    assert config.active_event_rules == []
    assert [(a.name, a.instructions) for a in config.actions] == [("transfer", "")]
    [field] = config.reporting_fields
    assert (field.key, field.label, field.instructions) == ("reason", "", "")
    assert field.values is not None and field.values.choices == ["yes"]
    assert [f.key for f in config.effective_reporting_fields] == ["k"]
    assert [(a.app_id, a.instructions) for a in config.apps] == [("", "")]
    assert [(s.slug, s.instructions) for s in config.skills] == [("faq", "")]


async def test_a_version_list_with_a_null_item_keeps_the_others(make_client: MakeClient) -> None:
    versions = [None, {"versionId": 1750194180352, "title": None}]
    client = make_client(Recorder(ok({"success": True, "versions": versions})))

    got = await client.list_versions("cfg-1")

    assert [(v.version_id, v.title) for v in got] == [(1750194180352, "")]


# --------------------------------------------------------------------------- point 7: types


@pytest.mark.parametrize("stamp", [1750194180352, "1750194180352", 1750194180.352])
async def test_token_timestamp_as_number_or_text(make_client: MakeClient, stamp: Any) -> None:
    record = {"token": "vt_abcdefghijkl", "timestamp": stamp}
    client = make_client(Recorder(ok({"success": True, "tokens": [record]})))

    [token] = await client.list_tokens()

    assert token.created_at is not None
    assert token.created_at.year == 2025


@pytest.mark.parametrize("value", ["true", True, False, "false"])
async def test_auto_recording_notification_as_text_or_boolean(
    make_client: MakeClient, value: Any
) -> None:
    campaign = {"id": "cfg-1", "autoRecordingNotification": value}
    client = make_client(Recorder(ok({"success": True, "campaign": campaign})))

    config = await client.get_live()

    assert config is not None and config.auto_recording_notification == value
    assert config.wire()["autoRecordingNotification"] == value


async def test_token_create_reply_with_a_bare_string_token(make_client: MakeClient) -> None:
    reply = {"success": True, "message": "Token created successfully", "token": "vt_" + "x" * 40}
    client = make_client(Recorder(ok(reply)))

    record = await client.create_token("CI deploys")

    assert record.token == "vt_" + "x" * 40
    assert record.description == "CI deploys" and record.type == "admin"
    assert "x" * 40 not in repr(record)


async def test_token_create_reply_with_a_bare_string_and_flat_fields(
    make_client: MakeClient,
) -> None:
    reply = {"success": True, "message": "Token created successfully", "token": "vt_" + "y" * 40,
             "description": "from the server", "type": "admin", "timestamp": 1750194180352,
             "userId": 7}  # fmt: skip
    client = make_client(Recorder(ok(reply)))

    record = await client.create_token("CI deploys")

    assert record.token == "vt_" + "y" * 40
    assert record.description == "from the server" and record.user_id == 7
    assert record.created_at is not None
    assert record.model_extra == {}  # the envelope's success and message are not fields


async def test_token_create_reply_with_a_record(make_client: MakeClient) -> None:
    sent = {"token": "vt_" + "z" * 40, "description": "d", "timestamp": "1"}
    reply = {"success": True, "message": "ok", "token": sent}
    client = make_client(Recorder(ok(reply)))

    record = await client.create_token("CI deploys")

    assert record.token == "vt_" + "z" * 40 and record.description == "d"


# --------------------------------------------------------------------------- point 8: upload


@pytest.mark.parametrize(
    "reply",
    [
        httpx.Response(200),
        httpx.Response(200, content=b"OK"),
        httpx.Response(200, content=b"<p>done</p>", headers={"content-type": "text/html"}),
        httpx.Response(200, json=True),
    ],
    ids=["empty", "text", "html", "json-not-object"],
)
async def test_upload_200_without_a_json_object_is_a_success(
    make_client: MakeClient, reply: Reply
) -> None:
    recorder = Recorder(reply)
    client = make_client(recorder)

    result = await client.upload_file(5, "notes/a.txt", b"abc")

    assert isinstance(result, m.UploadResult)
    assert result.message is None and result.path is None
    assert recorder.calls == 1


async def test_upload_error_status_without_json_is_still_an_error(make_client: MakeClient) -> None:
    client = make_client(Recorder(httpx.Response(413, content=b"Too large")))

    with pytest.raises(ApiError) as info:
        await client.upload_file(5, "notes/a.txt", b"abc")
    assert info.value.status == 413


async def test_upload_200_with_success_false_is_an_error(make_client: MakeClient) -> None:
    client = make_client(Recorder(ok({"success": False, "message": "Quota exceeded"})))

    with pytest.raises(ApiError) as info:
        await client.upload_file(5, "notes/a.txt", b"abc")
    assert info.value.message == "Quota exceeded"


async def test_other_writes_still_refuse_an_empty_200(make_client: MakeClient) -> None:
    client = make_client(Recorder(httpx.Response(200)))

    with pytest.raises(MalformedResponse):
        await client.start_recording(5, 0)


async def test_members_with_nulls_and_another_shape_are_kept(make_client: MakeClient) -> None:
    members = [
        None,
        {"id": 3, "email": None, "role": None, "permittedAccountIds": None, "extra": [1]},
        {"id": "4", "email": "b@x.test", "permittedAccountIds": [1112, None]},
    ]
    client = make_client(Recorder(ok({"success": True, "members": members})))

    got = await client.list_members()

    assert [m.id for m in got] == [3, 4]
    assert got[0].email == "" and not got[0].restricted
    assert got[1].permitted_account_ids == [1112] and got[1].restricted


async def test_one_member_as_a_record_or_at_the_top_level(make_client: MakeClient) -> None:
    nested = make_client(Recorder(ok({"success": True, "member": {"id": 3, "email": "a@x.test"}})))
    flat = make_client(Recorder(ok({"success": True, "id": 3, "email": "a@x.test"})))
    assert (await nested.get_member(3)).email == (await flat.get_member(3)).email == "a@x.test"


# --------------------------------------------------------------------------- provisioning


@pytest.mark.parametrize(
    ("reply", "created"),
    [
        ({"success": True, "account": {"id": 5, "name": "Desk"}}, 5),
        ({"success": True, "organization": {"id": 6}}, 6),
        ({"success": True, "account": "New Account object"}, None),  # the reference's example
        ({"success": True}, None),
    ],
)
async def test_a_create_reply_of_any_shape(
    make_client: MakeClient, reply: dict[str, Any], created: int | None
) -> None:
    client = make_client(Recorder(ok(reply, status=201)))
    got = await client.create_account(3, m.NewAgentAccount(account_name="Desk"))
    assert (got.id if got is not None else None) == created


async def test_a_settings_reply_without_its_lists(make_client: MakeClient) -> None:
    client = make_client(Recorder(ok({"success": True, "failedSettings": None})))
    got = await client.update_account(3, m.AccountUpdate(active=True))
    assert got.updated_settings == [] and got.failed_settings == []


async def test_nothing_updated_is_an_error_with_the_platforms_message(
    make_client: MakeClient,
) -> None:
    body = {"success": False, "message": "No settings updated", "failedSettings": ["active"]}
    client = make_client(Recorder(httpx.Response(400, json=body)))
    with pytest.raises(ApiError) as info:
        await client.update_account(3, m.AccountUpdate(active=True))
    assert info.value.message == "No settings updated"


async def test_tasks_with_nulls_numbers_and_unknown_states_are_kept(
    make_client: MakeClient,
) -> None:
    tasks = [
        None,
        {"id": 7, "state": "queued-by-carrier", "target": None, "createdAt": 1_800_000_000_000},
        {"id": "t-2", "state": None, "scheduledFor": "tomorrow", "extra": {"a": 1}},
    ]
    client = make_client(Recorder(ok({"success": True, "total": "2", "tasks": tasks})))

    page = await client.list_tasks()

    assert [t.key for t in page.tasks] == ["7", "t-2"]
    assert page.tasks[0].state_text == "queued-by-carrier" and not page.tasks[0].ended
    assert page.tasks[0].when("created_at") is not None  # milliseconds read alike
    assert page.tasks[1].state_text == "" and page.tasks[1].when("scheduled_for") is None


async def test_task_stats_of_another_shape_count_nothing(make_client: MakeClient) -> None:
    odd = make_client(Recorder(ok({"success": True, "byState": [1, 2]})))
    some = make_client(Recorder(ok({"byState": {"pending": 2, "odd": "x", "done": True}})))

    assert (await odd.get_task_stats()).counts() == {}
    assert (await some.get_task_stats()).counts() == {"pending": 2}


async def test_one_task_as_a_record_or_at_the_top_level(make_client: MakeClient) -> None:
    nested = make_client(Recorder(ok({"success": True, "task": {"id": "t-1", "state": "pending"}})))
    flat = make_client(Recorder(ok({"success": True, "id": "t-1", "state": "pending"})))

    assert (await nested.get_task("t-1")).pending
    assert (await flat.get_task("t-1")).key == "t-1"


async def test_a_queued_reply_without_tasks_is_read(make_client: MakeClient) -> None:
    client = make_client(Recorder(ok({"success": True, "message": "Outbound call initiated."})))

    queued = await client.place_call(m.OutboundCallRequest(target="+15551230001"))

    assert queued.tasks == [] and queued.inserted is None
