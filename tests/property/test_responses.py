"""Arbitrary JSON replies: every client read either parses or raises a PlatformError.

Missing fields, wrong types, extra fields, huge strings and markup characters never
escape as anything else (a TypeError or a pydantic error would crash a screen).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from vagent_tui.api.client import PlatformClient
from vagent_tui.api.errors import PlatformError

KEYS = [
    "success", "message", "id", "name", "username", "accountType", "voices", "functions",
    "campaign", "versions", "tokens", "token", "whitelist", "webhooks", "types", "configs",
    "config", "accounts", "recording", "files", "templates", "taskId", "status", "counts",
    "history", "rooms", "totalRooms", "pageSize", "pageNumber", "resellers", "totalResellers",
    "organizations", "details", "label", "url", "ip", "timestamp", "slots", "state",
]  # fmt: skip
leaves = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**64), max_value=2**64)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20)
    | st.sampled_from(["[bold red]X[/]", "[/]", "[link=x]y", "x" * 20_000, "1750194180352"])
)
json_values = st.recursive(
    leaves,
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=6), inner, max_size=5)
    ),
    max_leaves=25,
)
replies = st.dictionaries(st.sampled_from(KEYS), json_values, max_size=8) | json_values

READS = [
    lambda c: c.get_account(),
    lambda c: c.list_resellers(1000, page=0),
    lambda c: c.search_accounts("x"),
    lambda c: c.list_functions(1111),
    lambda c: c.list_voices(),
    lambda c: c.get_agent("cfg-1111"),
    lambda c: c.get_staging(),
    lambda c: c.list_versions("cfg-1111", include_data=True),
    lambda c: c.rename_version("cfg-1111", 1, "t"),
    lambda c: c.list_tokens(),
    lambda c: c.create_token("d"),
    lambda c: c.list_sip_whitelist(),
    lambda c: c.list_webhooks(),
    lambda c: c.list_relay_types(),
    lambda c: c.list_relays(),
    lambda c: c.get_relay("crm"),
    lambda c: c.delete_relay("crm"),
    lambda c: c.list_computer_accounts(),
    lambda c: c.recording_status(1118),
    lambda c: c.start_recording(1118, 0),
    lambda c: c.create_automation_session(1118),
    lambda c: c.upload_file(1118, "a.txt", b"x"),
    lambda c: c.list_workspace_files(1118),
    lambda c: c.list_templates(),
    lambda c: c.migrate("tpl"),
    lambda c: c.migration_status("/api/v2/templates/migrations/t"),
    lambda c: c.list_junk_rooms(),
]


def touch(value: Any) -> None:
    """Use what a screen would use: attributes, properties, repr."""
    items = value if isinstance(value, list) else [value]
    for item in items:
        repr(item)
        for cls in type(item).__mro__:
            if not cls.__module__.startswith("vagent_tui"):
                continue
            for name, attr in vars(cls).items():
                if isinstance(attr, property):
                    getattr(item, name)
        for name in ("items", "rooms"):
            subs = getattr(item, name, None)
            for sub in subs if isinstance(subs, list) else []:
                repr(sub)


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    reply=replies,
    status=st.sampled_from([200, 200, 201, 400, 500]),
    which=st.integers(0, len(READS) - 1),
)
def test_any_reply_parses_or_raises_a_platform_error(reply: Any, status: int, which: int) -> None:
    body = json.dumps(reply).encode()

    async def go() -> None:
        transport = httpx.MockTransport(lambda request: httpx.Response(status, content=body))
        client = PlatformClient(
            "http://platform.test", "vgt-SENTINEL-4242-abcdef", transport=transport, get_retries=0
        )
        try:
            result = await READS[which](client)
        except PlatformError as exc:
            assert "SENTINEL" not in str(exc) and "SENTINEL" not in repr(exc)
            assert exc.message.strip()
            return
        finally:
            await client.aclose()
        touch(result)

    asyncio.run(go())
