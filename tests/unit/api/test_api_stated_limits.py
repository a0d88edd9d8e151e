"""Only the limits the spec states are checked before sending (issue 15, point 14).

Limits the simulator chose where the spec is silent are listed in its CONTRACT.md and
not enforced by the client: the platform answers a value it refuses with its message.
"""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from tests.unit.api.conftest import MakeClient
from vagent_tui.api import models as m

from .helpers import Recorder, json_body, ok

# --------------------------------------------------------------------------- point 14: limits


@pytest.mark.parametrize("minutes", ["1441", "2880", 10080])
def test_adr_rotation_has_no_invented_upper_limit(minutes: Any) -> None:
    config = m.AdrExportConfig(
        delivery_protocol="sftp", rotation_minutes=minutes, host="h.example.com", port=22,
        username="u", password="p",
    )  # fmt: skip

    assert config.wire()["rotationMinutes"] == str(int(minutes))


@pytest.mark.parametrize("minutes", ["0", "-5", "1.5", "sixty", "", True])
def test_adr_rotation_is_still_a_whole_number_of_minutes(minutes: Any) -> None:
    with pytest.raises(ValidationError):
        m.AdrExportConfig(
            delivery_protocol="sftp", rotation_minutes=minutes, host="h.example.com", port=22,
            username="u", password="p",
        )  # fmt: skip


async def test_token_description_may_be_empty_or_long(make_client: MakeClient) -> None:
    recorder = Recorder(ok({"success": True, "token": {"token": "vt_" + "q" * 40}}))
    client = make_client(recorder)

    await client.create_token("")
    await client.create_token("   ")
    await client.create_token("d" * 500)

    assert [json_body(r)["description"] for r in recorder.requests] == ["", "", "d" * 500]


async def test_version_titles_have_no_invented_length_limit(make_client: MakeClient) -> None:
    recorder = Recorder(ok({"success": True, "versionId": 1, "newTitle": "t" * 300}))
    client = make_client(recorder)

    await client.rename_version("cfg-1", 1, "t" * 300)
    await client.save_version("cfg-1", "s" * 300, "staging")

    assert json_body(recorder.requests[0]) == {"title": "t" * 300}
    assert json_body(recorder.requests[1])["title"] == "s" * 300
