"""Requests as the platform asks for them, nothing more (issue 15, points 9 to 11).

The status endpoint of a migration is used as given; optional flags are sent only when
set; a base URL that ends in ``/api/v2`` is not doubled.
"""

from __future__ import annotations

import pytest

from tests.unit.api.conftest import MakeClient
from vagent_tui.api.client import PlatformClient

from .helpers import BASE, TOKEN, Recorder, ok, query

# --------------------------------------------------------------------------- point 9: status


@pytest.mark.parametrize(
    ("endpoint", "path", "params"),
    [
        ("/api/v2/templates/migrations/t-9", "/api/v2/templates/migrations/t-9", {}),
        ("/status/t-9?verbose=1", "/status/t-9", {"verbose": ["1"]}),
        ("/api/v2/tasks/t-9?kind=migration&kind=template", "/api/v2/tasks/t-9",
         {"kind": ["migration", "template"]}),
        (f"{BASE}/v3/tasks/t-9?x=1", "/v3/tasks/t-9", {"x": ["1"]}),
        ("templates/migrations/t-9", "/api/v2/templates/migrations/t-9", {}),
    ],
    ids=["prefixed", "other-root-path", "repeated-key", "absolute-same-origin", "relative"],
)  # fmt: skip
async def test_status_endpoint_is_used_as_given(
    make_client: MakeClient, endpoint: str, path: str, params: dict[str, list[str]]
) -> None:
    recorder = Recorder(ok({"success": True, "taskId": "t-9", "status": "running"}))
    client = make_client(recorder)

    task = await client.migration_status(endpoint)

    sent = recorder.last
    assert sent.url.host == "platform.test" and sent.url.path == path
    assert query(sent) == {"token": [TOKEN], **params}
    assert task.status == "running"


async def test_status_endpoint_keeps_the_base_path_of_a_gateway(make_client: MakeClient) -> None:
    recorder = Recorder(ok({"success": True, "taskId": "t-9"}))
    client = PlatformClient(f"{BASE}/vida", TOKEN, transport=recorder.transport())
    try:
        await client.migration_status("/api/v2/templates/migrations/t-9?a=b")
    finally:
        await client.aclose()

    assert recorder.last.url.path == "/vida/api/v2/templates/migrations/t-9"
    assert query(recorder.last) == {"token": [TOKEN], "a": ["b"]}


async def test_status_endpoint_never_carries_a_second_token_or_target(
    make_client: MakeClient,
) -> None:
    recorder = Recorder(ok({"success": True, "taskId": "t-9"}))
    client = make_client(recorder)

    await client.migration_status(
        "/api/v2/templates/migrations/t-9?token=LEAKED&targetAccountId=1&keep=1", target=42
    )

    assert query(recorder.last) == {"token": [TOKEN], "targetAccountId": ["42"], "keep": ["1"]}


# --------------------------------------------------------------------------- point 10: flags


async def test_unread_is_sent_only_when_asked(make_client: MakeClient) -> None:
    recorder = Recorder(ok({"success": True, "rooms": []}))
    client = make_client(recorder)

    await client.list_junk_rooms()
    await client.list_junk_rooms(unread=True)

    first, second = (query(r) for r in recorder.requests)
    assert "unread" not in first
    assert second["unread"] == ["true"]


async def test_include_data_is_sent_only_when_asked(make_client: MakeClient) -> None:
    recorder = Recorder(ok({"success": True, "versions": []}))
    client = make_client(recorder)

    await client.list_versions("cfg-1")
    await client.list_versions("cfg-1", include_data=True)

    first, second = (query(r) for r in recorder.requests)
    assert "includeData" not in first
    assert second["includeData"] == ["true"]


# --------------------------------------------------------------------------- point 11: base


@pytest.mark.parametrize(
    "base",
    [BASE, f"{BASE}/", f"{BASE}/api/v2", f"{BASE}/api/v2/", f"{BASE}//api/v2//"],
)
async def test_a_base_url_ending_in_the_prefix_is_not_doubled(base: str) -> None:
    recorder = Recorder(ok({"success": True, "id": 1}))
    client = PlatformClient(base, TOKEN, transport=recorder.transport())
    try:
        await client.get_account()
    finally:
        await client.aclose()

    assert recorder.last.url.path == "/api/v2/account"
    assert client.base_url == BASE


async def test_a_base_path_before_the_prefix_is_kept() -> None:
    recorder = Recorder(ok({"success": True, "id": 1}))
    client = PlatformClient(f"{BASE}/vida/api/v2/", TOKEN, transport=recorder.transport())
    try:
        await client.get_account()
    finally:
        await client.aclose()

    assert recorder.last.url.path == "/vida/api/v2/account"
